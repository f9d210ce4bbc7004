"""Batch collapsed variational algorithms for LDA: CVB0 (Asuncion et al. 2009, Eq. 4.28),
second-order CVB (Teh et al. 2007, Eqs. 4.24-4.25) and batch MAP_LDA_U (Eq. 4.57,
Appendix B)."""

from __future__ import annotations

import numpy as np

from latentlab.errors import ConfigError

from . import kernels
from ._common import (
    BatchLoop,
    check_alpha,
    check_corpus,
    check_finite,
    check_K,
    check_positive,
)


def expand_tokens(corpus, rng: np.random.Generator | None = None):
    """Token stream as a CSR with counts 1 (the unclumped form): ``(indptr, wids, cnts)``.
    With ``rng``, tokens are shuffled within each document (once)."""
    ptr, w = corpus.to_tokens()
    w = w.copy()
    if rng is not None:
        for d in range(len(ptr) - 1):
            s, e = ptr[d], ptr[d + 1]
            if e - s > 1:
                w[s:e] = w[s:e][rng.permutation(e - s)]
    return ptr, w, np.ones(len(w), dtype=np.int32)


class CVB0(BatchLoop):
    """Batch CVB0 (``order=0``, Eq. 4.28) or second-order CVB (``order=2``, Eq. 4.25).

    ``clumping=True`` keeps one gamma per distinct word of a document (Sec. 4.2.1:
    exact only for uncollapsed algorithms, an approximation here); ``False`` keeps one
    per token. Statistics (Eq. 4.29): ``n_dk`` (D x K), ``n_wk`` (W x K), ``n_k``.
    ``fit(corpus, n_iter, callback=None)``: ``n_iter`` sweeps, ``callback(model,
    {"iteration": i}) -> stop`` after each; ``phi()`` K x W, ``theta()`` D x K.
    """

    def __init__(self, K, alpha=0.1, beta=0.01, order: int = 0, clumping: bool = True, seed=0):
        self.K = check_K(K)
        self.alpha = check_alpha(alpha, self.K)
        self.beta = check_positive(beta, "beta")
        if order not in (0, 2):
            raise ConfigError("order", f"must be 0 (CVB0) or 2 (second-order CVB), got {order}")
        self.order = order
        self.clumping = bool(clumping)
        self.seed = int(seed)
        self.iteration = 0

    def initialize(self, corpus) -> CVB0:
        _, _, _, W = check_corpus(corpus)
        self.W = W
        self.n_empty_docs = corpus.n_empty_docs
        rng = np.random.default_rng(self.seed)
        if self.clumping:
            self.indptr, self.wids, self.cnts = corpus.indptr, corpus.word_ids, corpus.counts
        else:
            self.indptr, self.wids, self.cnts = expand_tokens(corpus, rng)
        E = len(self.wids)
        g = rng.standard_exponential((E, self.K))
        self.gamma = g / g.sum(axis=1, keepdims=True)
        self._recount()
        self.iteration = 0
        return self

    def _recount(self):
        D = len(self.indptr) - 1
        d_of = np.repeat(np.arange(D), np.diff(self.indptr))
        mg = self.cnts[:, None] * self.gamma
        self.n_dk = np.zeros((D, self.K))
        np.add.at(self.n_dk, d_of, mg)
        self.n_wk = np.zeros((self.W, self.K))
        np.add.at(self.n_wk, self.wids, mg)
        self.n_k = mg.sum(axis=0)
        if self.order == 2:
            mv = self.cnts[:, None] * self.gamma * (1 - self.gamma)
            self.v_dk = np.zeros((D, self.K))
            np.add.at(self.v_dk, d_of, mv)
            self.v_wk = np.zeros((self.W, self.K))
            np.add.at(self.v_wk, self.wids, mv)
            self.v_k = mv.sum(axis=0)
        else:
            self.v_dk = np.zeros((1, 1))
            self.v_wk = np.zeros((1, 1))
            self.v_k = np.zeros(1)

    def step(self) -> None:
        kernels.cvb_sweep(
            self.indptr, self.wids, self.cnts, self.gamma, self.n_dk, self.n_wk, self.n_k,
            self.v_dk, self.v_wk, self.v_k, self.alpha, self.beta, self.W * self.beta,
            self.order == 2,
        )  # fmt: skip
        self.iteration += 1
        check_finite(self.n_k, "N^Z (CVB topic totals)", self.iteration)

    def phi_wk(self) -> np.ndarray:
        """Phi as W x K (``phi().T``): (n_wk + beta)/(n_k + W beta) (Eq. 4.29)."""
        return (self.n_wk + self.beta) / (self.n_k + self.W * self.beta)

    def theta(self) -> np.ndarray:
        """Theta, D x K: (n_dk + alpha_k)/(n_d + sum alpha) (Eq. 4.29)."""
        nd = self.n_dk.sum(axis=1, keepdims=True)
        return (self.n_dk + self.alpha) / (nd + self.alpha.sum())


