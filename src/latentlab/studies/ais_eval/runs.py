"""Computation steps of the ``ais_eval`` study (Foulds 2014, ch. 5, Sec. 5.3): raw
per-document results on disk, one step per rule of ``rules/ais_eval.smk``.

Steps:

* ``synth`` — the synthetic corpus of a role (``data/synthetic.py``).

* :func:`train` — split a corpus (~10% test documents), train LDA by collapsed Gibbs with
  Minka's asymmetric alpha and symmetric beta on the MALLET schedule (inferred from Figs 5.7,
  5.11), keep snapshots at ``first_snapshot`` (the document's Φ(1), Sec. 5.3.3) and every
  ``snapshot_every`` iterations after it (restricted to the test vocabulary) and
  per-iteration topic entropy / log prior (Fig. 5.11); build the perturbed topics
  (5% of the assignments moved, Sec. 5.3.1) and an independently trained symmetric-alpha model
  (flat alpha, concentration learned; Table 5.3).
* :func:`perturbed` — learned vs perturbed topics, six estimators, cheap and expensive
  regimes, two runs per document (Tables 5.1, 5.2; Figs. 5.4, 5.5).
* :func:`symasym` — asymmetric vs symmetric alpha (Hungarian-aligned), plus a long LR run
  as the reference (Table 5.3).
* :func:`iteration` — iteration-AIS at n and 10n temperatures against standard AIS and LR
  at matched per-model budgets along the training snapshots (Figs. 5.7-5.10).
* :func:`ntemps` — one long document, estimated log-likelihood difference vs the number of
  temperatures, spread over importance samples (Fig. 5.6).

Per-document log-likelihood differences are stored as ``logratio = L1 - L2`` (model 1 =
learned / asymmetric); the perplexity ratio perp(1)/perp(2) is exp(-logratio / N_d)
(Eqs. 5.46-5.47).
"""

from __future__ import annotations

import logging
import math
import time
import zlib

import numpy as np
import pandas as pd

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import heldout_docs
from latentlab.data.synthetic import lda_corpus_decaying_alpha
from latentlab.errors import ConfigError
from latentlab.evaluation import ais
from latentlab.outputs import write_csv, write_json
from latentlab.studies.shape import derive_seed

# the raw results' names and readers live in results.py (the light steps import that);
# re-exported here for the scripts and tests that use them from runs
from .results import METHOD_LABELS, METHODS, STATS, load_models, stats_frame  # noqa: F401
from .study import (
    STUDY,
    Compare,
    Iteration,
    IterationSettings,
    NTemps,
    NTempsSettings,
    PerturbedSettings,
    SymasymSettings,
    Synthetic,
    SynthSettings,
    Train,
    TrainSettings,
    tag_offset,
)

log = logging.getLogger("latentlab.ais_eval")


# ----------------------------------------------------------------------------- training


def _entropy_and_logprior(n_wk, n_k, beta):
    """Total topic entropy sum_k H(Phi_k) and sum_k log Dir(Phi_k | beta) (Fig. 5.11;
    the document does not define its 'prior probability of the topics'; ours is this)."""
    from scipy.special import gammaln

    V = n_wk.shape[0]
    phi = (n_wk + beta) / (n_k + V * beta)
    lphi = np.log(phi)
    ent = float(-(phi * lphi).sum())
    lp = float(n_wk.shape[1] * (gammaln(V * beta) - V * gammaln(beta)) + (beta - 1) * lphi.sum())
    return ent, lp


def _symmetric_alpha(alpha_scalar: float, n_dk: np.ndarray, n_iter: int = 200) -> float:
    """Minka fixed point for the concentration of a symmetric alpha (mean fixed at 1/K):
    a <- a sum_dk [psi(n_dk + a) - psi(a)] / (K sum_d [psi(n_d + K a) - psi(K a)])."""
    from scipy.special import digamma

    K = n_dk.shape[1]
    nd = n_dk.sum(axis=1)
    a = float(alpha_scalar)
    for _ in range(n_iter):
        num = float((digamma(n_dk + a) - digamma(a)).sum())
        den = float(K * (digamma(nd + K * a) - digamma(K * a)).sum())
        if den <= 0:
            break
        new = max(a * num / den, 1e-10)
        if abs(new - a) < 1e-10 * max(1.0, a):
            a = new
            break
        a = new
    return a


