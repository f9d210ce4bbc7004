"""The evidence files of ais_eval's causes and of REVERSALS.md case 4, built by the workflow
(issue 37: ``results/{run}/ais_eval/evidence/<name>.csv`` + ``.meta.json``, rebuilt and
compared like any figure by ``latentlab rebuild``; ``snakemake ais_eval_evidence``):

* :func:`doc_length` — does document length move the Table 5.1-5.3 statistics? (the
  causes of the table rows; from the raw perturbed / symasym results, nothing re-run);
* :func:`iteration_jensen` — iteration-AIS with several chains per document on the study's
  own snapshots, from each first snapshot its models hold (the reading first_snapshot), on
  the iteration step's documents and on the longest ones, beside left-to-right at n and
  10n (REVERSALS.md case 4: the S = 1 log estimate's Jensen gap; issue 37 lead 3);
* :func:`first_snapshot_synthetic` — the same two paths on a synthetic corpus with long
  documents (issue 37 lead 3's check: K = 20, 600-token documents, n = 1000).
"""

from __future__ import annotations

import logging
import time

import numpy as np
import pandas as pd

from latentlab.outputs import write_csv, write_json
from latentlab.studies.shape import derive_seed

from .results import load_models
from .study import (
    STUDY,
    CorporaSettings,
    JensenSettings,
    SyntheticPathSettings,
    Train,
    tag_offset,
)

log = logging.getLogger("latentlab.ais_eval")

RATIO = ["geo", "geo_rev", "convex", "convex_rev"]


def _write(ctx, df: pd.DataFrame, what: str, **meta) -> None:
    out = ctx.output("csv")
    write_csv(df, out)
    write_json(ctx.meta(what=what, **meta), out.with_suffix(".meta.json"))


# ------------------------------------------------------------------ document length
def _length_stats(g: pd.DataFrame) -> dict:
    pct = (
        g.groupby(["method", "run"])["perp_ratio"]
        .apply(lambda x: 100 * (x < 1).mean())
        .groupby("method")
        .mean()
    )
    var = g.groupby(["method", "doc"])["perp_ratio"].var(ddof=1).groupby("method").mean()
    n = g.groupby("doc")["N"].first()
    return {
        "n_docs": len(n),
        "N_min": int(n.min()),
        "N_median": float(n.median()),
        "N_max": int(n.max()),
        **{f"pct_{m}": float(pct[m]) for m in ["lr", "std_ais", *RATIO]},
        **{f"var_{m}": float(var[m]) for m in ["lr", "std_ais", *RATIO]},
        "var_std_over_lr": float(var["std_ais"] / var["lr"]),
        "var_baselines_over_ratio": float(min(var["lr"], var["std_ais"]) / var[RATIO].max()),
    }


def _length_spearman(g: pd.DataFrame) -> dict:
    from scipy import stats

    v = g.groupby(["doc", "method"])["perp_ratio"].var(ddof=1).unstack()
    n = g.groupby("doc")["N"].first()
    a = np.log(v["std_ais"] / v["lr"])
    b = np.log(np.minimum(v["lr"], v["std_ais"]) / v[RATIO].max(axis=1))
    ok = np.isfinite(a) & np.isfinite(b)
    return {
        "spearman_N_std_over_lr": float(stats.spearmanr(n[ok], a[ok]).statistic),
        "spearman_N_baselines_over_ratio": float(stats.spearmanr(n[ok], b[ok]).statistic),
    }


def doc_length_table(raws: dict[tuple[str, str], pd.DataFrame]) -> pd.DataFrame:
    """Per corpus, experiment (perturbed: Tables 5.1/5.2; symasym: Table 5.3), regime and
    part of the test set (all documents; the shorter / longer half by N_d, split at the
    median): the N_d range, % of documents preferring model 1 and the mean per-document
    variance of the perplexity ratio per estimator, Std AIS / LR variance (C5.14),
    min(LR, Std AIS) / max ratio-AIS variance (T5.2v-exp, C5.7b, T5.3v-exp); over all
    documents the Spearman correlation of N_d with the per-document log variance ratios.
    ``raws``: (dataset, experiment) -> that experiment's raw frame."""
    rows = []
    for (dataset, exp), df in raws.items():
        med = df.groupby("doc")["N"].first().median()
        for regime in ("cheap", "expensive"):
            g = df[df.regime == regime]
            parts = {"all": g, "shorter half": g[g.N <= med], "longer half": g[g.N > med]}
            for part, gp in parts.items():
                r = {"dataset": dataset, "experiment": exp, "regime": regime, "part": part,
                     "n_temps": int(g.n_temps.iloc[0]), **_length_stats(gp)}  # fmt: skip
                if part == "all":
                    r.update(_length_spearman(gp))
                rows.append(r)
    return pd.DataFrame(rows)


