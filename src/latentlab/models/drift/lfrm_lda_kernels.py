"""Numba kernels of the LFRM_LDA / BMF_LDA sampler (Foulds 2014, Sec. 2.7, Appendix A).

Layouts (one representation serves both models, see ``lfrm_lda``):

* ``Z`` is ``(E, K)`` int8 over *entities*: the N nodes of LFRM_LDA, or the N row and M
  column entities of BMF_LDA stacked, with ``allowed[e, k] = 0`` where the padded Z̄ of
  Eqs. A.6-A.8 is fixed at zero (row entities own features 0..K¹-1, columns K¹..K-1).
* The network is dense ``(E, E)``: ``Y`` (float), ``O`` (observed; the diagonal and, for
  BMF_LDA, every pair that is not (row, column) are never observed). ``eta[i, j] =
  z_i W z_jᵀ + ε`` (Eq. A.3 without effects) is kept up to date.
* Documents: tokens ``w`` with doc pointers ``ptr``; document d belongs to sender
  ``snd[d]`` and receiver ``rcv[d]`` (-1 for a node document) with sender share ``lam[d]``
  (λ for an edge document, 1 for a node document). ``ent_ptr``/``ent_docs`` list the
  documents that touch each entity.
* Token counts ``ndk (D, K)``, ``nwk (V, K)``, ``nk (K,)`` int64; β is symmetric.

Random numbers are drawn outside and passed in, so the kernels and their numpy oracles in
``reference.py`` consume the same numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from latentlab.kernels.gibbs import gibbs_doc
from latentlab.kernels.special import log_polya_terms

LOGISTIC = 0
POISSON = 1
GAUSSIAN = 2


@njit(cache=True, inline="always")
def _softplus(x):
    if x > 0.0:
        return x + np.log1p(np.exp(-x))
    return np.log1p(np.exp(x))


@njit(cache=True)
def link_loglik(y, eta, link, sd):
    """log Pr(y | η) up to terms free of η: Bernoulli(σ(η)), Poisson(e^η) (Eq. 2.32) or
    Gaussian(η, sd) (Appendix A, example 2)."""
    if link == LOGISTIC:
        if y > 0.5:
            return -_softplus(-eta)
        return -_softplus(eta)
    if link == POISSON:
        return y * eta - np.exp(eta)
    r = y - eta
    return -0.5 * r * r / (sd * sd)


@njit(cache=True)
def compute_eta(Z, W, eps):
    """η_ij = z_i W z_jᵀ + ε for every ordered pair (diagonal left at ε)."""
    E, K = Z.shape
    zw = np.zeros((E, K))
    for i in range(E):
        for a in range(K):
            if Z[i, a]:
                for b in range(K):
                    zw[i, b] += W[a, b]
    eta = np.empty((E, E))
    for i in range(E):
        for j in range(E):
            s = eps
            for b in range(K):
                if Z[j, b]:
                    s += zw[i, b]
            eta[i, j] = s
    return eta


@njit(cache=True)
def network_loglik(Y, O, eta, link, sd):
    E = Y.shape[0]
    ll = 0.0
    for i in range(E):
        for j in range(E):
            if O[i, j]:
                ll += link_loglik(Y[i, j], eta[i, j], link, sd)
    return ll


@njit(cache=True)
def doc_alpha(Z, rowsum, s, r, lam, gamma, alpha_plus, out):
    """α^(d) of Eqs. 2.30 / 2.31 (A.1, A.2; A.6-A.8 with the padded Z̄) into ``out``.

    An entity with no active feature routes its γ share to the flat part (ours: Eq. 2.31's share is
    0/0 then).
    """
    K = Z.shape[1]
    flat = (1.0 - gamma) / K
    for k in range(K):
        out[k] = flat
    shares = (lam, 1.0 - lam)
    ents = (s, r)
    for q in range(2):
        e = ents[q]
        sh = gamma * shares[q]
        if e < 0 or sh == 0.0:
            continue
        if rowsum[e] == 0:
            for k in range(K):
                out[k] += sh / K
        else:
            c = sh / rowsum[e]
            for k in range(K):
                if Z[e, k]:
                    out[k] += c
    for k in range(K):
        out[k] *= alpha_plus


@njit(cache=True)
def all_alphas(Z, snd, rcv, lam, gamma, alpha_plus):
    D = snd.shape[0]
    K = Z.shape[1]
    rowsum = np.zeros(Z.shape[0], dtype=np.int64)
    for e in range(Z.shape[0]):
        for k in range(K):
            rowsum[e] += Z[e, k]
    A = np.empty((D, K))
    for d in range(D):
        doc_alpha(Z, rowsum, snd[d], rcv[d], lam[d], gamma, alpha_plus, A[d])
    return A


@njit(cache=True)
def token_sweep(ptr, w, t, ndk, nwk, nk, A, beta, u):
    """One collapsed Gibbs sweep over every token with per-document α (Eq. A.9):
    P(t_l = k | rest) ∝ (n_k^(d) + α_k^(d)) (n_k^(w) + β) / (n_k + Vβ), current excluded
    (:func:`latentlab.kernels.gibbs.gibbs_doc`)."""
    D = ptr.shape[0] - 1
    K = nk.shape[0]
    V = nwk.shape[0]
    vb = V * beta
    p = np.empty(K)
    for d in range(D):
        gibbs_doc(d, ptr, w, t, ndk, nwk, nk, A[d], beta, vb, u, p)


@njit(cache=True)
def z_logodds(
    Y, O, eta, Z, W, allowed, rowsum, lw, rw, ndk, snd, rcv, lam, ent_ptr, ent_docs,
    gamma, alpha_plus, logit_pi, link, sd, e, k, a0, a1,
):  # fmt: skip
    """log Pr(z_ek = 1 | rest) − log Pr(z_ek = 0 | rest) (Eq. A.10): network likelihood
    of the pairs touching e, the Bernoulli(π_k) prior, and the Polya terms of the
    documents touching e. ``a0``, ``a1``: (K,) scratch."""
    E = Z.shape[0]
    cur = Z[e, k]
    ll = logit_pi
    for j in range(E):
        if j == e:
            continue
        if O[e, j]:
            d = rw[j, k]  # η_ej changes by (W z_jᵀ)_k
            b = eta[e, j] - cur * d
            ll += link_loglik(Y[e, j], b + d, link, sd) - link_loglik(Y[e, j], b, link, sd)
        if O[j, e]:
            d = lw[j, k]  # η_je changes by (z_j W)_k
            b = eta[j, e] - cur * d
            ll += link_loglik(Y[j, e], b + d, link, sd) - link_loglik(Y[j, e], b, link, sd)
    if ent_ptr[e + 1] > ent_ptr[e]:
        rs = rowsum[e]
        for q in range(ent_ptr[e], ent_ptr[e + 1]):
            dd = ent_docs[q]
            Z[e, k] = 0
            rowsum[e] = rs - cur
            doc_alpha(Z, rowsum, snd[dd], rcv[dd], lam[dd], gamma, alpha_plus, a0)
            Z[e, k] = 1
            rowsum[e] = rs - cur + 1
            doc_alpha(Z, rowsum, snd[dd], rcv[dd], lam[dd], gamma, alpha_plus, a1)
            # log Polya(t^(d) | α^(d)) up to the terms in α⁺ = Σ_k α_k and n^(d), equal for
            # every Z (every α^(d) sums to α⁺)
            ll += log_polya_terms(ndk[dd], a1, 0.0) - log_polya_terms(ndk[dd], a0, 0.0)
        Z[e, k] = cur
        rowsum[e] = rs
    return ll


@njit(cache=True)
def z_sweep(
    Y, O, eta, Z, W, allowed, ndk, snd, rcv, lam, ent_ptr, ent_docs,
    gamma, alpha_plus, logit_pi, link, sd, u,
):  # fmt: skip
    """Gibbs update of every allowed z_ek (entity-major; Eq. A.10), η kept up to date.
    ``u``: (E, K) uniforms. Returns the number of bits that changed."""
    E, K = Z.shape
    rowsum = np.zeros(E, dtype=np.int64)
    lw = np.zeros((E, K))  # lw[j, k] = (z_j W)_k
    rw = np.zeros((E, K))  # rw[j, k] = (W z_jᵀ)_k
    for j in range(E):
        for a in range(K):
            if Z[j, a]:
                rowsum[j] += 1
                for b in range(K):
                    lw[j, b] += W[a, b]
                    rw[j, b] += W[b, a]
    a0 = np.empty(K)
    a1 = np.empty(K)
    changed = 0
    for e in range(E):
        for k in range(K):
            if not allowed[e, k]:
                continue
            x = z_logodds(
                Y, O, eta, Z, W, allowed, rowsum, lw, rw, ndk, snd, rcv, lam, ent_ptr,
                ent_docs, gamma, alpha_plus, logit_pi[k], link, sd, e, k, a0, a1,
            )  # fmt: skip
            p1 = 1.0 / (1.0 + np.exp(-x)) if x > -700.0 else 0.0
            new = 1 if u[e, k] < p1 else 0
            delta = new - Z[e, k]
            if delta == 0:
                continue
            changed += 1
            for j in range(E):
                if j != e:
                    eta[e, j] += delta * rw[j, k]
                    eta[j, e] += delta * lw[j, k]
            # the pair (e, e) is never observed; keep η_ee consistent anyway
            eta[e, e] += delta * (lw[e, k] + rw[e, k] + delta * W[k, k])
            for b in range(K):
                lw[e, b] += delta * W[k, b]
                rw[e, b] += delta * W[b, k]
            Z[e, k] = new
            rowsum[e] += delta
    return changed


@njit(cache=True)
def _w_delta_loglik(Y, O, eta, Z, k, kk, delta, link, sd):
    """Change of the network log-likelihood when w_kk' moves by ``delta``."""
    E = Z.shape[0]
    d = 0.0
    for i in range(E):
        if not Z[i, k]:
            continue
        for j in range(E):
            if O[i, j] and Z[j, kk]:
                e = eta[i, j]
                d += link_loglik(Y[i, j], e + delta, link, sd) - link_loglik(Y[i, j], e, link, sd)
    return d


