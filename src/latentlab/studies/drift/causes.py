"""Why the ``not_reproduced`` rows of the published drift ledger miss (issue 24).

Explained: the synthetic C2.6 traces (at the document's burn-in of 100, with 20 chains, the
K+ and alpha traces are not stationary). The rest is ``open``; each entry's evidence names,
after ``settle:``, the run that would settle it.
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_LEDGER = "published/real/drift/claims.csv"
_REAL = "config/real.yaml"
# the drift ladder's rung fc_doc: the Enron forecasts at the document's protocol
_FC_DOC = (
    "settle: the drift ladder's fc_doc rung (config/ladder.yaml: the Enron forecasts at "
    "the document's 3 chains x 100 burn-in x 10 samples; ~1.3-2.3 h on 2 cores with the "
    "rung's synthetic fits)"
)
# the synthetic text models (logistic and Gaussian links)
_TEXT = (
    "settle: the synthetic text fits at 3x the sweeps (drift.text_fit burnin 9000, "
    f"{_REAL}) and 3 chains, ~9x the published text_fit jobs' 70-132 CPU-s each "
    "(published/real/drift/bench_targets.csv)"
)

CAUSES = [
    Cause("C2.6", "genuine", "published/real/drift/claims.csv (C2.6 note): at the document's "
          "burn-in of 100, 0 of 6 synthetic fits reach split-R-hat < 1.1 (median K+ 4.7)",
          dataset="synthetic*"),
    # C2.6 and C2.8 on Enron stay separate entries: the fc_doc run replaces them
    Cause("C2.6", "open", f"{_REAL} drift.monthly_fit: the Enron monthly fits run 2 chains x 20 "
          f"burn-in (forecasts) and 2 x 40 (missing data); {_FC_DOC}; the missing-data fit "
          "stays at 2 x 40 there (the document's 30 x 300: the ladder's doc rung, cluster "
          "only)"),
    Cause("C2.8", "open", f"{_REAL} drift.monthly_fit: Fig 2.4's Enron forecasts at 2 chains x "
          f"20 burn-in x 3 samples; {_FC_DOC}"),
    Cause("C2.3", "open", "published/real/REVERSALS.md#case-2: Fig 2.2 at fixed K = 3 recovers "
          "one feature of three, with chains from the prior at the document's sigma_W = 0.1; "
          "settle: the same fit at sigma_W = 2 from the prior (about 15 CPU-minutes)"),
    Cause("C2.7", "open", f"{_LEDGER} (C2.7 notes): 3 of 5 synthetic data sets per model miss a "
          f"planted feature (share passing 0.4, bar 0.8); {_TEXT}"),
    Cause("C2.13", "open", f"{_LEDGER} (C2.13 note): recorded samples with another topic "
          f"matching in 3 of 5 data sets; {_TEXT}", dataset="synthetic*"),
    Cause("C2.13", "open", f"{_LEDGER} (C2.13 note): 0.70 of the first chain's 20 topics matched "
          "by one independent chain after 3000 burn-in iterations; settle: the Enron "
          "subject-line fit at 3x the sweeps and 3 chains (drift.enron_text burnin 9000, "
          "chains 3), ~4.5x the published enron_text_fit job's 302 CPU-s "
          "(published/real/drift/bench_targets.csv)", dataset="enron*"),
    Cause("C2.11*", "open", f"{_LEDGER} (C2.11 notes): Enron topics from subject lines instead "
          "of email bodies; settle: fit the same 50 actors on message bodies where the "
          "mirror's copy has them"),
]  # fmt: skip
