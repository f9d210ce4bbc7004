"""Supervised LDA on visual words with a class-specific Dirichlet (Fei-Fei & Perona's
Theme Model 1; the ch. 4 baseline of Waters 2014), collapsed Gibbs:
p(z = t) ∝ (alpha_yt + N_dt)(beta + n_tw)/(W beta + n_t) (Sec. 4.5.1's LDA baseline;
the conditional is written out here); test
documents use the class-marginalised prior (4.3) against the frozen training counts."""

from __future__ import annotations

import math
from dataclasses import replace

import numba as nb
import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

from latentlab.errors import ConfigError, DataError
from latentlab.kernels.sampling import categorical_log

from .gibbs import GibbsSchedule, IWTMGibbs, _topic_logprior, predict_class


@nb.njit(cache=True)
def _slda_sweep(w, doc, y, z, ndt, ntw, nt, alpha_y, log_py, beta, u, update_global):
    T = ndt.shape[1]
    W = ntw.shape[1]
    lp = np.empty(T)
    buf = np.empty(alpha_y.shape[0])
    for i in range(w.shape[0]):
        d = doc[i]
        if z[i] >= 0:
            ndt[d, z[i]] -= 1
            if update_global:
                ntw[z[i], w[i]] -= 1
                nt[z[i]] -= 1
        _topic_logprior(d, y[d], ndt, alpha_y, log_py, lp, buf)
        for t in range(T):
            lp[t] += math.log(beta + ntw[t, w[i]]) - math.log(W * beta + nt[t])
        t = categorical_log(lp, T, u[i])
        z[i] = t
        ndt[d, t] += 1
        if update_global:
            ntw[t, w[i]] += 1
            nt[t] += 1


