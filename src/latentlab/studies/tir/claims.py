"""Claims C3.x of Foulds (2014) ch. 3 (our numbering of the chapter's checkable statements),
each judged from this run's outputs."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.stats import ttest_ind

from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, Sides
from latentlab.data.corpus import BowCorpus
from latentlab.evaluation.metrics import sign_test_p

from .study import STUDY, ClaimsSettings
from .tables import extreme_edges

PAPER_CFG = "config/paper.yaml (tir.corpora.predict: aan, the ACL Anthology Network)"
NIPS_RUN = (
    "nips_cite (Heinrich's NIPS 0-12 with citations) has a registry entry and fetch/prepare "
    "rules; a run takes one prediction corpus: set tir.corpora.predict/explore: nips_cite"
)
NO_SELF = (
    "needs each citation edge marked self or not from the papers' author lists: nips_cite's "
    "metadata keeps them (author_ids) and the AAN release has an author file, but the fig3_4 "
    "step marks only the planted synthetic self-citations (is_self from the generator); "
    "marking real edges by shared authors is not implemented, and both corpora are paper "
    "scale only (not in the data mirror)"
)


def _others(name, why=None):
    """not_run rows for the document's corpora that this run does not fit."""
    return [
        NotRun(why or r, dataset=ds, data_kind="real")
        for ds, r in (("aan", PAPER_CFG), ("nips_cite", NIPS_RUN))
        if ds != name
    ]


REAL_CFG = "config/real.yaml (Cora)"
# issue 22 case 3: the l-recovery reversal checked on data drawn from TIR with known l
RECOVERY_EVIDENCE = (
    "evidence: tests/models/tir/test_tir_l_recovery.py (exact sweep = enumerated posterior; "
    "regression = generic optimiser; every estimator's error falls with the citers per "
    "cited document) and published/real/REVERSALS.md (case 3)"
)
# "Most" is the claim; the document's fractions (0.84-0.92) are its size on ACL/NIPS, not a
# threshold for another corpus.
MOST_NOTE = (
    "our value: the one-sided sign-test p of our wins against our losses (ties dropped), "
    "i.e. a majority that is not chance (the paper value is the same p for the document's "
    "ACL counts; the rule must refuse p = 0.5, no majority); counts and win fraction here"
)


def _doc_p(wins: int, n: int) -> float:
    """The one-sided sign-test p of the document's ACL counts (no ties reported)."""
    return float(sign_test_p(wins, n - wins, "greater"))


DOC_P = {"TIR": _doc_p(297, 330), "TIRE": _doc_p(276, 330), "DMR": _doc_p(302, 330)}

