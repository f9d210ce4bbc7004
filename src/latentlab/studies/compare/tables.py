"""The comparison table and the top words per topic."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.data.corpus import BowCorpus
from latentlab.studies.shape import TableOutput

from .runs import load_fits
from .study import STUDY, ReportSettings

COLUMNS = [
    "label", "K", "train_seconds", "iterations", "heldout_ll", "perplexity", "lr_ll",
    "lr_perplexity", "lr_docs", "lr_seconds", "peak_rss_mb", "topics_used",
]  # fmt: skip


def _meta(ctx, fits) -> dict:
    info = ctx.json("info")
    return {
        "dataset": info["dataset"],
        "content_sha256": info["content_sha256"],
        "split": {k: v for k, v in info.items() if k.startswith("n_") or k == "seed"},
        "fit_settings": {f"{f['method']}_K{f['K']}": f["settings"] for f in fits},
    }


@STUDY.table("table", settings=ReportSettings)
def table(ctx) -> TableOutput:
    """One row per (method, K): training time, held-out log-likelihood per token and
    perplexity (document completion), left-to-right estimate (LDA family), peak memory,
    topics with at least one expected training token (for HDP: the topics used)."""
    fits = load_fits(ctx.input_list("fits"))
    df = pd.DataFrame([{c: f[c] for c in ["method", *COLUMNS]} for f in fits])
    order = {m: i for i, m in enumerate(ctx.settings.methods)}
    df = df.sort_values(["K", "method"], key=lambda s: s.map(order) if s.name == "method" else s)
    df = df.drop(columns="method").rename(columns={"label": "method"})
    meta = _meta(ctx, fits)
    meta["columns"] = {
        "train_seconds": "wall-clock training time, held-out checkpoints excluded (s)",
        "heldout_ll": "document completion, log-likelihood per scored token (nats)",
        "perplexity": "exp(-heldout_ll)",
        "lr_ll": "left-to-right estimate of whole held-out documents, per token (nats)",
        "peak_rss_mb": "peak resident memory of the fit process (load + fit + evaluation)",
        "topics_used": "topics with >= 1 expected training token",
    }
    return TableOutput(df.reset_index(drop=True), meta, allow_nan=True)


@STUDY.table("topwords", settings=ReportSettings)
def topwords(ctx) -> TableOutput:
    """Top words of each topic, topics ordered by their share of the training tokens
    (HDP: only the topics used, >= 1 expected token)."""
    fits = load_fits(ctx.input_list("fits"))
    vocab = np.asarray(BowCorpus.load(ctx.input("train")).vocab)
    n = ctx.settings.n_top_words
    rows = []
    for f, path in zip(fits, ctx.input_list("npz"), strict=True):
        with np.load(path) as z:
            phi, w = z["phi_wk"], z["weight"]
        share = w / w.sum()
        for rank, k in enumerate(np.argsort(-w, kind="stable")):
            if f["method"] == "hdp" and w[k] < 1.0:
                continue
            top = vocab[np.argsort(-phi[:, k], kind="stable")[:n]]
            rows.append({"method": f["label"], "K": f["K"], "rank": rank + 1, "topic": int(k),
                         "share": float(share[k]), "top_words": " ".join(top)})  # fmt: skip
    return TableOutput(pd.DataFrame(rows), _meta(ctx, fits), floatfmt=".3f")
