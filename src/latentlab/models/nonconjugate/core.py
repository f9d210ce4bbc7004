"""The generic q(theta) updates of Wang & Blei (2013), Sec. 3.1-3.4 and Figure 1.

Equation numbers are the document's; our copy of it (an arXiv HTML extraction) lost the
displayed equations, so the formulas below are re-derived from its text. Notation (ours,
the extraction lost the symbols): f(theta) is the key function of Eq. 12,
f(theta) = eta(theta)^T E_q(z)[t(z)] - a(eta(theta)) + log p(theta), H = grad^2 f.

* Laplace VI (Sec. 3.1, Eq. 14): theta_hat = argmax f,
  q(theta) = N(theta_hat, -H(theta_hat)^-1).
* Delta-method VI (Sec. 3.2, Eq. 17): maximise f(m) + 1/2 tr(H(m) V) + 1/2 log|V| over m
  with V fixed (needs third derivatives of f), then V = -H(m)^-1 (or the diagonal version).
* Eq. 16: the general Taylor objective around a chosen theta_hat; with theta_hat = argmax f
  its maximiser is (theta_hat, -H^-1) (claim C2), with theta_hat = previous m it is one
  Newton step (Ahmed & Xing 2007, claim C3).

The models (CTM, BLR, language model) supply f, its gradient and Hessian; this module holds
the optimisers and the Gaussian bookkeeping (Cholesky solves, log-determinants, entropies).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from latentlab.errors import DivergenceError

LOG2PI = float(np.log(2.0 * np.pi))


@dataclass
class GaussianQ:
    """q(theta) = N(m, V); ``V`` full (d x d) or diagonal (length-d vector)."""

    m: np.ndarray
    V: np.ndarray
    logdetV: float

    @property
    def diagonal(self) -> bool:
        return self.V.ndim == 1


def chol_logdet(A: np.ndarray) -> tuple[np.ndarray, float]:
    """Lower Cholesky factor of a symmetric positive-definite A and log|A|.

    Raises ``np.linalg.LinAlgError`` if A is not positive definite (callers decide the rule).
    """
    L = np.linalg.cholesky(A)
    return L, 2.0 * float(np.log(np.diag(L)).sum())


def psd_inverse(A: np.ndarray) -> tuple[np.ndarray, float]:
    """A^-1 and log|A| for a symmetric positive-definite A, by Cholesky."""
    c = sla.cho_factor(A, lower=True, check_finite=True)
    inv = sla.cho_solve(c, np.eye(A.shape[0]))
    inv = 0.5 * (inv + inv.T)
    return inv, 2.0 * float(np.log(np.diag(c[0])).sum())


def gaussian_entropy(logdetV: float, d: int) -> float:
    """Entropy of N(m, V): 1/2 log|V| + d/2 (1 + log 2 pi) (the constant kept, so that Eq. 21
    is comparable with Blei-Lafferty's bound)."""
    return 0.5 * logdetV + 0.5 * d * (1.0 + LOG2PI)


def newton_maximize(
    fgh: Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]],
    x0: np.ndarray,
    *,
    tol: float = 1e-10,
    max_iter: int = 100,
    f_only: Callable[[np.ndarray], float] | None = None,
    what: str = "f",
) -> tuple[np.ndarray, float, np.ndarray, int]:
    """Damped Newton with Armijo backtracking for a strictly concave f (our optimiser; the
    document leaves the maximisation of Eq. 12 to "numerical methods").

    ``fgh(x)`` returns (f, grad, Hessian). Stops when the Newton decrement
    g^T (-H)^-1 g / 2 < tol. Returns (x_hat, f(x_hat), H(x_hat), iterations).
    """
    x = np.array(x0, dtype=float, copy=True)
    f, g, H = fgh(x)
    fo = f_only if f_only is not None else (lambda z: fgh(z)[0])
    it = 0
    for it in range(1, max_iter + 1):
        if not np.isfinite(f):
            raise DivergenceError(what, it, "non-finite objective in Newton")
        try:
            c = sla.cho_factor(-H, lower=True)
            step = sla.cho_solve(c, g)
        except np.linalg.LinAlgError:
            # not concave here: fall back to a gradient step scaled by the Hessian diagonal
            step = g / np.maximum(np.abs(np.diag(H)), 1e-8)
        dec = float(g @ step)
        if dec / 2.0 < tol:
            break
        t = 1.0
        while True:
            xn = x + t * step
            fn = fo(xn)
            if np.isfinite(fn) and fn >= f + 1e-4 * t * dec:
                break
            t *= 0.5
            if t < 1e-12:
                fn = f
                xn = x
                break
        if xn is x:
            break
        x = xn
        f, g, H = fgh(x)
    return x, float(f), H, it


def laplace_update(
    fgh: Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]],
    m0: np.ndarray,
    *,
    tol: float = 1e-10,
    max_iter: int = 100,
    f_only: Callable[[np.ndarray], float] | None = None,
) -> tuple[GaussianQ, float, np.ndarray]:
    """Laplace VI update of q(theta) (Eq. 14): N(argmax f, -H^-1).

    Returns (q, f(theta_hat), H(theta_hat)).
    """
    th, f, H, _ = newton_maximize(fgh, m0, tol=tol, max_iter=max_iter, f_only=f_only)
    V, logdet_negH = psd_inverse(-H)
    return GaussianQ(th, V, -logdet_negH), f, H


def delta_objective(f_m: float, H_m: np.ndarray, V: np.ndarray, logdetV: float) -> float:
    """The delta-method objective of Eq. 17: f(m) + 1/2 tr(H(m) V) + 1/2 log|V|.

    ``V`` may be a full matrix or the diagonal as a vector (then only diag H enters).
    """
    if V.ndim == 1:
        tr = float(np.diag(H_m) @ V) if H_m.ndim == 2 else float(H_m @ V)
    else:
        tr = float(np.sum(H_m * V))
    return f_m + 0.5 * tr + 0.5 * logdetV


def taylor_objective(
    theta_hat: np.ndarray,
    f_hat: float,
    g_hat: np.ndarray,
    H_hat: np.ndarray,
    m: np.ndarray,
    V: np.ndarray,
) -> float:
    """Eq. 16: E_q of the second-order Taylor expansion of f at theta_hat, plus 1/2 log|V|.

    f(th) + g^T (m - th) + 1/2 (m - th)^T H (m - th) + 1/2 tr(H V) + 1/2 log|V|.
    """
    dm = m - theta_hat
    _, logdet = chol_logdet(V)
    return float(
        f_hat + g_hat @ dm + 0.5 * dm @ H_hat @ dm + 0.5 * np.sum(H_hat * V) + 0.5 * logdet
    )


def ahmed_xing_step(g_hat: np.ndarray, H_hat: np.ndarray, theta_hat: np.ndarray):
    """Maximiser of Eq. 16 with theta_hat = previous m (Sec. 3.2, the second choice of theta_hat).

    m_new = theta_hat - H^-1 g (one Newton step), V = -H^-1 (claim C3).
    """
    V, logdet_negH = psd_inverse(-H_hat)
    return GaussianQ(theta_hat + V @ g_hat, V, -logdet_negH)
