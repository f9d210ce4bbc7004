"""Likelihood estimators for topic models (Foulds 2014, ch. 5) and their exact ground truth.

* :func:`exact_log_evidence` — exact log P(w | Phi, alpha) by DP over topic-count vectors (ours)
* :func:`left_to_right` — Wallach et al. (2009b), particles matched to a sweep budget (Sec. 5.3)
* :func:`standard_ais` — Wallach path prior -> posterior, exact Polya start (Eqs. 5.21-5.23)
* :func:`ratio_ais` — model 2 -> model 1, convex (Eq. 5.32) or geometric (Eqs. 5.29-5.31) path
* :func:`ratio_ais_completion` — document-completion ratio (Eqs. 5.37-5.45)
* :func:`iteration_ais` — along a training run's snapshots (Eqs. 5.34-5.36)
* :func:`prior_is`, :func:`harmonic_mean` — simple estimators (Eqs. 5.5, 5.6)

All work on the log scale, take explicit seeds, and report token-level Gibbs updates.
Numba kernels live in :mod:`.kernels`, their numpy twins in :mod:`.reference`.
"""

from latentlab.evaluation.ais.estimators import (
    DEFAULT_FLOOR,
    Estimate,
    TopicModel,
    align_topics,
    check_compatible,
    corpus_token_lists,
    harmonic_mean,
    iteration_ais,
    left_to_right,
    lr_particles,
    pack_docs,
    prior_is,
    ratio_ais,
    ratio_ais_completion,
    standard_ais,
)
from latentlab.evaluation.ais.reference import (
    brute_force_log_evidence,
    exact_log_evidence,
    log_joint,
    log_polya,
)

__all__ = [
    "DEFAULT_FLOOR",
    "Estimate",
    "TopicModel",
    "align_topics",
    "brute_force_log_evidence",
    "check_compatible",
    "corpus_token_lists",
    "exact_log_evidence",
    "harmonic_mean",
    "iteration_ais",
    "left_to_right",
    "log_joint",
    "log_polya",
    "lr_particles",
    "pack_docs",
    "prior_is",
    "ratio_ais",
    "ratio_ais_completion",
    "standard_ais",
]
