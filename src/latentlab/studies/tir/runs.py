"""Computation steps of the tir study: corpora, fits with held-out AIS scoring, the
exploratory fits behind Tables 3.2-3.5 and Fig 3.4, and l recovery."""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError, DataError
from latentlab.models.tir import synthetic
from latentlab.models.tir.graph import CitationGraph, build_citation_graph
from latentlab.models.tir.model import InfluenceModel

from .study import (
    STUDY,
    EvidenceSettings,
    ExploreSettings,
    FitSettings,
    PrepareSettings,
    RecoverySettings,
    SynthSettings,
)


def _write_json(path, obj):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=1, sort_keys=True, default=float))


@STUDY.run("synth", settings=SynthSettings)
def synth(ctx):
    """A synthetic TIR/TIRE corpus with its true influence (wildcard ``corpus``)."""
    name = ctx.wildcards.get("corpus")
    if name not in ctx.settings.synthetic:
        raise ConfigError(f"tir.synthetic.{name}", "no such synthetic corpus")
    c = ctx.settings.synthetic[name]
    corpus, truth = synthetic.generate(
        c.n_docs, c.n_vocab, c.K, c.doc_length, c.max_cites, c.rate, c.alpha, c.beta,
        seed=ctx.seed(c.seed_offset), kind=c.kind, sigma=c.sigma, self_frac=c.self_frac,
        self_boost=c.self_boost,
    )  # fmt: skip
    corpus.metadata["name"] = name
    corpus.save(ctx.output("corpus"))
    np.savez(ctx.output("truth"), **truth)


@STUDY.run("prepare", settings=PrepareSettings)
def prepare(ctx):
    """Clean the citation graph (rules of models.tir.graph), then the Table 3.1 split:
    test_frac of the citing documents, heldout_frac of each one's tokens held out."""
    s = ctx.settings
    corpus = BowCorpus.load(ctx.input("corpus"))
    if corpus.links is None:
        raise DataError(ctx.input("corpus"), "the corpus has no citation links")
    links = corpus.links
    if s.graph.cites_direction == "col_cites_row":
        links = links[:, ::-1]
    lengths = corpus.doc_lengths()
    g = build_citation_graph(
        links, corpus.n_docs, lengths, ctx.seed(s.graph.seed_offset), s.graph.on_cycle,
        source=ctx.input("corpus"),
    )  # fmt: skip
    full = BowCorpus(
        corpus.indptr, corpus.word_ids, corpus.counts, corpus.vocab, titles=corpus.titles,
        links=g.edges(), metadata={**corpus.metadata, "tir_graph": g.summary},
    )  # fmt: skip
    full.save(ctx.output("full"))
    rng = np.random.default_rng(ctx.seed(s.split.seed_offset))
    cand = np.flatnonzero((g.out_degree() > 0) & (lengths >= 2))
    n_test = max(1, int(round(s.split.test_frac * len(cand))))
    test = np.sort(rng.choice(cand, size=n_test, replace=False))
    ptr, w = corpus.to_tokens()
    keep_tok = np.ones(len(w), bool)
    held_ptr, held_w = [0], []
    for d in test:
        idx = np.arange(ptr[d], ptr[d + 1])
        n_out = int(math.floor(s.split.heldout_frac * len(idx)))
        n_out = min(max(n_out, 1), len(idx) - 1)
        out = np.sort(rng.choice(idx, size=n_out, replace=False))
        keep_tok[out] = False
        held_w.append(w[out])
        held_ptr.append(held_ptr[-1] + n_out)
    doc_of = np.repeat(np.arange(corpus.n_docs), np.diff(ptr))
    import scipy.sparse as sps

    cnt = sps.coo_matrix(
        (np.ones(int(keep_tok.sum()), np.int64), (doc_of[keep_tok], w[keep_tok])),
        shape=(corpus.n_docs, corpus.n_vocab),
    ).tocsr()
    cnt.sum_duplicates()
    cnt.sort_indices()
    indptr, cols, vals = cnt.indptr, cnt.indices, cnt.data
    train = BowCorpus(
        indptr, cols, vals, corpus.vocab, titles=corpus.titles, links=g.edges(),
        metadata={**corpus.metadata, "tir_split": "training halves"},
    )  # fmt: skip
    train.save(ctx.output("train"))
    np.savez(
        ctx.output("split"), test=test, held_ptr=np.array(held_ptr), held_w=np.concatenate(held_w)
    )
    summary = {
        "corpus": str(ctx.input("corpus")),
        "n_docs": corpus.n_docs,
        "n_tokens": int(lengths.sum()),
        "n_citing_docs": int((g.out_degree() > 0).sum()),
        "n_cited_docs": int((g.in_degree() > 0).sum()),
        "n_test_docs": int(n_test),
        "n_heldout_tokens": int(held_ptr[-1]),
        "cites_direction": s.graph.cites_direction,
        **{k: v for k, v in g.summary.items()},
    }
    _write_json(ctx.output("summary"), summary)


