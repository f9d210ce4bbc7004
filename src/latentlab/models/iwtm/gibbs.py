"""Supervised collapsed Gibbs sampler for IWTM over the Chinese restaurant franchise
(Waters 2014, ch. 4; Eqs 4.1-4.3, 4.12-4.16).

Restaurants are topics, dishes are clusters. Each datum's (topic z, table t, dish k) is
resampled jointly (Sec. 4.4.1): theta and the cluster parameters are integrated out
(Student-t predictive, ratio of Eq. 4.11). Test documents are folded in one at a time
with the class-marginalised prior (4.3) and classified by Eq. 4.16.

:func:`_sweep` is the sampler: per-dish caches of the predictive and linear weights
(see "fast sweep" below). :func:`_sweep_reference` is the first, log-domain sampler whose
pieces the C10 test checks against the ratio of joints; both take the same draws from the
same uniforms up to rounding (tested).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from scipy.optimize import minimize, minimize_scalar
from scipy.special import digamma, gammaln

from latentlab.errors import ConfigError, DivergenceError
from latentlab.kernels.sampling import categorical, categorical_log
from latentlab.kernels.special import log_polya, logsumexp

from .normal_gamma import NGPrior, log_predictive_stats

NEG_INF = -np.inf


# ------------------------------------------------------------------ numba helpers
@nb.njit(cache=True)
def _dish_logf(x, dish_hw, dish_m, dish_n, dish_s, dish_q, m, beta0, a, b, logf):
    """Student-t predictive of x under every active dish; returns f_new (prior)."""
    zero = np.zeros_like(x)
    for k in range(dish_hw):
        if dish_m[k] > 0:
            logf[k] = log_predictive_stats(x, dish_n[k], dish_s[k], dish_q[k], m, beta0, a, b)
        else:
            logf[k] = -np.inf
    return log_predictive_stats(x, 0.0, zero, 0.0, m, beta0, a, b)


@nb.njit(cache=True)
def _topic_logprior(d, y, ndt, alpha_y, log_py, out, buf):
    """log prior of z_di = r given the document's other assignments: Eq. 4.2 for a
    labelled document, the class-marginalised Eq. 4.3 for y = -1."""
    T = alpha_y.shape[1]
    if y >= 0:
        for r in range(T):
            out[r] = math.log(alpha_y[y, r] + ndt[d, r])
        return
    Y = alpha_y.shape[0]
    Nd = 0.0
    for r in range(T):
        Nd += ndt[d, r]
    # per class: log p(y) + log p(z_d | alpha_y) and log(A_y + N_d), computed once (the
    # same numbers the r loop used to recompute for every topic r)
    pz = np.empty(Y)
    lA = np.empty(Y)
    for c in range(Y):
        A = 0.0
        for j in range(T):
            A += alpha_y[c, j]
        pz[c] = log_py[c] + log_polya(ndt[d], alpha_y[c])  # Eq. 4.1
        lA[c] = math.log(A + Nd)
    for r in range(T):
        for c in range(Y):
            buf[c] = pz[c] + math.log(alpha_y[c, r] + ndt[d, r]) - lA[c]
        out[r] = logsumexp(buf, Y)


@nb.njit(cache=True)
def _restaurant_logL(logf, logf_new, dish_hw, dish_m, m_total, c_rk, n_r, alpha0, gamma, tmp):
    """(log p_newtable, log L_r for every restaurant) of Sec. 4.4.1 steps 2-3."""
    for k in range(dish_hw):
        tmp[k] = math.log(dish_m[k]) + logf[k] if dish_m[k] > 0 else -np.inf
    tmp[dish_hw] = math.log(gamma) + logf_new
    lp_new = logsumexp(tmp, dish_hw + 1) - math.log(m_total + gamma)
    T = c_rk.shape[0]
    L = np.empty(T)
    for r in range(T):
        for k in range(dish_hw):
            tmp[k] = math.log(c_rk[r, k]) + logf[k] if c_rk[r, k] > 0 else -np.inf
        tmp[dish_hw] = math.log(alpha0) + lp_new
        L[r] = logsumexp(tmp, dish_hw + 1) - math.log(n_r[r] + alpha0)
    return lp_new, L


@nb.njit(cache=True)
def _remove(i, x, doc, z, tab, table_n, table_dish, table_free, dish_m, dish_n, dish_s,
            dish_q, dish_free, c_rk, n_r, ndt, counters):  # fmt: skip
    """Take datum i out of its table; delete an emptied table and an emptied dish."""
    r = z[i]
    t = tab[i]
    k = table_dish[t]
    xi = x[i]
    table_n[t] -= 1
    c_rk[r, k] -= 1
    n_r[r] -= 1
    ndt[doc[i], r] -= 1
    dish_n[k] -= 1.0
    for j in range(xi.shape[0]):
        dish_s[k, j] -= xi[j]
    dish_q[k] -= np.dot(xi, xi)
    if table_n[t] == 0:
        dish_m[k] -= 1
        counters[0] -= 1  # m_total
        table_free[counters[2]] = t
        counters[2] += 1
        if dish_m[k] == 0:
            dish_n[k] = 0.0
            dish_s[k, :] = 0.0
            dish_q[k] = 0.0
            dish_free[counters[4]] = k
            counters[4] += 1
    z[i] = -1
    tab[i] = -1


@nb.njit(cache=True)
def _new_table(table_free, table_hw_cap, counters):
    if counters[2] > 0:
        counters[2] -= 1
        return table_free[counters[2]]
    if counters[1] >= table_hw_cap:
        return -1
    counters[1] += 1
    return counters[1] - 1


@nb.njit(cache=True)
def _new_dish(dish_free, dish_cap, counters):
    if counters[4] > 0:
        counters[4] -= 1
        return dish_free[counters[4]]
    if counters[3] >= dish_cap:
        return -1
    counters[3] += 1
    return counters[3] - 1


@nb.njit(cache=True)
def _sweep_reference(idx, x, doc, y, z, tab, table_n, table_rest, table_dish, table_free,
                     dish_m, dish_n, dish_s, dish_q, dish_free, c_rk, n_r, ndt, counters,
                     alpha_y, log_py, alpha0, gamma, m, beta0, a, b, u):  # fmt: skip
    """One pass over the data ``idx``: remove (if seated), then draw (z, t, k) jointly
    (Sec. 4.4.1) with the uniforms ``u`` (len(idx) x 3, drawn outside). Returns 0, or -1
    when the table/dish capacity is exhausted. Every weight in the log domain, every
    predictive from the dish statistics: the first sampler, kept as the oracle of
    :func:`_sweep` (same draws from the same uniforms, up to rounding)."""
    T = c_rk.shape[0]
    dish_cap = c_rk.shape[1]
    logf = np.empty(dish_cap)
    tmp = np.empty(dish_cap + 1)
    prior = np.empty(T)
    buf = np.empty(alpha_y.shape[0])
    tbl_lp = np.empty(table_n.shape[0] + 1)
    tbl_id = np.empty(table_n.shape[0], dtype=np.int64)
    for ii in range(idx.shape[0]):
        i = idx[ii]
        if z[i] >= 0:
            _remove(i, x, doc, z, tab, table_n, table_dish, table_free, dish_m, dish_n,
                    dish_s, dish_q, dish_free, c_rk, n_r, ndt, counters)  # fmt: skip
        hw = counters[3]
        lf_new = _dish_logf(x[i], hw, dish_m, dish_n, dish_s, dish_q, m, beta0, a, b, logf)
        lp_new, L = _restaurant_logL(logf, lf_new, hw, dish_m, counters[0], c_rk, n_r,
                                     alpha0, gamma, tmp)  # fmt: skip
        _topic_logprior(doc[i], y[doc[i]], ndt, alpha_y, log_py, prior, buf)
        for r in range(T):
            prior[r] += L[r]
        r = categorical_log(prior, T, u[ii, 0])
        # table in restaurant r: existing t ~ n_t f_k(t), new ~ alpha0 p_newtable
        nt = 0
        for t in range(counters[1]):
            if table_n[t] > 0 and table_rest[t] == r:
                tbl_lp[nt] = math.log(table_n[t]) + logf[table_dish[t]]
                tbl_id[nt] = t
                nt += 1
        tbl_lp[nt] = math.log(alpha0) + lp_new
        j = categorical_log(tbl_lp, nt + 1, u[ii, 1])
        if j < nt:
            t = tbl_id[j]
            k = table_dish[t]
        else:
            for kk in range(hw):
                tmp[kk] = math.log(dish_m[kk]) + logf[kk] if dish_m[kk] > 0 else -np.inf
            tmp[hw] = math.log(gamma) + lf_new
            kk = categorical_log(tmp, hw + 1, u[ii, 2])
            if kk < hw:
                k = kk
            else:
                k = _new_dish(dish_free, dish_cap, counters)
                if k < 0:
                    return -1
            t = _new_table(table_free, table_n.shape[0], counters)
            if t < 0:
                return -1
            table_rest[t] = r
            table_dish[t] = k
            dish_m[k] += 1
            counters[0] += 1
        xi = x[i]
        z[i] = r
        tab[i] = t
        table_n[t] += 1
        c_rk[r, k] += 1
        n_r[r] += 1
        ndt[doc[i], r] += 1
        dish_n[k] += 1.0
        for jj in range(xi.shape[0]):
            dish_s[k, jj] += xi[jj]
        dish_q[k] += np.dot(xi, xi)
    return 0


@nb.njit(cache=True)
def _leaf_logprobs(i, x, doc, y, table_n, table_rest, table_dish, dish_m, dish_n, dish_s,
                   dish_q, c_rk, n_r, ndt, counters, alpha_y, log_py, alpha0, gamma, m,
                   beta0, a, b):  # fmt: skip
    """Normalised log probability of every (r, t, k) outcome the sampler can draw for an
    unseated datum i, composed from the same pieces ``_sweep`` samples from. Rows:
    (r, table id or -1 for new, dish id or -1 for new, log p)."""
    T = c_rk.shape[0]
    dish_cap = c_rk.shape[1]
    hw = counters[3]
    logf = np.empty(dish_cap)
    tmp = np.empty(dish_cap + 1)
    prior = np.empty(T)
    buf = np.empty(alpha_y.shape[0])
    lf_new = _dish_logf(x[i], hw, dish_m, dish_n, dish_s, dish_q, m, beta0, a, b, logf)
    lp_new, L = _restaurant_logL(logf, lf_new, hw, dish_m, counters[0], c_rk, n_r, alpha0,
                                 gamma, tmp)  # fmt: skip
    _topic_logprior(doc[i], y[doc[i]], ndt, alpha_y, log_py, prior, buf)
    for r in range(T):
        prior[r] += L[r]
    lz = prior - logsumexp(prior, T)
    for kk in range(hw):
        tmp[kk] = math.log(dish_m[kk]) + logf[kk] if dish_m[kk] > 0 else -np.inf
    tmp[hw] = math.log(gamma) + lf_new
    ldish = tmp[: hw + 1] - logsumexp(tmp, hw + 1)
    out = []
    for r in range(T):
        denom = L[r] + math.log(n_r[r] + alpha0)  # log of sum over tables
        for t in range(counters[1]):
            if table_n[t] > 0 and table_rest[t] == r:
                lp = lz[r] + math.log(table_n[t]) + logf[table_dish[t]] - denom
                out.append((r, t, table_dish[t], lp))
        lnew = lz[r] + math.log(alpha0) + lp_new - denom
        for kk in range(hw):
            if dish_m[kk] > 0:
                out.append((r, -1, kk, lnew + ldish[kk]))
        out.append((r, -1, -1, lnew + ldish[hw]))
    return out


# ------------------------------------------------------------------ fast sweep
# The sweep's cost is the predictive of the datum under every live dish and the mixture
# over restaurants (Sec. 4.4.1 steps 2-3). :func:`_sweep` keeps per dish what does not
# depend on x (posterior mean, constant, scale, power: ``_refresh_dish``, updated when the
# dish's statistics change), so a predictive is one squared distance; it works with the
# weights f_k = exp(log f_k - M) (M: the largest log f) instead of log-sum-exps, and reads
# the table counts per dish as a float64 dish x restaurant array ``c_kr`` (one contiguous
# T-vector per dish: L_r for all r in one pass over the dishes). The draws use the uniforms
# as :func:`_sweep_reference` does, so the two samplers take the same draws up to rounding.
# A weight that underflows (log f_k < M - 745) is one whose probability is below 1e-300 of
# the new table's (which holds the best dish's f = 1 through p_newtable).


@nb.njit(cache=True)
def _refresh_dish(k, dish_n, dish_s, dish_q, m, beta0, a, b, mn, cst, tas, pw):
    """The x-free pieces of ``log_predictive_stats`` for dish k: mean m_n (mn[k]), the
    constant lgamma(a_n + D/2) - lgamma(a_n) - D/2 log(pi 2 a_n s^2) (cst), 2 a_n s^2
    (tas) and the power a_n + D/2 (pw), from its statistics (n, s, q)."""
    D = m.shape[0]
    nu = beta0 + dish_n[k]
    mm = 0.0
    mn2 = 0.0
    for j in range(D):
        mj = (beta0 * m[j] + dish_s[k, j]) / nu
        mn[k, j] = mj
        mm += m[j] * m[j]
        mn2 += mj * mj
    an = a + 0.5 * dish_n[k] * D
    rate = 1.0 / b + 0.5 * (dish_q[k] + beta0 * mm - nu * mn2)
    t = 2.0 * rate * (nu + 1.0) / nu
    tas[k] = t
    pw[k] = an + 0.5 * D
    cst[k] = math.lgamma(an + 0.5 * D) - math.lgamma(an) - 0.5 * D * math.log(math.pi * t)


@nb.njit(cache=True)
def _logf_cached(x, k, mn, cst, tas, pw):
    """Student-t predictive log f_k(x) from the cached pieces (four partial sums)."""
    D = x.shape[0]
    a0 = a1 = a2 = a3 = 0.0
    for j in range(0, D - 3, 4):
        e0 = x[j] - mn[k, j]
        e1 = x[j + 1] - mn[k, j + 1]
        e2 = x[j + 2] - mn[k, j + 2]
        e3 = x[j + 3] - mn[k, j + 3]
        a0 += e0 * e0
        a1 += e1 * e1
        a2 += e2 * e2
        a3 += e3 * e3
    for j in range(D - D % 4, D):
        e0 = x[j] - mn[k, j]
        a0 += e0 * e0
    d2 = (a0 + a1) + (a2 + a3)
    return cst[k] - pw[k] * math.log1p(d2 / tas[k])


@nb.njit(cache=True)
def dish_cache(dish_m, dish_n, dish_s, dish_q, c_rk, m, beta0, a, b, c_kr, mn, cst, tas, pw):
    """(Re)build the caches of :func:`_sweep` from the sampler's counts and statistics."""
    T, K = c_rk.shape
    for k in range(K):
        for r in range(T):
            c_kr[k, r] = c_rk[r, k]
        if dish_m[k] > 0:
            _refresh_dish(k, dish_n, dish_s, dish_q, m, beta0, a, b, mn, cst, tas, pw)


