"""Logistic-regression computations of Wang & Blei (2013) Sec. 5.2: raw rows of Tables 1, 2.

Table 1 (Sec. 5.2): Yeast (14 problems) and Scene (6), standard Mulan train/test split,
Jaakkola-Jordan vs Laplace vs delta; accuracy and average log predictive likelihood with the
plug-in mean; one-sided t-tests over problems (Laplace - JJ > 0, delta - JJ > 0).
Preprocessing (the document mentions none; ours): z-score with training statistics, constant
columns dropped, bias appended. Prior (its values are lost in our copy of the document; ours):
N(0, prior_var I).

Table 2 (Sec. 5.2): School, separate / pooled / hierarchical x JJ / Laplace / delta;
target = exam score above the median (the document does not say which median; ours: over all
students); 10 seeded splits with
75% of each school's students in training; paired t-tests over splits (:mod:`.tables`).
``c`` is the ``blr`` settings (:class:`~.study.BlrSettings`).
"""

from __future__ import annotations

import logging
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

from latentlab.models.logreg import vi as B
from latentlab.models.logreg.hierarchical import fit_hierarchical
from latentlab.studies.nonconjugate_vi.data import load_multilabel, load_school

log = logging.getLogger(__name__)


def method_kw(c, meth: str) -> dict:
    """Convergence settings per method (the document gives none; ours)."""
    if meth == "jj":
        return {"tol": c.jj_tol}
    if meth == "delta":
        return {"tol": c.delta_tol}
    return {}


def _prior(d, var):
    return np.zeros(d), float(var) * np.eye(d)


def table1_problems(ctx) -> tuple[pd.DataFrame, dict]:
    """Per (dataset, problem, method): accuracy and log likelihood on the test set."""
    c = ctx.settings.blr
    rows, info = [], {}
    for spec in c.table1:
        name = spec.name
        d = load_multilabel(spec, ctx.seed(), ctx.inputs.get(name, [None])[0])
        for k in ("Xtr", "Xte"):
            B.check_task(d[k], np.zeros(len(d[k])), f"{name} {k}")
        Xtr, Xte, prep = B.standardize(d["Xtr"], d["Xte"])
        mu0, S0 = _prior(Xtr.shape[1], c.prior_var)
        single = []
        for j in range(d["Ytr"].shape[1]):
            ytr, yte = d["Ytr"][:, j].astype(float), d["Yte"][:, j].astype(float)
            if len(np.unique(ytr)) < 2:
                single.append(j)
            for meth in c.methods:
                t0 = time.perf_counter()
                q = B.fit(meth, Xtr, ytr, mu0, S0, **method_kw(c, meth))
                dt = time.perf_counter() - t0
                acc, ll = B.scores(
                    B.predict_proba(q, Xte, predictive=c.predictive, seed=ctx.seed()), yte
                )
                rows.append({"dataset": name, "problem": j, "method": meth, "accuracy": acc,
                             "loglik": ll, "fit_s": dt, "data_kind": d["data_kind"]})  # fmt: skip
        info[name] = {
            **prep,
            "n_train": len(Xtr),
            "n_test": len(Xte),
            "d": Xtr.shape[1],
            "single_class_training_problems": single,
            "data_kind": d["data_kind"],
        }
    meta = {
        "preprocessing": info,
        "predictive": c.predictive,
        "test": "one-sided t-test over problems, ours - JJ > 0",
    }
    return pd.DataFrame(rows), meta


def _school_split(args):
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        return _school_split_inner(args)


def _school_split_inner(args):
    X, y, g, mask, r, c, methods = args
    Xtr, Xte, _ = B.standardize(X[mask], X[~mask])
    gtr, gte = g[mask], g[~mask]
    ytr, yte = y[mask], y[~mask]
    dd = Xtr.shape[1]
    mu0, S0 = _prior(dd, c.prior_var)
    schools = np.unique(g)
    hyper = c.hyper
    out = []
    for meth in methods:
        # pooled
        t0 = time.perf_counter()
        q = B.fit(meth, Xtr, ytr, mu0, S0, **method_kw(c, meth))
        acc, ll = B.scores(B.predict_proba(q, Xte), yte)
        out.append(
            {
                "split": r,
                "setting": "pooled",
                "method": meth,
                "accuracy": acc,
                "loglik": ll,
                "fit_s": time.perf_counter() - t0,
                "em_iters": 0,
            }
        )
        # separate and hierarchical: per-school posteriors
        tasks = [(Xtr[gtr == s], ytr[gtr == s]) for s in schools]
        t0 = time.perf_counter()
        qs_sep = [B.fit(meth, Xj, yj, mu0, S0, **method_kw(c, meth)) for Xj, yj in tasks]
        t_sep = time.perf_counter() - t0
        t0 = time.perf_counter()
        qs_h, _, _, hist = fit_hierarchical(
            tasks,
            meth,
            kappa_h=hyper.kappa_h,
            nu_offset=hyper.nu_offset,
            psi_scale=hyper.psi_scale,
            max_iter=c.hier_max_iter,
            method_opts=method_kw(c, meth),
            tol=c.hier_tol,
        )
        t_h = time.perf_counter() - t0
        for setting, qs, tt in (("separate", qs_sep, t_sep), ("hierarchical", qs_h, t_h)):
            pr = np.empty(len(yte))
            for s, q in zip(schools, qs, strict=True):
                k = gte == s
                pr[k] = B.predict_proba(q, Xte[k])
            acc, ll = B.scores(pr, yte)
            out.append(
                {
                    "split": r,
                    "setting": setting,
                    "method": meth,
                    "accuracy": acc,
                    "loglik": ll,
                    "fit_s": tt,
                    "em_iters": len(hist) if setting == "hierarchical" else 0,
                }
            )
    log.info("school split %d done", r)
    return out


