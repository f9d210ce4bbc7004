"""Why the ``not_reproduced`` rows of the published tir ledger miss (issues 24, 37).

The real run of 2026-12-06 takes one L-BFGS-B iteration per regression step (the reading
``regression_budget``, option ``lbfgs1``: one gradient-ascent step, the thesis's words;
``src/latentlab/studies/tir/readings.py``), 3 runs. Under it the recovery rows of REVERSALS.md
case 3 reproduce (C3.3: ML's L1 0.76 of the best baseline's; C3.3b; C3.6; C3.3c/d and C3.9
inconclusive), where the run before (50 iterations per step) missed all five.

- **open** (1): C3.7a, the top-l articles cited once: under one step per regression the
  top 5 by l have 2-5 citers in every run (share with one citer 0.00 against a base rate of
  0.34); the run before, at 50 iterations per step, had 0.8 (reproduced), the upward bias of
  ML where a document has one citer (REVERSALS.md case 3). Which reading the document's
  Table 3.2 came from is what the real readings sweep settles.
- **genuine** (1): C3.4 is arithmetic on the document's own printed counts.
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_CASE3 = "published/real/REVERSALS.md#case-3"
_SETTLE = (
    "settle: the real readings sweep (snakemake --cores 2 --configfile=config/real.yaml "
    "tir_readings; every option on the recovery of 600 documents and on Cora's exploratory "
    "fits, ~90 CPU-min), not yet run"
)

CAUSES = [
    # ------------------------------------------------------------------ Table 3.2 (Sec 3.5.2)
    Cause("C3.7a", "open", "published/real/tir/claims.csv (C3.7a note): under one L-BFGS-B "
          "iteration per regression step the top 5 documents by l have 2-5 in-corpus "
          "citers in each of 3 runs (share with one citer 0.00; all cited documents 0.34); "
          "the published run before (2026-11-27, 50 iterations per step) gave 0.8, which is "
          f"ML's upward bias where a document has one citer ({_CASE3}); {_SETTLE}",
          dataset="cora"),
    # ------------------------------------------------------------------ sign test (Sec 3.5.1)
    Cause("C3.4", "genuine", "published/real/tir/fig3_3_signtest.csv: the document's 33 of 45 "
          "untied pairs give exact binomial p 0.0025 (two-sided) / 0.0012 (one-sided), not "
          "its printed 5e-4", dataset="printed counts",
          no_other_reading="arithmetic on the document's own printed counts: an exact "
          "binomial p of 33 of 45 has no setting a reading could change"),
]  # fmt: skip