CLAIMS = [
    Claim(
        "C3.1a",
        "Table 3.1",
        "TIR beats LDA in held-out log probability on most test documents (one-sided sign "
        "test of wins against losses, ties dropped: p <= claims.sign_alpha)",
        DOC_P["TIR"],
        how="le",
        tolerance="claims.sign_alpha",
        reject=0.5,
        note=MOST_NOTE,
        group="t31",
    ),
    Claim(
        "C3.1b",
        "Table 3.1",
        "TIRE beats LDA on most test documents (one-sided sign test, p <= claims.sign_alpha)",
        DOC_P["TIRE"],
        how="le",
        tolerance="claims.sign_alpha",
        reject=0.5,
        note=MOST_NOTE,
        group="t31",
    ),
    Claim(
        "C3.1c",
        "Table 3.1",
        "TIR and TIRE improve the mean held-out log probability over LDA (mean improvement "
        "in nats > 0, one row per model)",
        "+65.7 / +63.0 nats (ACL), +38.2 / +38.7 (NIPS)",
        how="order",
        note="margin 0: the document's nats are on ACL's longer abstracts and do not carry to "
        "another corpus; that the gain is not chance is C3.1a/b",
        group="t31",
    ),
    Claim(
        "C3.2a",
        "Table 3.1",
        "additive DMR beats LDA on most test documents (one-sided sign test, p <= "
        "claims.sign_alpha)",
        DOC_P["DMR"],
        how="le",
        tolerance="claims.sign_alpha",
        reject=0.5,
        note=MOST_NOTE,
        group="t31",
    ),
    Claim(
        "C3.2b",
        "Sec 3.5.2",
        "DMR is slightly better than TIR predictively (mean improvement over LDA, nats)",
        "79.1 vs 65.7 (ACL), 48.4 vs 38.2 (NIPS)",
        how="order",
        note="margin 0 ('slightly better')",
        group="t31",
    ),
    Claim(
        "C3.2c",
        "Sec 3.5.2",
        "TIR has a factor K fewer regression parameters than DMR",
        "K",
        how="true",
        data_kind="identity",
    ),
    Claim(
        "C3.3",
        "Sec 3.4",
        "stochastic-EM ML updates recover l (L1 error below the best simple alternative: "
        "no regression l = 0, or one constant l = the true mean for every document)",
        1.0,
        how="le",
        tolerance="claims.l1_ratio",
        note="our value: L1(ML) / min(L1(l = 0), L1(constant l = true mean)); " + RECOVERY_EVIDENCE,
    ),
    Claim(
        "C3.3c",
        "Sec 3.4",
        "stochastic-EM ML updates on l give lower L1 error from the true l than "
        "Metropolis-Hastings sampling of l",
        1.0,
        how="le",
        tolerance="claims.l1_ratio",
        note="our value: L1(ML) / L1(MH posterior mean of l), same Gibbs sweeps; "
        "the document gives no numbers, only that ML was lowest",
    ),
    Claim(
        "C3.3d",
        "Sec 3.4",
        "stochastic-EM ML updates on l give lower L1 error from the true l than slice "
        "sampling of l",
        1.0,
        how="le",
        tolerance="claims.l1_ratio",
        note="our value: L1(ML) / L1(slice-sampling posterior mean of l), same Gibbs sweeps; "
        "the document gives no numbers, only that ML was lowest",
    ),
    Claim(
        "C3.3b",
        "Sec 3.4",
        "ML updates give lower L1 error than the MAP alternative",
        1.0,
        how="le",
        tolerance="claims.l1_ratio",
        note="our value: L1(ML) / L1(MAP with Exponential(rate) prior)",
    ),
    Claim(
        "C3.4",
        "Sec 3.5.1",
        "sign test on 33 of 45 untied pairs: p ~ 5e-4",
        5e-4,
        how="rel",
        tolerance="claims.sign_p_rel",
        data_kind="identity",
        note="our value: exact two-sided binomial p (the printed p and counts disagree)",
    ),
    Claim(
        "C3.4b",
        "Sec 3.5.1",
        "the sign test rejects a zero median difference at 0.05",
        "p < 0.05",
        how="true",
        data_kind="identity",
    ),
    Claim(
        "C3.5",
        "Fig 3.4",
        "self-citation edges have higher mean edge influence (one-sided Welch t-test of "
        "self > other edges: p <= claims.sign_alpha)",
        "ACL 2.80 vs 1.40; NIPS 5.05 vs 3.15",
        how="le",
        tolerance="claims.sign_alpha",
        reject=0.5,
        data_kind="synthetic",
        note="our value: the one-sided Welch p; the document gives means, no test (paper "
        "value 0: its gaps are large); planted self-citation edges (Cora has no author lists)",
    ),
    Claim(
        "C3.6",
        "Sec 3.5",
        "the approximate sampler (no Polya product) does not hurt l recovery",
        1.0,
        how="le",
        tolerance="claims.approx_rel",
        note="our value: L1(approximate) / L1(exact); it is left unmeasured (NaN, so "
        "not_reproduced) while the exact-sampler comparator does not recover l (its L1 not "
        "below no regression, l = 0): the ratio would compare two failures; " + RECOVERY_EVIDENCE,
    ),
    Claim(
        "C3.7a",
        "Table 3.2",
        "top-l articles were typically cited only once (share of the top 5 by l with one "
        "in-corpus citer: a majority, at least 3 of 5)",
        0.6,
        how="ge",
        reject=0.4,
        note="'typically' read as a majority of the top 5",
    ),
    Claim(
        "C3.7b",
        "Tables 3.2-3.5",
        "the ACL/NIPS article rankings (BLEU l = 0.58 drops "
        "to 5th by T; Chiang first by T; NIPS GP regression first by T)",
        "rankings as printed",
        how="true",
    ),
    Claim(
        "C3.8",
        "Fig 3.3",
        "edge influence increases with the number of in-text "
        "citations (106 NIPS papers, counted by hand)",
        "171 vs 128 citations",
        not_testable="needs in-text citation counts made by hand from the full texts",
    ),
    Claim(
        "C3.10",
        "Table 3.4, Sec 3.5.3",
        "TIRE assigns higher influence along the edges to and from relevant documents: "
        "a document's most influential reference (most influenced citer) is closer to it in "
        "text than its least (cosine of the word counts, paired over documents with edges of "
        "different weight; one-sided t-test at claims.sign_alpha)",
        "higher influence to relevant documents (Table 3.4: Chiang's reference Och & Ney "
        "1.48, BLEU 0.00)",
        how="order",
        note="relevance read as textual similarity (Cora has no subject labels); the "
        "document shows three ACL examples, the row takes every document as Table 3.4 takes "
        "its three (most against least weight); margin 0: the document gives no similarity",
    ),
    Claim(
        "C3.10b",
        "Table 3.4, Sec 3.5.3",
        "the ACL examples of Table 3.4: BLEU has zero topical influence on Chiang's paper "
        "(its least influential reference, an evaluation technique); Yang & Zheng's paper, "
        "which improves on Chiang's, is its most influenced citer",
        "BLEU 0.00 (least); Yang & Zheng 2.54 (most)",
    ),
    Claim(
        "C3.9",
        "Sec 3.5",
        "the approximate sampler runs about as fast as LDA's collapsed Gibbs sampler, the "
        "regression step included ('not a bottleneck')",
        1.0,
        how="ge",
        tolerance="claims.speed_ratio",
        reject=0.0,
        note="our value: LDA CGS (dense) seconds per sweep / TIR's (sweep + one regression "
        "step per fit.interval sweeps) at the same K",
    ),
]


