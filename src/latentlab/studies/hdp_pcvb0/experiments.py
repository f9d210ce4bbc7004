"""Experiment drivers of the ``hdp_pcvb0`` study (seed 001, Sec 6). One function per rule.

Each driver reads a prepared dataset (``prepare``), runs one configuration over the T grid
and the repeated runs (seeds ``base_seed + r``), and writes a JSON of raw results; the
figure and claim steps (:mod:`.figures`, :mod:`.claims`) only aggregate those JSONs.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError
from latentlab.outputs import write_json

log = logging.getLogger("latentlab.hdp_pcvb0")


# ------------------------------------------------------------------- params
def dataset_spec(params: dict, name: str) -> dict:
    ds = params.get("datasets", {})
    if name not in ds:
        raise ConfigError("hdp_pcvb0.datasets", f"no dataset named {name!r} (have {sorted(ds)})")
    return ds[name]


def model_options(params: dict, task: str | None = None) -> dict:
    """Global ``options`` overlaid with the task's own ``options`` (e.g. ``links.options``)."""
    opt = dict(params.get("options", {}) or {})
    if task is not None:
        opt.update(params.get(task, {}).get("options", {}) or {})
    return opt


def _seed(params: dict, offset: int) -> int:
    return int(params.get("base_seed", 0)) + int(offset)


# ------------------------------------------------------------------ prepare
def prepare(params: dict, name: str, inp: str | None, out: str) -> dict:
    """Write dataset ``name`` in canonical form: a synthetic draw, or a (subsampled) copy of
    the data layer's canonical dataset ``inp``."""
    spec = dataset_spec(params, name)
    seed = _seed(params, spec.get("seed", 0))
    src = spec.get("source", "synthetic")
    if src == "synthetic":
        from latentlab.models.hdp import synthetic

        gen = spec.get("generator", "hdp")
        kw = {
            k: v
            for k, v in spec.items()
            if k not in ("source", "generator", "seed", "data_kind", "paper", "kind")
        }
        if gen == "hdp":
            corpus, truth = synthetic.hdp_corpus(seed=seed, **kw)
        elif gen == "labelled":
            corpus, truth = synthetic.labelled_hdp_corpus(seed=seed, **kw)
        elif gen == "graph":
            from latentlab.data.graph import StaticGraph

            e = synthetic.mixed_membership_graph(seed=seed, **kw)
            g = StaticGraph(kw.get("n_nodes", 1500), e, metadata={"source": f"synthetic {name}"})
            g.validate(out).save(out)
            return g.summary()
        else:
            raise ConfigError(f"hdp_pcvb0.datasets.{name}.generator", f"unknown {gen!r}")
        corpus.metadata["truth"] = {
            "pi": np.asarray(truth["pi"]).tolist(),
            "n_topics_pi_gt_1e-3": int(np.sum(np.asarray(truth["pi"]) > 1e-3)),
        }
    else:
        if inp is None:
            raise ConfigError(f"hdp_pcvb0.datasets.{name}", "real dataset needs an input file")
        if spec.get("kind") == "graph":
            from latentlab.data.graph import StaticGraph

            g = StaticGraph.load(inp)
            g.save(out)
            return g.summary()
        corpus = BowCorpus.load(inp)
        corpus, _ = corpus.drop_empty()
        n = spec.get("n_docs")
        if n and n < corpus.n_docs:  # "randomly chose N = 10,000" (Sec 6.2)
            rng = np.random.default_rng(seed)
            corpus = corpus.subset(np.sort(rng.choice(corpus.n_docs, int(n), replace=False)))
        top = spec.get("vocab_top")
        if top and top < corpus.n_vocab:  # keep the `top` most frequent words (20news: V = 13,178)
            freq = np.bincount(corpus.word_ids, weights=corpus.counts, minlength=corpus.n_vocab)
            keep = np.sort(np.argsort(-freq, kind="stable")[: int(top)])
            remap = np.full(corpus.n_vocab, -1, dtype=np.int64)
            remap[keep] = np.arange(len(keep))
            d = corpus.doc_ids_per_entry()
            ok = remap[corpus.word_ids] >= 0
            corpus = BowCorpus.from_triplets(
                d[ok], remap[corpus.word_ids[ok]], corpus.counts[ok], corpus.n_docs,
                [corpus.vocab[i] for i in keep], labels=corpus.labels,
                label_names=corpus.label_names, metadata=corpus.metadata,
            )  # fmt: skip
            corpus, _ = corpus.drop_empty()
        corpus.metadata["subsample"] = {"n_docs": n, "vocab_top": top, "seed": seed}
    corpus.validate(out)
    corpus.save(out)
    return corpus.summary()