def _cgs_run(corpus, K, alpha0, beta, n_iter, interval, burn_in, seed, symmetric, on_iter):
    from latentlab.models.lda import CGS
    from latentlab.models.lda.hyper import minka_beta_symmetric

    model = CGS(
        K,
        alpha=alpha0,
        beta=beta,
        optimize_interval=0 if symmetric else interval,
        burn_in=burn_in,
        learn_beta=not symmetric,
        seed=seed,
    )

    def cb(m, info):
        it = info["iteration"]
        optimized = bool(interval) and it > burn_in and it % interval == 0
        if symmetric and optimized:
            m.alpha = np.full(K, _symmetric_alpha(float(m.alpha[0]), m.n_dk))
            m.beta = minka_beta_symmetric(m.beta, m.n_wk, m.W)
        on_iter(m, it, optimized)
        return False

    model.fit(corpus, n_iter, cb)
    return model


def perturb_counts(z, w, n_wk, K, frac, mode, rng):
    """Perturbed topics (Table 5.1, Sec. 5.3.1): move ``frac`` of the token assignments to a
    uniformly random topic (``mode="topic"``, word kept) or to a uniformly random
    (word, topic) cell (``mode="cell"``); returns the new n_wk (counts stay integer)."""
    n_wk = n_wk.copy()
    T = len(z)
    m = int(round(frac * T))
    idx = rng.choice(T, size=m, replace=False)
    for i in idx:
        n_wk[w[i], z[i]] -= 1
    if mode == "topic":
        new_k = rng.integers(0, K, size=m)
        np.add.at(n_wk, (w[idx], new_k), 1)
    elif mode == "cell":
        new_w = rng.integers(0, n_wk.shape[0], size=m)
        new_k = rng.integers(0, K, size=m)
        np.add.at(n_wk, (new_w, new_k), 1)
    else:
        raise ConfigError("ais_eval.train.perturb_mode", f"must be 'topic' or 'cell', got {mode!r}")
    return n_wk


def snapshot_kept(it: int, first: int, every: int) -> bool:
    """Whether CGS iteration ``it`` (1-based) is a snapshot of Figs 5.7-5.10: the first
    snapshot ``first`` (train.first_snapshot; the document's Φ(1), Sec. 5.3.3), then every
    multiple of ``every`` after it."""
    return it == first or (it > first and it % every == 0)


def snapshot_streams(snap_grid) -> np.ndarray:
    """The random-stream index of each snapshot in the iteration step: the snapshots on the
    ``snapshot_every`` grid are numbered 0, 1, ... in order (the streams of the run before
    train.first_snapshot existed, so their baselines stay bit for bit), the others (a first
    snapshot off the grid) after them."""
    grid = np.asarray(snap_grid, bool)
    out = np.empty(len(grid), np.int64)
    out[grid] = np.arange(int(grid.sum()))
    out[~grid] = int(grid.sum()) + np.arange(int((~grid).sum()))
    return out


# the sub-seeds of a train step (shape.derive_seed(seed, r=...)): r = 0 the split and the
# learned chain, r = 1 the symmetric-alpha chain, r = PERTURB_R the perturbed topics
PERTURB_R = 7


