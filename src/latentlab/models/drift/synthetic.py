"""Synthetic DRIFT networks with known features (Sec. 2.6.1) and an Enron-like network."""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from latentlab.models.drift.sampler import draw_chains


def sample_networks(Z, W, eps, rng, extra_logit=None) -> np.ndarray:
    """Y^(t)_ij ~ Bern(σ(z_i W z_jᵀ + ε)), symmetric, no self-loops (Eq. 2.18)."""
    T, N, _ = Z.shape
    Zf = Z.astype(float)
    eta = np.einsum("tia,ab,tjb->tij", Zf, W, Zf) + eps
    if extra_logit is not None:
        eta = eta + extra_logit
    U = rng.random((T, N, N))
    Y = (U < expit(eta)).astype(np.int8)
    Y = np.triu(Y, 1)
    return Y + Y.transpose(0, 2, 1)


def drift_dataset(N, T, W, eps, alpha, gamma, delta, rng, min_on: int = 1, a=None, b=None):
    """Z from the DRIFT chains (Eq. 2.19) with K = len(W) features, redrawn until every
    feature is on in at least ``min_on`` (actor, time) cells (Sec. 2.6.1 asks for features
    "chosen such that the features were identifiable" without giving W or a rule; ours).
    Birth and persistence probabilities: ``a`` / ``b`` when given
    (the same value for every feature; Pr(Z | a, b) of Eq. 2.19), else drawn from the
    finite prior a_k ~ Beta(α/K, 1), b_k ~ Beta(γ, δ). Returns Z, Y, a, b."""
    W = np.asarray(W, float)
    K = W.shape[0]
    for _ in range(10_000):
        ak = np.full(K, float(a)) if a is not None else rng.beta(alpha / K, 1.0, K)
        bk = np.full(K, float(b)) if b is not None else rng.beta(gamma, delta, K)
        Z = draw_chains(ak, bk, T, N, rng)
        if (Z.sum(axis=(0, 1)) >= min_on).all():
            break
    else:  # pragma: no cover - needs absurd settings
        raise RuntimeError("no Z with every feature on; raise alpha")
    return Z, sample_networks(Z, W, eps, rng), ak, bk


def edge_autocorrelation(Y) -> float:
    """Lag-1 correlation of the dyads y_ij^(t), y_ij^(t+1) over pairs i < j and t (how much
    a network predicts the next one)."""
    Y = np.asarray(Y)
    iu = np.triu_indices(Y.shape[1], 1)
    y = Y[:, iu[0], iu[1]].astype(float)
    x0, x1 = y[:-1].ravel(), y[1:].ravel()
    if x0.std() == 0 or x1.std() == 0:
        return float("nan")
    return float(np.corrcoef(x0, x1)[0, 1])


def enron_like(
    N, T, K, w_diag, w_off, eps, a, b, t_sparse, a_late, b_late, n_persistent, persistent_logit, rng
):
    """A dense-then-sparsifying network (ours, a stand-in for the Enron data of Sec. 2.6.2;
    not in the document): DRIFT chains with birth ``a`` and
    persistence ``b`` up to ``t_sparse``, then ``a_late``/``b_late`` (features die out),
    plus ``n_persistent`` pairs with ``persistent_logit`` added (edges almost every month)."""
    W = np.full((K, K), float(w_off))
    np.fill_diagonal(W, w_diag)
    Z = np.zeros((T, N, K), np.int8)
    prev = np.zeros((N, K), np.int8)
    for t in range(T):
        aa, bb = (a, b) if t < t_sparse else (a_late, b_late)
        prev = (rng.random((N, K)) < np.where(prev == 1, bb, aa)).astype(np.int8)
        Z[t] = prev
    extra = np.zeros((N, N))
    iu = np.triu_indices(N, 1)
    pick = rng.choice(len(iu[0]), n_persistent, replace=False)
    extra[iu[0][pick], iu[1][pick]] = persistent_logit
    extra = extra + extra.T
    return Z, sample_networks(Z, W, eps, rng, extra), W


# ------------------------------------------------------------- LFRM_LDA / BMF_LDA (App. A)
def _features(n, K, p, rng, min_owners: int = 2):
    """Planted binary features: z_ik ~ Bern(p); a row left without a feature gets one at
    random, and Z is redrawn until every feature has >= ``min_owners`` rows
    (identifiable)."""
    for _ in range(10_000):
        Z = (rng.random((n, K)) < p).astype(np.int8)
        empty = np.flatnonzero(~Z.any(axis=1))
        Z[empty, rng.integers(0, K, len(empty))] = 1
        if (Z.sum(0) >= min_owners).all():
            return Z
    raise ValueError(f"no feature matrix with n={n}, K={K}, p={p}: raise p or n")


def _link_draw(eta, link, gauss_sd, rng):
    if link == "logistic":
        return (rng.random(eta.shape) < expit(eta)).astype(float)
    if link == "poisson":
        return rng.poisson(np.exp(np.minimum(eta, 20.0))).astype(float)
    return eta + gauss_sd * rng.standard_normal(eta.shape)


