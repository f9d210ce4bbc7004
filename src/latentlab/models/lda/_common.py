"""Input checks and small helpers shared by every LDA inference algorithm.

Bad input stops with a clear message naming the setting (:class:`ConfigError`) or the
data problem (:class:`DataError`); a non-finite statistic stops with the iteration and
the statistic named (:class:`DivergenceError`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from latentlab.errors import ConfigError, DataError, DivergenceError


def check_K(K) -> int:
    """K is the number of topics; it must be an integer >= 1."""
    try:
        Ki = int(K)
    except (TypeError, ValueError):
        raise ConfigError("K", f"must be an integer >= 1, got {K!r}") from None
    if Ki != K or Ki < 1:
        raise ConfigError("K", f"must be an integer >= 1, got {K!r}")
    return Ki


def check_alpha(alpha, K: int, name: str = "alpha") -> np.ndarray:
    """Document-topic Dirichlet parameter: a positive scalar (symmetric, per topic) or a
    length-K vector (asymmetric). Returned as a float64 vector of length K."""
    a = np.asarray(alpha, dtype=np.float64)
    if a.ndim == 0:
        a = np.full(K, float(a))
    if a.shape != (K,):
        raise ConfigError(
            name, f"must be a scalar or a vector of length K={K}, got shape {a.shape}"
        )
    if not np.all(np.isfinite(a)) or np.any(a <= 0):
        raise ConfigError(name, f"must be finite and > 0, got {alpha!r}")
    return a


def check_positive(x, name: str) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ConfigError(name, f"must be a positive number, got {x!r}") from None
    if not np.isfinite(v) or v <= 0:
        raise ConfigError(name, f"must be finite and > 0, got {x!r}")
    return v


def check_corpus(corpus, n_vocab: int | None = None, what: str = "corpus"):
    """Check a :class:`BowCorpus` against a vocabulary size.

    Returns ``(indptr, word_ids, counts, W)``. A word id outside ``[0, W)`` raises
    :class:`DataError` naming it. Empty documents are allowed: every algorithm skips them
    and reports how many it skipped (``n_empty_docs``).
    """
    W = corpus.n_vocab if n_vocab is None else int(n_vocab)
    src = corpus.metadata.get("source", what) if hasattr(corpus, "metadata") else what
    w = corpus.word_ids
    if len(w) and (w.min() < 0 or w.max() >= W):
        bad = int(w[(w < 0) | (w >= W)][0])
        raise DataError(src, f"word id {bad} is outside the vocabulary of size W={W}")
    if len(corpus.counts) and corpus.counts.min() <= 0:
        raise DataError(src, "counts must be >= 1")
    if corpus.n_tokens == 0:
        raise DataError(src, "the corpus has no tokens")
    return corpus.indptr, corpus.word_ids, corpus.counts, W


def check_n_iter(n_iter, name: str = "n_iter", allow_none: bool = False):
    """An iteration count (sweeps, or passes for the stochastic models): a number >= 0
    (an integer for the batch models)."""
    if n_iter is None and allow_none:
        return None
    try:
        v = float(n_iter)
    except (TypeError, ValueError):
        raise ConfigError(name, f"must be a number >= 0, got {n_iter!r}") from None
    if not np.isfinite(v) or v < 0:
        raise ConfigError(name, f"must be a finite number >= 0, got {n_iter!r}")
    return v


def check_finite(arr, statistic: str, iteration: int) -> None:
    """Raise :class:`DivergenceError` if ``arr`` holds NaN or inf."""
    if not np.all(np.isfinite(arr)):
        n = int(np.size(arr) - np.isfinite(arr).sum())
        raise DivergenceError(statistic, iteration, f"{n} non-finite entries")


@dataclass(frozen=True)
class StepSize:
    """Robbins-Monro step-size schedule rho_t = s / (tau + t)^kappa (Sec. 4.3).

    The convergence theorem (Thm 4.6.1) needs 0 < rho_t <= 1 for every t >= 1,
    sum rho_t = inf (kappa <= 1) and rho_t -> 0 (kappa > 0). The constructor refuses a
    schedule whose first step is outside (0, 1] or whose kappa is outside (0, 1].
    """

    s: float
    tau: float
    kappa: float
    name: str = "rho"

    def __post_init__(self):
        for key in ("s", "tau", "kappa"):
            v = getattr(self, key)
            if not np.isfinite(v):
                raise ConfigError(f"{self.name}.{key}", f"must be finite, got {v!r}")
        if self.s <= 0:
            raise ConfigError(f"{self.name}.s", f"must be > 0 (0 < rho <= 1), got {self.s}")
        if self.tau < 0:
            raise ConfigError(f"{self.name}.tau", f"must be >= 0, got {self.tau}")
        if not (0 < self.kappa <= 1):
            raise ConfigError(
                f"{self.name}.kappa",
                f"must be in (0, 1] so that sum rho = inf and rho -> 0; got {self.kappa}",
            )
        r1 = self(1)
        if not (0 < r1 <= 1):
            raise ConfigError(
                self.name,
                f"s/(tau+1)^kappa = {r1:.4g} violates 0 < rho <= 1 "
                f"(s={self.s}, tau={self.tau}, kappa={self.kappa})",
            )

    def __call__(self, t):
        return self.s / (self.tau + np.asarray(t, dtype=np.float64)) ** self.kappa

    @classmethod
    def from_config(cls, cfg, name: str) -> StepSize:
        if isinstance(cfg, StepSize):
            return cfg
        try:
            return cls(float(cfg["s"]), float(cfg["tau"]), float(cfg["kappa"]), name=name)
        except KeyError as e:
            raise ConfigError(f"{name}.{e.args[0]}", "missing") from None


def fold_in(model, corpus, n_iter: int = 100, tol: float = 1e-6) -> np.ndarray:
    """``transform`` of a Dirichlet-prior topic model (``phi()``, ``new_doc_prior()``):
    :func:`.theta.estimate_theta` with the model's topics and prior frozen."""
    from .theta import estimate_theta

    check_n_iter(n_iter)
    return estimate_theta(corpus, model.phi().T, model.new_doc_prior(), int(n_iter), tol)


