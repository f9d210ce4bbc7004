"""Why the ``not_reproduced`` rows of the published iwtm ledger miss (issue 24).

The iwtm ``real`` run is the most reduced of the seven (config/real.yaml: 20 dense-SIFT
descriptors per image instead of ~600, 20 Gibbs sweeps instead of 500, T = 25 instead of
50, CAVI truncations C/K = 400/800 instead of 4000/8000, 25-100 training images per class
instead of up to 1300 in total). Accuracies sit 20-30 points under the document's at every
method. The iwtm ladder (``published/ladder/iwtm/``, issue 24) closes three of the gaps
toward the document's settings (E5, E4.3, FF65: ``reduction``) and leaves two (E7, E11)
where they were; the other rows stay ``open`` until its higher rungs (200 and ~600
descriptors per image, 500 sweeps: a cluster) measure them; each open entry names the rung
that would settle it.
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_CASE6 = "published/real/REVERSALS.md (case 6)"
_LAD = "published/ladder/iwtm/ladder.csv"

CAUSES = [
    # exact CAVI pares back; the rises come from minibatch noise (rho < 1) and sparse top-C /
    # simulated reordering, where no monotonicity is promised
    Cause("E32", "genuine", f"{_CASE6}; tests/models/iwtm/test_paring_back.py: exact CAVI "
          "never raises the clusters in use; +1/+2 rises on 200-400 clusters come from "
          "minibatch noise and sparse top-C lists"),
    # the iwtm ladder (published/ladder/iwtm/: at 100 images per class, 20 -> 60 descriptors
    # per image at the original size, then Gibbs 100 sweeps and C/K 4000/8000, 3 seeds)
    # closes these gaps toward the document's
    Cause("E5", "reduction", f"{_LAD}: soft IWTM - LDA on its clusters -0.14 (real) -> +0.69 "
          "(60 descriptors per image) -> +2.08 points (+ Gibbs 100 sweeps, C/K 4000/8000); "
          "document +7", dataset="scene13"),
    Cause("E4.3", "reduction", f"{_LAD}: 8-scene IWTM at T = 100 62.75 % (real) -> 74.33 -> "
          "75.54 (document 76.4, tolerance 1: reproduced at the last rung that runs here)",
          dataset="scene8"),
    Cause("FF65", "reduction", f"{_LAD}: best sLDA+BOW 47.9 % (real) -> 56.8 -> 59.4 against "
          "Fei-Fei & Perona's 65.2 %", dataset="scene13"),
    # open: the ladder does not close these (settle: its d200 and doc rungs, a cluster)
    Cause("E7", "open", f"{_LAD}: CAVI IWTM - best LDA+KMEANS -1.39 -> -1.71 -> -2.80 points "
          "(document +1.1): both rise with the data, LDA+KMEANS faster", dataset="scene13"),
    Cause("E11", "open", f"{_LAD}: VI+SVM - Gibbs IWTM at 100/class -4.77 -> -0.78 -> -5.60 "
          "points (document +3.0): Gibbs gains most from 100 sweeps", dataset="scene13"),
    # open: the iwtm ladder's higher rungs (descriptors per image 200 -> all; Gibbs sweeps
    # 500; the document's T = 50 and repeated runs), seeds >= 3
    Cause("E15", "open", ""),  # ELBO order of SVI vs CAVI at C/K 4000/8000 (case 6)
    Cause("E16", "open", ""),  # same runs as E15, timed
    # GDPMM vocabulary shrinks with data (203 -> 170 words) where IWTM's grows: the
    # document does not say how its GDPMM was fitted; try its concentration and truncation
    # (gamma 1/10/100, C 400/4000) and a collapsed Gibbs sampler at n_train = 100
    Cause("E9", "open", ""),
    Cause("E[1-8]", "open", ""),  # Fig 4.1 / Table 4.1 / Fig 5.2: descriptor and sweep rungs
    Cause("E1[0-4]", "open", ""),  # Figs 5.2-5.4: descriptor rungs; E13 timing at 500 sweeps
    Cause("E18", "open", ""),  # SVI vs LDA+KMEANS time at the document's sizes
    Cause("E2[5-9]", "open", ""),  # Table 7.1 and Figs 7.4-7.6 at the document's sizes
    Cause("E30", "open", ""),  # b~ one-hot share at C/K 4000/8000
    Cause("E3[34]", "open", ""),  # Sec 8.2 cost shares at 780k descriptors (the bench rungs)
]  # fmt: skip