def load_graph(corpus: BowCorpus) -> CitationGraph:
    return CitationGraph.from_edges(corpus.n_docs, corpus.links)


def make_model(kind, f, seed, exact=False, average_from=0):
    """The model of ``kind`` with the fit settings ``f``: TIR's regression step on l as
    the reading regression_budget sets it (``optimizer``, ``lbfgs_iter``, ``grad_*``),
    TIRE's and DMR's by L-BFGS-B with ``lbfgs_iter_other`` iterations at most."""
    if kind == "tir":
        opt = dict(optimizer=f.optimizer, lbfgs_iter=f.lbfgs_iter, grad_iter=f.grad_iter,
                   grad_step=f.grad_step)  # fmt: skip
    else:
        opt = dict(optimizer="lbfgs", lbfgs_iter=f.lbfgs_iter_other)
    return InfluenceModel(
        kind, K=f.K, alpha=f.alpha, beta=f.beta, sigma=f.sigma, estimator=f.estimator,
        rate=f.rate, interval=f.interval, l_init=f.l_init, refresh=f.refresh, exact=exact,
        seed=seed, mh_step=f.mh_step, slice_width=f.slice_width, average_from=average_from,
        **opt,
    )  # fmt: skip


def regression_setting(f) -> str:
    """TIR's regression step as the recovery CSV and the notes name it (reading
    regression_budget)."""
    if f.optimizer == "gradient":
        return (f"{f.grad_iter} gradient-ascent step(s) of size {f.grad_step:g} every "
                f"{f.interval} sweeps")  # fmt: skip
    return f"L-BFGS-B (at most {f.lbfgs_iter} iterations) every {f.interval} sweeps"


def score_heldout(phi_wk, alphas, held_ptr, held_w, n_temps, S, seed, stream):
    """log p(held-out half | Phi, alpha^(d)) by standard AIS (ais_eval's kernel), one
    estimate per test document (log-mean-exp of its S importance weights)."""
    from latentlab.kernels.ais import batch_std_ais
    from latentlab.kernels.rng import doc_seeds

    D = len(held_ptr) - 1
    out = np.zeros((D, S))
    upd = np.zeros(D, np.int64)
    phi = np.maximum(phi_wk, 1e-300)
    batch_std_ais(
        held_ptr.astype(np.int64), held_w.astype(np.int64), phi, alphas, n_temps, S,
        doc_seeds(seed, D, stream), out, upd,
    )  # fmt: skip
    return logsumexp(out, axis=1) - math.log(S)


@STUDY.run("fit", settings=FitSettings)
def fit(ctx):
    """Table 3.1: one model (wildcard ``model``: lda, tir, tire, dmr) trained on the
    training halves, ``predict.reps`` runs; every ``sample_every``-th post-burn-in sample
    scores the held-out halves by AIS; the likelihoods are averaged over samples (Sec.
    3.5.2). Run r's fit and AIS seeds are the same for every model (paired runs)."""
    f, a, reps = ctx.settings.fit, ctx.settings.ais, ctx.settings.predict.reps
    kind = ctx.wildcards.get("model")
    train = BowCorpus.load(ctx.input("train"))
    sp = np.load(ctx.input("split"))
    test, held_ptr, held_w = sp["test"], sp["held_ptr"], sp["held_w"]
    g = load_graph(train)
    frames, runs = [], []
    for r in range(reps):
        df, info = _fit_one(ctx, kind, f, a, r, train, g, test, held_ptr, held_w)
        frames.append(df)
        runs.append(info)
    pd.concat(frames, ignore_index=True).to_csv(ctx.output("scores"), index=False)
    _write_json(
        ctx.output("info"),
        {
            "model": kind,
            "K": f.K,
            "tokens": int(train.n_tokens),
            "runs": runs,
            "settings": {"fit": f.__dict__, "ais": a.__dict__, "reps": reps},
        },
    )


