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


def drift_dataset(N, T, W, eps, alpha, gamma, delta, rng, min_on: int = 1):
    """Z from the DRIFT prior with K = len(W) features: a_k ~ Beta(α/K, 1), b_k ~ Beta(γ, δ),
    redrawn until every feature is on in at least ``min_on`` (actor, time) cells (digest
    §6.1: the features must be identifiable). Returns Z, Y, a, b."""
    W = np.asarray(W, float)
    K = W.shape[0]
    for _ in range(10_000):
        a = rng.beta(alpha / K, 1.0, K)
        b = rng.beta(gamma, delta, K)
        Z = draw_chains(a, b, T, N, rng)
        if (Z.sum(axis=(0, 1)) >= min_on).all():
            break
    else:  # pragma: no cover - needs absurd settings
        raise RuntimeError("no Z with every feature on; raise alpha")
    return Z, sample_networks(Z, W, eps, rng), a, b


def enron_like(
    N, T, K, w_diag, w_off, eps, a, b, t_sparse, a_late, b_late, n_persistent, persistent_logit, rng
):
    """A dense-then-sparsifying network (digest §7.3): DRIFT chains with birth ``a`` and
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