def _load_corpus(path: str) -> BowCorpus:
    c = BowCorpus.load(path)
    c.validate(path)
    return c


# --------------------------------------------------------------- perplexity
def _split(params: dict, corpus: BowCorpus, path: str):
    from latentlab.models.hdp.data import split_within_documents

    p = params.get("perplexity", {})
    return split_within_documents(
        corpus,
        frac=float(p.get("train_frac", 0.8)),
        seed=_seed(params, p.get("split_seed", 1)),
        short_docs=p.get("short_docs", "drop"),
        oov_rule=p.get("oov_rule", "drop"),
        source=path,
    )


def _config(config: str) -> tuple[str, str]:
    from latentlab.models.hdp import CONFIGS

    if config not in CONFIGS:
        raise ConfigError("hdp_pcvb0.configs", f"{config!r} not in {CONFIGS}")
    m, p = config.split("_")
    return m, p


def _model_summary(m) -> dict:
    out = {
        "alpha0": float(m.alpha0),
        "beta0": float(m.beta0),
        "gamma0": float(m.gamma0),
        "effective_topics": m.effective_topics(1.0),
        "effective_topics_0p1pct": m.effective_topics(1e-3 * m.data.n_tokens),
        "max_alpha_pi_E": float(np.max(m.alpha0 * m.Epi)),
        "state_bytes": m.state_bytes(),
        "fp_failures": len(m.diagnostics["fp_failures"]),
        "fp_failure_messages": m.diagnostics["fp_failures"][:5],
        "fp_inner_iters_max": max((x[2] for x in m.diagnostics["fp_inner_iters"]), default=0),
    }
    return out


def run_perplexity(params: dict, dataset: str, config: str, inp: str, out: str) -> None:
    """Fig 2/3 raw results: every T, every run; per-iteration trace at ``trace_T``."""
    from latentlab.models.hdp import HDPLDA

    method, prior = _config(config)
    p = params.get("perplexity", {})
    corpus = _load_corpus(inp)
    split = _split(params, corpus, inp)
    Ts = [int(t) for t in p.get("T", [100, 200, 300])]
    trace_T = int(p.get("trace_T", max(Ts)))
    if trace_T not in Ts:
        Ts.append(trace_T)
    n_iter = int(p.get("iterations", 100))
    runs = int(p.get("runs", 5))
    res = []
    log.info(
        "%s %s: %s, T=%s, %d runs x %d iterations", dataset, config, split.info, Ts, runs, n_iter
    )
    for T in Ts:
        for r in range(runs):
            seed = _seed(params, r)
            m = HDPLDA(T, method, prior, options=model_options(params, "perplexity"), seed=seed)
            trace, ent, secs = [], [], []

            def cb(mod, info, T=T, r=r, trace=trace, ent=ent, secs=secs):
                secs.append(info["seconds"])
                if np.isfinite(info["entropy"]):
                    ent.append(info["entropy"])
                if T == trace_T or info["iteration"] == n_iter:
                    trace.append(mod.perplexity(split.test))
                if info["iteration"] % 10 == 0:
                    log.info(
                        "%s %s T=%d run %d it %d: entropy %.4f, %.3fs/it%s",
                        dataset,
                        config,
                        T,
                        r,
                        info["iteration"],
                        info["entropy"],
                        info["seconds"],
                        f", ppl {trace[-1]:.2f}" if trace else "",
                    )

            t0 = time.perf_counter()
            m.fit(split.train, n_iter, callback=cb)
            row = {
                "T": T,
                "run": r,
                "seed": seed,
                "final_perplexity": trace[-1],
                "trace": trace if T == trace_T else [],
                "entropy": ent,
                "sec_per_iter": float(np.median(secs)),
                "wall_seconds": time.perf_counter() - t0,
                **_model_summary(m),
            }
            if T == trace_T:
                if m.proposed:
                    ea = m.alpha0 * m.Epi
                else:
                    ea = m.E_alpha0 * m.Epi  # Fig 2 reports E[α0π_k] (§3.8)
                row["alpha_pi_E"] = ea.tolist()
            res.append(row)
    write_json(
        {
            "dataset": dataset,
            "config": config,
            "method": method,
            "prior": prior,
            "split": split.info,
            "iterations": n_iter,
            "trace_T": trace_T,
            "options": HDPLDA(
                2, method, prior, options=model_options(params, "perplexity")
            ).settings(),
            "truth": corpus.metadata.get("truth", {}).get("n_topics_pi_gt_1e-3"),
            "runs": res,
        },
        out,
    )