def _fit_one(ctx, kind, f, a, r, train, g, test, held_ptr, held_w):
    """Run ``r`` of one Table 3.1 model: its scores (one row per test document) and its
    timings."""
    from latentlab.models.lda import CGS

    seed = ctx.seed(f.seed_offset, r)
    if kind == "lda":
        m = CGS(f.K, alpha=f.alpha, beta=f.beta, optimize_interval=0, seed=seed)
        m.initialize(train)
    else:
        m = make_model(kind, f, seed).initialize(train, g)
    scores, t_sweep, n_sweeps = [], 0.0, 0
    total = f.burn_in + f.n_iter
    for it in range(1, total + 1):
        t0 = time.perf_counter()
        m.step()
        t_sweep += time.perf_counter() - t0
        n_sweeps += 1
        if it > f.burn_in and (it - f.burn_in) % f.sample_every == 0:
            if kind == "lda":
                alphas = np.tile(m.alpha, (len(test), 1))
            else:
                alphas = np.stack([m.doc_prior(int(d)) for d in test])
            lp = score_heldout(
                m.phi_wk(), alphas, held_ptr, held_w, a.n_temps, a.S,
                ctx.seed(a.seed_offset, r), stream=len(scores),
            )  # fmt: skip
            scores.append(lp)
            ctx_log(kind, it, lp)
    S = np.array(scores)  # samples x docs (>= 1: sample_every <= n_iter, FitCfg at start-up)
    df = pd.DataFrame({"rep": r, "doc": test, "n_heldout": np.diff(held_ptr)})
    df["logp"] = logsumexp(S, axis=0) - math.log(len(S))
    for s in range(len(S)):
        df[f"logp_s{s}"] = S[s]
    reg = getattr(m, "regression_seconds", [])
    ntok = len(m.w)
    info = {
        "rep": r,
        "seed": seed,
        "sweeps": n_sweeps,
        "seconds_sampling": t_sweep,
        "tokens_per_second": ntok * n_sweeps / t_sweep,
        "regression_steps": len(reg),
        "regression_seconds_mean": float(np.mean(reg)) if reg else 0.0,
        "regression": dict(getattr(m, "reg_stats", {})),
        "n_samples_scored": len(S),
    }
    return df, info


def ctx_log(kind, it, lp):
    import logging

    logging.getLogger("latentlab.tir").info(
        "%s it %d: mean held-out log p %.3f", kind, it, lp.mean()
    )


@STUDY.run("explore", settings=ExploreSettings)
def explore(ctx):
    """Tables 3.2-3.5 and Fig 3.4: TIR or TIRE (wildcard ``model``) on the whole cleaned
    corpus, ``explore.burn_in`` iterations, ``explore.reps`` runs (column ``rep``); l, T
    (Eq 3.2) and edge weights of each run's final sample."""
    f, e = ctx.settings.fit, ctx.settings.explore
    kind = ctx.wildcards.get("model")
    if kind not in ("tir", "tire"):
        raise ConfigError("model", f"explore runs tir or tire, got {kind!r}")
    full = BowCorpus.load(ctx.input("full"))
    g = load_graph(full)
    titles = full.titles or [str(i) for i in range(full.n_docs)]
    docs, edges = [], []
    for r in range(e.reps):
        m = make_model(kind, f, ctx.seed(e.seed_offset, r)).fit(full, e.burn_in, graph=g)
        docs.append(
            pd.DataFrame(
                {
                    "rep": r,
                    "doc": np.arange(full.n_docs),
                    "title": titles,
                    "citations": g.in_degree(),
                    "l": m.l,
                    "T": m.total_influence(),
                }
            )
        )
        ew = m.l[g.cidx] if kind == "tir" else m.ew
        edges.append(pd.DataFrame({"rep": r, "citing": g.citing(), "cited": g.cidx, "l_edge": ew}))
    pd.concat(docs, ignore_index=True).to_csv(ctx.output("docs"), index=False)
    pd.concat(edges, ignore_index=True).to_csv(ctx.output("edges"), index=False)


