"""Thin adapter: one function per method that fits today's model classes and returns a
:class:`Fitted` (topics W x K, the document prior, per-topic token mass, time curve).

This is the only module that knows each model's constructor; every model is fitted
through the one interface, ``fit(corpus, n_iter, callback(model, info) -> stop)``,
``phi()`` (K x W), ``theta()`` (D x K), the callback ticking the held-out curve.

Time: ``train_seconds`` is wall-clock time inside the fit minus the time spent in the
checkpoint evaluations (the held-out curve), so every method is timed the same way.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError


@dataclass
class Fitted:
    phi_wk: np.ndarray  # W x K, columns sum to 1
    alpha: np.ndarray | None  # Dirichlet prior of theta (None: CTM, logistic normal)
    weight: np.ndarray  # expected training tokens per topic
    train_seconds: float
    iterations: int
    curve: list = field(default_factory=list)  # dicts: seconds, progress, heldout_ll
    extra: dict = field(default_factory=dict)
    completion: Callable | None = None  # method-specific document completion (CTM)

    def __post_init__(self):
        self.phi_wk = np.ascontiguousarray(self.phi_wk)


def progress_bar(total: int, desc: str):
    """tqdm on an interactive terminal; silent (and cheap) in Snakemake logs."""
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, disable=not sys.stderr.isatty(), leave=False)


class _Clock:
    """Training time = wall time minus evaluation time; checkpoints every ``every`` steps."""

    def __init__(self, total: int, n_checkpoints: int, evaluate: Callable, desc: str):
        self.every = max(1, total // max(1, n_checkpoints))
        self.total = total
        self.evaluate = evaluate
        self.t0 = time.perf_counter()
        self.eval_s = 0.0
        self.curve: list = []
        self.bar = progress_bar(total, desc)

    def seconds(self) -> float:
        return time.perf_counter() - self.t0 - self.eval_s

    def tick(self, step: int, phi_alpha: Callable) -> None:
        self.bar.update(1)
        if step % self.every == 0 or step == self.total:
            t = self.seconds()
            e0 = time.perf_counter()
            ll = self.evaluate(*phi_alpha())
            self.eval_s += time.perf_counter() - e0
            self.curve.append({"seconds": t, "progress": step, "heldout_ll": ll})

    def close(self) -> float:
        self.bar.close()
        return self.seconds()


def _keyed(method: str):
    """Re-raise a model's ConfigError under the config key ``compare.<method>.<key>``."""

    class _Ctx:
        def __enter__(self):
            return self

        def __exit__(self, tp, e, tb):
            if isinstance(e, ConfigError) and not e.key.startswith("compare."):
                raise ConfigError(f"compare.{method}.{e.key}", str(e).split(": ", 1)[-1]) from e
            return False

    return _Ctx()


def _sched(s) -> dict:
    return {"s": s.s, "tau": s.tau, "kappa": s.kappa}


def _n_minibatches(epochs: float, n_docs: int, minibatch: int) -> int:
    return max(1, int(np.ceil(epochs * n_docs / minibatch)))


def _fit_minibatch(model, train, epochs, ev, n_chk, label, phi_alpha, weight):
    """``epochs`` passes as ``ceil(epochs * D / minibatch)`` minibatches (a fixed count,
    so that the checkpoints fall on the same minibatches whatever the corpus)."""
    n_mb = _n_minibatches(epochs, train.n_docs, model.minibatch)
    clock = _Clock(n_mb, n_chk, ev, label)

    def cb(m, info):
        clock.tick(info["minibatch"], lambda: phi_alpha(m))
        return info["minibatch"] >= n_mb

    model.fit(train, None, callback=cb, max_docs=n_mb * model.minibatch)
    return Fitted(*phi_alpha(model), weight(model), clock.close(), n_mb, clock.curve)


def _phi_alpha(m):
    """Topics W x K and the document prior of any Dirichlet-prior topic model."""
    return m.phi().T, m.new_doc_prior()


def _fit_scvb0(train, K, s, seed, ev, n_chk):
    from latentlab.models.lda import SCVB0

    m = SCVB0(K, s.alpha, s.beta, s.minibatch, _sched(s.rho_phi), _sched(s.rho_theta),
              s.n_burn, seed=seed)  # fmt: skip
    return _fit_minibatch(m, train, s.epochs, ev, n_chk, "SCVB0", _phi_alpha,
                          lambda m: m.n_z.copy())  # fmt: skip


def _fit_svb(train, K, s, seed, ev, n_chk):
    from latentlab.models.lda import SVB

    m = SVB(K, s.alpha, s.beta, s.offset, s.minibatch, s.n_local, _sched(s.rho), seed=seed)

    def weight(m):
        return np.maximum(m.lam.sum(axis=0) - m.eta * m.W, 0.0)

    return _fit_minibatch(m, train, s.epochs, ev, n_chk, "SVB", _phi_alpha, weight)


