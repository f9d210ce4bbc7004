"""SCVB0: stochastic collapsed variational Bayes, zero order (Foulds et al. 2013;
thesis Algorithm 7, Eqs. 4.43-4.49, Sec. 4.2.3-4.2.4)."""

from __future__ import annotations

import numpy as np

from latentlab.errors import ConfigError

from . import kernels
from ._common import (
    MinibatchLoop,
    StepSize,
    check_alpha,
    check_corpus,
    check_finite,
    check_K,
    check_positive,
    nonempty_docs,
)
from .cvb import expand_tokens

RHO_PHI = {"s": 10.0, "tau": 1000.0, "kappa": 0.9}  # Sec. 4.3, topic statistics
RHO_THETA = {"s": 1.0, "tau": 10.0, "kappa": 0.9}  # Sec. 4.3, document statistics


class SCVB0(MinibatchLoop):
    """SCVB0 with document minibatches (Algorithm 7).

    State: N^Phi (W x K, word-major; ``n_phi``), N^Z (K; ``n_z``); N^Theta_d lives only
    while document d is processed (no gamma is stored: memory independent of C).

    Per minibatch M of documents: each document starts from N^Theta_d = C_d Dir(1);
    ``n_burn`` burn-in passes update N^Theta_d only, then the final pass also adds
    (C/|M|) gamma to the minibatch estimates, |M| = tokens in the minibatch
    ("minibatches over tokens", Sec. 4.2.4);
    then N^Phi := (1-rho^Phi_t) N^Phi + rho^Phi_t N^Phi_hat (same for N^Z), t += 1.
    rho^Theta's clock restarts at each document and advances per token (per distinct
    word with ``clumping``, Eq. 4.49), continuing across the burn-in pass (the thesis
    leaves this open; our choice).
    ``phi_clock='minibatch'`` (default) or ``'documents'`` sets what t counts.
    Initialisation (the thesis says only "randomly initialize", Alg. 7; our choice):
    G ~ Gamma(100, 1/100) elementwise and
    N^Phi = C G / sum G (``init='corpus'``: total mass C, the default) or
    N^Phi = G (``init='hoffman'``: the scale of Hoffman's lambda initialisation, as SVB).
    ``threads > 1``: the documents of a minibatch are split into ``threads`` contiguous
    blocks processed in parallel (:func:`kernels.scvb0_minibatch_parallel`); the same
    iterates as ``threads=1`` up to the order of floating-point sums, deterministic for a
    given ``threads``.

    ``fit(corpus, n_iter=1.0, callback=None, *, max_docs=None, time_budget=None)``:
    ``n_iter`` passes (epochs) over the documents, or fewer when ``max_docs`` documents or
    ``time_budget`` seconds of training are reached (:class:`MinibatchLoop`);
    ``callback(model, info) -> stop`` after every minibatch. ``phi()`` is Phi_hat (K x W);
    ``theta()`` the training documents' N^Theta update at its fixed point with the final
    topics (:func:`latentlab.models.lda.theta.estimate_theta`).
    """

    def __init__(
        self,
        K,
        alpha=0.1,
        beta=0.01,
        minibatch: int = 100,
        rho_phi=RHO_PHI,
        rho_theta=RHO_THETA,
        n_burn: int = 1,
        clumping: bool = True,
        phi_clock: str = "minibatch",
        init: str = "corpus",
        seed: int = 0,
        threads: int = 1,
    ):
        self.K = check_K(K)
        self.alpha = check_alpha(alpha, self.K)
        self.beta = check_positive(beta, "beta")
        if int(minibatch) < 1:
            raise ConfigError("minibatch", f"must be >= 1 document, got {minibatch}")
        self.minibatch = int(minibatch)
        self.rho_phi = StepSize.from_config(rho_phi, "rho_phi")
        self.rho_theta = StepSize.from_config(rho_theta, "rho_theta")
        if int(n_burn) < 0:
            raise ConfigError("n_burn", f"must be >= 0, got {n_burn}")
        self.n_burn = int(n_burn)
        self.clumping = bool(clumping)
        if phi_clock not in ("minibatch", "documents"):
            raise ConfigError("phi_clock", f"must be 'minibatch' or 'documents', got {phi_clock}")
        self.phi_clock = phi_clock
        if init not in ("corpus", "hoffman"):
            raise ConfigError("init", f"must be 'corpus' or 'hoffman', got {init!r}")
        self.init = init
        self.seed = int(seed)
        if int(threads) < 1:
            raise ConfigError("threads", f"must be >= 1, got {threads}")
        self.threads = int(threads)

    # ------------------------------------------------------------------ set-up
    def initialize(self, corpus) -> SCVB0:
        _, _, _, W = check_corpus(corpus)
        self.W = W
        self._corpus = corpus
        self.rng = np.random.default_rng(self.seed)
        self.docs, self.n_empty_docs = nonempty_docs(corpus.indptr)
        if self.minibatch > len(self.docs):
            raise ConfigError(
                "minibatch",
                f"{self.minibatch} documents is larger than the corpus "
                f"({len(self.docs)} non-empty documents)",
            )
        if self.clumping:
            self.indptr, self.wids, self.cnts = corpus.indptr, corpus.word_ids, corpus.counts
        else:
            self.indptr, self.wids, self.cnts = expand_tokens(corpus, self.rng)
        self.doclen = corpus.doc_lengths().astype(np.float64)
        self.C = float(corpus.n_tokens)
        G = self.rng.gamma(100.0, 1.0 / 100.0, size=(W, self.K))
        self.M = G * (self.C / G.sum()) if self.init == "corpus" else G
        self.scale = 1.0
        self.Msum = self.M.sum(axis=0)
        self.n_z = self.Msum.copy()
        self.acc = np.zeros((W, self.K))
        self.accZ = np.zeros(self.K)
        # per-block accumulators of the parallel kernel (block 0 uses acc/accZ)
        self._acc_extra = np.zeros((self.threads - 1, W, self.K))
        self._accZ_extra = np.zeros((self.threads - 1, self.K))
        self.touched = np.zeros(W, dtype=np.bool_)
        self.touched_list = np.zeros(W, dtype=np.int64)
        max_entries = int(np.diff(self.indptr).max(initial=1))
        self._rho_theta_tab = self.rho_theta(np.arange(1, (self.n_burn + 1) * max_entries + 1))
        self.t = 0
        self.docs_seen = 0
        self.tokens_seen = 0
        self.minibatches = 0
        self.train_seconds = 0.0
        self._order = np.empty(0, dtype=np.int64)
        self._pos = 0
        return self

    @property
    def n_phi(self) -> np.ndarray:
        """N^Phi, W x K."""
        return self.scale * self.M

    def _next_docs(self) -> np.ndarray:
        if self._pos >= len(self._order):
            self._order = self.docs[self.rng.permutation(len(self.docs))]
            self._pos = 0
        b = self._order[self._pos : self._pos + self.minibatch]
        self._pos += len(b)
        return b

    def partial_fit(self, docs: np.ndarray) -> None:
        """One minibatch update (Eqs. 4.47-4.48) on the given document ids."""
        docs = np.asarray(docs, dtype=np.int64)
        e = self.rng.standard_exponential((len(docs), self.K))
        theta0 = e / e.sum(axis=1, keepdims=True)
        args = (
            docs, self.indptr, self.wids, self.cnts, self.doclen, self.M, self.scale,
            self.n_z, self.alpha, self.beta, self.W * self.beta, self.n_burn,
            self._rho_theta_tab, theta0, self.acc, self.accZ, self.touched, self.touched_list,
        )  # fmt: skip
        if self.threads == 1:
            n_t = kernels.scvb0_minibatch(*args)
        else:
            import numba

            numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
            n_t = kernels.scvb0_minibatch_parallel(*args, self._acc_extra, self._accZ_extra)
        n_tok = float(self.doclen[docs].sum())
        self.t += 1 if self.phi_clock == "minibatch" else len(docs)
        rho = float(self.rho_phi(self.t))
        self.scale = kernels.scaled_apply(
            self.M, self.scale, self.Msum, self.acc, self.accZ, self.n_z,
            self.touched, self.touched_list, n_t, rho, self.C / n_tok,
        )  # fmt: skip
        self.minibatches += 1
        self.docs_seen += len(docs)
        self.tokens_seen += int(n_tok)
        check_finite(self.n_z, "N^Z (SCVB0 topic statistics)", self.minibatches)

    # --------------------------------------------------------------- accessors
    def phi_wk(self) -> np.ndarray:
        """Phi_hat_wk = (N^Phi_wk + beta)/(N^Z_k + W beta) (Sec. 4.3), W x K (``phi().T``)."""
        return (self.n_phi + self.beta) / (self.n_z + self.W * self.beta)

    def theta(self, n_iter: int = 100, tol: float = 1e-6) -> np.ndarray:
        """Theta of the training documents (D x K): (N^Theta_d + alpha)/(C_d + sum alpha)
        at the fixed point of the document update (Eq. 4.43) with the current topics
        frozen. Deterministic (no random numbers are drawn), so training can continue."""
        from .theta import estimate_theta

        return estimate_theta(self._corpus, self.phi_wk(), self.alpha, n_iter, tol)
