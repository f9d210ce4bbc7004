"""Normal-Gamma base measure of IWTM (Waters 2014, Sec. 3.1.2, 4.2.2, 5.3).

Clusters are spherical Gaussians N(mu, lambda^-1 I) with lambda ~ Gam(a, b) in the
shape/scale parameterisation (E[lambda] = a b) and mu | lambda ~ N(m, (beta0 lambda)^-1 I).
A cluster is summarised by its statistics n, s = sum x, q = sum ||x||^2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from scipy.special import digamma, gammaln

from latentlab.errors import ConfigError, DivergenceError

LOG2PI = math.log(2.0 * math.pi)


@dataclass(frozen=True)
class NGPrior:
    """m (D,), beta0 > 0, shape a > 0, scale b > 0."""

    m: np.ndarray
    beta0: float
    a: float
    b: float

    def __post_init__(self):
        for name in ("beta0", "a", "b"):
            v = getattr(self, name)
            if not (np.isfinite(v) and v > 0):
                raise ConfigError(f"iwtm prior {name}", f"must be > 0, got {v}")
        object.__setattr__(self, "m", np.ascontiguousarray(self.m, dtype=np.float64))

    @property
    def dim(self) -> int:
        return int(self.m.shape[0])

    @classmethod
    def from_data(cls, X: np.ndarray, beta0: float, chi1: float) -> NGPrior:
        """Ch. 5 settings: m = mean of X, shape chi1, scale chi2 with chi1 chi2 =
        precision(x) = N D / sum ||x - xbar||^2 (Sec. 5.5; the definition of precision(x) is
        ours, the thesis does not give it)."""
        X = np.asarray(X, dtype=np.float64)
        m = X.mean(0)
        ss = float(((X - m) ** 2).sum())
        if ss <= 0:
            raise ConfigError("iwtm prior", "descriptors have zero variance")
        prec = X.size / ss
        return cls(m, float(beta0), float(chi1), prec / float(chi1))


def _posterior_terms(n, s, q, prior: NGPrior):
    """(nu_n, m_n, a_n, rate_n) of the conjugate posterior given statistics."""
    D = prior.dim
    nu = prior.beta0 + n
    mn = (prior.beta0 * prior.m + s) / nu
    an = prior.a + 0.5 * n * D
    # tr(M)/2 = (q + beta0 ||m||^2 - nu ||m_n||^2)/2 (the M of (4.8)-(4.11), rewritten)
    rate = 1.0 / prior.b + 0.5 * (q + prior.beta0 * prior.m @ prior.m - nu * mn @ mn)
    return nu, mn, an, rate


def log_marginal(X: np.ndarray, prior: NGPrior) -> float:
    """log p(X) of one cluster with parameters integrated out (Eq. 4.11)."""
    X = np.asarray(X, dtype=np.float64).reshape(-1, prior.dim)
    n, D = X.shape
    nu, _, an, rate = _posterior_terms(n, X.sum(0), float((X * X).sum()), prior)
    return float(
        0.5 * D * (math.log(prior.beta0) - math.log(nu))
        - 0.5 * n * D * LOG2PI
        - prior.a * math.log(prior.b)
        - gammaln(prior.a)
        + gammaln(an)
        - an * math.log(rate)
    )


@nb.njit(cache=True)
def log_predictive_stats(x, n, s, q, m, beta0, a, b):
    """Student-t predictive log f(x | cluster with stats n, s, q) (ratio of Eq. 4.11)."""
    D = x.shape[0]
    nu = beta0 + n
    mm = 0.0
    mn2 = 0.0
    d2 = 0.0
    for j in range(D):
        mj = (beta0 * m[j] + s[j]) / nu
        mm += m[j] * m[j]
        mn2 += mj * mj
        d2 += (x[j] - mj) ** 2
    an = a + 0.5 * n * D
    rate = 1.0 / b + 0.5 * (q + beta0 * mm - nu * mn2)
    two_a_s2 = 2.0 * rate * (nu + 1.0) / nu
    return (
        math.lgamma(an + 0.5 * D)
        - math.lgamma(an)
        - 0.5 * D * math.log(math.pi * two_a_s2)
        - (an + 0.5 * D) * math.log1p(d2 / two_a_s2)
    )


def log_predictive(x, X_cluster, prior: NGPrior) -> float:
    """Predictive of x given the data X_cluster already in the cluster (n = 0 allowed)."""
    Xc = np.asarray(X_cluster, dtype=np.float64).reshape(-1, prior.dim)
    return float(
        log_predictive_stats(
            np.asarray(x, dtype=np.float64),
            float(len(Xc)),
            Xc.sum(0),
            float((Xc * Xc).sum()),
            prior.m,
            prior.beta0,
            prior.a,
            prior.b,
        )
    )


# ---------------------------------------------------------------------------- CAVI side
@dataclass
class ClusterQ:
    """q(mu_c, lambda_c) = N(mt, (nu lambda)^-1 I) Gam(chi1, chi2) for C clusters."""

    mt: np.ndarray  # C x D
    nu: np.ndarray  # C
    chi1: np.ndarray  # C
    chi2: np.ndarray  # C (scale)

    @property
    def e_lam(self) -> np.ndarray:
        return self.chi1 * self.chi2

    @property
    def e_loglam(self) -> np.ndarray:
        return digamma(self.chi1) + np.log(self.chi2)

    def const(self) -> np.ndarray:
        """Per-cluster constant of E l (Table 5.1) without the ||x - m||^2 term."""
        D = self.mt.shape[1]
        return 0.5 * D * (self.e_loglam - LOG2PI - 1.0 / self.nu)

    def copy(self) -> ClusterQ:
        return ClusterQ(self.mt.copy(), self.nu.copy(), self.chi1.copy(), self.chi2.copy())

    @classmethod
    def at_points(cls, points: np.ndarray, prior: NGPrior) -> ClusterQ:
        """Initial clusters (Sec. 5.4.7): means at the given data points, nu, chi1, chi2 at
        the prior's beta0, a, b."""
        C = len(points)
        return cls(
            np.asarray(points, dtype=np.float64).copy(),
            np.full(C, prior.beta0),
            np.full(C, prior.a),
            np.full(C, prior.b),
        )