def _documents(specs, Zbar, Phi, gamma, lam, alpha_plus, rng):
    """LDA documents with the priors of Eqs. 2.30 / 2.31 (A.1, A.2; A.6-A.8 with Z̄).
    ``specs``: (sender entity, receiver entity or -1, length)."""
    K, V = Phi.shape
    rs = Zbar.sum(1)
    share = np.where(rs[:, None] > 0, Zbar / np.maximum(rs, 1)[:, None], 1.0 / K)
    ptr, w, snd, rcv = [0], [], [], []
    for s, r, n in specs:
        part = share[s] if r < 0 else lam * share[s] + (1 - lam) * share[r]
        alpha = alpha_plus * (gamma * part + (1 - gamma) / K)
        theta = rng.dirichlet(alpha)
        topics = rng.choice(K, n, p=theta)
        words = np.empty(n, np.int32)
        for k in np.unique(topics):
            sel = topics == k
            words[sel] = rng.choice(V, int(sel.sum()), p=Phi[k])
        w.extend(words.tolist())
        ptr.append(ptr[-1] + n)
        snd.append(s), rcv.append(r)
    return np.array(ptr, np.int64), np.array(w, np.int32), np.array(snd), np.array(rcv)


def lfrm_lda_dataset(
    N, K, V, link, w_diag, w_off, eps, p_feature, node_docs, edge_docs, node_len, edge_len,
    gamma, lam, alpha_plus, beta_gen, gauss_sd, rng,
):  # fmt: skip
    """Synthetic LFRM_LDA data (Sec. 2.7.1): planted Z, directed network Y with
    η_ij = z_i W z_jᵀ + ε (W = w_off, diagonal w_diag), topics Φ_k ~ Dir(beta_gen), one
    topic per feature; a node document per node and/or an edge document per pair with
    y_ij > 0 (the Enron setting: text on the emails sent), lengths 1 + Poisson(len)."""
    Z = _features(N, K, p_feature, rng)
    W = np.full((K, K), float(w_off))
    np.fill_diagonal(W, w_diag)
    Zf = Z.astype(float)
    eta = Zf @ W @ Zf.T + eps
    O = ~np.eye(N, dtype=bool)
    Y = np.where(O, _link_draw(eta, link, gauss_sd, rng), 0.0)
    Phi = rng.dirichlet(np.full(V, beta_gen), K)
    specs = []
    if node_docs:
        specs += [(i, -1, 1 + rng.poisson(node_len)) for i in range(N)]
    if edge_docs:
        ii, jj = np.nonzero(O & (Y > 0))
        specs += [(int(i), int(j), 1 + rng.poisson(edge_len)) for i, j in zip(ii, jj, strict=True)]
    ptr, w, snd, rcv = _documents(specs, Z, Phi, gamma, lam, alpha_plus, rng)
    return {
        "Y": Y, "O": O, "ptr": ptr, "w": w, "snd": snd, "rcv": rcv, "V": V,
        "Z_true": Z, "Phi_true": Phi, "W_true": W, "allowed": np.ones((N, K), np.int8),
    }  # fmt: skip


def bmf_lda_dataset(
    N, M, K1, K2, V, link, w_diag, w_off, eps, p_feature, obs_frac, node_docs, edge_len,
    node_len, gamma, lam, alpha_plus, beta_gen, gauss_sd, rng,
):  # fmt: skip
    """Synthetic BMF_LDA data (Eqs. A.3-A.8, example 2): N users x M items, row features
    Z¹ (N, K¹) and column features Z² (M, K²), W (K¹, K²) = w_off with w_diag on its
    leading diagonal, ratings on a random ``obs_frac`` of the cells, a review (edge
    document) on every observed cell, optional node documents; K¹ + K² topics. Returned
    stacked (row entities, then column entities) with the padded Z̄."""
    Z1 = _features(N, K1, p_feature, rng)
    Z2 = _features(M, K2, p_feature, rng)
    W12 = np.full((K1, K2), float(w_off))
    W12[np.arange(min(K1, K2)), np.arange(min(K1, K2))] = w_diag
    eta = Z1.astype(float) @ W12 @ Z2.T.astype(float) + eps
    O = rng.random((N, M)) < obs_frac
    Y = np.where(O, _link_draw(eta, link, gauss_sd, rng), 0.0)
    K = K1 + K2
    Zbar = np.zeros((N + M, K), np.int8)
    Zbar[:N, :K1] = Z1
    Zbar[N:, K1:] = Z2
    Phi = rng.dirichlet(np.full(V, beta_gen), K)
    ii, jj = np.nonzero(O)
    specs = [(int(i), N + int(j), 1 + rng.poisson(edge_len)) for i, j in zip(ii, jj, strict=True)]
    if node_docs:
        specs += [(e, -1, 1 + rng.poisson(node_len)) for e in range(N + M)]
    ptr, w, snd, rcv = _documents(specs, Zbar, Phi, gamma, lam, alpha_plus, rng)
    W = np.zeros((K, K))
    W[:K1, K1:] = W12
    allowed = np.zeros((N + M, K), np.int8)
    allowed[:N, :K1] = 1
    allowed[N:, K1:] = 1
    Ys = np.zeros((N + M, N + M))
    Os = np.zeros((N + M, N + M), bool)
    Ys[:N, N:] = Y
    Os[:N, N:] = O
    return {
        "Y": Ys, "O": Os, "ptr": ptr, "w": w, "snd": snd, "rcv": rcv, "V": V,
        "Z_true": Zbar, "Phi_true": Phi, "W_true": W, "allowed": allowed,
        "n_rows": N, "K1": K1,
    }  # fmt: skip
