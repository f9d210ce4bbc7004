"""Variational Bayes for LDA with a Dirichlet on topics: stochastic VB / SVI (Hoffman et
al. 2010; thesis Alg. 6, Sec. 4.3.1) and batch VB (Blei et al. 2003; thesis Fig. 4.7).
The thesis gives only the generic Alg. 6; the LDA specifics follow Hoffman's
onlineldavb.py, which the thesis's SVB "closely follows" (Sec. 4.3.1)."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from scipy.special import digamma

from latentlab.errors import ConfigError

from . import kernels
from ._common import (
    MinibatchLoop,
    ModelInterface,
    StepSize,
    check_alpha,
    check_corpus,
    check_finite,
    check_K,
    check_n_iter,
    check_positive,
    nonempty_docs,
)
from .scvb0 import RHO_PHI


def _check_threads(threads) -> int:
    if int(threads) < 1:
        raise ConfigError("threads", f"must be >= 1, got {threads}")
    return int(threads)


def vb_theta(corpus_csr, exp_elog_phi_wk, alpha, max_iter: int = 100, tol: float = 1e-3):
    """Topic proportions E_q[theta] (D x K) of documents ``(indptr, wids, cnts)`` with the
    topics fixed: the VB local step (Blei et al. 2003) from gamma = alpha +
    C_d/K, gamma = alpha + sum_w n_dw phi_dwk with phi_dwk ∝ exp(E log theta_dk)
    exp(E log Phi_kw), until the mean |change of gamma| < ``tol`` (Hoffman's rule).
    Deterministic (no random start); empty documents get alpha / sum(alpha)."""
    indptr, wids, cnts = corpus_csr
    K = exp_elog_phi_wk.shape[1]
    D = len(indptr) - 1
    theta = np.tile(alpha / alpha.sum(), (D, 1))
    for d in range(D):
        s, e = indptr[d], indptr[d + 1]
        if e == s:
            continue
        eb, c = exp_elog_phi_wk[wids[s:e]], np.asarray(cnts[s:e], dtype=np.float64)
        gamma = alpha + c.sum() / K
        for _ in range(max_iter):
            eth = np.exp(digamma(gamma) - digamma(gamma.sum()))
            new = alpha + eth * ((c / (eb @ eth + 1e-100)) @ eb)
            done = np.mean(np.abs(new - gamma)) < tol
            gamma = new
            if done:
                break
        theta[d] = gamma / gamma.sum()
    return theta


class _VBBase(ModelInterface):
    """Shared state of SVB and BatchVB. ``threads > 1``: the local step runs in
    parallel (:func:`kernels.svb_minibatch_parallel`), the same iterates as
    ``threads=1`` up to the order of floating-point sums, deterministic for a given
    ``threads``."""

    def _setup(self, corpus):
        _, _, _, W = check_corpus(corpus)
        self.W = W
        self.rng = np.random.default_rng(self.seed)
        self.docs, self.n_empty_docs = nonempty_docs(corpus.indptr)
        self.indptr, self.wids, self.cnts = (
            corpus.indptr,
            corpus.word_ids,
            corpus.counts.astype(np.float64),
        )
        self.doclen = corpus.doc_lengths()
        lam = self.rng.gamma(100.0, 1.0 / 100.0, size=(W, self.K))  # lambda, W x K
        self.L = lam - self.eta  # lambda - eta, lazily scaled
        self.lscale = 1.0
        self.Lsum = self.L.sum(axis=0)
        self.acc = np.zeros((W, self.K))
        self._dummyZ = np.zeros(self.K)
        self._dummyaccZ = np.zeros(self.K)
        self.touched = np.zeros(W, dtype=np.bool_)
        self.touched_list = np.zeros(W, dtype=np.int64)
        self.expElogbeta = np.zeros((W, self.K))
        self.threads = int(getattr(self, "threads", 1))
        self._acc_extra = np.zeros((self.threads - 1, W, self.K))  # parallel kernel
        self.docs_seen = 0
        self.tokens_seen = 0
        self.minibatches = 0
        self.train_seconds = 0.0

    def _update(self, docs, n_local, tol, rho, sf):
        """Local step on ``docs`` then lambda := (1-rho) lambda + rho (eta + sf sstats)."""
        g0 = self.rng.gamma(100.0, 1.0 / 100.0, size=(len(docs), self.K))
        gout = np.empty_like(g0)
        args = (
            docs, self.indptr, self.wids, self.cnts, self.L, self.lscale, self.Lsum,
            self.eta, self.W, self.alpha, n_local, tol, g0, self.acc, self.touched,
            self.touched_list, self.expElogbeta, gout,
        )  # fmt: skip
        if self.threads == 1:
            n_t = kernels.svb_minibatch(*args)
        else:
            import numba

            numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
            n_t = kernels.svb_minibatch_parallel(*args, self._acc_extra)
        self.lscale = kernels.scaled_apply(
            self.L, self.lscale, self.Lsum, self.acc, self._dummyaccZ, self._dummyZ,
            self.touched, self.touched_list, n_t, rho, sf,
        )  # fmt: skip
        self.minibatches += 1
        self.docs_seen += len(docs)
        self.tokens_seen += int(self.doclen[docs].sum())
        check_finite(self.Lsum, "lambda (topic row sums)", self.minibatches)
        return gout

    @property
    def lam(self) -> np.ndarray:
        """lambda, W x K (variational Dirichlet parameters of the topics)."""
        return self.eta + self.lscale * self.L

    def phi_wk(self) -> np.ndarray:
        """E_q[Phi] = lambda / sum_w lambda, W x K (``phi().T``)."""
        lam = self.lam
        return lam / lam.sum(axis=0)

    def exp_elog_phi_wk(self) -> np.ndarray:
        lam = self.lam
        return np.exp(digamma(lam) - digamma(lam.sum(axis=0)))

    def transform(self, corpus, n_iter: int = 100, tol: float = 1e-3) -> np.ndarray:
        """E_q[theta] (n_docs x K) of new documents by the model's own VB local step
        (:func:`vb_theta`, Blei et al. 2003) with the topics frozen."""
        from .theta import check_vocab

        check_n_iter(n_iter)
        eb = self.exp_elog_phi_wk()
        check_vocab(corpus, eb)
        csr = (corpus.indptr, corpus.word_ids, corpus.counts)
        return vb_theta(csr, eb, self.alpha, int(n_iter), tol)


class SVB(MinibatchLoop, _VBBase):
    """Stochastic VB for LDA, SVB-B{n_local}-O{offset} (thesis Sec. 4.3.1, Fig. 4.3).

    alpha, beta(=eta) are shifted by ``offset`` (O in {0, 0.5}). Per minibatch S of
    ``minibatch`` documents: gamma_d ~ Gamma(100, 1/100); exactly ``n_local`` (B)
    local passes; lambda_hat = eta + (D/|S|) sstats; lambda := (1-rho_t) lambda +
    rho_t lambda_hat with rho_t = s/(tau + t)^kappa, t counting minibatches (Sec. 4.3).
    exp(E[log Phi]) is computed once per minibatch, for the minibatch's words only
    (sparse topic updates, as the thesis's Julia SVB). ``dense=True`` costs what Hoffman's
    ``onlineldavb.py`` costs: exp(E[log Phi]) for all W words and a dense lambda update
    per minibatch (same iterates up to rounding; for the benchmark).

    ``fit(corpus, n_iter=1.0, callback=None, *, max_docs=None, time_budget=None)``:
    ``n_iter`` passes (epochs) over the documents, or fewer when a budget is reached
    (:class:`MinibatchLoop`). ``phi()`` is E_q[Phi] (K x W); ``theta()`` the training
    documents' E_q[theta] from a VB local step at the final topics (:func:`vb_theta`).
    """

    def __init__(
        self,
        K,
        alpha=0.1,
        beta=0.01,
        offset=0.0,
        minibatch=100,
        n_local=1,
        rho=RHO_PHI,
        seed=0,
        dense: bool = False,
        threads: int = 1,
    ):
        self.K = check_K(K)
        self.offset = float(offset)
        if self.offset < 0:
            raise ConfigError("offset", f"must be >= 0, got {offset}")
        self.alpha = check_alpha(np.asarray(alpha, dtype=float) + self.offset, self.K)
        self.eta = check_positive(float(beta) + self.offset, "beta")
        self.beta = self.eta
        if int(minibatch) < 1:
            raise ConfigError("minibatch", f"must be >= 1 document, got {minibatch}")
        self.minibatch = int(minibatch)
        if int(n_local) < 1:
            raise ConfigError("n_local", f"must be >= 1 local pass, got {n_local}")
        self.n_local = int(n_local)
        self.rho = StepSize.from_config(rho, "rho")
        self.seed = int(seed)
        self.dense = bool(dense)
        self.threads = _check_threads(threads)

    def initialize(self, corpus) -> SVB:
        self._setup(corpus)
        if self.minibatch > len(self.docs):
            raise ConfigError(
                "minibatch",
                f"{self.minibatch} documents is larger than the corpus "
                f"({len(self.docs)} non-empty documents)",
            )
        self.t = 0
        self._order = np.empty(0, dtype=np.int64)
        self._pos = 0
        return self

    def _next_docs(self):
        if self._pos >= len(self._order):
            self._order = self.docs[self.rng.permutation(len(self.docs))]
            self._pos = 0
        b = self._order[self._pos : self._pos + self.minibatch]
        self._pos += len(b)
        return b

    def partial_fit(self, docs) -> None:
        docs = np.asarray(docs, dtype=np.int64)
        self.t += 1
        if self.dense:  # Hoffman's onlineldavb.py: exp(E[log Phi]) for every word
            self.expElogbeta[:] = self.exp_elog_phi_wk()
        self._update(docs, self.n_local, 0.0, float(self.rho(self.t)), len(self.docs) / len(docs))
        if self.dense:  # ... and a dense lambda update
            self.L *= self.lscale
            self.Lsum = self.L.sum(axis=0)
            self.lscale = 1.0

    def theta(self) -> np.ndarray:
        """E_q[theta] of the training documents (D x K) at the current topics
        (:func:`vb_theta`; uses no random numbers, so training can continue unchanged)."""
        csr = (self.indptr, self.wids, self.cnts)
        return vb_theta(csr, self.exp_elog_phi_wk(), self.alpha)


class BatchVB(_VBBase):
    """Batch VB (Blei et al. 2003 with a Dirichlet on topics; used for thesis Fig. 4.7,
    whose equations the thesis does not give):
    every iteration runs the E-step on all documents (up to ``max_local`` passes per
    document, stopping when the mean |change of gamma| < ``tol``, as Hoffman's code),
    then lambda = eta + sstats (SVB with the whole corpus as the batch and rho = 1).

    ``fit(corpus, n_iter, callback=None, *, time_budget=None)``: ``n_iter`` iterations,
    ``callback(model, {"iteration", "train_seconds"}) -> stop`` after each; ``theta()`` is
    E_q[theta] from the last E-step's gammas (D x K).
    """

    def __init__(self, K, alpha=0.1, beta=0.01, max_local=100, tol=1e-3, seed=0, threads=1):
        self.K = check_K(K)
        self.alpha = check_alpha(alpha, self.K)
        self.eta = check_positive(beta, "beta")
        self.beta = self.eta
        self.max_local = int(max_local)
        self.tol = float(tol)
        self.seed = int(seed)
        self.threads = _check_threads(threads)
        self.iteration = 0

    def initialize(self, corpus) -> BatchVB:
        self._setup(corpus)
        self._gamma = None
        self.iteration = 0
        return self

    def step(self) -> None:
        self._gamma = self._update(self.docs, self.max_local, self.tol, 1.0, 1.0)
        self.iteration += 1

    def fit(self, corpus, n_iter: int, callback: Callable | None = None, *, time_budget=None):
        """Initialise on ``corpus`` and run ``n_iter`` iterations (or until
        ``time_budget`` seconds of training)."""
        n = check_n_iter(n_iter)
        if n != int(n):
            raise ConfigError("n_iter", f"must be a whole number of iterations, got {n_iter!r}")
        self.initialize(corpus)
        for _ in range(int(n)):
            t0 = time.perf_counter()
            self.step()
            self.train_seconds += time.perf_counter() - t0
            info = {"iteration": self.iteration, "train_seconds": self.train_seconds}
            if callback is not None and callback(self, info):
                break
            if time_budget is not None and self.train_seconds >= time_budget:
                break
        return self

    def theta(self) -> np.ndarray:
        """E_q[theta] (D x K) from the gammas of the last E-step (empty documents:
        alpha / sum alpha); before any iteration, :func:`vb_theta` at the initial topics."""
        if self.iteration == 0:
            return vb_theta((self.indptr, self.wids, self.cnts), self.exp_elog_phi_wk(), self.alpha)
        theta = np.tile(self.alpha / self.alpha.sum(), (len(self.indptr) - 1, 1))
        theta[self.docs] = self._gamma / self._gamma.sum(axis=1, keepdims=True)
        return theta
