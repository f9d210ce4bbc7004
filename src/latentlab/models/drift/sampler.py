"""DRIFT MCMC (Sec. 2.5): slice sampling on the IBP sticks, FFBS per actor and feature,
conjugate updates of α, a, b, random-walk MH for W and ε. LFRM is the same sampler with
one latent time step (Sec. 2.6: "the algorithm for DRIFT with one time step").

One iteration (:func:`step`):

1. slice variable s ~ U(0, a*), a* the smallest stick of an active feature (Eq. 2.25);
2. new features with sticks drawn from Eq. 2.26 (M = N·T) until a stick falls below s;
3. FFBS of every chain z_ik^(1:T) (Eq. 2.27), with the slice's 1/a* factor (knob);
4. all-zero columns dropped;
5. α | Z ~ Gamma(K⁺ + α_a, H_{NT} + α_b); a_k ~ Beta(c01, c00 + 1); b_k ~ Beta(c11 + γ, c10 + δ);
6. MH on each w_kk' (W symmetric, Eq. 2.28) and on ε.

With ``fixed_K`` (Fig. 2.2 only) the model is the finite one: K features, a_k ~ Beta(α/K, 1),
no slice variable, no columns dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from latentlab.errors import DataError, DivergenceError
from latentlab.kernels.warmup import warm_once
from latentlab.models.drift import kernels as kr


@dataclass(frozen=True)
class Hyper:
    """Hyperparameters (Sec. 2.6: α_a = 3, α_b = 1, γ = 3, δ = 1, σ_W = 0.1)."""

    alpha_a: float = 3.0  # Gamma shape of the IBP α
    alpha_b: float = 1.0  # Gamma rate of the IBP α
    gamma: float = 3.0  # b_k ~ Beta(γ, δ)
    delta: float = 1.0
    sigma_w: float = 0.1  # prior s.d. of w_kk' (σ read as a standard deviation)
    sigma_w_prop: float = 0.1  # MH proposal s.d. of w_kk' (Eq. 2.28 uses the same σ_w)
    sigma_eps: float = 1.0  # prior s.d. of ε (not given by the document)
    sigma_eps_prop: float = 0.1  # MH proposal s.d. of ε (not given by the document)
    slice_factor: bool = True  # keep the 1/a*(Z) factor of the slice variable
    sample_alpha: bool = True
    fixed_K: int | None = None
    init_stick_min: float = 1e-3  # prior draw of the sticks stops below init_stick_min / (N T)


@dataclass
class Data:
    """Sufficient statistics of the observed dyads (see ``kernels``): C1, C0 (T, N, N)."""

    C1: np.ndarray
    C0: np.ndarray

    @property
    def T(self) -> int:
        return self.C1.shape[0]

    @property
    def N(self) -> int:
        return self.C1.shape[1]

    @classmethod
    def from_networks(cls, Y, observed=None, static: bool = False) -> Data:
        """``Y`` (T, N, N) binary symmetric; ``observed`` (T, N, N) bool (None = all).
        ``static``: one latent time shared by the T snapshots (LFRM(all))."""
        Y = np.asarray(Y)
        if Y.ndim != 3 or Y.shape[1] != Y.shape[2]:
            raise DataError(None, f"networks must be (T, N, N), got {Y.shape}")
        if not np.isin(Y, (0, 1)).all():
            raise DataError(None, "networks must be binary (0/1)")
        if not np.array_equal(Y, Y.transpose(0, 2, 1)):
            raise DataError(None, "networks must be symmetric (footnote 5)")
        obs = np.ones(Y.shape, bool) if observed is None else np.asarray(observed, bool)
        if not np.array_equal(obs, obs.transpose(0, 2, 1)):
            raise DataError(None, "the mask of observed dyads must be symmetric")
        off = ~np.eye(Y.shape[1], dtype=bool)
        C1 = ((Y == 1) & obs & off).astype(np.float64)
        C0 = ((Y == 0) & obs & off).astype(np.float64)
        if static:
            C1, C0 = C1.sum(0, keepdims=True), C0.sum(0, keepdims=True)
        return cls(np.ascontiguousarray(C1), np.ascontiguousarray(C0))


@dataclass
class State:
    Z: np.ndarray  # (T, N, K) int8
    W: np.ndarray  # (K, K) symmetric
    eps: float
    a: np.ndarray  # (K,) birth probabilities (IBP sticks)
    b: np.ndarray  # (K,) persistence probabilities
    alpha: float

    @property
    def K(self) -> int:
        return self.Z.shape[2]

    def copy(self) -> State:
        return State(
            self.Z.copy(), self.W.copy(), self.eps, self.a.copy(), self.b.copy(), self.alpha
        )


def harmonic(n: int) -> float:
    return float(np.sum(1.0 / np.arange(1, n + 1)))


def draw_chains(a, b, T, N, rng) -> np.ndarray:
    """Z from the DRIFT prior (Eq. 2.19): z^(0) = 0, z^(t) ~ Bern(a^{1−z} b^{z})."""
    K = len(a)
    Z = np.zeros((T, N, K), np.int8)
    prev = np.zeros((N, K), np.int8)
    for t in range(T):
        p = np.where(prev == 1, b, a)
        prev = (rng.random((N, K)) < p).astype(np.int8)
        Z[t] = prev
    return Z


def _sym_normal(K, sd, rng):
    W = np.triu(rng.normal(0.0, sd, (K, K)))
    return W + np.triu(W, 1).T


def init_state(data: Data, hyper: Hyper, rng) -> State:
    """All variables drawn from their priors (Sec. 2.6)."""
    T, N = data.T, data.N
    alpha = rng.gamma(hyper.alpha_a, 1.0 / hyper.alpha_b)
    if hyper.fixed_K:
        K = hyper.fixed_K
        a = rng.beta(alpha / K, 1.0, K)
    else:
        sticks, cur = [], 1.0
        while True:
            cur *= rng.beta(alpha, 1.0)
            if cur < hyper.init_stick_min / (N * T):
                break
            sticks.append(cur)
        a = np.array(sticks)
    b = rng.beta(hyper.gamma, hyper.delta, len(a))
    Z = draw_chains(a, b, T, N, rng)
    st = State(
        Z, _sym_normal(len(a), hyper.sigma_w, rng), rng.normal(0, hyper.sigma_eps), a, b, alpha
    )
    if not hyper.fixed_K:
        st = drop_inactive(st)
    return st


def drop_inactive(st: State) -> State:
    keep = st.Z.any(axis=(0, 1))
    if keep.all():
        return st
    return State(
        np.ascontiguousarray(st.Z[:, :, keep]),
        np.ascontiguousarray(st.W[np.ix_(keep, keep)]),
        st.eps,
        st.a[keep],
        st.b[keep],
        st.alpha,
    )


def sort_by_stick(st: State) -> State:
    o = np.argsort(-st.a, kind="stable")
    if np.array_equal(o, np.arange(st.K)):
        return st
    return State(
        np.ascontiguousarray(st.Z[:, :, o]),
        np.ascontiguousarray(st.W[np.ix_(o, o)]),
        st.eps,
        st.a[o],
        st.b[o],
        st.alpha,
    )


def stick_log_density(u, alpha, M):
    """log of Eq. 2.26 in u = log a (Jacobian included), up to a constant:
    α u + α S(a) + M log(1 − a), S(a) = Σ_{i=1}^M (1−a)^i / i = H_M − ∫_0^a (1−(1−t)^M)/t dt,
    the integral taken by the trapezoid rule in log t on the (increasing) grid ``u``."""
    a = np.exp(u)
    f = -np.expm1(M * np.log1p(-np.minimum(a, 1 - 1e-16)))  # 1 − (1 − a)^M
    integral = np.concatenate([[0.0], np.cumsum(0.5 * (f[1:] + f[:-1]) * np.diff(u))])
    integral += M * a[0]  # ∫_0^{a_0} ≈ M a_0 for a_0 << 1/M
    S = harmonic(M) - integral
    return alpha * u + alpha * S + M * np.log1p(-np.minimum(a, 1 - 1e-16))


class StickSampler:
    """New sticks from Eq. 2.26 by inversion of the CDF on a grid in u = log a. The
    unnormalised density is the same for every new stick of an iteration (only the upper
    end a_prev changes), so the CDF is built once and each draw inverts it on [0, a_prev].
    Below a ~ 1/M the density is e^{αu}; the grid starts 40/α below that (and below the
    slice variable ``s_min``)."""

    def __init__(self, alpha, M, grid: int = 4000, s_min: float = 1.0):
        # the grid must reach below the slice s, else no draw can stop the extension
        lo = min(-np.log(M), np.log(s_min)) - 40.0 / max(alpha, 1e-3) - 1.0
        self.u = np.linspace(lo, 0.0, grid)
        lp = stick_log_density(self.u, alpha, M)
        lp[-1] = -np.inf  # a = 1 has density 0
        if not np.all(np.isfinite(lp[:-1])):
            raise DivergenceError("new stick (Eq. 2.26)", 0, f"alpha={alpha}, M={M}")
        w = np.exp(lp - lp[:-1].max())
        self.cdf = np.concatenate([[0.0], np.cumsum(0.5 * (w[1:] + w[:-1]) * np.diff(self.u))])

    def draw(self, a_prev, rng) -> float:
        up = np.interp(np.log(a_prev), self.u, self.cdf)
        r = rng.random() * up
        k = min(max(int(np.searchsorted(self.cdf, r, side="right")) - 1, 0), len(self.u) - 2)
        frac = (r - self.cdf[k]) / max(self.cdf[k + 1] - self.cdf[k], 1e-300)
        return float(np.exp(self.u[k] + frac * (self.u[k + 1] - self.u[k])))


def draw_stick(a_prev, alpha, M, rng, grid: int = 4000) -> float:
    """One new stick from Eq. 2.26 on [0, a_prev]."""
    return StickSampler(alpha, M, grid).draw(a_prev, rng)


def extend(st: State, hyper: Hyper, M: int, rng, max_new: int = 100_000) -> State:
    """Slice variable (Eq. 2.25) and new features with a_k >= s (Eq. 2.26)."""
    active = st.a[st.Z.any(axis=(0, 1))] if st.K else np.array([])
    astar = float(active.min()) if len(active) else 1.0
    s = rng.uniform(0.0, astar)
    # semi-ordered representation (Teh et al. 2007): the inactive sticks are ordered among
    # themselves from a_0 = 1, independently of the active ones (a Poisson process of
    # intensity α a^{-1}(1-a)^M given Z). Starting them from a* (a reading Sec. 2.5 allows)
    # fails the prior test (K⁺ 1.5 instead of 2.5 at N = T = 2).
    new, a_prev = [], 1.0
    sticks = StickSampler(st.alpha, M, s_min=s)
    while True:
        a_new = sticks.draw(a_prev, rng)
        if a_new < s:
            break
        new.append(a_new)
        a_prev = a_new
        if len(new) > max_new:
            raise DivergenceError("slice extension", 0, f"more than {max_new} new features (s={s})")
    if not new:
        return st
    n = len(new)
    K = st.K + n
    T, N = st.Z.shape[:2]
    Z = np.zeros((T, N, K), np.int8)
    Z[:, :, : st.K] = st.Z
    W = _sym_normal(K, hyper.sigma_w, rng)
    W[: st.K, : st.K] = st.W
    return State(
        Z,
        W,
        st.eps,
        np.concatenate([st.a, new]),
        np.concatenate([st.b, rng.beta(hyper.gamma, hyper.delta, n)]),
        st.alpha,
    )


def step(st: State, data: Data, hyper: Hyper, rng, eta=None, it: int = 0):
    """One MCMC iteration; returns (state, eta, info)."""
    T, N = data.T, data.N
    M = N * T
    if not hyper.fixed_K:
        # The sweep visits features by decreasing stick: an order that depends on which
        # features are active (e.g. old ones first, new ones last) is a state-dependent scan
        # and does not leave the posterior invariant (the prior test catches it).
        st = sort_by_stick(extend(st, hyper, M, rng))
        eta = None
    if eta is None or eta.shape[0] != T:
        eta = kr.compute_eta(st.Z, st.W, st.eps)
    K = st.K
    if K:
        U = rng.random((K, N, T))
        slice_on = hyper.slice_factor and not hyper.fixed_K
        status, i, k, t = kr.sweep_z(data.C1, data.C0, eta, st.Z, st.W, st.a, st.b, slice_on, U)
        if status != kr.OK:
            what = "NaN likelihood" if status == kr.BAD_LIKELIHOOD else "zero-probability state"
            raise DivergenceError(
                "FFBS", it, f"{what} for actor {i}, feature {k}, time {t} (0-based)"
            )
    if not hyper.fixed_K:
        before = st.K
        st = drop_inactive(st)
        if st.K != before:
            eta = kr.compute_eta(st.Z, st.W, st.eps)
    K = st.K
    c = kr.transition_counts(st.Z) if K else np.zeros((0, 4), np.int64)
    c00, c01, c10, c11 = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    if hyper.fixed_K:
        if hyper.sample_alpha:
            rate = hyper.alpha_b - np.sum(np.log(st.a)) / K
            st.alpha = rng.gamma(K + hyper.alpha_a, 1.0 / rate)
        st.a = rng.beta(st.alpha / K + c01, c00 + 1.0)
    else:
        if hyper.sample_alpha:
            st.alpha = rng.gamma(K + hyper.alpha_a, 1.0 / (harmonic(M) + hyper.alpha_b))
        st.a = rng.beta(c01, c00 + 1.0) if K else np.zeros(0)
    st.b = rng.beta(c11 + hyper.gamma, c10 + hyper.delta) if K else np.zeros(0)
    st.a = np.clip(st.a, 1e-300, 1.0 - 1e-16)
    st.b = np.clip(st.b, 1e-300, 1.0 - 1e-16)
    acc_w = 0
    if K:
        acc_w = kr.mh_w(
            data.C1,
            data.C0,
            eta,
            st.Z,
            st.W,
            hyper.sigma_w,
            hyper.sigma_w_prop,
            rng.standard_normal((K, K)),
            rng.random((K, K)),
        )
    st.eps, acc_e = kr.mh_eps(
        data.C1,
        data.C0,
        eta,
        st.eps,
        hyper.sigma_eps,
        hyper.sigma_eps_prop,
        rng.standard_normal(),
        rng.random(),
    )
    info = {
        "K": K,
        "alpha": st.alpha,
        "eps": st.eps,
        "acc_w": acc_w / max(1, K * (K + 1) // 2),
        "acc_eps": float(acc_e),
    }
    return st, eta, info


def run_chain(
    data: Data,
    hyper: Hyper,
    seed,
    burnin: int,
    n_samples: int = 1,
    thin: int = 1,
    loglik_every: int = 0,
):
    """One chain from the prior: ``burnin`` iterations, then ``n_samples`` states ``thin``
    iterations apart. Returns (samples, trace rows)."""
    rng = np.random.default_rng(seed)
    st = init_state(data, hyper, rng)
    eta = None
    samples, trace = [], []
    total = burnin + (n_samples - 1) * thin + 1 if n_samples else burnin
    for it in range(total):
        st, eta, info = step(st, data, hyper, rng, eta, it)
        if loglik_every and it % loglik_every == 0:
            info["loglik"] = kr.total_loglik(data.C1, data.C0, eta)
        info["iteration"] = it
        trace.append(info)
        if it >= burnin and (it - burnin) % thin == 0 and len(samples) < n_samples:
            samples.append(st.copy())
    return samples, trace


def _chain_job(args):
    data, hyper, seed, burnin, n_samples, thin = args
    return run_chain(data, hyper, seed, burnin, n_samples, thin)


def _tiny_chain() -> None:
    Y = np.zeros((2, 3, 3), np.int8)
    Y[:, 0, 1] = Y[:, 1, 0] = 1
    run_chain(Data.from_networks(Y), Hyper(fixed_K=2), 0, 1)


def warm_kernels() -> None:
    """Load the numba kernels in this process (:func:`latentlab.kernels.warmup.warm_once`)
    by one iteration of a tiny fixed-K chain, which calls every kernel of :func:`step` with
    the types of a real fit. Without it each forked pool loads the cache again in every
    worker (~1 s each), which dominated the small fits of the smoke run."""
    warm_once("drift.sampler", _tiny_chain)


def run_chains(
    data: Data,
    hyper: Hyper,
    seed: int,
    n_chains: int,
    burnin: int,
    n_samples: int = 1,
    thin: int = 1,
    processes: int = 1,
):
    """Independent chains (seeds [seed, c]); in ``processes`` worker processes when > 1.
    Returns (samples of all chains in chain order, traces)."""
    jobs = [(data, hyper, [int(seed), c], burnin, n_samples, thin) for c in range(n_chains)]
    if processes > 1 and n_chains > 1:
        import multiprocessing as mp

        warm_kernels()
        with mp.get_context("fork").Pool(min(processes, n_chains)) as pool:
            res = pool.map(_chain_job, jobs)
    else:
        res = [_chain_job(j) for j in jobs]
    samples = [s for r in res for s in r[0]]
    traces = [r[1] for r in res]
    return samples, traces


def with_K(hyper: Hyper, K: int | None) -> Hyper:
    return replace(hyper, fixed_K=K)
