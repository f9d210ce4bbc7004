"""Fig 7.1 analogue (Sec. 7.2): paring back in variational inference for a Gaussian
Dirichlet-process mixture. The document's Fig 7.1 is taken from another paper; here the
same effect is shown on this run's own descriptors: scikit-learn's variational DP
mixture (spherical, truncation C) run one VB iteration at a time, counting after each
the clusters whose expected number of data is at least one."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from latentlab.data.splits import pool_train

from . import parts
from .runs import _load, _sub
from .study import STUDY, ParebackSettings


def clusters_per_iteration(X, C, gamma, n_iter, seed, min_count=1.0):
    """One VB iteration per ``fit`` call (warm start); after each, the clusters with
    sum_i q(z_i = c) >= ``min_count``, the lower bound and the cumulative seconds."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.mixture import BayesianGaussianMixture

    bgm = BayesianGaussianMixture(
        n_components=C,
        covariance_type="spherical",
        weight_concentration_prior_type="dirichlet_process",
        weight_concentration_prior=gamma,
        max_iter=1,
        tol=0.0,
        warm_start=True,
        random_state=seed,
    )
    rows, t = [], 0.0
    for it in range(1, n_iter + 1):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            bgm.fit(X)
        t += time.perf_counter() - t0
        n_c = bgm.predict_proba(X).sum(0)
        rows.append(dict(iteration=it, clusters=int((n_c >= min_count).sum()),
                         lower_bound=float(bgm.lower_bound_), seconds=t))  # fmt: skip
    return rows


@STUDY.run("pareback_part", settings=ParebackSettings)
def pareback_part(ctx):
    """One seed of the Fig 7.1 analogue: clusters with at least one expected datum and the
    lower bound after each VB iteration of a variational Gaussian DP mixture on the
    training descriptors (at most ``max_points``, the same seeded subsample every seed)."""
    s = ctx.settings.pareback
    r = int(parts.part_name(ctx, parts.pareback(ctx.settings))[1:])
    z, meta = _load(ctx.input("data"), ctx.settings.desc_per_doc, ctx.seed(7))
    X, _ = _sub(z, pool_train(z["rank"], s.n_train))
    rng = np.random.default_rng(ctx.seed(s.seed_offset))
    if s.max_points is not None and len(X) > s.max_points:
        X = X[np.sort(rng.choice(len(X), s.max_points, replace=False))]
    rows = []
    for row in clusters_per_iteration(X, s.C, s.gamma, s.n_iter, ctx.seed(s.seed_offset, r)):
        rows.append(dict(dataset=meta["dataset"], data_kind=meta["data_kind"], seed=r,
                         N=len(X), C=s.C, gamma=s.gamma, **row))  # fmt: skip
    parts.write(ctx.output("part"), rows)


@STUDY.run("pareback", settings=ParebackSettings)
def pareback(ctx):
    """Fig 7.1 analogue: the seeds' parts (``pareback_part``) collected in order."""
    names = parts.pareback(ctx.settings)
    files = parts.inputs(ctx, names)
    rows = [row for name in names for row in parts.read(files[name])[0]]
    pd.DataFrame(rows).to_csv(ctx.output("csv"), index=False)