@STUDY.run("evidence_doc_length", settings=CorporaSettings)
def doc_length(ctx):
    """Evidence: Tables 5.1-5.3's statistics on the shorter and the longer half of the test
    documents (the causes of the table rows)."""
    corpora = ctx.settings.corpora
    raws = {}
    for role in sorted(corpora):
        for exp in ("perturbed", "symasym"):
            raws[(corpora[role].dataset, exp)] = ctx.csv(f"{exp}_{role}")
    df = doc_length_table(dict(sorted(raws.items())))
    _write(
        ctx,
        df,
        "Tables 5.1-5.3's statistics per corpus, experiment, regime and part of "
        "the test set (all; shorter / longer half by N_d); Spearman of N_d with the "
        "per-document variance ratios (evidence.doc_length_table)",
    )


# ------------------------------------------------------------------ iteration-AIS chains
def _paths(models: dict) -> dict[str, np.ndarray]:
    """The snapshot indices of each path a models file holds: ``from_first`` (from its first
    snapshot, train.first_snapshot) and ``from_grid`` (from the first snapshot of the
    snapshot_every grid, the reading iteration10) when they differ."""
    iters = np.asarray(models["snap_iter"])
    grid = np.asarray(models.get("snap_grid", np.ones(len(iters), bool)), bool)
    out = {f"from_{int(iters[0])}": np.arange(len(iters))}
    on = np.flatnonzero(grid)
    if len(on) and on[0] != 0:
        out[f"from_{int(iters[on[0]])}"] = on
    return out


def _docs_of(models: dict, which: str, n_docs: int) -> tuple[list[np.ndarray], np.ndarray]:
    """The test documents (re-indexed to the test vocabulary) of a set, and their indices:
    the first ``n_docs`` (the iteration step's) or the ``n_docs`` longest (ties: the first)."""
    vocab = models["test_vocab"]
    remap = {int(w): i for i, w in enumerate(vocab)}
    lens = np.array([len(d) for d in models["docs"]])
    if which == "first":
        idx = np.arange(min(n_docs, len(lens)))
    else:
        idx = np.sort(np.argsort(-lens, kind="stable")[:n_docs])
    return [np.array([remap[int(w)] for w in models["docs"][i]]) for i in idx], idx


def jensen_table(models: dict, n: int, factor: int, extra: int, chains: int, n_docs: int,
                 doc_sets, seed: int, threads: int) -> pd.DataFrame:  # fmt: skip
    """Per document set, path and snapshot, means over the documents (nats per document):
    ``mean_log_w`` (the expectation of the S = 1 estimate the study plots), ``log_mean_w``
    (logmeanexp over the chains, Eq. 5.34 with S = chains), ``var_log_w`` (over chains),
    ``gap`` = log_mean_w - mean_log_w, ``lognormal_corrected`` = mean_log_w + var_log_w / 2
    (log P if log w is normal), ``lr_n`` / ``lr_10n`` (left-to-right at the budgets of n
    and factor x n temperatures, one run; the models file's first snapshot with the extra
    temperatures too), and ``deficit_n`` / ``deficit_10n`` = mean_log_w - lr_n / lr_10n."""
    from scipy.special import logsumexp

    from latentlab.evaluation import ais

    from .runs import _restricted_model

    phis = models["snap_phi"]
    rest = np.maximum(1.0 - phis.sum(axis=1, keepdims=True), 0.0)
    phis_full = np.concatenate([phis, rest], axis=1)
    alphas, iters = models["snap_alpha"], np.asarray(models["snap_iter"])
    rows = []
    for s, which in enumerate(doc_sets):
        docs, idx = _docs_of(models, which, n_docs)
        lens = [len(d) for d in docs]
        lr = {}
        for b, nb in enumerate((n, factor * n)):
            per = np.empty((len(iters), len(docs)))
            for i in range(len(iters)):
                m = _restricted_model(phis[i], alphas[i], f"snapshot {iters[i]}")
                per[i] = ais.left_to_right(m, docs, n_temps=nb + (extra if i == 0 else 0),
                                           seed=seed, stream=10_000 * (s + 1) + 100 * i + b,
                                           threads=threads).log_lik  # fmt: skip
            lr[b] = per.mean(axis=1)
        for p, (path, sel) in enumerate(_paths(models).items()):
            t = time.perf_counter()
            e = ais.iteration_ais(phis_full[sel], alphas[sel], docs, n, extra, chains, seed,
                                  1000 * (s + 1) + p, threads)  # fmt: skip
            lw = e.log_weights  # (D, S, I)
            log.info("jensen %s %s: %.1fs", which, path, time.perf_counter() - t)
            for j, i in enumerate(sel):
                x = lw[:, :, j]
                mean, var = float(x.mean(axis=1).mean()), float(x.var(axis=1, ddof=1).mean())
                lme = float((logsumexp(x, axis=1) - np.log(chains)).mean())
                rows.append({"docs": which, "doc_ids": " ".join(map(str, idx)),
                             "tokens": int(sum(lens)), "path": path, "iteration": int(iters[i]),
                             "n_temps": n, "extra": extra, "S": chains, "n_docs": len(docs),
                             "mean_log_w": mean, "log_mean_w": lme, "var_log_w": var,
                             "gap": lme - mean, "lognormal_corrected": mean + var / 2,
                             "lr_n": float(lr[0][i]), "lr_10n": float(lr[1][i])})  # fmt: skip
    df = pd.DataFrame(rows)
    df["deficit_n"] = df.mean_log_w - df.lr_n
    df["deficit_10n"] = df.mean_log_w - df.lr_10n
    return df


