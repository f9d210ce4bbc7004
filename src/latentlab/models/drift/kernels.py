"""Numba kernels of the DRIFT / LFRM sampler (hot loops only; the math is in ``reference.py``).

Layouts:

* ``Z`` is ``(T, N, K)`` int8 (latent time, actor, feature); ``W`` is ``(K, K)`` symmetric.
* The data enter as sufficient statistics ``C1, C0`` of shape ``(T, N, N)``: the number of
  observed edges / non-edges of the unordered pair {i, j} at latent time t (symmetric,
  zero diagonal). A held-out dyad has ``C1 = C0 = 0`` (dropping it from the likelihood is
  equivalent to Gibbs-sampling it as Sec. 2.6 does, by conditional independence: our
  simplification); LFRM(all) sums the T snapshots into one
  latent time.
* ``eta`` is ``(T, N, N)``: ``Z^(t) W Z^(t)ᵀ + ε`` (Eq. 2.18 logit), kept up to date.

Random numbers are drawn outside (``numpy.random.Generator``) and passed in, so a kernel
and its numpy reference consume the same numbers and agree bit for bit (up to rounding).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# status codes returned by the Z sweep
OK = 0
BAD_LIKELIHOOD = 1  # NaN / inf in the per-time likelihood of a chain
ZERO_FORWARD = 2  # the forward filter lost all probability mass


@njit(cache=True, inline="always")
def softplus(x):
    if x > 0.0:
        return x + np.log1p(np.exp(-x))
    return np.log1p(np.exp(x))


@njit(cache=True, inline="always")
def pair_loglik(c1, c0, eta):
    """c1 log σ(η) + c0 log(1 − σ(η)) (Eq. 2.3 with logistic σ)."""
    ll = 0.0
    if c1 != 0.0:
        ll -= c1 * softplus(-eta)
    if c0 != 0.0:
        ll -= c0 * softplus(eta)
    return ll


@njit(cache=True)
def compute_eta(Z, W, eps):
    """η^(t)_ij = z_i^(t) W z_j^(t)ᵀ + ε for every t and pair (diagonal left at ε)."""
    T, N, K = Z.shape
    eta = np.empty((T, N, N))
    zw = np.empty((N, K))
    for t in range(T):
        for i in range(N):
            for k in range(K):
                s = 0.0
                for a in range(K):
                    if Z[t, i, a]:
                        s += W[a, k]
                zw[i, k] = s
        for i in range(N):
            for j in range(N):
                s = eps
                for k in range(K):
                    if Z[t, j, k]:
                        s += zw[i, k]
                eta[t, i, j] = s
    return eta


@njit(cache=True)
def total_loglik(C1, C0, eta):
    """log Pr(Y | Z, W, ε) over unordered pairs i < j and all latent times."""
    T, N, _ = eta.shape
    ll = 0.0
    for t in range(T):
        for i in range(N):
            for j in range(i + 1, N):
                ll += pair_loglik(C1[t, i, j], C0[t, i, j], eta[t, i, j])
    return ll


@njit(cache=True)
def ffbs3(ll0, ll1, a, b, w_never, w_on, u):
    """Forward-filtering backward-sampling of one chain z^(1:T) (Eq. 2.27), z^(0) = 0.

    The chain is run on three states, (z=0, never on), (z=0, was on), (z=1), so that a
    terminal weight ``w_never`` / ``w_on`` can multiply the all-zero path / the others (the
    slice sampler's 1/a* factor; equal weights give the plain two-state FFBS).
    ``ll0[t], ll1[t]``: log Pr(Y^(t) | z^(t) = 0 / 1, rest). ``u``: T uniforms.
    Returns (z, status, t_bad).
    """
    T = ll0.shape[0]
    alpha = np.zeros((T, 3))
    z = np.zeros(T, dtype=np.int8)
    p0 = 1.0  # filtered mass at t-1 (start: state 0 with probability 1)
    p1 = 0.0
    p2 = 0.0
    for t in range(T):
        x0 = ll0[t]
        x1 = ll1[t]
        if not (np.isfinite(x0) and np.isfinite(x1)):
            return z, BAD_LIKELIHOOD, t
        m = x0 if x0 > x1 else x1
        e0 = np.exp(x0 - m)
        e1 = np.exp(x1 - m)
        q0 = p0 * (1.0 - a) * e0
        q1 = (p1 * (1.0 - a) + p2 * (1.0 - b)) * e0
        q2 = (p0 * a + p1 * a + p2 * b) * e1
        s = q0 + q1 + q2
        if not (s > 0.0) or not np.isfinite(s):
            return z, ZERO_FORWARD, t
        p0 = q0 / s
        p1 = q1 / s
        p2 = q2 / s
        alpha[t, 0] = p0
        alpha[t, 1] = p1
        alpha[t, 2] = p2
    # backward sampling
    f0 = alpha[T - 1, 0] * w_never
    f1 = alpha[T - 1, 1] * w_on
    f2 = alpha[T - 1, 2] * w_on
    s = f0 + f1 + f2
    if not (s > 0.0) or not np.isfinite(s):
        return z, ZERO_FORWARD, T - 1
    r = u[T - 1] * s
    st = 0 if r < f0 else (1 if r < f0 + f1 else 2)
    z[T - 1] = 1 if st == 2 else 0
    for t in range(T - 2, -1, -1):
        # Pr(s_t = r | s_{t+1}) ∝ alpha_t(r) Q(r, s_{t+1})
        if st == 0:
            g0 = alpha[t, 0] * (1.0 - a)
            g1 = 0.0
            g2 = 0.0
        elif st == 1:
            g0 = 0.0
            g1 = alpha[t, 1] * (1.0 - a)
            g2 = alpha[t, 2] * (1.0 - b)
        else:
            g0 = alpha[t, 0] * a
            g1 = alpha[t, 1] * a
            g2 = alpha[t, 2] * b
        s = g0 + g1 + g2
        if not (s > 0.0):
            return z, ZERO_FORWARD, t
        r = u[t] * s
        st = 0 if r < g0 else (1 if r < g0 + g1 else 2)
        z[t] = 1 if st == 2 else 0
    return z, OK, -1


@njit(cache=True)
def compute_zw(Z, W):
    """ZW[t, j, k] = (z_j^(t) W)_k, the change of η_ij when z_ik switches on (i != j)."""
    T, N, K = Z.shape
    zw = np.zeros((T, N, K))
    for t in range(T):
        for j in range(N):
            for b in range(K):
                if Z[t, j, b]:
                    for k in range(K):
                        zw[t, j, k] += W[b, k]
    return zw


@njit(cache=True)
def chain_loglik(C1, C0, eta, Z, zw, i, k, ll0, ll1):
    """ll0[t], ll1[t] = log Pr(Y^(t) | z_ik^(t) = 0 / 1, rest) over the pairs touching i."""
    T, N, K = Z.shape
    for t in range(T):
        cur = Z[t, i, k]
        s0 = 0.0
        s1 = 0.0
        for j in range(N):
            if j == i:
                continue
            c1 = C1[t, i, j]
            c0 = C0[t, i, j]
            if c1 == 0.0 and c0 == 0.0:
                continue
            d = zw[t, j, k]
            base = eta[t, i, j] - cur * d
            s0 += pair_loglik(c1, c0, base)
            s1 += pair_loglik(c1, c0, base + d)
        ll0[t] = s0
        ll1[t] = s1


@njit(cache=True)
def set_chain(eta, zw, Z, W, i, k, znew):
    """Write z_ik^(1:T) = znew and update η and ZW incrementally (O(N K) per change rather
    than recomputing Z W Zᵀ; not in the thesis)."""
    T, N, K = Z.shape
    for t in range(T):
        delta = znew[t] - Z[t, i, k]
        if delta == 0:
            continue
        for j in range(N):
            if j == i:
                continue
            d = zw[t, j, k]
            eta[t, i, j] += delta * d
            eta[t, j, i] += delta * d
        for b in range(K):
            zw[t, i, b] += delta * W[k, b]
        Z[t, i, k] = znew[t]


@njit(cache=True)
def sweep_z(C1, C0, eta, Z, W, a, b, slice_factor, U):
    """Resample every chain z_ik^(1:T) by FFBS, feature by feature, actor by actor.

    With ``slice_factor`` the 1/a*(Z) factor of the slice variable's density is kept: a
    chain whose feature is held by no other actor weighs its all-zero path by 1/a*_0 and
    its other paths by 1/a*_1 = 1/min(a*_0, a_k), where a*_0 is the smallest stick of the
    other active features (1 when there is none). ``U``: (K, N, T) uniforms.
    Returns (status, i, k, t) — status OK or the failing actor, feature and time.
    """
    T, N, K = Z.shape
    ll0 = np.empty(T)
    ll1 = np.empty(T)
    zw = compute_zw(Z, W)
    m = np.zeros(K, dtype=np.int64)  # number of ones per feature column
    for t in range(T):
        for i in range(N):
            for k in range(K):
                m[k] += Z[t, i, k]
    for k in range(K):
        for i in range(N):
            mine = 0
            for t in range(T):
                mine += Z[t, i, k]
            w_never = 1.0
            w_on = 1.0
            if slice_factor and m[k] - mine == 0:
                astar0 = 1.0
                for kk in range(K):
                    if kk != k and m[kk] > 0 and a[kk] < astar0:
                        astar0 = a[kk]
                astar1 = astar0 if astar0 < a[k] else a[k]
                w_never = 1.0 / astar0
                w_on = 1.0 / astar1
            chain_loglik(C1, C0, eta, Z, zw, i, k, ll0, ll1)
            znew, status, tb = ffbs3(ll0, ll1, a[k], b[k], w_never, w_on, U[k, i])
            if status != OK:
                return status, i, k, tb
            new = 0
            for t in range(T):
                new += znew[t]
            set_chain(eta, zw, Z, W, i, k, znew)
            m[k] += new - mine
    return OK, -1, -1, -1


@njit(cache=True)
def _delta_w_loglik(C1, C0, eta, Z, k, kk, delta):
    """Change of log Pr(Y | ...) when w_kk' = w_k'k moves by ``delta`` (W symmetric)."""
    T, N, K = Z.shape
    d = 0.0
    for t in range(T):
        for i in range(N):
            zi_k = Z[t, i, k]
            zi_kk = Z[t, i, kk]
            if zi_k == 0 and zi_kk == 0:
                continue
            for j in range(N):
                if j == i:
                    continue
                if k == kk:
                    c = zi_k * Z[t, j, k]
                else:
                    c = zi_k * Z[t, j, kk] + zi_kk * Z[t, j, k]
                if c == 0:
                    continue
                # pair {i, j} is visited from i and (if j is also active) from j
                jk = Z[t, j, k] != 0 or Z[t, j, kk] != 0
                if jk and j < i:
                    continue
                e = eta[t, i, j]
                d += pair_loglik(C1[t, i, j], C0[t, i, j], e + delta * c) - pair_loglik(
                    C1[t, i, j], C0[t, i, j], e
                )
    return d


@njit(cache=True)
def _apply_delta_w(eta, Z, k, kk, delta):
    T, N, K = Z.shape
    for t in range(T):
        for i in range(N):
            if Z[t, i, k] == 0 and Z[t, i, kk] == 0:
                continue
            for j in range(N):
                if j == i:
                    continue
                if k == kk:
                    c = Z[t, i, k] * Z[t, j, k]
                else:
                    c = Z[t, i, k] * Z[t, j, kk] + Z[t, i, kk] * Z[t, j, k]
                if c != 0:
                    # pair visited from both ends when both are active: apply once per end
                    eta[t, i, j] += delta * c


@njit(cache=True)
def mh_w(C1, C0, eta, Z, W, sigma_prior, sigma_prop, normals, uniforms):
    """Element-wise random-walk MH on the upper triangle of symmetric W (Eq. 2.28).

    ``normals``, ``uniforms``: (K, K) draws (only k <= k' used). Returns accepted count.
    """
    K = W.shape[0]
    acc = 0
    inv2 = 0.5 / (sigma_prior * sigma_prior)
    for k in range(K):
        for kk in range(k, K):
            delta = sigma_prop * normals[k, kk]
            w = W[k, kk]
            wn = w + delta
            logr = _delta_w_loglik(C1, C0, eta, Z, k, kk, delta) - inv2 * (wn * wn - w * w)
            if np.log(uniforms[k, kk]) < logr:
                W[k, kk] = wn
                W[kk, k] = wn
                _apply_delta_w(eta, Z, k, kk, delta)
                acc += 1
    return acc


@njit(cache=True)
def mh_eps(C1, C0, eta, eps, sigma_prior, sigma_prop, normal, uniform):
    """Random-walk MH on the intercept ε; returns (ε, accepted)."""
    T, N, _ = eta.shape
    delta = sigma_prop * normal
    d = 0.0
    for t in range(T):
        for i in range(N):
            for j in range(i + 1, N):
                c1 = C1[t, i, j]
                c0 = C0[t, i, j]
                if c1 == 0.0 and c0 == 0.0:
                    continue
                e = eta[t, i, j]
                d += pair_loglik(c1, c0, e + delta) - pair_loglik(c1, c0, e)
    en = eps + delta
    logr = d - 0.5 * (en * en - eps * eps) / (sigma_prior * sigma_prior)
    if np.log(uniform) < logr:
        for t in range(T):
            for i in range(N):
                for j in range(N):
                    eta[t, i, j] += delta
        return en, True
    return eps, False


@njit(cache=True)
def stick_logh(a, alpha, M):
    """h(a) = α Σ_{i=1}^M (1−a)^i / i + M log(1−a): the factor of Eq. 2.26 beyond a^{α−1}
    (direct sum; the sampler uses the integral form, checked against this)."""
    x = 1.0 - a
    s = 0.0
    p = 1.0
    for i in range(1, M + 1):
        p *= x
        if p < 1e-300:
            break
        s += p / i
    if x <= 0.0:
        return -np.inf
    return alpha * s + M * np.log(x)


@njit(cache=True)
def transition_counts(Z):
    """c00, c01, c10, c11 per feature over all actors and t = 1..T, from z^(0) = 0."""
    T, N, K = Z.shape
    c = np.zeros((K, 4), dtype=np.int64)
    for k in range(K):
        for i in range(N):
            prev = 0
            for t in range(T):
                cur = Z[t, i, k]
                c[k, 2 * prev + cur] += 1
                prev = cur
    return c