@STUDY.run("recovery", settings=RecoverySettings)
def recovery(ctx):
    """l recovery on a synthetic TIR corpus (Sec 3.4): L1 error of stochastic-EM ML (and
    MAP, ML with the exact sampler, and the document's alternatives: l sampled by MH and by
    slice sampling, estimated by the posterior mean) against the true l, and against
    no-regression baselines (l = 0, i.e. LDA; l = the true mean for every document). Every
    variant runs the same number of Gibbs sweeps. Output ``docs``: every fit's estimate of
    each cited document's l, with its citers (the evidence by citers reads it)."""
    f, r = ctx.settings.fit, ctx.settings.recovery
    corpus = BowCorpus.load(ctx.input("full"))
    truth = np.load(ctx.input("truth"))
    g = load_graph(corpus)
    K = int(truth["phi"].shape[0])
    cited = np.unique(g.cidx)
    l_true = truth["l"][cited]
    rows, est_rows = [], []

    def l1(x):
        return float(np.mean(np.abs(x - l_true)))

    rows.append({"method": "no regression (l = 0)", "rep": 0, "l1": l1(np.zeros_like(l_true))})
    rows.append(
        {
            "method": "constant l = true mean",
            "rep": 0,
            "l1": l1(np.full_like(l_true, l_true.mean())),
        }
    )
    variants = [("ML (stochastic EM)", "ml", False), ("MAP (Exp prior)", "map", False)]
    if r.exact:
        variants.append(("ML, exact sampler (Eq 3.4)", "ml", True))
    if r.samplers:
        variants += [("MH on l (posterior mean)", "mh", False),
                     ("slice sampling on l (posterior mean)", "slice", False)]  # fmt: skip
    avg_from = int(r.average_frac * r.n_iter)
    for rep in range(r.reps):
        for name, est, exact in variants:
            fc = type(f)(**{**f.__dict__, "K": K, "estimator": est})
            t0 = time.perf_counter()
            m = make_model("tir", fc, ctx.seed(r.seed_offset, rep), exact, avg_from)
            m.fit(corpus, r.n_iter, graph=g)
            st, reg = m.mcmc_stats, m.reg_stats
            if est == "mh":
                setting = (f"random-walk sd {fc.mh_step:g}, acceptance "
                           f"{st['accepted'] / st['proposals']:.2f}, mean of sweeps "
                           f"{avg_from + 1}-{r.n_iter}")  # fmt: skip
            elif est == "slice":
                ev = st["evaluations"] / st["proposals"]
                setting = (f"width {fc.slice_width:g}, {ev:.1f} evaluations per update, "
                           f"{st['stuck']} unmoved, mean of sweeps "
                           f"{avg_from + 1}-{r.n_iter}")  # fmt: skip
            else:
                setting = regression_setting(fc)
                if est == "map":
                    setting = f"Exponential rate {fc.rate:g}, {setting}"
                setting += (f"; {reg['at_budget']} of {reg['steps']} steps stopped at the "
                            "budget")  # fmt: skip
            lhat = m.l_mean[cited]
            rows.append(
                {"method": name, "rep": rep, "l1": l1(lhat),
                 "seconds": time.perf_counter() - t0, "setting": setting,
                 "reg_steps": reg["steps"], "reg_iterations": reg["iterations"],
                 "reg_at_budget": reg["at_budget"]}
            )  # fmt: skip
            est_rows.append(pd.DataFrame({"method": name, "rep": rep, "doc": cited,
                                          "l_hat": lhat}))  # fmt: skip
    df = pd.DataFrame(rows)
    df["n_cited"] = len(cited)
    df.to_csv(ctx.output("csv"), index=False)
    est = pd.concat(est_rows, ignore_index=True) if est_rows else pd.DataFrame(
        columns=["method", "rep", "doc", "l_hat"])  # fmt: skip
    deg = g.in_degree()
    est["citers"] = deg[est.doc.to_numpy()]
    est["l_true"] = truth["l"][est.doc.to_numpy()]
    est.to_csv(ctx.output("docs"), index=False)