@STUDY.run("evidence_iteration_jensen", settings=JensenSettings)
def iteration_jensen(ctx):
    """Evidence: iteration-AIS with several chains per document along each first snapshot's
    path, on the iteration step's documents and the longest, beside left-to-right."""
    it, ev = ctx.settings.iteration, ctx.settings.evidence.jensen
    parts = []
    for role in sorted(ctx.settings.corpora):
        models = load_models(ctx.input(f"models_{role}"))
        seed = ctx.seed(tag_offset("evidence_iteration_jensen", role))
        df = jensen_table(models, it.n_temps, it.factor, it.extra, ev.chains, ev.n_docs,
                          ev.doc_sets, seed, ctx.threads)  # fmt: skip
        parts.append(df.assign(role=role, dataset=ctx.settings.corpora[role].dataset))
    df = pd.concat(parts, ignore_index=True)
    cols = ["role", "dataset"] + [c for c in df.columns if c not in ("role", "dataset")]
    _write(ctx, df[cols], jensen_table.__doc__)


# ------------------------------------------------------------------ synthetic check
def synthetic_paths(cfg, seed: int, threads: int) -> pd.DataFrame:
    """Issue 37 lead 3's check on known data: a synthetic LDA corpus with long documents,
    CGS with the snapshots at iteration 1 and every ``snapshot_every``, and on its held-out
    documents iteration-AIS along the path from iteration 1 (``from_1``) and from the first
    grid snapshot (``from_<every>``), ``runs`` chains each, against left-to-right with
    ``lr_particles`` particles at every snapshot. Per path, snapshot and document: the mean
    and variance of the chains' log-weights, the LR estimate and the deficit mean - LR."""
    from latentlab.data.synthetic import lda_corpus_decaying_alpha
    from latentlab.evaluation import ais

    from .runs import _restricted_model, train_models

    q = cfg.corpus
    corpus, _ = lda_corpus_decaying_alpha(
        q.n_docs, q.n_vocab, q.n_topics, q.doc_length, q.min_length, q.alpha_sum,
        q.alpha_decay, q.beta, derive_seed(seed, r=0),
    )  # fmt: skip
    tp = Train(K=cfg.K, n_iter=cfg.n_iter, alpha_sum=q.alpha_sum, beta=q.beta,
               optimize_interval=0, optimize_burn_in=0, snapshot_every=cfg.snapshot_every,
               test_frac=cfg.test_frac, perturb_frac=0.0, perturb_mode="topic",
               first_snapshot=1, max_test_docs=cfg.n_test)  # fmt: skip
    models = train_models(corpus, tp, derive_seed(seed, r=1))
    ptr, words = models["test_ptr"], models["test_words"]
    models["docs"] = [words[a:b] for a, b in zip(ptr[:-1], ptr[1:], strict=True)]
    docs, _ = _docs_of(models, "first", cfg.n_test)
    phis = models["snap_phi"]
    phis_full = np.concatenate([phis, np.maximum(1.0 - phis.sum(axis=1, keepdims=True), 0)], 1)
    alphas, iters = models["snap_alpha"], np.asarray(models["snap_iter"])
    lr = np.stack([
        ais.left_to_right(_restricted_model(phis[i], alphas[i], f"it {iters[i]}"), docs,
                          R=cfg.lr_particles, seed=seed, stream=500 + i,
                          threads=threads).log_lik
        for i in range(len(iters))
    ])  # fmt: skip
    rows = []
    for p, (path, sel) in enumerate(_paths(models).items()):
        e = ais.iteration_ais(phis_full[sel], alphas[sel], docs, cfg.n_temps, cfg.extra,
                              cfg.runs, seed, 10 + p, threads)  # fmt: skip
        for j, i in enumerate(sel):
            x = e.log_weights[:, :, j]
            for d in range(len(docs)):
                rows.append({"path": path, "iteration": int(iters[i]), "doc": d,
                             "N": len(docs[d]), "runs": cfg.runs,
                             "mean_log_w": float(x[d].mean()),
                             "var_log_w": float(x[d].var(ddof=1)),
                             "lr": float(lr[i, d])})  # fmt: skip
    df = pd.DataFrame(rows)
    df["deficit"] = df.mean_log_w - df.lr
    return df


@STUDY.run("evidence_first_snapshot_synthetic", settings=SyntheticPathSettings)
def first_snapshot_synthetic(ctx):
    """Evidence: iteration-AIS from the iteration-1 and from the first grid snapshot on a
    synthetic corpus of long documents, against left-to-right."""
    cfg = ctx.settings.evidence.synthetic
    df = synthetic_paths(cfg, ctx.seed(tag_offset("evidence_first_snapshot_synthetic")),
                         ctx.threads)  # fmt: skip
    _write(ctx, df, synthetic_paths.__doc__)
