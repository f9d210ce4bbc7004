"""TIR, TIRE and additive DMR: collapsed Gibbs with per-document priors and a
stochastic-EM regression step (Foulds 2014, Sec 3.3-3.4, 3.5.2).

kind ``tir``  alpha^(d) = sum_c l^(c) zbar^(c) + alpha (Eq 3.1); l by gradient ascent on
              log Pr(z | l) (Eqs 3.5-3.6), ML or MAP with an Exponential(rate) prior;
              or l sampled from Pr(l | z, rate) (Eq 3.5) by the document's alternatives,
              random-walk Metropolis-Hastings (``mh``, proposal sd ``mh_step``) or
              univariate slice sampling (``slice``, Neal 2003, width ``slice_width``),
              one scan over the cited documents after every sweep; ``l_mean`` is the
              average of the samples after sweep ``average_from``.
kind ``tire`` edge weights l^(c,d) (Eq 3.3) optimised per citing document (ML, or MAP with
              the truncated-Gaussian term around l^(c), sigma); node l by least squares
              (Eq 3.7) = the mean of the outgoing edge weights.
kind ``dmr``  additive DMR alpha_k^(d) = sum_{j cited} lambda_kj + alpha, lambda >= 0,
              Exponential prior of mean 1 (MAP).
kind ``lda``  alpha^(d) = alpha (the same sampler with no regression; the study's LDA
              baseline is the project's :class:`latentlab.models.lda.CGS`).

The sampler is the approximate one of the experiments (no Polya product; ``exact=True``
uses Eq 3.4 in full, for small corpora). Regression steps run after every ``interval``-th
sweep (Sec. 3.5: "every 10 Gibbs iterations"). Sec. 3.4 says only "maximum likelihood
updates on l, obtained via stochastic EM using gradient ascent", so the optimiser and its
budget per step are settings: ``optimizer="lbfgs"`` runs L-BFGS-B under bounds >= 0 for at
most ``lbfgs_iter`` iterations (a large budget: the M-step to convergence);
``optimizer="gradient"`` takes ``grad_iter`` projected steps of fixed size ``grad_step``,
x <- max(0, x + grad_step * gradient). ``reg_stats`` counts the steps, the optimiser's
iterations and the steps that ended at the budget rather than at convergence.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import minimize

from latentlab.errors import ConfigError, DataError

from . import kernels
from .graph import CitationGraph

KINDS = ("lda", "tir", "tire", "dmr")
ESTIMATORS = ("ml", "map", "mh", "slice")
OPTIMIZERS = ("lbfgs", "gradient")
SAMPLERS = ("mh", "slice")
SLICE_MAX_OUT = 20  # stepping-out budget (Neal's m) of the slice sampler
SLICE_MAX_SHRINK = 60  # shrinkage proposals before a coordinate keeps its value


class InfluenceModel:
    """TIR, TIRE, additive DMR or plain LDA (``kind``) by collapsed Gibbs with a
    stochastic-EM regression step (module docstring); a
    :class:`latentlab.models.base.TopicModel` (the citations are ``fit``'s ``graph``)."""

    def __init__(
        self,
        kind: str,
        K: int,
        alpha: float = 0.1,
        beta: float = 0.1,
        sigma: float = 1.0,
        estimator: str = "ml",
        rate: float = 1.0,
        interval: int = 10,
        l_init: float = 1.0,
        refresh: str = "visit",
        exact: bool = False,
        lbfgs_iter: int = 50,
        seed: int = 0,
        mh_step: float = 1.0,
        slice_width: float = 1.0,
        average_from: int = 0,
        optimizer: str = "lbfgs",
        grad_iter: int = 1,
        grad_step: float = 0.1,
    ):
        if kind not in KINDS:
            raise ConfigError("kind", f"must be one of {KINDS}, got {kind!r}")
        if estimator not in ESTIMATORS:
            raise ConfigError("estimator", f"must be one of {ESTIMATORS}, got {estimator!r}")
        if estimator in SAMPLERS and kind != "tir":
            raise ConfigError(
                "estimator", f"{estimator!r} samples TIR's node influence l; kind is {kind!r}"
            )
        for name, v in (("mh_step", mh_step), ("slice_width", slice_width)):
            if not (np.isfinite(v) and v > 0):
                raise ConfigError(name, f"must be finite and > 0, got {v}")
        if optimizer not in OPTIMIZERS:
            raise ConfigError("optimizer", f"must be one of {OPTIMIZERS}, got {optimizer!r}")
        if int(lbfgs_iter) < 1 or int(grad_iter) < 1:
            raise ConfigError(
                "lbfgs_iter/grad_iter", f"must be >= 1, got {lbfgs_iter} and {grad_iter}"
            )
        if not (np.isfinite(grad_step) and grad_step > 0):
            raise ConfigError("grad_step", f"must be finite and > 0, got {grad_step}")
        if refresh not in ("visit", "sweep"):
            raise ConfigError("refresh", f"must be 'visit' or 'sweep', got {refresh!r}")
        for name, v in (("alpha", alpha), ("beta", beta), ("sigma", sigma), ("rate", rate)):
            if not (np.isfinite(v) and v > 0):
                raise ConfigError(name, f"must be finite and > 0, got {v}")
        if not (np.isfinite(l_init) and l_init >= 0):
            raise ConfigError("l_init", f"must be finite and >= 0, got {l_init}")
        if int(K) < 1 or int(interval) < 1:
            raise ConfigError("K/interval", f"must be >= 1, got K={K}, interval={interval}")
        self.kind, self.K, self.alpha0, self.beta = kind, int(K), float(alpha), float(beta)
        self.sigma, self.estimator, self.rate = float(sigma), estimator, float(rate)
        self.interval, self.l_init, self.refresh = int(interval), float(l_init), refresh
        self.exact, self.lbfgs_iter, self.seed = bool(exact), int(lbfgs_iter), int(seed)
        self.mh_step, self.slice_width = float(mh_step), float(slice_width)
        self.average_from = int(average_from)
        self.optimizer, self.grad_iter = optimizer, int(grad_iter)
        self.grad_step = float(grad_step)
        self.regression_seconds: list[float] = []
        # regression steps, optimiser iterations, steps stopped by the budget (not converged)
        self.reg_stats = {"steps": 0, "iterations": 0, "at_budget": 0}

    # ------------------------------------------------------------------ set-up
    def initialize(self, corpus, graph: CitationGraph, z0=None) -> InfluenceModel:
        if graph.n_docs != corpus.n_docs:
            raise DataError(None, f"graph has {graph.n_docs} documents, corpus {corpus.n_docs}")
        self.graph = graph
        self.ptr, self.w = corpus.to_tokens()
        self.W = corpus.n_vocab
        D = corpus.n_docs
        lens = np.diff(self.ptr)
        if graph.n_edges and (lens[graph.cidx] == 0).any():
            c = int(graph.cidx[np.flatnonzero(lens[graph.cidx] == 0)[0]])
            raise DataError(None, f"document {c} is cited but has no tokens (drop its edges)")
        self.rng = np.random.default_rng(self.seed)
        if z0 is None:
            self.z = self.rng.integers(0, self.K, size=len(self.w)).astype(np.int64)
        else:
            self.z = np.array(z0, dtype=np.int64)
        self.ndk = np.zeros((D, self.K), np.int64)
        self.nwk = np.zeros((self.W, self.K), np.int64)
        d_of = np.repeat(np.arange(D), lens)
        np.add.at(self.ndk, (d_of, self.z), 1)
        np.add.at(self.nwk, (self.w, self.z), 1)
        self.nk = self.nwk.sum(0)
        self.nd = lens.astype(np.int64)
        self.l = np.full(D, self.l_init if self.kind in ("tir", "tire") else 0.0)
        self.ew = np.full(graph.n_edges, self.l_init if self.kind in ("tir", "tire") else 0.0)
        self.cited = np.unique(graph.cidx)
        self.lam = np.zeros((self.K, len(self.cited)))  # DMR: one column per cited document
        self._col = np.full(D, -1, np.int64)
        self._col[self.cited] = np.arange(len(self.cited))
        if self.kind == "dmr":
            self.lam[:] = self.l_init / self.K
        self.alpha_dk = np.full((D, self.K), self.alpha0)
        self._update_alpha()
        self._p = np.empty(self.K)
        self._buf = np.empty(self.K)
        self.citing_docs = np.flatnonzero(graph.out_degree() > 0)
        self.iteration = 0
        self.l_sum = np.zeros(D)
        self.n_averaged = 0
        self.mcmc_stats = {"proposals": 0, "accepted": 0, "evaluations": 0, "stuck": 0}
        return self

    def _update_alpha(self) -> None:
        g = self.graph
        if self.kind in ("tir", "tire"):
            if self.kind == "tir":
                self.ew = self.l[g.cidx].copy()
            kernels.all_alpha(
                g.cptr, g.cidx, self.ew, self.ndk, self.nd, self.alpha0, self.alpha_dk
            )
        elif self.kind == "dmr":
            self.alpha_dk[:] = self.alpha0
            np.add.at(self.alpha_dk, g.citing(), self.lam[:, self._col[g.cidx]].T)

    # ------------------------------------------------------------------ sampling
    def sweep(self) -> None:
        g = self.graph
        u = self.rng.random(len(self.w))
        if self.exact and self.kind in ("tir", "tire"):
            kernels.tir_sweep_exact(
                self.ptr, self.w, self.z, self.ndk, self.nwk, self.nk, self.nd, self.alpha_dk,
                g.rptr, g.ridx, g.reidx, g.cptr, g.cidx, self.ew, self.alpha0, self.beta,
                self.W * self.beta, u, self._p, self._buf,
            )  # fmt: skip
            return
        refresh = self.kind in ("tir", "tire") and self.refresh == "visit"
        if self.kind in ("tir", "tire") and self.refresh == "sweep":
            self._update_alpha()
        kernels.tir_sweep(
            self.ptr, self.w, self.z, self.ndk, self.nwk, self.nk, self.nd, self.alpha_dk,
            refresh, g.cptr, g.cidx, self.ew, self.alpha0, self.beta, self.W * self.beta,
            u, self._p,
        )  # fmt: skip

    def step(self) -> None:
        """One sweep, then a regression step after every ``interval``-th sweep (ML, MAP),
        or one MH / slice scan over l after every sweep (samplers)."""
        self.sweep()
        self.iteration += 1
        if self.estimator in SAMPLERS:
            self.sample_l()
        elif self.kind != "lda" and self.iteration % self.interval == 0:
            self.regress()

    def sample_l(self) -> None:
        """One scan of MH or slice updates over the cited documents' l given z (Eq 3.5
        with the Exponential(rate) prior of Alg 4), then the running posterior mean."""
        import time

        t0 = time.perf_counter()
        g = self.graph
        self._update_alpha()
        zbar = self.zbar()
        n = len(self.cited)
        args = (self.cited, self.l, g.rptr, g.ridx, zbar, self.ndk, self.nd, self.alpha_dk,
                self.rate)  # fmt: skip
        st = self.mcmc_stats
        if self.estimator == "mh":
            eps = self.rng.standard_normal(n)
            u = 1.0 - self.rng.random(n)
            st["accepted"] += kernels.l_mh_scan(*args, self.mh_step, eps, u)
            st["proposals"] += n
        else:
            u = 1.0 - self.rng.random((n, 3 + SLICE_MAX_SHRINK))
            ev, stuck = kernels.l_slice_scan(*args, self.slice_width, SLICE_MAX_OUT, u)
            st["evaluations"] += int(ev)
            st["stuck"] += int(stuck)
            st["proposals"] += n
        if not np.isfinite(self.l).all():
            raise DataError(None, f"{self.estimator}: sampled l is not finite")
        self._update_alpha()
        if self.iteration > self.average_from:
            self.l_sum += self.l
            self.n_averaged += 1
        self.regression_seconds.append(time.perf_counter() - t0)

    @property
    def l_mean(self) -> np.ndarray:
        """Posterior mean of l over the samples after sweep ``average_from`` (samplers);
        the current l when nothing was averaged (ML / MAP)."""
        if self.n_averaged == 0:
            return self.l.copy()
        return self.l_sum / self.n_averaged

    def fit(self, corpus, n_iter: int, callback: Callable | None = None, *, graph=None):
        """``n_iter`` sweeps on ``corpus`` with the citation ``graph``.

        Parameters
        ----------
        corpus : BowCorpus
        n_iter : int
            Gibbs sweeps (a regression step after every ``interval``-th).
        callback : callable, optional
            ``callback(model, {"iteration": i}) -> stop`` after each sweep.
        graph : CitationGraph, optional
            The citations (Sec. 3.3); None: no document cites another, so every
            alpha^(d) is the base alpha (Eq. 3.1 with an empty sum).

        Returns
        -------
        self
        """
        if int(n_iter) != n_iter or n_iter < 0:
            raise ConfigError("n_iter", f"must be an integer >= 0, got {n_iter!r}")
        if graph is None:
            graph = CitationGraph(corpus.n_docs, np.zeros(corpus.n_docs + 1), np.zeros(0))
        self.initialize(corpus, graph)
        for _ in range(int(n_iter)):
            self.step()
            if callback is not None and callback(self, {"iteration": self.iteration}):
                break
        return self

    # ------------------------------------------------------------------ regression
    def zbar(self) -> np.ndarray:
        return self.ndk / np.maximum(self.nd, 1)[:, None]

    def _loglik_alpha(self, alpha_dk):
        g = np.zeros_like(alpha_dk)
        f = kernels.polya_alpha_grad(self.ndk, self.nd, alpha_dk, self.citing_docs, g)
        return f, g

    def objective(self, x: np.ndarray):
        """(negative objective, gradient) of the regression parameters ``x``: l of the
        cited documents (TIR), the edge weights (TIRE), lambda (DMR)."""
        g = self.graph
        zbar = self.zbar()
        a = np.full((g.n_docs, self.K), self.alpha0)
        if self.kind == "tir":
            l = np.zeros(g.n_docs)
            l[self.cited] = x
            ew = l[g.cidx]
        elif self.kind == "tire":
            ew = x
        if self.kind in ("tir", "tire"):
            kernels.all_alpha(g.cptr, g.cidx, ew, self.ndk, self.nd, self.alpha0, a)
            f, ga = self._loglik_alpha(a)
            ge = np.empty(g.n_edges)
            kernels.edge_grad(g.cptr, g.cidx, zbar, ga, ge)
            if self.kind == "tir":
                grad = np.bincount(g.cidx, weights=ge, minlength=g.n_docs)[self.cited]
                if self.estimator == "map":  # Exponential(rate) prior on l (Alg 4)
                    f -= self.rate * x.sum()
                    grad = grad - self.rate
            else:
                grad = ge
                if self.estimator == "map":  # truncGauss(l^(c), sigma) term (Alg 5)
                    r = x - self.l[g.cidx]
                    f -= 0.5 * np.sum(r * r) / self.sigma**2
                    grad = grad - r / self.sigma**2
            return -f, -grad
        lam = x.reshape(self.K, len(self.cited))
        np.add.at(a, g.citing(), lam[:, self._col[g.cidx]].T)
        f, ga = self._loglik_alpha(a)
        grad = np.zeros_like(lam)
        np.add.at(grad.T, self._col[g.cidx], ga[g.citing()])
        f -= lam.sum()  # Exponential prior with mean 1
        grad -= 1.0
        return -f, -grad.ravel()

    def _optimize(self, x0: np.ndarray) -> np.ndarray:
        """Maximise the objective from ``x0`` under x >= 0 within the step's budget
        (``optimizer``: L-BFGS-B, ``lbfgs_iter`` iterations at most; or ``grad_iter`` fixed
        gradient-ascent steps of size ``grad_step``, each projected onto x >= 0)."""
        st = self.reg_stats
        st["steps"] += 1
        if self.optimizer == "gradient":
            x = x0.copy()
            for _ in range(self.grad_iter):
                _, neg_grad = self.objective(x)
                x = np.maximum(x - self.grad_step * neg_grad, 0.0)
            st["iterations"] += self.grad_iter
            st["at_budget"] += 1  # a fixed number of steps: never run to convergence
            return x
        res = minimize(
            self.objective, x0, jac=True, method="L-BFGS-B",
            bounds=[(0.0, None)] * len(x0), options={"maxiter": self.lbfgs_iter},
        )  # fmt: skip
        st["iterations"] += int(res.nit)
        st["at_budget"] += int(res.status == 1)  # the iteration (or evaluation) limit
        return np.maximum(res.x, 0.0)

    def regress(self) -> None:
        """One stochastic-EM M-step given the current z (Sec 3.4; the optimiser and its
        budget: :meth:`_optimize`)."""
        import time

        t0 = time.perf_counter()
        if self.kind == "tir":
            x0 = self.l[self.cited]
        elif self.kind == "tire":
            x0 = self.ew
        else:
            x0 = self.lam.ravel()
        if len(x0):
            x = self._optimize(np.asarray(x0, dtype=float))
            if not np.isfinite(x).all():
                raise DataError(None, f"{self.kind}: regression step gave non-finite values")
            if self.kind == "tir":
                self.l[self.cited] = x
            elif self.kind == "tire":
                self.ew = x
                self.l = tire_node_lse(self.graph, self.ew, self.l)
            else:
                self.lam = x.reshape(self.K, len(self.cited))
        self._update_alpha()
        self.regression_seconds.append(time.perf_counter() - t0)

    # ------------------------------------------------------------------ accessors
    def phi_wk(self) -> np.ndarray:
        """Topics W x K, (n_wk + beta) / (n_k + W beta) (the collapsed estimate, Sec. 3.3)."""
        return (self.nwk + self.beta) / (self.nk + self.W * self.beta)

    def phi(self) -> np.ndarray:
        """Topics K x W (rows sum to 1): ``phi_wk().T``."""
        return self.phi_wk().T.copy()

    def theta(self) -> np.ndarray:
        """Topic proportions of the training documents, D x K: (n_dk + alpha_k^(d)) /
        (n_d + sum_k alpha_k^(d)) with the per-document prior of Eq. 3.1 (3.3, DMR)."""
        a = self.alpha_dk
        return (self.ndk + a) / (self.nd + a.sum(1))[:, None]

    def new_doc_prior(self) -> np.ndarray:
        """The prior of a new document's theta, whose citations are not known: the base
        alpha (Eq. 3.1 with no cited document), length K."""
        return np.full(self.K, self.alpha0)

    def transform(self, corpus, n_iter: int = 100, tol: float = 1e-6) -> np.ndarray:
        """Topic proportions (n_docs x K) of new documents with the topics and the base
        prior frozen (the CVB0 fixed point shared with the LDA models,
        :func:`latentlab.models.lda.theta.estimate_theta`)."""
        from latentlab.models.lda._common import fold_in

        return fold_in(self, corpus, n_iter, tol)

    def log_predictive(self, split, n_iter: int = 100, tol: float = 1e-6) -> float:
        """Held-out log-likelihood per scored token by document completion with the base
        prior (the study's own held-out score, AIS with each test document's alpha^(d),
        is in :mod:`latentlab.studies.tir.runs`)."""
        from latentlab.models.lda._common import completion

        return completion(self, split, n_iter, tol)

    def log_lik_z(self) -> float:
        """sum over citing documents of log Polya(z^(d) | alpha^(d)) (Eq 3.6)."""
        a = np.empty_like(self.alpha_dk)
        self._update_alpha()
        a[:] = self.alpha_dk
        return self._loglik_alpha(a)[0]

    def doc_prior(self, d: int) -> np.ndarray:
        """alpha^(d) from the current state (used for the held-out half of test doc d)."""
        out = np.empty(self.K)
        if self.kind in ("tir", "tire"):
            ew = self.l[self.graph.cidx] if self.kind == "tir" else self.ew
            kernels.doc_alpha(
                d, self.graph.cptr, self.graph.cidx, ew, self.ndk, self.nd, self.alpha0, out
            )
        elif self.kind == "dmr":
            out[:] = self.alpha0
            cs = self.graph.cidx[self.graph.cptr[d] : self.graph.cptr[d + 1]]
            out += self.lam[:, self._col[cs]].sum(1)
        else:
            out[:] = self.alpha0
        return out

    def total_influence(self) -> np.ndarray:
        """T^(d) = l^(d) x in-corpus citation count (Eq 3.2)."""
        return self.l * self.graph.in_degree()


def tire_node_lse(graph: CitationGraph, ew: np.ndarray, l_prev: np.ndarray) -> np.ndarray:
    """Eq 3.7: l^(a) = mean of the edge weights l^(a,d) over the citers d of a (documents
    nobody cites keep their previous value)."""
    deg = np.bincount(graph.cidx, minlength=graph.n_docs)
    s = np.bincount(graph.cidx, weights=ew, minlength=graph.n_docs)
    out = l_prev.copy()
    m = deg > 0
    out[m] = s[m] / deg[m]
    return out
