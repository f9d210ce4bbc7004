"""Global (once-per-sweep) updates of truncated HDP-LDA (seed 001).

* PCVB / PCVB0 (the paper's proposal, Sec 5.2): q(π̃) by Eqs 24–26, E[π] by Eqs 27–28,
  α0 by the fixed point Eq 29, γ0 in closed form Eq 33, β0 by the fixed point Eq 30 and,
  for AA, τ by Eqs 31–32. All need only the log-zero statistics E[I(n ≥ 1)].
* CVB / CVB0 (Teh, Kurihara & Welling 2008, ref [24]; the paper does not give this
  machinery, Sec. 4: reconstructed from [24] as coded in JohnReid/infpy): Gamma
  hyperpriors on α0, β0, γ0, a Dirichlet(a_τ) prior on τ, auxiliary variables η, ξ and
  table counts s, t with second-order Taylor expectations over the "positive part"
  statistics P+, E+, V+.

Indexing: topics are 0-based here; the paper's k = 1..T is k = 0..T−1, and q(π̃_k) exists
for k = 0..T−2 (π̃_{T−1} = 1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import digamma

from latentlab.errors import DivergenceError, LatentlabError
from latentlab.models.hdp import kernels
from latentlab.models.hdp.options import Hyperprior  # noqa: F401 (its home until issue 23)


class FixedPointError(DivergenceError):
    """A hyperparameter fixed point (Eq 29 or 30) failed; names the iteration count."""

    def __init__(self, statistic: str, iteration: int, detail: str = ""):
        self.statistic = statistic
        self.iteration = iteration
        LatentlabError.__init__(
            self,
            f"fixed point for {statistic} did not converge after {iteration} inner iterations"
            + (f" ({detail})" if detail else ""),
        )


@dataclass
class FixedPoint:
    """Result of a Minka-style fixed-point iteration."""

    value: float
    n_iter: int
    converged: bool
    note: str = ""


# ----------------------------------------------------------------------- sticks
def stick_expectation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """E[π_k] under q(π̃_k) = Beta(a_k, b_k), π̃_T = 1 (Eqs 27–28).

    E[π_k] = a_k/(a_k+b_k) · Π_{l<k} b_l/(a_l+b_l);  E[π_T] = Π_{l<T} b_l/(a_l+b_l).
    Sums to 1 exactly (up to rounding).
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    frac = a / (a + b)
    rest = np.concatenate([[0.0], np.cumsum(np.log(b) - np.log(a + b))])
    return np.exp(rest) * np.concatenate([frac, [1.0]])


