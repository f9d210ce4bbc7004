"""Document-topic proportions with the topics frozen: the SCVB0/CVB0 document update at
its fixed point (Eq. 4.43 with topics frozen), and document completion with it (Sec.
4.3.1, Eq. 5.26). SCVB0's ``theta()``, every Dirichlet-prior topic model's ``transform``
and ``log_predictive`` (:mod:`latentlab.models.base`) and the held-out evaluation
(:mod:`latentlab.evaluation.heldout`) use them; they live with the models so that no model
imports ``latentlab.evaluation``."""

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


def doc_loglik(corpus: BowCorpus, phi_wk: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Per-document sum_i log sum_k theta_dk Phi_{w_i k} (the summand of Eq. 5.26)."""
    from latentlab.models.lda import kernels

    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    check_vocab(corpus, phi_wk)
    out = np.empty(corpus.n_docs)
    kernels.heldout_loglik(
        corpus.indptr, corpus.word_ids, corpus.counts.astype(np.float64), phi_wk,
        np.ascontiguousarray(theta), out,
    )  # fmt: skip
    return out


def document_completion(split, phi_wk: np.ndarray, alpha, n_iter: int = 100, tol: float = 1e-6):
    """Per-token held-out log-likelihood of ``split.scored`` (document completion, Sec.
    4.3.1, Eq. 5.26): theta by :func:`estimate_theta` on ``split.observed`` with the topics
    ``phi_wk`` (W x K) and the document prior ``alpha`` frozen."""
    theta = estimate_theta(split.observed, phi_wk, alpha, n_iter, tol)
    ll = doc_loglik(split.scored, phi_wk, theta)
    return float(ll.sum() / split.n_scored_tokens)