@nb.njit(cache=True)
def _sweep(idx, x, doc, y, z, tab, table_n, table_rest, table_dish, table_free, dish_m,
           dish_n, dish_s, dish_q, dish_free, c_rk, n_r, ndt, counters, alpha_y, log_py,
           alpha0, gamma, m, beta0, a, b, u, c_kr, mn, cst, tas, pw):  # fmt: skip
    """One pass over the data ``idx``: remove (if seated), then draw (z, t, k) jointly
    (Sec. 4.4.1, Eqs 4.12-4.14 with the Student-t predictive of Eq. 4.11) with the
    uniforms ``u`` (len(idx) x 3). The same conditional as :func:`_sweep_reference` from
    the caches (``c_kr``, ``mn``, ``cst``, ``tas``, ``pw``; see above), which it keeps
    current. Returns 0, or -1 when the table/dish capacity is exhausted."""
    T = c_rk.shape[0]
    dish_cap = c_rk.shape[1]
    D = x.shape[1]
    f = np.empty(dish_cap)
    wd = np.empty(dish_cap + 1)
    S = np.empty(T)
    prior = np.empty(T)
    buf = np.empty(alpha_y.shape[0])
    tbl_w = np.empty(table_n.shape[0] + 1)
    tbl_id = np.empty(table_n.shape[0], dtype=np.int64)
    # the prior's predictive (a new dish): the same pieces at n = 0
    p_mn = np.empty((1, D))
    p_c = np.empty(1)
    p_t = np.empty(1)
    p_p = np.empty(1)
    _refresh_dish(0, np.zeros(1), np.zeros((1, D)), np.zeros(1), m, beta0, a, b, p_mn, p_c,
                  p_t, p_p)  # fmt: skip
    for ii in range(idx.shape[0]):
        i = idx[ii]
        xi = x[i]
        if z[i] >= 0:
            r0 = z[i]
            k0 = table_dish[tab[i]]
            _remove(i, x, doc, z, tab, table_n, table_dish, table_free, dish_m, dish_n,
                    dish_s, dish_q, dish_free, c_rk, n_r, ndt, counters)  # fmt: skip
            c_kr[k0, r0] -= 1.0
            if dish_m[k0] > 0:
                _refresh_dish(k0, dish_n, dish_s, dish_q, m, beta0, a, b, mn, cst, tas, pw)
        hw = counters[3]
        lf_new = _logf_cached(xi, 0, p_mn, p_c, p_t, p_p)
        mx = lf_new
        for k in range(hw):
            if dish_m[k] > 0:
                v = _logf_cached(xi, k, mn, cst, tas, pw)
                f[k] = v
                if v > mx:
                    mx = v
        # f_k = exp(log f_k - mx); S_r = sum_k c_rk f_k; p_new = sum_k m_k f_k + gamma f_0
        f_new = math.exp(lf_new - mx)
        for r in range(T):
            S[r] = 0.0
        pn = 0.0
        for k in range(hw):
            if dish_m[k] > 0:
                e = math.exp(f[k] - mx)
                f[k] = e
                wd[k] = dish_m[k] * e
                pn += wd[k]
                for r in range(T):
                    S[r] += c_kr[k, r] * e
            else:
                f[k] = 0.0
                wd[k] = 0.0
        wd[hw] = gamma * f_new
        pn = (pn + wd[hw]) / (counters[0] + gamma)  # p_newtable (units of e^mx)
        _topic_logprior(doc[i], y[doc[i]], ndt, alpha_y, log_py, prior, buf)
        for r in range(T):
            prior[r] += math.log(S[r] + alpha0 * pn) - math.log(n_r[r] + alpha0)
        r = categorical_log(prior, T, u[ii, 0])
        # table in restaurant r: existing t ~ n_t f_k(t), new ~ alpha0 p_newtable
        nt = 0
        for t in range(counters[1]):
            if table_n[t] > 0 and table_rest[t] == r:
                tbl_w[nt] = table_n[t] * f[table_dish[t]]
                tbl_id[nt] = t
                nt += 1
        tbl_w[nt] = alpha0 * pn
        j = categorical(tbl_w, nt + 1, u[ii, 1])
        if j < nt:
            t = tbl_id[j]
            k = table_dish[t]
        else:
            kk = categorical(wd, hw + 1, u[ii, 2])
            if kk < hw:
                k = kk
            else:
                k = _new_dish(dish_free, dish_cap, counters)
                if k < 0:
                    return -1
            t = _new_table(table_free, table_n.shape[0], counters)
            if t < 0:
                return -1
            table_rest[t] = r
            table_dish[t] = k
            dish_m[k] += 1
            counters[0] += 1
        z[i] = r
        tab[i] = t
        table_n[t] += 1
        c_rk[r, k] += 1
        c_kr[k, r] += 1.0
        n_r[r] += 1
        ndt[doc[i], r] += 1
        dish_n[k] += 1.0
        for jj in range(D):
            dish_s[k, jj] += xi[jj]
        dish_q[k] += np.dot(xi, xi)
        _refresh_dish(k, dish_n, dish_s, dish_q, m, beta0, a, b, mn, cst, tas, pw)
    return 0