# ---------------------------------------------------------------------- kNN
def run_knn(params: dict, dataset: str, config: str, inp: str, out: str) -> None:
    """Fig 4 raw results: 90/10 document split, fold-in, Hellinger k-NN (Sec 6.4)."""
    from latentlab.models.hdp import HDPLDA
    from latentlab.models.hdp.data import TokenCorpus
    from latentlab.studies.hdp_pcvb0.evaluate import doc_split, hellinger_sq, knn_predict

    method, prior = _config(config)
    p = params.get("knn", {})
    corpus = _load_corpus(inp)
    if corpus.labels is None:
        raise DataError(inp, "k-NN classification needs document labels")
    corpus, _ = corpus.drop_empty()
    lab = corpus.labels
    tr, te = doc_split(
        corpus.n_docs, float(p.get("test_frac", 0.1)), _seed(params, p.get("split_seed", 2))
    )
    train = TokenCorpus.from_bow(corpus.subset(tr))
    test = TokenCorpus.from_bow(corpus.subset(te))
    ks = [int(k) for k in p.get("k", [7, 1])]
    res = []
    for T in [int(t) for t in p.get("T", [100, 200, 300])]:
        for r in range(int(p.get("runs", 5))):
            seed = _seed(params, r)
            m = HDPLDA(T, method, prior, options=model_options(params, "knn"), seed=seed)
            m.fit(train, int(p.get("iterations", 100)))
            th_te = m.fold_in(test, int(p.get("fold_in_iters", 50)), seed=seed + 7919)
            dist = hellinger_sq(th_te, m.theta())
            acc = {str(k): float(np.mean(knn_predict(dist, lab[tr], k) == lab[te])) for k in ks}
            log.info("%s %s T=%d run %d: accuracy %s", dataset, config, T, r, acc)
            res.append({"T": T, "run": r, "seed": seed, "accuracy": acc, **_model_summary(m)})
    write_json(
        {"dataset": dataset, "config": config, "n_train": len(tr), "n_test": len(te), "runs": res},
        out,
    )


