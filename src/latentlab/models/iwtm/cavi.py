"""Mean-field CAVI for IWTM on a truncated stick-breaking HDP (Waters 2014, ch. 5;
Eqs 5.10-5.27, Table 5.1; the thesis does not write the ELBO, ours is derived here).

q(z_di, k_di) is kept sparse: for each datum only the atoms mapped (by their most
probable cluster) to its ``c_top`` best clusters under E l are candidates (Sec. 5.4.3).
The mapping q(c_k) (shared by the topics, a K x C matrix) keeps its ``map_top`` largest
entries per atom. With c_top = C and map_top = C the updates are the exact coordinate
ascent steps, and every block leaves the ELBO non-decreasing (C8, tested).

The local step never stores q(z, k): it leaves the sufficient statistics the global
blocks and the ELBO need (N_dt, zeta_tk, per-atom n_k, s_k, q_k and the entropy).
Its kernels (:mod:`.kernels`) run on ``threads`` numba threads (default: the job's
``OMP_NUM_THREADS``) with results that do not depend on the thread count.

``el_gemm = "float32"`` ranks the clusters with a float32 E l GEMM and re-checks the
top-C boundary in float64 (:func:`.kernels.select_f32`): the selected clusters are the
float64 ones and G is computed in float64, so the fit equals the float64 path's up to the
rounding of G.
"""

from __future__ import annotations

import contextlib
import math
import time
from dataclasses import dataclass

import numba as nb
import numpy as np
import scipy.sparse as sp
from scipy.special import digamma, gammaln

from latentlab.errors import ConfigError, DataError, DivergenceError
from latentlab.kernels.special import digamma as nb_digamma
from latentlab.threads import job_threads

from .kernels import (
    N_BLOCKS,
    atom_weights,
    candidates_from_top,
    chunk_candidates,
    f32_error_bound,
    local_kernel,
    nearest_clusters,
    select_f32,
    topk_rows,
)
from .normal_gamma import (
    ClusterQ,
    NGPrior,
    augment,
    cluster_elbo_terms,
    cluster_posterior,
    el_weights,
)
from .sticks import elog_sticks, stick_elbo_terms, stick_params, topic_sticks

MODES = ("tied", "per_topic", "literal")
EL_GEMM = ("float64", "float32")
F32_MAX = 1e37  # |El32| stays below this (float32 max 3.4e38) or the step runs in float64


@dataclass(frozen=True)
class CaviSettings:
    T: int
    C: int = 4000
    K: int = 8000
    alpha: float | None = None  # document Dirichlet; None = 1/T
    alpha0: float = 1.0
    gamma: float = 10.0
    c_top: int = 10
    map_top: int = 8
    mapping_mode: str = "tied"
    max_local: int = 100
    local_tol: float = 1e-3
    init_spread: int = 10
    reorder: bool = True  # simulated reordering (Sec. 5.4.5); False keeps the first order
    # precision of the E l GEMM that ranks the clusters for the top-C candidates (Sec.
    # 5.4.3): "float32" ranks in float32 and re-checks the boundary in float64, so the
    # selected clusters and every value read afterwards are the float64 ones
    el_gemm: str = "float64"

    def check(self):
        for nm in ("T", "C", "K", "c_top", "map_top", "max_local"):
            if int(getattr(self, nm)) < 1:
                raise ConfigError(f"iwtm cavi {nm}", f"must be >= 1, got {getattr(self, nm)}")
        if self.mapping_mode not in MODES:
            raise ConfigError("iwtm cavi mapping_mode", f"{self.mapping_mode!r} not in {MODES}")
        if self.el_gemm not in EL_GEMM:
            raise ConfigError("iwtm cavi el_gemm", f"{self.el_gemm!r} not in {EL_GEMM}")
        for nm in ("alpha0", "gamma"):
            if not getattr(self, nm) > 0:
                raise ConfigError(f"iwtm cavi {nm}", f"must be > 0, got {getattr(self, nm)}")