def stick_log_geometric(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """log G[π_k] = Ψ(a_k) − Ψ(a_k+b_k) + Σ_{l<k} (Ψ(b_l) − Ψ(a_l+b_l)); k = T has no own term."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    own = np.concatenate([digamma(a) - digamma(a + b), [0.0]])
    rest = np.concatenate([[0.0], np.cumsum(digamma(b) - digamma(a + b))])
    return own + rest


def uniform_stick(T: int) -> tuple[np.ndarray, np.ndarray]:
    """q(π̃) with E[π_k] = 1/T exactly: a_k = 1, b_k = T − k (1-based; derived here for
    Sec. 6's initialisation)."""
    k = np.arange(1, T)
    return np.ones(T - 1), (T - k).astype(np.float64)


def q_pi_pcvb(Idk_sum: np.ndarray, gamma0: float) -> tuple[np.ndarray, np.ndarray]:
    """q(π̃_k) = Beta(a_k, b_k) of Eqs 24–25 from m_k = Σ_d E[I(n_dk ≥ 1)] (length T).

    a_k = 1 + m_k,  b_k = γ0 + Σ_{l>k} m_l,  k = 1..T−1.
    """
    m = np.asarray(Idk_sum, dtype=np.float64)
    tail = np.cumsum(m[::-1])[::-1]  # tail[k] = Σ_{l>=k} m_l
    a = 1.0 + m[:-1]
    b = gamma0 + tail[1:]
    return a, b


def gamma0_closed_form(a: np.ndarray, b: np.ndarray) -> float:
    """Eq 33: γ0 = (T−1) / Σ_{k<T} [Ψ(a_k+b_k) − Ψ(b_k)] = (T−1)/(−Σ E[log(1−π̃_k)])."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return float(len(a) / np.sum(digamma(a + b) - digamma(b)))


def fixed_point_concentration(
    num: float,
    n: np.ndarray,
    x0: float,
    max_iter: int = 100,
    tol: float = 1e-8,
    name: str = "alpha0",
) -> FixedPoint:
    """Minka fixed point x ← num / Σ_j [Ψ(n_j + x) − Ψ(x)] (Eq 29 for α0, Eq 30 for β0).

    ``num`` = Σ E[I(n ≥ 1)], ``n`` = the group sizes (n_d for α0; E[n_k] for β0).
    x·Σ_j[Ψ(n_j+x) − Ψ(x)] rises from #{n_j > 0} (x → 0) to Σ n_j (x → ∞), so a positive
    root exists iff #{n_j > 0} < num < Σ n_j (derived here; not in the paper). Outside that
    range the
    result is reported as not converged (value clipped into [1e−8, 1e8]) with n_iter = 0.
    ``max_iter = 1`` takes a single step per outer iteration (the paper does not say how
    many inner iterations it ran).
    """
    n = np.asarray(n, dtype=np.float64)
    n = n[n > 1e-12]
    lo, hi = float(len(n)), float(n.sum())
    if not (lo < num < hi):
        val = 1e-8 if num <= lo else 1e8
        return FixedPoint(
            val, 0, False, f"{name}: no positive root (num={num:.6g}, range ({lo:.6g}, {hi:.6g}))"
        )
    x = float(x0)
    for it in range(1, max_iter + 1):
        den = float(np.sum(digamma(n + x) - digamma(x)))
        new = num / den
        if not np.isfinite(new) or new <= 0:
            return FixedPoint(x, it, False, f"{name}: non-finite step at inner iteration {it}")
        if abs(new - x) <= tol * x:
            return FixedPoint(new, it, True)
        x = new
    return FixedPoint(x, max_iter, max_iter == 1, "" if max_iter == 1 else f"{name}: max_iter")


def tau_from_counts(Ikv_sum: np.ndarray) -> np.ndarray:
    """Eq 31: τ_v ∝ Σ_k E[I(n_kv ≥ 1)] (AA). Words absent from training get τ_v = 0."""
    s = np.asarray(Ikv_sum, dtype=np.float64)
    return s / s.sum()


def floor_tau(tau: np.ndarray, eps: float) -> np.ndarray:
    """τ_v ← max(τ_v, eps), renormalised (ours: Eq 31 gives τ_v = 0 to words unseen in
    training and the paper does not say how it handled them)."""
    t = np.maximum(tau, eps)
    return t / t.sum()


# ------------------------------------------------------------------ CVB ([24])
# Ψ'' of the table counts is evaluated on every (d, k) and (v, k) cell each iteration (3M
# cells on KOS at T = 300): scipy's polygamma(2, x) (−2ζ(3, x), ~330 ns a cell, plus a digamma
# it discards) took ~1.2 s of the step's 1.6 s; kernels.psi2 gives the same values to ~1e-15
# relative at 1/15 of the cost.
psi2 = kernels.psi2


def positive_part(E: np.ndarray, V: np.ndarray, L: np.ndarray):
    """P+ = 1 − exp(Z), E+ = E/P+, V+ = V/P+ − (1 − P+)E+² ([24] via infpy; not in the
    paper); 0 where P+ ≈ 0."""
    P = -np.expm1(L)
    ok = P > 1e-12
    Ps = np.where(ok, P, 1.0)
    Ep = np.where(ok, E / Ps, 0.0)
    Vp = np.where(ok, V / Ps - (1.0 - P) * Ep**2, 0.0)
    return np.where(ok, P, 0.0), Ep, np.maximum(Vp, 0.0)


def expected_tables(G: np.ndarray, P: np.ndarray, Ep: np.ndarray, Vp: np.ndarray) -> np.ndarray:
    """E[s] ≈ G·P+·[Ψ(G+E+) − Ψ(G) + ½V+Ψ''(G+E+)] ([24] via infpy; not in the paper);
    0 where P+ = 0."""
    x = G + Ep
    val = G * P * (digamma(x) - digamma(G) + 0.5 * Vp * psi2(x))
    return np.where(P > 0, val, 0.0)


def gamma_moments(shape: float, rate: float) -> tuple[float, float]:
    """E[x] and G[x] = exp(E[log x]) of Gamma(shape, rate)."""
    return shape / rate, float(np.exp(digamma(shape) - np.log(rate)))