# -------------------------------------------------------------------- links
def run_links(params: dict, dataset: str, config: str, inp: str, out: str) -> None:
    """Fig 5 raw results: bags of links, MAP over query nodes (Sec 6.5)."""
    from latentlab.data.graph import StaticGraph
    from latentlab.models.hdp import HDPLDA
    from latentlab.models.hdp.data import TokenCorpus
    from latentlab.studies.hdp_pcvb0.evaluate import link_task, mean_average_precision

    method, prior = _config(config)
    p = params.get("links", {})
    g = StaticGraph.load(inp)
    task = link_task(
        g.edges,
        g.n_nodes,
        int(p.get("min_links", 20)),
        float(p.get("test_frac", 0.2)),
        _seed(params, p.get("split_seed", 3)),
        inp,
    )
    train = TokenCorpus.from_bow(task.corpus)
    res = []
    for T in [int(t) for t in p.get("T", [100, 200, 300])]:
        for r in range(int(p.get("runs", 5))):
            seed = _seed(params, r)
            m = HDPLDA(T, method, prior, options=model_options(params, "links"), seed=seed)
            m.fit(train, int(p.get("iterations", 100)))
            mp = mean_average_precision(m.theta()[task.queries], m.phi(), task)
            log.info("%s %s T=%d run %d: MAP %.4f", dataset, config, T, r, mp)
            res.append({"T": T, "run": r, "seed": seed, "map": mp, **_model_summary(m)})
    write_json(
        {
            "dataset": dataset,
            "config": config,
            "task": task.info,
            "options": model_options(params, "links"),
            "runs": res,
        },
        out,
    )


# ------------------------------------------------------- init sensitivity (C2)
def run_init_sensitivity(params: dict, dataset: str, inp: str, out: str) -> None:
    """Claim C2: PCVB0 from initial α0, β0, γ0 scaled by each factor (×0.1, ×1, ×10)."""
    from latentlab.models.hdp import HDPLDA

    p = params.get("init_sensitivity", {})
    corpus = _load_corpus(inp)
    split = _split(params, corpus, inp)
    base = model_options(params, "perplexity")
    T = int(p.get("T", 100))
    res = []
    for config in p.get("configs", ["pcvb0_AS", "pcvb0_AA"]):
        method, prior = _config(config)
        for f in [float(x) for x in p.get("factors", [0.1, 1.0, 10.0])]:
            opt = dict(base)
            opt["alpha0_init"] = base.get("alpha0_init", 0.1) * f
            opt["gamma0_init"] = base.get("gamma0_init", 1.0) * f
            opt["beta_init_value"] = base.get("beta_init_value", 0.1) * f
            m = HDPLDA(T, method, prior, options=opt, seed=_seed(params, 0))
            m.fit(split.train, int(p.get("iterations", 100)))
            ppl = m.perplexity(split.test)
            log.info(
                "%s factor %g: perplexity %.3f, α0 %.4g β0 %.4g γ0 %.4g",
                config,
                f,
                ppl,
                m.alpha0,
                m.beta0,
                m.gamma0,
            )
            res.append({"config": config, "factor": f, "perplexity": ppl, **_model_summary(m)})
    write_json({"dataset": dataset, "T": T, "runs": res}, out)


# ------------------------------------------------------------ Gibbs (C14)
def run_gibbs(params: dict, dataset: str, inp: str, out: str) -> None:
    """Collapsed Gibbs cross-check (Eqs 13–16) and claim C14 on the same split."""
    from latentlab.models.hdp.gibbs import GibbsHDP

    p = params.get("gibbs", {})
    corpus = _load_corpus(inp)
    split = _split(params, corpus, inp)
    T = int(p.get("T", 100))
    n_iter = int(p.get("iterations", 200))
    held = []

    def cb(g, info):
        held.append(bool(g.table_bound_holds()))
        if info["iteration"] % 20 == 0:
            log.info("gibbs it %d: α0 %.4g γ0 %.4g", info["iteration"], g.alpha0, g.gamma0)

    t0 = time.perf_counter()
    g = GibbsHDP(T, seed=_seed(params, 0)).fit(split.train, n_iter, callback=cb)
    write_json(
        {
            "dataset": dataset,
            "T": T,
            "iterations": n_iter,
            "perplexity": g.perplexity(split.test),
            "alpha0": g.alpha0,
            "gamma0": g.gamma0,
            "table_bound_all_iterations": all(held),
            "tables_total": int(g.m.sum()),
            "doc_topic_pairs": int((g.ndk >= 1).sum()),
            "seconds": time.perf_counter() - t0,
        },
        out,
    )


def write_done(path: str | Path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("done\n")
