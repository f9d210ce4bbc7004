"""Computation steps of ``hdp_pcvb0`` (seed 001, Sec 6): raw results on disk.

``prepare`` writes a dataset; ``perplexity``/``knn``/``links`` run one configuration
(wildcards ``dataset``, ``config``) over the T grid and the repeated runs (seeds
``ctx.seed(0, r)``); ``init`` and ``gibbs`` feed claims C2 and C14. Figures and claims
only read these JSONs.
"""

from __future__ import annotations

import dataclasses
import logging
import time

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError
from latentlab.outputs import write_json
from latentlab.studies.hdp_pcvb0.study import (
    STUDY,
    GibbsSettings,
    InitSettings,
    KnnSettings,
    LinksSettings,
    PerplexitySettings,
    PrepareSettings,
    model_options,
)

log = logging.getLogger("latentlab.hdp_pcvb0")


# ------------------------------------------------------------------ prepare
@STUDY.run("prepare", settings=PrepareSettings)
def prepare(ctx) -> dict:
    """Write dataset ``{dataset}``: a synthetic draw, or a (subsampled) copy of the data
    layer's canonical dataset (input ``source``)."""
    from latentlab.data import synthetic
    from latentlab.data.corpus import keep_top_words

    name = ctx.wildcards["dataset"]
    if name not in ctx.settings.datasets:
        raise ConfigError("hdp_pcvb0.datasets", f"no dataset named {name!r}")
    spec = ctx.settings.datasets[name]
    out = ctx.output("data")
    seed = ctx.seed(spec.seed)
    if spec.source == "synthetic":
        kw = spec.generator_kwargs()
        if spec.generator == "graph":
            from latentlab.data.graph import StaticGraph

            e = synthetic.mixed_membership_graph(seed=seed, **kw)
            g = StaticGraph(spec.n_nodes, e, metadata={"source": f"synthetic {name}"})
            g.validate(out).save(out)
            return g.summary()
        gen = synthetic.hdp_tsb_corpus if spec.generator == "hdp" else synthetic.labelled_hdp_corpus
        corpus, truth = gen(seed=seed, **kw)
        corpus.metadata["truth"] = {
            "pi": np.asarray(truth["pi"]).tolist(),
            "n_topics_pi_gt_1e-3": int(np.sum(np.asarray(truth["pi"]) > 1e-3)),
        }
    else:
        inp = ctx.input("source")
        if spec.kind == "graph":
            from latentlab.data.graph import StaticGraph

            g = StaticGraph.load(inp)
            g.save(out)
            return g.summary()
        corpus = BowCorpus.load(inp)
        corpus, _ = corpus.drop_empty()
        n = spec.n_docs
        if n and n < corpus.n_docs:  # "randomly chose N = 10,000" (Sec 6.2)
            rng = np.random.default_rng(seed)
            corpus = corpus.subset(np.sort(rng.choice(corpus.n_docs, int(n), replace=False)))
        top = spec.vocab_top
        if top and top < corpus.n_vocab:  # 20news: V = 13,178
            corpus, _ = keep_top_words(corpus, int(top)).drop_empty()
        corpus.metadata["subsample"] = {"n_docs": n, "vocab_top": top, "seed": seed}
    corpus.validate(out)
    corpus.save(out)
    return corpus.summary()


# ------------------------------------------------------------------ helpers
def load_corpus(path) -> BowCorpus:
    c = BowCorpus.load(path)
    c.validate(path)
    return c


def split(ctx, corpus: BowCorpus, path):
    """The 80/20 within-document split of Sec 6.3 (settings ``perplexity``)."""
    from latentlab.data.splits import split_within_documents

    p = ctx.settings.perplexity
    return split_within_documents(
        corpus,
        frac=p.train_frac,
        seed=ctx.seed(p.split_seed),
        short_docs=p.short_docs,
        oov_rule=p.oov_rule,
        source=str(path),
    )


def method_prior(config: str) -> tuple[str, str]:
    from latentlab.models.hdp import CONFIGS

    if config not in CONFIGS:
        raise ConfigError("hdp_pcvb0.configs", f"{config!r} not in {CONFIGS}")
    m, p = config.split("_")
    return m, p


def new_model(T, config: str, options=None, seed=0, task: str = "perplexity"):
    """:class:`HDPLDA` for ``config``; its errors (which name the model's parameters,
    ``HDPLDA.T``, ``HDPOptions.<key>``) are mapped to this study's config keys."""
    from latentlab.models.hdp import HDPLDA

    method, prior = method_prior(config)
    try:
        return HDPLDA(T, method, prior, options=options, seed=seed)
    except ConfigError as e:
        key = e.key.replace("HDPLDA.", f"hdp_pcvb0.{task}.")
        key = key.replace("HDPOptions", "hdp_pcvb0.options")
        raise ConfigError(key, str(e).split(": ", 1)[-1]) from e


