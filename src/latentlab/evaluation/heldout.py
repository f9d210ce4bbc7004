"""Held-out evaluation of topic models: document completion and perplexity.

The split itself is :func:`latentlab.data.splits.completion_split`.

Document completion (Foulds 2014 thesis, Sec. 4.3.1 and Sec. 5.1.5, Eq. 5.26): each
held-out document's tokens are split at random into an observed half and a scored
half (seeded; the same split for every method). The thesis says only "split each test
document in half"; random halves are our reading. The document's theta is estimated on
the observed half with the topics frozen, and the scored half is evaluated as
sum_i log sum_k theta_dk Phi_{w_i k}. The summary is the per-token average over all
scored tokens; perplexity = exp(-average).

A fitted model scores a split itself, ``model.log_predictive(split)`` (the protocol of
:mod:`latentlab.models.base`): with these functions for the Dirichlet-prior models, with
its own inference for the CTM.

The theta estimator is the SCVB0/CVB0 document update at its fixed point (Eq. 4.43
with topics frozen; :func:`latentlab.models.lda.theta.estimate_theta`), used for every
method so that only the topics differ. This is a documented choice: the thesis does not
say how test documents were inferred.
"""

from __future__ import annotations

import numpy as np

from latentlab.data.splits import CompletionSplit
from latentlab.models.lda.theta import doc_loglik, document_completion

__all__ = ["CompletionSplit", "doc_loglik", "document_completion", "perplexity"]


def perplexity(per_token_loglik: float) -> float:
    """exp(-per-token log-likelihood)."""
    return float(np.exp(-per_token_loglik))