def _fit_batch(m, train, n_iter, ev, n_chk, label, phi_alpha, weight):
    clock = _Clock(n_iter, n_chk, ev, label)
    m.fit(
        train, n_iter, callback=lambda m, info: clock.tick(info["iteration"], lambda: phi_alpha(m))
    )
    return Fitted(*phi_alpha(m), weight(m), clock.close(), n_iter, clock.curve)


def _fit_cvb0(train, K, s, seed, ev, n_chk):
    from latentlab.models.lda import CVB0

    m = CVB0(K, s.alpha, s.beta, seed=seed)
    return _fit_batch(m, train, s.n_iter, ev, n_chk, "CVB0", _phi_alpha, lambda m: m.n_k.copy())


def _fit_cgs(train, K, s, seed, ev, n_chk):
    from latentlab.models.lda import CGS

    m = CGS(K, s.alpha, s.beta, s.optimize_interval, s.burn_in, seed=seed)
    f = _fit_batch(m, train, s.n_iter, ev, n_chk, "CGS", _phi_alpha, lambda m: m.n_k.astype(float))
    f.extra["alpha_sum"] = float(m.alpha.sum())
    return f


def _fit_hdp(train, K, s, seed, ev, n_chk):
    from latentlab.models.hdp import HDPLDA

    m = HDPLDA(K, s.method, s.prior, options=dict(s.options), seed=seed)
    f = _fit_batch(m, train, s.n_iter, ev, n_chk, f"HDP-{s.method.upper()}", _phi_alpha,
                   lambda m: m.nk.copy())  # fmt: skip
    f.extra.update(topics_used=m.effective_topics(1.0), alpha0=float(m.alpha0),
                   beta0=float(m.beta0), gamma0=float(m.gamma0))  # fmt: skip
    return f


def _fit_ctm(train, K, s, seed, ev_split, n_chk):
    """CTM by Laplace VI: EM runs until ``em_tol`` or ``em_max_iter``; the curve has one
    point per EM iteration (the held-out evaluation is outside the timed region)."""
    from latentlab.models.ctm import CTM

    m = CTM(K, "laplace", seed=seed, tol=s.em_tol, estep_tol=s.estep_tol,
            estep_max_iter=s.estep_max_iter, pseudo=s.pseudo_count,
            ridge_rel=s.ridge_rel)  # fmt: skip
    bar = progress_bar(s.em_max_iter, "CTM-Laplace")
    curve = []

    def cb(model, info):
        bar.update(1)
        ll = model.log_predictive(ev_split)
        curve.append({"seconds": info["time_s"], "progress": info["iter"], "heldout_ll": ll})

    m.fit(train, s.em_max_iter, callback=cb)
    bar.close()
    lens = train.doc_lengths()
    weight = (m.theta() * lens[:, None]).sum(axis=0)
    f = Fitted(m.phi().T, None, weight, m.history[-1]["time_s"], len(m.history), curve)
    f.extra.update(bound_per_word=m.history[-1]["bound_per_word"], ridge=m.prior.ridge)
    f.completion = m.log_predictive
    return f


FITTERS = {
    "scvb0": _fit_scvb0,
    "svb": _fit_svb,
    "cvb0": _fit_cvb0,
    "cgs": _fit_cgs,
    "hdp": _fit_hdp,
    "ctm": _fit_ctm,
}


def fit_method(method: str, train: BowCorpus, K: int, settings, seed: int, split, ev_settings):
    """Fit ``method`` on ``train``; the held-out curve scores ``split`` (document
    completion) at ``ev_settings.n_checkpoints`` points along the fit."""
    from latentlab.evaluation.heldout import document_completion

    def ev(phi_wk, alpha):
        return document_completion(split, phi_wk, alpha, ev_settings.theta_iters)

    with _keyed(method):
        arg = split if method == "ctm" else ev
        return FITTERS[method](train, K, settings, seed, arg, ev_settings.n_checkpoints)


def warm_up(method: str, settings) -> None:
    """Compile (or load the cached) numba kernels on a toy corpus before anything is timed,
    once per process and settings (:func:`latentlab.kernels.warmup.warm_once`)."""
    from latentlab.kernels.warmup import warm_once

    warm_once(("compare", method, repr(settings)), lambda: _toy_fit(method, settings))


def _toy_fit(method: str, settings) -> None:
    import dataclasses

    from latentlab.data.splits import completion_split

    rng = np.random.default_rng(0)
    toy = BowCorpus.from_dense(rng.integers(0, 3, size=(8, 12)) + np.eye(8, 12, dtype=int))
    small = {}
    for f in dataclasses.fields(settings):
        if f.name in ("minibatch",):
            small[f.name] = 4
        elif f.name in ("n_iter", "em_max_iter"):
            small[f.name] = 2
        elif f.name == "epochs":
            small[f.name] = 1.0
    s = dataclasses.replace(settings, **small)

    @dataclasses.dataclass
    class _Ev:
        theta_iters: int = 5
        n_checkpoints: int = 1

    fit_method(method, toy, 2, s, 0, completion_split(toy, 0), _Ev())