class SupervisedLDA:
    """Supervised LDA with a class-specific Dirichlet alpha_y over T topics of W visual
    words, by collapsed Gibbs (Waters 2014, Sec. 4.5.1's LDA baseline; Eqs. 4.1-4.3 for
    the prior of z, 4.16 for the class, 4.17 for alpha_y).

    A :class:`latentlab.models.base.TopicModel`: ``fit(corpus, n_iter)`` takes the labels
    from ``corpus.labels`` (-1 = unlabelled); :meth:`fit_tokens` is the same fit on a token
    stream (``w`` grouped by ``indptr``, labels ``y``, -1 = test documents, which
    :meth:`predict` folds in against the frozen topic-word counts).

    Parameters
    ----------
    T, W : int
        Topics and vocabulary size (>= 1).
    beta : float
        Symmetric topic-word prior (re-estimated by :meth:`_update_beta`).
    alpha_init : float
        Initial value of every alpha_y,t.
    seed : int
        Seed of the sampler's generator.
    """

    def __init__(self, T, W, beta=1.0, alpha_init=1.0, seed=0):
        for key, v in (("T", T), ("W", W)):
            if int(v) != v or int(v) < 1:
                raise ConfigError(key, f"must be an integer >= 1, got {v!r}")
        self.T, self.W, self.beta = int(T), int(W), float(beta)
        self.alpha_init = float(alpha_init)
        self.rng = np.random.default_rng(seed)

    def fit(self, corpus, n_iter: int, callback=None, *, schedule: GibbsSchedule | None = None):
        """``n_iter`` sweeps over the labelled documents of ``corpus`` (a BowCorpus with
        ``labels``; classes 0..max label, or ``label_names``); ``schedule`` gives the
        hyperparameter burn-in and period (default :class:`GibbsSchedule`'s, its
        ``n_iter`` replaced)."""
        if int(n_iter) != n_iter or n_iter < 0:
            raise ConfigError("n_iter", f"must be an integer >= 0, got {n_iter!r}")
        if corpus.labels is None or not (corpus.labels >= 0).any():
            raise DataError(None, "supervised LDA needs labels (corpus.labels, -1 = none)")
        if corpus.n_vocab != self.W:
            raise DataError(None, f"vocabulary {corpus.n_vocab} differs from W={self.W}")
        n_classes = len(corpus.label_names or []) or int(corpus.labels.max()) + 1
        sched = replace(schedule or GibbsSchedule(), n_iter=int(n_iter))
        ptr, w = corpus.to_tokens()
        return self.fit_tokens(w, ptr, corpus.labels, n_classes, sched, callback)

    def fit_tokens(self, w, indptr, y, n_classes, schedule: GibbsSchedule, callback=None):
        """Tokens ``w`` grouped by ``indptr``, labels ``y`` (-1 = test); sweeps over the
        labelled documents' tokens, alpha_y (4.17) and beta updated after the burn-in;
        ``callback(model, {"iteration": i}) -> stop`` after each sweep."""
        self.w = np.asarray(w, np.int64)
        self.doc = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)).astype(np.int64)
        self.indptr = np.asarray(indptr, np.int64)
        self.y = np.asarray(y, np.int64)
        cnt = np.bincount(self.y[self.y >= 0], minlength=n_classes).astype(float)
        self.log_py = np.log(cnt / cnt.sum())
        self.alpha_y = np.full((n_classes, self.T), self.alpha_init)
        self.z = np.full(len(w), -1, np.int64)
        self.ndt = np.zeros((len(indptr) - 1, self.T), np.int64)
        self.ntw = np.zeros((self.T, self.W), np.int64)
        self.nt = np.zeros(self.T, np.int64)
        train = np.where(self.y[self.doc] >= 0)[0]
        docs = np.where(self.y >= 0)[0]
        helper = IWTMGibbs.__new__(IWTMGibbs)  # reuse the alpha_y optimiser (4.17)
        helper.__dict__.update(ndt=self.ndt, y=self.y, alpha_y=self.alpha_y, T=self.T,
                               n_classes=n_classes, _calls=0)  # fmt: skip
        for it in range(schedule.n_iter):
            self._sweep(train, True)
            if it >= schedule.burn_in and it % schedule.hyper_every == 0:
                helper.update_alpha_y(docs)
                self.alpha_y = helper.alpha_y
                self._update_beta()
            if callback is not None and callback(self, {"iteration": it + 1}):
                break
        return self

    # ------------------------------------------------------------------ accessors
    def phi(self) -> np.ndarray:
        """Topics T x W: (n_tw + beta) / (n_t + W beta) (the collapsed estimate)."""
        return (self.ntw + self.beta) / (self.nt + self.W * self.beta)[:, None]

    def new_doc_prior(self) -> np.ndarray:
        """The class-marginalised prior mean sum_y p(y) alpha_y (length T), the Dirichlet
        of a document whose class is unknown (the mean of Eq. 4.3's mixture)."""
        return np.exp(self.log_py) @ self.alpha_y

    def theta(self) -> np.ndarray:
        """Topic proportions of the fitted documents (D x T): (N_dt + alpha_{y_d,t}) /
        (N_d + A_{y_d}) (Eq. 4.2), :meth:`new_doc_prior` for a document with y = -1."""
        a = np.where((self.y >= 0)[:, None], self.alpha_y[np.maximum(self.y, 0)],
                     self.new_doc_prior()[None, :])  # fmt: skip
        th = self.ndt + a
        return th / th.sum(1, keepdims=True)

    def transform(self, corpus, n_iter: int = 50, seed: int = 0) -> np.ndarray:
        """Topic proportions (n_docs x T) of new documents: ``n_iter`` Gibbs sweeps with
        the class-marginalised prior (Eq. 4.3) against the frozen topic-word counts (the
        fold-in of :meth:`predict`, with its own generator from ``seed``), then
        (N_dt + new_doc_prior) normalised."""
        if int(n_iter) != n_iter or n_iter < 0:
            raise ConfigError("n_iter", f"must be an integer >= 0, got {n_iter!r}")
        if corpus.n_vocab != self.W:
            raise DataError(None, f"vocabulary {corpus.n_vocab} differs from W={self.W}")
        ptr, w = corpus.to_tokens()
        doc = np.repeat(np.arange(corpus.n_docs), np.diff(ptr)).astype(np.int64)
        ndt = np.zeros((corpus.n_docs, self.T), np.int64)
        z = np.full(len(w), -1, np.int64)
        y = np.full(corpus.n_docs, -1, np.int64)
        rng = np.random.default_rng(seed)
        self._fold(w.astype(np.int64), doc, y, z, ndt, int(n_iter), rng)
        th = ndt + self.new_doc_prior()[None, :]
        return th / th.sum(1, keepdims=True)

    def log_predictive(self, split, n_iter: int = 100, tol: float = 1e-6) -> float:
        """Held-out log-likelihood per scored token by document completion with
        :meth:`new_doc_prior` (the CVB0 fixed point shared with the LDA models)."""
        from latentlab.models.lda._common import completion

        return completion(self, split, n_iter, tol)

    def _fold(self, w, doc, y, z, ndt, n_iter, rng):
        """``n_iter`` sweeps over the tokens ``w`` of documents ``doc`` (rows of ``ndt``)
        with the topic-word counts frozen."""
        for _ in range(n_iter):
            _slda_sweep(w, doc, y, z, ndt, self.ntw, self.nt, self.alpha_y, self.log_py,
                        self.beta, rng.random(len(w)), False)  # fmt: skip

    def _sweep(self, idx, update_global):
        sub = np.asarray(idx, np.int64)
        z = self.z[sub]
        _slda_sweep(self.w[sub], self.doc[sub], self.y, z, self.ndt, self.ntw, self.nt,
                    self.alpha_y, self.log_py, self.beta, self.rng.random(len(sub)),
                    update_global)  # fmt: skip
        self.z[sub] = z

    def _update_beta(self):
        """Symmetric beta by the Dirichlet-multinomial likelihood of the topic-word counts
        (1-D bounded search; the thesis says 'optimized')."""
        ntw, nt, W = self.ntw, self.nt, self.W

        def nll(lb):
            b = math.exp(lb)
            return -(
                self.T * gammaln(W * b) - gammaln(W * b + nt).sum()
                + (gammaln(b + ntw) - gammaln(b)).sum()
            )  # fmt: skip

        self.beta = math.exp(minimize_scalar(nll, bounds=(-9, 5), method="bounded").x)

    def predict(self, docs, n_iter):
        """Fold in test documents (frozen topic-word counts), Eq. 4.16 on their N_dt."""
        docs = np.asarray(docs)
        idx = np.concatenate([np.arange(self.indptr[d], self.indptr[d + 1]) for d in docs])
        y = self.y.copy()
        y[docs] = -1
        z = self.z[idx]
        self._fold(self.w[idx], self.doc[idx], y, z, self.ndt, n_iter, self.rng)
        self.z[idx] = z
        return predict_class(self.ndt[docs], self.alpha_y, self.log_py), self.ndt[docs]