def train_models(corpus, tp: Train, seed: int) -> dict:
    """Train the models of one corpus; returns arrays for ``models/<role>.npz``. ``seed``
    is the step's (``ctx.seed(tag_offset("train", role))``); its sub-seeds are above."""
    K, n_iter = tp.K, tp.n_iter
    interval, burn_in = tp.optimize_interval, tp.optimize_burn_in
    every = tp.snapshot_every
    beta0 = float(tp.beta)
    alpha0 = float(tp.alpha_sum) / K
    train_c, test_c, _, n_test_all = heldout_docs(
        corpus, tp.test_frac, seed, max_test=tp.max_test_docs, surplus="drop"
    )
    test_docs = ais.corpus_token_lists(test_c)
    test_vocab = np.unique(np.concatenate(test_docs))
    stats, snaps, snap_alpha, snap_iter = [], [], [], []
    first = tp.first_snapshot
    t0 = time.perf_counter()

    def on_iter(m, it, optimized):
        if it % max(1, tp.stats_every) == 0 or optimized or it == 1:
            ent, lp = _entropy_and_logprior(m.n_wk, m.n_k, m.beta)
            # the same at the fixed initial beta: a jump there is a move of the counts,
            # not the re-optimised beta's smoothing (issue 21, C5.10/C5.10b)
            ent0, lp0 = _entropy_and_logprior(m.n_wk, m.n_k, beta0)
            row = (it, ent, lp, float(m.alpha.sum()), float(m.beta), optimized, ent0, lp0)
            stats.append(row)
        if snapshot_kept(it, first, every):
            phi = m.phi_wk()
            snaps.append(phi[test_vocab])
            snap_alpha.append(m.alpha.copy())
            snap_iter.append(it)
        if it % max(1, n_iter // 10) == 0:
            log.info("CGS iteration %d/%d (%.1fs)", it, n_iter, time.perf_counter() - t0)

    m1 = _cgs_run(train_c, K, alpha0, beta0, n_iter, interval, burn_in, seed, False, on_iter)
    t_train = time.perf_counter() - t0
    phi1 = m1.phi_wk()
    rng = np.random.default_rng(derive_seed(seed, r=PERTURB_R))
    _, w_tok = train_c.to_tokens()
    n_wk_p = perturb_counts(m1.z, w_tok, m1.n_wk, K, tp.perturb_frac, tp.perturb_mode, rng)
    phi_p = (n_wk_p + m1.beta) / (n_wk_p.sum(axis=0) + train_c.n_vocab * m1.beta)
    log.info("training the symmetric-alpha model (independent chain)")
    sym_seed = derive_seed(seed, r=1)
    m2 = _cgs_run(
        train_c, K, alpha0, beta0, n_iter, interval, burn_in, sym_seed, True, lambda *a: None
    )
    ptr = np.zeros(len(test_docs) + 1, np.int64)
    ptr[1:] = np.cumsum([len(d) for d in test_docs])
    st = np.array(stats)
    return {
        "phi": phi1,
        "alpha": m1.alpha,
        "phi_perturbed": phi_p,
        "phi_sym": m2.phi_wk(),
        "alpha_sym": m2.alpha,
        "test_ptr": ptr,
        "test_words": np.concatenate(test_docs),
        "test_vocab": test_vocab,
        "snap_phi": np.stack(snaps),
        "snap_alpha": np.stack(snap_alpha),
        "snap_iter": np.array(snap_iter),
        "snap_grid": np.array([it % every == 0 for it in snap_iter]),
        "stats": st,
        "info": np.frombuffer(
            __import__("json")
            .dumps(
                {
                    "n_train_docs": train_c.n_docs,
                    "n_test_docs_heldout": n_test_all,
                    "n_test_docs_evaluated": len(test_docs),
                    "n_vocab": train_c.n_vocab,
                    "n_train_tokens": int(train_c.n_tokens),
                    "train_seconds": t_train,
                    "K": K,
                    "alpha_sum_learned": float(m1.alpha.sum()),
                    "alpha_sum_sym": float(m2.alpha.sum()),
                    "beta_learned": float(m1.beta),
                }
            )
            .encode(),
            np.uint8,
        ),
    }


# ----------------------------------------------------------------------------- comparisons


def _compare(m1, m2, docs, n, runs, burn, S, seed, threads, tag):
    """Six estimators of L1 - L2 on every document, ``runs`` runs each (streams differ).

    LR and standard AIS evaluate each model separately; ratio-AIS gives L1 - L2
    directly, forward = model 2 -> 1, reverse = model 1 -> 2 (negated)."""
    rows = []
    lens = np.array([len(d) for d in docs])
    for r in range(runs):
        base = 1000 * r + zlib.crc32(tag.encode()) % 997

        def st(k, base=base):
            return base * 10 + k

        t = time.perf_counter()
        res = {}
        e1 = ais.left_to_right(m1, docs, n_temps=n, seed=seed, stream=st(0), threads=threads)
        e2 = ais.left_to_right(m2, docs, n_temps=n, seed=seed, stream=st(1), threads=threads)
        res["lr"] = (e1.log_lik - e2.log_lik, e1.updates + e2.updates)
        e1 = ais.standard_ais(m1, docs, n, S, seed=seed, stream=st(2), threads=threads)
        e2 = ais.standard_ais(m2, docs, n, S, seed=seed, stream=st(3), threads=threads)
        res["std_ais"] = (e1.log_lik - e2.log_lik, e1.updates + e2.updates)
        for path, key in (("geometric", "geo"), ("convex", "convex")):
            f = ais.ratio_ais(m1, m2, docs, n, path, S, burn, seed, st(4), threads)
            b = ais.ratio_ais(m2, m1, docs, n, path, S, burn, seed, st(5), threads)
            res[key] = (f.log_lik, f.updates)
            res[key + "_rev"] = (-b.log_lik, b.updates)
        log.info("%s n=%d run %d: %.1fs", tag, n, r, time.perf_counter() - t)
        for meth, (lr_, upd) in res.items():
            for d in range(len(docs)):
                rows.append(
                    {
                        "doc": d,
                        "N": int(lens[d]),
                        "n_temps": n,
                        "run": r,
                        "method": meth,
                        "logratio": float(lr_[d]),
                        "perp_ratio": math.exp(-lr_[d] / lens[d]),
                        "updates": int(upd[d]),
                    }
                )
    return rows


def perturbed_runs(models: dict, e: Compare, seed: int, threads: int) -> pd.DataFrame:
    """Learned vs perturbed topics (Tables 5.1/5.2, Figs 5.4/5.5); same alpha, already
    aligned."""
    m1 = ais.TopicModel(models["phi"], models["alpha"], "learned")
    m2 = ais.TopicModel(models["phi_perturbed"], models["alpha"], "perturbed")
    docs = models["docs"][: e.n_docs] if e.n_docs else models["docs"]
    rows = []
    for regime in ("cheap", "expensive"):
        n = getattr(e, f"{regime}_temps")
        for row in _compare(
            m1,
            m2,
            docs,
            n,
            e.runs,
            e.burn,
            e.S,
            seed,
            threads,
            f"perturbed-{regime}",
        ):
            rows.append({"regime": regime, **row})
    return pd.DataFrame(rows)


def symasym_runs(models: dict, e: Compare, seed: int, threads: int) -> pd.DataFrame:
    """Asymmetric (model 1) vs symmetric alpha (model 2), Hungarian-aligned (Table 5.3); the
    correlation reference (regime lr_long) as ``e.reference`` reads it (SymasymCompare)."""
    m1 = ais.TopicModel(models["phi"], models["alpha"], "asymmetric")
    m2 = ais.TopicModel(models["phi_sym"], models["alpha_sym"], "symmetric")
    m2, perm = ais.align_topics(m1, m2)
    docs = models["docs"][: e.n_docs] if e.n_docs else models["docs"]
    rows = []
    for regime in ("cheap", "expensive"):
        n = getattr(e, f"{regime}_temps")
        for row in _compare(
            m1,
            m2,
            docs,
            n,
            e.runs,
            e.burn,
            e.S,
            derive_seed(seed, r=1),
            threads,
            f"symasym-{regime}",
        ):
            rows.append({"regime": regime, **row})
    if e.reference == "expensive":  # the caption's reading: the expensive LR's second run
        ref = [r for r in rows if (r["regime"], r["method"], r["run"]) == ("expensive", "lr", 1)]
        return pd.DataFrame(rows + [{**r, "regime": "lr_long"} for r in ref])
    n_long = e.lr_long_temps  # (given: SymasymSettings, at start-up)
    long_seed = derive_seed(seed, r=2)
    e1 = ais.left_to_right(m1, docs, n_temps=n_long, seed=long_seed, stream=1, threads=threads)
    e2 = ais.left_to_right(m2, docs, n_temps=n_long, seed=long_seed, stream=2, threads=threads)
    for d, doc in enumerate(docs):
        lr_ = float(e1.log_lik[d] - e2.log_lik[d])
        rows.append(
            {
                "regime": "lr_long",
                "doc": d,
                "N": len(doc),
                "n_temps": n_long,
                "run": 0,
                "method": "lr",
                "logratio": lr_,
                "perp_ratio": math.exp(-lr_ / len(doc)),
                "updates": int(e1.updates[d] + e2.updates[d]),
            }
        )
    return pd.DataFrame(rows)


def _restricted_model(phi_rows, alpha, name):
    """A model on the test vocabulary + one 'rest' row holding the remaining mass, so
    columns sum to 1 and test documents (re-indexed) never touch the extra row."""
    rest = np.maximum(1.0 - phi_rows.sum(axis=0, keepdims=True), 0.0)
    return ais.TopicModel(np.vstack([phi_rows, rest]), alpha, name)


def iteration_runs(models: dict, e: Iteration, seed: int, threads: int) -> pd.DataFrame:
    """Per-snapshot held-out log-likelihood: iteration-AIS vs standard AIS vs LR at n and
    factor * n temperatures per model, ``runs`` runs (Figs 5.7-5.10)."""
    vocab = models["test_vocab"]
    remap = {int(w): i for i, w in enumerate(vocab)}
    docs = [np.array([remap[int(w)] for w in d]) for d in models["docs"][: e.n_docs]]
    phis = models["snap_phi"]
    rest = np.maximum(1.0 - phis.sum(axis=1, keepdims=True), 0.0)
    phis_full = np.concatenate([phis, rest], axis=1)
    alphas = models["snap_alpha"]
    iters = models["snap_iter"]
    # a models file written before train.first_snapshot: every snapshot on the grid
    streams = snapshot_streams(models.get("snap_grid", np.ones(len(iters), bool)))
    lens = np.array([len(d) for d in docs])
    rows = []
    for n in (e.n_temps, e.n_temps * e.factor):
        extra = e.extra
        for r in range(e.runs):
            t = time.perf_counter()
            it = ais.iteration_ais(
                phis_full, alphas, docs, n, extra, 1, seed, 100 + 10 * r + n % 7, threads
            )
            for i in range(len(iters)):
                m = _restricted_model(phis[i], alphas[i], f"snapshot {iters[i]}")
                # matched per-model budgets: n temperatures (the first snapshot gets n + extra)
                nb = n + extra if i == 0 else n
                k = int(streams[i])
                sa = ais.standard_ais(
                    m, docs, nb, 1, seed, 200 + 1000 * k + 10 * r + n % 7, threads
                )
                lr = ais.left_to_right(
                    m,
                    docs,
                    n_temps=nb,
                    seed=seed,
                    stream=300 + 1000 * k + 10 * r + n % 7,
                    threads=threads,
                )
                for d in range(len(docs)):
                    base = {
                        "iteration": int(iters[i]),
                        "doc": d,
                        "N": int(lens[d]),
                        "n_temps": n,
                        "run": r,
                    }
                    rows.append(
                        {
                            **base,
                            "method": "iteration_ais",
                            "loglik": float(it.log_lik[d, i]),
                            "updates": int(it.updates[d, i] - (it.updates[d, i - 1] if i else 0)),
                        }
                    )
                    rows.append(
                        {
                            **base,
                            "method": "std_ais",
                            "loglik": float(sa.log_lik[d]),
                            "updates": int(sa.updates[d]),
                        }
                    )
                    rows.append(
                        {
                            **base,
                            "method": "lr",
                            "loglik": float(lr.log_lik[d]),
                            "updates": int(lr.updates[d]),
                        }
                    )
            log.info("iteration study n=%d run %d: %.1fs", n, r, time.perf_counter() - t)
    return pd.DataFrame(rows)


def ntemps_runs(models: dict, e: NTemps, seed: int, threads: int) -> pd.DataFrame:
    """Fig. 5.6: one long test document (the longest with at most ``max_len`` tokens),
    learned vs perturbed topics, estimated L1 - L2 for each n in ``grid`` from ``S``
    independent importance samples (each sample is its own S = 1 estimate)."""
    docs = models["docs"]
    lens = np.array([len(d) for d in docs])
    ok = np.flatnonzero(lens <= e.max_len)
    d = int(ok[np.argmax(lens[ok])]) if len(ok) else int(np.argmin(lens))
    doc = [docs[d]]
    m1 = ais.TopicModel(models["phi"], models["alpha"], "learned")
    m2 = ais.TopicModel(models["phi_perturbed"], models["alpha"], "perturbed")
    S, burn = e.S, e.burn
    rows = []
    for n in e.grid:
        t = time.perf_counter()
        a = ais.standard_ais(m1, doc, n, S, seed, 1, threads).log_weights[0]
        b = ais.standard_ais(m2, doc, n, S, seed, 2, threads).log_weights[0]
        f = ais.ratio_ais(m1, m2, doc, n, "geometric", S, burn, seed, 3, threads).log_weights[0]
        g = -ais.ratio_ais(m2, m1, doc, n, "geometric", S, burn, seed, 4, threads).log_weights[0]
        for meth, v in (("std_ais", a - b), ("geo", f), ("geo_rev", g)):
            rows.append(
                {
                    "n_temps": n,
                    "method": meth,
                    "mean": float(v.mean()),
                    "sd": float(v.std(ddof=1)) if len(v) > 1 else 0.0,
                    "S": S,
                    "doc": d,
                    "N": int(lens[d]),
                }
            )
        log.info("Fig 5.6 n=%d: %.1fs", n, time.perf_counter() - t)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- steps


@STUDY.run("synth", settings=SynthSettings)
def synth(ctx):
    """Synthetic LDA corpus of a role, with asymmetric alpha (wildcard ``role``)."""
    role = ctx.wildcards["role"]
    spec = ctx.settings.corpora[role]
    q = spec.synthetic or Synthetic()
    corpus, _ = lda_corpus_decaying_alpha(
        q.n_docs, q.n_vocab, q.n_topics, q.doc_length, q.min_length,
        q.alpha_sum, q.alpha_decay, q.beta, ctx.seed(tag_offset("synth", role)),
    )  # fmt: skip
    corpus.save(ctx.output("corpus"))
    log.info("synthetic corpus %s: %s", spec.dataset, corpus.summary())


@STUDY.run("train", settings=TrainSettings)
def train(ctx):
    """Train learned / perturbed / symmetric-alpha models and snapshots of a role."""
    path = ctx.input("corpus")
    corpus = BowCorpus.load(path).validate(path)
    seed = ctx.seed(tag_offset("train", ctx.wildcards["role"]))
    arrays = train_models(corpus, ctx.settings.train, seed)
    out = ctx.output("models")
    tmp = out.with_name(out.name + ".tmp.npz")
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(tmp, **arrays)
    tmp.replace(out)


def _experiment(ctx, name, fn, settings):
    role = ctx.wildcards["role"]
    models = load_models(ctx.input("models"))
    df = fn(models, settings, ctx.seed(tag_offset(name, role)), ctx.threads)
    out = ctx.output("csv")
    write_csv(df, out)
    write_json(ctx.meta(models=models["info"], role=role), out.with_suffix(".meta.json"))


@STUDY.run("perturbed", settings=PerturbedSettings)
def perturbed(ctx):
    """Learned vs perturbed topics, six estimators (Tables 5.1/5.2, Figs 5.4/5.5)."""
    _experiment(ctx, "perturbed", perturbed_runs, ctx.settings.perturbed)


@STUDY.run("symasym", settings=SymasymSettings)
def symasym(ctx):
    """Asymmetric vs symmetric alpha (Table 5.3)."""
    _experiment(ctx, "symasym", symasym_runs, ctx.settings.symasym)


@STUDY.run("iteration", settings=IterationSettings)
def iteration(ctx):
    """Iteration-AIS vs baselines per training snapshot (Figs 5.7-5.10)."""
    _experiment(ctx, "iteration", iteration_runs, ctx.settings.iteration)


@STUDY.run("ntemps", settings=NTempsSettings)
def ntemps(ctx):
    """Fig 5.6: estimate vs number of temperatures on one long document."""
    _experiment(ctx, "ntemps", ntemps_runs, ctx.settings.ntemps)
