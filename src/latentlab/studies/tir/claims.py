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

from .study import STUDY, ClaimsSettings, first_run
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


# The data-kind rule (docs/design.md "Data kinds"): `real` is the document's own dataset
# with its preprocessing. Heinrich's NIPS 0-12 collection is the document's NIPS corpus as
# published, tokens and all (Sec 3.5, footnote 5); the AAN release is the document's source
# for ACL, but the selection of its 3,286 articles is not described and the tokenisation is
# ours (data/registry.py aan), so it is a substitute; Cora stands in for both.
SUBSTITUTE_NOTE = {
    "aan": "substitute: the ACL Anthology Network (release 2013) is the document's source, "
    "but its article selection is not described and the tokenisation is ours "
    "(data/registry.py aan)",
    "cora": "substitute: Cora (2,410 abstracts, 57 tokens per document, 4,356 links, no "
    "authors) stands in for the document's ACL (3,286 articles) and NIPS (1,740 papers, "
    "1,323 tokens per document) corpora; citation cycles broken by a seeded rule",
}


def _kind(name: str) -> str:
    """Synthetic corpora are ``synth*``; nips_cite is the document's own NIPS corpus; the
    rest (Cora, AAN with our tokenisation) are substitutes."""
    if name.startswith("synth"):
        return "synthetic"
    return "real" if name == "nips_cite" else "substitute"


def _kind_note(name: str) -> str:
    return SUBSTITUTE_NOTE.get(name, "" if _kind(name) != "substitute" else
                               f"substitute: {name} stands in for ACL and NIPS")  # fmt: skip


