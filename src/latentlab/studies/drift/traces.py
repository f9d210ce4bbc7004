"""C2.6's trace statistics of the DRIFT fits: split-R̂ of K⁺ and α per fit, and the pooled
check of α against its conditional given K⁺ (shared by the claims and the trace evidence)."""

from __future__ import annotations

import numpy as np
import pandas as pd


def split_rhat(x) -> float:
    """Split-R̂ (Gelman et al., BDA3 §11.4) of draws ``x`` (chains, iterations): each chain
    cut in halves, so a trend inside a chain counts like a disagreement between chains.
    Every half constant: 1 when they agree, inf when they differ."""
    x = np.asarray(x, float)
    n = x.shape[1] // 2
    if n < 2:
        raise ValueError(f"split-R̂ needs >= 4 iterations per chain, got {x.shape[1]}")
    h = np.concatenate([x[:, :n], x[:, x.shape[1] - n :]])
    W = h.var(axis=1, ddof=1).mean()
    B = n * h.mean(axis=1).var(ddof=1)
    if W == 0:
        return 1.0 if B == 0 else float("inf")
    return float(np.sqrt(((n - 1) / n * W + B / n) / W))


def trace_stats(tr, by, alpha_a, alpha_b):
    """Per fit (``by`` columns): split-R̂ of K⁺ and α over iterations >= burn-in/2, and the
    pooled α check: α_i − E[α_i | K⁺_i] are martingale differences with variance
    (K⁺_i + α_a)/(H_M + α_b)², M = N·T, so z = Σ(α − mean)/√Σvar is N(0, 1)."""
    rows, e, v = [], 0.0, 0.0
    for key, g in tr.groupby(by):
        w = g[g.iteration >= int(g.burnin.iloc[0]) // 2]
        K = w.pivot(index="chain", columns="iteration", values="K").to_numpy()
        A = w.pivot(index="chain", columns="iteration", values="alpha").to_numpy()
        if K.shape[1] < 4:
            continue
        rate = np.sum(1.0 / np.arange(1, int(g["N"].iloc[0] * g["T"].iloc[0]) + 1)) + alpha_b
        e += float(np.sum(w.alpha - (w.K + alpha_a) / rate))
        v += float(np.sum((w.K + alpha_a) / rate**2))
        rows.append(
            {
                "fit": key,
                "rhat_K": split_rhat(K),
                "rhat_alpha": split_rhat(A),
                "K_end": float(K[:, -1].mean()),
                "alpha_mean": float(A.mean()),
                "chains": K.shape[0],
                "window": K.shape[1],
            }
        )
    return pd.DataFrame(rows), (e / np.sqrt(v) if v > 0 else float("nan"))
