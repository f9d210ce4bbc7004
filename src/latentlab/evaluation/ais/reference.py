"""Plain-numpy references of the chapter-5 estimators and the exact ground truth.

The estimators here read like the document (one function per algorithm, equation numbers
in the docstrings) and draw from :class:`~latentlab.kernels.rng.PyRng`, the same
uniform stream as the numba kernels, so tests can compare the two draw for draw.
They are slow (Python loop per token) and meant for tiny documents only.

The exact value (ours, the tests' ground truth; not in the thesis) is computed by
:func:`exact_log_evidence`: a dynamic programme over topic-count vectors along the
sequential Polya urn,
g_n(c) = sum_k g_{n-1}(c - e_k) (c_k - 1 + alpha_k)/(n - 1 + sum alpha) Phi_{w_n k},
P(w | Phi, alpha) = sum_c g_N(c). :func:`brute_force_log_evidence` enumerates all K^N
assignment sequences and checks the DP itself.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy.special import gammaln, logsumexp

from latentlab.kernels.rng import PyRng

# ----------------------------------------------------------------------------- exact


def log_polya(nk: np.ndarray, alpha: np.ndarray) -> float:
    """log Polya(z | alpha) of an ordered sequence with counts nk (Eq. 5.22)."""
    nk = np.asarray(nk, float)
    a = np.asarray(alpha, float)
    return float(
        gammaln(a.sum()) - gammaln(nk.sum() + a.sum()) + np.sum(gammaln(nk + a) - gammaln(a))
    )


def log_joint(words, z, phi, alpha) -> float:
    """log P(w, z | Phi, alpha) = log Polya(z | alpha) + sum_i log Phi_{w_i z_i} (sec. 1.2)."""
    words = np.asarray(words)
    z = np.asarray(z)
    nk = np.bincount(z, minlength=phi.shape[1])
    return log_polya(nk, alpha) + float(np.sum(np.log(phi[words, z])))


def exact_log_evidence(words, phi, alpha, max_states: int = 2_000_000) -> float:
    """Exact log P(w | Phi, alpha) by DP over topic-count vectors (ours, not in the thesis).

    ``phi`` is V x K (columns are topics). There are C(N+K-1, K-1) count vectors at the
    last step; refuse documents where that exceeds ``max_states``.
    """
    words = np.asarray(words, dtype=np.int64)
    K = phi.shape[1]
    N = len(words)
    if N == 0:
        return 0.0
    if math.comb(N + K - 1, K - 1) > max_states:
        raise ValueError(f"exact DP needs C({N}+{K}-1, {K}-1) states; too many")
    alpha = np.asarray(alpha, float)
    asum = alpha.sum()
    states = {tuple([0] * K): 1.0}
    logscale = 0.0
    for n, w in enumerate(words):
        row = phi[w]
        new: dict[tuple, float] = {}
        for c, g in states.items():
            for k in range(K):
                wgt = g * (c[k] + alpha[k]) / (n + asum) * row[k]
                if wgt == 0.0:
                    continue
                c2 = c[:k] + (c[k] + 1,) + c[k + 1 :]
                new[c2] = new.get(c2, 0.0) + wgt
        m = max(new.values())
        logscale += math.log(m)
        states = {c: g / m for c, g in new.items()}
    return logscale + math.log(sum(states.values()))


def brute_force_log_evidence(words, phi, alpha) -> float:
    """log sum_z P(w, z | Phi, alpha) by enumerating all K^N sequences (tiny N only)."""
    words = np.asarray(words, dtype=np.int64)
    K = phi.shape[1]
    vals = [
        log_joint(words, np.array(z), phi, alpha)
        for z in itertools.product(range(K), repeat=len(words))
    ]
    return float(logsumexp(vals))


# ----------------------------------------------------------------------------- sampling helpers


def _draw(p: np.ndarray, rng: PyRng) -> int:
    """Same 4-lane total and block-of-4 cumulative scan as
    :func:`latentlab.kernels.sampling.categorical_blocked`."""
    t = [0.0, 0.0, 0.0, 0.0]
    K = len(p)
    k4 = K - K % 4
    for k in range(k4):
        t[k % 4] += p[k]
    for k in range(k4, K):
        t[0] += p[k]
    tot = (t[0] + t[1]) + (t[2] + t[3])
    u = rng() * tot
    acc = 0.0
    k = 0
    while k + 3 < K:
        blk = (p[k] + p[k + 1]) + (p[k + 2] + p[k + 3])
        if u < acc + blk:
            break
        acc += blk
        k += 4
    while k < K - 1:
        acc += p[k]
        if u < acc:
            return k
        k += 1
    return K - 1


def polya_draw(N: int, alpha: np.ndarray, rng: PyRng):
    """Exact draw from Polya(alpha) by the sequential urn (Algorithm 3; Sec. 5.1.4)."""
    K = len(alpha)
    z = np.zeros(N, np.int64)
    nk = np.zeros(K)
    for i in range(N):
        k = _draw(nk + alpha, rng)
        z[i] = k
        nk[k] += 1
    return z, nk


def _sweep(z, nk, cond, rng):
    """One Gibbs sweep; ``cond(i, nk_minus_i)`` returns the unnormalised conditional."""
    for i in range(len(z)):
        nk[z[i]] -= 1
        k = _draw(cond(i, nk), rng)
        z[i] = k
        nk[k] += 1


# ----------------------------------------------------------------------------- estimators


def std_ais(words, phi, alpha, n: int, S: int, seed: int):
    """Standard AIS on the Wallach prior->posterior path (Eqs. 5.19, 5.21-5.23).

    f_j(z) = P(w | z, Phi)^{beta_j} Polya(z | alpha), beta_j = 1 - j/n; exact Polya start;
    log-weight increment (beta_j - beta_{j+1}) sum_i log Phi_{w_i z_i}.
    Returns (log-weights[S], updates).
    """
    rng = PyRng(seed)
    lphi = np.log(phi[np.asarray(words)])
    N = len(words)
    out = np.zeros(S)
    upd = 0
    for s in range(S):
        z, nk = polya_draw(N, alpha, rng)
        lw = 0.0
        for j in range(n - 1, -1, -1):
            if j < n - 1:
                b = 1.0 - (j + 1) / n
                _sweep(z, nk, lambda i, c, b=b: (c + alpha) * np.exp(b * lphi[i]), rng)
                upd += N
            lw += (1.0 / n) * lphi[np.arange(N), z].sum()
        out[s] = lw
    return out, upd


def ratio_ais(words, phi1, a1, phi2, a2, n: int, S: int, burn: int, seed: int, path="convex"):
    """Ratio-AIS, model 2 -> model 1 (Eqs. 5.27-5.33, Algorithm 8).

    ``path="convex"``: f_j = P(w, z | beta_j Phi1 + (1-beta_j) Phi2, beta_j a1 + (1-beta_j) a2),
    log w = sum_j log f_j(z_j) - log f_{j+1}(z_j) (Eq. 5.33).
    ``path="geometric"``: f_j = f_0^{beta_j} f_n^{1-beta_j}, Gibbs of Eq. 5.30, and
    log w = (1/n) sum_j log P(w, z_j | 1) - log P(w, z_j | 2) (Eq. 5.31,
    garbled in our copy of the thesis; rebuilt here).
    Start: Polya(a2) draw plus ``burn`` sweeps at model 2 (r_{n-1}: the initial draw from f_n
    by Gibbs sampling, Sec. 5.2.1).
    Returns (log-weights[S] estimating log P(w|1) - log P(w|2), updates).
    """
    rng = PyRng(seed)
    words = np.asarray(words)
    p1, p2 = phi1[words], phi2[words]
    l1, l2 = np.log(p1), np.log(p2)
    N = len(words)
    idx = np.arange(N)
    out = np.zeros(S)
    upd = 0

    def conv_cond(b):
        ab = b * a1 + (1 - b) * a2
        return lambda i, c: (c + ab) * (b * p1[i] + (1 - b) * p2[i])

    def geo_cond(b):
        def f(i, c):
            v = (b * np.log(c + a1) + (1 - b) * np.log(c + a2)) + b * l1[i] + (1 - b) * l2[i]
            return np.exp(v - v.max())

        return f

    cond = conv_cond if path == "convex" else geo_cond

    def logf_convex(z, nk, b):
        return log_polya(nk, b * a1 + (1 - b) * a2) + float(
            np.log(b * p1[idx, z] + (1 - b) * p2[idx, z]).sum()
        )

    for s in range(S):
        z, nk = polya_draw(N, a2, rng)
        lw = 0.0
        for j in range(n - 1, -1, -1):
            bc = 1.0 - (j + 1) / n if j < n - 1 else 0.0
            bn = 1.0 - j / n if j > 0 else 1.0
            for _ in range(burn if j == n - 1 else 1):
                _sweep(z, nk, cond(bc), rng)
                upd += N
            if path == "convex":
                lw += logf_convex(z, nk, bn) - logf_convex(z, nk, bc)
            else:
                L1 = log_polya(nk, a1) + l1[idx, z].sum()
                L2 = log_polya(nk, a2) + l2[idx, z].sum()
                lw += (L1 - L2) / n
        out[s] = lw
    return out, upd


def left_to_right(words, phi, alpha, R: int, seed: int):
    """Left-to-right sequential estimator (Sec. 5.1.1; Wallach et al. 2009b, Algorithm 3).

    For each position n and particle r: resample z_1..z_{n-1} once, add
    sum_k Phi_{w_n k} (n_k^{<n} + alpha_k)/(n - 1 + sum alpha) (z_n summed out with prior
    weights, footnotes 3-4), then sample z_n given w_n. Returns (log P estimate, updates).
    """
    rng = PyRng(seed)
    pd = phi[np.asarray(words)]
    N, K = pd.shape
    asum = float(np.sum(alpha))
    z = np.zeros((R, N), np.int64)
    nk = np.zeros((R, K))
    logp = 0.0
    upd = 0
    for n in range(N):
        pn = 0.0
        for r in range(R):
            for m in range(n):
                nk[r, z[r, m]] -= 1
                k = _draw((nk[r] + alpha) * pd[m], rng)
                z[r, m] = k
                nk[r, k] += 1
            q = (nk[r] + alpha) * pd[n]
            tot = 0.0
            for v in q:
                tot += v
            pn += tot / (n + asum)
            k = _draw(q, rng)
            z[r, n] = k
            nk[r, k] += 1
            upd += n + 1
        logp += math.log(pn / R)
    return logp, upd


def prior_is(words, phi, alpha, S: int, seed: int):
    """Importance sampling from the prior (Eq. 5.5): z_s ~ Polya(alpha), weight P(w | z_s, Phi).
    Identical to standard AIS with a single temperature. Returns (log-weights[S], updates=0)."""
    return std_ais(words, phi, alpha, 1, S, seed)


def iteration_ais(words, phis, alphas, n: int, extra: int, S: int, seed: int):
    """Iteration-AIS (Eqs. 5.34-5.36): prior -> snapshot 0 (Wallach path, n + extra
    temperatures) then snapshot k-1 -> k (convex path, n temperatures, one sweep at the
    start model), never resetting state or weights (Sec. 5.2.2).
    Returns (log-weights[S, I], updates)."""
    rng = PyRng(seed)
    words = np.asarray(words)
    I = len(phis)
    N = len(words)
    idx = np.arange(N)
    out = np.zeros((S, I))
    upd = 0
    for s in range(S):
        z, nk = polya_draw(N, alphas[0], rng)
        l0 = np.log(phis[0][words])
        nt = n + extra
        lw = 0.0
        for j in range(nt - 1, -1, -1):
            if j < nt - 1:
                b = 1.0 - (j + 1) / nt
                _sweep(z, nk, lambda i, c, b=b, l0=l0: (c + alphas[0]) * np.exp(b * l0[i]), rng)
                upd += N
            lw += l0[idx, z].sum() / nt
        out[s, 0] = lw
        for k in range(1, I):
            p1, p2 = phis[k][words], phis[k - 1][words]
            a1, a2 = alphas[k], alphas[k - 1]

            def logf(b, z=z, nk=nk, p1=p1, p2=p2, a1=a1, a2=a2):
                return log_polya(nk, b * a1 + (1 - b) * a2) + float(
                    np.log(b * p1[idx, z] + (1 - b) * p2[idx, z]).sum()
                )

            for j in range(n - 1, -1, -1):
                bc = 1.0 - (j + 1) / n if j < n - 1 else 0.0
                bn = 1.0 - j / n if j > 0 else 1.0
                ab = bc * a1 + (1 - bc) * a2
                _sweep(
                    z,
                    nk,
                    lambda i, c, ab=ab, bc=bc, p1=p1, p2=p2: (
                        (c + ab) * (bc * p1[i] + (1 - bc) * p2[i])
                    ),
                    rng,
                )
                upd += N
                lw += logf(bn) - logf(bc)
            out[s, k] = lw
    return out, upd


def logmeanexp(x, axis=0):
    x = np.asarray(x, float)
    return logsumexp(x, axis=axis) - math.log(x.shape[axis])
