"""A deterministic EM budget for the CTM sweep (Wang & Blei 2013, Sec. 5.1, Fig. 5).

The document fits the CTM by variational EM and gives no budget. Our sweep can cut EM after
``ctm.em_time_budget_s`` seconds, which makes the number of EM iterations, and so Fig. 5 and
claims C8-C10, depend on the machine's speed and load. ``ctm.em_iter_budget`` cuts EM after
a fixed number of iterations per (corpus, K, method) instead; this module derives that
number from a run's sweep CSVs (``ctm_sweep_<corpus>.csv``), so that the budget gives each
fit the iterations the time budget gave it on the machine that measured it:

* t: the seconds per EM iteration of a (corpus, K, method), the sum of its fits'
  ``fit_time_s`` over the sum of their ``em_iters`` (its seeds pooled). The sweep times
  each fit in its own single-threaded worker process (one per core), so on an idle machine
  its wall-clock seconds are the fit's CPU seconds;
* the budget: floor(S / t) + 1 iterations for a time budget of S seconds. EM stops after
  the first iteration whose cumulative time exceeds S
  (:func:`latentlab.models.ctm.vi.em_iterations`), which with t seconds per iteration is
  iteration floor(S / t) + 1.

The study's ``evidence_em_iter_budget`` step writes the table from the timed sweeps
(``evidence/em_iter_budget.csv``, beside the budget the run's config sets);
:func:`budget_yaml` gives the YAML block.
"""

from __future__ import annotations

import math

import pandas as pd

KEYS = ["corpus", "K", "method"]


def budget_iterations(seconds: float, t: float) -> int:
    """EM iterations a time budget of ``seconds`` gives at ``t`` seconds per iteration:
    floor(seconds / t) + 1 (the iteration that crosses the budget is the last)."""
    if not (seconds > 0 and t > 0):
        raise ValueError(f"need seconds > 0 and t > 0, got seconds={seconds!r}, t={t!r}")
    return math.floor(seconds / t) + 1


def budget_table(sweep: pd.DataFrame, seconds: float) -> pd.DataFrame:
    """One row per (corpus, K, method) of ``sweep`` (rows of ``ctm_sweep_<corpus>.csv``), in
    the sweep's order: its fits' EM iterations (``em_iters``, per seed), how many reached the
    EM tolerance, t (``s_per_iter``) and the budget floor(seconds / t) + 1 (``em_iter_budget``).
    """
    missing = sorted({*KEYS, "em_iters", "fit_time_s"} - set(sweep.columns))
    if missing:
        raise ValueError(f"the sweep lacks the column(s) {missing}")
    rows = []
    for (corpus, K, method), g in sweep.groupby(KEYS, sort=False):
        t = float(g.fit_time_s.sum()) / float(g.em_iters.sum())
        conv = g.em_converged.astype(str).str.lower().eq("true") if "em_converged" in g else None
        rows.append(
            {
                "corpus": corpus,
                "K": int(K),
                "method": method,
                "n_fits": len(g),
                "em_iters": "/".join(str(int(n)) for n in g.em_iters),
                "n_converged": int(conv.sum()) if conv is not None else None,
                "s_per_iter": t,
                "em_iter_budget": budget_iterations(seconds, t),
            }
        )
    return pd.DataFrame(rows)


def budget_mapping(table: pd.DataFrame) -> dict[str, dict[int, dict[str, int]]]:
    """``ctm.em_iter_budget`` from :func:`budget_table`: corpus -> K -> method -> iterations."""
    out: dict[str, dict[int, dict[str, int]]] = {}
    for r in table.itertuples(index=False):
        out.setdefault(r.corpus, {}).setdefault(int(r.K), {})[r.method] = int(r.em_iter_budget)
    return out


def budget_yaml(mapping: dict, indent: int = 4) -> str:
    """The mapping as the YAML lines of ``nonconjugate_vi.ctm`` (one flow mapping per K)."""
    pad = " " * indent
    lines = [f"{pad}em_iter_budget:"]
    for corpus, by_K in mapping.items():
        lines.append(f"{pad}  {corpus}:")
        for K, by_m in by_K.items():
            inner = ", ".join(f"{m}: {n}" for m, n in by_m.items())
            lines.append(f"{pad}    {K}: {{{inner}}}")
    return "\n".join(lines)
