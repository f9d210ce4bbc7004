"""The correlated topic model behind the one model interface (issue 9, point 6).

:class:`CTM` wraps the variational EM of :mod:`.vi` (Wang & Blei 2013 Sec. 4.1 and 5.1;
Blei & Lafferty 2007 for ``method="bl"``) so that it is fitted and read like the LDA and
HDP models: a :class:`latentlab.models.base.TopicModel` (``fit``, ``phi``, ``theta``,
``transform``, ``log_predictive``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from latentlab.errors import ConfigError, DataError

from . import vi
from .vi import METHODS


class CTM:
    """Correlated topic model fitted by variational EM (Sec. 5.1).

    Parameters
    ----------
    K : number of topics (>= 2).
    method : per-document inference: ``"laplace"`` (Laplace VI, Sec. 3.1), ``"delta"``
        (delta-method VI, Sec. 3.2) or ``"bl"`` (Blei & Lafferty 2007, K-1 free dimensions).
    seed : topics start as draws from Dir(1, ..., 1) (Sec. 5.1) from this seed.
    tol : EM stops when the relative change of the total bound is below ``tol`` (ctm-c's
        1e-3), or after ``n_iter`` iterations.
    estep_tol, estep_max_iter : the per-document inference's tolerance and iteration cap
        (None: each method's own default, see :func:`.vi.laplace_doc` and friends).
    pseudo : pseudo-count added to the expected topic-word counts in the M-step.
    ridge_rel : relative ridge that keeps Sigma0 positive definite (ours).

    ``fit(corpus, n_iter=20, callback=None, *, time_budget=None, iter_budget=None)`` runs at
    most ``n_iter`` EM iterations on a :class:`BowCorpus`; ``callback(model, info) -> stop``
    after each, ``info`` = ``{"iter", "time_s", "estep_s", "bound_per_word", "ridge",
    "em_stop"}`` (the same dict is kept in ``history``; ``em_stop`` is None until the last
    iteration, then why EM stopped: ``"tolerance"``, ``"iter_budget"``, ``"max_iter"``
    (``n_iter`` reached), ``"time_budget"`` or ``"callback"``). Empty documents take no part
    in the fit; their ``theta()`` row is the prior's plug-in proportions softmax(mu0). After
    the fit: ``logbeta`` (K x W), ``prior`` (mu0, Sigma0), ``fits`` (per-document
    :class:`.vi.DocFit`), ``history``.
    """

    def __init__(
        self,
        K: int,
        method: str = "laplace",
        *,
        seed: int = 0,
        tol: float = 1e-3,
        estep_tol: float | None = None,
        estep_max_iter: int | None = None,
        pseudo: float = 1e-10,
        ridge_rel: float = 1e-6,
    ):
        if int(K) != K or K < 2:
            raise ConfigError("K", f"must be an integer >= 2, got {K!r}")
        if method not in METHODS:
            raise ConfigError("method", f"must be one of {METHODS}, got {method!r}")
        if not tol >= 0:
            raise ConfigError("tol", f"must be >= 0 (0: run all n_iter), got {tol!r}")
        if estep_tol is not None and not estep_tol > 0:
            raise ConfigError("estep_tol", f"must be > 0, got {estep_tol!r}")
        if estep_max_iter is not None and int(estep_max_iter) < 1:
            raise ConfigError("estep_max_iter", f"must be >= 1, got {estep_max_iter!r}")
        if not pseudo >= 0:
            raise ConfigError("pseudo", f"must be >= 0, got {pseudo!r}")
        if not ridge_rel > 0:
            raise ConfigError("ridge_rel", f"must be > 0, got {ridge_rel!r}")
        self.K = int(K)
        self.method = method
        self.seed = int(seed)
        self.tol = float(tol)
        self.estep_tol = estep_tol
        self.estep_max_iter = estep_max_iter
        self.pseudo = float(pseudo)
        self.ridge_rel = float(ridge_rel)
        self.iteration = 0
        self.history: list[dict] = []

    @property
    def estep_opts(self) -> dict:
        """Keyword options of the per-document inference (only those set)."""
        opts = {}
        if self.estep_tol is not None:
            opts["tol"] = float(self.estep_tol)
        if self.estep_max_iter is not None:
            opts["max_iter"] = int(self.estep_max_iter)
        return opts

    def fit(
        self,
        corpus,
        n_iter: int = 20,
        callback: Callable | None = None,
        *,
        time_budget=None,
        iter_budget=None,
    ) -> CTM:
        """Variational EM on ``corpus`` (see the class docstring); ``iter_budget`` is the
        deterministic cap of ``vi.em_iterations`` (``em_stop = "iter_budget"``)."""
        if int(n_iter) != n_iter or n_iter < 1:
            raise ConfigError("n_iter", f"must be an integer >= 1, got {n_iter!r}")
        self.W = corpus.n_vocab
        self.n_docs = corpus.n_docs
        self.docs_fitted = np.flatnonzero(np.diff(corpus.indptr) > 0)
        docs = vi.corpus_to_docs(corpus.subset(self.docs_fitted))
        logbeta0 = vi.init_topics(self.K, self.W, self.seed)
        self.history = []
        steps = vi.em_iterations(
            docs, logbeta0, self.method, max_iter=int(n_iter), tol=self.tol,
            opts=self.estep_opts, pseudo=self.pseudo, ridge_rel=self.ridge_rel,
            time_budget_s=time_budget, iter_budget=iter_budget,
        )  # fmt: skip
        for model, fits, rec in steps:
            self.model_, self.fits, self.iteration = model, fits, rec["iter"]
            self.history.append(rec)
            if callback is not None and callback(self, rec):
                rec["em_stop"] = rec["em_stop"] or "callback"
                break
        return self

    # --------------------------------------------------------------- accessors
    @property
    def logbeta(self) -> np.ndarray:
        """log topics, K x W."""
        return self.model_.logbeta

    @property
    def prior(self) -> vi.Prior:
        """The fitted logistic-normal prior N(mu0, Sigma0) (K-1 dimensions for BL)."""
        return self.model_.prior

    def phi(self) -> np.ndarray:
        """Topics beta, K x W (rows sum to 1)."""
        p = np.exp(self.model_.logbeta)
        return p / p.sum(axis=1, keepdims=True)

    def phi_wk(self) -> np.ndarray:
        """Alias of ``phi().T`` (W x K), as the LDA models."""
        return self.phi().T

    def theta(self) -> np.ndarray:
        """Plug-in topic proportions softmax(m_d) of the training documents (D x K; BL:
        eta_K = 0 appended), from the variational means of the last E-step."""
        mu = self.model_.prior.mu
        prior_pi = vi.softmax(np.append(mu, 0.0) if self.method == "bl" else mu)
        theta = np.tile(prior_pi, (self.n_docs, 1))
        for d, f in zip(self.docs_fitted, self.fits, strict=True):
            theta[d] = vi.mean_topic_proportions(self.method, f)
        return theta

    def transform(self, corpus) -> np.ndarray:
        """Plug-in topic proportions softmax(m_d) (n_docs x K) of new documents: q(eta_d)
        inferred by the model's own per-document inference (Laplace Sec. 3.1, delta
        Sec. 3.2, BL) with the topics and the prior frozen; an empty document gets the
        prior's softmax(mu0)."""
        if corpus.n_vocab != self.W:
            raise DataError(
                None, f"vocabulary {corpus.n_vocab} differs from the topics' W={self.W}"
            )
        mu = self.model_.prior.mu
        out = np.tile(vi.softmax(np.append(mu, 0.0) if self.method == "bl" else mu),
                      (corpus.n_docs, 1))  # fmt: skip
        for d in range(corpus.n_docs):
            ids, cnt = corpus.doc(d)
            if len(ids):
                f = vi.infer_doc(self.method, np.asarray(ids, np.int64), cnt.astype(float),
                                 self.logbeta, self.prior, opts=self.estep_opts)  # fmt: skip
                out[d] = vi.mean_topic_proportions(self.method, f)
        return out

    def log_predictive(
        self, split, predictive: str = "plugin", n_mc: int = 1000, seed: int = 0
    ) -> float:
        """Per-token held-out log-likelihood by document completion (Sec. 5.1): q(theta)
        inferred on each observed part of ``split`` (a
        :class:`latentlab.data.splits.CompletionSplit`), the scored part scored by log
        sum_k pi_k beta_kw (``predictive="plugin"`` or Monte Carlo ``"mc"``)."""
        obs, held = (vi.corpus_to_docs(c) for c in (split.observed, split.scored))
        tot, n = vi.heldout_loglik(
            self.model_, obs, held, predictive=predictive, n_mc=n_mc, seed=seed,
            opts=self.estep_opts,
        )  # fmt: skip
        return tot / n