def _kind(name: str) -> str:
    """Synthetic corpora are ``synth*``; Cora stands in for the document's ACL and NIPS."""
    if name.startswith("synth"):
        return "synthetic"
    return "real" if name in ("aan", "nips_cite") else "substitute"


def _n(t, m):
    r = t.loc[m]
    return (
        f"{m}: {r.wins} wins, {r.losses} losses of {r.n_test}; "
        f"mean {r.mean_improvement_nats:+.2f} nats"
    )


def _t31(ctx, rows, note=None):
    """Rows of a Table 3.1 claim: ``rows(t)`` (a list of Measured / Sides) on this run's
    corpus, then not_run rows for the document's corpora."""
    t = ctx.csv("table3_1").set_index("model")
    name = ctx.settings.corpora.get("predict", "")
    out = []
    for r in rows(t):
        r.dataset, r.data_kind = name, _kind(name)
        if note is not None:
            r.note = note(t)
        out.append(r)
    if _kind(name) == "synthetic":
        out.append(NotRun(f"Cora is in {REAL_CFG}", dataset="cora", data_kind="substitute"))
    return out + _others(name)


def majority_p(wins: int, losses: int) -> float:
    """One-sided sign-test p-value of ``wins`` against ``losses`` (ties dropped)."""
    return sign_test_p(wins, losses, "greater")


