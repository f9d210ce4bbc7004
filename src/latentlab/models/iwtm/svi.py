"""Stochastic variational inference for IWTM (Waters 2014, ch. 6; Hoffman et al. 2012).

Each iteration samples a minibatch S of documents uniformly without replacement, runs the
CAVI local step on it (Sec. 6.3.2: "the exact same document-level inference"), and moves
every global parameter to (1 - rho) lambda + rho lambda_hat, where lambda_hat is the
complete conditional's natural parameter with the minibatch replicated N_doc/|S| times
(Eqs 6.11-6.12):

- clusters: Normal-Gamma natural parameters (``normal_gamma.natural_posterior``; the
  printed Eqs 6.17-6.27 are garbled, this is the exact form);
- mappings: log b_k (the categorical's natural parameter, up to a per-row constant),
  entries outside an atom's stored top-J support read as ``log_floor``;
- topic sticks: the pseudo-counts zeta (Eqs 6.35-6.39), then ranks;
- master sticks: exact from xi (Eqs 6.40-6.43, with gamma).

rho = 1 with |S| = N_doc is one CAVI iteration (claim C4, tested). The learning rate is
fixed; the document sets |S| = rho N_doc (Sec. 6.3.7). The ELBO is not monotone under
SVI; it is measured on the full corpus at snapshots, outside the timed training.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from latentlab.errors import ConfigError, DataError, DivergenceError

from .cavi import CaviSettings, IWTMCavi, LocalStats
from .normal_gamma import NGPrior, from_natural, natural_posterior, to_natural


@dataclass(frozen=True)
class SviSettings:
    """rho in (0, 1]; ``batch`` = |S| (None: round(rho N_doc), the document's rule)."""

    rho: float = 0.5
    batch: int | None = None
    log_floor: float = -700.0

    def check(self):
        if not (0.0 < self.rho <= 1.0):
            raise ConfigError("iwtm svi rho", f"must be in (0, 1], got {self.rho}")
        if self.batch is not None and int(self.batch) < 1:
            raise ConfigError("iwtm svi batch", f"must be >= 1, got {self.batch}")


def doc_rows(indptr: np.ndarray, docs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows of the documents' data, indptr of the sub-corpus), documents in given order."""
    starts = indptr[docs]
    lens = indptr[docs + 1] - starts
    sub = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    rows = np.arange(sub[-1], dtype=np.int64) + np.repeat(starts - sub[:-1], lens)
    return rows, sub


class IWTMSvi(IWTMCavi):
    """SVI for IWTM. ``fit(X, indptr, n_iter, snapshots=...)`` may be called repeatedly on
    a growing corpus (IVI): N_doc/|S| always uses the corpus of the current call."""

    def __init__(self, settings: CaviSettings, prior: NGPrior, svi: SviSettings,
                 seed: int = 0, chunk: int = 4096, threads: int | None = None):  # fmt: skip
        super().__init__(settings, prior, seed=seed, chunk=chunk, threads=threads)
        svi.check()
        self.svi = svi
        self.rho = float(svi.rho)
        self.scale = 1.0
        self._it = 0
        self.iters_done = 0
        self.docs_seen = 0
        self.history: list[dict] = []
        self.snapshots: list[dict] = []
        self.rng = np.random.default_rng([self.seed, 6])  # minibatches; init uses seed

    def batch_size(self, n_doc: int) -> int:
        b = self.svi.batch if self.svi.batch is not None else round(self.rho * n_doc)
        return int(min(max(1, b), n_doc))

    # -- global blocks as natural-gradient steps
    def cluster_step(self, st: LocalStats):
        n_c, s_c, q_c = self.cluster_stats(st)
        hat = natural_posterior(n_c, s_c, q_c, self.prior, self.scale)
        eta = to_natural(self.q).blend(hat, self.rho) if self.rho < 1.0 else hat
        self.q = from_natural(eta, it=self._it)
        self.n_c = eta.e2 - self.prior.beta0  # expected data per cluster (nu - beta0)

    def mapping_step(self, st: LocalStats):
        floor = self.svi.log_floor
        for rows in self.mapping_chunks():
            L = self.mapping_logits(st, rows, self.scale)
            if self.rho < 1.0:
                old = np.full(L.shape, floor)
                lv = np.maximum(np.log(np.maximum(self.map_val[rows], 1e-300)), floor)
                np.put_along_axis(old, self.map_idx[rows], lv, axis=1)
                L = (1.0 - self.rho) * old + self.rho * L
            self.set_mapping_rows(rows, L)
        self.update_xi()

    def topic_stick_step(self, st: LocalStats):
        if self.rho < 1.0:
            self.zeta_stick = (1.0 - self.rho) * self.zeta_stick + self.rho * self.scale * st.zeta
        else:
            self.zeta_stick = self.scale * st.zeta
        self._topic_sticks()

    # -- driver
    def full_elbo(self, X, indptr) -> float:
        """The ELBO on the whole corpus (a full local pass under the current globals)."""
        keep = dict(self.timing)
        st = self.local_step(np.ascontiguousarray(X, dtype=np.float64),
                             np.asarray(indptr, np.int64))  # fmt: skip
        self.timing = keep
        return self.elbo(st)

    def fit(self, X, indptr, n_iter, snapshots=(), callback=None, label=""):
        """``n_iter`` SVI iterations on the corpus (X, indptr). ``snapshots``: iteration
        numbers (1-based, counted within this call) after which the full-corpus ELBO is
        recorded in ``self.snapshots`` (not timed)."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        indptr = np.asarray(indptr, np.int64)
        n_doc = len(indptr) - 1
        if n_doc < 1:
            raise DataError("iwtm svi corpus", "no documents")
        if not np.all(np.isfinite(X)):
            raise DataError("iwtm svi descriptors", "non-finite value in the descriptors")
        if not hasattr(self, "q"):
            self.initialize(X)
        b = self.batch_size(n_doc)
        self.scale = n_doc / b
        snaps = set(int(s) for s in snapshots)
        for j in range(1, int(n_iter) + 1):
            t0 = time.perf_counter()
            self._it = self.iters_done
            if b < n_doc:
                docs = np.sort(self.rng.choice(n_doc, b, replace=False))
                rows, sub = doc_rows(indptr, docs)
                st = self.local_step(X[rows], sub)
            else:
                st = self.local_step(X, indptr)
            if not (np.all(np.isfinite(st.alpha_t)) and math.isfinite(st.entropy)):
                raise DivergenceError("iwtm svi local block", self._it)
            self.run_blocks(st, self._it)
            self.last_stats = st
            sec = time.perf_counter() - t0
            self.iters_done += 1
            self.docs_seen += b
            rec = {"label": label, "iteration": self.iters_done, "seconds": sec,
                   "clusters_used": self.n_used(), "n_doc": n_doc, "batch": b,
                   "docs_seen": self.docs_seen}  # fmt: skip
            self.history.append(rec)
            if j in snaps:
                self.snapshots.append({**rec, "elbo": self.full_elbo(X, indptr)})
            if callback is not None and callback(self, j, st):
                break
        return self

    def train_theta(self) -> np.ndarray:
        raise NotImplementedError("SVI keeps no full-corpus local state: use transform()")
