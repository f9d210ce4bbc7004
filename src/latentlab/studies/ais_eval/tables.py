"""Tables 5.1-5.3 of Foulds (2014) ch. 5 from the raw per-document results.

Conventions (recorded in every output's metadata):

* perplexity ratio of a document: perp(1)/perp(2) = exp(-(L1 - L2)/N_d) (Eqs. 5.46-5.47);
  < 1 means model 1 (learned / asymmetric alpha) is preferred;
* "empirical variance" over the runs of a document: unbiased sample variance, which for
  two runs a, b is (a - b)^2 / 2 (our choice; the document does not say), averaged over
  documents;
* corpus-level ratio (the document does not define it; ours):
  exp(-sum_d mean_r(L1 - L2) / sum_d N_d);
* ratio-AIS "forward" anneals model 2 -> model 1, "reverse" model 1 -> 2; in the scatter
  plots (Figs 5.4/5.5) run 1 vs run 2 of LR and standard AIS, forward vs reverse of
  ratio-AIS (the pairing of the document's figures).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.studies.shape import TableOutput

from .results import METHOD_LABELS, METHODS
from .study import STUDY, CorporaSettings

CONVENTIONS = {
    "perplexity_ratio": "exp(-(L1-L2)/N_d), Eq. 5.47; < 1 favours model 1",
    "variance": "unbiased variance over runs per document ((a-b)^2/2 for two runs), averaged",
    "corpus_ratio": "exp(-sum_d mean_r (L1-L2) / sum_d N_d) (not defined in the document; ours)",
    "directions": "forward = model 2 -> model 1; reverse = model 1 -> 2",
}


def _label(role, dataset, regime):
    return f"{role.upper()} stand-in {dataset} ({regime})"


def doc_variance(df: pd.DataFrame) -> pd.Series:
    """Mean over documents of the per-document variance of the perplexity ratio."""
    v = df.groupby(["method", "doc"])["perp_ratio"].var(ddof=1)
    return v.groupby("method").mean()


def corpus_ratio(df: pd.DataFrame) -> pd.Series:
    out = {}
    for m, g in df.groupby("method"):
        per_doc = g.groupby("doc").agg(lr=("logratio", "mean"), N=("N", "first"))
        out[m] = float(np.exp(-per_doc["lr"].sum() / per_doc["N"].sum()))
    return pd.Series(out)


def mean_updates(df: pd.DataFrame) -> pd.Series:
    """Token-level Gibbs updates per document and run (both models for LR / Std AIS)."""
    return df.groupby("method")["updates"].mean()


def pct_prefer(df: pd.DataFrame) -> pd.Series:
    """% of documents with perp ratio < 1 (model 1 preferred), averaged over runs."""
    return (
        df.groupby(["method", "run"])["perp_ratio"]
        .apply(lambda x: 100 * (x < 1).mean())
        .groupby("method")
        .mean()
    )


def _order(s: pd.Series) -> list:
    return [float(s.get(m, np.nan)) for m in METHODS]


def _raws(ctx) -> dict:
    """(role, dataset) -> raw frame, one input per role (in role order)."""
    corpora = ctx.settings.corpora
    return {(r, corpora[r].dataset): pd.read_csv(ctx.input(r)) for r in sorted(corpora)}


@STUDY.table("table5_1", settings=CorporaSettings)
def table5_1(ctx):
    """Table 5.1: % of documents preferring the learned topics, per estimator."""
    raws = _raws(ctx)
    rows = []
    for (role, dataset), df in raws.items():
        for regime in ("cheap", "expensive"):
            g = df[df.regime == regime]
            rows.append(
                [_label(role, dataset, regime), int(g.n_temps.iloc[0]), *_order(pct_prefer(g))]
            )
    t = pd.DataFrame(rows, columns=["corpus", "n_temps", *[METHOD_LABELS[m] for m in METHODS]])
    return TableOutput(t, CONVENTIONS, floatfmt=".1f")


@STUDY.table("table5_2", settings=CorporaSettings)
def table5_2(ctx):
    """Table 5.2: variance, corpus-level ratio and work of each estimator."""
    raws = _raws(ctx)
    rows = []
    for stat, fn in (
        ("variance of per-document perplexity ratio", doc_variance),
        ("corpus-level perplexity ratio", corpus_ratio),
        ("token-level Gibbs updates per document and run", mean_updates),
    ):
        for (role, dataset), df in raws.items():
            for regime in ("cheap", "expensive"):
                g = df[df.regime == regime]
                rows.append([stat, _label(role, dataset, regime), *_order(fn(g))])
    t = pd.DataFrame(rows, columns=["statistic", "corpus", *[METHOD_LABELS[m] for m in METHODS]])
    return TableOutput(t, CONVENTIONS, floatfmt=".3g")


@STUDY.table("table5_3", settings=CorporaSettings)
def table5_3(ctx):
    """Table 5.3: asymmetric vs symmetric alpha, with a long LR run as the reference."""
    raws = _raws(ctx)
    rows = []
    for (role, dataset), df in raws.items():
        ref = df[df.regime == "lr_long"].set_index("doc")["perp_ratio"]
        for regime in ("cheap", "expensive"):
            g = df[df.regime == regime]
            rows.append(
                [
                    "variance of per-document perplexity ratio",
                    _label(role, dataset, regime),
                    *_order(doc_variance(g)),
                ]
            )
            rows.append(
                [
                    "corpus-level perplexity ratio (asym/sym)",
                    _label(role, dataset, regime),
                    *_order(corpus_ratio(g)),
                ]
            )
            corr = {}
            for m, gm in g[g.run == 0].groupby("method"):
                x = gm.set_index("doc")["perp_ratio"].reindex(ref.index)
                corr[m] = (
                    float(np.corrcoef(x, ref)[0, 1])
                    if len(ref) > 2 and x.std() > 0
                    else float("nan")
                )
            rows.append(
                [
                    "correlation with a long LR run",
                    _label(role, dataset, regime),
                    *_order(pd.Series(corr)),
                ]
            )
            rows.append(
                [
                    "token-level Gibbs updates per document and run",
                    _label(role, dataset, regime),
                    *_order(mean_updates(g)),
                ]
            )
    t = pd.DataFrame(rows, columns=["statistic", "corpus", *[METHOD_LABELS[m] for m in METHODS]])
    return TableOutput(t, CONVENTIONS, floatfmt=".4g", allow_nan=True)
