"""Incremental variational inference for IWTM (Waters 2014, ch. 7): paring back (prune
empty components) and EXTEND (Sec. 7.3.2, Eqs 7.1-7.6).

EXTEND(M, M') concatenates the clusters and master pseudo-counts (7.1-7.2), matches the
topics of M' to those of M by the Hungarian algorithm on the documents' mean topic
weights (7.3; the printed "W - W P" is read W - W' P), concatenates the topic
pseudo-counts zeta with the permuted zeta' (7.4-7.5) and builds the block-diagonal
mapping (7.6). Both models are pruned first (ours; the thesis does not say) so an EXTEND does not
add the whole initial truncation. SVI's N_doc/|S| follows the corpus given to the next
``fit`` call (the document count after growth).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment

from latentlab.errors import ConfigError, DataError

from .cavi import IWTMCavi


def _rows_to_map(B: sp.csr_matrix, J: int) -> tuple[np.ndarray, np.ndarray]:
    """A K x C sparse mapping (rows with at most J non-zeros, any row sums) as the dense
    (map_idx, map_val) arrays: rows normalised, padded with distinct zero-weight
    clusters; a row with no mass is put on cluster 0 (the caller orders clusters)."""
    K, C = B.shape
    B = B.tocsr()
    B.sum_duplicates()
    idx = np.zeros((K, J), np.int64)
    val = np.zeros((K, J))
    for k in range(K):
        a, b = B.indptr[k], B.indptr[k + 1]
        cols, v = B.indices[a:b], B.data[a:b]
        keep = v > 0
        cols, v = cols[keep], v[keep]
        if len(cols) > J:
            top = np.argsort(-v, kind="stable")[:J]
            cols, v = cols[top], v[top]
        if v.sum() <= 0:
            cols, v = np.array([0]), np.array([1.0])
        pad = np.setdiff1d(np.arange(min(C, J + len(cols))), cols)[: J - len(cols)]
        idx[k] = np.concatenate([cols, pad])
        val[k, : len(cols)] = v / v.sum()
    return idx, val


def _set_state(m: IWTMCavi, q, n_c, zeta, B: sp.csr_matrix):
    """Install new global arrays on ``m`` (sizes C, K change) and recompute the sticks."""
    m.C, m.K = len(n_c), zeta.shape[1]
    m.J = min(m.s.map_top, m.C)
    m.c_top = min(m.s.c_top, m.C)
    m.q, m.n_c, m.zeta_stick = q, np.asarray(n_c, dtype=np.float64), zeta
    m.map_idx, m.map_val = _rows_to_map(B, m.J)
    for attr in ("t_order", "c_order"):  # orders of the old index space are void
        if hasattr(m, attr):
            delattr(m, attr)
    m.update_xi()
    m._topic_sticks()
    m._master_sticks()
    return m


def prune(m: IWTMCavi, threshold: float = 1.0, slack: int = 1) -> dict:
    """Paring back made explicit: drop clusters with n_c < threshold and atoms with
    sum_t zeta_tk < threshold, keeping ``slack`` empty ones of each as the truncation
    slots (the last-ranked slot should be empty: only then is the decreasing sort of
    Sec. 5.4.5 optimal, our finding). Kept components keep
    their relative index order; mapping rows lose the pruned clusters and are
    renormalised. Returns what was removed (counts and mass)."""
    if threshold < 0 or slack < 0:
        raise ConfigError(
            "iwtm ivi prune", f"threshold and slack must be >= 0, got {threshold}, {slack}"
        )
    n_c = np.asarray(m.n_c, dtype=np.float64)
    z = m.zeta_stick.sum(0)

    def keep(counts, order):
        used = counts >= threshold
        rest = [j for j in order[::-1] if not used[j]][:slack]  # the lowest-ranked empties
        used[rest] = True
        return np.where(used)[0]

    kc = keep(n_c, np.argsort(-n_c, kind="stable"))
    kk = keep(z, np.argsort(-z, kind="stable"))
    B = m._beta_sparse().tocsr()[kk][:, kc]
    info = {"clusters_removed": int(m.C - len(kc)), "atoms_removed": int(m.K - len(kk)),
            "cluster_mass_removed": float(n_c.sum() - n_c[kc].sum()),
            "atom_mass_removed": float(z.sum() - z[kk].sum())}  # fmt: skip
    q = type(m.q)(m.q.mt[kc].copy(), m.q.nu[kc].copy(), m.q.chi1[kc].copy(), m.q.chi2[kc].copy())
    _set_state(m, q, n_c[kc], m.zeta_stick[:, kk].copy(), B)
    return info


def match_topics(W: np.ndarray, W2: np.ndarray) -> np.ndarray:
    """perm with perm[t] = the topic of M' matched to topic t of M, minimising
    ||W - W' P||_F (Eq. 7.3) by the Hungarian algorithm on cost_ts = ||W_t - W'_s||^2."""
    W, W2 = np.asarray(W, dtype=np.float64), np.asarray(W2, dtype=np.float64)
    if W.shape != W2.shape or W.ndim != 2:
        raise DataError("iwtm ivi topic weights", f"W {W.shape} and W' {W2.shape} must match")
    cost = (W * W).sum(0)[:, None] + (W2 * W2).sum(0)[None, :] - 2 * W.T @ W2
    r, c = linear_sum_assignment(cost)
    perm = np.empty(W.shape[1], np.int64)
    perm[r] = c
    return perm


def extend(m: IWTMCavi, m2: IWTMCavi, W: np.ndarray, W2: np.ndarray) -> np.ndarray:
    """EXTEND (Eqs 7.1-7.6) in place on ``m``: clusters and xi concatenated, zeta ⊕
    zeta' P*, block-diagonal mapping. W, W': mean topic weights of the same documents
    under m and m2. Returns the topic permutation."""
    if m.T != m2.T or m.prior.dim != m2.prior.dim:
        raise ConfigError("iwtm ivi extend", "the two models differ in T or data dimension")
    perm = match_topics(W, W2)
    q, q2 = m.q, m2.q
    qx = type(q)(
        *(np.concatenate([getattr(q, a), getattr(q2, a)]) for a in ("mt", "nu", "chi1", "chi2"))
    )
    zeta = np.hstack([m.zeta_stick, m2.zeta_stick[perm]])
    B = sp.block_diag([m._beta_sparse(), m2._beta_sparse()], format="csr")
    _set_state(m, qx, np.concatenate([m.n_c, m2.n_c]), zeta, B)
    return perm


def corr_docs(n_doc: int, n_corr: int, rng: np.random.Generator) -> np.ndarray:
    """The N_corr documents (sorted) on which topics are matched (all if fewer)."""
    if n_doc < 1:
        raise DataError("iwtm ivi extend", "EXTEND called with no documents")
    if n_doc <= n_corr:
        return np.arange(n_doc)
    return np.sort(rng.choice(n_doc, n_corr, replace=False))
