"""Figures 4.1-4.2 (stochastic approximation demos) and 4.8-4.10 (CVB0 accuracy)."""

from __future__ import annotations

import numpy as np
import pandas as pd


# ------------------------------------------------------------------ Figs 4.1 / 4.2
def robbins_monro(n_iter: int, w0: float, seed: int, a: float = 1.0) -> pd.DataFrame:
    """Eq. 4.33: w := w + rho_t (sin(w) + xi_t), xi ~ N(0,1), rho_t = a/t (Fig. 4.1; the
    thesis gives neither the schedule nor w0: ours). The stable root of sin is pi."""
    rng = np.random.default_rng(seed)
    w = np.empty(n_iter + 1)
    w[0] = w0
    for t in range(1, n_iter + 1):
        w[t] = w[t - 1] + (a / t) * (np.sin(w[t - 1]) + rng.standard_normal())
    return pd.DataFrame({"iteration": np.arange(n_iter + 1), "w": w, "h_w": np.sin(w)})


def stochastic_gradient_ascent(n_iter: int, w0: float, seed: int, a: float = 1.0) -> pd.DataFrame:
    """Eqs. 4.34-4.36: ascent on sin(w) with noisy gradient cos(w) + xi; maximum at pi/2."""
    rng = np.random.default_rng(seed)
    w = np.empty(n_iter + 1)
    w[0] = w0
    for t in range(1, n_iter + 1):
        w[t] = w[t - 1] + (a / t) * (np.cos(w[t - 1]) + rng.standard_normal())
    return pd.DataFrame({"iteration": np.arange(n_iter + 1), "w": w, "f_w": np.sin(w)})


# ------------------------------------------------------------------ Figs 4.8 / 4.9
def count_moments(n_words: int, repeats: int, seed: int, a: float = 0.1, b: float = 0.1):
    """gamma_j ~ Beta(0.1, 0.1); E[n_i] = sum_{j<=i} gamma_j, Var[n_i] = sum gamma(1-gamma)
    (Lemma 4.4.1); Chebyshev bound Var/(0.1 E)^2. Row per i: the first repeat's values
    (the thesis's single curve) and the mean over repeats."""
    rng = np.random.default_rng(seed)
    g = rng.beta(a, b, size=(repeats, n_words))
    E = np.cumsum(g, axis=1)
    V = np.cumsum(g * (1 - g), axis=1)
    G2 = np.cumsum(g * g, axis=1)  # E - Var, exactly (no cancellation)
    with np.errstate(divide="ignore", invalid="ignore"):
        cheb = V / (0.1 * E) ** 2
    cheb = np.where(E > 0, cheb, np.nan)
    i = np.arange(1, n_words + 1)
    return pd.DataFrame(
        {
            "n_words": i,
            "mean": E[0],
            "variance": V[0],
            "mean_minus_variance": G2[0],
            "mean_avg": E.mean(0),
            "variance_avg": V.mean(0),
            "chebyshev_bound": cheb[0],
            "chebyshev_bound_avg": np.nanmean(cheb, axis=0),
        }
    )


# ------------------------------------------------------------------ Fig 4.10
def approximation_errors(
    word_counts, repeats: int, mc_draws: int, alpha: float, seed: int
) -> pd.DataFrame:
    """L1 error of the CVB0 (log(E n + alpha)) and second-order CVB (Eq. 4.25)
    approximations to E[log(n + alpha)], n ~ Poisson-binomial(gamma),
    gamma_j ~ Beta(0.1, 0.1), against the exact expectation (a DP of ours) and against a
    ``mc_draws``-sample Monte Carlo estimate (the thesis's truth), averaged over
    ``repeats`` draws of gamma."""
    from .demo_kernels import poisson_binomial_pmf  # numba: only Fig 4.10 needs it

    rng = np.random.default_rng(seed)
    rows = []
    for i in word_counts:
        e0x = e2x = e0m = e2m = 0.0
        for _ in range(repeats):
            g = rng.beta(0.1, 0.1, size=int(i))
            pmf = poisson_binomial_pmf(g)
            logs = np.log(np.arange(i + 1) + alpha)
            exact = float(pmf @ logs)
            cdf = np.cumsum(pmf)
            draws = np.minimum(np.searchsorted(cdf, rng.random(mc_draws) * cdf[-1]), int(i))
            mc = float(logs[draws].mean())
            En, Vn = g.sum(), (g * (1 - g)).sum()
            cvb0 = np.log(En + alpha)
            cvb = cvb0 - Vn / (2 * (alpha + En) ** 2)
            e0x += abs(cvb0 - exact)
            e2x += abs(cvb - exact)
            e0m += abs(cvb0 - mc)
            e2m += abs(cvb - mc)
        rows.append(
            dict(
                n_words=int(i),
                cvb0_err_exact=e0x / repeats,
                cvb_err_exact=e2x / repeats,
                cvb0_err_mc=e0m / repeats,
                cvb_err_mc=e2m / repeats,
            )
        )
    return pd.DataFrame(rows)