def el_weights(q: ClusterQ) -> np.ndarray:
    """(D+2) x C weights: E l_ic = const_c - E[lam_c]/2 |x_i - m_c|^2 (Eq. 5.10's expected
    Normal-Gamma log-likelihood, Table 5.1) = [x_i, |x_i|^2, 1] . W[:, c] (see
    :func:`augment`)."""
    el = q.e_lam
    C, D = q.mt.shape
    W = np.empty((D + 2, C))
    W[:D] = (q.mt * el[:, None]).T
    W[D] = -0.5 * el
    W[D + 1] = q.const() - 0.5 * el * np.einsum("cd,cd->c", q.mt, q.mt)
    return W


def augment(X: np.ndarray) -> np.ndarray:
    """Feature rows [x, |x|^2, 1] (N x (D+2), C-contiguous float64) so that E l is one
    GEMM against :func:`el_weights`."""
    X = np.asarray(X, dtype=np.float64)
    Xa = np.empty((len(X), X.shape[1] + 2))
    Xa[:, : X.shape[1]] = X
    np.einsum("nd,nd->n", X, X, out=Xa[:, -2])
    Xa[:, -1] = 1.0
    return Xa


def cluster_elbo_terms(q: ClusterQ, prior: NGPrior) -> float:
    """sum_c E_q[log p(mu_c, lambda_c) - log q(mu_c, lambda_c)]: the clusters' part of the
    ELBO (derived here; the thesis does not write it) under the Normal-Gamma base measure."""
    p = prior
    D = p.dim
    el = q.e_lam
    dm = ((q.mt - p.m) ** 2).sum(1)
    elog = q.e_loglam
    lp = (
        0.5 * D * math.log(p.beta0 / (2 * math.pi))
        + (0.5 * D + p.a - 1) * elog
        - 0.5 * p.beta0 * (el * dm + D / q.nu)
        - el / p.b
        - p.a * math.log(p.b)
        - gammaln(p.a)
    )
    lq = (
        0.5 * D * np.log(q.nu / (2 * math.pi))
        + (0.5 * D + q.chi1 - 1) * elog
        - 0.5 * D
        - q.chi1
        - q.chi1 * np.log(q.chi2)
        - gammaln(q.chi1)
    )
    return float((lp - lq).sum())


def student_t_logpdf(X: np.ndarray, q: ClusterQ) -> np.ndarray:
    """N x C log predictive densities of the data under every cluster's q (the Student-t
    of Eq. 4.11's ratio with q's parameters): nu_t = 2 chi1, loc m~, scale^2 =
    (nu~ + 1) / (nu~ chi1 chi2), spherical in D dimensions."""
    X = np.asarray(X, dtype=np.float64)
    D = X.shape[1]
    two_a_s2 = 2.0 * (q.nu + 1.0) / (q.nu * q.chi2)  # 2 chi1 scale^2
    d2 = np.einsum("nd,nd->n", X, X)[:, None] - 2.0 * (X @ q.mt.T)
    d2 += np.einsum("cd,cd->c", q.mt, q.mt)[None, :]
    np.maximum(d2, 0.0, out=d2)
    c = gammaln(q.chi1 + 0.5 * D) - gammaln(q.chi1) - 0.5 * D * np.log(math.pi * two_a_s2)
    return c[None, :] - (q.chi1 + 0.5 * D)[None, :] * np.log1p(d2 / two_a_s2[None, :])