class MapLdaU(BatchLoop):
    """Batch MAP_LDA_U: EM for MAP on unnormalised counts (Eqs. 4.57-4.59, App. B).

    Needs alpha > 1 and beta > 1 (the MAP estimates of Eq. 4.59 are then interior).
    Full E-step then full M-step (the statistics are synchronised with the
    responsibility sums, Eq. 4.65), so the log posterior Eq. B.1 never decreases.
    ``fit(corpus, n_iter, callback=None)`` as :class:`CVB0`; ``phi()``/``theta()`` are the
    MAP estimates (Eq. 4.59).
    """

    def __init__(self, K, alpha=1.1, beta=1.01, seed=0):
        self.K = check_K(K)
        self.alpha = check_alpha(alpha, self.K)
        self.beta = check_positive(beta, "beta")
        if np.any(self.alpha <= 1):
            raise ConfigError("alpha", "MAP_LDA_U needs alpha > 1 (Eq. 4.59)")
        if self.beta <= 1:
            raise ConfigError("beta", "MAP_LDA_U needs beta > 1 (Eq. 4.59)")
        self.seed = int(seed)
        self.iteration = 0

    def initialize(self, corpus) -> MapLdaU:
        _, _, _, W = check_corpus(corpus)
        self.W = W
        self.n_empty_docs = corpus.n_empty_docs
        self.indptr, self.wids, self.cnts = corpus.indptr, corpus.word_ids, corpus.counts
        rng = np.random.default_rng(self.seed)
        g = rng.standard_exponential((len(self.wids), self.K))
        g /= g.sum(axis=1, keepdims=True)
        D = corpus.n_docs
        d_of = np.repeat(np.arange(D), np.diff(self.indptr))
        mg = self.cnts[:, None] * g
        self.n_dk = np.zeros((D, self.K))
        np.add.at(self.n_dk, d_of, mg)
        self.n_wk = np.zeros((W, self.K))
        np.add.at(self.n_wk, self.wids, mg)
        self.n_k = mg.sum(axis=0)
        self.iteration = 0
        return self

    def step(self) -> None:
        self.n_dk, self.n_wk, self.n_k = kernels.map_em_step(
            self.indptr, self.wids, self.cnts, self.n_dk, self.n_wk, self.n_k,
            self.alpha, self.beta, self.W,
        )  # fmt: skip
        self.iteration += 1
        check_finite(self.n_k, "N^Z (MAP_LDA_U topic totals)", self.iteration)

    def phi_wk(self) -> np.ndarray:
        """MAP Phi (Eq. 4.59), W x K (``phi().T``)."""
        return (self.n_wk + self.beta - 1) / (self.n_k + self.W * (self.beta - 1))

    def theta(self) -> np.ndarray:
        """MAP Theta (Eq. 4.59), D x K."""
        Cd = self.n_dk.sum(axis=1, keepdims=True)
        return (self.n_dk + self.alpha - 1) / (Cd + self.alpha.sum() - self.K)

    def objective(self) -> float:
        """Log posterior Eq. B.1 (up to a constant) at the MAP parameters of Eq. 4.59."""
        phi, th = self.phi_wk(), self.theta()
        D = len(self.indptr) - 1
        d_of = np.repeat(np.arange(D), np.diff(self.indptr))
        lik = np.sum(self.cnts * np.log(np.einsum("ek,ek->e", th[d_of], phi[self.wids])))
        return float(
            lik + np.sum((self.alpha - 1) * np.log(th)) + (self.beta - 1) * np.sum(np.log(phi))
        )
