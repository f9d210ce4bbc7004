"""Numba kernels of TIR / TIRE / additive DMR (Foulds 2014, ch. 3).

Citations are CSR over citing documents: ``cptr`` (D+1), ``cidx`` (E cited ids) and one
weight per edge ``ew`` (E): ``l^(c)`` for TIR (Eq 3.1), ``l^(c,d)`` for TIRE (Eq 3.3).
The prior of document d is ``alpha^(d) = sum_e ew[e] zbar^(cidx[e]) + alpha0``.
The token update (:func:`latentlab.kernels.gibbs.gibbs_doc`), the draw, digamma and
log Polya are the shared ones of :mod:`latentlab.kernels`; held-out documents are scored by
:func:`latentlab.kernels.ais.batch_std_ais` (one prior per document).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from latentlab.kernels.gibbs import gibbs_doc
from latentlab.kernels.sampling import sample_cumulative
from latentlab.kernels.special import digamma, log_polya_n


@njit(cache=True)
def doc_alpha(d, cptr, cidx, ew, ndk, nd, alpha0, out):
    """alpha^(d) (Eq 3.1 / 3.3) from the current counts of the cited documents."""
    K = out.shape[0]
    for k in range(K):
        out[k] = alpha0
    for e in range(cptr[d], cptr[d + 1]):
        c = cidx[e]
        if nd[c] == 0:
            continue  # only transiently, while the exact sampler holds out a 1-token doc
        s = ew[e] / nd[c]
        for k in range(K):
            out[k] += s * ndk[c, k]


@njit(cache=True)
def all_alpha(cptr, cidx, ew, ndk, nd, alpha0, out):
    """alpha^(d) of every document (D x K)."""
    for d in range(out.shape[0]):
        doc_alpha(d, cptr, cidx, ew, ndk, nd, alpha0, out[d])


@njit(cache=True)
def tir_sweep(
    ptr, w, z, ndk, nwk, nk, nd, alpha_dk, refresh, cptr, cidx, ew, alpha0, beta, beta_sum, u, p
):
    """One sweep of the approximate collapsed Gibbs sampler (Eq 3.4 without the Polya
    product). With ``refresh`` the prior of d is recomputed from the cited documents'
    current counts when d is visited (ours: the thesis does not say when the
    priors are refreshed); otherwise ``alpha_dk`` is used as
    given (DMR, LDA)."""
    D = ptr.shape[0] - 1
    for d in range(D):
        if refresh:
            doc_alpha(d, cptr, cidx, ew, ndk, nd, alpha0, alpha_dk[d])
        gibbs_doc(d, ptr, w, z, ndk, nwk, nk, alpha_dk[d], beta, beta_sum, u, p)


@njit(cache=True)
def exact_logits(
    d,
    i,
    wi,
    ndk,
    nwk,
    nk,
    nd,
    alpha_d,
    rptr,
    ridx,
    reidx,
    cptr,
    cidx,
    ew,
    alpha0,
    beta,
    beta_sum,
    out,
    buf,
):
    """log of the exact full conditional (Eq 3.4, up to a constant) of token i of d over
    k, with d's counts already excluding token i. ``rptr/ridx`` list the citers of d and
    ``reidx`` the edge index of (d -> citer) in the citing CSR."""
    K = nk.shape[0]
    n_new = nd[d] + 1  # n^(d) with token i back in
    for k in range(K):
        out[k] = (
            math.log(ndk[d, k] + alpha_d[k])
            + math.log(nwk[wi, k] + beta)
            - math.log(nk[k] + beta_sum)
        )
    for r in range(rptr[d], rptr[d + 1]):
        b = ridx[r]
        e_db = reidx[r]
        # alpha^(b) without d's contribution
        doc_alpha(b, cptr, cidx, ew, ndk, nd, alpha0, buf)
        for j in range(K):
            buf[j] -= ew[e_db] * ndk[d, j] / nd[d] if nd[d] > 0 else 0.0
        for k in range(K):
            # add d's contribution with z_i = k
            s = ew[e_db] / n_new
            for j in range(K):
                buf[j] += s * (ndk[d, j] + (1 if j == k else 0))
            out[k] += log_polya_n(ndk[b], nd[b], buf)
            for j in range(K):
                buf[j] -= s * (ndk[d, j] + (1 if j == k else 0))


@njit(cache=True)
def tir_sweep_exact(
    ptr,
    w,
    z,
    ndk,
    nwk,
    nk,
    nd,
    alpha_dk,
    rptr,
    ridx,
    reidx,
    cptr,
    cidx,
    ew,
    alpha0,
    beta,
    beta_sum,
    u,
    p,
    buf,
):
    """One sweep of the exact collapsed Gibbs sampler of Eq 3.4 (with the Polya product
    over the citers of d). ``nd`` is kept current (it changes while a token is out)."""
    D = ptr.shape[0] - 1
    K = nk.shape[0]
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            wi = w[i]
            k = z[i]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            nd[d] -= 1
            doc_alpha(d, cptr, cidx, ew, ndk, nd, alpha0, alpha_dk[d])
            exact_logits(
                d,
                i,
                wi,
                ndk,
                nwk,
                nk,
                nd,
                alpha_dk[d],
                rptr,
                ridx,
                reidx,
                cptr,
                cidx,
                ew,
                alpha0,
                beta,
                beta_sum,
                p,
                buf,
            )
            m = p[0]
            for j in range(1, K):
                if p[j] > m:
                    m = p[j]
            tot = 0.0
            for j in range(K):
                tot += math.exp(p[j] - m)
                p[j] = tot
            k = sample_cumulative(p, K, u[i])
            z[i] = k
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1
            nd[d] += 1


@njit(cache=True)
def polya_alpha_grad(ndk, nd, alpha_dk, docs, g):
    """sum over ``docs`` of log Polya(z^(d) | alpha^(d)) (Eq 3.6) and its gradient in
    alpha^(d)_k into g[d, k]: psi(A) - psi(A + n) + psi(a_k + n_k) - psi(a_k), A = sum a."""
    K = alpha_dk.shape[1]
    total = 0.0
    for t in range(docs.shape[0]):
        d = docs[t]
        a = alpha_dk[d]
        total += log_polya_n(ndk[d], nd[d], a)
        s = 0.0
        for k in range(K):
            s += a[k]
        c = digamma(s) - digamma(s + nd[d])
        for k in range(K):
            g[d, k] = c
            if ndk[d, k] > 0:
                g[d, k] += digamma(a[k] + ndk[d, k]) - digamma(a[k])
    return total


@njit(cache=True)
def edge_grad(cptr, cidx, zbar, g, out):
    """Chain rule to the edge weights: d alpha^(d)_k / d ew[e] = zbar^(c)_k."""
    D = cptr.shape[0] - 1
    K = zbar.shape[1]
    for d in range(D):
        for e in range(cptr[d], cptr[d + 1]):
            c = cidx[e]
            s = 0.0
            for k in range(K):
                s += zbar[c, k] * g[d, k]
            out[e] = s


# ---------------------------------------------------------------------- sampling l
# The document's alternatives to stochastic EM (Sec 3.4, after Eq 3.6): "The topical
# influence values l can be sampled using Metropolis-Hastings updates, or slice sampling"
# from Pr(l | z, lambda) ∝ Pr(z | l) Pr(l | lambda) (Eqs 3.5-3.6), l^(c) ~ Exponential(lambda)
# (Alg 4). One coordinate l^(a) at a time: only the Polya factors of a's citers depend on it.
# ``alpha_dk`` must hold alpha^(d) of the current l and z; moves update it in place.
# Uniforms are drawn outside (same draws in reference.l_mh_scan / l_slice_scan).
@njit(cache=True)
def l_cond_logp(a, x, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate):
    """log Pr(l^(a) = x | z, l^(-a), lambda) + const: sum over the citers d of a of
    log Polya(z^(d) | alpha^(d) + (x - l^(a)) zbar^(a)) - lambda x; -inf for x < 0."""
    if x < 0.0:
        return -np.inf
    K = zbar.shape[1]
    dx = x - l[a]
    total = -rate * x
    for t in range(rptr[a], rptr[a + 1]):
        d = ridx[t]
        s = 0.0
        r = 0.0
        for k in range(K):
            ak = alpha_dk[d, k] + dx * zbar[a, k]
            s += ak
            if ndk[d, k] > 0:
                r += math.lgamma(ndk[d, k] + ak) - math.lgamma(ak)
        total += r + math.lgamma(s) - math.lgamma(s + nd[d])
    return total


@njit(cache=True)
def _l_move(a, y, l, rptr, ridx, zbar, alpha_dk):
    K = zbar.shape[1]
    dx = y - l[a]
    for t in range(rptr[a], rptr[a + 1]):
        d = ridx[t]
        for k in range(K):
            alpha_dk[d, k] += dx * zbar[a, k]
    l[a] = y


@njit(cache=True)
def l_mh_scan(cited, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate, step, eps, u):
    """One random-walk Metropolis-Hastings update of every cited l^(a): proposal
    y = l^(a) + step * eps (symmetric; y < 0 has zero density and is rejected), accepted
    when log u < log p(y) - log p(l^(a)). Returns the number of accepted moves."""
    acc = 0
    for j in range(cited.shape[0]):
        a = cited[j]
        x = l[a]
        y = x + step * eps[j]
        if y < 0.0:
            continue
        f0 = l_cond_logp(a, x, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate)
        f1 = l_cond_logp(a, y, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate)
        if math.log(u[j]) < f1 - f0:
            _l_move(a, y, l, rptr, ridx, zbar, alpha_dk)
            acc += 1
    return acc


@njit(cache=True)
def l_slice_scan(cited, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate, width, max_out, u):
    """One univariate slice-sampling update (Neal 2003, stepping out with at most
    ``max_out`` steps of ``width``, then shrinkage) of every cited l^(a). ``u[j]`` holds
    the uniforms in (0, 1] of coordinate j: slice height, interval position, the split of
    the step-out budget, then one per shrinkage proposal. The interval is cut to the
    support x >= 0. If the shrinkage draws run out, l^(a) keeps its value (counted in
    out[1]). Returns (density evaluations, coordinates left unchanged that way)."""
    n_eval = 0
    n_stuck = 0
    n_shrink = u.shape[1] - 3
    for j in range(cited.shape[0]):
        a = cited[j]
        x0 = l[a]
        f0 = l_cond_logp(a, x0, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate)
        logy = f0 + math.log(u[j, 0])
        L = x0 - width * u[j, 1]
        R = L + width
        J = int(math.floor(max_out * u[j, 2]))
        if J > max_out - 1:
            J = max_out - 1
        Kr = max_out - 1 - J
        n_eval += 1
        while J > 0 and L > 0.0:
            n_eval += 1
            if l_cond_logp(a, L, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate) <= logy:
                break
            L -= width
            J -= 1
        while Kr > 0:
            n_eval += 1
            if l_cond_logp(a, R, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate) <= logy:
                break
            R += width
            Kr -= 1
        if L < 0.0:
            L = 0.0
        moved = False
        for t in range(n_shrink):
            x1 = L + u[j, 3 + t] * (R - L)
            n_eval += 1
            if l_cond_logp(a, x1, l, rptr, ridx, zbar, ndk, nd, alpha_dk, rate) > logy:
                _l_move(a, x1, l, rptr, ridx, zbar, alpha_dk)
                moved = True
                break
            if x1 < x0:
                L = x1
            else:
                R = x1
        if not moved:
            n_stuck += 1
    return n_eval, n_stuck
