"""Plain-numpy reference implementations of the LDA updates (for tests and reading).

Each function mirrors one numba kernel in ``kernels.py`` operation for operation, so
that the two agree bit for bit given the same uniforms.
"""

from __future__ import annotations

import numpy as np


def cgs_conditional(d, wi, ndk, nwk, nk, alpha, beta, beta_sum):
    """Unnormalised P(z_i = k | rest), counts already excluding token i (Eq. 4.21)."""
    return (ndk[d] + alpha) * (nwk[wi] + beta) * (1.0 / (nk + beta_sum))


def cgs_sweep(ptr, w, z, ndk, nwk, nk, alpha, beta, beta_sum, u):
    """Reference for :func:`kernels.cgs_sweep` (in place)."""
    K = len(nk)
    for d in range(len(ptr) - 1):
        for i in range(ptr[d], ptr[d + 1]):
            wi, k = w[i], z[i]
            ndk[d, k] -= 1
            nwk[wi, k] -= 1
            nk[k] -= 1
            c = np.cumsum(cgs_conditional(d, wi, ndk, nwk, nk, alpha, beta, beta_sum))
            k = min(int(np.searchsorted(c, u[i] * c[-1], side="right")), K - 1)
            z[i] = k
            ndk[d, k] += 1
            nwk[wi, k] += 1
            nk[k] += 1


def fixed_phi_sweep(w, z, ndk, phi_wk, alpha, u):
    """Reference for :func:`kernels.fixed_phi_sweep` (in place)."""
    K = len(ndk)
    for i in range(len(w)):
        ndk[z[i]] -= 1
        c = np.cumsum((ndk + alpha) * phi_wk[w[i]])
        k = min(int(np.searchsorted(c, u[i] * c[-1], side="right")), K - 1)
        z[i] = k
        ndk[k] += 1


# --------------------------------------------------------------------- CVB0 / CVB
def cvb_update(a, b, c, va=None, vb=None, vc=None):
    """gamma ∝ a b / c (CVB0, Eq. 4.28) times the second-order correction of Eq. 4.25,
    exp(-Va/2a^2 - Vb/2b^2 + Vc/2c^2), when variances are given. ``a, b, c`` already
    exclude the token and include the priors."""
    g = a * b / c
    if va is not None:
        g = g * np.exp(-va / (2 * a * a) - vb / (2 * b * b) + vc / (2 * c * c))
    return g / g.sum()


def cvb_sweep(indptr, wids, cnts, gamma, ndk, nwk, nk, alpha, beta, beta_sum, second_order):
    """Reference for :func:`kernels.cvb_sweep` (in place); variances recomputed from
    gamma each time (brute force)."""
    D = len(indptr) - 1
    d_of = np.repeat(np.arange(D), np.diff(indptr))
    for d in range(D):
        for e in range(indptr[d], indptr[d + 1]):
            w, m, go = wids[e], cnts[e], gamma[e].copy()
            a = ndk[d] - go + alpha
            b = nwk[w] - go + beta
            c = nk - go + beta_sum
            if second_order:
                v = cnts[:, None] * gamma * (1 - gamma)
                vo = go * (1 - go)
                va = v[d_of == d].sum(0) - vo
                vb = v[wids == w].sum(0) - vo
                vc = v.sum(0) - vo
                gn = cvb_update(a, b, c, va, vb, vc)
            else:
                gn = cvb_update(a, b, c)
            ndk[d] += m * (gn - go)
            nwk[w] += m * (gn - go)
            nk += m * (gn - go)
            gamma[e] = gn


# --------------------------------------------------------------------- MAP_LDA_U
def map_em_step(indptr, wids, cnts, ndk, nwk, nk, alpha, beta, W):
    """Reference E+M step of MAP_LDA_U (Eqs. 4.57-4.59, 4.65), vectorised."""
    D = len(indptr) - 1
    d_of = np.repeat(np.arange(D), np.diff(indptr))
    phi = (nwk + beta - 1) / (nk + W * (beta - 1))
    g = phi[wids] * (ndk[d_of] + alpha - 1)
    g = cnts[:, None] * g / g.sum(1, keepdims=True)
    ndk2 = np.zeros_like(ndk)
    np.add.at(ndk2, d_of, g)
    nwk2 = np.zeros_like(nwk)
    np.add.at(nwk2, wids, g)
    return ndk2, nwk2, g.sum(0)


# --------------------------------------------------------------------- SCVB0
def scvb0_gamma(ntheta_d, nphi_w, nz, alpha, beta, beta_sum):
    """Eq. 4.43: gamma ∝ (N^Theta_dk + alpha_k)(N^Phi_wk + beta)/(N^Z_k + W beta)."""
    g = (ntheta_d + alpha) * (nphi_w + beta) / (nz + beta_sum)
    return g / g.sum()