@njit(cache=True)
def mh_w(Y, O, eta, Z, W, free, prior, sigma_w, sigma_prop, link, sd, normals, uniforms):
    """Element-wise random-walk MH on the free entries of W (Eq. A.11), proposal
    N(w, sigma_prop). ``prior`` 0: w ~ N(0, sigma_w); 1: w ~ Exponential(mean sigma_w)
    (positive W, the Twitter model; a negative proposal is rejected). Returns accepted."""
    E, K = Z.shape
    acc = 0
    for k in range(K):
        for kk in range(K):
            if not free[k, kk]:
                continue
            delta = sigma_prop * normals[k, kk]
            w = W[k, kk]
            wn = w + delta
            if prior == 1:
                if wn <= 0.0:
                    continue
                lp = -(wn - w) / sigma_w
            else:
                lp = -0.5 * (wn * wn - w * w) / (sigma_w * sigma_w)
            logr = lp + _w_delta_loglik(Y, O, eta, Z, k, kk, delta, link, sd)
            if np.log(uniforms[k, kk]) < logr:
                W[k, kk] = wn
                acc += 1
                for i in range(E):
                    if Z[i, k]:
                        for j in range(E):
                            if Z[j, kk]:
                                eta[i, j] += delta
    return acc


@njit(cache=True)
def mh_eps(Y, O, eta, eps, sigma_prior, sigma_prop, link, sd, normal, uniform):
    """Random-walk MH on the intercept ε (Appendix A: 'updates for additional parameters
    such as intercept terms ... are performed similarly'). Returns (ε, accepted)."""
    E = Y.shape[0]
    delta = sigma_prop * normal
    d = 0.0
    for i in range(E):
        for j in range(E):
            if O[i, j]:
                e = eta[i, j]
                d += link_loglik(Y[i, j], e + delta, link, sd) - link_loglik(Y[i, j], e, link, sd)
    en = eps + delta
    logr = d - 0.5 * (en * en - eps * eps) / (sigma_prior * sigma_prior)
    if np.log(uniform) < logr:
        for i in range(E):
            for j in range(E):
                eta[i, j] += delta
        return en, True
    return eps, False