def completion(model, split, n_iter: int = 100, tol: float = 1e-6) -> float:
    """``log_predictive`` of a Dirichlet-prior topic model: document completion (Sec.
    4.3.1, Eq. 5.26) with :func:`.theta.document_completion`, the same theta estimator for
    every model, so that only the topics and the prior differ."""
    from .theta import document_completion

    check_n_iter(n_iter)
    return document_completion(split, model.phi().T, model.new_doc_prior(), int(n_iter), tol)


def nonempty_docs(indptr: np.ndarray) -> tuple[np.ndarray, int]:
    """Indices of documents with at least one distinct word, and how many were empty."""
    lens = np.diff(indptr)
    keep = np.flatnonzero(lens > 0)
    return keep, int(len(lens) - len(keep))


class ModelInterface:
    """The one model interface (issue 9, point 6), shared by every LDA algorithm.

    ``fit(corpus, n_iter, callback=None)`` takes a :class:`BowCorpus`; ``callback(model,
    info) -> stop`` runs after every iteration (``info`` is a dict: ``iteration`` for the
    batch models; ``minibatch``, ``docs_seen``, ``epoch``, ``train_seconds`` for the
    minibatch ones) and stops the fit when it returns True. ``phi()`` is Phi as K x W (rows
    sum to 1), ``theta()`` the D x K topic proportions of the training documents.
    ``phi_wk()`` is kept as an alias of ``phi().T`` (W x K, the kernels' layout, what the
    held-out evaluation takes); every model computes it natively, ``phi()`` transposes it.
    """

    def phi(self) -> np.ndarray:
        """Phi, K x W (rows are topics and sum to 1)."""
        return self.phi_wk().T.copy()

    def new_doc_prior(self) -> np.ndarray:
        """The Dirichlet prior of a new document's theta (length K): a copy of ``alpha``."""
        return np.array(self.alpha, dtype=np.float64)

    def transform(self, corpus, n_iter: int = 100, tol: float = 1e-6) -> np.ndarray:
        """Topic proportions (n_docs x K) of new documents with the topics frozen: the
        CVB0 document update at its fixed point (Eq. 4.43 with Phi frozen,
        :func:`.theta.estimate_theta`), the estimator of the held-out evaluation (SVB and
        BatchVB use their own VB local step instead, :func:`.vb.vb_theta`)."""
        return fold_in(self, corpus, n_iter, tol)

    def log_predictive(self, split, n_iter: int = 100, tol: float = 1e-6) -> float:
        """Held-out log-likelihood per scored token by document completion (Sec. 4.3.1,
        Eq. 5.26; theta of the observed halves by :meth:`transform`)."""
        return completion(self, split, n_iter, tol)


