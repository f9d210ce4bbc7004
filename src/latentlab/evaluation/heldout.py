"""Held-out evaluation of topic models: document completion and perplexity.

The split itself is :func:`latentlab.data.splits.completion_split`.

Document completion (Foulds 2014 thesis, Sec. 4.3.1 and Sec. 5.1.5, Eq. 5.26): each
held-out document's tokens are split at random into an observed half and a scored
half (seeded; the same split for every method). The thesis says only "split each test
document in half"; random halves are our reading. The document's theta is estimated on
the observed half with the topics frozen, and the scored half is evaluated as
sum_i log sum_k theta_dk Phi_{w_i k}. The summary is the per-token average over all
scored tokens; perplexity = exp(-average).

The theta estimator is the SCVB0/CVB0 document update at its fixed point (Eq. 4.43
with topics frozen), used for every method so that only the topics differ. This is a
documented choice: the thesis does not say how test documents were inferred.
"""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import CompletionSplit
from latentlab.errors import DataError


def estimate_theta(
    corpus: BowCorpus, phi_wk: np.ndarray, alpha, n_iter: int = 100, tol: float = 1e-6
) -> np.ndarray:
    """theta (D x K) of each document of ``corpus`` with topics ``phi_wk`` (W x K) frozen:
    the fixed point of N_dk = sum_i m_i gamma_ik, gamma_ik ∝ (N_dk + alpha_k) Phi_wk,
    then theta_dk = (N_dk + alpha_k)/(C_d + sum alpha) (the Rao-Blackwellised estimate
    of thesis Sec. 4.1.3)."""
    from latentlab.models.lda import kernels

    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    _check_vocab(corpus, phi_wk)
    K = phi_wk.shape[1]
    alpha = np.broadcast_to(np.asarray(alpha, dtype=np.float64), (K,)).copy()
    theta = np.empty((corpus.n_docs, K))
    kernels.theta_fixed_point(
        corpus.indptr, corpus.word_ids, corpus.counts.astype(np.float64), phi_wk, alpha,
        int(n_iter), float(tol), theta,
    )  # fmt: skip
    return theta


def _check_vocab(corpus, phi_wk):
    W = phi_wk.shape[0]
    if corpus.n_vocab != W or (len(corpus.word_ids) and corpus.word_ids.max() >= W):
        raise DataError(
            corpus.metadata.get("source"),
            f"held-out vocabulary ({corpus.n_vocab}) does not match the topics' W={W}",
        )


def doc_loglik(corpus: BowCorpus, phi_wk: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Per-document sum_i log sum_k theta_dk Phi_{w_i k}."""
    from latentlab.models.lda import kernels

    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    _check_vocab(corpus, phi_wk)
    out = np.empty(corpus.n_docs)
    kernels.heldout_loglik(
        corpus.indptr, corpus.word_ids, corpus.counts.astype(np.float64), phi_wk,
        np.ascontiguousarray(theta), out,
    )  # fmt: skip
    return out


def document_completion(
    split: CompletionSplit, phi_wk: np.ndarray, alpha, n_iter: int = 100, tol: float = 1e-6
) -> float:
    """Per-token held-out log-likelihood of the scored halves (document completion)."""
    theta = estimate_theta(split.observed, phi_wk, alpha, n_iter, tol)
    ll = doc_loglik(split.scored, phi_wk, theta)
    return float(ll.sum() / split.n_scored_tokens)


def perplexity(per_token_loglik: float) -> float:
    """exp(-per-token log-likelihood)."""
    return float(np.exp(-per_token_loglik))


def completion_loglik(model, split: CompletionSplit, n_iter: int = 100, tol: float = 1e-6):
    """Document completion for any fitted model of the one interface (issue 9, point 6).

    A model with its own inference for new documents (``model.completion_loglik(split)``,
    e.g. the CTM) uses it. Otherwise the model's topics ``phi()`` (K x W) are frozen with
    its Dirichlet document prior (``prior_weights()[0]`` of the HDP models, else ``alpha``)
    and :func:`document_completion` scores the split (the same theta estimator for every
    method, so only the topics and the prior differ). Returns log-likelihood per scored token.
    """
    own = getattr(model, "completion_loglik", None)
    if callable(own):
        return float(own(split))
    if hasattr(model, "prior_weights"):
        prior = model.prior_weights()[0]
    elif hasattr(model, "alpha"):
        prior = model.alpha
    else:
        raise TypeError(f"{type(model).__name__} has no document prior (alpha) to complete with")
    return document_completion(split, model.phi().T, prior, n_iter, tol)
