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
with topics frozen; :func:`latentlab.models.lda.theta.estimate_theta`), used for every
method so that only the topics differ. This is a documented choice: the thesis does not
say how test documents were inferred.
"""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import CompletionSplit


def doc_loglik(corpus: BowCorpus, phi_wk: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Per-document sum_i log sum_k theta_dk Phi_{w_i k}."""
    from latentlab.models.lda import kernels
    from latentlab.models.lda.theta import check_vocab

    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    check_vocab(corpus, phi_wk)
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
    from latentlab.models.lda.theta import estimate_theta

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
