"""Gaussian DP mixture (GDPMM) built from the IWTM machinery (Waters 2014, Sec. 2.3.3 and
the LDA+GDPMM baseline of Sec. 5.6.1).

One DP over all descriptors: beta ~ GEM(gamma) truncated at C sticks, (mu_c, lambda_c) ~
the Normal-Gamma base measure of IWTM (:class:`.normal_gamma.NGPrior`), c_i ~ beta,
x_i ~ N(mu_c, lambda_c^-1 I). Mean-field CAVI with IWTM's updates and nothing else:

- responsibilities q(c_i = c) ∝ exp(E log beta_c + E l_ic) (Eq. 5.11 with one topic and
  the identity atom-to-cluster map; E l of Table 5.1 as one GEMM, :func:`el_weights`);
- clusters: Eqs 5.13-5.16 (:func:`cluster_posterior`) from the weighted statistics;
- sticks: Eqs 5.18-5.19 / 5.23-5.24 with simulated reordering (:mod:`.sticks`).

It is IWTM with T = 1, K = C, one document and the mapping fixed to the identity (tested:
the same states, and the same ELBO less IWTM's mapping and master-stick terms). The
responsibilities are dense over all C clusters (exact coordinate steps; with a fixed
stick order the ELBO never decreases). Descriptors are quantised to the in-use cluster
(E n_c >= 1) of highest Student-t predictive density (Sec. 5.6.1).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from latentlab.errors import ConfigError, DataError, DivergenceError

from .cavi import IWTMCavi, default_threads
from .kernels import softmax_rows
from .normal_gamma import (
    ClusterQ,
    NGPrior,
    augment,
    cluster_elbo_terms,
    cluster_posterior,
    el_weights,
    student_t_logpdf,
)
from .sticks import elog_sticks, stick_elbo_terms, stick_params


@dataclass(frozen=True)
class GdpmmSettings:
    """Truncation C, DP concentration gamma (ch. 5: C = 4000, gamma = 10 as IWTM's master
    DP), simulated reordering of the sticks (Sec. 5.4.5) as IWTM."""

    C: int = 4000
    gamma: float = 10.0
    reorder: bool = True

    def check(self):
        if int(self.C) < 1:
            raise ConfigError("iwtm gdpmm C", f"must be >= 1, got {self.C}")
        if not self.gamma > 0:
            raise ConfigError("iwtm gdpmm gamma", f"must be > 0, got {self.gamma}")


@dataclass
class MixStats:
    """What the local step leaves: weighted statistics and the responsibilities' entropy."""

    n_c: np.ndarray  # C
    s_c: np.ndarray  # C x D
    q_c: np.ndarray  # C
    entropy: float


