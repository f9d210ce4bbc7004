"""Collapsed Gibbs sampling for LDA (Griffiths & Steyvers 2004; thesis Eq. 1.17 / 4.21)
with MALLET-style hyperparameter optimisation (thesis Sec. 5.3; the schedule is not
stated there, see ``optimize_interval``)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np

from latentlab.errors import ConfigError

from . import kernels
from ._common import BatchLoop, check_alpha, check_corpus, check_K, check_positive
from .hyper import count_histograms, log_collapsed_joint, minka_alpha, minka_beta_symmetric

log = logging.getLogger(__name__)


class CGS(BatchLoop):
    """Collapsed Gibbs sampler for LDA, current token excluded (Eq. 4.21).

    Parameters
    ----------
    K : number of topics (>= 1).
    alpha : per-topic document prior alpha_k, scalar (symmetric start) or length-K.
    beta : symmetric topic-word prior (per word; the sum is W*beta).
    optimize_interval : learn alpha (asymmetric) every this many iterations after
        ``burn_in`` (MALLET ``--optimize-interval``; 0 disables). The optimisation
        runs after iteration ``it`` (1-based) when ``it > burn_in`` and
        ``it % optimize_interval == 0``, so with the defaults the first one is at
        iteration 300 (not stated in the thesis; inferred from the jump at iteration 300
        and the ridges at 100-iteration intervals of Figs 5.7 and 5.11).
    burn_in : MALLET ``--optimize-burn-in``.
    learn_beta : also learn the symmetric beta on the same schedule.
    seed : the run is a function of the seed (uniforms come from
        ``numpy.random.default_rng(seed)``).
    sampler : ``'sparse'`` (default; SparseLDA buckets, :func:`kernels.cgs_sweep_sparse`)
        or ``'dense'`` (:func:`kernels.cgs_sweep`, draw-for-draw equal to the numpy
        reference). Both sample the same conditional.

    ``fit(corpus, n_iter, callback=None)``: ``n_iter`` sweeps; ``callback(model,
    {"iteration": i}) -> stop`` after each (the model's arrays are live: copy what you
    keep). After :meth:`fit`: ``z`` (one topic per token, doc-major token order of
    ``corpus.to_tokens()``), ``n_dk`` (D x K), ``n_wk`` (W x K, word-major),
    ``n_k``, ``alpha`` (K), ``beta`` (scalar); :meth:`phi` returns Phi as
    **K x W** (rows are topics), :meth:`phi_wk` the W x K transpose, :meth:`theta` D x K.
    """

    def __init__(
        self,
        K: int,
        alpha=0.1,
        beta: float = 0.01,
        optimize_interval: int = 100,
        burn_in: int = 200,
        learn_beta: bool = False,
        seed: int = 0,
        sampler: str = "sparse",
    ):
        self.K = check_K(K)
        self.alpha = check_alpha(alpha, self.K)
        self.beta = check_positive(beta, "beta")
        if int(optimize_interval) < 0:
            raise ConfigError("optimize_interval", f"must be >= 0, got {optimize_interval}")
        if int(burn_in) < 0:
            raise ConfigError("burn_in", f"must be >= 0, got {burn_in}")
        self.optimize_interval = int(optimize_interval)
        self.burn_in = int(burn_in)
        self.learn_beta = bool(learn_beta)
        self.seed = int(seed)
        if sampler not in ("sparse", "dense"):
            raise ConfigError("sampler", f"must be 'sparse' or 'dense', got {sampler!r}")
        self.sampler = sampler
        self.iteration = 0
        self.n_empty_docs = 0

    # ------------------------------------------------------------------ set-up
    def initialize(self, corpus) -> CGS:
        """Uniform random initial assignments (drawn from the seeded generator)."""
        _, _, _, W = check_corpus(corpus)
        self.W = W
        self.ptr, self.w = corpus.to_tokens()
        self.n_empty_docs = corpus.n_empty_docs
        self.rng = np.random.default_rng(self.seed)
        self.z = self.rng.integers(0, self.K, size=len(self.w)).astype(np.int32)
        self.n_dk, self.n_wk, self.n_k = kernels.count_assignments(
            self.ptr, self.w, self.z, self.K, self.W
        )
        self._p = np.empty(self.K)
        if self.sampler == "sparse":
            self._wl = kernels.build_word_lists(self.n_wk)
        self.iteration = 0
        return self

    def step(self) -> None:
        """One Gibbs sweep, then the MALLET hyperparameter schedule."""
        u = self.rng.random(len(self.w))
        if self.sampler == "sparse":
            kernels.cgs_sweep_sparse(
                self.ptr, self.w, self.z, self.n_dk, self.n_wk, self.n_k,
                self.alpha, self.beta, self.W * self.beta, u, *self._wl,
            )  # fmt: skip
        else:
            self._dense_sweep(u)
        self.iteration += 1
        it = self.iteration
        if self.optimize_interval and it > self.burn_in and it % self.optimize_interval == 0:
            self.optimize_hyperparameters()

    def _dense_sweep(self, u) -> None:
        inv = 1.0 / (self.n_k + self.W * self.beta)
        kernels.cgs_sweep(
            self.ptr, self.w, self.z, self.n_dk, self.n_wk, self.n_k,
            self.alpha, self.beta, self.W * self.beta, u, self._p, inv,
        )  # fmt: skip

    def optimize_hyperparameters(self) -> None:
        """Minka fixed point on the count histograms (asymmetric alpha; symmetric beta
        if ``learn_beta``); the thesis names MALLET's optimisation only (Sec. 5.3)."""
        hist, len_hist = count_histograms(self.n_dk)
        self.alpha = minka_alpha(self.alpha, hist, len_hist)
        if self.learn_beta:
            self.beta = minka_beta_symmetric(self.beta, self.n_wk, self.W)
        log.info(
            "iteration %d: alpha_sum=%.4g beta=%.4g", self.iteration, self.alpha.sum(), self.beta
        )

    # --------------------------------------------------------------- accessors
    def phi_wk(self) -> np.ndarray:
        """Phi as W x K (word-major, the layout of the kernels; ``phi().T``):
        (n_wk + beta)/(n_k + W beta) (Griffiths & Steyvers Eq. 7)."""
        return (self.n_wk + self.beta) / (self.n_k + self.W * self.beta)

    def theta(self) -> np.ndarray:
        """Theta, D x K: (n_dk + alpha_k)/(n_d + sum alpha)."""
        nd = self.n_dk.sum(axis=1, keepdims=True)
        return (self.n_dk + self.alpha) / (nd + self.alpha.sum())

    def log_joint(self) -> float:
        """log P(w, z | alpha, beta), Eq. 4.20."""
        return log_collapsed_joint(self.n_dk, self.n_wk, self.alpha, self.beta)

    def snapshot(self) -> dict:
        """Copies of the state a caller may want to keep per iteration."""
        return {
            "iteration": self.iteration,
            "n_wk": self.n_wk.copy(),
            "n_k": self.n_k.copy(),
            "alpha": self.alpha.copy(),
            "beta": self.beta,
        }