class BatchLoop(ModelInterface):
    """``fit`` of the batch models (CGS, CVB0, MapLdaU): ``initialize`` then ``n_iter``
    calls of ``step``; ``callback(model, {"iteration": i})`` after each may stop it."""

    def fit(self, corpus, n_iter: int, callback=None):
        """Initialise on ``corpus`` and run ``n_iter`` sweeps (see :class:`ModelInterface`)."""
        n = check_n_iter(n_iter)
        if n != int(n):
            raise ConfigError("n_iter", f"must be a whole number of sweeps, got {n_iter!r}")
        self.initialize(corpus)
        for _ in range(int(n)):
            self.step()
            if callback is not None and callback(self, {"iteration": self.iteration}):
                break
        return self


class MinibatchLoop(ModelInterface):
    """``fit``/``resume`` for the minibatch learners (SCVB0, SVB): feed minibatches until
    ``n_iter`` passes over the (non-empty) documents, ``max_docs`` documents or a
    training-time budget is reached, whichever comes first. The subclass keeps ``docs``,
    ``docs_seen``, ``minibatches`` and ``train_seconds`` and defines ``initialize``,
    ``partial_fit`` and ``_next_docs``; the callback's time is not counted as training
    time."""

    def fit(self, corpus, n_iter=1.0, callback=None, *, max_docs=None, time_budget=None):
        """Initialise on ``corpus`` and train for ``n_iter`` passes (epochs; fractions
        allowed; None = no pass limit, then ``max_docs`` or ``time_budget`` must be given).
        ``callback(model, info) -> stop`` runs after every minibatch, ``info`` =
        ``{"minibatch", "docs_seen", "epoch", "train_seconds"}``."""
        check_n_iter(n_iter, allow_none=True)
        self.initialize(corpus)
        return self.resume(n_iter, max_docs, time_budget, callback)

    def resume(self, n_iter=None, max_docs=None, time_budget=None, callback=None):
        """Continue training from the current state (same limits as :meth:`fit`)."""
        n_iter = check_n_iter(n_iter, allow_none=True)
        limit = np.inf
        if n_iter is not None:
            limit = min(limit, n_iter * len(self.docs))
        if max_docs is not None:
            limit = min(limit, max_docs)
        if limit == np.inf and time_budget is None:
            raise ConfigError("n_iter", "give n_iter (passes), max_docs or time_budget")
        start = self.docs_seen
        while self.docs_seen - start < limit:
            t0 = time.perf_counter()
            self.partial_fit(self._next_docs())
            self.train_seconds += time.perf_counter() - t0
            if callback is not None and callback(self, self._info()):
                break
            if time_budget is not None and self.train_seconds >= time_budget:
                break
        return self

    def _info(self) -> dict:
        return {
            "minibatch": self.minibatches,
            "docs_seen": self.docs_seen,
            "epoch": self.docs_seen / len(self.docs),
            "train_seconds": self.train_seconds,
        }