def theta_update(ntheta, gamma, Cd, rho):
    """One per-token document update, Eq. 4.44: (1 - rho) N^Theta + rho C_d gamma."""
    return (1 - rho) * ntheta + rho * Cd * gamma


def theta_update_clumped(ntheta, gamma, Cd, rho, m):
    """Eq. 4.49: m updates with gamma fixed, summed as a geometric series."""
    f = (1 - rho) ** m
    return f * ntheta + Cd * gamma * (1 - f)


def scvb0_minibatch(
    docs, indptr, wids, cnts, doclen, nphi, nz, alpha, beta, C, rho_phi, rho_theta, n_burn,
    theta0,
):  # fmt: skip
    """Dense reference of one SCVB0 minibatch (Eqs. 4.43-4.49); returns the new
    ``(nphi, nz)`` and the final N^Theta of each document. ``rho_theta(t)`` is the
    document schedule, ``rho_phi`` the topic step of this minibatch."""
    W, K = nphi.shape
    hat_phi = np.zeros_like(nphi)
    hat_z = np.zeros(K)
    n_tok = sum(doclen[d] for d in docs)
    thetas = []
    for j, d in enumerate(docs):
        nth = doclen[d] * theta0[j]
        t = 0
        for p in range(n_burn + 1):
            for e in range(indptr[d], indptr[d + 1]):
                w, m = wids[e], cnts[e]
                g = scvb0_gamma(nth, nphi[w], nz, alpha, beta, W * beta)
                t += 1
                r = rho_theta(t)
                if m == 1:
                    nth = theta_update(nth, g, doclen[d], r)
                else:
                    nth = theta_update_clumped(nth, g, doclen[d], r, m)
                if p == n_burn:
                    hat_phi[w] += m * g
                    hat_z += m * g
        thetas.append(nth)
    sf = C / n_tok
    nphi = (1 - rho_phi) * nphi + rho_phi * sf * hat_phi
    nz = (1 - rho_phi) * nz + rho_phi * sf * hat_z
    return nphi, nz, np.array(thetas)


def online_em_map_lda_u(dids, wids, doclen, ntheta, nphi, nz, alpha, beta, C, rho_phi, rho_theta):
    """Online EM for MAP_LDA_U, one token per step (Eqs. 4.57, 4.59, 4.63, 4.66-4.68).

    Written in the MAP parameterisation: the M-step parameters are
    Phi_hat = (N^Phi + beta - 1)/(N^Z + W(beta - 1)),
    theta_hat_d = (N^Theta_d + alpha - 1)/(C_d + K(alpha - 1)) (Eq. 4.59),
    the responsibility is gamma ∝ Phi_hat_w theta_hat_d (Eq. 4.57), and the expected
    sufficient statistics C Y, C_d gamma, C gamma (Eq. 4.63) are averaged in with
    step sizes rho_phi[i] and rho_theta(t_d) (t_d counts the tokens of d seen so far).
    Returns the final ``(ntheta, nphi, nz)``; inputs are not modified.
    """
    ntheta, nphi, nz = ntheta.copy(), nphi.copy(), nz.copy()
    W, K = nphi.shape
    tdoc = np.zeros(len(ntheta), dtype=np.int64)
    for i, (d, w) in enumerate(zip(dids, wids, strict=True)):
        phi_hat = (nphi[w] + beta - 1) / (nz + W * (beta - 1))
        theta_hat = (ntheta[d] + alpha - 1) / (doclen[d] + K * (alpha - 1))
        g = phi_hat * theta_hat
        g = g / g.sum()
        tdoc[d] += 1
        rt = rho_theta(tdoc[d])
        ntheta[d] = (1 - rt) * ntheta[d] + rt * doclen[d] * g
        y = np.zeros_like(nphi)
        y[w] = g
        nphi = (1 - rho_phi[i]) * nphi + rho_phi[i] * C * y
        nz = (1 - rho_phi[i]) * nz + rho_phi[i] * C * g
    return ntheta, nphi, nz


# --------------------------------------------------------------------- SVB local step
def svb_local(ids, cts, exp_elog_beta_wk, alpha, gamma0, n_local):
    """Hoffman's per-document E-step (onlineldavb.py ``do_e_step``), ``n_local`` passes.
    Returns ``(gamma, sstats_rows)`` where sstats_rows[j] = n_dw phi_dwk for word ids[j]."""
    from scipy.special import digamma

    gamma = gamma0.copy()
    eb = exp_elog_beta_wk[ids]  # (n_words, K)
    eth = np.exp(digamma(gamma) - digamma(gamma.sum()))
    for _ in range(n_local):
        pn = eb @ eth + 1e-100
        gamma = alpha + eth * ((cts / pn) @ eb)
        eth = np.exp(digamma(gamma) - digamma(gamma.sum()))
    pn = eb @ eth + 1e-100
    return gamma, (cts / pn)[:, None] * eth[None, :] * eb