def _others(name, why=None):
    """not_run rows for the document's corpora that this run does not fit."""
    return [
        NotRun(why or r, dataset=ds, data_kind=_kind(ds))
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
        "self-citation edges have higher mean edge influence (two-sample t-test at 0.05)",
        "ACL 2.80 vs 1.40; NIPS 5.05 vs 3.15",
        how="true",
        data_kind="identity",
        note="the synthetic row is a sanity check counted apart (identity), not the "
        "document's finding: its corpus plants the effect (self_boost), so it holds by "
        "construction; the finding needs the papers' author lists (aan, nips_cite)",
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
        "top-l articles were typically cited only once: more of the top 5 by l have a "
        "single in-corpus citer than cited documents in general (share with one citer, "
        "against the corpus's base rate)",
        "the top-l papers 'were typically cited only once'",
        how="order",
        note="'typically' read against the base rate: a ranking that ignored citations would "
        "show the base rate's share of one-citer documents at its top; margin 0 (the "
        "document gives no counts)",
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


def _n(t, m):
    """A model's Table 3.1 counts, run by run."""
    r = t[t.model == m].sort_values("rep")
    runs = "; ".join(
        f"run {int(x.rep)}: {x.wins} wins, {x.losses} losses of {x.n_test}, mean "
        f"{x.mean_improvement_nats:+.2f} nats"
        for x in r.itertuples()
    )
    return f"{m}: {runs}"


def _per_run(t, model, col):
    """A model's Table 3.1 column, one value per run (in run order)."""
    r = t[t.model == model].sort_values("rep")
    if r.empty:
        raise ValueError(f"table3_1 has no rows for {model}")
    return [float(v) for v in r[col]]


def _t31(ctx, rows, note=None):
    """Rows of a Table 3.1 claim: ``rows(t)`` (a list of Measured / Sides, one value per
    run of the fits) on this run's corpus, then not_run rows for the document's corpora."""
    t = ctx.csv("table3_1")
    if "rep" not in t:
        t = t.assign(rep=0)
    name = ctx.settings.corpora.get("predict", "")
    out = []
    for r in rows(t):
        r.dataset, r.data_kind = name, _kind(name)
        r.unit = "runs"
        parts = [note(t) if note is not None else r.note, _kind_note(name)]
        r.note = "; ".join(x for x in parts if x)
        out.append(r)
    if _kind(name) == "synthetic":
        out.append(NotRun(f"Cora is in {REAL_CFG}", dataset="cora", data_kind="substitute"))
    return out + _others(name)


def majority_p(wins: int, losses: int) -> float:
    """One-sided sign-test p-value of ``wins`` against ``losses`` (ties dropped)."""
    return sign_test_p(wins, losses, "greater")


def _wins(model):
    def rows(t):
        r = t[t.model == model].sort_values("rep")
        return [Measured([float(majority_p(int(x.wins), int(x.losses))) for x in r.itertuples()])]

    def note(t):
        fr = ", ".join(f"{v:.2f}" for v in _per_run(t, model, "win_fraction"))
        return f"{_n(t, model)}; win fraction {fr}"

    return lambda ctx: _t31(ctx, rows, note)


STUDY.claim("C3.1a")(_wins("TIR"))
STUDY.claim("C3.1b")(_wins("TIRE"))
STUDY.claim("C3.2a")(_wins("DMR"))

DOC_GAIN = {"TIR": 65.7, "TIRE": 63.0, "DMR": 79.1}  # Table 3.1, ACL, nats over LDA


@STUDY.claim("C3.1c")
def _impr(ctx):
    def rows(t):
        out = []
        for m in ("TIR", "TIRE"):
            gain = _per_run(t, m, "mean_improvement_nats")
            out.append(
                Sides(
                    gain,
                    [0.0] * len(gain),
                    paper_a=DOC_GAIN[m],
                    paper_b=0.0,
                    labels=(f"{m} − LDA", "no gain"),
                    claim_id=f"C3.1c-{m}",
                    statement=f"{m} improves the mean held-out log probability over LDA (nats)",
                    note=_n(t, m),
                )
            )
        return out

    return _t31(ctx, rows)


@STUDY.claim("C3.2b")
def _dmr_better(ctx):
    def rows(t):
        return [
            Sides(
                _per_run(t, "DMR", "mean_improvement_nats"),
                _per_run(t, "TIR", "mean_improvement_nats"),
                paper_a=DOC_GAIN["DMR"],
                paper_b=DOC_GAIN["TIR"],
                labels=("DMR − LDA", "TIR − LDA"),
            )
        ]

    return _t31(ctx, rows, lambda t: _n(t, "DMR") + "; " + _n(t, "TIR"))


def _bench(ctx):
    """bench.csv, one row per measurement (``repeat`` 0: the fastest timing; 1, 2, ...:
    each timing)."""
    b = ctx.bench()
    if "repeat" not in b:
        b = b.assign(repeat=0)
    return b


@STUDY.claim("C3.2c")
def _params(ctx):
    b = _bench(ctx)
    b = b[b.repeat == 0].set_index("method")
    K = int(b.K.iloc[0])
    tir = int(b.loc["TIR Gibbs (approximate)", "n_params"])
    dmr = int(b.loc["DMR Gibbs (additive)", "n_params"])
    return Measured(
        bool(dmr == K * tir),
        dataset=ctx.settings.corpora.get("predict", ""),
        note=f"TIR {tir} parameters (one l per cited document), DMR {dmr}, K = {K}",
    )


ML = "ML (stochastic EM)"
MAP = "MAP (Exp prior)"
EXACT = "ML, exact sampler (Eq 3.4)"
L0 = "no regression (l = 0)"
CONST = "constant l = true mean"


def _recovery(ctx):
    """The recovery CSV: the deterministic baselines' L1 and every fitted variant's L1 per
    run (``rep``: run r of every variant shares its seed), the corpus, the regression
    step's setting."""
    r = ctx.csv("recovery")
    base = r[r.method.isin([L0, CONST])].groupby("method").l1.first()
    runs = {m: g.sort_values("rep").l1.to_list() for m, g in r[~r.method.isin([L0, CONST])]
            .groupby("method")}  # fmt: skip
    setting = ""
    if "setting" in r:
        ml = r[r.method == ML].dropna(subset=["setting"])
        setting = str(ml.setting.iloc[0]) if len(ml) else ""
    return base, runs, ctx.settings.corpora.get("recovery", ""), setting


def _g(v) -> str:
    return ", ".join(f"{x:.3f}" for x in v)


@STUDY.claim("C3.3")
def _c33(ctx):
    base, runs, name, setting = _recovery(ctx)
    best = min(base.index, key=lambda k: base[k])
    ml = runs[ML]
    return Measured(
        [x / base[best] for x in ml],
        dataset=name,
        unit="runs",
        note=f"L1 ML per run {_g(ml)}, l=0 {base[L0]:.3f}, const {base[CONST]:.3f} (the "
        f"baselines are exact: no seed); comparator: {best}; regression: {setting}",
    )


@STUDY.claim("C3.3b")
def _c33b(ctx):
    _, runs, name, setting = _recovery(ctx)
    ml, mp = runs[ML], runs[MAP]
    return Measured(
        [a / b for a, b in zip(ml, mp, strict=True)],
        dataset=name,
        unit="runs",
        note=f"L1 per run: ML {_g(ml)}, MAP {_g(mp)}; regression: {setting}",
    )


def _vs_sampler(key):
    def claim(ctx):
        _, runs, name, setting = _recovery(ctx)
        if key not in runs:
            return NotRun("recovery.samplers is false in this config", dataset=name)
        ml, other = runs[ML], runs[key]
        return Measured(
            [a / b for a, b in zip(ml, other, strict=True)],
            dataset=name,
            unit="runs",
            note=f"L1 per run: ML {_g(ml)}, {key} {_g(other)}, MAP {_g(runs[MAP])}; "
            f"regression: {setting}",
        )

    return claim


STUDY.claim("C3.3c")(_vs_sampler("MH on l (posterior mean)"))
STUDY.claim("C3.3d")(_vs_sampler("slice sampling on l (posterior mean)"))


@STUDY.claim("C3.6")
def _c36(ctx):
    base, runs, name, setting = _recovery(ctx)
    if EXACT not in runs:
        return NotRun("recovery.exact is false in this config", dataset=name)
    approx, exact, none = runs[ML], runs[EXACT], base[L0]
    ratio = [a / b for a, b in zip(approx, exact, strict=True)]
    informative = bool(np.mean(exact) < none)
    why = "" if informative else "; VOID: the exact sampler's mean L1 is not below l = 0"
    return Measured(
        ratio if informative else [float("nan")] * len(ratio),
        dataset=name,
        unit="runs",
        note=f"L1 per run: approximate {_g(approx)}, exact {_g(exact)}; l=0 {none:.3f}; "
        f"ratio {_g(ratio)} (tolerance 1 + {ctx.settings.claims.approx_rel:g}){why}; "
        f"regression: {setting}",
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
    """Identity (a sanity check, counted apart): the generator plants ``self_boost`` on the
    self-citation edges, so the effect is true by construction; the row shows that TIRE
    recovers a planted gap in every exploratory run, not that self-citations are more
    influential. The document's finding needs author lists (the not_run rows)."""
    e = ctx.csv("self_edges")
    if "rep" not in e:
        e = e.assign(rep=0)
    t = np.load(ctx.input("self_truth"))
    alpha = ctx.settings.claims.sign_alpha
    ps, gaps = [], []
    for _, er in e.groupby("rep", sort=True):
        if len(er) != len(t["is_self"]):
            raise ValueError("C3.5: the edge list and the corpus's truth disagree in length")
        is_self = t["is_self"]
        s, n = er.l_edge.to_numpy()[is_self], er.l_edge.to_numpy()[~is_self]
        ps.append(float(ttest_ind(s, n, equal_var=False, alternative="greater").pvalue))
        gaps.append(float(s.mean() - n.mean()))
    planted = t["edge_weight"][t["is_self"]].mean() - t["edge_weight"][~t["is_self"]].mean()
    return [
        Measured(
            bool(all(p <= alpha for p in ps)),
            dataset=ctx.settings.corpora.get("selfcite", ""),
            data_kind="identity",
            statement="sanity check (identity, counted apart): TIRE's edge weights recover "
            "the self-citation gap the generator plants (one-sided Welch p <= "
            "claims.sign_alpha in every exploratory run)",
            note=f"true by construction: the generator plants self_boost on "
            f"{int(t['is_self'].sum())} of {len(t['is_self'])} edges (true gap "
            f"{planted:.2f}); recovered gap per run {_g(gaps)}, Welch p "
            f"{', '.join(f'{p:.2g}' for p in ps)}; "
            "this is not evidence for the document's finding (that needs author lists: the "
            "aan and nips_cite rows)",
        ),
        *[NotRun(NO_SELF, dataset=ds, data_kind=_kind(ds)) for ds in ("aan", "nips_cite")],
    ]


@STUDY.claim("C3.7a")
def _c37a(ctx):
    """Top-l documents with one citer beyond the base rate: per exploratory run, the share
    of one-citer documents among the top ``tables.top`` by l against their share among all
    cited documents (Table 3.2's claim; the base rate is fixed by the corpus)."""
    d = ctx.csv("docs")
    if "rep" not in d:
        d = d.assign(rep=0)
    name = ctx.settings.corpora.get("explore", "")
    k = ctx.settings.tables.top
    cited = d[(d.rep == d.rep.min()) & (d.citations >= 1)]
    base = float((cited.citations == 1).mean())
    shares, cites = [], []
    for _, dr in d.groupby("rep", sort=True):
        top = dr.sort_values(["l", "doc"], ascending=[False, True]).head(k)
        shares.append(float((top.citations == 1).mean()))
        cites.append(top.citations.tolist())
    return [
        Sides(
            shares,
            [base] * len(shares),
            labels=(f"top {k} by l", "all cited documents"),
            unit="runs",
            dataset=name,
            data_kind=_kind(name),
            note="; ".join(
                x
                for x in (
                    f"share with one in-corpus citer: top {k} by l per run "
                    f"{', '.join(f'{x:.2f}' for x in shares)} (their citations {cites}); all "
                    f"{len(cited)} cited documents {base:.3f} (the base rate: ML estimates of l "
                    "are biased up where a document has one citer, REVERSALS case 3)",
                    _kind_note(name),
                )
                if x
            ),  # fmt: skip
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
            data_kind=_kind(name),
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
    e = first_run(ctx.csv("tire_edges"))
    cos = doc_cosine(BowCorpus.load(ctx.input("full")))
    d = first_run(ctx.csv("tire_docs"))
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
                note=f"{len(used)} documents (the exploratory fit's run 0); Table 3.4's "
                f"{len(picks)} most cited documents: "
                + (table or f"none with {label}s of different weight")
                + (f"; {_kind_note(name)}" if _kind_note(name) else ""),
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
            data_kind=_kind(name),
        )
    return NotRun(
        f"the articles are in the ACL corpus: {PAPER_CFG}", dataset="aan", data_kind=_kind("aan")
    )


@STUDY.claim("C3.9")
def _c39(ctx):
    """Per timing (bench.repeats): LDA's seconds per sweep over TIR's, a sweep plus one
    regression step per fit.interval sweeps."""
    b = _bench(ctx)
    every = ctx.settings.fit.interval
    reps = sorted(r for r in b.repeat.unique() if r > 0) or [0]

    def secs(method):
        t = b[b.method == method].set_index("repeat").seconds
        return [float(t[r]) for r in reps]

    lda, sweep = secs("LDA CGS (dense)"), secs("TIR Gibbs (approximate)")
    reg = secs("TIR regression step")
    ratio = [x / (s + g / every) for x, s, g in zip(lda, sweep, reg, strict=True)]
    name = ctx.settings.corpora.get("predict", "")
    sparse = b[(b.method == "LDA CGS (sparse)") & (b.repeat == 0)].tokens_per_s
    return Measured(
        ratio,
        dataset=name,
        data_kind=_kind(name),
        unit="timings",
        note="; ".join(
            x
            for x in (
                f"seconds per sweep, per timing: LDA {_g4(lda)}, TIR {_g4(sweep)} + regression "
                f"{_g4(reg)} / {every} (fit.interval); without the regression the ratio is "
                f"{_g4([x / s for x, s in zip(lda, sweep, strict=True)])}; sparse LDA CGS "
                f"{float(sparse.iloc[0]):.3g} tokens/s",
                _kind_note(name),
            )
            if x
        ),  # fmt: skip
    )


def _g4(v) -> str:
    return ", ".join(f"{x:.4g}" for x in v)


STUDY.claims(CLAIMS, settings=ClaimsSettings)

from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
