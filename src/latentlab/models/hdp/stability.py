"""Linear stability of the symmetric state of the zero-order sweep (Eq 35; issue 37 case 1).

From the document's initialisation q(z_di = k) ∝ 0.1 + u every topic looks alike, and the
zero-order methods can stay there: CVB0 AA and PCVB0 AA on KOS at T = 300 end at the
unigram perplexity (published/real/REVERSALS.md case 1). Whether they can is a property of
the state q = 1/T itself: if one sweep of Eq 35 shrinks every small perturbation of it, the
state is a stable fixed point and a fit started near it stays; if some perturbation grows,
the topics break the symmetry.

At q_ik = 1/T the expected counts are E[n_dk] = n_d/T, E[n_kv] = n_v/T, E[n_k] = N/T for
every k. With α0E[π_k] the same for every k (E[π_k] = 1/T, the initial stick of Sec 6) the
Eq 35 update gives 1/T again: the state is a fixed point of the sweep for any α0, β0, τ.
Two sets of hyperparameters are used (``hyper``):

* ``solved``: Eqs 29-32 solved at the state (α0 by the Eq 29 fixed point with
  E[I(n_dk ≥ 1)] = 1 − (1 − 1/T)^{n_d} (Eq 26); β0 by Eq 30 and, for AA, τ by Eqs 31-32
  with E[I(n_kv ≥ 1)] = 1 − (1 − 1/T)^{n_v}); AS keeps τ_v = 1/V. These are the values the
  global update of Algorithm 1 moves to while q stays symmetric.
* ``init``: the hyperparameters of the initialisation (α0π_k = α0_init/T and β_v as
  ``beta_init`` reads Sec 6's 0.1/T), the values held during a ``hyper_burnin``.

Linearised at the state, one token's update is (the "−d,i" counts exclude the token)

    δq'_ik = (1/T) [ δE[n_dk^-]/A_d + δE[n_kw^-]/B_w − δE[n_k^-]/C ],
    A_d = (n_d − 1)/T + α0E[π_k],  B_w = (n_w − 1)/T + β0τ_w,  C = (N − 1)/T + β0,

the same linear map for every topic k (the perturbations of one token sum to 0 over k,
which removes the normaliser's term). The tokens are updated in sequence (Gauss-Seidel,
Algorithm 1 lines 2-6, as :func:`~latentlab.models.hdp.kernels.sweep_zero`), so the
sweep's Jacobian M acts on a vector of one value per token: :func:`linear_sweep`. The
perturbation that is the same on every token changes only the sizes of the topics
(E[n_k]); Algorithm 1 answers it through E[π] (Eqs 24-28), which the linearisation holds,
so it is projected out (the *topic-size mode*): the top eigenvalue of P M P with
P = I − 11ᵀ/n (:func:`top_eigenvalues`). Above 1, the symmetric state is unstable.

All of this is ours: the document does not discuss the symmetric state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from latentlab.data.tokens import TokenCorpus, as_tokens
from latentlab.errors import ConfigError, DataError
from latentlab.models.hdp import kernels, updates
from latentlab.models.hdp.options import PRIORS, HDPOptions

HYPER = ("solved", "init")


@dataclass
class SymmetricState:
    """The symmetric state q = 1/T of a corpus and the hyperparameters the sweep sees there."""

    T: int
    prior: str
    hyper: str
    alpha0: float
    alpha_pi: np.ndarray  # α0E[π_k], length T (all α0/T)
    beta0: float
    beta_v: np.ndarray  # β0τ_v, length V
    tau: np.ndarray
    # the largest |T·E[π_k] − 1| of Eqs 24-28 at this state (γ0 by Eq 33 iterated with the
    # sticks): how far the held E[π] = 1/T is from the one Algorithm 1 would compute
    pi_deviation: float = math.nan
    info: dict = field(default_factory=dict)


def _check(data: TokenCorpus, T: int, prior: str, hyper: str) -> None:
    if int(T) != T or T < 2:
        raise ConfigError("stability.T", f"truncation level T must be an integer >= 2, got {T}")
    if prior not in PRIORS:
        raise ConfigError("stability.prior", f"{prior!r} not in {PRIORS}")
    if hyper not in HYPER:
        raise ConfigError("stability.hyper", f"{hyper!r} not in {HYPER}")
    if data.n_tokens == 0:
        raise DataError(None, "no training tokens")


def symmetric_counts(data, T: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """E[n_dk], E[n_kv] (word-major V x T) and E[n_k] at q = 1/T."""
    data = as_tokens(data)
    nd = data.doc_lengths().astype(np.float64)
    nv = np.bincount(data.words, minlength=data.V).astype(np.float64)
    ndk = np.repeat(nd[:, None] / T, T, axis=1)
    nkv = np.repeat(nv[:, None] / T, T, axis=1)
    nk = np.full(T, data.n_tokens / T)
    return ndk, nkv, nk


def _pi_deviation(m: float, T: int, gamma0: float, n_iter: int = 200) -> float:
    """max_k |T·E[π_k] − 1| of Eqs 24-28 with every m_k = m, γ0 and the sticks iterated
    (Eq 33 after Eq 25, as Algorithm 1 lines 7 and 9)."""
    a = b = None
    for _ in range(n_iter):
        a, b = updates.q_pi_pcvb(np.full(T, m), gamma0)
        new = updates.gamma0_closed_form(a, b)
        if abs(new - gamma0) <= 1e-12 * gamma0:
            gamma0 = new
            break
        gamma0 = new
    a, b = updates.q_pi_pcvb(np.full(T, m), gamma0)
    return float(np.max(np.abs(T * updates.stick_expectation(a, b) - 1.0)))


def symmetric_state(data, T: int, prior: str = "AA", hyper: str = "solved",
                    options: HDPOptions | None = None) -> SymmetricState:  # fmt: skip
    """The hyperparameters of the symmetric state (module docstring): ``solved`` (Eqs 29-32
    at q = 1/T, the fixed points iterated to ``fp_tol`` within 100 x ``fp_max_iter`` steps)
    or ``init`` (Sec 6's initial values as :class:`HDPOptions` reads them)."""
    data = as_tokens(data)
    _check(data, T, prior, hyper)
    o = options if isinstance(options, HDPOptions) else HDPOptions.from_dict(options)
    V = data.V
    nd = data.doc_lengths().astype(np.float64)
    nd = nd[nd > 0]
    nv = np.bincount(data.words, minlength=V).astype(np.float64)
    log_keep = math.log1p(-1.0 / T)
    Id = -np.expm1(nd * log_keep)  # Eq 26 at q = 1/T, each of the T topics
    Iv = np.where(nv > 0, -np.expm1(nv * log_keep), 0.0)  # Eq 32
    info: dict = {}
    if hyper == "init":
        alpha0 = float(o.alpha0_init)
        if o.beta_init == "literal":
            beta0 = o.beta_init_value * V / T
        else:  # per_V, unnormalised: β0 = 0.1 (unnormalised: β_v = 0.1/T in the first sweep)
            beta0 = float(o.beta_init_value)
        tau = np.full(V, 1.0 / V)
        beta_v = (np.full(V, o.beta_init_value / T) if o.beta_init == "unnormalised"
                  else beta0 * tau)  # fmt: skip
    else:
        max_iter = 100 * max(int(o.fp_max_iter), 1)
        fa = updates.fixed_point_concentration(
            float(T * Id.sum()), nd, o.alpha0_init, max_iter, o.fp_tol, "alpha0"
        )
        fb = updates.fixed_point_concentration(
            float(T * Iv.sum()), np.full(T, data.n_tokens / T), o.beta_init_value * V / T,
            max_iter, o.fp_tol, "beta0",
        )  # fmt: skip
        if not (fa.converged and fb.converged):
            raise DataError(
                None, f"no fixed point of Eqs 29/30 at the symmetric state: {fa.note} {fb.note}"
            )
        alpha0, beta0 = fa.value, fb.value
        info = {"fp_alpha0_iters": fa.n_iter, "fp_beta0_iters": fb.n_iter}
        tau = updates.tau_from_counts(Iv) if prior == "AA" else np.full(V, 1.0 / V)  # Eq 31
        beta_v = beta0 * tau
    dev = _pi_deviation(float(Id.sum()), T, float(o.gamma0_init))
    return SymmetricState(int(T), prior, hyper, float(alpha0), np.full(T, alpha0 / T),
                          float(beta0), np.asarray(beta_v, dtype=np.float64), tau, dev,
                          info)  # fmt: skip


def sweep_map(data, q: np.ndarray, state: SymmetricState) -> np.ndarray:
    """One Eq 35 sweep (:func:`~latentlab.models.hdp.kernels.sweep_zero`, documents in
    order) from ``q`` with the expected counts recomputed from it and the hyperparameters
    of ``state`` held: the map whose Jacobian :func:`linear_sweep` is."""
    data = as_tokens(data)
    T = state.T
    q = np.array(q, dtype=np.float64, copy=True)
    N, V = data.n_docs, data.V
    ndk, nkv, nk = np.zeros((N, T)), np.zeros((V, T)), np.zeros(T)
    dummy = np.zeros((1, 1))
    kernels.counts_from_q(data.doc_ptr, data.words, q, ndk, nkv, nk, dummy, dummy,
                          np.zeros(1), False)  # fmt: skip
    kernels.sweep_zero(data.doc_ptr, data.words, q, ndk, nkv, nk, state.alpha_pi,
                       state.beta_v, float(state.beta0), np.arange(N, dtype=np.int64), True,
                       False)  # fmt: skip
    return q


def _coefficients(data: TokenCorpus, state: SymmetricState):
    """1/(T A_d), 1/(T B_w), 1/(T C) of the module docstring."""
    T = state.T
    nd = data.doc_lengths().astype(np.float64)
    nv = np.bincount(data.words, minlength=data.V).astype(np.float64)
    A = (nd - 1.0) / T + state.alpha_pi[0]
    B = (nv - 1.0) / T + state.beta_v
    C = (data.n_tokens - 1.0) / T + state.beta0
    with np.errstate(divide="ignore"):
        ia = np.where(nd > 0, 1.0 / (T * A), 0.0)
        ib = np.where(nv > 0, 1.0 / (T * B), 0.0)
    return ia, ib, 1.0 / (T * C)


@njit(cache=True)
def _linear_sweep(doc_ptr, words, eps, ia, ib, ic, out, sequential):
    """The linearised sweep on one value per token (one topic's perturbation): in sequence
    (Gauss-Seidel: each token sees the tokens before it already updated), or in parallel
    (Jacobi: every token sees the old values)."""
    N = doc_ptr.shape[0] - 1
    sd = np.zeros(N)
    sw = np.zeros(ib.shape[0])
    s = 0.0
    for i in range(eps.shape[0]):
        out[i] = eps[i]
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            sd[d] += eps[i]
            sw[words[i]] += eps[i]
            s += eps[i]
    for d in range(N):
        for i in range(doc_ptr[d], doc_ptr[d + 1]):
            w = words[i]
            old = eps[i]
            new = (sd[d] - old) * ia[d] + (sw[w] - old) * ib[w] - (s - old) * ic
            out[i] = new
            if sequential:
                sd[d] += new - old
                sw[w] += new - old
                s += new - old
    return out


ORDERS = ("sequential", "parallel")


def linear_sweep(data, state: SymmetricState, order: str = "sequential"):
    """``M``: a perturbation of one topic's q (one value per token, in the stream's order)
    -> its image after one linearised Eq 35 sweep around ``state`` (module docstring).
    ``order``: ``sequential`` is Algorithm 1's in-place sweep (the Jacobian of
    :func:`sweep_map`); ``parallel`` updates every token from the old counts (a Jacobi
    sweep, not the document's; kept for comparison)."""
    data = as_tokens(data)
    if order not in ORDERS:
        raise ConfigError("stability.order", f"{order!r} not in {ORDERS}")
    ia, ib, ic = _coefficients(data, state)
    seq = order == "sequential"

    def apply(eps):
        eps = np.ascontiguousarray(eps, dtype=np.float64)
        if eps.shape != (data.n_tokens,):
            raise ValueError(f"linear_sweep: expected {data.n_tokens} values, got {eps.shape}")
        return _linear_sweep(data.doc_ptr, data.words, eps, ia, ib, ic, np.empty_like(eps), seq)

    return apply


def jacobian_dense(data, state: SymmetricState, order: str = "sequential") -> np.ndarray:
    """M as a dense n_tokens x n_tokens matrix (small corpora: the tests)."""
    data = as_tokens(data)
    f = linear_sweep(data, state, order)
    n = data.n_tokens
    return np.column_stack([f(np.eye(n)[:, j]) for j in range(n)])


def top_eigenvalues(
    data,
    state: SymmetricState,
    k: int = 3,
    project_size: bool = True,
    seed: int = 0,
    tol: float = 1e-8,
    order: str = "sequential",
) -> np.ndarray:
    """The ``k`` eigenvalues of largest modulus of P M P (``project_size``: P removes the
    topic-size mode, the perturbation equal on every token) or of M, largest first
    (complex: the Gauss-Seidel Jacobian is not symmetric). ARPACK, or a dense solve below
    400 tokens."""
    from scipy.sparse.linalg import LinearOperator, eigs

    data = as_tokens(data)
    n = data.n_tokens
    f = linear_sweep(data, state, order)

    def op(x):
        x = np.asarray(x, dtype=np.float64).ravel()
        if project_size:
            x = x - x.mean()
        y = f(x)
        return y - y.mean() if project_size else y

    if n < 400 or k >= n - 1:
        M = np.column_stack([op(np.eye(n)[:, j]) for j in range(n)])
        ev = np.linalg.eigvals(M)
    else:
        v0 = np.random.default_rng(seed).standard_normal(n)
        ev = eigs(LinearOperator((n, n), matvec=op, dtype=np.float64), k=k, which="LM",
                  v0=v0, tol=tol, return_eigenvectors=False)  # fmt: skip
    ev = np.asarray(ev)
    return ev[np.argsort(-np.abs(ev), kind="stable")][:k]


def stability(data, T: int, prior: str, hyper: str = "solved",
              options: HDPOptions | None = None, k: int = 3,
              order: str = "sequential") -> dict:  # fmt: skip
    """One row of the stability evidence: the state's hyperparameters and the top
    eigenvalues (modulus, real part) with and without the topic-size mode."""
    data = as_tokens(data)
    st = symmetric_state(data, T, prior, hyper, options)
    ev = top_eigenvalues(data, st, k=k, order=order)
    ev_all = top_eigenvalues(data, st, k=1, project_size=False, order=order)
    return {
        "T": int(T),
        "prior": prior,
        "hyper": hyper,
        "order": order,
        "alpha0": st.alpha0,
        "alpha_pi": float(st.alpha_pi[0]),
        "beta0": st.beta0,
        "tau_max": float(st.tau.max()),
        "pi_deviation": st.pi_deviation,
        "eigenvalue": float(abs(ev[0])),
        "eigenvalue_real": float(ev[0].real),
        "eigenvalue_2": float(abs(ev[1])) if len(ev) > 1 else math.nan,
        "eigenvalue_with_size_mode": float(abs(ev_all[0])),
        "unstable": bool(abs(ev[0]) > 1.0),
        "n_tokens": data.n_tokens,
        "n_docs": data.n_docs,
    }