def _wins(model):
    def rows(t):
        r = t.loc[model]
        return [Measured(float(majority_p(int(r.wins), int(r.losses))))]

    def note(t):
        r = t.loc[model]
        return f"{_n(t, model)}; win fraction {float(r.win_fraction):.2f}"

    return lambda ctx: _t31(ctx, rows, note)


STUDY.claim("C3.1a")(_wins("TIR"))
STUDY.claim("C3.1b")(_wins("TIRE"))
STUDY.claim("C3.2a")(_wins("DMR"))

DOC_GAIN = {"TIR": 65.7, "TIRE": 63.0, "DMR": 79.1}  # Table 3.1, ACL, nats over LDA


@STUDY.claim("C3.1c")
def _impr(ctx):
    def rows(t):
        return [
            Sides(
                [float(t.loc[m, "mean_improvement_nats"])],
                [0.0],
                paper_a=DOC_GAIN[m],
                paper_b=0.0,
                labels=(f"{m} − LDA", "no gain"),
                claim_id=f"C3.1c-{m}",
                statement=f"{m} improves the mean held-out log probability over LDA (nats)",
                note=_n(t, m),
            )
            for m in ("TIR", "TIRE")
        ]

    return _t31(ctx, rows)


@STUDY.claim("C3.2b")
def _dmr_better(ctx):
    def rows(t):
        return [
            Sides(
                [float(t.loc["DMR", "mean_improvement_nats"])],
                [float(t.loc["TIR", "mean_improvement_nats"])],
                paper_a=DOC_GAIN["DMR"],
                paper_b=DOC_GAIN["TIR"],
                labels=("DMR − LDA", "TIR − LDA"),
            )
        ]

    return _t31(ctx, rows, lambda t: _n(t, "DMR") + "; " + _n(t, "TIR"))


@STUDY.claim("C3.2c")
def _params(ctx):
    b = ctx.bench().set_index("method")
    K = int(b.K.iloc[0])
    tir = int(b.loc["TIR Gibbs (approximate)", "n_params"])
    dmr = int(b.loc["DMR Gibbs (additive)", "n_params"])
    return Measured(
        bool(dmr == K * tir),
        dataset=ctx.settings.corpora.get("predict", ""),
        note=f"TIR {tir} parameters (one l per cited document), DMR {dmr}, K = {K}",
    )


def _recovery(ctx):
    r = ctx.csv("recovery")
    return r.groupby("method").l1.mean(), ctx.settings.corpora.get("recovery", "")


@STUDY.claim("C3.3")
def _c33(ctx):
    m, name = _recovery(ctx)
    base = {k: m[k] for k in ("no regression (l = 0)", "constant l = true mean")}
    best = min(base, key=base.get)
    return Measured(
        float(m["ML (stochastic EM)"] / base[best]),
        dataset=name,
        note=f"L1 ML {m['ML (stochastic EM)']:.3f}, l=0 {base['no regression (l = 0)']:.3f}, "
        f"const {base['constant l = true mean']:.3f}; comparator: {best}",
    )


@STUDY.claim("C3.3b")
def _c33b(ctx):
    m, name = _recovery(ctx)
    v = m["ML (stochastic EM)"] / m["MAP (Exp prior)"]
    return Measured(
        float(v),
        dataset=name,
        note=f"L1 ML {m['ML (stochastic EM)']:.3f}, MAP {m['MAP (Exp prior)']:.3f}",
    )


def _vs_sampler(key):
    def claim(ctx):
        m, name = _recovery(ctx)
        if key not in m:
            return NotRun("recovery.samplers is false in this config", dataset=name)
        return Measured(
            float(m["ML (stochastic EM)"] / m[key]),
            dataset=name,
            note=f"L1 ML {m['ML (stochastic EM)']:.3f}, {key} {m[key]:.3f}, "
            f"MAP {m['MAP (Exp prior)']:.3f}",
        )

    return claim


STUDY.claim("C3.3c")(_vs_sampler("MH on l (posterior mean)"))
STUDY.claim("C3.3d")(_vs_sampler("slice sampling on l (posterior mean)"))