def _model_summary(m) -> dict:
    return {
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


def _beta_summary(m) -> dict:
    """E[β_v] = E[β0]E[τ_v] (CVB) or β0τ_v (PCVB0) over the words seen in training: the
    quantity the Fig 2 caption says is "also small" (the premise β_v < 1 of Eq 20)."""
    eb = m.beta_v if m.proposed else m.E_beta0 * m.E_tau
    eb = np.asarray(eb)[np.asarray(m.nkv).sum(1) > 0]
    return {
        "n_words": int(eb.size),
        "max": float(eb.max()),
        "q50": float(np.quantile(eb, 0.5)),
        "q99": float(np.quantile(eb, 0.99)),
        "frac_below_1": float(np.mean(eb < 1.0)),
    }


def _opts(ctx, task: str):
    s = ctx.settings
    return model_options(s.options, getattr(s, task).options, f"hdp_pcvb0.{task}.options")


# --------------------------------------------------------------- perplexity
def _each_config(ctx, fit_one) -> None:
    """Run ``fit_one(ctx, dataset, config) -> dict`` and write its JSON: for the wildcard
    ``config`` (output ``json``), or, when the rule batches a dataset's configurations
    (``batch_configs``), for every configuration the rule names as an output, in order."""
    dataset = ctx.wildcards["dataset"]
    if "config" in ctx.wildcards:
        write_json(fit_one(ctx, dataset, ctx.wildcards["config"]), ctx.output("json"))
        return
    unknown = [c for c in ctx.outputs if c not in ctx.settings.configs]
    if unknown or not ctx.outputs:
        raise ConfigError(
            f"hdp_pcvb0 {ctx.step}",
            f"a batched fit names its outputs by configuration ({ctx.settings.configs}); "
            f"got {sorted(ctx.outputs)}",
        )
    for config in ctx.outputs:
        write_json(fit_one(ctx, dataset, config), ctx.output(config))


@STUDY.run("perplexity", settings=PerplexitySettings)
def run_perplexity(ctx) -> None:
    """Fig 2/3 raw results: every T, every run; per-iteration trace at ``trace_T``."""
    _each_config(ctx, _perplexity)


def _perplexity(ctx, dataset: str, config: str) -> dict:
    method, prior = method_prior(config)
    p = ctx.settings.perplexity
    inp = ctx.input("data")
    corpus = load_corpus(inp)
    sp = split(ctx, corpus, inp)
    grid, trace_T = p.grid(dataset, config)
    n_iter = p.iterations
    opts = _opts(ctx, "perplexity")
    res = []
    log.info("%s %s: %s, (T, runs) %s, %d iterations", dataset, config, sp.info, grid, n_iter)
    for T, runs in grid:
        for r in range(runs):
            seed = ctx.seed(0, r)
            m = new_model(T, config, options=opts, seed=seed)
            trace, ent, secs = [], [], []

            def cb(mod, info, T=T, r=r, trace=trace, ent=ent, secs=secs):
                secs.append(info["seconds"])
                if np.isfinite(info["entropy"]):
                    ent.append(info["entropy"])
                if T == trace_T or info["iteration"] == n_iter:
                    trace.append(mod.perplexity(sp.test))
                if info["iteration"] % 10 == 0:
                    log.info(
                        "%s %s T=%d run %d it %d: entropy %.4f, %.3fs/it%s",
                        dataset, config, T, r, info["iteration"], info["entropy"],
                        info["seconds"], f", ppl {trace[-1]:.2f}" if trace else "",
                    )  # fmt: skip

            t0 = time.perf_counter()
            m.fit(sp.train, n_iter, callback=cb)
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
            if T == trace_T:  # Fig 2 reports E[α0π_k] (its caption)
                ea = m.alpha0 * m.Epi if m.proposed else m.E_alpha0 * m.Epi
                row["alpha_pi_E"] = ea.tolist()
                row["beta_v_E"] = _beta_summary(m)
            res.append(row)
    return {
        "dataset": dataset,
        "config": config,
        "method": method,
        "prior": prior,
        "split": sp.info,
        "iterations": n_iter,
        "trace_T": trace_T,
        "grid": grid,
        "options": new_model(2, config, options=opts).settings(),
        "truth": corpus.metadata.get("truth", {}).get("n_topics_pi_gt_1e-3"),
        "runs": res,
    }


# ---------------------------------------------------------------------- kNN
@STUDY.run("knn", settings=KnnSettings)
def run_knn(ctx) -> None:
    """Fig 4 raw results: 90/10 document split, fold-in, Hellinger k-NN (Sec 6.4)."""
    _each_config(ctx, _knn)


def _knn(ctx, dataset: str, config: str) -> dict:
    from latentlab.data.splits import heldout_docs
    from latentlab.evaluation.metrics import knn_accuracy

    p = ctx.settings.knn
    inp = ctx.input("data")
    corpus = load_corpus(inp)
    if corpus.labels is None:
        raise DataError(inp, "k-NN classification needs document labels")
    train, test, _, _ = heldout_docs(corpus, p.test_frac, ctx.seed(p.split_seed))
    opts = _opts(ctx, "knn")
    res = []
    for T in p.T:
        for r in range(p.runs):
            seed = ctx.seed(0, r)
            m = new_model(T, config, options=opts, seed=seed, task="knn")
            m.fit(train, p.iterations)
            th_te = m.fold_in(test, p.fold_in_iters, seed=ctx.seed(p.fold_in_seed, r))
            acc = knn_accuracy(th_te, m.theta(), train.labels, test.labels, p.k)
            log.info("%s %s T=%d run %d: accuracy %s", dataset, config, T, r, acc)
            res.append({"T": T, "run": r, "seed": seed, "accuracy": acc, **_model_summary(m)})
    return {"dataset": dataset, "config": config, "n_train": train.n_docs,
            "n_test": test.n_docs, "runs": res}  # fmt: skip


# -------------------------------------------------------------------- links
@STUDY.run("links", settings=LinksSettings)
def run_links(ctx) -> None:
    """Fig 5 raw results: bags of links, MAP over query nodes (Sec 6.5)."""
    _each_config(ctx, _links)


def _links(ctx, dataset: str, config: str) -> dict:
    from latentlab.data.graph import StaticGraph
    from latentlab.data.splits import link_task
    from latentlab.evaluation.metrics import mean_average_precision

    p = ctx.settings.links
    inp = ctx.input("data")
    g = StaticGraph.load(inp)
    task = link_task(g.edges, g.n_nodes, p.min_links, p.test_frac, ctx.seed(p.split_seed), str(inp))
    opts = _opts(ctx, "links")
    res = []
    for T in p.T:
        for r in range(p.runs):
            seed = ctx.seed(0, r)
            m = new_model(T, config, options=opts, seed=seed, task="links")
            m.fit(task.corpus, p.iterations)
            mp = mean_average_precision(m.theta()[task.queries], m.phi_vk(), task)
            log.info("%s %s T=%d run %d: MAP %.4f", dataset, config, T, r, mp)
            res.append({"T": T, "run": r, "seed": seed, "map": mp, **_model_summary(m)})
    return {
        "dataset": dataset,
        "config": config,
        "task": task.info,
        "options": dataclasses.asdict(opts),
        "runs": res,
    }


# ------------------------------------------------------- init sensitivity (C2)
@STUDY.run("init", settings=InitSettings)
def run_init_sensitivity(ctx) -> None:
    """Claim C2: PCVB0 from initial α0, β0, γ0 scaled by each factor (×0.1, ×1, ×10)."""
    p = ctx.settings.init_sensitivity
    inp = ctx.input("data")
    sp = split(ctx, load_corpus(inp), inp)
    base = _opts(ctx, "perplexity")
    res = []
    for config in p.configs:
        for f in p.factors:
            opt = dataclasses.replace(
                base,
                alpha0_init=base.alpha0_init * f,
                gamma0_init=base.gamma0_init * f,
                beta_init_value=base.beta_init_value * f,
            )
            m = new_model(p.T, config, options=opt, seed=ctx.seed(0), task="init_sensitivity")
            m.fit(sp.train, p.iterations)
            ppl = m.perplexity(sp.test)
            log.info("%s factor %g: perplexity %.3f, α0 %.4g β0 %.4g γ0 %.4g",
                     config, f, ppl, m.alpha0, m.beta0, m.gamma0)  # fmt: skip
            res.append({"config": config, "factor": f, "perplexity": ppl, **_model_summary(m)})
    write_json({"dataset": p.dataset, "T": p.T, "runs": res}, ctx.output("json"))


# ------------------------------------------------------------ Gibbs (C14)
@STUDY.run("gibbs", settings=GibbsSettings)
def run_gibbs(ctx) -> None:
    """Collapsed Gibbs cross-check (Eqs 13–16) and claim C14 on the same split."""
    from latentlab.models.hdp.gibbs import GibbsHDP

    p = ctx.settings.gibbs
    inp = ctx.input("data")
    sp = split(ctx, load_corpus(inp), inp)
    held = []

    def cb(g, info):
        held.append(bool(g.table_bound_holds()))
        if info["iteration"] % 20 == 0:
            log.info("gibbs it %d: α0 %.4g γ0 %.4g", info["iteration"], g.alpha0, g.gamma0)

    t0 = time.perf_counter()
    try:
        g = GibbsHDP(p.T, seed=ctx.seed(0))
    except ConfigError as e:
        raise ConfigError("hdp_pcvb0.gibbs.T", str(e).split(": ", 1)[-1]) from e
    g.fit(sp.train, p.iterations, callback=cb)
    write_json(
        {
            "dataset": p.dataset,
            "T": p.T,
            "iterations": p.iterations,
            "perplexity": g.perplexity(sp.test),
            "alpha0": g.alpha0,
            "gamma0": g.gamma0,
            "table_bound_all_iterations": all(held),
            "tables_total": int(g.m.sum()),
            "doc_topic_pairs": int((g.ndk >= 1).sum()),
            "seconds": time.perf_counter() - t0,
        },
        ctx.output("json"),
    )