def default_threads() -> int:
    """The job's allocation (``OMP_NUM_THREADS``, which Snakemake sets and BLAS reads),
    at most numba's thread count."""
    return job_threads(nb.config.NUMBA_NUM_THREADS)


# ---------------------------------------------------------------------------- kernels
@nb.njit(cache=True)
def _map_topic(indptr, cptr, atoms, G, elog_pi, alpha_t, out):
    """Eq. 6.44: out[i] = argmax_t sum_k theta~_ditk under the documents' alpha~."""
    T = elog_pi.shape[0]
    mass = np.empty(T)
    elog_th = np.empty(T)
    for d in range(indptr.shape[0] - 1):
        s = 0.0
        for t in range(T):
            s += alpha_t[d, t]
        ps = nb_digamma(s)
        for t in range(T):
            elog_th[t] = nb_digamma(alpha_t[d, t]) - ps
        for i in range(indptr[d], indptr[d + 1]):
            c0 = cptr[i]
            mx = -np.inf
            for j in range(cptr[i + 1] - c0):
                for t in range(T):
                    mx = max(mx, elog_th[t] + elog_pi[t, atoms[c0 + j]] + G[c0 + j])
            for t in range(T):
                mass[t] = 0.0
            for j in range(cptr[i + 1] - c0):
                for t in range(T):
                    mass[t] += math.exp(elog_th[t] + elog_pi[t, atoms[c0 + j]] + G[c0 + j] - mx)
            best = 0
            for t in range(1, T):
                if mass[t] > mass[best]:
                    best = t
            out[i] = best


# ---------------------------------------------------------------------------- model
@dataclass
class LocalStats:
    """What the local step leaves (q(z, k) itself is never stored)."""

    alpha_t: np.ndarray  # D x T  (alpha~)
    ndt: np.ndarray  # D x T
    zeta: np.ndarray  # T x K
    n_k: np.ndarray  # K
    s_k: np.ndarray  # K x D
    q_k: np.ndarray  # K
    entropy: float


