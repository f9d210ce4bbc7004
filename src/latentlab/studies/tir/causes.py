"""Why the ``not_reproduced`` rows of the published tir ledger miss (issues 24, 37).

- **open** (5): the recovery rows C3.3, C3.3b-d and C3.6 are REVERSALS.md case 3. Sampler,
  objective and optimiser check out on data from TIR's own generator
  (``tests/models/tir/test_tir_l_recovery.py``), but the numbers depend on a reading the
  document leaves open: how far each regression step optimises l
  (``regression_budget`` in ``src/latentlab/studies/tir/readings.py``; the smoke sweep:
  ``tests/golden/smoke/tir/readings/regression_budget.csv``). The real sweep settles them:
  a row another option reproduces gets the cause ``reading`` from the sweep itself, a row no
  option reproduces becomes ``genuine`` citing it.
- **genuine** (1): C3.4 is arithmetic on the document's own printed counts.
- **substitute** (1): C3.9's speed ratio on Cora, whose documents are ~23x shorter than
  the document's NIPS papers, so the regression step (whose cost does not grow with
  document length) weighs many sweeps there.
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_CASE3 = "published/real/REVERSALS.md#case-3"
_TEST = "tests/models/tir/test_tir_l_recovery.py"
_SMOKE_SWEEP = "tests/golden/smoke/tir/readings/regression_budget.csv"
_SETTLE = (
    "settle: the real readings sweep (snakemake --cores 2 --configfile=config/real.yaml "
    "tir_readings; the recovery of 600 documents, 3 runs, 200 sweeps under each of the 5 "
    "options, ~75 CPU-min), published as published/real/tir/readings/regression_budget.csv: "
    "a row another option reproduces gets the cause reading, the others genuine citing it"
)

CAUSES = [
    # ------------------------------------------------------------------ l recovery (Sec 3.4)
    Cause("C3.3", "open", f"{_CASE3}; {_TEST}: sampler and regression check out; most cited "
          "documents have 1-3 citers, where ML of l is biased up (the evidence by citers, "
          "results/{run}/tir/evidence/recovery_by_citers.csv); the budget of a regression "
          f"step is a reading: {_SMOKE_SWEEP}; {_SETTLE}", dataset="synth_tir"),
    Cause("C3.3[bcd]", "open", f"{_CASE3}; {_TEST}: MAP, MH and slice sampling shrink "
          "toward the prior and beat ML where cited documents have 1-3 citers; the budget of "
          f"ML's regression step is a reading: {_SMOKE_SWEEP}; {_SETTLE}", dataset="synth_tir"),
    Cause("C3.6", "open", f"{_CASE3}; {_TEST}: the exact sampler is worse than l = 0 with "
          "the 50-iteration cap; where l is identified (star, 128 citers) the approximate "
          f"one doubles its error (0.36 vs 0.18); the budget is a reading: {_SMOKE_SWEEP}; "
          f"{_SETTLE}", dataset="synth_tir"),
    # ------------------------------------------------------------------ sign test (Sec 3.5.1)
    Cause("C3.4", "genuine", "published/real/tir/fig3_3_signtest.csv: the document's 33 of 45 "
          "untied pairs give exact binomial p 0.0025 (two-sided) / 0.0012 (one-sided), not "
          "its printed 5e-4", dataset="printed counts",
          no_other_reading="arithmetic on the document's own printed counts: an exact "
          "binomial p of 33 of 45 has no setting a reading could change"),
    # ------------------------------------------------------------------ speed (Sec 3.5)
    # The regression step's objective (models/tir/model.py) costs O(documents x K + links x
    # K) per evaluation, independent of the tokens; a sweep costs O(tokens x K).
    Cause("C3.9", "substitute", "published/real/data/cora/summary.json: 57 tokens/doc (NIPS "
          "1,323: src/latentlab/data/registry.py nips_cite); published/real/tir/bench.csv: "
          "regression 0.28 s with the 50-iteration cap, 8x a 0.034 s sweep; without it 0.59 "
          "(the regression budget is also a reading: src/latentlab/studies/tir/readings.py)",
          dataset="cora"),
]  # fmt: skip