def cluster_posterior(n_c, s_c, q_c, prior: NGPrior) -> ClusterQ:
    """Eqs 5.13-5.16 with the +1/chi2 correction: weighted statistics n_c = sum rho,
    s_c = sum rho x, q_c = sum rho ||x||^2 -> q(mu, lambda). m~ is computed first."""
    D = prior.dim
    n_c = np.asarray(n_c, dtype=np.float64)
    nu = prior.beta0 + n_c  # (5.16)
    mt = (prior.beta0 * prior.m[None, :] + s_c) / nu[:, None]  # (5.15)
    chi1 = 0.5 * n_c * D + prior.a  # (5.13)
    dm = mt - prior.m[None, :]
    # sum rho ||x - m~||^2 = q - 2 m~.s + n ||m~||^2
    sq = q_c - 2.0 * np.einsum("cd,cd->c", mt, s_c) + n_c * np.einsum("cd,cd->c", mt, mt)
    sq = np.maximum(sq, 0.0)
    chi2 = 1.0 / (0.5 * prior.beta0 * np.einsum("cd,cd->c", dm, dm) + 0.5 * sq + 1.0 / prior.b)
    return ClusterQ(mt, nu, chi1, chi2)  # (5.14)


def expected_loglik(X: np.ndarray, q: ClusterQ) -> np.ndarray:
    """E l_ic = E log N(x_i | mu_c, lambda_c^-1 I) for every datum and cluster (Table 5.1)
    as one GEMM: const_c - E[lam_c]/2 (||x||^2 - 2 x.m~_c + ||m~_c||^2)."""
    el = q.e_lam
    G = X @ (q.mt * el[:, None]).T
    G += (q.const() - 0.5 * el * np.einsum("cd,cd->c", q.mt, q.mt))[None, :]
    G -= 0.5 * np.einsum("nd,nd->n", X, X)[:, None] * el[None, :]
    return G


# ---------------------------------------------------------------------------- SVI side
# Natural parameters of q(mu, lambda) = N(m, (nu lambda)^-1 I) Gam(chi1, chi2) (scale):
# eta = (nu m, nu, chi1 - 1, -(1/chi2 + nu ||m||^2 / 2)). The complete conditional of a
# cluster is prior + sum_i rho_ic (x_i, 1, D/2, -||x_i||^2/2), so the printed Eqs
# 6.17-6.27 (garbled in our copy) are replaced by this exact form (derived here; with
# rho = 1 and the full batch it gives 5.13-5.16, claim C4).
@dataclass
class NGNatural:
    e1: np.ndarray  # C x D
    e2: np.ndarray  # C
    e3: np.ndarray  # C
    e4: np.ndarray  # C

    def blend(self, other: NGNatural, rho: float) -> NGNatural:
        """(1 - rho) self + rho other (Eq. 6.11)."""
        if rho == 1.0:
            return other
        return NGNatural(*((1 - rho) * a + rho * b for a, b in zip(self.arrays(), other.arrays(),
                                                                    strict=True)))  # fmt: skip

    def arrays(self):
        return (self.e1, self.e2, self.e3, self.e4)


def to_natural(q: ClusterQ) -> NGNatural:
    nm2 = np.einsum("cd,cd->c", q.mt, q.mt)
    return NGNatural(
        q.nu[:, None] * q.mt, q.nu.copy(), q.chi1 - 1.0, -(1.0 / q.chi2 + 0.5 * q.nu * nm2)
    )


def from_natural(eta: NGNatural, where: str = "iwtm svi cluster block", it: int = -1) -> ClusterQ:
    """Back-map: nu = e2, m = e1/e2, chi1 = e3 + 1, 1/chi2 = -e4 - ||e1||^2/(2 e2).
    A point outside the natural domain (nu <= 0, chi1 <= 0, 1/chi2 <= 0) is an error."""
    nu = eta.e2
    mt = eta.e1 / nu[:, None]
    chi1 = eta.e3 + 1.0
    rate = -eta.e4 - 0.5 * np.einsum("cd,cd->c", eta.e1, eta.e1) / nu
    if not (np.all(nu > 0) and np.all(chi1 > 0) and np.all(rate > 0)):
        raise DivergenceError(where, it, "natural parameters left the Normal-Gamma domain")
    return ClusterQ(mt, nu.copy(), chi1, 1.0 / rate)


def natural_posterior(n_c, s_c, q_c, prior: NGPrior, scale: float = 1.0) -> NGNatural:
    """Natural parameters of the clusters' complete conditional with statistics
    replicated ``scale`` = N_doc/|S| times (Eq. 6.12)."""
    D = prior.dim
    n_c = scale * np.asarray(n_c, dtype=np.float64)
    C = len(n_c)
    mm = float(prior.m @ prior.m)
    return NGNatural(
        prior.beta0 * prior.m[None, :] + scale * np.asarray(s_c),
        prior.beta0 + n_c,
        np.full(C, prior.a - 1.0) + 0.5 * D * n_c,
        -(1.0 / prior.b + 0.5 * prior.beta0 * mm) - 0.5 * scale * np.asarray(q_c, dtype=np.float64),
    )
