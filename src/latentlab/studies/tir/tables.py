"""Tables of the tir study: Table 3.1 (held-out prediction vs LDA), Cora analogues of
Tables 3.2/3.3 (most influential documents) and 3.4/3.5 (TIRE edges), and the sign-test
arithmetic of Fig 3.3."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from latentlab.evaluation.metrics import sign_test_p
from latentlab.settings import Invalid, setting
from latentlab.studies.shape import TableOutput

from .study import STUDY, TableSettings, first_run

PAPER_3_1 = {  # (ACL wins, losses, avg impr), (NIPS ...)
    "TIR": (297, 33, 65.7, 150, 20, 38.2),
    "TIRE": (276, 54, 63.0, 148, 22, 38.7),
    "DMR": (302, 28, 79.1, 157, 13, 48.4),
}


@STUDY.table("table3_1")
def table3_1(ctx):
    """Wins, losses, mean improvement (nats per document) of each model's held-out log
    probability over LDA's (Sec 3.5.2), one row per model and run (``rep``: run r of every
    model shares its seeds)."""
    lda = pd.read_csv(_model_path(ctx, "lda"))
    rows = []
    for m in ("tir", "tire", "dmr"):
        s = pd.read_csv(_model_path(ctx, m))
        if "rep" not in s:
            s, lda = s.assign(rep=0), lda.assign(rep=0)
        if sorted(s.rep.unique()) != sorted(lda.rep.unique()):
            raise ValueError(f"table3_1: {m} and lda have different runs")
        p = PAPER_3_1[m.upper()]
        for r, sr in s.groupby("rep", sort=True):
            lr = lda[lda.rep == r]
            if not np.array_equal(sr.doc.to_numpy(), lr.doc.to_numpy()):
                raise ValueError(f"table3_1: {m} and lda scored different test documents")
            diff = sr.logp.to_numpy() - lr.logp.to_numpy()
            rows.append(
                {
                    "model": m.upper(),
                    "rep": int(r),
                    "wins": int((diff > 0).sum()),
                    "losses": int((diff < 0).sum()),
                    "ties": int((diff == 0).sum()),
                    "n_test": len(diff),
                    "win_fraction": float((diff > 0).mean()),
                    "mean_improvement_nats": float(diff.mean()),
                    "median_improvement_nats": float(np.median(diff)),
                    "paper_acl": f"{p[0]}/{p[0] + p[1]}, +{p[2]}",
                    "paper_nips": f"{p[3]}/{p[3] + p[4]}, +{p[5]}",
                }
            )
    return TableOutput(pd.DataFrame(rows), {"corpus": ctx.wildcards.get("corpus", "")})


def _model_path(ctx, model):
    for p in ctx.input_list("scores"):
        if p.stem == model:
            return p
    raise ValueError(f"table3_1: no scores for {model}")


@STUDY.table("table3_2", settings=TableSettings)
def table3_2(ctx):
    """Top documents by citation count, by l and by total influence T (Eq 3.2), TIR (the
    exploratory fit's run 0)."""
    d = first_run(ctx.csv("docs"))
    top = ctx.settings.tables.top
    out = []
    for key, label in (("citations", "citation count"), ("l", "topical influence l"),
                       ("T", "total topical influence T")):  # fmt: skip
        sub = d.sort_values([key, "doc"], ascending=[False, True]).head(top)
        for rank, r in enumerate(sub.itertuples(), 1):
            out.append(
                {"ranking": label, "rank": rank, "doc": r.doc, "citations": r.citations,
                 "l": r.l, "T": r.T, "title": str(r.title)[:90]}
            )  # fmt: skip
    return TableOutput(pd.DataFrame(out), floatfmt=".3g")


@STUDY.table("table3_4", settings=TableSettings)
def table3_4(ctx):
    """TIRE: for the most cited documents, the most/least influential reference and the
    most/least influenced citer, with the edge weights l^(c,d) (the exploratory fit's run
    0)."""
    e = first_run(ctx.csv("edges"))
    d = first_run(ctx.csv("docs"))
    title = d.set_index("doc").title.astype(str).str[:70]
    picks = d.sort_values(["citations", "doc"], ascending=[False, True]).head(
        ctx.settings.tables.edge_docs
    )
    rows = []
    for a in picks.doc:
        for what in ("reference", "citer"):
            ext = extreme_edges(e, int(a), what)
            if ext is None:
                continue
            for which, (other, w) in zip(("most", "least"), ext, strict=True):
                rows.append(
                    {"document": title[a], "role": f"{which} influential {what}"
                     if what == "reference" else f"{which} influenced {what}",
                     "other": title[other], "l_edge": w}
                )  # fmt: skip
    return TableOutput(pd.DataFrame(rows), floatfmt=".3g")


def extreme_edges(e: pd.DataFrame, doc: int, what: str):
    """Table 3.4's pick for one document: its most and least influential reference
    (``what="reference"``: edges it cites) or most and least influenced citer (``"citer"``),
    as ((partner, l_edge) of the largest weight, (partner, l_edge) of the smallest); ties
    go to the smaller partner id first. None when it has no such edge."""
    col = "cited" if what == "reference" else "citing"
    own = "citing" if what == "reference" else "cited"
    sub = e[e[own] == doc].sort_values(["l_edge", col], ascending=[False, True])
    if len(sub) == 0:
        return None
    hi, lo = sub.iloc[0], sub.iloc[-1]
    return (int(hi[col]), float(hi.l_edge)), (int(lo[col]), float(lo.l_edge))


@dataclass(frozen=True)
class SignTestCounts:
    """Fig 3.3's counts as the document prints them (no config key: constants)."""

    untied: int = setting(45, ge=0)  # untied pairs of Fig 3.3's sign test (the document: 45)
    # of them, the pairs whose most influential reference is cited more (the document: 33)
    more_cited: int = setting(33, ge=0)

    def __post_init__(self):
        if self.more_cited > self.untied:
            raise Invalid("more_cited", f"{self.more_cited} > untied {self.untied}")


@STUDY.table("fig3_3_signtest", settings=SignTestCounts)
def fig3_3_signtest(ctx):
    """Fig 3.3's sign test as printed (33 of 45 untied pairs) and the exact binomial p."""
    n, k = ctx.settings.untied, ctx.settings.more_cited
    two = sign_test_p(k, n - k, "two-sided")
    one = sign_test_p(k, n - k, "greater")
    df = pd.DataFrame(
        [
            {"quantity": "untied pairs", "value": float(n)},
            {"quantity": "most influential reference cited more", "value": float(k)},
            {"quantity": "document's p-value", "value": 5e-4},
            {"quantity": "exact binomial p, two-sided", "value": float(two)},
            {"quantity": "exact binomial p, one-sided", "value": float(one)},
        ]
    )
    return TableOutput(df, {"data_kind": "identity"}, floatfmt=".4g")
