"""Bayesian logistic regression behind the small :class:`latentlab.models.base.Regression`
protocol: ``fit(X, y)`` then ``predict_proba(X)`` (Wang & Blei 2013, Sec. 4.2 and 5.2).

:class:`BayesianLogisticRegression` holds the settings and the fitted Gaussian q(theta);
the inference is :func:`latentlab.models.logreg.vi.fit` (Laplace VI, Eq. 14; delta-method
VI, Eq. 17; Jaakkola-Jordan, batch or sequential).
"""

from __future__ import annotations

import numpy as np

from latentlab.errors import ConfigError

from . import vi

METHODS = ("laplace", "delta", "jj", "jj_seq")
PREDICTIVES = ("plugin", "mc")


class BayesianLogisticRegression:
    """theta ~ N(mu0, Sigma0), y_n ~ Bernoulli(sigma(theta^T x_n)).

    Parameters
    ----------
    method : {"laplace", "delta", "jj", "jj_seq"}
        The variational inference (:func:`.vi.fit`).
    mu0, Sigma0 : ndarray, optional
        The prior (default N(0, I)).
    predictive : {"plugin", "mc"}
        sigma(m^T x) (Sec. 5.2) or its Monte Carlo average over q.
    **opts
        Options of the method (``tol``, ``max_iter``, ``inner``...).
    """

    def __init__(self, method: str = "laplace", mu0=None, Sigma0=None, *,
                 predictive: str = "plugin", **opts):  # fmt: skip
        if method not in METHODS:
            raise ConfigError("method", f"must be one of {METHODS}, got {method!r}")
        if predictive not in PREDICTIVES:
            raise ConfigError("predictive", f"must be one of {PREDICTIVES}, got {predictive!r}")
        self.method, self.mu0, self.Sigma0 = method, mu0, Sigma0
        self.predictive, self.opts = predictive, dict(opts)

    def fit(self, X, y) -> BayesianLogisticRegression:
        """q(theta) = N(m, V) on the n x d design ``X`` and labels ``y`` in {0, 1}."""
        vi.check_task(X, y)
        self.q_ = vi.fit(self.method, X, y, self.mu0, self.Sigma0, **self.opts)
        return self

    def predict_proba(self, X, n_mc: int = 1000, seed: int = 0) -> np.ndarray:
        """p(y = 1 | x) for every row of ``X`` (:func:`.vi.predict_proba`)."""
        return vi.predict_proba(self.q_, X, predictive=self.predictive, n_mc=n_mc, seed=seed)
