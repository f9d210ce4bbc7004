"""LFRM_LDA and BMF_LDA (Foulds 2014, Sec. 2.7 and Appendix A): a finite latent feature
relational model whose binary features choose the Dirichlet prior of LDA documents.

* Finite model (Appendix A: "The model builds upon the (finite) LFRM"; Sec. 2.7.3: "the
  finite version of [the IBP], in our case"): K features = K topics, π_k ~ Beta(α/K, 1),
  z_ek ~ Bernoulli(π_k).
* Documents on nodes (α^(i), Eq. 2.31 / A.2) and on edges (α^(ij), Eq. 2.30 / A.1); every
  α^(d) sums to α⁺. BMF_LDA (Eqs. A.3-A.8): N row and M column entities with K¹ + K²
  features and topics, stacked into one entity axis with the padded Z̄ (``allowed``).
* One MCMC iteration (Appendix A.2): collapsed Gibbs for the tokens (Eq. A.9), Gibbs for
  every z_ek (Eq. A.10), π_k from its Beta conditional, random-walk MH for W (Eq. A.11)
  and ε, empirical Bayes for [γ, λ] (gradient ascent on Σ_d log Polya, logistic
  reparameterisation) and α⁺ (Minka's fixed point, Eq. A.12), then the Hungarian
  re-alignment of topics to features (max Σ_k v_{k,h(k)}, end of Appendix A).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.special import digamma, expit, gammaln, logit

from latentlab.errors import ConfigError, DataError
from latentlab.models.drift import lfrm_lda_kernels as lk

LINKS = {"logistic": lk.LOGISTIC, "poisson": lk.POISSON, "gaussian": lk.GAUSSIAN}


@dataclass(frozen=True)
class TextHyper:
    """Hyperparameters and sampler knobs. The document fixes β_k = 0.1 and learns γ, λ, α⁺;
    σ_W, σ_ε, the IBP α and the initial values are not given (recorded choices)."""

    link: str = "logistic"
    w_prior: str = "normal"  # normal N(0, sigma_w) | exponential (mean sigma_w), Twitter
    w_diagonal: bool = False  # Twitter model: W diagonal
    sigma_w: float = 1.0
    sigma_w_prop: float = 1.0  # Eq. A.11: proposal N(w_old, σ_W)
    sigma_eps: float = 3.0
    sigma_eps_prop: float = 0.1
    gauss_sd: float = 1.0  # Gaussian link (ratings)
    ibp_alpha: float = 3.0  # π_k ~ Beta(α/K, 1)
    beta: float = 0.1
    alpha_plus_init: float = 1.0
    gamma_init: float = 0.5
    lambda_init: float = 0.5
    learn_gamma_lambda: bool = True
    learn_alpha_plus: bool = True
    eb_steps: int = 5  # gradient-ascent steps on [logit γ, logit λ] per iteration
    eb_step_size: float = 0.05  # initial step (halved until the objective increases)
    minka_iters: int = 5
    realign: bool = True

    def check(self) -> None:
        if self.link not in LINKS:
            raise ConfigError("link", f"{self.link!r} not in {sorted(LINKS)}")
        if self.w_prior not in ("normal", "exponential"):
            raise ConfigError("w_prior", f"{self.w_prior!r} not in ['exponential', 'normal']")
        for name in ("sigma_w", "sigma_w_prop", "sigma_eps", "gauss_sd", "ibp_alpha", "beta"):
            if not getattr(self, name) > 0:
                raise ConfigError(name, "must be > 0")
        for name in ("gamma_init", "lambda_init"):
            if not 0 < getattr(self, name) < 1:
                raise ConfigError(name, "must be in (0, 1)")


@dataclass
class TextNetwork:
    """A network with documents. Entities 0..E-1; ``allowed`` (E, K) marks the features
    an entity may hold (all for LFRM_LDA; the padded Z̄ blocks for BMF_LDA)."""

    Y: np.ndarray  # (E, E) float
    O: np.ndarray  # (E, E) bool, observed pairs
    ptr: np.ndarray  # (D + 1,) int64
    w: np.ndarray  # tokens int32
    snd: np.ndarray  # (D,) int64
    rcv: np.ndarray  # (D,) int64, -1 = node document
    V: int
    allowed: np.ndarray  # (E, K) int8
    edge_doc: np.ndarray = field(init=False)  # (D,) bool
    ent_ptr: np.ndarray = field(init=False)
    ent_docs: np.ndarray = field(init=False)

    def __post_init__(self):
        E = self.Y.shape[0]
        self.Y = np.ascontiguousarray(self.Y, dtype=np.float64)
        self.O = np.ascontiguousarray(self.O, dtype=np.bool_)
        self.ptr = np.ascontiguousarray(self.ptr, dtype=np.int64)
        self.w = np.ascontiguousarray(self.w, dtype=np.int32)
        self.snd = np.ascontiguousarray(self.snd, dtype=np.int64)
        self.rcv = np.ascontiguousarray(self.rcv, dtype=np.int64)
        self.allowed = np.ascontiguousarray(self.allowed, dtype=np.int8)
        if self.Y.shape != (E, E) or self.O.shape != (E, E):
            raise DataError(None, f"Y and O must be ({E}, {E})")
        if self.O[np.arange(E), np.arange(E)].any():
            raise DataError(None, "self-pairs (the diagonal of O) cannot be observed")
        if not np.isfinite(self.Y[self.O]).all():
            raise DataError(None, "observed entries of Y must be finite")
        D = len(self.snd)
        if len(self.ptr) != D + 1 or self.ptr[0] != 0 or self.ptr[-1] != len(self.w):
            raise DataError(None, "document pointers do not match the tokens")
        if np.any(np.diff(self.ptr) < 0):
            raise DataError(None, "document pointers must be non-decreasing")
        if len(self.w) and (self.w.min() < 0 or self.w.max() >= self.V):
            raise DataError(None, f"token ids must be in [0, {self.V})")
        if len(self.rcv) != D or (self.snd < 0).any() or (self.snd >= E).any():
            raise DataError(None, "document senders must be entities")
        if ((self.rcv < -1) | (self.rcv >= E) | (self.rcv == self.snd)).any():
            raise DataError(None, "document receivers must be -1 or another entity")
        if self.allowed.shape[0] != E:
            raise DataError(None, "allowed must have one row per entity")
        self.edge_doc = self.rcv >= 0
        pairs = np.concatenate([self.snd, self.rcv[self.edge_doc]])
        docs = np.concatenate([np.arange(D), np.flatnonzero(self.edge_doc)])
        o = np.argsort(pairs, kind="stable")
        self.ent_docs = np.ascontiguousarray(docs[o], dtype=np.int64)
        self.ent_ptr = np.concatenate([[0], np.cumsum(np.bincount(pairs, minlength=E))])

    @property
    def E(self) -> int:
        return self.Y.shape[0]

    @property
    def K(self) -> int:
        return self.allowed.shape[1]

    @property
    def D(self) -> int:
        return len(self.snd)


@dataclass
class TextState:
    Z: np.ndarray  # (E, K) int8
    W: np.ndarray  # (K, K)
    eps: float
    pi: np.ndarray  # (K,)
    t: np.ndarray  # token topics int64
    ndk: np.ndarray
    nwk: np.ndarray
    nk: np.ndarray
    gamma: float
    lam: float
    alpha_plus: float

    def lam_vec(self, data: TextNetwork) -> np.ndarray:
        return np.where(data.edge_doc, self.lam, 1.0)


def free_w(data: TextNetwork, hyper: TextHyper) -> np.ndarray:
    """Entries of W that some observed pair can use (BMF: the row-by-column block)."""
    rows = data.allowed[data.O.any(axis=1)].any(axis=0)
    cols = data.allowed[data.O.any(axis=0)].any(axis=0)
    free = np.outer(rows, cols)
    if hyper.w_diagonal:
        free &= np.eye(data.K, dtype=bool)
    return np.ascontiguousarray(free)


def counts(data: TextNetwork, t):
    D, K, V = data.D, data.K, data.V
    doc = np.repeat(np.arange(D), np.diff(data.ptr))
    ndk = np.zeros((D, K), np.int64)
    nwk = np.zeros((V, K), np.int64)
    np.add.at(ndk, (doc, t), 1)
    np.add.at(nwk, (data.w, t), 1)
    return ndk, nwk, nwk.sum(0)


def init_state(data: TextNetwork, hyper: TextHyper, rng) -> TextState:
    """Z, π, W, ε from their priors; token topics uniform; γ, λ, α⁺ at their initial values."""
    hyper.check()
    K = data.K
    pi = rng.beta(hyper.ibp_alpha / K, 1.0, K)
    Z = ((rng.random((data.E, K)) < pi) & (data.allowed == 1)).astype(np.int8)
    free = free_w(data, hyper)
    if hyper.w_prior == "normal":
        W = rng.normal(0.0, hyper.sigma_w, (K, K))
    else:
        W = rng.exponential(hyper.sigma_w, (K, K))
    W = np.where(free, W, 0.0)
    t = rng.integers(0, K, len(data.w)).astype(np.int64)
    ndk, nwk, nk = counts(data, t)
    return TextState(
        Z, W, float(rng.normal(0.0, hyper.sigma_eps)), pi, t, ndk, nwk, nk,
        hyper.gamma_init, hyper.lambda_init, hyper.alpha_plus_init,
    )  # fmt: skip


# ------------------------------------------------------------ empirical Bayes (App. A.2)
def prior_parts(Z, data: TextNetwork):
    """a_dk, b_dk: the sender's / receiver's share z_k / Σ z (flat 1/K when the entity has
    no active feature, ours; zero for the receiver of a node document)."""
    K = Z.shape[1]
    rs = Z.sum(1)
    share = np.where(rs[:, None] > 0, Z / np.maximum(rs, 1)[:, None], 1.0 / K)
    a = share[data.snd]
    b = np.where(data.edge_doc[:, None], share[np.maximum(data.rcv, 0)], 0.0)
    return a, b


def alphas(Z, data, gamma, lam, alpha_plus):
    """α^(d) (D, K), Eqs. 2.30 / 2.31 (vectorised; the kernel's ``all_alphas``)."""
    a, b = prior_parts(Z, data)
    lv = np.where(data.edge_doc, lam, 1.0)[:, None]
    K = Z.shape[1]
    return alpha_plus * (gamma * (lv * a + (1 - lv) * b) + (1 - gamma) / K)


def polya_objective(ndk, A):
    """Σ_d log Polya(t^(d) | α^(d)) without the terms that depend on α⁺ only."""
    return float(np.sum(gammaln(ndk + A) - gammaln(A)))


def polya_loglik(ndk, A):
    """Σ_d log Polya(t^(d) | α^(d)) (the probability of the topic sequence)."""
    n = ndk.sum(1)
    s = A.sum(1)
    return float(np.sum(gammaln(s) - gammaln(s + n)) + np.sum(gammaln(ndk + A) - gammaln(A)))


def gamma_lambda_grad(ndk, Z, data, gamma, lam, alpha_plus):
    """Gradient of :func:`polya_objective` w.r.t. (logit γ, logit λ)."""
    a, b = prior_parts(Z, data)
    K = Z.shape[1]
    lv = np.where(data.edge_doc, lam, 1.0)[:, None]
    A = alpha_plus * (gamma * (lv * a + (1 - lv) * b) + (1 - gamma) / K)
    g = digamma(ndk + A) - digamma(A)
    dg = alpha_plus * (lv * a + (1 - lv) * b - 1.0 / K)
    dl = alpha_plus * gamma * (a - b) * data.edge_doc[:, None]
    return np.array([np.sum(g * dg) * gamma * (1 - gamma), np.sum(g * dl) * lam * (1 - lam)])


def update_gamma_lambda(st: TextState, data: TextNetwork, hyper: TextHyper):
    """Gradient ascent on [logit γ, logit λ] (Appendix A.2; the logistic bounds are ours); each
    step halves its size until the objective does not decrease."""
    x = np.array([logit(st.gamma), logit(st.lam)])
    has_edges = bool(data.edge_doc.any())

    def f(x):
        return polya_objective(st.ndk, alphas(st.Z, data, expit(x[0]), expit(x[1]), st.alpha_plus))

    fx = f(x)
    step = hyper.eb_step_size
    for _ in range(hyper.eb_steps):
        g = gamma_lambda_grad(st.ndk, st.Z, data, expit(x[0]), expit(x[1]), st.alpha_plus)
        if not has_edges:
            g[1] = 0.0
        gn = np.linalg.norm(g)
        if gn == 0:
            break
        for _ in range(30):
            xn = np.clip(x + step * g / gn, -12.0, 12.0)
            fn = f(xn)
            if fn >= fx:
                x, fx = xn, fn
                step *= 1.5
                break
            step *= 0.5
        else:
            break
    st.gamma, st.lam = float(expit(x[0])), float(expit(x[1]))


def update_alpha_plus(st: TextState, data: TextNetwork, iters: int):
    """Minka's fixed point for the precision with the means fixed (Eq. A.12)."""
    a, b = prior_parts(st.Z, data)
    lv = st.lam_vec(data)[:, None]
    K = data.K
    m = st.gamma * (lv * a + (1 - lv) * b) + (1 - st.gamma) / K
    n = st.ndk.sum(1)
    keep = n > 0
    m, ndk, n = m[keep], st.ndk[keep], n[keep]
    ap = st.alpha_plus
    for _ in range(iters):
        num = np.sum(m * (digamma(ndk + ap * m) - digamma(ap * m)))
        den = np.sum(digamma(n + ap) - digamma(ap))
        if not (num > 0 and den > 0):
            break
        ap = ap * num / den
    st.alpha_plus = float(np.clip(ap, 1e-6, 1e6))


# ------------------------------------------------------- Hungarian re-alignment (App. A)
def alignment_values(ndk, M, alpha_plus):
    """v[k, k'] = Σ_d log Γ(n_k^(d) + α⁺ m_k'^(d)): the value of giving topic k to feature
    k' (end of Appendix A). ``M`` (D, K): the prior means m^(d)."""
    return gammaln(ndk[:, :, None] + alpha_plus * M[:, None, :]).sum(0)


def realign(st: TextState, data: TextNetwork) -> np.ndarray:
    """Relabel topics so that topic k sits on feature h(k), h maximising Σ_k v_{k,h(k)}.
    Returns h (the identity when nothing moved)."""
    A = alphas(st.Z, data, st.gamma, st.lam, st.alpha_plus)
    v = alignment_values(st.ndk, A / st.alpha_plus, st.alpha_plus)
    r, h = linear_sum_assignment(-v)
    h = h[np.argsort(r)]
    if np.array_equal(h, np.arange(len(h))):
        return h
    new_ndk = np.empty_like(st.ndk)
    new_nwk = np.empty_like(st.nwk)
    new_ndk[:, h] = st.ndk
    new_nwk[:, h] = st.nwk
    st.ndk, st.nwk = np.ascontiguousarray(new_ndk), np.ascontiguousarray(new_nwk)
    st.nk = st.nwk.sum(0)
    st.t = h[st.t]
    return h


# ----------------------------------------------------------------------- the sampler
def step(st: TextState, data: TextNetwork, hyper: TextHyper, rng, eta=None):
    """One MCMC iteration (Appendix A.2); returns (state, eta, info)."""
    link = LINKS[hyper.link]
    K = data.K
    if eta is None:
        eta = lk.compute_eta(st.Z, st.W, st.eps)
    lam = st.lam_vec(data)
    A = lk.all_alphas(st.Z, data.snd, data.rcv, lam, st.gamma, st.alpha_plus)
    lk.token_sweep(
        data.ptr, data.w, st.t, st.ndk, st.nwk, st.nk, A, hyper.beta, rng.random(len(data.w))
    )
    logit_pi = np.log(st.pi) - np.log1p(-st.pi)
    changed = lk.z_sweep(
        data.Y, data.O, eta, st.Z, st.W, data.allowed, st.ndk, data.snd, data.rcv, lam,
        data.ent_ptr, data.ent_docs, st.gamma, st.alpha_plus, logit_pi, link,
        hyper.gauss_sd, rng.random((data.E, K)),
    )  # fmt: skip
    m = st.Z.sum(0)
    n_allowed = data.allowed.sum(0)
    st.pi = np.clip(rng.beta(hyper.ibp_alpha / K + m, n_allowed - m + 1.0), 1e-12, 1 - 1e-12)
    free = free_w(data, hyper)
    acc_w = lk.mh_w(
        data.Y, data.O, eta, st.Z, st.W, free, int(hyper.w_prior == "exponential"),
        hyper.sigma_w, hyper.sigma_w_prop, link, hyper.gauss_sd,
        rng.standard_normal((K, K)), rng.random((K, K)),
    )  # fmt: skip
    st.eps, acc_e = lk.mh_eps(
        data.Y, data.O, eta, st.eps, hyper.sigma_eps, hyper.sigma_eps_prop, link,
        hyper.gauss_sd, rng.standard_normal(), rng.random(),
    )  # fmt: skip
    if hyper.learn_gamma_lambda:
        update_gamma_lambda(st, data, hyper)
    if hyper.learn_alpha_plus:
        update_alpha_plus(st, data, hyper.minka_iters)
    moved = False
    if hyper.realign:
        h = realign(st, data)
        moved = not np.array_equal(h, np.arange(K))
    info = {
        "z_changed": int(changed),
        "acc_w": acc_w / max(1, int(free.sum())),
        "acc_eps": float(acc_e),
        "gamma": st.gamma,
        "lambda": st.lam,
        "alpha_plus": st.alpha_plus,
        "eps": st.eps,
        "mean_features": float(st.Z.sum(1).mean()),
        "realigned": moved,
    }
    return st, eta, info


def phi(st: TextState, beta: float) -> np.ndarray:
    """Topics Φ (K, V) from the counts (Griffiths & Steyvers Eq. 6)."""
    V = st.nwk.shape[0]
    return ((st.nwk + beta) / (st.nk + V * beta)).T


def run_chain(data: TextNetwork, hyper: TextHyper, seed, burnin: int, n_samples: int, thin=1):
    """``burnin`` iterations, then ``n_samples`` recorded states ``thin`` apart. Returns
    (Z probability (E, K), Φ mean (K, V), per-sample Φ list, trace rows, last state)."""
    rng = np.random.default_rng(seed)
    st = init_state(data, hyper, rng)
    eta = None
    zsum = np.zeros(st.Z.shape)
    phis, trace = [], []
    total = burnin + max(n_samples - 1, 0) * thin + 1
    link = LINKS[hyper.link]
    for it in range(total):
        st, eta, info = step(st, data, hyper, rng, eta)
        if it >= burnin and (it - burnin) % thin == 0 and len(phis) < n_samples:
            zsum += st.Z
            phis.append(phi(st, hyper.beta))
            info["recorded"] = True
        info["iteration"] = it
        info["loglik_network"] = lk.network_loglik(data.Y, data.O, eta, link, hyper.gauss_sd)
        A = alphas(st.Z, data, st.gamma, st.lam, st.alpha_plus)
        info["loglik_topics"] = polya_loglik(st.ndk, A)
        trace.append(info)
    n = max(len(phis), 1)
    return zsum / n, np.mean(phis, axis=0), phis, trace, st


def square(Y, O, ptr, w, snd, rcv, V, K) -> TextNetwork:
    """LFRM_LDA data: N nodes, every node may hold every feature."""
    return TextNetwork(Y, O, ptr, w, snd, rcv, V, np.ones((Y.shape[0], K), np.int8))


def rectangular(Y, O, ptr, w, snd, rcv, V, K1, K2) -> TextNetwork:
    """BMF_LDA data (Eqs. A.3-A.8) stacked into N + M entities with the padded Z̄.

    ``Y``, ``O`` (N, M). ``snd`` is an entity (row i -> i, column j -> N + j); ``rcv`` is a
    column index 0..M-1 for an edge document (i, j), or -1 for a node document."""
    Y, O = np.asarray(Y, float), np.asarray(O, bool)
    N, M = Y.shape
    E = N + M
    Ys = np.zeros((E, E))
    Os = np.zeros((E, E), bool)
    Ys[:N, N:] = Y
    Os[:N, N:] = O
    allowed = np.zeros((E, K1 + K2), np.int8)
    allowed[:N, :K1] = 1
    allowed[N:, K1:] = 1
    rcv = np.where(np.asarray(rcv) >= 0, np.asarray(rcv) + N, -1)
    return TextNetwork(Ys, Os, ptr, w, snd, rcv, V, allowed)


# -------------------------------------------------------------- recovery (claim C2.7)
def recovery(zprob, phi_hat, Z_true, Phi_true, allowed=None) -> dict:
    """Planted feature↔topic recovery on synthetic data.

    Model topics are matched to the true topics by the Hungarian algorithm on the L1
    distance (our evaluation choice); since topic k' sits on feature k' (the in-sampler
    re-alignment), the feature matched to true feature k is the one carrying the matched
    topic. Z is read as the most likely assignment (z_ik = 1 in more than half of the
    samples, Sec. 2.7.2). Returns per-true-feature arrays and summaries:
    ``l1`` (matched topic distance), ``l1_ratio`` (l1 over the distance from true topic k
    to its nearest other true topic), ``acc_topic`` (accuracy of Z under the topic
    matching), ``acc_feature`` (under the best Z matching), ``association`` (share of true
    features whose Z matching and topic matching agree).
    """
    K = Z_true.shape[1]
    allowed = np.ones_like(Z_true) if allowed is None else allowed
    L1 = np.abs(Phi_true[:, None, :] - phi_hat[None, :, :]).sum(-1)  # (true, model)
    r, tm = linear_sum_assignment(L1)
    tm = tm[np.argsort(r)]
    zhat = (zprob > 0.5).astype(np.int8)
    mask = allowed.astype(bool)

    def acc(k, kk):
        m = mask[:, k] & mask[:, kk]
        return float((zhat[m, kk] == Z_true[m, k]).mean()) if m.any() else np.nan

    agree = np.array([[acc(k, kk) for kk in range(K)] for k in range(K)])
    r, fm = linear_sum_assignment(-np.nan_to_num(agree, nan=-1.0))
    fm = fm[np.argsort(r)]
    TT = np.abs(Phi_true[:, None, :] - Phi_true[None, :, :]).sum(-1)
    np.fill_diagonal(TT, np.inf)
    l1 = L1[np.arange(K), tm]
    return {
        "topic_match": tm,
        "feature_match": fm,
        "l1": l1,
        "l1_ratio": l1 / TT.min(1),
        "acc_topic": np.array([agree[k, tm[k]] for k in range(K)]),
        "acc_feature": np.array([agree[k, fm[k]] for k in range(K)]),
        "association": float(np.mean(tm == fm)),
    }