class IWTMGdpmm:
    """CAVI for the Gaussian DP mixture. ``fit(X, n_iter)``; ``predict`` quantises."""

    _threads = IWTMCavi._threads  # numba thread count for the kernels

    def __init__(self, settings: GdpmmSettings, prior: NGPrior, seed: int = 0,
                 chunk: int = 4096, threads: int | None = None):  # fmt: skip
        settings.check()
        self.s = settings
        self.C = int(settings.C)
        self.prior = prior
        self.seed = int(seed)
        self.chunk = int(chunk)
        self.threads = default_threads() if threads is None else max(1, int(threads))
        self.timing: dict[str, float] = {}

    # -- initialisation (Sec. 5.4.7, as IWTM: the same random stream for T = 1, K = C)
    def initialize(self, X: np.ndarray):
        rng = np.random.default_rng(self.seed)
        N, D = X.shape
        if D != self.prior.dim:
            raise ConfigError("iwtm gdpmm", f"data dim {D} != prior dim {self.prior.dim}")
        pick = rng.choice(N, size=self.C, replace=N < self.C)
        self.q = ClusterQ.at_points(X[pick], self.prior)
        self.n_c = np.zeros(self.C)
        self.stick_step(rng.uniform(0, 0.1, size=self.C))
        return self

    # -- blocks
    def local_step(self, X: np.ndarray, Xa: np.ndarray | None = None) -> MixStats:
        """q(c_i) ∝ exp(E log beta_c + E l_ic) for every datum, chunk by chunk (GEMM +
        numba softmax); leaves n_c = sum_i q_ic, s_c = sum_i q_ic x_i, q_c = sum_i q_ic
        ||x_i||^2 and the entropy."""
        t0 = time.perf_counter()
        if Xa is None:
            Xa = augment(X)
        D = X.shape[1]
        W = el_weights(self.q)
        n_c, s_c, q_c = np.zeros(self.C), np.zeros((self.C, D)), np.zeros(self.C)
        ent = 0.0
        with self._threads():
            for a in range(0, len(Xa), self.chunk):
                R = Xa[a : a + self.chunk] @ W
                R += self.elog_beta[None, :]
                ent += softmax_rows(R)
                n_c += R.sum(0)
                s_c += R.T @ X[a : a + self.chunk]
                q_c += R.T @ Xa[a : a + self.chunk, D]
        self.timing["local"] = self.timing.get("local", 0.0) + time.perf_counter() - t0
        return MixStats(n_c, s_c, q_c, float(ent))

    def cluster_step(self, st: MixStats):
        """Eqs 5.13-5.16 from the weighted statistics."""
        self.q = cluster_posterior(st.n_c, st.s_c, st.q_c, self.prior)
        self.n_c = st.n_c

    def stick_step(self, counts: np.ndarray):
        """Eqs 5.18-5.19 / 5.23-5.24 (simulated reordering unless ``reorder`` is off)."""
        fixed = None if self.s.reorder else getattr(self, "order", None)
        self.a, self.b, _, self.order = stick_params(counts, self.s.gamma, fixed)
        self.elog_beta = elog_sticks(self.a, self.b, self.order)

    # -- ELBO
    def elbo(self, st: MixStats) -> float:
        """E log p(X, c, beta, mu, lambda) - E log q from the local step's statistics and
        the current globals (IWTM's ELBO as derived in :mod:`.cavi`, with one topic and no
        map)."""
        q = self.q
        el = q.e_lam
        mm = np.einsum("cd,cd->c", q.mt, q.mt)
        sdot = np.einsum("cd,cd->c", st.s_c, q.mt)
        ell = st.n_c * q.const() - 0.5 * el * (st.q_c - 2.0 * sdot + st.n_c * mm)
        L = float(ell.sum() + (st.n_c * self.elog_beta).sum()) + st.entropy
        L += stick_elbo_terms(self.a[None], self.b[None], self.order[None], self.s.gamma)
        return L + cluster_elbo_terms(q, self.prior)

    # -- driver
    def fit(self, X, n_iter: int, trace_blocks: bool = False):
        """``n_iter`` iterations of responsibilities -> clusters -> sticks. ``history``
        holds the ELBO after each iteration and the clusters in use; ``trace_blocks``
        records the ELBO after every block in ``trace``."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        if not np.all(np.isfinite(X)):
            raise DataError("iwtm gdpmm descriptors", "non-finite value in the descriptors")
        if not hasattr(self, "q"):
            self.initialize(X)
        Xa = augment(X)
        self.history, self.trace = [], []
        for it in range(int(n_iter)):
            t0 = time.perf_counter()
            st = self.local_step(X, Xa)
            if trace_blocks:
                self.trace.append((it, "local", self.elbo(st)))
            self.cluster_step(st)
            if trace_blocks:
                self.trace.append((it, "cluster", self.elbo(st)))
            self.stick_step(st.n_c)
            e = self.elbo(st)
            if not (math.isfinite(e) and np.all(np.isfinite(self.q.mt))):
                raise DivergenceError("iwtm gdpmm", it)
            if trace_blocks:
                self.trace.append((it, "sticks", e))
            self.last_stats = st
            self.history.append({"iteration": it, "seconds": time.perf_counter() - t0,
                                 "elbo": e, "clusters_used": self.n_used()})  # fmt: skip
        return self

    def n_used(self, threshold: float = 1.0) -> int:
        """Clusters with E n_c >= 1 (as IWTM's count)."""
        return int((self.n_c >= threshold).sum())

    def used(self, threshold: float = 1.0) -> np.ndarray:
        return np.flatnonzero(self.n_c >= threshold)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Hard words: each datum's in-use cluster of highest Student-t predictive density
        (:func:`student_t_logpdf`; ties: the lower index), as cluster indices 0..C-1."""
        X = np.asarray(X, dtype=np.float64)
        used = self.used()
        if len(used) == 0:
            raise DataError("iwtm gdpmm predict", "no cluster in use (fit first)")
        sub = ClusterQ(self.q.mt[used], self.q.nu[used], self.q.chi1[used], self.q.chi2[used])
        out = np.empty(len(X), np.int64)
        for a in range(0, len(X), self.chunk):
            out[a : a + self.chunk] = used[student_t_logpdf(X[a : a + self.chunk], sub).argmax(1)]
        return out