@STUDY.claim("C3.6")
def _c36(ctx):
    m, name = _recovery(ctx)
    key = "ML, exact sampler (Eq 3.4)"
    if key not in m:
        return NotRun("recovery.exact is false in this config", dataset=name)
    approx, exact, none = m["ML (stochastic EM)"], m[key], m["no regression (l = 0)"]
    ratio = approx / exact
    informative = bool(exact < none)
    why = "" if informative else "; VOID: the exact sampler's L1 is not below l = 0"
    return Measured(
        float(ratio) if informative else float("nan"),
        dataset=name,
        note=f"L1 approximate {approx:.3f}, exact {exact:.3f}, l=0 {none:.3f}; "
        f"ratio {ratio:.3f} (tolerance 1 + {ctx.settings.claims.approx_rel:g}){why}",
    )


@STUDY.claim("C3.4")
def _c34(ctx):
    t = ctx.csv("signtest").set_index("quantity").value
    return Measured(
        float(t["exact binomial p, two-sided"]),
        dataset="printed counts",
        note=f"one-sided {t['exact binomial p, one-sided']:.4g}",
    )


@STUDY.claim("C3.4b")
def _c34b(ctx):
    t = ctx.csv("signtest").set_index("quantity").value
    return Measured(bool(t["exact binomial p, two-sided"] < 0.05), dataset="printed counts")


@STUDY.claim("C3.5")
def _c35(ctx):
    e = ctx.csv("fig3_4")
    s, n = e.l_edge[e.is_self], e.l_edge[~e.is_self]
    tt = ttest_ind(s, n, equal_var=False, alternative="greater")
    return [
        Measured(
            float(tt.pvalue),
            paper_value=0.0,
            dataset=ctx.settings.corpora.get("selfcite", ""),
            note=f"self {s.mean():.2f} vs non-self {n.mean():.2f}, Welch p {tt.pvalue:.2g}",
        ),
        *[NotRun(NO_SELF, dataset=ds, data_kind="real") for ds in ("aan", "nips_cite")],
    ]


@STUDY.claim("C3.7a")
def _c37a(ctx):
    d = ctx.csv("docs")
    name = ctx.settings.corpora.get("explore", "")
    top = d.sort_values(["l", "doc"], ascending=[False, True]).head(5)
    frac = float((top.citations == 1).mean())
    return [
        Measured(
            frac,
            dataset=name,
            data_kind=_kind(name),
            note=f"{int((top.citations == 1).sum())} of the top 5 by l have one citer; "
            f"citations {top.citations.tolist()}",
        ),
        *_others(name),
    ]


@STUDY.claim("C3.7b")
def _c37b(ctx):
    name = ctx.settings.corpora.get("explore", "")
    if name in ("aan", "nips_cite"):
        return NotRun(
            f"{name} ran: compare tables 3.2 / 3.4 with the document's rankings by eye (the "
            "article titles are in the tables); no automatic check",
            dataset=name,
            data_kind="real",
        )
    return _others(name, f"the articles are in the ACL/NIPS corpora: {PAPER_CFG}")


EDGE_ROLES = {"reference": "C3.10-references", "citer": "C3.10-citers"}


def doc_cosine(corpus: BowCorpus):
    """Cosine similarity of two documents' word-count vectors: ``cos(i, j)``."""
    d = corpus.doc_ids_per_entry()
    X = sp.csr_matrix(
        (corpus.counts.astype(float), (d, corpus.word_ids)), shape=(corpus.n_docs, corpus.n_vocab)
    )
    norm = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    norm[norm == 0] = 1.0

    def cos(i: int, j: int) -> float:
        return float(X[i].multiply(X[j]).sum() / (norm[i] * norm[j]))

    return cos