@nb.njit(cache=True)
def _unseat_cached(idx, x, doc, z, tab, table_n, table_dish, table_free, dish_m, dish_n,
                   dish_s, dish_q, dish_free, c_rk, n_r, ndt, counters, m, beta0, a, b, c_kr,
                   mn, cst, tas, pw):  # fmt: skip
    """Take the seated data of ``idx`` out of their tables, keeping :func:`_sweep`'s caches."""
    for ii in range(idx.shape[0]):
        i = idx[ii]
        if z[i] < 0:
            continue
        r0 = z[i]
        k0 = table_dish[tab[i]]
        _remove(i, x, doc, z, tab, table_n, table_dish, table_free, dish_m, dish_n, dish_s,
                dish_q, dish_free, c_rk, n_r, ndt, counters)  # fmt: skip
        c_kr[k0, r0] -= 1.0
        if dish_m[k0] > 0:
            _refresh_dish(k0, dish_n, dish_s, dish_q, m, beta0, a, b, mn, cst, tas, pw)


# ------------------------------------------------------------------ Python driver
@dataclass
class GibbsSchedule:
    """Sec. 4.5.1: train sweeps, hyperparameter burn-in and period, test sweeps."""

    n_iter: int = 500
    burn_in: int = 100
    hyper_every: int = 10
    test_iter: int = 50


