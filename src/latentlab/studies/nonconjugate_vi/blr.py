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


def fit_method(c, meth: str) -> str:
    """The model-level method of a Table row: ``jj`` is the batch or the sequential
    Jaakkola-Jordan bound (``blr.jj_form``; the document does not say which it ran)."""
    if meth == "jj" and c.jj_form == "sequential":
        return "jj_seq"
    return meth


def method_kw(c, meth: str) -> dict:
    """Convergence settings per method (the document gives none; ours)."""
    meth = fit_method(c, meth)
    if meth == "jj":
        return {"tol": c.jj_tol}
    if meth == "delta":
        return {"tol": c.delta_tol}
    return {}


def fit(c, meth, X, y, mu0, S0):
    """One posterior approximation q(theta) of a Table row's method."""
    return B.fit(fit_method(c, meth), X, y, mu0, S0, **method_kw(c, meth))


def evaluate(c, meth, q, X, y, seed: int) -> tuple[float, float]:
    """(accuracy, average log predictive likelihood) on test cases (Sec. 5.2): the
    predictive of ``blr.predictive``; the JJ rows' log likelihood from JJ's own bound on
    the predictive when ``blr.jj_predictive`` is ``bound`` (accuracy unchanged)."""
    acc, ll = B.scores(B.predict_proba(q, X, predictive=c.predictive, seed=seed), y)
    if meth in ("jj", "jj_seq") and c.jj_predictive == "bound":
        ll = float(np.mean(B.jj_bound_log_predictive(q, X, y)))
    return acc, ll


def table1_splits(d: dict, n_resplits: int, seed_of) -> list[tuple]:
    """Table 1's splits: the standard one (split 0: the document's train/test sizes) and
    ``n_resplits`` seeded re-splits of train + test at the same sizes (split r: the
    permutation of ``seed_of(r)``). Returns (split, Xtr, Ytr, Xte, Yte)."""
    out = [(0, d["Xtr"], d["Ytr"], d["Xte"], d["Yte"])]
    X = np.vstack([d["Xtr"], d["Xte"]])
    Y = np.vstack([d["Ytr"], d["Yte"]])
    n_tr = len(d["Xtr"])
    for r in range(1, n_resplits + 1):
        perm = np.random.default_rng(seed_of(r)).permutation(len(X))
        tr, te = perm[:n_tr], perm[n_tr:]
        out.append((r, X[tr], Y[tr], X[te], Y[te]))
    return out


def _prior(d, var):
    return np.zeros(d), float(var) * np.eye(d)


def table1_problems(ctx) -> tuple[pd.DataFrame, dict]:
    """Per (dataset, split, problem, method): accuracy and log likelihood on the test set;
    split 0 is the standard split, splits 1.. ``blr.resplits`` seeded re-splits at its sizes
    (the spread of Table 1's values)."""
    c = ctx.settings.blr
    rows, info = [], {}
    for spec in c.table1:
        name = spec.name
        d = load_multilabel(spec, ctx.seed(), ctx.inputs.get(name, [None])[0])
        for k in ("Xtr", "Xte"):
            B.check_task(d[k], np.zeros(len(d[k])), f"{name} {k}")
        splits = table1_splits(d, c.resplits, lambda r: ctx.seed(c.resplit_seed, r))
        for split, Xtr0, Ytr, Xte0, Yte in splits:
            Xtr, Xte, prep = B.standardize(Xtr0, Xte0)
            mu0, S0 = _prior(Xtr.shape[1], c.prior_var)
            single = []
            for j in range(Ytr.shape[1]):
                ytr, yte = Ytr[:, j].astype(float), Yte[:, j].astype(float)
                if len(np.unique(ytr)) < 2:
                    single.append(j)
                for meth in c.methods:
                    t0 = time.perf_counter()
                    q = fit(c, meth, Xtr, ytr, mu0, S0)
                    dt = time.perf_counter() - t0
                    acc, ll = evaluate(c, meth, q, Xte, yte, ctx.seed())
                    rows.append({"dataset": name, "split": split, "problem": j, "method": meth,
                                 "accuracy": acc, "loglik": ll, "fit_s": dt,
                                 "data_kind": d["data_kind"]})  # fmt: skip
            if split == 0:
                info[name] = {
                    **prep,
                    "n_train": len(Xtr),
                    "n_test": len(Xte),
                    "d": Xtr.shape[1],
                    "single_class_training_problems": single,
                    "data_kind": d["data_kind"],
                }
            else:
                info[name].setdefault("resplit_single_class_problems", {})[split] = single
    meta = {
        "preprocessing": info,
        "predictive": c.predictive,
        "jj_predictive": c.jj_predictive,
        "jj_form": c.jj_form,
        "resplits": c.resplits,
        "test": "one-sided t-test over problems, ours - JJ > 0",
    }
    return pd.DataFrame(rows), meta


def _school_split(args):
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1):
        return _school_split_inner(args)


def _school_split_inner(args):
    X, y, g, mask, r, c, methods, seed = args
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
        q = fit(c, meth, Xtr, ytr, mu0, S0)
        acc, ll = evaluate(c, meth, q, Xte, yte, seed)
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
        qs_sep = [fit(c, meth, Xj, yj, mu0, S0) for Xj, yj in tasks]
        t_sep = time.perf_counter() - t0
        t0 = time.perf_counter()
        qs_h, _, _, hist = fit_hierarchical(
            tasks,
            fit_method(c, meth),
            kappa_h=hyper.kappa_h,
            nu_offset=hyper.nu_offset,
            psi_scale=hyper.psi_scale,
            max_iter=c.hier_max_iter,
            method_opts=method_kw(c, meth),
            tol=c.hier_tol,
        )
        t_h = time.perf_counter() - t0
        for setting, qs, tt in (("separate", qs_sep, t_sep), ("hierarchical", qs_h, t_h)):
            n_ok, ll_sum = 0.0, 0.0
            for s, q in zip(schools, qs, strict=True):
                k = gte == s
                if k.any():
                    a_s, l_s = evaluate(c, meth, q, Xte[k], yte[k], seed)
                    n_ok += a_s * k.sum()
                    ll_sum += l_s * k.sum()
            acc, ll = n_ok / len(yte), ll_sum / len(yte)
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
    jobs = [(X, y, g, masks[r], r, c, list(c.methods), ctx.seed()) for r in range(sc.n_splits)]
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
        "predictive": c.predictive,
        "jj_predictive": c.jj_predictive,
        "jj_form": c.jj_form,
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
                fit(c, meth, Xtr, d["Ytr"][:, j].astype(float), mu0, S0)
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
        fit(c, meth, Xtr, y[mask], mu0, S0)
        rows.append({"what": "blr_fit_school_pooled", "method": meth, "K": 0,
                     "dataset": "school", "data_kind": kind,
                     "value": time.perf_counter() - t0, "unit": "s",
                     "n": int(mask.sum())})  # fmt: skip
    return rows
