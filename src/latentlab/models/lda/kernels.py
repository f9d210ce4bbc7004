"""Numba kernels for LDA inference (hot loops only; the math is in ``reference.py``).

Layouts, chosen for the inner loop over topics:

* token streams are doc-major (tokens of document d are ``w[ptr[d]:ptr[d+1]]``);
* topic-word statistics are **word-major** ``(W, K)`` so that the row of the current
  word is contiguous; document statistics are ``(D, K)``.

Random numbers are drawn outside the kernels (``numpy.random.Generator``) and passed
in as uniforms, so a kernel and its numpy reference consume the same numbers and give
bit-identical results, and a run is determined by its seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from latentlab.kernels.sampling import sample_cumulative, search_cumulative
from latentlab.kernels.special import digamma


# --------------------------------------------------------------------- CGS (Eq. 4.21)
@njit(cache=True)
def cgs_sweep(ptr, w, z, ndk, nwk, nk, alpha, beta, beta_sum, u, p, inv):
    """One collapsed Gibbs sweep over all tokens, current token excluded (Eq. 4.21).

    P(z_i = k | rest) ∝ (n_dk^{-i} + alpha_k)(n_wk^{-i} + beta)/(n_k^{-i} + W beta).
    ``inv[k]`` must hold 1/(nk[k] + beta_sum) on entry; it is kept up to date.
    """
    D = ptr.shape[0] - 1
    K = nk.shape[0]
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            wi = w[i]
            k = z[i]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            inv[k] = 1.0 / (nk[k] + beta_sum)
            tot = 0.0
            for j in range(K):
                tot += (ndk[d, j] + alpha[j]) * (nwk[wi, j] + beta) * inv[j]
                p[j] = tot
            k = sample_cumulative(p, K, u[i])
            z[i] = k
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1
            inv[k] = 1.0 / (nk[k] + beta_sum)


@njit(cache=True)
def count_assignments(ptr, w, z, K, W):
    """n_dk (D x K), n_wk (W x K), n_k (K) from a token stream and assignments."""
    D = ptr.shape[0] - 1
    ndk = np.zeros((D, K), dtype=np.int32)
    nwk = np.zeros((W, K), dtype=np.int32)
    nk = np.zeros(K, dtype=np.int64)
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            ndk[d, z[i]] += 1
            nwk[w[i], z[i]] += 1
            nk[z[i]] += 1
    return ndk, nwk, nk


@njit(cache=True)
def fixed_phi_sweep(w, z, ndk, phi_wk, alpha, u, p):
    """One Gibbs sweep over one document with topics fixed (thesis Eq. 4.21, Phi fixed):
    P(z_i = k | rest) ∝ (n_k^{(d)-i} + alpha_k) Phi_{w_i k}. ``phi_wk`` is W x K."""
    K = ndk.shape[0]
    for i in range(w.shape[0]):
        wi = w[i]
        ndk[z[i]] -= 1
        tot = 0.0
        for j in range(K):
            tot += (ndk[j] + alpha[j]) * phi_wk[wi, j]
            p[j] = tot
        k = sample_cumulative(p, K, u[i])
        z[i] = k
        ndk[k] += 1


# --------------------------------------------------------------------- batch CVB0 / CVB
@njit(cache=True)
def cvb_sweep(
    indptr, wids, cnts, gamma, ndk, nwk, nk, vdk, vwk, vk, alpha, beta, beta_sum, second_order
):
    """One sequential sweep of CVB0 (Eq. 4.28) or second-order CVB (Eqs. 4.24-4.25).

    One gamma per CSR entry (a distinct word of a document, ``cnts[e]`` copies: the
    clumped form); pass a token stream with counts 1 for the per-token form. "Not id"
    counts subtract the token's own current gamma (one copy). Statistics (Eq. 4.29)
    ``ndk, nwk (W x K), nk`` are updated in place by m (gamma_new - gamma_old); the
    variances ``v*`` (sum gamma(1-gamma)) are used and updated only if ``second_order``.
    """
    D = indptr.shape[0] - 1
    K = nk.shape[0]
    g = np.empty(K)
    for d in range(D):
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            m = cnts[e]
            tot = 0.0
            for k in range(K):
                go = gamma[e, k]
                a = ndk[d, k] - go + alpha[k]
                b = nwk[w, k] - go + beta
                c = nk[k] - go + beta_sum
                val = a * b / c
                if second_order:
                    vo = go * (1.0 - go)
                    val *= np.exp(
                        -(vdk[d, k] - vo) / (2.0 * a * a)
                        - (vwk[w, k] - vo) / (2.0 * b * b)
                        + (vk[k] - vo) / (2.0 * c * c)
                    )
                g[k] = val
                tot += val
            for k in range(K):
                gn = g[k] / tot
                go = gamma[e, k]
                dlt = m * (gn - go)
                ndk[d, k] += dlt
                nwk[w, k] += dlt
                nk[k] += dlt
                if second_order:
                    dv = m * (gn * (1.0 - gn) - go * (1.0 - go))
                    vdk[d, k] += dv
                    vwk[w, k] += dv
                    vk[k] += dv
                gamma[e, k] = gn


# --------------------------------------------------------------------- batch MAP_LDA_U
@njit(cache=True)
def map_em_step(indptr, wids, cnts, ndk, nwk, nk, alpha, beta, W):
    """One full E-step + M-step of MAP_LDA_U (Eqs. 4.57-4.58, 4.65): responsibilities
    gamma ∝ (N_wk + beta - 1)/(N_k + W(beta - 1)) (N_dk + alpha_k - 1) from the current
    statistics, then the statistics are synchronised with the responsibility sums.
    Returns the new ``(ndk, nwk, nk)``."""
    D = indptr.shape[0] - 1
    K = nk.shape[0]
    ndk2 = np.zeros_like(ndk)
    nwk2 = np.zeros_like(nwk)
    nk2 = np.zeros_like(nk)
    g = np.empty(K)
    inv = np.empty(K)
    for k in range(K):
        inv[k] = 1.0 / (nk[k] + W * (beta - 1.0))
    for d in range(D):
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            m = cnts[e]
            tot = 0.0
            for k in range(K):
                g[k] = (nwk[w, k] + beta - 1.0) * inv[k] * (ndk[d, k] + alpha[k] - 1.0)
                tot += g[k]
            for k in range(K):
                v = m * g[k] / tot
                ndk2[d, k] += v
                nwk2[w, k] += v
                nk2[k] += v
    return ndk2, nwk2, nk2


# --------------------------------------------------------------------- SCVB0 (Alg. 7)
@njit(cache=True)
def scvb0_minibatch(
    docs, indptr, wids, cnts, doclen, M, scale, NZ, alpha, beta, beta_sum,
    n_burn, rho_theta, theta0, acc, accZ, touched, touched_list,
):  # fmt: skip
    """Document passes of one SCVB0 minibatch (Algorithm 7, Eqs. 4.43-4.49).

    Topic statistics are N^Phi = ``scale * M`` (W x K, lazily scaled so that the
    decay (1 - rho^Phi) costs O(1)) and ``NZ``; both stay fixed during the minibatch.
    For each document: N^Theta_d = C_d * theta0[j]; ``n_burn`` burn-in passes update
    only N^Theta_d, then the final pass also accumulates gamma (times the entry count)
    into ``acc``/``accZ`` (the caller scales by C/|M| and applies the rho^Phi step).
    gamma ∝ (N^Theta_dk + alpha_k)(N^Phi_wk + beta)/(N^Z_k + W beta) with no "not id"
    subtraction (Eq. 4.43). The document clock t advances once per CSR entry and
    ``rho_theta[t - 1]`` is its step (a precomputed table); an entry with m copies uses
    the clumped update Eq. 4.49: N^Theta := (1-rho)^m N^Theta + C_d gamma (1 - (1-rho)^m).
    Returns the number of touched words (their ids are in ``touched_list``).
    """
    K = NZ.shape[0]
    g = np.empty(K)
    nth = np.empty(K)
    inv = np.empty(K)
    for k in range(K):
        inv[k] = 1.0 / (NZ[k] + beta_sum)
    for j in range(docs.shape[0]):
        _scvb0_doc(docs[j], j, indptr, wids, cnts, doclen, M, scale, alpha, beta, inv, n_burn,
                   rho_theta, theta0, acc, accZ, g, nth)  # fmt: skip
    n_t = _mark_touched(docs, indptr, wids, touched, touched_list)
    return n_t


@njit(cache=True)
def _mark_touched(docs, indptr, wids, touched, touched_list):
    """Flag the minibatch's distinct words (in order of first appearance) in ``touched`` and
    list them in ``touched_list``; returns how many there are."""
    n_t = 0
    for j in range(docs.shape[0]):
        d = docs[j]
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            if not touched[w]:
                touched[w] = True
                touched_list[n_t] = w
                n_t += 1
    return n_t


@njit(cache=True)
def _scvb0_doc(d, j, indptr, wids, cnts, doclen, M, scale, alpha, beta, inv, n_burn,
               rho_theta, theta0, acc, accZ, g, nth):  # fmt: skip
    """The passes of one document of :func:`scvb0_minibatch` (its inner body)."""
    K = inv.shape[0]
    Cd = doclen[d]
    for k in range(K):
        nth[k] = Cd * theta0[j, k]
    t = 0
    for p in range(n_burn + 1):
        final = p == n_burn
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            m = cnts[e]
            tot = 0.0
            for k in range(K):
                v = (nth[k] + alpha[k]) * (scale * M[w, k] + beta) * inv[k]
                g[k] = v
                tot += v
            rho = rho_theta[t]
            t += 1
            if m == 1:
                keep = 1.0 - rho
                c = rho * Cd / tot
            else:
                keep = (1.0 - rho) ** m
                c = Cd * (1.0 - keep) / tot
            for k in range(K):
                nth[k] = keep * nth[k] + c * g[k]
            if final:
                c = m / tot
                for k in range(K):
                    v = c * g[k]
                    acc[w, k] += v
                    accZ[k] += v


@njit(cache=True)
def split_by_work(docs, indptr, n_blocks):
    """Block boundaries (length n_blocks + 1) cutting ``docs`` into contiguous runs of
    about equal numbers of CSR entries (deterministic given its inputs)."""
    n = docs.shape[0]
    tot = 0
    for j in range(n):
        tot += indptr[docs[j] + 1] - indptr[docs[j]]
    b = np.zeros(n_blocks + 1, dtype=np.int64)
    b[n_blocks] = n
    acc = 0
    cur = 1
    for j in range(n):
        acc += indptr[docs[j] + 1] - indptr[docs[j]]
        while cur < n_blocks and acc * n_blocks >= cur * tot:
            b[cur] = j + 1
            cur += 1
    while cur < n_blocks:
        b[cur] = n
        cur += 1
    return b


@njit(cache=True, parallel=True)
def scvb0_minibatch_parallel(
    docs, indptr, wids, cnts, doclen, M, scale, NZ, alpha, beta, beta_sum,
    n_burn, rho_theta, theta0, acc, accZ, touched, touched_list, acc_extra, accZ_extra,
):  # fmt: skip
    """:func:`scvb0_minibatch` with the minibatch's documents split into
    ``acc_extra.shape[0] + 1`` contiguous blocks (:func:`split_by_work`) processed in
    parallel (numba ``prange``). Documents of a minibatch only read N^Phi and N^Z, which
    are fixed during the minibatch, so they are independent; block 0 accumulates into
    ``acc``/``accZ``, block b > 0 into ``acc_extra[b - 1]``/``accZ_extra[b - 1]``, which
    are then added to ``acc`` in block order over the touched rows (and cleared). The
    result equals the serial kernel's up to the order of the floating-point sums, and is
    a deterministic function of the inputs and the number of blocks (not of the thread
    scheduler). Returns the number of touched words."""
    K = NZ.shape[0]
    n_blocks = acc_extra.shape[0] + 1
    inv = np.empty(K)
    for k in range(K):
        inv[k] = 1.0 / (NZ[k] + beta_sum)
    bounds = split_by_work(docs, indptr, n_blocks)
    for b in prange(n_blocks):
        g = np.empty(K)
        nth = np.empty(K)
        for j in range(bounds[b], bounds[b + 1]):
            if b == 0:
                _scvb0_doc(docs[j], j, indptr, wids, cnts, doclen, M, scale, alpha, beta,
                           inv, n_burn, rho_theta, theta0, acc, accZ, g, nth)  # fmt: skip
            else:
                _scvb0_doc(docs[j], j, indptr, wids, cnts, doclen, M, scale, alpha, beta,
                           inv, n_burn, rho_theta, theta0, acc_extra[b - 1],
                           accZ_extra[b - 1], g, nth)  # fmt: skip
    n_t = _mark_touched(docs, indptr, wids, touched, touched_list)
    for i in prange(n_t):
        w = touched_list[i]
        for b in range(n_blocks - 1):
            for k in range(K):
                acc[w, k] += acc_extra[b, w, k]
                acc_extra[b, w, k] = 0.0
    for b in range(n_blocks - 1):
        for k in range(K):
            accZ[k] += accZ_extra[b, k]
            accZ_extra[b, k] = 0.0
    return n_t


@njit(cache=True)
def scaled_apply(M, scale, Msum, acc, accZ, NZ, touched, touched_list, n_t, rho, sf):
    """N := (1 - rho) N + rho * sf * acc on the touched rows of a lazily scaled matrix
    N = scale * M (and the dense K-vector NZ). Clears ``acc``/``touched``; returns the
    new scale. ``Msum`` (K) tracks the column sums of M."""
    K = NZ.shape[0]
    new_scale = scale * (1.0 - rho)
    if new_scale < 1e-30:  # renormalise: fold the scale into M
        for w in range(M.shape[0]):
            for k in range(K):
                M[w, k] *= new_scale
        for k in range(K):
            Msum[k] *= new_scale
        new_scale = 1.0
    c = rho * sf / new_scale
    for i in range(n_t):
        w = touched_list[i]
        for k in range(K):
            v = c * acc[w, k]
            M[w, k] += v
            Msum[k] += v
            acc[w, k] = 0.0
        touched[w] = False
    for k in range(K):
        NZ[k] = (1.0 - rho) * NZ[k] + rho * sf * accZ[k]
        accZ[k] = 0.0
    return new_scale


@njit(cache=True)
def scvb0_token_stream(
    dids, wids, doclen, NTheta, NPhi, NZ, alpha, beta, beta_sum, C, rho_phi, th_s, th_tau,
    th_kappa, tdoc,
):  # fmt: skip
    """SCVB0 with minibatches of one token (Eqs. 4.43-4.46): for each token in order,
    gamma from the current statistics, then N^Theta_d (clock ``tdoc[d]``), N^Phi and N^Z
    (step ``rho_phi[i]``) are updated. Dense, for the equivalence check C4.10."""
    K = NZ.shape[0]
    g = np.empty(K)
    for i in range(wids.shape[0]):
        d = dids[i]
        w = wids[i]
        tot = 0.0
        for k in range(K):
            g[k] = (NTheta[d, k] + alpha[k]) * (NPhi[w, k] + beta) / (NZ[k] + beta_sum)
            tot += g[k]
        for k in range(K):
            g[k] /= tot
        tdoc[d] += 1
        rt = th_s / (th_tau + tdoc[d]) ** th_kappa
        r = rho_phi[i]
        for k in range(K):
            NTheta[d, k] = (1.0 - rt) * NTheta[d, k] + rt * doclen[d] * g[k]
        for ww in range(NPhi.shape[0]):
            for k in range(K):
                NPhi[ww, k] *= 1.0 - r
        for k in range(K):
            NPhi[w, k] += r * C * g[k]
            NZ[k] = (1.0 - r) * NZ[k] + r * C * g[k]


# --------------------------------------------------------------------- SVB / batch VB
@njit(cache=True)
def svb_minibatch(
    docs, indptr, wids, cnts, L, lscale, Lsum, eta, W, alpha, n_local, tol, gamma0,
    acc, touched, touched_list, expElogbeta, gamma_out,
):  # fmt: skip
    """Local step of stochastic VB for one minibatch (Hoffman et al. 2010; thesis Alg. 6).

    lambda = eta + ``lscale * L`` (W x K word-major, lazily scaled), column sums
    sum_w lambda_kw = W eta + lscale * Lsum_k. exp(E[log Phi_kw]) is computed once for
    the minibatch's words. Per document: gamma = ``gamma0[j]``; ``n_local`` passes of
    phi_dwk ∝ exp(E log theta_dk) exp(E log Phi_kw), gamma = alpha + sum_w n_dw phi_dwk
    (stopping early if ``tol > 0`` and the mean change < tol). Sufficient statistics
    n_dw phi_dwk are added to ``acc``. Final gammas go to ``gamma_out``.
    """
    K = alpha.shape[0]
    n_t = 0
    psum = np.empty(K)
    for k in range(K):
        psum[k] = digamma(W * eta + lscale * Lsum[k])
    for j in range(docs.shape[0]):
        d = docs[j]
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            if not touched[w]:
                touched[w] = True
                touched_list[n_t] = w
                n_t += 1
                for k in range(K):
                    expElogbeta[w, k] = np.exp(digamma(eta + lscale * L[w, k]) - psum[k])
    gam = np.empty(K)
    eth = np.empty(K)
    newg = np.empty(K)
    for j in range(docs.shape[0]):
        _svb_doc(docs[j], j, indptr, wids, cnts, alpha, n_local, tol, gamma0, acc,
                 expElogbeta, gamma_out, gam, eth, newg)  # fmt: skip
    return n_t


@njit(cache=True)
def _svb_doc(d, j, indptr, wids, cnts, alpha, n_local, tol, gamma0, acc, expElogbeta,
             gamma_out, gam, eth, newg):  # fmt: skip
    """The local step of one document of :func:`svb_minibatch` (its inner body)."""
    K = alpha.shape[0]
    s = 0.0
    for k in range(K):
        gam[k] = gamma0[j, k]
        s += gam[k]
    ps = digamma(s)
    for k in range(K):
        eth[k] = np.exp(digamma(gam[k]) - ps)
    for _it in range(n_local):
        for k in range(K):
            newg[k] = 0.0
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            pn = 1e-100
            for k in range(K):
                pn += eth[k] * expElogbeta[w, k]
            c = cnts[e] / pn
            for k in range(K):
                newg[k] += c * expElogbeta[w, k]
        change = 0.0
        s = 0.0
        for k in range(K):
            v = alpha[k] + eth[k] * newg[k]
            change += abs(v - gam[k])
            gam[k] = v
            s += v
        ps = digamma(s)
        for k in range(K):
            eth[k] = np.exp(digamma(gam[k]) - ps)
        if tol > 0 and change / K < tol:
            break
    for e in range(indptr[d], indptr[d + 1]):
        w = wids[e]
        pn = 1e-100
        for k in range(K):
            pn += eth[k] * expElogbeta[w, k]
        c = cnts[e] / pn
        for k in range(K):
            acc[w, k] += c * eth[k] * expElogbeta[w, k]
    for k in range(K):
        gamma_out[j, k] = gam[k]


@njit(cache=True, parallel=True)
def svb_minibatch_parallel(
    docs, indptr, wids, cnts, L, lscale, Lsum, eta, W, alpha, n_local, tol, gamma0,
    acc, touched, touched_list, expElogbeta, gamma_out, acc_extra,
):  # fmt: skip
    """:func:`svb_minibatch` in parallel: exp(E[log Phi]) of the touched words in a
    ``prange``, then the documents split into ``acc_extra.shape[0] + 1`` contiguous
    blocks (:func:`split_by_work`); documents only read lambda, so they are independent.
    Block 0 accumulates into ``acc``, block b > 0 into ``acc_extra[b - 1]``, added to
    ``acc`` in block order over the touched rows (and cleared). Equals the serial kernel
    up to the order of the sums; deterministic for a given number of blocks."""
    K = alpha.shape[0]
    n_blocks = acc_extra.shape[0] + 1
    psum = np.empty(K)
    for k in range(K):
        psum[k] = digamma(W * eta + lscale * Lsum[k])
    n_t = _mark_touched(docs, indptr, wids, touched, touched_list)
    for i in prange(n_t):
        w = touched_list[i]
        for k in range(K):
            expElogbeta[w, k] = np.exp(digamma(eta + lscale * L[w, k]) - psum[k])
    bounds = split_by_work(docs, indptr, n_blocks)
    for b in prange(n_blocks):
        gam = np.empty(K)
        eth = np.empty(K)
        newg = np.empty(K)
        for j in range(bounds[b], bounds[b + 1]):
            if b == 0:
                _svb_doc(docs[j], j, indptr, wids, cnts, alpha, n_local, tol, gamma0, acc,
                         expElogbeta, gamma_out, gam, eth, newg)  # fmt: skip
            else:
                _svb_doc(docs[j], j, indptr, wids, cnts, alpha, n_local, tol, gamma0,
                         acc_extra[b - 1], expElogbeta, gamma_out, gam, eth, newg)  # fmt: skip
    for i in prange(n_t):
        w = touched_list[i]
        for b in range(n_blocks - 1):
            for k in range(K):
                acc[w, k] += acc_extra[b, w, k]
                acc_extra[b, w, k] = 0.0
    return n_t


# --------------------------------------------------------------------- held-out theta
@njit(cache=True)
def theta_fixed_point(indptr, wids, cnts, phi_wk, alpha, n_iter, tol, theta):
    """Document statistics with topics frozen (held-out documents): iterate
    gamma_ik ∝ (N_dk + alpha_k) Phi_wk, N_dk = sum_i m_i gamma_ik (the SCVB0/CVB0
    document update, Eq. 4.43, at its fixed point), then
    theta_dk = (N_dk + alpha_k)/(C_d + sum alpha) (Sec. 4.3 recovery). In place."""
    D = indptr.shape[0] - 1
    K = alpha.shape[0]
    a0 = 0.0
    for k in range(K):
        a0 += alpha[k]
    n = np.empty(K)
    n2 = np.empty(K)
    for d in range(D):
        Cd = 0.0
        for e in range(indptr[d], indptr[d + 1]):
            Cd += cnts[e]
        for k in range(K):
            n[k] = Cd / K
        for _it in range(n_iter):
            for k in range(K):
                n2[k] = 0.0
            for e in range(indptr[d], indptr[d + 1]):
                w = wids[e]
                tot = 0.0
                for k in range(K):
                    tot += (n[k] + alpha[k]) * phi_wk[w, k]
                c = cnts[e] / tot
                for k in range(K):
                    n2[k] += c * (n[k] + alpha[k]) * phi_wk[w, k]
            ch = 0.0
            for k in range(K):
                ch += abs(n2[k] - n[k])
                n[k] = n2[k]
            if ch < tol * (Cd + 1.0):
                break
        for k in range(K):
            theta[d, k] = (n[k] + alpha[k]) / (Cd + a0)


@njit(cache=True)
def heldout_loglik(indptr, wids, cnts, phi_wk, theta, out):
    """out[d] = sum_i m_i log sum_k theta_dk Phi_wk (document completion score)."""
    D = indptr.shape[0] - 1
    K = theta.shape[1]
    for d in range(D):
        s = 0.0
        for e in range(indptr[d], indptr[d + 1]):
            w = wids[e]
            p = 0.0
            for k in range(K):
                p += theta[d, k] * phi_wk[w, k]
            s += cnts[e] * np.log(p)
        out[d] = s


# --------------------------------------------------------------------- SparseLDA CGS
@njit(cache=True)
def build_word_lists(nwk):
    """Per-word lists of topics with n_wk > 0: ``(wnz, wlen, wpos)``; ``wnz[w, :wlen[w]]``
    are the topics, ``wpos[w, k]`` the position of k in the list (-1 if absent)."""
    W, K = nwk.shape
    wnz = np.zeros((W, K), dtype=np.int32)
    wpos = -np.ones((W, K), dtype=np.int32)
    wlen = np.zeros(W, dtype=np.int32)
    for w in range(W):
        for k in range(K):
            if nwk[w, k] > 0:
                wnz[w, wlen[w]] = k
                wpos[w, k] = wlen[w]
                wlen[w] += 1
    return wnz, wlen, wpos


@njit(cache=True)
def _list_remove(lst, pos, n, row, k):
    i = pos[row, k]
    last = lst[row, n - 1]
    lst[row, i] = last
    pos[row, last] = i
    pos[row, k] = -1


@njit(cache=True)
def cgs_sweep_sparse(ptr, w, z, ndk, nwk, nk, alpha, beta, beta_sum, u, wnz, wlen, wpos):
    """One collapsed Gibbs sweep (Eq. 4.21, current token excluded) with the SparseLDA
    bucket decomposition (Yao, Mimno & McCallum 2009), asymmetric alpha:

    (n_dk + alpha_k)(n_wk + beta)/(n_k + W beta)
      = alpha_k beta/(n_k + W beta)                  [s: all topics, rarely searched]
      + n_dk beta/(n_k + W beta)                      [r: topics present in the document]
      + (n_dk + alpha_k) n_wk/(n_k + W beta)          [q: topics present for the word]

    The same conditional as :func:`cgs_sweep`, so the same chain in distribution (not
    draw for draw). s is recomputed at every document to stop rounding drift.
    """
    D = ptr.shape[0] - 1
    K = nk.shape[0]
    inv = np.empty(K)
    coef = np.empty(K)
    p = np.empty(K)
    dpos = -np.ones((1, K), dtype=np.int32)
    dlst = np.zeros((1, K), dtype=np.int32)
    for k in range(K):
        inv[k] = 1.0 / (nk[k] + beta_sum)
    for d in range(D):
        if ptr[d + 1] == ptr[d]:
            continue
        s = 0.0
        r = 0.0
        nd = 0
        for k in range(K):
            s += alpha[k] * beta * inv[k]
            coef[k] = (ndk[d, k] + alpha[k]) * inv[k]
            dpos[0, k] = -1
            if ndk[d, k] > 0:
                dlst[0, nd] = k
                dpos[0, k] = nd
                nd += 1
                r += ndk[d, k] * beta * inv[k]
        for i in range(ptr[d], ptr[d + 1]):
            wi = w[i]
            k = z[i]
            # ---- remove the token
            s -= alpha[k] * beta * inv[k]
            r -= ndk[d, k] * beta * inv[k]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            inv[k] = 1.0 / (nk[k] + beta_sum)
            s += alpha[k] * beta * inv[k]
            r += ndk[d, k] * beta * inv[k]
            coef[k] = (ndk[d, k] + alpha[k]) * inv[k]
            if ndk[d, k] == 0:
                _list_remove(dlst, dpos, nd, 0, k)
                nd -= 1
            if nwk[wi, k] == 0:
                _list_remove(wnz, wpos, wlen[wi], wi, k)
                wlen[wi] -= 1
            # ---- q bucket over the word's topics
            L = wlen[wi]
            q = 0.0
            for j in range(L):
                kk = wnz[wi, j]
                q += coef[kk] * nwk[wi, kk]
                p[j] = q
            if r < 0.0:
                r = 0.0
            x = u[i] * (s + r + q)
            if x < q:
                k = wnz[wi, search_cumulative(p, L, x)]
            elif x < q + r and nd > 0:
                x -= q
                acc = 0.0
                k = dlst[0, nd - 1]
                for j in range(nd):
                    kk = dlst[0, j]
                    acc += ndk[d, kk] * beta * inv[kk]
                    if acc > x:
                        k = kk
                        break
            else:
                x -= q + r
                acc = 0.0
                k = K - 1
                for kk in range(K):
                    acc += alpha[kk] * beta * inv[kk]
                    if acc > x:
                        k = kk
                        break
            # ---- add the token
            s -= alpha[k] * beta * inv[k]
            r -= ndk[d, k] * beta * inv[k]
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1
            inv[k] = 1.0 / (nk[k] + beta_sum)
            s += alpha[k] * beta * inv[k]
            r += ndk[d, k] * beta * inv[k]
            coef[k] = (ndk[d, k] + alpha[k]) * inv[k]
            if ndk[d, k] == 1:
                dlst[0, nd] = k
                dpos[0, k] = nd
                nd += 1
            if nwk[wi, k] == 1:
                wnz[wi, wlen[wi]] = k
                wpos[wi, k] = wlen[wi]
                wlen[wi] += 1
            z[i] = k