def edge_relevance(edges, cos, what: str, docs=None):
    """Per document with edges of ``what`` (``reference`` / ``citer``) of different weight:
    the text similarity of its most-weighted partner and of its least (Table 3.4's two
    picks, :func:`~latentlab.studies.tir.tables.extreme_edges`). Returns (most, least,
    documents)."""
    own = "citing" if what == "reference" else "cited"
    docs = sorted(edges[own].unique()) if docs is None else docs
    most, least, used = [], [], []
    for a in docs:
        ext = extreme_edges(edges, int(a), what)
        if ext is None or ext[0][1] == ext[1][1]:  # one edge, or all of equal weight
            continue
        most.append(cos(int(a), ext[0][0]))
        least.append(cos(int(a), ext[1][0]))
        used.append(int(a))
    return most, least, used


@STUDY.claim("C3.10")
def _c310(ctx):
    name = ctx.settings.corpora.get("explore", "")
    e = ctx.csv("tire_edges")
    cos = doc_cosine(BowCorpus.load(ctx.input("full")))
    d = ctx.csv("tire_docs")
    picks = d.sort_values(["citations", "doc"], ascending=[False, True]).head(
        ctx.settings.tables.edge_docs
    )
    alpha = ctx.settings.claims.sign_alpha
    out = []
    for what, cid in EDGE_ROLES.items():
        most, least, used = edge_relevance(e, cos, what)
        tm, tl, tu = edge_relevance(e, cos, what, docs=list(picks.doc))
        table = ", ".join(
            f"doc {a}: {x:.3f} vs {y:.3f}" for a, x, y in zip(tu, tm, tl, strict=True)
        )
        label = "reference" if what == "reference" else "citer"
        verb = "influential" if what == "reference" else "influenced"
        out.append(
            Sides(
                most,
                least,
                labels=(f"cos(most {label})", f"cos(least {label})"),
                test=f"t{alpha:g}",
                unit="documents",
                claim_id=cid,
                dataset=name,
                data_kind=_kind(name),
                statement=f"TIRE: a document's most {verb} {label} is closer to it in text "
                f"than its least (cosine of the word counts; every document with {label}s of "
                f"different edge weight, one-sided paired t-test at claims.sign_alpha = "
                f"{alpha:g})",
                note=f"{len(used)} documents; Table 3.4's {len(picks)} most cited documents: "
                + (table or f"none with {label}s of different weight"),
            )
        )
    return out + _others(name)


for _cid in EDGE_ROLES.values():
    counter_example("tir", _cid)(direction_passes)


@STUDY.claim("C3.10b")
def _c310b(ctx):
    name = ctx.settings.corpora.get("explore", "")
    if name == "aan":
        return NotRun(
            "aan ran: find Chiang's, BLEU's and Yang & Zheng's articles in table3_4 and its "
            "edges by title; no automatic check",
            dataset=name,
            data_kind="real",
        )
    return NotRun(
        f"the articles are in the ACL corpus: {PAPER_CFG}", dataset="aan", data_kind="real"
    )


@STUDY.claim("C3.9")
def _c39(ctx):
    b = ctx.bench().set_index("method")
    every = ctx.settings.fit.interval
    lda = b.loc["LDA CGS (dense)", "seconds"]
    sweep, reg = (
        b.loc["TIR Gibbs (approximate)", "seconds"],
        b.loc["TIR regression step", "seconds"],
    )
    tir = sweep + reg / every
    name = ctx.settings.corpora.get("predict", "")
    return Measured(
        float(lda / tir),
        dataset=name,
        data_kind=_kind(name),
        note=f"seconds per sweep: LDA {lda:.4f}, TIR {sweep:.4f} + regression {reg:.4f} / "
        f"{every} (fit.interval); without the regression the ratio is {lda / sweep:.2f}; "
        f"sparse LDA CGS {b.loc['LDA CGS (sparse)', 'tokens_per_s']:.3g} tokens/s",
    )


STUDY.claims(CLAIMS, settings=ClaimsSettings)

from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
