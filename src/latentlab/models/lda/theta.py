"""Document-topic proportions with the topics frozen: the SCVB0/CVB0 document update at
its fixed point (Eq. 4.43 with topics frozen). SCVB0's ``theta()`` and the
held-out evaluation (:mod:`latentlab.evaluation.heldout`) both use it; it lives with the
models so that no model imports ``latentlab.evaluation``."""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import DataError


def estimate_theta(
    corpus: BowCorpus, phi_wk: np.ndarray, alpha, n_iter: int = 100, tol: float = 1e-6
) -> np.ndarray:
    """theta (D x K) of each document of ``corpus`` with topics ``phi_wk`` (W x K) frozen:
    the fixed point of N_dk = sum_i m_i gamma_ik, gamma_ik ∝ (N_dk + alpha_k) Phi_wk,
    then theta_dk = (N_dk + alpha_k)/(C_d + sum alpha) (the Rao-Blackwellised estimate of
    thesis Sec. 4.1.3)."""
    from latentlab.models.lda import kernels

    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    check_vocab(corpus, phi_wk)
    K = phi_wk.shape[1]
    alpha = np.broadcast_to(np.asarray(alpha, dtype=np.float64), (K,)).copy()
    theta = np.empty((corpus.n_docs, K))
    kernels.theta_fixed_point(
        corpus.indptr, corpus.word_ids, corpus.counts.astype(np.float64), phi_wk, alpha,
        int(n_iter), float(tol), theta,
    )  # fmt: skip
    return theta


def check_vocab(corpus, phi_wk):
    """DataError unless the corpus's word ids index the W rows of ``phi_wk``."""
    W = phi_wk.shape[0]
    if corpus.n_vocab != W or (len(corpus.word_ids) and corpus.word_ids.max() >= W):
        raise DataError(
            corpus.metadata.get("source"),
            f"held-out vocabulary ({corpus.n_vocab}) does not match the topics' W={W}",
        )
