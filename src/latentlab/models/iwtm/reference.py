"""Plain-numpy oracles for the tests of the IWTM kernels (never used by the runs)."""

from __future__ import annotations

import math

import numpy as np
from scipy.special import digamma, gammaln

from .normal_gamma import NGPrior, log_marginal


def sorted_sticks(counts, conc):
    """Stick parameters and E log pi by physically sorting the atoms (decreasing counts,
    ties by index), then mapping back: the oracle of simulated reordering (C7)."""
    counts = np.asarray(counts, dtype=np.float64)
    order = sorted(range(len(counts)), key=lambda j: (-counts[j], j))
    sc = counts[order]
    a_s = 1.0 + sc
    b_s = np.array([conc + sc[i + 1 :].sum() for i in range(len(sc))])
    el = np.zeros(len(sc))
    acc = 0.0
    for i in range(len(sc)):
        ev = 0.0 if i == len(sc) - 1 else digamma(a_s[i]) - digamma(a_s[i] + b_s[i])
        el[i] = ev + acc
        acc += digamma(b_s[i]) - digamma(a_s[i] + b_s[i])
    a = np.empty_like(a_s)
    b = np.empty_like(b_s)
    e = np.empty_like(el)
    a[order], b[order], e[order] = a_s, b_s, el
    return a, b, e


def log_marginal_quadrature(X, prior: NGPrior, n_lam=4000) -> float:
    """Eq. 4.11 by integrating mu analytically given lambda (Gaussian) and lambda by
    quadrature on a log grid (independent of the closed form's algebra)."""
    X = np.asarray(X, dtype=np.float64)
    n, D = X.shape
    loglam = np.linspace(-12, 8, n_lam) + math.log(prior.a * prior.b)
    lam = np.exp(loglam)
    xbar = X.mean(0)
    ss = ((X - xbar) ** 2).sum()
    dm2 = ((xbar - prior.m) ** 2).sum()
    # p(X | lam) with mu integrated: product of D independent 1-D Gaussian integrals
    lp = (
        0.5 * n * D * (np.log(lam) - math.log(2 * math.pi))
        + 0.5 * D * math.log(prior.beta0 / (prior.beta0 + n))
        - 0.5 * lam * (ss + prior.beta0 * n / (prior.beta0 + n) * dm2)
    )
    lprior = (prior.a - 1) * loglam - lam / prior.b - prior.a * math.log(prior.b) - gammaln(prior.a)
    f = lp + lprior + loglam  # d lam = lam d log lam
    mx = f.max()
    return float(mx + math.log(np.trapezoid(np.exp(f - mx), loglam)))


def log_marginal_mc(X, prior: NGPrior, n_samples=400_000, seed=0) -> float:
    """Eq. 4.11 by simple Monte Carlo over (mu, lambda) from the prior."""
    rng = np.random.default_rng(seed)
    X = np.asarray(X, dtype=np.float64)
    n, D = X.shape
    lam = rng.gamma(prior.a, prior.b, n_samples)
    mu = prior.m + rng.normal(size=(n_samples, D)) / np.sqrt(prior.beta0 * lam)[:, None]
    sq = ((X[None, :, :] - mu[:, None, :]) ** 2).sum((1, 2))
    ll = 0.5 * n * D * (np.log(lam) - math.log(2 * math.pi)) - 0.5 * lam * sq
    mx = ll.max()
    return float(mx + math.log(np.mean(np.exp(ll - mx))))


def crf_log_joint(x, doc, y, z, table, dish_of_table, alpha_y, alpha0, gamma, prior, log_py=None):
    """log p(x, z, t, k | y) of the supervised CRF with theta and cluster parameters
    integrated out (Eqs 4.1, 4.12-4.13 as exchangeable CRP products, 4.11 per dish).
    ``table`` holds global table ids; ``dish_of_table`` maps a table id to its dish. A
    document with y = -1 is unlabelled: its p(z_d) = sum_y p(y) p(z_d | alpha_y) (4.3)."""
    lp = 0.0
    T = alpha_y.shape[1]
    for d in np.unique(doc):
        Nd = np.bincount(z[doc == d], minlength=T)
        terms = []
        for c in range(alpha_y.shape[0]) if y[d] < 0 else [y[d]]:
            a = alpha_y[c]
            lz = gammaln(a.sum()) - gammaln(a.sum() + Nd.sum())
            lz += (gammaln(a + Nd) - gammaln(a)).sum()
            terms.append(lz + (log_py[c] if y[d] < 0 else 0.0))
        lp += float(np.logaddexp.reduce(terms))
    tables = np.unique(table)
    m_total = 0
    for r in range(T):
        tr = [t for t in tables if z[table == t][0] == r]
        sizes = [int((table == t).sum()) for t in tr]
        n_r = sum(sizes)
        if n_r:
            lp += len(sizes) * math.log(alpha0) + sum(gammaln(s) for s in sizes)
            lp += gammaln(alpha0) - gammaln(alpha0 + n_r)
        m_total += len(sizes)
    dishes = np.unique([dish_of_table[t] for t in tables])
    ms = [sum(1 for t in tables if dish_of_table[t] == k) for k in dishes]
    lp += len(ms) * math.log(gamma) + sum(gammaln(m) for m in ms)
    lp += gammaln(gamma) - gammaln(gamma + m_total)
    for k in dishes:
        members = np.isin(table, [t for t in tables if dish_of_table[t] == k])
        lp += log_marginal(x[members], prior)
    return lp


