"""Why the ``not_reproduced`` rows of the published nonconjugate_vi ledger miss (issue 24).

One :class:`~latentlab.claims.spec.Cause` per miss of ``published/real/nonconjugate_vi/
claims.csv`` (39 rows), matched by claim id and data set; every evidence names a file of the
repository. What is known:

- **reduction** (2): Fig. 5a's C8 on AP, the document's own corpus: the bound falls with K
  at the real run's EM iteration budget and rises with K once EM runs to its tolerance
  (``published/ladder/nonconjugate_vi/``).
- **genuine** (21): the CTM timing claims C12 and C16-ctm fail in ``bench.csv`` at the
  document's own K (50, 100) with same-language (numba) E-steps that reach their optima;
  C8-bl on AP, where with every fit converged Laplace's bound ties BL's at K = 5; and 18
  Table 1/2 rows that no alternative of the settings the document leaves open brings near
  (``published/real/causes/ncvi_blr_alternatives.csv``, below).
- **ambiguity** (11): Table 1/2 rows that one of those alternatives reproduces, or whose
  document value lies between ours at two prior variances. No alternative reproduces them
  all: prior_var 0.003-0.1 break Scene's T1-jj-accuracy (0.003-0.03 also School's
  T2-separate/jj-accuracy), 3 and 10 break Yeast's C14-ll,
  psi_scale 10 breaks five Table 2 rows, so the published run keeps its settings.
- **open** (5), each with the experiment that would settle it at the end of its evidence
  (``settle: ...``):

  - Fig 5 on 20 Newsgroups (C8, C9-bl): most fits are cut by the EM iteration budget
    (``config/real.yaml`` nonconjugate_vi.ctm.em_iter_budget: the iterations a 40 s budget
    gave on an idle 2-core machine; the document runs EM to its tolerance); the ladder runs AP
    only. C3-conv ran at the reduced fig2 settings (K = 20 after 3 EM iterations).
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_NCV = "published/real/nonconjugate_vi"
_LAD = "published/ladder/nonconjugate_vi/ladder.csv"
_ALT = "published/real/causes/ncvi_blr_alternatives.csv"
# the settling experiments of the open entries (issue 24: in the evidence, so the ledger shows them)
_NEWS = (
    "settle: the ladder with ctm_sweep_newsgroups.csv among config/ladder.yaml's "
    "nonconjugate_vi targets (EM to its tolerance on 20 Newsgroups, ~30 min on 2 cores at "
    "the AP ladder's measured cost)"
)

CAUSES = [
    # ------------------------------------------------------------------ CTM timings
    Cause("C12", "genuine", f"{_NCV}/bench.csv: ctm_estep_per_doc BL / Laplace 0.82, 0.30, 0.49 "
          "at K = 10, 50, 100 (both numba); tests/models/ctm/test_ctm_estep_optima.py: both "
          "reach their optima", dataset="ap"),
    Cause("C16-ctm", "genuine", f"{_NCV}/bench.csv: ctm_estep_per_doc delta / Laplace 1.33, "
          "0.86, 0.76 at K = 10, 50, 100 (Laplace full-V Newton, delta diagonal V); "
          "tests/models/ctm/test_ctm_estep_optima.py", dataset="ap"),
    # ------------------------------------------------------------------ Fig 2, Sec 3.2
    Cause("C3-conv", "open", f"{_NCV}/fig2_monotone.csv: Ahmed-Xing converged on 100 of 100 "
          "AP documents at K = 20 after 3 EM iterations (config/real.yaml: "
          "nonconjugate_vi.fig2); settle: the fig2 step at config/paper.yaml's "
          "nonconjugate_vi.fig2 (K = 50, 20 EM iterations, all 449 test documents; hypothesis: "
          "sharper topics make the undamped Newton step from m = 0 overshoot); ~20 EM "
          "iterations x ~85 s (a Laplace E-step at K = 50) plus the checks: ~30-40 CPU-min",
          dataset="ap"),
    # ------------------------------------------------------------------ Fig 5a, C8
    # The AP ladder (published/ladder/nonconjugate_vi/: EM to its tolerance, K <= 30 with 3
    # seeds, K <= 50 with one, the document's K <= 100 with 3) decides the AP rows. 20
    # Newsgroups is not on the ladder.
    Cause("C8-laplace", "reduction", f"{_LAD}: Spearman rho of the bound vs K -0.8 at the real "
          "EM iteration budget (0/12 fits converged) -> 1.0 with EM to its tolerance (12/12; "
          "rung converged), 1.0 at K <= 50 (rung K50_seed1) and 1.0 at the document's K <= 100 "
          "with 3 seeds (rung K100_doc, 81/81 fits converged)", dataset="ap"),
    Cause("C8-delta", "reduction", f"{_LAD}: Spearman rho -0.8 at the real EM iteration budget "
          "(0/12 converged) -> 1.0 with EM to its tolerance (rungs converged, K50_seed1) and at "
          "the document's K <= 100 with 3 seeds (K100_doc)", dataset="ap"),
    Cause("C8-laplace", "open", f"{_NCV}/ctm_sweep_newsgroups.csv: Laplace converged 3/3, "
          "0/3, 0/3, 0/3 at K = 5-30 (EM iteration budget); on AP the same row reverses once "
          f"EM runs to its tolerance ({_LAD}); {_NEWS}", dataset="newsgroups"),
    Cause("C8-delta", "open", f"{_NCV}/ctm_sweep_newsgroups.csv: delta converged 1/3 at K = 5, "
          f"0/3 at K >= 10 (EM iteration budget); on AP the same row reverses once EM runs to "
          f"its tolerance ({_LAD}); {_NEWS}", dataset="newsgroups"),
    Cause("C8-bl", "genuine", f"{_LAD}: with every fit converged, Laplace's mean bound is above "
          "BL's by 0.021-0.045 nats/word at K = 10-30 but not at K = 5 (-0.00008: -8.0029 vs "
          "-8.0028, 3 seeds; K50_seed1: -0.0036 at K = 5, above at K = 10-50); the same at "
          "the document's K <= 100 with 3 seeds (K100_doc: -0.00008 at K = 5)", dataset="ap"),
    Cause("C8-bl", "open", f"{_NCV}/ctm_sweep_newsgroups.csv: Laplace above BL at K = 5 (both "
          "converged, +0.015); BL above at K = 20/30 (0.17/0.32), where Laplace was cut after "
          f"4/2 EM iterations; converged on AP, Laplace is above BL at K >= 10 ({_LAD}); "
          f"{_NEWS}", dataset="newsgroups"),
    # ------------------------------------------------------------------ Fig 5b, C9 / C10
    # On AP, with EM converged, the C9-bl row (not judged at the real budget) fails as a tie
    # (the ladder).
    Cause("C9-bl", "open", f"{_NCV}/claims.csv: Laplace - BL on the 3 converged K = 5 pairs "
          "+0.0021 ± 0.0025, min -0.0003; pairs at K >= 10 cut by the EM budget; on AP with EM "
          "converged Laplace - BL is a tie at every K (per-K means -0.005 to +0.005, sd 0.007; "
          f"min -0.014; {_LAD}); {_NEWS}", dataset="newsgroups"),
    # ------------------------------------------------------------------ Tables 1 and 2
    # Every row re-judged under 12 alternatives of the blr settings the document leaves open
    # (scripts/ncvi_blr_alternatives.py, one key at a time: prior_var 0.003, 0.01, 0.03, 0.1,
    # 0.3, 1 (ours), 3, 10; the mc predictive; the hierarchical hyperprior's psi_scale 0.1, 10; the
    # hierarchical EM of config/paper.yaml). ambiguity: an alternative reproduces the row, or
    # the document's value lies between ours at two prior variances; genuine: no alternative
    # comes near, or the curve over prior_var peaks short of it (prior_var 0.003-10).
    # Not varied: blr.py's z-scoring of the features (ours; the document mentions no
    # preprocessing).
    Cause("C13-ll-laplace", "ambiguity", f"{_ALT}: holds at prior_var 10 (Laplace -0.867 vs JJ "
          "-1.446), not at 0.1-3 (1: -0.420 vs -0.519, margin 0.21)", dataset="scene"),
    Cause("C14-ll", "ambiguity", f"{_ALT}: |delta - Laplace| LL 0.0006 with the mc predictive "
          "and 0.004 at prior_var 0.1 (tolerance 0.01); 0.149 with ours (plug-in, 1)",
          dataset="scene"),
    Cause("T1-laplace-accuracy", "ambiguity", f"{_ALT}: 88.88 % at prior_var 0.1 (document "
          "89.4, tolerance 0.945); 86.80 at 1, 84.81 at 10", dataset="scene"),
    Cause("T1-delta-accuracy", "ambiguity", f"{_ALT}: 89.09 % at prior_var 0.1 (document 89.5, "
          "tolerance 0.945); 87.30 at 1", dataset="scene"),
    Cause("T1-jj-loglik", "ambiguity", f"{_ALT}: the document's -0.670 lies between ours at "
          "prior_var 1 (-0.519) and 3 (-0.830); the same prior puts Laplace's LL near -0.5 "
          "(document -0.259)", dataset="scene"),
    Cause("C15-best", "ambiguity", f"{_ALT}: hierarchical Laplace best in every paired test at "
          "psi_scale 0.1 (largest p 0.030); ours (1.0) p 0.497 against hierarchical JJ",
          dataset="school"),
    Cause("T2-hierarchical/jj-accuracy", "ambiguity", f"{_ALT}: 71.36 % at psi_scale 10 "
          "(document 71.3), 72.24 at ours (1.0); psi_scale 10 breaks 5 reproduced rows "
          "(C15 pooled, T2-hierarchical/laplace-loglik)", dataset="school"),
    Cause("T2-separate/jj-loglik", "ambiguity", f"{_ALT}: the document's -0.684 lies between "
          "ours at prior_var 1 (-0.641) and 3 (-0.726)", dataset="school"),
    Cause("T1-delta-loglik", "ambiguity", f"{_ALT}: -0.2647 at prior_var 0.03 (document "
          "-0.265, tolerance 0.003); -0.281 at 0.1, -0.301 at 0.01, -0.569 at ours (1)",
          dataset="scene"),
    Cause("T1-jj-accuracy", "ambiguity", f"{_ALT}: 79.77 % at prior_var 0.03 and 79.88 at 0.01 "
          "(document 79.7, tolerance 0.225); 78.93 at ours (1); sequential JJ 78.51",
          dataset="yeast"),
    Cause("T1-laplace-accuracy", "ambiguity", f"{_ALT}: 79.88 % at prior_var 0.01 (document "
          "80.1, tolerance 0.225); 79.74 at 0.03, 78.95 at ours (1)", dataset="yeast"),
    Cause("T1-laplace-loglik", "genuine", f"{_ALT}: highest -0.2736 at prior_var 0.03 (-0.2773 "
          "at 0.1, -0.309 at 0.01, -0.390 at 0.003, -0.420 at ours, 1) against the document's "
          "-0.259 (tolerance 0.003): over prior_var 0.003-10 the curve peaks below it",
          dataset="scene"),
    Cause("T2-separate/laplace-loglik", "genuine", f"{_ALT}: highest -0.5772 at prior_var 0.1 "
          "(-0.585 at 0.3, -0.590 at 0.03, -0.618 at 0.01, -0.606 at ours, 1) against the "
          "document's -0.569 (tolerance 0.001)", dataset="school"),
    Cause("T2-separate/delta-loglik", "genuine", f"{_ALT}: highest -0.5826 at prior_var 0.1 "
          "(-0.608 at 0.3, -0.590 at 0.03, -0.618 at 0.01, -0.663 at ours, 1) against the "
          "document's -0.571 (tolerance 0.001)", dataset="school"),
    Cause("T1-delta-accuracy", "genuine", f"{_ALT}: highest 79.93 % at prior_var 0.01 (79.77 "
          "at 0.03, 79.36 at 0.003, 79.01 at ours, 1) against the document's 80.2 (tolerance "
          "0.225): over prior_var 0.003-10 the curve peaks 0.05 short of it", dataset="yeast"),
    Cause("T1-jj-loglik", "genuine", f"{_ALT}: JJ LL -0.459 to -0.513 over prior_var 0.003-10, "
          "-0.475 with the mc predictive (document -0.678); sequential JJ -0.547",
          dataset="yeast"),
    Cause("C13-*", "genuine", f"{_ALT}: not reproduced under any of the 12 alternatives; "
          "Yeast: Laplace/delta within 0.5 points and 0.02 nats of JJ at every prior_var "
          "(document: 0.4-0.5 points, 0.23 nats); Scene accuracy: JJ ahead of or level with "
          "Laplace/delta at every prior_var", dataset="yeast"),
    Cause("C13-*", "genuine", f"{_ALT}: not reproduced under any of the 12 alternatives "
          "(Scene: JJ's accuracy level with or above Laplace's and delta's at every prior_var; "
          "delta's LL never above JJ's by the margin 0.2025, below it at prior_var 1: -0.569 "
          "vs -0.519)", dataset="scene"),
    Cause("T2-separate/*-accuracy", "genuine", f"{_ALT}: 66.58-70.08 % at every prior_var and "
          "alternative (document 70.8, tolerance 0.63)", dataset="school"),
    Cause("T2-pooled/jj-loglik", "genuine", f"{_ALT}: -0.558 to -0.560 under every alternative "
          "(equal to Laplace's), document -0.685", dataset="school"),
    Cause("T2-pooled/delta-loglik", "genuine", f"{_ALT}: -0.5581 to -0.5601 under every "
          "alternative vs the document's -0.557 (tolerance 0.001); sd 0.0066 over our 10 "
          "regenerated splits (the document's splits are not public)", dataset="school"),
    Cause("T2-hierarchical/jj-loglik", "genuine", f"{_ALT}: -0.545 under every alternative "
          "but psi_scale 10 (-0.567; equal to Laplace's), document -0.685", dataset="school"),
    Cause("T2-hierarchical/delta-loglik", "genuine", f"{_ALT}: -0.5465 under every "
          "alternative but psi_scale 10 (-0.579; document -0.559, tolerance 0.001), above our "
          "pooled -0.558 at ours",
          dataset="school"),
]  # fmt: skip
