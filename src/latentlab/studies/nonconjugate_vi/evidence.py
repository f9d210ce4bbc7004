"""Evidence steps of ``nonconjugate_vi``: the files its causes and published/real/REVERSALS.md
case 5 cite, built by the study's rules (``results/{run}/nonconjugate_vi/evidence/``) so that
``latentlab rebuild`` regenerates them (issue 37).

* ``evidence_em_iter_budget``: the EM iteration budget of config/real.yaml
  (``ctm.em_iter_budget``) derived from the timed sweeps of the 40 s wall-clock budget
  (:mod:`.em_budget`), beside the budget the run's config sets;
* ``evidence_fig5_converged``: Fig 5 fits run to the EM tolerance with the held-out
  likelihood scored after every EM iteration (REVERSALS case 5: the published verdict was
  drawn from fits the budget had cut).
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.outputs import write_table
from latentlab.studies.nonconjugate_vi.runs import single_blas
from latentlab.studies.nonconjugate_vi.study import (
    STUDY,
    EmBudgetEvidenceSettings,
    Fig5ConvergedSettings,
)


def time_budget_of(sweep_paths) -> float:
    """The wall-clock EM budget (``ctm.em_time_budget_s``) the timed sweeps ran with, from
    their ``.meta.json``: one value for all, else an error naming the files."""
    from latentlab.errors import DataError

    found = {}
    for p in map(Path, sweep_paths):
        meta = p.with_suffix(".meta.json")
        if not meta.is_file():
            raise DataError(meta, "a timed sweep needs its .meta.json (its time budget)")
        found[p.name] = json.loads(meta.read_text())["settings"]["ctm"]["em_time_budget_s"]
    values = set(found.values())
    if len(values) != 1 or None in values:
        raise DataError(
            ", ".join(map(str, sweep_paths)), f"no single time budget in the sweeps: {found}"
        )
    return float(values.pop())


@STUDY.run("evidence_em_iter_budget", settings=EmBudgetEvidenceSettings)
def evidence_em_iter_budget(ctx) -> None:
    """The EM iteration budget floor(S / t) + 1 per (corpus, K, method) from the timed
    sweeps (S their time budget, t their seconds per EM iteration), beside the run's
    ``ctm.em_iter_budget`` (``in_config``, -1 where it sets none; ``matches``)."""
    from latentlab.studies.nonconjugate_vi.em_budget import budget_table

    paths = ctx.input_list("timed")
    seconds = time_budget_of(paths)
    sweep = pd.concat([pd.read_csv(p) for p in paths], ignore_index=True)
    table = budget_table(sweep, seconds)
    c = ctx.settings.ctm
    cfg = []
    for r in table.itertuples(index=False):
        try:
            n = c.iter_budget(r.corpus, int(r.K), r.method)
        except KeyError:
            n = None
        cfg.append(-1 if n is None else int(n))  # -1: the run's config sets none
    table["in_config"] = cfg
    table["matches"] = table.em_iter_budget.eq(table.in_config)
    meta = {
        "time_budget_s": seconds,
        "rule": "em_iter_budget = floor(S / t) + 1, t = sum fit_time_s / sum em_iters over seeds",
        "timed_sweeps": [str(p) for p in paths],
    }
    write_table(table, ctx.output("csv"), meta=ctx.meta(**meta))


def converged_fit(job) -> list[dict]:
    """One EM run to its tolerance (at most ``em_max_iter`` iterations) with the held-out
    per-word log likelihood scored after every EM iteration, outside the timed region."""
    from threadpoolctl import threadpool_limits

    from latentlab.models.ctm import vi as R
    from latentlab.studies.nonconjugate_vi.ctm import method_opts, warmup

    train, obs, held, V, K, seed, method, c, max_iter = job
    with threadpool_limits(1):
        warmup()
        opts = method_opts(c, method)
        rows, cpu, t0 = [], 0.0, time.process_time()
        steps = R.em_iterations(
            train, R.init_topics(K, V, seed), method, max_iter=max_iter, tol=c.em_tol,
            opts=opts, pseudo=c.pseudo_count, ridge_rel=c.ridge_rel,
        )  # fmt: skip
        for model, _fits, rec in steps:
            cpu += time.process_time() - t0
            s, n = R.heldout_loglik(model, obs, held, predictive=c.predictive, n_mc=c.n_mc,
                                    seed=seed, opts=opts)  # fmt: skip
            rows.append({"K": K, "seed": seed, "method": method, "em_iter": rec["iter"],
                         "cpu_s": cpu, "bound_per_word": rec["bound_per_word"],
                         "heldout_per_word": s / n, "em_stop": rec["em_stop"] or ""})  # fmt: skip
            t0 = time.process_time()
    return rows


def summarise(trace: pd.DataFrame, sweep: pd.DataFrame | None) -> pd.DataFrame:
    """Per fit: its values at the EM iteration the run's sweep stopped the same fit
    (``sweep_stop``) and at its last iteration (``converged``: EM reached its tolerance,
    else ``last_iteration``); beside each, the sweep's own row of the fit (its held-out
    value: at ``sweep_stop`` a check that the two agree; NaN without one)."""
    out = []
    for (K, seed, method), g in trace.groupby(["K", "seed", "method"], sort=False):
        g = g.sort_values("em_iter")
        pts, p = [], None
        if sweep is not None:
            hit = sweep[(sweep.K == K) & (sweep.seed == seed) & (sweep.method == method)]
            if len(hit):
                p = hit.iloc[0]
                at = g[g.em_iter == int(p.em_iters)]
                if len(at):
                    pts.append(("sweep_stop", at.iloc[0]))
        last = g.iloc[-1]
        pts.append(("converged" if last.em_stop == "tolerance" else "last_iteration", last))
        for point, row in pts:
            out.append({
                "K": int(K), "seed": int(seed), "method": method, "point": point,
                "em_iter": int(row.em_iter), "em_stop": row.em_stop, "cpu_s": row.cpu_s,
                "bound_per_word": row.bound_per_word, "heldout_per_word": row.heldout_per_word,
                "sweep_heldout_per_word": p.heldout_per_word if p is not None else np.nan,
                "sweep_em_iters": int(p.em_iters) if p is not None else -1,
                "sweep_em_converged": bool(p.em_converged) if p is not None else False,
            })  # fmt: skip
    return pd.DataFrame(out)


@STUDY.run("evidence_fig5_converged", settings=Fig5ConvergedSettings)
@single_blas
def evidence_fig5_converged(ctx) -> None:
    """Fig 5 fits of one corpus run to the EM tolerance (same split, halves, initial topics
    and seeds as the sweep), the held-out likelihood after every EM iteration
    (``traces``), and per fit the values where the run's sweep stopped it and at its end
    (``csv``)."""
    from latentlab.studies.nonconjugate_vi.ctm import prepare_corpus
    from latentlab.studies.nonconjugate_vi.runs import _source

    c, ev = ctx.settings.ctm, ctx.settings.fig5_converged
    spec = c.corpus(ctx.settings.corpus)
    train, obs, held, V, info = prepare_corpus(ctx, spec, _source(ctx, spec.name))
    jobs = [(train, obs, held, V, int(K), ctx.seed(K, c.seed_stride * r), m, c, ev.em_max_iter)
            for K in ev.K for r in range(ev.seeds) for m in ev.methods]  # fmt: skip
    jobs.sort(key=lambda j: -j[4])  # the largest K (the longest fits) first
    workers = max(1, min(ctx.threads, len(jobs)))
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            res = list(ex.map(converged_fit, jobs))
    else:
        res = [converged_fit(j) for j in jobs]
    trace = pd.DataFrame([r for rows in res for r in rows])
    sweep = pd.read_csv(ctx.input("sweep")) if ctx.has_input("sweep") else None
    cpu = float(trace.groupby(["K", "seed", "method"]).cpu_s.max().sum())
    meta = {"corpus": info, "K": list(ev.K), "seeds": ev.seeds, "methods": list(ev.methods),
            "em_max_iter": ev.em_max_iter, "cpu_s_total": cpu}  # fmt: skip
    write_table(trace, ctx.output("traces"), meta=ctx.meta(**meta))
    # NaN: a fit the run's sweep does not hold (its sweep_* columns)
    write_table(summarise(trace, sweep), ctx.output("csv"), meta=ctx.meta(**meta), allow_nan=True)