def dense_local(X, indptr, elog_pi, B, El, alpha, n_sweeps):
    """Eqs 5.11-5.12 with a dense T x K q(z, k) per datum: ``n_sweeps`` updates from
    alpha~ = alpha + N_d/T, then the final pass. Returns (alpha~, zeta, n_k, s_k, q_k,
    entropy) as the CAVI local kernel leaves them."""
    from scipy.special import digamma as psi

    T, K = elog_pi.shape
    G = El @ B.T  # N x K: sum_c b_kc E l_ic
    nd = len(indptr) - 1
    at = np.zeros((nd, T))
    zeta = np.zeros((T, K))
    n_k = np.zeros(K)
    s_k = np.zeros((K, X.shape[1]))
    q_k = np.zeros(K)
    ent = 0.0
    for d in range(nd):
        i0, i1 = indptr[d], indptr[d + 1]
        a = np.full(T, alpha + (i1 - i0) / T)
        for _ in range(n_sweeps + 1):
            elt = psi(a) - psi(a.sum())
            lg = elt[None, :, None] + elog_pi[None] + G[i0:i1, None, :]  # n x T x K
            lg -= lg.max((1, 2), keepdims=True)
            p = np.exp(lg)
            p /= p.sum((1, 2), keepdims=True)
            a = alpha + p.sum((0, 2))
        zeta += p.sum(0)
        w = p.sum(1)  # n x K
        n_k += w.sum(0)
        s_k += w.T @ X[i0:i1]
        q_k += w.T @ (X[i0:i1] ** 2).sum(1)
        with np.errstate(divide="ignore", invalid="ignore"):
            ent -= float(np.where(p > 0, p * np.log(p), 0.0).sum())
        at[d] = a
    return at, zeta, n_k, s_k, q_k, ent


def topk_rows_ref(A, k):
    """The k largest entries of every row, by value descending, ties by lower index (the
    rule of ``kernels.topk_rows``)."""
    A = np.asarray(A)
    idx = np.arange(A.shape[1])
    return np.array([np.lexsort((idx, -row))[:k] for row in A], dtype=np.int64).reshape(-1, k)


def candidates_ref(El, c_top, map_idx, map_val):
    """Candidate atoms of every datum and G_ik = sum_c b_kc E l_ic (Sec. 5.4.3): the atoms
    whose most probable cluster (first argmax of map_val) is among the datum's c_top best
    clusters, in the order of those clusters (``topk_rows_ref``), then by atom index; with
    c_top >= C every atom, by index. Returns (ptr, atoms, G)."""
    N, C = El.shape
    K = len(map_idx)
    prim = map_idx[np.arange(K), map_val.argmax(1)]
    B = np.zeros((K, C))
    for k in range(K):
        for c, w in zip(map_idx[k], map_val[k], strict=True):
            if w > 0:
                B[k, c] += w
    ptr, atoms, G = [0], [], []
    top = topk_rows_ref(El, min(c_top, C))
    for i in range(N):
        if c_top < C:
            ks = [k for c in top[i] for k in np.flatnonzero(prim == c)]
        else:
            ks = list(range(K))
        atoms += ks
        G += [float(B[k] @ El[i]) for k in ks]
        ptr.append(len(atoms))
    return np.array(ptr, np.int64), np.array(atoms, np.int64), np.array(G)


def sparse_local(X, indptr, cptr, atoms, G, elog_pi, alpha, max_local, tol):
    """Eqs 5.11-5.12 on candidate lists (CSR ``cptr``, ``atoms``, ``G``) with q(z, k)
    exponentiated directly: from alpha~ = alpha + N_d/T, at most ``max_local`` sweeps
    until max |d alpha~| < tol * mean alpha~, then the final pass. A datum without
    candidates drops out. Returns (alpha~, zeta, n_k, s_k, q_k, entropy)."""
    from scipy.special import digamma as psi

    T, K = elog_pi.shape
    nd = len(indptr) - 1
    at = np.zeros((nd, T))
    zeta = np.zeros((T, K))
    n_k = np.zeros(K)
    s_k = np.zeros((K, X.shape[1]))
    q_k = np.zeros(K)
    ent = 0.0

    def q_of(i, a):
        ks = atoms[cptr[i] : cptr[i + 1]]
        lg = (psi(a) - psi(a.sum()))[None, :] + elog_pi[:, ks].T + G[cptr[i] : cptr[i + 1], None]
        p = np.exp(lg - lg.max())
        return ks, p / p.sum()

    for d in range(nd):
        rows = [i for i in range(indptr[d], indptr[d + 1]) if cptr[i + 1] > cptr[i]]
        a = np.full(T, alpha + (indptr[d + 1] - indptr[d]) / T)
        for _ in range(max_local):
            new = alpha + sum((q_of(i, a)[1].sum(0) for i in rows), np.zeros(T))
            done = np.abs(new - a).max() < tol * new.mean()
            a = new
            if done:
                break
        new = np.full(T, alpha)
        for i in rows:
            ks, p = q_of(i, a)
            new += p.sum(0)
            np.add.at(zeta.T, ks, p)
            w = p.sum(1)
            np.add.at(n_k, ks, w)
            np.add.at(s_k, ks, w[:, None] * X[i][None, :])
            np.add.at(q_k, ks, w * float(X[i] @ X[i]))
            ent -= float((p[p > 0] * np.log(p[p > 0])).sum())
        at[d] = new
    return at, zeta, n_k, s_k, q_k, ent


def nearest_ref(m, k):
    """The k nearest other clusters of every cluster (the initial mapping's spread, as
    first written: a stable argsort of the squared distances)."""
    out = np.empty((len(m), k), np.int64)
    for c in range(len(m)):
        d2 = ((m - m[c]) ** 2).sum(1)
        d2[c] = np.inf
        out[c] = np.argsort(d2, kind="stable")[:k]
    return out