class IWTMCavi:
    """CAVI for IWTM. ``fit(X, indptr, n_iter)``; ``transform`` folds in new documents."""

    def __init__(self, settings: CaviSettings, prior: NGPrior, seed: int = 0, chunk=4096,
                 threads: int | None = None):  # fmt: skip
        settings.check()
        self.threads = default_threads() if threads is None else max(1, int(threads))
        self.s = settings
        self.prior = prior
        self.alpha = settings.alpha if settings.alpha is not None else 1.0 / settings.T
        self.seed = int(seed)
        self.chunk = int(chunk)
        self.T, self.C, self.K = settings.T, settings.C, settings.K
        self.J = min(settings.map_top, settings.C)
        self.c_top = min(settings.c_top, settings.C)
        self.timing: dict[str, float] = {}

    @contextlib.contextmanager
    def _threads(self):
        """numba's thread count = ``self.threads`` inside (BLAS follows the environment).
        The kernels' results do not depend on it."""
        old = nb.get_num_threads()
        nb.set_num_threads(min(self.threads, nb.config.NUMBA_NUM_THREADS))
        try:
            yield
        finally:
            nb.set_num_threads(old)

    # -- factors of the mapping mode: the thesis's (5.17) and its master pseudo-count read
    # the topic-shared mapping of Sec. 5.3.3 differently; ``mapping_mode`` picks one reading
    @property
    def _map_div(self) -> float:
        return float(self.T) if self.s.mapping_mode == "per_topic" else 1.0

    @property
    def _xi_mult(self) -> float:
        return 1.0 if self.s.mapping_mode == "tied" else float(self.T)

    # -- initialisation (Sec. 5.4.7)
    def initialize(self, X: np.ndarray):
        rng = np.random.default_rng(self.seed)
        N, D = X.shape
        if D != self.prior.dim:
            raise ConfigError("iwtm cavi", f"data dim {D} != prior dim {self.prior.dim}")
        pick = rng.choice(N, size=self.C, replace=N < self.C)
        C = self.C
        self.q = ClusterQ.at_points(X[pick], self.prior)
        self.zeta_stick = rng.uniform(0, 0.1, size=(self.T, self.K))
        self._topic_sticks()
        self.xi = np.zeros(C)
        self._master_sticks()
        # mapping: atom k -> cluster k mod C, 0.9 on it, 0.1 over its nearest clusters
        J = self.J
        prim = np.arange(self.K) % C
        spread = min(self.s.init_spread, J - 1)
        idx = np.zeros((C, J), np.int64)
        idx[:, 0] = np.arange(C)
        if spread > 0:  # the spread nearest other clusters (numba; ties: lower index)
            with self._threads():
                nearest_clusters(self.q.mt, idx[:, 1 : 1 + spread])
        if J - 1 - spread > 0:  # then the lowest-numbered other clusters
            for c in np.unique(prim):
                idx[c, 1 + spread :] = np.setdiff1d(np.arange(C), idx[c, : 1 + spread])[
                    : J - 1 - spread
                ]
        val = np.zeros(J)
        val[0] = 0.9 if spread else 1.0
        val[1 : 1 + spread] = 0.1 / max(spread, 1)
        self.map_idx = idx[prim]
        self.map_val = np.tile(val, (self.K, 1))
        return self

    def _topic_sticks(self):
        fixed = None if self.s.reorder else getattr(self, "t_order", None)
        self.ta, self.tb, self.elog_pi, self.t_order = topic_sticks(
            self.zeta_stick, self.s.alpha0, fixed
        )

    def _master_sticks(self):
        fixed = None if self.s.reorder else getattr(self, "c_order", None)
        self.mu, self.mv, _, self.c_order = stick_params(self.xi, self.s.gamma, fixed)
        self.elog_beta = elog_sticks(self.mu, self.mv, self.c_order)

    # -- E l and the candidate lists (Sec. 5.4.3): the GEMM
    augment = staticmethod(augment)

    def el_weights(self) -> np.ndarray:
        """(D+2) x C weights of E l (Eq. 5.10) for the current clusters."""
        return el_weights(self.q)

    def expected_loglik(self, X: np.ndarray) -> np.ndarray:
        """Dense E l (N x C) in one BLAS call (tests and small problems)."""
        return self.augment(X) @ self.el_weights()

    def top_clusters(self, X: np.ndarray, Xa: np.ndarray | None = None) -> np.ndarray:
        """The c_top clusters of largest E l_ic for every datum, by decreasing E l (ties:
        the lower cluster index first); chunked GEMM on the augmented features, the
        selection by a numba kernel per chunk (timing: el_gemm = the BLAS calls, el_topc =
        the rest). With ``el_gemm = "float32"`` the GEMM is float32 and the boundary is
        re-checked in float64 (:func:`.kernels.select_f32`): the same clusters."""
        if Xa is None:
            Xa = self.augment(X)
        W = self.el_weights()
        out = np.empty((len(Xa), self.c_top), np.int64)
        f32 = self._f32_setup(W)
        t_g = t_s = 0.0
        with self._threads():
            for a in range(0, len(Xa), self.chunk):
                Xc = Xa[a : a + self.chunk]
                if f32 is not None:
                    dt = self._select_f32(Xc, f32, out[a : a + len(Xc)])
                    if dt is not None:
                        t_g += dt[0]
                        t_s += dt[1]
                        continue
                t0 = time.perf_counter()
                Gc = Xc @ W
                t1 = time.perf_counter()
                if self.c_top < self.C:
                    topk_rows(Gc, self.c_top, out[a : a + len(Gc)])
                else:
                    out[a : a + len(Gc)] = np.arange(self.C)[None, :]
                t_g += t1 - t0
                t_s += time.perf_counter() - t1
        self.timing["el_gemm"] = self.timing.get("el_gemm", 0.0) + t_g
        self.timing["el_topc"] = self.timing.get("el_topc", 0.0) + t_s
        return out

    # -- float32 ranking with the float64 re-check (the float32 path of Sec. 5.4.3's GEMM)
    def _f32_setup(self, W: np.ndarray):
        """(W32, W^T, max_c ||w_c||, kappa) for the float32 path, or None when it is off
        (``el_gemm = "float64"``, c_top >= C: nothing to select, or weights so large that
        float32 could overflow: counted in ``f32_fallbacks``)."""
        if self.s.el_gemm != "float32" or self.c_top >= self.C:
            return None
        wmax = float(np.sqrt(np.einsum("dc,dc->c", W, W)).max())
        kap = f32_error_bound(len(W))
        if not (1.0 + kap) * wmax < F32_MAX:  # ||xa|| >= 1: float32 could overflow
            self.f32_fallbacks = getattr(self, "f32_fallbacks", 0) + 1
            return None
        return W.astype(np.float32), np.ascontiguousarray(W.T), wmax, kap

    def _select_f32(self, Xc, f32, top):
        """top-C of the chunk Xc through the float32 GEMM; returns (GEMM seconds, the
        rest), or None when float32 could overflow for this chunk (the caller then runs
        it in float64; counted in ``f32_fallbacks``)."""
        W32, WT, wmax, kap = f32
        t0 = time.perf_counter()
        nrm = np.sqrt(np.einsum("nd,nd->n", Xc, Xc))  # >= 1: the augmented 1
        if not (1.0 + kap) * float(nrm.max()) * wmax < F32_MAX:
            self.f32_fallbacks = getattr(self, "f32_fallbacks", 0) + 1
            return None
        X32 = Xc.astype(np.float32)
        t1 = time.perf_counter()
        El32 = X32 @ W32
        t2 = time.perf_counter()
        extra = select_f32(El32, Xc, WT, kap * wmax * nrm, self.c_top, top)
        self.f32_window_extra = getattr(self, "f32_window_extra", 0) + int(extra)
        return t2 - t1, (t1 - t0) + (time.perf_counter() - t2)

    def _atom_index(self):
        """Atoms grouped by their most probable cluster (CSR)."""
        if self.c_top >= self.C:  # every atom is a candidate of every datum
            return np.array([0] + [self.K] * self.C, np.int64), np.arange(self.K, dtype=np.int64)
        prim = self.map_idx[np.arange(self.K), self.map_val.argmax(1)]
        order = np.argsort(prim, kind="stable")
        ptr = np.concatenate([[0], np.cumsum(np.bincount(prim, minlength=self.C))])
        return ptr.astype(np.int64), order.astype(np.int64)

    def _candidate_lists(self, X):
        """CSR (ptr, atoms, G) of every datum's candidate atoms: chunk by chunk, the E l
        GEMM, then the fused top-C selection + candidate kernel reading G_ik = sum_c b_kc
        E l_ic from the chunk (timing: el_gemm, el_topc = selection + candidate lists).
        With ``el_gemm = "float32"``: the float32 GEMM ranks, the float64 re-check selects
        (:func:`.kernels.select_f32`) and G_ik = [x_i, |x_i|^2, 1] . (W b_k) in float64."""
        Xa = self.augment(X)
        W = self.el_weights()
        ptr, ids = self._atom_index()
        mi, mv = self.map_idx, self.map_val
        f32 = self._f32_setup(W)
        if f32 is not None:
            WkT = np.empty((self.K, len(W)))
            with self._threads():
                atom_weights(f32[1], mi, mv, WkT)
            top = np.empty((min(self.chunk, len(Xa)), self.c_top), np.int64)
        ptrs, atoms, Gs = [np.zeros(1, np.int64)], [], []
        t_g = t_s = 0.0
        with self._threads():
            for a in range(0, len(Xa), self.chunk):
                Xc = Xa[a : a + self.chunk]
                dt = None
                if f32 is not None:
                    tp = top[: len(Xc)]
                    dt = self._select_f32(Xc, f32, tp)
                if dt is not None:
                    t1 = time.perf_counter()
                    p, at, g = candidates_from_top(Xc, tp, ptr, ids, WkT)
                    t_g += dt[0]
                    t_s += dt[1] + time.perf_counter() - t1
                else:
                    t0 = time.perf_counter()
                    El = Xc @ W
                    t1 = time.perf_counter()
                    _, p, at, g = chunk_candidates(El, self.c_top, ptr, ids, mi, mv)
                    t_g += t1 - t0
                    t_s += time.perf_counter() - t1
                ptrs.append(p[1:] + ptrs[-1][-1])
                atoms.append(at)
                Gs.append(g)
        self.timing["el_gemm"] = self.timing.get("el_gemm", 0.0) + t_g
        self.timing["el_topc"] = self.timing.get("el_topc", 0.0) + t_s
        return np.concatenate(ptrs), np.concatenate(atoms), np.concatenate(Gs)

    # -- blocks
    def local_step(self, X, indptr, accumulate=True) -> LocalStats:
        """Eqs 5.11-5.12 for every document (numba, documents in parallel blocks); leaves
        the statistics of :class:`LocalStats`. timing: local = the whole step (E l GEMM
        and candidates included), local_kernel = the sweeps alone."""
        t0 = time.perf_counter()
        cptr, atoms, G = self._candidate_lists(X)
        nd, D = len(indptr) - 1, X.shape[1]
        T, K = self.T, self.K
        Ks = K if accumulate else 1  # without statistics the blocks only split the work
        zetaT, n_k = np.zeros((N_BLOCKS, Ks, T)), np.zeros((N_BLOCKS, Ks))
        s_k, q_k = np.zeros((N_BLOCKS, Ks, D)), np.zeros((N_BLOCKS, Ks))
        ent = np.zeros((N_BLOCKS, 1))
        alpha_t, ndt = np.zeros((nd, T)), np.zeros((nd, T))
        t1 = time.perf_counter()
        with self._threads():
            self.sweeps = int(local_kernel(X, indptr, cptr, atoms, G,
                                           np.ascontiguousarray(self.elog_pi.T), self.alpha,
                                           self.s.max_local, self.s.local_tol, alpha_t, ndt,
                                           accumulate, zetaT, n_k, s_k, q_k, ent))  # fmt: skip
        t2 = time.perf_counter()
        if accumulate:
            st = LocalStats(alpha_t, ndt, np.ascontiguousarray(zetaT.sum(0).T), n_k.sum(0),
                            s_k.sum(0), q_k.sum(0), float(ent.sum()))  # fmt: skip
        else:
            st = LocalStats(alpha_t, ndt, np.zeros((T, K)), np.zeros(K), np.zeros((K, D)),
                            np.zeros(K), 0.0)  # fmt: skip
        t3 = time.perf_counter()
        self.timing["local_kernel"] = self.timing.get("local_kernel", 0.0) + t2 - t1
        self.timing["local"] = self.timing.get("local", 0.0) + t3 - t0
        return st

    def _beta_sparse(self):
        return sp.csr_matrix(
            (self.map_val.ravel(), self.map_idx.ravel(), np.arange(0, self.K * self.J + 1, self.J)),
            shape=(self.K, self.C),
        )

    def cluster_stats(self, st: LocalStats):
        """(n_c, s_c, q_c): the clusters' weighted statistics under rho_ic = sum_k b_kc
        w_ik, via the atoms' statistics (shared by CAVI and SVI)."""
        B = self._beta_sparse().T.tocsr()
        return B @ st.n_k, B @ st.s_k, B @ st.q_k

    def cluster_step(self, st: LocalStats):
        """Eqs 5.13-5.16 from the clusters' weighted statistics."""
        n_c, s_c, q_c = self.cluster_stats(st)
        self.q = cluster_posterior(n_c, s_c, q_c, self.prior)
        self.n_c = n_c

    def _atom_cluster_ll(self, st: LocalStats, rows=slice(None)):
        """S_kc = sum_i w_ik E l_ic for atoms ``rows`` and every cluster (GEMM)."""
        el = self.q.e_lam
        cst = self.q.const() - 0.5 * el * np.einsum("cd,cd->c", self.q.mt, self.q.mt)
        S = st.s_k[rows] @ (self.q.mt * el[:, None]).T
        S += st.n_k[rows, None] * cst[None, :]
        S -= 0.5 * st.q_k[rows, None] * el[None, :]
        return S

    def mapping_logits(self, st: LocalStats, rows, scale: float = 1.0) -> np.ndarray:
        """Eq. 5.17's unnormalised log b_kc = E log beta_c + scale S_kc / tau for atoms
        ``rows`` (tau = T in per_topic mode; scale = N_doc/|S| in SVI)."""
        S = self._atom_cluster_ll(st, rows)
        if scale != 1.0:
            S *= scale
        return self.elog_beta[None, :] + S / self._map_div

    def set_mapping_rows(self, rows, L: np.ndarray):
        """Keep each atom's map_top largest log-weights of L, normalised."""
        J = self.J
        if J < self.C:
            idx = np.empty((len(L), J), np.int64)
            with self._threads():
                topk_rows(np.ascontiguousarray(L), J, idx)
        else:
            idx = np.broadcast_to(np.arange(self.C), L.shape).copy()
        v = np.take_along_axis(L, idx, 1)
        v = np.exp(v - v.max(1, keepdims=True))
        self.map_idx[rows] = idx
        self.map_val[rows] = v / v.sum(1, keepdims=True)

    def update_xi(self):
        """Master pseudo-counts xi_c = T_f sum_k b_kc (Eq. 6.41; T_f by mapping mode)."""
        self.xi = self._xi_mult * np.bincount(
            self.map_idx.ravel(), weights=self.map_val.ravel(), minlength=self.C
        )

    def mapping_chunks(self, size: int = 1024):
        return [slice(a, min(a + size, self.K)) for a in range(0, self.K, size)]

    def mapping_step(self, st: LocalStats):
        """Eq. 5.17; each atom keeps its map_top largest entries, renormalised."""
        for rows in self.mapping_chunks():
            self.set_mapping_rows(rows, self.mapping_logits(st, rows))
        self.update_xi()

    def topic_stick_step(self, st: LocalStats):
        """Eqs 5.18-5.19 / 5.23-5.24 with simulated reordering per topic."""
        self.zeta_stick = st.zeta.copy()
        self._topic_sticks()

    def master_stick_step(self, st=None):
        """Eqs 5.20-5.21 / 5.26-5.27 with simulated reordering."""
        self._master_sticks()

    # -- ELBO (not written in the thesis; derived here)
    def elbo(self, st: LocalStats) -> float:
        T = self.T
        al = self.alpha
        at = st.alpha_t
        el_th = digamma(at) - digamma(at.sum(1, keepdims=True))
        L = float((st.ndt * el_th).sum() + (st.zeta * self.elog_pi).sum() + st.entropy)
        # sum_k sum_c b_kc S_kc over the mapping's support
        q = self.q
        el, cst = q.e_lam, q.const()
        mi, mv = self.map_idx, self.map_val
        dot = np.einsum("kd,kjd->kj", st.s_k, q.mt[mi])
        mm = np.einsum("cd,cd->c", q.mt, q.mt)[mi]
        S = st.n_k[:, None] * cst[mi] - 0.5 * el[mi] * (
            st.q_k[:, None] - 2 * dot + st.n_k[:, None] * mm
        )
        L += float((mv * S).sum())
        # documents' Dirichlet
        L += len(at) * (gammaln(T * al) - T * gammaln(al)) + (al - 1) * el_th.sum()
        L -= float((gammaln(at.sum(1)) - gammaln(at).sum(1)).sum() + ((at - 1) * el_th).sum())
        # topic sticks (the last-ranked stick of each topic is truncated)
        L += self._stick_terms(self.ta, self.tb, self.t_order, self.s.alpha0)
        # mapping prior and entropy
        with np.errstate(divide="ignore"):
            lv = np.where(mv > 0, np.log(np.where(mv > 0, mv, 1.0)), 0.0)
        L += self._xi_mult * float((mv * (self.elog_beta[mi] - lv)).sum())
        # master sticks
        L += self._stick_terms(self.mu[None], self.mv[None], self.c_order[None], self.s.gamma)
        return L + cluster_elbo_terms(self.q, self.prior)

    _stick_terms = staticmethod(stick_elbo_terms)

    # -- driver
    def _check(self, block, it):
        arrs = {"cluster": (self.q.mt, self.q.chi2), "mapping": (self.map_val,),
                "topic_sticks": (self.elog_pi,), "master_sticks": (self.elog_beta,)}  # fmt: skip
        for a in arrs.get(block, ()):
            if not np.all(np.isfinite(a)):
                raise DivergenceError(f"iwtm cavi {block} block", it)

    def run_blocks(self, st: LocalStats, it: int, trace_blocks=False):
        """The global blocks in the SVI order of Sec. 6.3.2: clusters -> mappings ->
        topic sticks -> master sticks (timed; NaN check after each)."""
        if trace_blocks:
            self.trace.append((it, "local", self.elbo(st)))
        steps = (
            ("cluster", self.cluster_step),
            ("mapping", self.mapping_step),
            ("topic_sticks", self.topic_stick_step),
            ("master_sticks", self.master_stick_step),
        )
        for name, fn in steps:
            tb = time.perf_counter()
            fn(st)
            self.timing[name] = self.timing.get(name, 0.0) + time.perf_counter() - tb
            self._check(name, it)
            if trace_blocks:
                self.trace.append((it, name, self.elbo(st)))

    def fit(self, X, indptr, n_iter, trace_blocks=False, callback=None):
        """``n_iter`` iterations of local -> clusters -> mappings -> topic sticks -> master
        sticks (Sec. 5.4.6, SVI order of Sec. 6.3.2). ``trace_blocks`` records the ELBO
        after every block in ``self.trace``."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        indptr = np.asarray(indptr, np.int64)
        if not np.all(np.isfinite(X)):
            raise DataError("iwtm cavi descriptors", "non-finite value in the descriptors")
        if not hasattr(self, "q"):
            self.initialize(X)
        self.trace = []
        self.history = []
        for it in range(int(n_iter)):
            t0 = time.perf_counter()
            st = self.local_step(X, indptr)
            if not (np.all(np.isfinite(st.alpha_t)) and math.isfinite(st.entropy)):
                raise DivergenceError("iwtm cavi local block", it)
            self.run_blocks(st, it, trace_blocks)
            self.last_stats = st
            sec = time.perf_counter() - t0
            self.history.append({"iteration": it, "seconds": sec, "clusters_used": self.n_used()})
            if callback is not None and callback(self, it, st):
                break
        return self

    def n_used(self, threshold=1.0) -> int:
        """Clusters with n_c >= 1 (our definition of the clusters in use; the thesis gives
        none)."""
        return int((getattr(self, "n_c", np.zeros(1)) >= threshold).sum())

    def transform(self, X, indptr) -> np.ndarray:
        """Posterior-mean topic weights E[theta_d] of documents under the fitted globals."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        st = self.local_step(X, np.asarray(indptr, np.int64), accumulate=False)
        return st.alpha_t / st.alpha_t.sum(1, keepdims=True)

    def map_topics(self, X, indptr) -> np.ndarray:
        """MAP topic of every datum (Eq. 6.44) after local inference on its document."""
        X = np.ascontiguousarray(X, dtype=np.float64)
        indptr = np.asarray(indptr, np.int64)
        st = self.local_step(X, indptr, accumulate=False)
        cptr, atoms, G = self._candidate_lists(X)
        out = np.empty(len(X), np.int64)
        _map_topic(indptr, cptr, atoms, G, self.elog_pi, st.alpha_t, out)
        return out

    def train_theta(self) -> np.ndarray:
        a = self.last_stats.alpha_t
        return a / a.sum(1, keepdims=True)

    def beta_dense(self) -> np.ndarray:
        return self._beta_sparse().toarray()
