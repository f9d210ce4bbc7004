"""Supervised LDA on visual words with a class-specific Dirichlet (Fei-Fei & Perona's
Theme Model 1; the ch. 4 baseline of Waters 2014), collapsed Gibbs:
p(z = t) ∝ (alpha_yt + N_dt)(beta + n_tw)/(W beta + n_t) (Sec. 4.5.1's LDA baseline;
the conditional is written out here); test
documents use the class-marginalised prior (4.3) against the frozen training counts."""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import gammaln

from latentlab.errors import ConfigError
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
    """Tokens ``w`` (visual-word ids) grouped by ``indptr``; labels ``y`` (-1 = test)."""

    def __init__(self, T, W, beta=1.0, alpha_init=1.0, seed=0):
        if int(T) < 1 or int(W) < 1:
            raise ConfigError("iwtm slda", f"T and W must be >= 1, got {T}, {W}")
        self.T, self.W, self.beta = int(T), int(W), float(beta)
        self.alpha_init = float(alpha_init)
        self.rng = np.random.default_rng(seed)

    def fit(self, w, indptr, y, n_classes, schedule: GibbsSchedule):
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
        return self

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
        self.y[docs] = -1
        for _ in range(n_iter):
            self._sweep(idx, False)
        self.y = y
        return predict_class(self.ndt[docs], self.alpha_y, self.log_py), self.ndt[docs]
