"""The model protocols: one surface for every topic model, and small ones for the rest.

A topic model is fitted and read the same way whatever its inference (issue 25, item 2;
scikit-learn's estimator contract and tomotopy's one surface are the models):

* ``fit(corpus, n_iter, callback=None)`` on a :class:`~latentlab.data.corpus.BowCorpus`;
  ``callback(model, info) -> stop`` after every iteration;
* ``phi()``: the topics, K x W, rows sum to 1;
* ``theta()``: the training documents' topic proportions, D x K, rows sum to 1;
* ``transform(corpus)``: the topic proportions of new documents (fold-in with the topics
  frozen), n_docs x K, rows sum to 1;
* ``log_predictive(split)``: held-out log-likelihood per scored token by document
  completion (Foulds 2014, Sec. 4.3.1 and Eq. 5.26; Wang & Blei 2013, Sec. 5.1).

Settings are constructor arguments; a bad setting raises
:class:`~latentlab.errors.ConfigError` naming it, bad data
:class:`~latentlab.errors.DataError`. ``tests/models/test_protocol.py`` runs one check over
every class (as scikit-learn's ``check_estimator`` does).

The protocols are :func:`typing.runtime_checkable`: ``isinstance(m, TopicModel)`` checks
that the methods exist, not their signatures; the interface test checks the behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class TopicModel(Protocol):
    """A topic model: documents are mixtures of K topics over a vocabulary of W words."""

    def fit(self, corpus, n_iter, callback: Callable | None = None) -> TopicModel:
        """Fit on a corpus.

        Parameters
        ----------
        corpus : BowCorpus
            The training documents.
        n_iter : int or float
            Iterations (sweeps, EM iterations; passes for the minibatch learners).
        callback : callable, optional
            ``callback(model, info) -> stop`` after every iteration; True stops the fit.

        Returns
        -------
        self
        """

    def phi(self) -> np.ndarray:
        """Topics.

        Returns
        -------
        ndarray, shape (K, W)
            Row k is topic k's distribution over words (sums to 1).
        """

    def theta(self) -> np.ndarray:
        """Topic proportions of the training documents.

        Returns
        -------
        ndarray, shape (D, K)
            Rows sum to 1.
        """

    def transform(self, corpus) -> np.ndarray:
        """Topic proportions of new documents, the topics frozen (fold-in).

        Parameters
        ----------
        corpus : BowCorpus
            Documents over the training vocabulary.

        Returns
        -------
        ndarray, shape (n_docs, K)
            Rows sum to 1.
        """

    def log_predictive(self, split) -> float:
        """Held-out log-likelihood per scored token by document completion.

        Parameters
        ----------
        split : CompletionSplit
            ``observed`` halves (theta is inferred on them) and ``scored`` halves.

        Returns
        -------
        float
            sum_i log sum_k theta_dk phi_k,w_i over the scored tokens, divided by their
            number.
        """


@runtime_checkable
class NetworkSampler(Protocol):
    """One MCMC chain of a latent-feature network model (DRIFT, Foulds 2014 Sec. 2.3;
    LFRM_LDA / BMF_LDA, Sec. 2.6): :func:`latentlab.models.drift.sampler.run_chain` and
    :func:`latentlab.models.drift.lfrm_lda.run_chain` have this signature."""

    def __call__(self, data: Any, hyper: Any, seed, burnin: int, n_samples: int = 1,
                 thin: int = 1) -> tuple:  # fmt: skip
        """Run ``burnin`` iterations from the prior, then record ``n_samples`` states
        ``thin`` iterations apart.

        Parameters
        ----------
        data : the model's data (``sampler.Data``, ``lfrm_lda.TextNetwork``).
        hyper : its hyperparameters (``sampler.Hyper``, ``lfrm_lda.TextHyper``).
        seed : int or sequence of int
            Seed of the chain's ``numpy.random.Generator``.

        Returns
        -------
        tuple
            The recorded states (or their summaries) and the per-iteration trace rows.
        """


@runtime_checkable
class Regression(Protocol):
    """A Bayesian regression with a Gaussian variational posterior (Wang & Blei 2013,
    Sec. 4.2): ``fit(X, y)`` then ``predict_proba(X)``."""

    def fit(self, X: np.ndarray, y: np.ndarray) -> Regression:
        """Fit on an n x d design ``X`` and labels ``y`` in {0, 1}."""

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        """p(y = 1 | x) for every row of ``X``."""


def rows_are_probabilities(a: np.ndarray, rtol: float = 1e-9) -> bool:
    """True when every row of ``a`` is a probability vector (>= 0, sums to 1)."""
    a = np.asarray(a, dtype=np.float64)
    return bool(
        a.ndim == 2
        and np.all(np.isfinite(a))
        and a.min(initial=0.0) >= 0
        and np.allclose(a.sum(axis=1), 1.0, rtol=rtol, atol=0)
    )