def school_data(ctx):
    """(X, y = score above the median, school index, data_kind, median)."""
    X, score, g, kind = load_school(
        ctx.settings.school, ctx.seed(), ctx.inputs.get("school", [None])[0]
    )
    B.check_task(X, np.zeros(len(X)), "school X")
    if not np.isfinite(score).all():
        raise ValueError("school: non-finite exam scores")
    med = float(np.median(score))
    _, g = np.unique(g, return_inverse=True)
    return X, (score > med).astype(float), g, kind, med


def table2_splits(ctx) -> tuple[pd.DataFrame, dict]:
    """Per (split, setting, method): accuracy and log likelihood (Table 2 raw rows)."""
    from latentlab.data.splits import task_splits

    c, sc = ctx.settings.blr, ctx.settings.school
    X, y, g, kind, med = school_data(ctx)
    masks = task_splits(g, sc.train_pct, ctx.seed(sc.split_seed), sc.n_splits)
    jobs = [(X, y, g, masks[r], r, c, list(c.methods)) for r in range(sc.n_splits)]
    workers = max(1, ctx.threads)
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            res = list(ex.map(_school_split, jobs))
    else:
        res = [_school_split(j) for j in jobs]
    per = pd.DataFrame([row for r in res for row in r])
    per["data_kind"] = kind
    meta = {
        "median": med,
        "positive_rate": float(y.mean()),
        "n_students": len(y),
        "n_schools": int(g.max() + 1),
        "d_raw": X.shape[1],
        "target": "exam score > median over all students",
        "test": "paired one-sided t-tests over splits",
    }
    return per, meta


def bench_blr(ctx) -> list[dict]:
    """BLR timing rows for bench.csv: each method per problem on Table 1 data and on School
    pooled (first split)."""
    from latentlab.data.splits import task_splits

    c, b, sc = ctx.settings.blr, ctx.settings.bench, ctx.settings.school
    rows = []
    for spec in c.table1:
        d = load_multilabel(spec, ctx.seed(), ctx.inputs.get(spec.name, [None])[0])
        Xtr, _, _ = B.standardize(d["Xtr"], d["Xte"])
        mu0, S0 = _prior(Xtr.shape[1], c.prior_var)
        for meth in ("laplace", "delta", "jj"):
            ts = []
            for j in range(min(d["Ytr"].shape[1], b.blr_problems)):
                t0 = time.perf_counter()
                B.fit(meth, Xtr, d["Ytr"][:, j].astype(float), mu0, S0, **method_kw(c, meth))
                ts.append(time.perf_counter() - t0)
            rows.append({"what": "blr_fit_per_problem", "method": meth, "K": 0,
                         "dataset": spec.name, "data_kind": d["data_kind"],
                         "value": float(np.mean(ts)), "unit": "s", "n": len(ts)})  # fmt: skip
    X, y, g, kind, _ = school_data(ctx)
    mask = task_splits(g, sc.train_pct, ctx.seed(sc.split_seed), 1)[0]
    Xtr, _, _ = B.standardize(X[mask], X[~mask])
    mu0, S0 = _prior(Xtr.shape[1], c.prior_var)
    for meth in ("laplace", "delta", "jj"):
        t0 = time.perf_counter()
        B.fit(meth, Xtr, y[mask], mu0, S0, **method_kw(c, meth))
        rows.append({"what": "blr_fit_school_pooled", "method": meth, "K": 0,
                     "dataset": "school", "data_kind": kind,
                     "value": time.perf_counter() - t0, "unit": "s",
                     "n": int(mask.sum())})  # fmt: skip
    return rows
