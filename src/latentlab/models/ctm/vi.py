"""Correlated topic model inference: Laplace VI, delta-method VI and Blei-Lafferty (2007).

Wang & Blei (2013) Sec. 4.1, 5.1, Appendix B. Our copy of the document lost its displayed
equations, so the formulas below are re-derived from its text (equation numbers are its own).
The Blei-Lafferty baseline follows Blei & Lafferty's C code ctm-c (``inference.c``,
``estimate.c``), which the document ran (footnote 7) but does not describe.

Model (Sec. 4.1, Figure 3): theta_d ~ N(mu0, Sigma0) in K dimensions; z_dn ~ Mult(softmax
theta_d); w_dn ~ Mult(beta_{z_dn}). Documents are given as (unique word ids, counts).

* f(theta) = theta^T nbar - N log sum_k exp theta_k + log N(theta; mu0, Sigma0)   (Eq. 12 for the
  CTM, with the full Gaussian constant), nbar = sum_n phi_n.
* grad f = nbar - N pi - P (theta - mu0);  H = -N (diag pi - pi pi^T) - P       (Appendix B).
* Laplace: theta_hat by damped Newton, V = (N (diag pi - pi pi^T) + P)^-1 (full).
* Delta (diagonal V, following Braun & McAuliffe): g(m) = f(m) + 1/2 sum_i v_i H_ii(m),
  dg/dm_j = grad_j f - N/2 [v_j pi_j (1 - 2 pi_j) - pi_j sum_i v_i pi_i (1 - 2 pi_i)]
  (derived here);
  L-BFGS on g with v fixed, then v_i = 1 / (N pi_i (1 - pi_i) + P_ii).
* q(z) (Eq. 18, exact since eta is linear): log phi_nk = m_k + log beta_{k,w_n} - lse.
* Approximate per-document objective (Eq. 21):
  f(m) + 1/2 tr(H V) + 1/2 log|V| + K/2 (1 + log 2 pi) + sum_n sum_k phi_nk (log beta - log phi).
* Blei-Lafferty (from ctm-c): K-1 free dimensions (eta_K = 0), diagonal q, zeta
  closed form, lambda by Fletcher-Reeves CG, nu^2 by Newton in log space, a true lower bound.
* M-step (the standard CTM M-step; Sec. 5.1 says only "re-estimate the topics and logistic
  normal parameters"): beta ∝ expected counts (+ pseudo-count), mu0 = mean m_d,
  Sigma0 = mean [V_d + (m_d - mu0)(m_d - mu0)^T] (+ a ridge of ours when ill-conditioned).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
from scipy.optimize import minimize
from scipy.special import logsumexp

from latentlab.errors import ConfigError, DataError, DivergenceError
from latentlab.models.nonconjugate.core import LOG2PI, newton_maximize, psd_inverse

log = logging.getLogger(__name__)

METHODS = ("laplace", "delta", "bl")


# ----------------------------------------------------------------------------- prior
@dataclass
class Prior:
    """Logistic-normal prior N(mu, Sigma) with its precision and log-determinant.

    ``ridge`` is the eps added to the diagonal to make Sigma positive definite (0 if none).
    """

    mu: np.ndarray
    Sigma: np.ndarray
    P: np.ndarray
    logdet: float
    ridge: float = 0.0

    @property
    def dim(self) -> int:
        return len(self.mu)


def make_prior(mu, Sigma, *, ridge_rel: float = 1e-6, max_cond: float = 1e10) -> Prior:
    """Build a :class:`Prior`, adding a ridge eps*I when Sigma is singular or ill-conditioned.

    Rule (ours, not in the document): eps = ridge_rel * tr(Sigma)/K, multiplied by 10 until
    Cholesky succeeds and cond(Sigma) <= max_cond. The eps used is recorded in ``Prior.ridge``
    (and in the outputs' metadata). Non-finite Sigma is an error.
    """
    mu = np.asarray(mu, dtype=float)
    S = np.asarray(Sigma, dtype=float)
    S = 0.5 * (S + S.T)
    if not (np.isfinite(S).all() and np.isfinite(mu).all()):
        raise DivergenceError("Sigma0/mu0", 0, "non-finite prior parameters")
    K = len(mu)
    eps = 0.0
    base = max(float(np.trace(S)) / K, 1e-12)
    for _ in range(30):
        Sr = S + eps * np.eye(K) if eps > 0 else S
        try:
            P, logdet = psd_inverse(Sr)
            ev = np.linalg.eigvalsh(Sr)
            if ev[0] > 0 and ev[-1] / ev[0] <= max_cond:
                return Prior(mu, Sr, P, logdet, eps)
        except (np.linalg.LinAlgError, ValueError):
            pass
        eps = ridge_rel * base if eps == 0 else eps * 10.0
    raise DivergenceError("Sigma0", 0, "covariance stays singular after ridge")


# ----------------------------------------------------------------------------- helpers
def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max())
    return e / e.sum()


def phi_update(m: np.ndarray, logbeta_w: np.ndarray) -> np.ndarray:
    """Eq. 18 for the CTM: log phi_uk = m_k + log beta_{k,w_u} - logsumexp_k (U x K)."""
    a = logbeta_w + m[None, :]
    return a - logsumexp(a, axis=1, keepdims=True)


def phi_entropy_term(log_phi, logbeta_w, counts) -> float:
    """sum_n sum_k phi_nk (log beta_{k,w_n} - log phi_nk), word types weighted by counts."""
    phi = np.exp(log_phi)
    return float(counts @ (phi * (logbeta_w - log_phi)).sum(axis=1))


def ctm_f(theta, nbar, N, prior: Prior) -> float:
    """f of Eq. 12 for the CTM including log N(theta; mu0, Sigma0) with its constant."""
    r = theta - prior.mu
    return float(
        theta @ nbar
        - N * logsumexp(theta)
        - 0.5 * r @ prior.P @ r
        - 0.5 * (len(theta) * LOG2PI + prior.logdet)
    )


def ctm_grad(theta, nbar, N, prior: Prior) -> np.ndarray:
    """Appendix B: grad f = nbar - N pi - P (theta - mu0)."""
    return nbar - N * softmax(theta) - prior.P @ (theta - prior.mu)


def ctm_hess(theta, N, prior: Prior) -> np.ndarray:
    """Appendix B: H = -N (diag pi - pi pi^T) - P."""
    p = softmax(theta)
    return -N * (np.diag(p) - np.outer(p, p)) - prior.P


def delta_g(m, v, nbar, N, prior: Prior) -> float:
    """Eq. 17 (diagonal V, m-dependent part): f(m) + 1/2 sum_i v_i H_ii(m)."""
    p = softmax(m)
    Hd = -N * p * (1 - p) - np.diag(prior.P)
    return ctm_f(m, nbar, N, prior) + 0.5 * float(v @ Hd)


def delta_g_grad(m, v, nbar, N, prior: Prior) -> np.ndarray:
    """Gradient of :func:`delta_g` (third derivatives of f; derived here)."""
    p = softmax(m)
    a = v * p * (1 - 2 * p)
    return ctm_grad(m, nbar, N, prior) - 0.5 * N * (a - p * a.sum())


# ----------------------------------------------------------------------------- per document
@dataclass
class DocFit:
    """Result of per-document inference: q(theta), log phi, Eq. 21 objective, trace."""

    m: np.ndarray
    V: np.ndarray  # full (laplace) or diagonal vector (delta, bl: nu^2)
    log_phi: np.ndarray
    bound: float
    n_iter: int
    trace: list = field(default_factory=list)
    zeta: float = 0.0


def approx_bound(m, V, log_phi, logbeta_w, counts, prior: Prior) -> float:
    """Eq. 21 for one document (full or diagonal V)."""
    N = float(counts.sum())
    nbar = counts @ np.exp(log_phi)
    K = len(m)
    H = ctm_hess(m, N, prior)
    if V.ndim == 1:
        tr = float(np.diag(H) @ V)
        logdetV = float(np.log(V).sum())
    else:
        tr = float(np.sum(H * V))
        logdetV = 2.0 * float(np.log(np.diag(np.linalg.cholesky(V))).sum())
    return (
        ctm_f(m, nbar, N, prior)
        + 0.5 * tr
        + 0.5 * logdetV
        + 0.5 * K * (1.0 + LOG2PI)
        + phi_entropy_term(log_phi, logbeta_w, counts)
    )


def laplace_doc(
    ids,
    counts,
    logbeta,
    prior: Prior,
    *,
    m0=None,
    tol=1e-4,
    max_iter=100,
    newton_tol=1e-14,
    use_numba=True,
) -> DocFit:
    """Laplace VI for one CTM document (Sec. 3.1, Fig. 1): alternate theta (Newton) and phi.

    ``use_numba`` runs the same loop as the numba kernel in :mod:`.kernels`.
    """
    counts = np.asarray(counts, dtype=float)
    N = float(counts.sum())
    lbw = logbeta[:, ids].T
    K = logbeta.shape[0]
    m = np.zeros(K) if m0 is None else np.array(m0, dtype=float)
    if use_numba:
        from latentlab.models.ctm.kernels import laplace_doc_nb

        mm, V, log_phi, trace, it = laplace_doc_nb(
            counts,
            np.ascontiguousarray(lbw),
            prior.mu,
            prior.P,
            prior.logdet,
            m,
            tol,
            max_iter,
            newton_tol,
            100,
        )
        if not np.isfinite(trace).all():
            raise DivergenceError("CTM laplace Eq. 21 objective", int(it))
        return DocFit(mm, V, log_phi, float(trace[-1]), int(it), trace.tolist())
    log_phi = phi_update(m, lbw)
    trace = []
    V = None
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007
        nbar = counts @ np.exp(log_phi)

        def fgh(t, nbar=nbar):
            p = softmax(t)
            r = t - prior.mu
            Pr = prior.P @ r
            f = t @ nbar - N * logsumexp(t) - 0.5 * r @ Pr
            g = nbar - N * p - Pr
            H = -N * (np.diag(p) - np.outer(p, p)) - prior.P
            return f, g, H

        def fo(t, nbar=nbar):
            r = t - prior.mu
            return t @ nbar - N * logsumexp(t) - 0.5 * r @ prior.P @ r

        m_new, _, H, _ = newton_maximize(fgh, m, tol=newton_tol, f_only=fo, what="ctm laplace f")
        V, _ = psd_inverse(-H)
        change = np.linalg.norm(m_new - m) / max(np.linalg.norm(m), 1.0)
        m = m_new
        log_phi = phi_update(m, lbw)
        trace.append(approx_bound(m, V, log_phi, lbw, counts, prior))
        if change < tol:
            break
    return DocFit(m, V, log_phi, trace[-1], it, trace)


def ahmed_xing_doc(ids, counts, logbeta, prior: Prior, *, tol=1e-4, max_iter=200):
    """θ̂ = previous m (Sec. 3.2, Ahmed & Xing 2007): alternate φ (Eq. 18) and one undamped
    Newton step m ← m − H⁻¹g, V = −H⁻¹ (claim C3). Stops when the relative change of m is
    below ``tol`` (Laplace's criterion). Returns (converged, iterations, m); the document
    reports this choice "did not always converge"."""
    from latentlab.models.nonconjugate.core import ahmed_xing_step

    counts = np.asarray(counts, dtype=float)
    N = float(counts.sum())
    lbw = logbeta[:, ids].T
    m = np.zeros(logbeta.shape[0])
    log_phi = phi_update(m, lbw)
    for it in range(1, max_iter + 1):
        nbar = counts @ np.exp(log_phi)
        try:
            q = ahmed_xing_step(ctm_grad(m, nbar, N, prior), ctm_hess(m, N, prior), m)
        except (np.linalg.LinAlgError, DivergenceError):
            return False, it, m
        if not np.all(np.isfinite(q.m)):
            return False, it, m
        change = np.linalg.norm(q.m - m) / max(np.linalg.norm(m), 1.0)
        m = q.m
        log_phi = phi_update(m, lbw)
        if change < tol:
            return True, it, m
    return False, max_iter, m


def delta_doc(
    ids,
    counts,
    logbeta,
    prior: Prior,
    *,
    m0=None,
    tol=1e-4,
    max_iter=100,
    inner=1,
    gtol=1e-6,
    use_numba=True,
) -> DocFit:
    """Delta-method VI for one CTM document (Sec. 3.2, Eq. 17), diagonal V, L-BFGS on m.

    ``use_numba``: the numba kernel (own L-BFGS, Armijo backtracking, same stopping rule
    max |grad| < gtol * max(N, 1)); otherwise scipy L-BFGS-B (same stationary points).
    """
    counts = np.asarray(counts, dtype=float)
    N = float(counts.sum())
    lbw = logbeta[:, ids].T
    K = logbeta.shape[0]
    if use_numba:
        from latentlab.models.ctm.kernels import delta_doc_nb

        m_init = np.zeros(K) if m0 is None else np.array(m0, dtype=float)
        mm, v, log_phi, trace, it = delta_doc_nb(
            counts,
            np.ascontiguousarray(lbw),
            prior.mu,
            prior.P,
            prior.logdet,
            m_init,
            tol,
            max_iter,
            inner,
            gtol,
            1000,
        )
        if not np.isfinite(trace).all():
            raise DivergenceError("CTM delta Eq. 21 objective", int(it))
        return DocFit(mm, v, log_phi, float(trace[-1]), int(it), trace.tolist())
    Pd = np.diag(prior.P)
    m = np.zeros(K) if m0 is None else np.array(m0, dtype=float)
    p = softmax(m)
    v = 1.0 / (N * p * (1 - p) + Pd)
    log_phi = phi_update(m, lbw)
    trace = []
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007
        nbar = counts @ np.exp(log_phi)
        m_old = m
        for _ in range(inner):

            def obj(x, v=v, nbar=nbar):
                return -delta_g(x, v, nbar, N, prior), -delta_g_grad(x, v, nbar, N, prior)

            res = minimize(
                obj,
                m,
                jac=True,
                method="L-BFGS-B",
                options={"gtol": gtol * max(N, 1.0), "maxiter": 200},
            )
            m = res.x
            p = softmax(m)
            v = 1.0 / (N * p * (1 - p) + Pd)
        change = np.linalg.norm(m - m_old) / max(np.linalg.norm(m_old), 1.0)
        log_phi = phi_update(m, lbw)
        trace.append(approx_bound(m, v, log_phi, lbw, counts, prior))
        if change < tol:
            break
    return DocFit(m, v, log_phi, trace[-1], it, trace)


# ----------------------------------------------------------------------------- Blei-Lafferty
def bl_bound(lam, nu2, zeta, log_phi, lbw, counts, prior: Prior) -> float:
    """ctm-c ``lhood_bnd``: a true lower bound on log p(w) (K-1 parameterisation)."""
    N = float(counts.sum())
    r = lam - prior.mu
    lam_full = np.append(lam, 0.0)
    nbar = counts @ np.exp(log_phi)
    s = np.exp(lam + 0.5 * nu2).sum() + 1.0
    return float(
        -0.5 * prior.logdet
        + 0.5 * len(lam)
        + np.sum(-0.5 * nu2 * np.diag(prior.P) + 0.5 * np.log(nu2))
        - 0.5 * r @ prior.P @ r
        - N * (s / zeta - 1.0 + np.log(zeta))
        + nbar @ lam_full
        + phi_entropy_term(log_phi, lbw, counts)
    )


def _bl_opt_nu2(lam, nu2, zeta, N, Pd, init=10.0, thresh=1e-10, max_iter=100):
    """ctm-c ``opt_nu_i``: Newton in log nu^2 per coordinate (vectorised; restart doubles init)."""
    for _ in range(20):
        lnu = np.full_like(lam, np.log(init))
        ok = True
        for _ in range(max_iter):
            nu = np.exp(lnu)
            e = np.exp(lam + 0.5 * nu)
            df = -0.5 * Pd - 0.5 * (N / zeta) * e + 0.5 / nu
            d2f = -0.25 * (N / zeta) * e - 0.5 / nu**2
            lnu = lnu - (df * nu) / (d2f * nu * nu + df * nu)
            if not np.isfinite(lnu).all():
                ok = False
                break
            if np.max(np.abs(df)) < thresh:
                break
        if ok:
            return np.exp(lnu)
        init *= 2.0
    raise DivergenceError("BL nu^2", 0, "Newton in log space failed after restarts")


def bl_doc(
    ids,
    counts,
    logbeta,
    prior: Prior,
    *,
    tol=1e-6,
    max_iter=100,
    cg_gtol=1e-6,
    lam0=None,
    use_numba=True,
) -> DocFit:
    """Blei & Lafferty (2007) per-document variational inference (ctm-c ``var_inference``).

    Order per iteration (ctm-c): zeta, lambda (CG), zeta, nu^2 (Newton, log space),
    zeta, phi; stop when |dL/L| < tol. Initialisation: lambda = 0, nu^2 = 10, zeta = 10,
    phi = 1/K. ``prior`` is (K-1)-dimensional. ``use_numba``: the kernel in :mod:`.kernels`
    (lambda by damped Newton on the same concave objective); otherwise scipy CG as in ctm-c.
    """
    counts = np.asarray(counts, dtype=float)
    N = float(counts.sum())
    lbw = logbeta[:, ids].T
    K = logbeta.shape[0]
    Pd = np.diag(prior.P)
    lam = np.zeros(K - 1) if lam0 is None else np.array(lam0, dtype=float)
    if use_numba:
        from latentlab.models.ctm.kernels import bl_doc_nb

        lam, nu2, log_phi, zeta, trace, it = bl_doc_nb(
            counts,
            np.ascontiguousarray(lbw),
            prior.mu,
            prior.P,
            prior.logdet,
            lam,
            tol,
            max_iter,
            cg_gtol,
            10.0,
        )
        if not np.isfinite(trace).all():
            raise DivergenceError("CTM BL bound", int(it))
        return DocFit(lam, nu2, log_phi, float(trace[-1]), int(it), trace.tolist(), zeta=zeta)
    nu2 = np.full(K - 1, 10.0)
    log_phi = np.full((len(ids), K), -np.log(K))
    zeta = 10.0
    trace = []
    old = None
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        nbar = counts @ np.exp(log_phi)

        def obj(x, zeta=zeta, nbar=nbar, nu2=nu2):
            r = x - prior.mu
            Pr = prior.P @ r
            e = np.exp(x + 0.5 * nu2)
            val = -0.5 * r @ Pr - (N / zeta) * e.sum() + nbar[:-1] @ x
            grad = -Pr + nbar[:-1] - (N / zeta) * e
            return -val, -grad

        lam = minimize(obj, lam, jac=True, method="CG", options={"gtol": cg_gtol}).x
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        nu2 = _bl_opt_nu2(lam, nu2, zeta, N, Pd)
        zeta = np.exp(lam + 0.5 * nu2).sum() + 1.0
        log_phi = phi_update(np.append(lam, 0.0), lbw)
        b = bl_bound(lam, nu2, zeta, log_phi, lbw, counts, prior)
        trace.append(b)
        if old is not None and abs((b - old) / old) < tol:
            break
        old = b
    return DocFit(lam, nu2, log_phi, trace[-1], it, trace, zeta=zeta)


def infer_doc(method, ids, counts, logbeta, prior, *, m0=None, opts=None) -> DocFit:
    """Dispatch per-document inference by method name ('laplace', 'delta', 'bl')."""
    opts = opts or {}
    if method == "laplace":
        return laplace_doc(ids, counts, logbeta, prior, m0=m0, **opts)
    if method == "delta":
        return delta_doc(ids, counts, logbeta, prior, m0=m0, **opts)
    if method == "bl":
        return bl_doc(ids, counts, logbeta, prior, lam0=m0, **opts)
    raise ConfigError("method", f"unknown CTM method {method!r}; use one of {METHODS}")


def mean_topic_proportions(method, fit: DocFit) -> np.ndarray:
    """Plug-in predictive weights pi(m) (BL: append eta_K = 0). Sec. 5.1's predictive lost its
    formula in our copy; the plug-in mean is our reading, as in Sec. 5.2's "where m is the
    mean of variational distribution"."""
    m = np.append(fit.m, 0.0) if method == "bl" else fit.m
    return softmax(m)


def mc_topic_proportions(method, fit: DocFit, n_samples: int, rng) -> np.ndarray:
    """Monte Carlo E_q[pi(theta)] (the other reading of Sec. 5.1's predictive; a switch)."""
    d = len(fit.m)
    z = rng.standard_normal((n_samples, d))
    if fit.V.ndim == 1:
        th = fit.m + z * np.sqrt(fit.V)
    else:
        th = fit.m + z @ np.linalg.cholesky(fit.V).T
    if method == "bl":
        th = np.hstack([th, np.zeros((n_samples, 1))])
    th = th - th.max(axis=1, keepdims=True)
    e = np.exp(th)
    return (e / e.sum(axis=1, keepdims=True)).mean(axis=0)


# ----------------------------------------------------------------------------- corpus-level
Docs = list  # list of (ids int array, counts float array)


def corpus_to_docs(corpus) -> Docs:
    """(ids, counts) per document of a :class:`BowCorpus`; empty documents are an error."""
    out = []
    for d in range(corpus.n_docs):
        ids, cnt = corpus.doc(d)
        if len(ids) == 0:
            raise DataError(None, f"document {d} is empty; call BowCorpus.drop_empty first")
        out.append((np.asarray(ids, dtype=np.int64), np.asarray(cnt, dtype=float)))
    return out


def docs_to_corpus(docs: Docs, V: int):
    """The :class:`BowCorpus` of documents given as (ids, counts), word order kept (the
    inverse of :func:`corpus_to_docs`; counts must be whole numbers)."""
    from latentlab.data.corpus import BowCorpus

    lens = [len(ids) for ids, _ in docs]
    ids = np.concatenate([i for i, _ in docs]) if docs else np.zeros(0, np.int64)
    cnt = np.concatenate([c for _, c in docs]) if docs else np.zeros(0)
    if np.any(cnt != np.round(cnt)):
        raise DataError(None, "counts must be whole numbers to make a BowCorpus")
    return BowCorpus(np.concatenate([[0], np.cumsum(lens)]), ids, cnt, [str(v) for v in range(V)])


def init_topics(K: int, V: int, seed: int) -> np.ndarray:
    """Topics as draws from a uniform Dirichlet Dir(1,...,1) (Sec. 5.1); returns log beta."""
    rng = np.random.default_rng(seed)
    beta = rng.dirichlet(np.ones(V), size=K)
    return np.log(np.maximum(beta, 1e-300))


@dataclass
class CTMModel:
    logbeta: np.ndarray
    prior: Prior
    method: str

    @property
    def K(self) -> int:
        return self.logbeta.shape[0]


def initial_model(method: str, logbeta: np.ndarray, ridge_rel: float = 1e-6) -> CTMModel:
    """mu0 = 0, Sigma0 = I (the document does not give the initial prior; ours, the ctm-c
    default); K-1 dims for BL."""
    K = logbeta.shape[0]
    d = K - 1 if method == "bl" else K
    return CTMModel(logbeta.copy(), make_prior(np.zeros(d), np.eye(d), ridge_rel=ridge_rel), method)


def e_step(model: CTMModel, docs: Docs, *, warm=None, opts=None):
    """Per-document inference for every document; returns fits and topic sufficient stats."""
    K, V = model.logbeta.shape
    ss = np.zeros((K, V))
    fits = []
    for i, (ids, cnt) in enumerate(docs):
        m0 = None if warm is None else warm[i]
        fit = infer_doc(model.method, ids, cnt, model.logbeta, model.prior, m0=m0, opts=opts)
        ss[:, ids] += (np.exp(fit.log_phi) * cnt[:, None]).T
        fits.append(fit)
    return fits, ss


def m_step(
    model: CTMModel, fits, ss, *, pseudo: float = 1e-10, ridge_rel: float = 1e-6
) -> CTMModel:
    """M-step (the standard CTM M-step, Sec. 5.1): beta ∝ ss + pseudo; mu0 = mean m_d;
    Sigma0 = mean[V_d + (m_d - mu0)(m_d - mu0)^T] (+ ridge if ill-conditioned, recorded)."""
    beta = ss + pseudo
    logbeta = np.log(beta) - np.log(beta.sum(axis=1, keepdims=True))
    M = np.stack([f.m for f in fits])
    mu = M.mean(axis=0)
    R = M - mu
    Vsum = np.zeros((M.shape[1], M.shape[1]))
    for f in fits:
        if f.V.ndim == 1:
            Vsum[np.diag_indices_from(Vsum)] += f.V
        else:
            Vsum += f.V
    Sigma = (Vsum + R.T @ R) / len(fits)
    return CTMModel(logbeta, make_prior(mu, Sigma, ridge_rel=ridge_rel), model.method)


def heldout_loglik(
    model: CTMModel, obs: Docs, held: Docs, *, predictive="plugin", n_mc=1000, seed=0, opts=None
) -> tuple[float, int]:
    """Per-word held-out log likelihood by document completion (Sec. 5.1).

    Infers q(theta) on each observed half with the model's method, scores the held half by
    log sum_k pi_k beta_{k,w}. Returns (sum log p, number of held tokens).
    """
    rng = np.random.default_rng(seed)
    beta = np.exp(model.logbeta)
    total, ntok = 0.0, 0
    for (ids, cnt), (hids, hcnt) in zip(obs, held, strict=True):
        fit = infer_doc(model.method, ids, cnt, model.logbeta, model.prior, opts=opts)
        if predictive == "plugin":
            pi = mean_topic_proportions(model.method, fit)
        elif predictive == "mc":
            pi = mc_topic_proportions(model.method, fit, n_mc, rng)
        else:
            raise ConfigError("predictive", f"must be 'plugin' or 'mc', not {predictive!r}")
        pw = np.maximum(pi @ beta[:, hids], 1e-300)
        total += float(hcnt @ np.log(pw))
        ntok += int(hcnt.sum())
    return total, ntok


def em_iterations(
    docs: Docs,
    logbeta0: np.ndarray,
    method: str,
    *,
    max_iter: int = 20,
    tol: float = 1e-3,
    opts=None,
    pseudo: float = 1e-10,
    ridge_rel: float = 1e-6,
    time_budget_s: float | None = None,
    iter_budget: int | None = None,
):
    """Variational EM for the CTM (Sec. 5.1) as a generator: after every iteration (E-step
    per document, :func:`m_step`) yields ``(model, fits, record)``; the consumer may
    stop by leaving the loop. Stops itself on relative change of the total (approximate)
    bound < tol (ctm-c's 1e-3), after ``iter_budget`` iterations (a deterministic budget),
    when ``time_budget_s`` seconds are spent, or after ``max_iter`` iterations. The document
    runs EM to convergence and gives no budget (Sec. 5.1); the budgets are ours.

    ``record["em_stop"]`` is None while EM goes on; on the last record it says why EM
    stopped: ``"tolerance"``, ``"iter_budget"``, ``"time_budget"`` or ``"max_iter"`` (in
    that order when several hold at once). Time spent by the consumer is not counted in
    ``record["time_s"]``."""
    if iter_budget is not None and (int(iter_budget) != iter_budget or iter_budget < 1):
        raise ConfigError("iter_budget", f"must be an integer >= 1 or None, got {iter_budget!r}")
    model = initial_model(method, logbeta0, ridge_rel)
    ntok = float(sum(c.sum() for _, c in docs))
    warm = None
    old = None
    elapsed = 0.0
    for it in range(1, max_iter + 1):
        t0 = time.perf_counter()
        fits, ss = e_step(model, docs, warm=warm, opts=opts)
        t_e = time.perf_counter() - t0
        bound = sum(f.bound for f in fits)
        if not np.isfinite(bound):
            raise DivergenceError(f"CTM {method} bound", it)
        model = m_step(model, fits, ss, pseudo=pseudo, ridge_rel=ridge_rel)
        elapsed += time.perf_counter() - t0
        warm = [f.m for f in fits]
        if old is not None and abs((bound - old) / old) < tol:
            stop = "tolerance"
        elif iter_budget is not None and it >= iter_budget:
            stop = "iter_budget"
        elif time_budget_s is not None and elapsed > time_budget_s:
            stop = "time_budget"
        elif it == max_iter:
            stop = "max_iter"
        else:
            stop = None
        rec = {
            "iter": it,
            "time_s": elapsed,
            "estep_s": t_e,
            "bound_per_word": bound / ntok,
            "ridge": model.prior.ridge,
            "em_stop": stop,
        }
        log.info(
            "CTM %s K=%d iter %d bound/word %.5f (%.1fs)%s",
            method,
            model.K,
            it,
            bound / ntok,
            elapsed,
            f" stop: {stop}" if stop else "",
        )
        yield model, fits, rec
        if stop is not None:
            return
        old = bound


# ----------------------------------------------------------------------------- IS check (C17)
def log_marginal_is(
    ids, counts, logbeta, prior: Prior, q_mean, q_cov, *, n_samples, seed, pinned_last=False
) -> tuple[float, float]:
    """Importance-sampling estimate of log p(w | mu0, Sigma0, beta) with proposal N(q_mean, q_cov)
    (ctm-c ``sample_lhood`` style). Returns (estimate, standard error of the log estimate).

    ``pinned_last``: the K-1 parameterisation (eta_K = 0) for the BL model.
    """
    rng = np.random.default_rng(seed)
    d = len(q_mean)
    C = np.diag(np.sqrt(q_cov)) if q_cov.ndim == 1 else np.linalg.cholesky(q_cov)
    z = rng.standard_normal((n_samples, d))
    th = q_mean + z @ C.T
    logq = -0.5 * (z**2).sum(1) - np.log(np.diag(C)).sum() - 0.5 * d * LOG2PI
    r = th - prior.mu
    Lp = sla.cholesky(prior.Sigma, lower=True)
    sol = sla.solve_triangular(Lp, r.T, lower=True)
    logp = -0.5 * (sol**2).sum(0) - 0.5 * prior.logdet - 0.5 * d * LOG2PI
    full = np.hstack([th, np.zeros((n_samples, 1))]) if pinned_last else th
    logpi = full - logsumexp(full, axis=1, keepdims=True)
    lw_words = logsumexp(logpi[:, :, None] + logbeta[None, :, ids], axis=1)  # S x U
    lw = logp - logq + lw_words @ np.asarray(counts, dtype=float)
    est = float(logsumexp(lw) - np.log(n_samples))
    w = np.exp(lw - lw.max())
    se = float(np.std(w) / np.sqrt(n_samples) / max(w.mean(), 1e-300))
    return est, se