def sample_fixed_phi(
    phi_wk: np.ndarray,
    alpha,
    word_ids: np.ndarray,
    n_iter: int,
    seed: int | np.random.Generator = 0,
    z0: np.ndarray | None = None,
    callback: Callable | None = None,
):
    """Gibbs sampling of one document's topic assignments with topics fixed
    (thesis Eq. 4.21 with Phi fixed): P(z_i = k | rest) ∝ (n_k^{(d)-i} + alpha_k) Phi_{w_i k}.

    ``phi_wk`` is W x K; ``word_ids`` the document's token stream (one id per token).
    Returns ``(z, n_k)`` after ``n_iter`` sweeps; ``callback(z, n_k, it)`` runs after
    each sweep. Initial state: ``z0`` or a draw from the prior-free proposal
    P(z_i = k) ∝ alpha_k Phi_{w_i k}.
    """
    phi_wk = np.ascontiguousarray(phi_wk, dtype=np.float64)
    W, K = phi_wk.shape
    alpha = check_alpha(alpha, K)
    w = np.ascontiguousarray(word_ids, dtype=np.int32)
    if len(w) and (w.min() < 0 or w.max() >= W):
        raise ConfigError("word_ids", f"word id outside the vocabulary of size W={W}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if z0 is None:
        p = alpha * phi_wk[w]
        c = np.cumsum(p, axis=1)
        r = rng.random(len(w))[:, None] * c[:, -1:]
        z = np.minimum((c <= r).sum(axis=1), K - 1).astype(np.int32)
    else:
        z = np.array(z0, dtype=np.int32)
    nk = np.bincount(z, minlength=K).astype(np.int32)
    buf = np.empty(K)
    for it in range(int(n_iter)):
        kernels.fixed_phi_sweep(w, z, nk, phi_wk, alpha, rng.random(len(w)), buf)
        if callback is not None:
            callback(z, nk, it + 1)
    return z, nk