# the cited documents' classes by their number of citers (REVERSALS.md case 3)
CITER_CLASSES = (("1", 1, 1), ("2-3", 2, 3), (">= 4", 4, None))


def by_citers(name, rep, l_hat, l_true, citers):
    """Rows of the evidence by citers: L1 error and bias of ``l_hat`` over every cited
    document, then over those with 1, 2-3 and >= 4 citers."""
    out = []
    for label, lo, hi in (("all", 1, None), *CITER_CLASSES):
        m = (citers >= lo) & (citers <= (hi if hi is not None else np.inf))
        err = l_hat[m] - l_true[m]
        out.append({"estimator": name, "rep": rep, "citers": label, "n_docs": int(m.sum()),
                    "l1": float(np.mean(np.abs(err))) if m.any() else np.nan,
                    "bias": float(np.mean(err)) if m.any() else np.nan})  # fmt: skip
    return out


@STUDY.run("evidence_recovery_by_citers", settings=EvidenceSettings)
def evidence_recovery_by_citers(ctx):
    """Evidence of REVERSALS.md case 3: each recovery fit's L1 error and bias of l-hat
    overall and by the cited document's citers (1, 2-3, >= 4), beside the baselines and ML
    and MAP given the TRUE topic assignments (the regression step to convergence with the
    generator's z; MAP at the generator's rate), averaged over the recovery runs."""
    from latentlab.outputs import write_table

    s = ctx.settings
    name = s.corpora.get("recovery", "")
    if name not in s.synthetic:
        raise ConfigError("tir.corpora.recovery", f"{name!r} is not a synthetic corpus")
    est = pd.read_csv(ctx.input("docs"))
    corpus = BowCorpus.load(ctx.input("full"))
    truth = np.load(ctx.input("truth"))
    g = load_graph(corpus)
    cited = np.unique(g.cidx)
    l_true, citers = truth["l"][cited], g.in_degree()[cited]
    rows = by_citers("no regression (l = 0)", 0, np.zeros_like(l_true), l_true, citers)
    rows += by_citers("constant l = true mean", 0, np.full_like(l_true, l_true.mean()), l_true,
                      citers)  # fmt: skip
    K = int(truth["phi"].shape[0])
    rate = s.synthetic[name].rate
    ptr, _ = corpus.to_tokens()
    ndk = np.rint(truth["zbar"] * np.diff(ptr)[:, None]).astype(np.int64)
    for label, estimator in (("ML given the true z", "ml"),
                             (f"MAP given the true z (rate {rate:g})", "map")):  # fmt: skip
        m = InfluenceModel("tir", K, alpha=s.fit.alpha, beta=s.fit.beta, estimator=estimator,
                           rate=rate, lbfgs_iter=TRUE_Z_ITER).initialize(corpus, g)  # fmt: skip
        m.ndk[:] = ndk
        m.regress()
        if m.reg_stats["at_budget"]:
            raise DataError(ctx.input("truth"), f"{label}: L-BFGS-B did not converge")
        rows += by_citers(label, 0, m.l[cited], l_true, citers)
    for (method, rep), e in est.groupby(["method", "rep"], sort=False):
        e = e.set_index("doc").loc[cited]
        rows += by_citers(method, int(rep), e.l_hat.to_numpy(), l_true, citers)
    df = pd.DataFrame(rows)
    out = (df.groupby(["estimator", "citers"], sort=False)
           .agg(n_docs=("n_docs", "first"), runs=("rep", "nunique"), l1=("l1", "mean"),
                l1_sd=("l1", "std"), bias=("bias", "mean"))
           .reset_index())  # fmt: skip
    out["l1_sd"] = out["l1_sd"].fillna(0.0)
    meta = ctx.meta(corpus=name, n_cited=int(len(cited)), generator_rate=rate,
                    true_z_lbfgs_iter=TRUE_Z_ITER)  # fmt: skip
    # a class with no cited document (a small corpus) has no error: NaN
    write_table(out, ctx.output("csv"), ctx.output("md"), meta, allow_nan=True, floatfmt=".3f")


TRUE_Z_ITER = 10000  # L-BFGS-B's budget given the true z: the M-step to convergence