class IWTMGibbs:
    """State of the supervised CRF sampler over ``X`` (N x D) grouped in documents by
    ``indptr``, labels ``y`` (-1 = unlabelled/test)."""

    def __init__(self, T, prior: NGPrior, alpha0=50.0, gamma=1.0, alpha_init=1.0,
                 dish_cap=2000, optimize_alpha0=True, seed=0):  # fmt: skip
        if int(T) < 1:
            raise ConfigError("iwtm gibbs T", f"must be >= 1, got {T}")
        if dish_cap < 1:
            raise ConfigError("iwtm gibbs dish_cap", f"must be >= 1, got {dish_cap}")
        for nm, v in (("alpha0", alpha0), ("gamma", gamma), ("alpha_init", alpha_init)):
            if not v > 0:
                raise ConfigError(f"iwtm gibbs {nm}", f"must be > 0, got {v}")
        self.T, self.prior = int(T), prior
        self.alpha0, self.gamma = float(alpha0), float(gamma)
        self.alpha_init, self.dish_cap = float(alpha_init), int(dish_cap)
        self.optimize_alpha0 = bool(optimize_alpha0)
        self.seed = int(seed)
        self._calls = 0

    # -- state
    def setup(self, X, indptr, y, n_classes):
        X = np.ascontiguousarray(X, dtype=np.float64)
        if X.shape[1] != self.prior.dim:
            raise ConfigError("iwtm gibbs", f"data dim {X.shape[1]} != prior dim {self.prior.dim}")
        N = len(X)
        self.X = X
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.doc = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)).astype(np.int64)
        self.y = np.asarray(y, dtype=np.int64)
        lab = self.y[self.y >= 0]
        self.n_classes = int(n_classes)
        cnt = np.bincount(lab, minlength=self.n_classes).astype(float)
        if (cnt == 0).any():
            raise ConfigError("iwtm gibbs", f"a class has no labelled document: {cnt}")
        self.log_py = np.log(cnt / cnt.sum())
        self.alpha_y = np.full((self.n_classes, self.T), self.alpha_init)
        self.z = np.full(N, -1, np.int64)
        self.tab = np.full(N, -1, np.int64)
        self.table_n = np.zeros(N, np.int64)
        self.table_rest = np.zeros(N, np.int64)
        self.table_dish = np.zeros(N, np.int64)
        self.table_free = np.zeros(N, np.int64)
        K = self.dish_cap
        self.dish_m = np.zeros(K, np.int64)
        self.dish_n = np.zeros(K)
        self.dish_s = np.zeros((K, X.shape[1]))
        self.dish_q = np.zeros(K)
        self.dish_free = np.zeros(K, np.int64)
        self.c_rk = np.zeros((self.T, K), np.int64)
        self.n_r = np.zeros(self.T, np.int64)
        self.ndt = np.zeros((len(indptr) - 1, self.T), np.int64)
        # caches of the fast sweep (``_sweep``): table counts per dish x restaurant
        # (float64, one contiguous T-vector per dish) and the dishes' predictive pieces
        self.c_kr = np.zeros((K, self.T))
        self.dish_mn = np.zeros((K, X.shape[1]))
        self.dish_cst = np.zeros(K)
        self.dish_tas = np.ones(K)
        self.dish_pw = np.zeros(K)
        # m_total, table high water, n free tables, dish high water, n free dishes
        self.counters = np.zeros(5, np.int64)
        self.rng = np.random.default_rng(self.seed)
        return self

    def _args(self):
        p = self.prior
        return (self.X, self.doc, self.y, self.z, self.tab, self.table_n, self.table_rest,
                self.table_dish, self.table_free, self.dish_m, self.dish_n, self.dish_s,
                self.dish_q, self.dish_free, self.c_rk, self.n_r, self.ndt, self.counters,
                self.alpha_y, self.log_py, self.alpha0, self.gamma, p.m, p.beta0, p.a,
                p.b)  # fmt: skip

    def _cache(self):
        return (self.c_kr, self.dish_mn, self.dish_cst, self.dish_tas, self.dish_pw)

    def rebuild_cache(self):
        """Recompute the fast sweep's caches from the counts and dish statistics."""
        p = self.prior
        dish_cache(self.dish_m, self.dish_n, self.dish_s, self.dish_q, self.c_rk, p.m,
                   p.beta0, p.a, p.b, *self._cache())  # fmt: skip

    def sweep(self, idx, reference=False):
        """One pass over ``idx`` (:func:`_sweep`; ``reference``: the log-domain
        :func:`_sweep_reference`, which leaves the caches stale: tests only)."""
        idx = np.asarray(idx, np.int64)
        self._calls += 1
        u = self.rng.random((len(idx), 3))
        if reference:
            rc = _sweep_reference(idx, *self._args(), u)
        else:
            rc = _sweep(idx, *self._args(), u, *self._cache())
        if rc < 0:
            raise ConfigError(
                "iwtm gibbs dish_cap", f"capacity {self.dish_cap} dishes exhausted; raise it"
            )

    def n_dishes(self) -> int:
        return int((self.dish_m > 0).sum())

    # -- hyperparameters
    def update_alpha_y(self, docs):
        """Eq. 4.17: alpha_y = argmax sum_{d in y} log p(z_d | alpha_y), L-BFGS on log
        alpha with the analytic digamma gradient."""
        for c in range(self.n_classes):
            nd = self.ndt[docs[self.y[docs] == c]].astype(float)
            if not len(nd):
                continue
            Nd = nd.sum(1)

            def f(la, nd=nd, Nd=Nd):
                al = np.exp(la)
                A = al.sum()
                v = (gammaln(A) - gammaln(A + Nd)).sum() + (gammaln(al + nd) - gammaln(al)).sum()
                g = (digamma(A) - digamma(A + Nd)).sum() + (digamma(al + nd) - digamma(al)).sum(0)
                return -v, -g * al

            res = minimize(f, np.log(self.alpha_y[c]), jac=True, method="L-BFGS-B",
                           bounds=[(-12, 8)] * self.T)  # fmt: skip
            if not np.all(np.isfinite(res.x)):
                raise DivergenceError("iwtm gibbs alpha_y", self._calls, "non-finite")
            self.alpha_y[c] = np.exp(res.x)

    def update_alpha0(self):
        """alpha0 by the Antoniak table-count likelihood (our choice; the thesis, Sec. 4.5.1,
        says 'optimized' without a method)."""
        live = self.table_n[: self.counters[1]] > 0
        m_r = np.bincount(self.table_rest[: self.counters[1]][live], minlength=self.T)
        n_r = self.n_r.astype(float)
        use = n_r > 0

        def nll(la):
            a0 = math.exp(la)
            return -(m_r[use] * la + gammaln(a0) - gammaln(a0 + n_r[use])).sum()

        self.alpha0 = math.exp(minimize_scalar(nll, bounds=(-7, 10), method="bounded").x)

    # -- checkpoints (latentlab.checkpoint): everything but the data
    def state(self) -> dict:
        """The sampler's state: every attribute but the data ``X`` (the generator
        included), enough to continue bit for bit after :meth:`restore`."""
        return {k: v for k, v in self.__dict__.items() if k != "X"}

    def restore(self, state: dict, X) -> IWTMGibbs:
        """Continue from :meth:`state` on the same data ``X``."""
        self.__dict__.update(state)
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        return self

    # -- training and prediction
    def fit(self, X, indptr, y, n_classes, schedule: GibbsSchedule, callback=None,
            checkpoint=None):  # fmt: skip
        """Sec. 4.4.1's sampler for ``schedule.n_iter`` sweeps (the first seats the data
        one by one). ``checkpoint`` (:class:`latentlab.checkpoint.Checkpoint`): the state
        is saved after a sweep when due, and a saved state of this job is continued from
        (a state saved by :meth:`fold_in` means the fit is done)."""
        saved = checkpoint.load() if checkpoint is not None else None
        if saved is not None and saved["phase"] == "fold":
            return self.restore(saved["model"], X)
        if saved is not None:
            self.restore(saved["model"], X)
            start = saved["it"] + 1
        else:
            self.setup(X, indptr, y, n_classes)
            start = 1
        docs = np.where(self.y >= 0)[0]
        idx = np.concatenate([np.arange(self.indptr[d], self.indptr[d + 1]) for d in docs])
        if saved is None:
            self.sweep(self.rng.permutation(idx))  # sequential seating (initialisation)
        for it in range(start, schedule.n_iter):
            self.sweep(idx)
            if it >= schedule.burn_in and it % schedule.hyper_every == 0:
                self.update_alpha_y(docs)
                if self.optimize_alpha0:
                    self.update_alpha0()
            if callback is not None:
                callback(self, it)
            if checkpoint is not None and checkpoint.due():
                checkpoint.save({"phase": "fit", "it": it, "model": self.state()})
        return self

    def fold_in(self, docs, n_iter, checkpoint=None):
        """Fold in each document of ``docs`` alone: seat its data, ``n_iter`` sweeps over
        them with the class-marginalised prior (4.3), record N_dt, remove them again.
        ``checkpoint``: the state (and the rows done) is saved after a document when due,
        and a saved fold-in of this job is continued from."""
        saved = checkpoint.load() if checkpoint is not None else None
        if saved is not None and saved["phase"] == "fold":
            self.restore(saved["model"], self.X)
            out, keep, start = saved["out"], saved["y"], saved["j"] + 1
        else:
            out = np.zeros((len(docs), self.T), np.int64)
            keep, start = self.y.copy(), 0
        for j in range(start, len(docs)):
            d = docs[j]
            self.y[d] = -1
            idx = np.arange(self.indptr[d], self.indptr[d + 1])
            for _ in range(n_iter):
                self.sweep(idx)
            out[j] = self.ndt[d]
            self._unseat(idx)
            if checkpoint is not None and checkpoint.due():
                checkpoint.save({"phase": "fold", "j": j, "out": out, "y": keep,
                                 "model": self.state()})  # fmt: skip
        self.y = keep
        return out

    def _unseat(self, idx):
        a = self._args()
        _unseat_cached(np.asarray(idx, np.int64), a[0], a[1], a[3], a[4], a[5], a[7], a[8],
                       a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[22],
                       a[23], a[24], a[25], *self._cache())  # fmt: skip

    def predict(self, ndt):
        """Eq. 4.16: argmax_y p(y) p(z_d | alpha_y)."""
        return predict_class(ndt, self.alpha_y, self.log_py)

    def dish_predictive(self, X):
        """log f_k(x) of every datum under every live dish (for Table 4.1's hard
        quantisation to the highest-likelihood cluster). Returns (N x K_live, dish ids).
        N x K_live float64: at the document's scale (2.4M descriptors, ~1,240 dishes)
        24 GB; :meth:`dish_argmax` gives the quantisation without it."""
        live = np.where(self.dish_m > 0)[0]
        p = self.prior
        out = np.empty((len(X), len(live)))
        _pred_matrix(np.ascontiguousarray(X, np.float64), live, self.dish_n, self.dish_s,
                     self.dish_q, p.m, p.beta0, p.a, p.b, out)  # fmt: skip
        return out, live

    def dish_argmax(self, X, chunk: int = 65536):
        """The column of :meth:`dish_predictive` with the largest log f_k(x) for every
        datum (ties: the first), ``chunk`` rows at a time, and the number of live dishes:
        the same numbers (every entry is computed the same way, row by row) in
        ``chunk`` x K_live memory."""
        live = np.where(self.dish_m > 0)[0]
        p = self.prior
        X = np.asarray(X)
        words = np.empty(len(X), np.int64)
        buf = np.empty((min(chunk, len(X)), len(live)))
        for a in range(0, len(X), chunk):
            Xc = np.ascontiguousarray(X[a : a + chunk], np.float64)
            out = buf[: len(Xc)]
            _pred_matrix(Xc, live, self.dish_n, self.dish_s, self.dish_q, p.m, p.beta0,
                         p.a, p.b, out)  # fmt: skip
            words[a : a + len(Xc)] = out.argmax(1)
        return words, len(live)


@nb.njit(cache=True)
def _pred_matrix(X, live, dish_n, dish_s, dish_q, m, beta0, a, b, out):
    for i in range(X.shape[0]):
        for j in range(live.shape[0]):
            k = live[j]
            out[i, j] = log_predictive_stats(X[i], dish_n[k], dish_s[k], dish_q[k], m, beta0, a, b)


def predict_class(ndt, alpha_y, log_py):
    """Eq. 4.16 for each row of ``ndt``: argmax_y log p(y) + log p(z_d | alpha_y)."""
    ndt = np.asarray(ndt, dtype=float)
    A = alpha_y.sum(1)
    N = ndt.sum(1)
    s = (
        log_py[None, :]
        + gammaln(A)[None, :]
        - gammaln(A[None, :] + N[:, None])
        + (gammaln(alpha_y[None, :, :] + ndt[:, None, :]) - gammaln(alpha_y)[None]).sum(2)
    )
    return s.argmax(1)
