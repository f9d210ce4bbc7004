"""claims.csv for chapter 5 (C5.1-C5.14, T5.*: our numbering of the chapter's checkable
statements; ``where`` gives the thesis's section, figure or table): the claims as data and one
small function per claim.

Exact claims (C5.1, C5.11-C5.13) are recomputed here against the exact DP on tiny
synthetic documents, on ``exact.replicates`` problems (seeds); the others read the raw
per-document results of the study.

Noise (issue 38). The table rows (5.1-5.3) and the figure rows (5.7-5.10) are statistics of
a set of test documents (80 and 5 in the real run), pooled over the runs: their spread is a
bootstrap over the documents (:class:`DocStats`, :class:`IterStats`; ``B_BOOT`` resamples,
the document-level Monte Carlo noise of every estimator included), given to the noise rule
as a :class:`~latentlab.claims.noise.Noise`. An order "A > B" over several comparisons (both
baselines, both paths, both regimes) is judged on the binding one, the comparison with the
smallest difference, and its spread is the bootstrap spread of that minimum. Fig 5.6's rows
take the standard error of their S importance samples; Fig 5.11's the spread of the
10-iteration changes before the first optimisation.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from latentlab.claims.noise import Noise
from latentlab.claims.spec import Claim, Measured, NotRun, Sides
from latentlab.evaluation import ais
from latentlab.studies.shape import derive_seed

from .results import METHODS, load_models, stats_frame
from .study import NTEMPS_ROLE, STUDY, ClaimsSettings, data_kind, tag_offset

SYN = "tiny synthetic documents (exact DP)"
RATIO = ("geo", "geo_rev", "convex", "convex_rev")
B_BOOT = 400  # bootstrap resamples of the test documents (the rows' Noise)


def _c51(est):
    return Claim(
        f"C5.1-{est}",
        where="Sec 5.1.4 and 5.2.1-5.2.2 (exact check: ours)",
        statement=f"{est} converges to the exact log P(w|Phi,alpha) (or log-ratio) by DP",
        paper_value=0.0,
        how="abs",
        tolerance="claims.exact_abs",
        dataset=SYN,
        note="max |estimate - exact| over 4 docs of 8 tokens, K=3, 5000 temps, S=20",
    )


EXACT_ESTIMATORS = ("std_ais", "ratio_convex", "ratio_geometric", "iteration_ais")
CLAIMS = [
    *[_c51(e) for e in EXACT_ESTIMATORS],
    Claim(
        "C5.1-lr",
        where="Sec 5.1.1 (exact check: ours)",
        statement=(
            "left-to-right gives the exact log P(w|Phi,alpha) where it is exact: 2-token "
            "documents (Wallach's one-sweep LR is biased beyond, Buntine 2009)"
        ),
        paper_value=0.0,
        how="abs",
        tolerance="claims.exact_abs",
        dataset=SYN,
    ),
    Claim(
        "C5.11",
        where="Sec 5.2.1 fn 6",
        statement=("S=1 and S=100 give essentially the same ratio-AIS answer at 10,000 temps"),
        paper_value=0.0,
        how="abs",
        tolerance="claims.s1_vs_s100_abs",
        dataset=SYN,
        note=("max |S=1 - S=100| log-ratio over 4 docs; models: learned vs 10% mixed topics"),
    ),
    Claim(
        "C5.12",
        where="Sec 5.2.1",
        statement="ratio-AIS additivity (a-b)+(b-c) = (a-c) when converged",
        paper_value=0.0,
        how="abs",
        tolerance="claims.exact_abs",
        dataset=SYN,
        note="max over 4 docs, 10,000 temps, S=20",
    ),
    Claim(
        "C5.13",
        where="Sec 5.2.3, Eq. 5.37",
        statement=("completion ratio = full-document ratio x reciprocal observed-part ratio"),
        paper_value=0.0,
        how="abs",
        tolerance="claims.exact_abs",
        dataset=SYN,
        note=("|ratio-AIS completion estimate - exact DP completion ratio|, one 8-token doc"),
    ),
    Claim(
        "C5.2",
        where="Table 5.2 (top)",
        statement=(
            "ratio-AIS per-document perplexity-ratio variance is orders of "
            "magnitude below LR and standard AIS (cheap regime)"
        ),
        paper_value=100.0,
        how="ge",
        group="perturbed",
        data_kind="real",  # of the not_run row on the NIPS corpus
    ),
    Claim(
        "C5.3",
        where="Table 5.1",
        statement=(
            "ratio-AIS prefers the learned topics on more documents than LR and "
            "standard AIS (cheap regime)"
        ),
        paper_value="ratio-AIS % > LR %, Std AIS %",
        how="order",
        group="perturbed",
        data_kind="real",  # of the not_run row on the NIPS corpus
    ),
    Claim(
        "C5.4a",
        where="Figs 5.4/5.5, Table 5.2 (bottom)",
        statement=(
            "cheap regime: forward and reverse ratio-AIS disagree systematically (a "
            "detected bias): the geometric path's forward corpus ratio above its reverse's "
            "by half the document's gap (runs pooled)"
        ),
        paper_value="forward ratio > reverse ratio (geometric, cheap)",
        how="order",
        group="perturbed",
    ),
    Claim(
        "C5.4b",
        where="Figs 5.4/5.5, Table 5.2 (bottom)",
        statement=(
            "expensive regime: forward and reverse ratio-AIS agree: |log corpus ratio "
            "forward - reverse| on both paths (the larger) within half the bias the "
            "document detected in its cheap regime"
        ),
        paper_value=0.0,
        how="le",
        group="perturbed",
    ),
    Claim(
        "C5.6",
        where="Table 5.2 (bottom)",
        statement=(
            "expensive-regime corpus ratio identical across ratio-AIS paths and "
            "directions (NIPS 0.9897 in all four)"
        ),
        paper_value=0.0,
        how="abs",
        tolerance="claims.path_spread_abs",
        group="perturbed",
    ),
    Claim(
        "C5.14",
        where="Figs 5.4/5.5, Table 5.2 (top)",
        statement=(
            "standard AIS is very poor: its per-document perplexity-ratio variance is "
            "at least 10x LR's in both regimes (min over regimes of Std/LR variance)"
        ),
        paper_value=10.0,
        how="ge",
        group="perturbed",
        note="threshold 10 is ours; the document's Table 5.2 ratios are 27-59",
    ),
    Claim(
        "T5.1-exp",
        where="Table 5.1",
        statement=(
            "expensive regime: ratio-AIS most accurate (NIPS: above LR and Std AIS; ACL: "
            "above Std AIS, its LR similarity is T5.1-exp-lr)"
        ),
        paper_value="see row",
        how="order",
        group="perturbed",
    ),
    Claim(
        "T5.1-exp-lr",
        where="Table 5.1",
        statement=(
            "expensive regime, ACL: ratio-AIS similar to LR: |mean ratio-AIS % - LR %| "
            "below half the smallest lead of ratio-AIS over LR that the document's Table "
            "5.1 reports (NIPS expensive, 86.9 - 84.6 = 2.3 points)"
        ),
        paper_value=0.4,
        how="le",
        group="perturbed",
    ),
    Claim(
        "T5.2v-exp",
        where="Table 5.2 (top)",
        statement=(
            "expensive regime: ratio-AIS variance orders of magnitude below LR and Std AIS "
            "(min(LR, Std AIS) / max ratio-AIS variance)"
        ),
        paper_value=100.0,
        how="ge",
        group="perturbed",
    ),
    Claim(
        "T5.2v-geo",
        where="Table 5.2 (top), Sec 5.3.1",
        statement=(
            "'In this case, the geometric path had lower variance than the convex path': "
            "log10 variance of each path's lower-variance direction, geometric below convex "
            "in both regimes by half the document's smallest gap"
        ),
        paper_value="see row",
        how="order",
        direction="<",
        group="perturbed",
    ),
    Claim(
        "T5.2r-cheap",
        where="Table 5.2 (bottom)",
        statement=(
            "cheap regime corpus ratio: ratio-AIS lower than both baselines on NIPS; "
            "LR competitive on ACL (LR < mean ratio-AIS < Std AIS)"
        ),
        paper_value="see row",
        how="order",
        direction="<",
        group="perturbed",
    ),
    Claim(
        "T5.2r-exp",
        where="Table 5.2 (bottom)",
        statement=(
            "expensive regime corpus ratio: ratio-AIS lower than both baselines on NIPS; "
            "LR competitive on ACL (LR < mean ratio-AIS < Std AIS)"
        ),
        paper_value="see row",
        how="order",
        direction="<",
        group="perturbed",
    ),
    Claim(
        "C5.5a",
        where="Fig 5.6",
        statement=(
            "standard AIS underestimates the model difference at few temperatures: the mean "
            "of the two ratio-AIS directions above Std AIS at the smallest n by "
            "claims.effect_rel of the effect (the ratio-AIS estimate at the largest n)"
        ),
        paper_value="ratio-AIS > Std AIS (fewest temperatures)",
        how="order",
    ),
    Claim(
        "C5.5b",
        where="Fig 5.6",
        statement=(
            "at many temperatures both ratio-AIS directions and standard AIS agree: "
            "spread of the three means at the largest n within claims.effect_rel of the "
            "effect (the ratio-AIS estimate there)"
        ),
        paper_value=0.0,
        how="le",
    ),
    Claim(
        "C5.7a",
        where="Table 5.3 (bottom)",
        statement=(
            "cheap ratio-AIS correlates better with a long LR run than cheap LR and standard AIS"
        ),
        paper_value="max ratio-AIS corr > LR corr, Std AIS corr",
        how="order",
        group="symasym",
        data_kind="real",  # of the not_run row on the NIPS corpus
    ),
    Claim(
        "C5.7b",
        where="Table 5.3 (top)",
        statement=(
            "ratio-AIS has 1-2 orders of magnitude lower variance (cheap regime): "
            "min(LR, Std AIS) / max ratio-AIS variance (the document's rows give 10.6-13.3; "
            "'convex path lowest' is T5.3v-convex)"
        ),
        paper_value=10.0,
        how="ge",
        group="symasym",
    ),
    Claim(
        "C5.7c",
        where="Table 5.3 (middle)",
        statement=(
            "forward direction biased towards 'no difference' (corpus ratio closer "
            "to 1 than reverse); bias visible as a direction disagreement"
        ),
        paper_value="forward ratio > reverse ratio (both paths)",
        how="order",
        group="symasym",
    ),
    Claim(
        "C5.7d",
        where="Table 5.3 (middle), Sec 5.3.2",
        statement=(
            "'the forward direction of annealing did not detect an overall advantage to the "
            "asymmetric hyper-parameter model' (cheap regime): the lower forward corpus "
            "ratio of the two paths is not below 1 (asymmetric / symmetric)"
        ),
        paper_value=1.0,
        how="ge",
        group="symasym",
    ),
    Claim(
        "T5.3v-exp",
        where="Table 5.3 (top)",
        statement=(
            "expensive regime: ratio-AIS variance an order of magnitude below LR and Std "
            "AIS: min(LR, Std AIS) / max ratio-AIS variance (the document's rows give "
            "12.1-12.7)"
        ),
        paper_value=10.0,
        how="ge",
        group="symasym",
    ),
    Claim(
        "T5.3v-convex",
        where="Table 5.3 (top), Sec 5.3.2",
        statement=(
            "'the convex path lowest': log10 variance of each path's lower-variance "
            "direction, convex below geometric in both regimes by half the document's "
            "smallest gap"
        ),
        paper_value="see row",
        how="order",
        direction="<",
        group="symasym",
    ),
    Claim(
        "T5.3r-exp",
        where="Table 5.3 (middle)",
        statement=(
            "expensive regime: forward corpus ratio above reverse on both paths by half the "
            "document's smallest gap (runs pooled)"
        ),
        paper_value="see row",
        how="order",
        group="symasym",
    ),
    Claim(
        "T5.3c-exp",
        where="Table 5.3 (bottom)",
        statement=(
            "expensive regime correlation with the long LR run: LR > every ratio-AIS > "
            "Std AIS (the document's numbers; the text draws no ordering here)"
        ),
        paper_value="see row",
        how="order",
        group="symasym",
    ),
    Claim(
        "C5.8a",
        where="Figs 5.7/5.8",
        statement=(
            "iteration-AIS with n temperatures gives held-out LL >= standard AIS and LR with 10n"
        ),
        paper_value=0.0,
        how="ge",
        group="iteration",
        data_kind="real",  # of the not_run row on the NIPS corpus
    ),
    Claim(
        "C5.8b",
        where="Figs 5.9/5.10",
        statement=(
            "iteration-AIS has lower run-to-run variance than the baselines: log10 of the "
            "per-document variance averaged over documents and snapshots, at each n"
        ),
        paper_value="iteration-AIS variance < Std AIS, LR (same n)",
        how="order",
        direction="<",
        group="iteration",
    ),
    Claim(
        "C5.8c",
        where="Figs 5.9/5.10, Sec 5.3.3",
        statement=(
            "'all methods exhibited higher variance in the likelihood estimates for later "
            "learning iterations': per method and budget, log10 of the mean run-to-run "
            "variance over the later half of the training iterations above the earlier half's"
        ),
        paper_value="variance(later iterations) > variance(earlier), every method",
        how="order",
        group="iteration",
    ),
    Claim(
        "C5.9",
        where="Figs 5.7/5.8",
        statement="baselines dip at late iterations, iteration-AIS does not",
        paper_value="dip(iteration-AIS) < dip(Std AIS), dip(LR)",
        how="order",
        direction="<",
        group="iteration",
    ),
    Claim(
        "C5.9b",
        where="Figs 5.7/5.8, Sec 5.3.3",
        statement=(
            "'the dip in likelihood was smaller with increased computation': each "
            "baseline's late dip (max - final mean LL) with 10n temperatures below its dip "
            "with n"
        ),
        paper_value="dip(baseline, 10n) < dip(baseline, n)",
        how="order",
        direction="<",
        group="iteration",
    ),
    Claim(
        "C5.10",
        where="Fig 5.11",
        statement=("topic entropy jumps at the first hyperparameter optimisation"),
        paper_value=5.0,
        how="ge",
        note=(
            "entropy at the fixed initial beta: change over the 10 iterations after the"
            " first optimisation / median 10-iteration change in the 50 before"
        ),
    ),
    Claim(
        "C5.10b",
        where="Fig 5.11 (bottom)",
        statement=(
            "log prior probability of the topics jumps at the first hyperparameter "
            "optimisation (a mode far from the prior)"
        ),
        paper_value=5.0,
        how="ge",
        note=(
            "log prior at the fixed initial beta: change over the 10 iterations after the"
            " first optimisation / median 10-iteration change in the 50 before; prior ="
            " sum_k log Dir(Phi_k|beta)"
        ),
    ),
]
STUDY.claims(CLAIMS, settings=ClaimsSettings)


# ------------------------------------------------------------------ the document's tables
# Tables 5.1-5.3 verbatim (thesis Sec. 5.3), columns in METHODS order: LR, Std AIS, Geo,
# Geo (rev), Convex, Convex (rev); Table 5.3 follows the layout and the body text (top
# variance, middle corpus ratio, bottom correlation), not its caption's order. Table 5.2
# bottom, ACL expensive, is missing in the text we have (lost in extraction).
def _t(*rows):
    keys = [("nips", "cheap"), ("nips", "expensive"), ("acl", "cheap"), ("acl", "expensive")]
    return dict(zip(keys, rows, strict=True))


PAPER = {
    "t51": _t(
        [63.8, 48.8, 83.8, 89.2, 84.6, 87.7],
        [84.6, 62.3, 86.9, 87.7, 87.7, 87.7],
        [80.2, 50.8, 88.3, 92.0, 88.3, 92.3],
        [90.7, 75.2, 90.3, 90.3, 90.3, 90.3],
    ),
    "t52v": _t(
        [3.9e-4, 1.2e-2, 1.8e-6, 1.1e-6, 1.3e-6, 1.5e-6],
        [1.9e-5, 5.1e-4, 9.8e-9, 1.3e-8, 1.6e-8, 1.3e-8],
        [2.2e-4, 1.3e-2, 2.1e-6, 8.2e-7, 1.4e-6, 1.2e-6],
        [1.6e-5, 5.2e-4, 1.0e-8, 1.1e-8, 1.2e-8, 1.2e-8],
    ),
    "t52r": _t(
        [0.991, 0.996, 0.991, 0.989, 0.991, 0.989],
        [0.991, 0.993, 0.9897, 0.9897, 0.9897, 0.9897],
        [0.984, 0.995, 0.985, 0.984, 0.986, 0.984],
        None,
    ),
    "t53v": _t(
        [2.6e-4, 2.6e-3, 2.0e-5, 1.5e-5, 8.2e-6, 9.8e-6],
        [1.7e-5, 6.0e-4, 1.4e-6, 1.2e-6, 6.9e-7, 5.8e-7],
        [1.7e-4, 3.6e-3, 1.6e-5, 1.3e-5, 7.7e-6, 6.6e-6],
        [1.4e-5, 5.6e-4, 1.1e-6, 9.4e-7, 7.4e-7, 5.1e-7],
    ),
    "t53r": _t(
        [0.984, 0.975, 1.01, 0.992, 1.01, 0.994],
        [0.989, 0.990, 1.00, 0.999, 1.00, 0.998],
        [0.984, 0.980, 1.00, 0.985, 1.00, 0.988],
        [0.987, 0.989, 0.994, 0.992, 0.996, 0.992],
    ),
    "t53c": _t(
        [0.947, 0.619, 0.973, 0.975, 0.976, 0.981],
        [0.993, 0.852, 0.981, 0.982, 0.981, 0.982],
        [0.965, 0.578, 0.984, 0.983, 0.987, 0.986],
        [0.995, 0.892, 0.989, 0.989, 0.990, 0.989],
    ),
}
SHORT = {"lr": "LR", "std_ais": "Std", "geo": "Geo", "geo_rev": "Geo rev",
         "convex": "Convex", "convex_rev": "Convex rev"}  # fmt: skip
MISSING_T52R_ACL_EXP = (
    "[MISSING in the text]; text: LR slightly lower than ratio-AIS, ratio-AIS between LR "
    "and Std AIS"
)


def _vals(values, fmt: str) -> str:
    return ", ".join(f"{SHORT[m]} {format(v, fmt)}" for m, v in zip(METHODS, values, strict=True))


def _doc_text(role: str, regime: str, table: str, fmt: str) -> str:
    doc = PAPER[table][(role, regime)]
    docs = _vals(doc, fmt) if doc is not None else MISSING_T52R_ACL_EXP
    return f"document {role.upper()} {regime}: {docs}"


def _ours(series, fmt: str) -> str:
    return "ours: " + _vals([float(series[m]) for m in METHODS], fmt)


def _d(doc, m) -> float:
    return float(doc[METHODS.index(m)])


# ------------------------------------------------------------------ noise: the documents
def boot_weights(n_docs: int, B: int, seed: int) -> np.ndarray:
    """``B`` bootstrap resamples of ``n_docs`` documents as (B, n_docs) multiplicities."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(n_docs, np.full(n_docs, 1.0 / n_docs), size=B).astype(float)


def boot_noise(boot, what: str) -> Noise | None:
    """The bootstrap spread of a statistic (its finite resamples; None below 3)."""
    b = np.asarray(boot, dtype=float).ravel()
    b = b[np.isfinite(b)]
    if len(b) < 3:
        return None
    return Noise(float(np.std(b, ddof=1)), len(b), what)


def _wmean(W, x):
    """Weighted mean over documents: W (D,) or (B, D), x (D,) -> () or (B,)."""
    W = np.asarray(W, dtype=float)
    return (W @ x) / W.sum(axis=-1)


class DocStats:
    """Per-document aggregates of one regime of the raw perturbed / symasym results
    (Tables 5.1-5.3), in document order, so that each statistic of the tables is a function
    of document weights ``W``: ones give the tables' numbers (``tables.pct_prefer``,
    ``doc_variance``, ``corpus_ratio`` and the correlation with the long LR run), a
    bootstrap resample's multiplicities its value."""

    def __init__(self, g: pd.DataFrame, ref: pd.Series | None = None):
        self.docs = np.sort(g.doc.unique())
        self.N = g.groupby("doc")["N"].first().reindex(self.docs).to_numpy(float)
        self.pref, self.var, self.L, self.x0 = {}, {}, {}, {}
        for m, gm in g.groupby("method"):
            pr = gm.pivot(index="doc", columns="run", values="perp_ratio").reindex(self.docs)
            lr = gm.pivot(index="doc", columns="run", values="logratio").reindex(self.docs)
            self.pref[m] = (pr < 1).mean(axis=1).to_numpy(float)
            self.var[m] = pr.var(axis=1, ddof=1).to_numpy(float)
            self.L[m] = lr.mean(axis=1).to_numpy(float)
            self.x0[m] = pr[pr.columns.min()].to_numpy(float)
        self.ref = None if ref is None else ref.reindex(self.docs).to_numpy(float)

    def pct(self, W) -> dict:
        """% of documents preferring model 1 (Table 5.1), runs averaged."""
        return {m: 100.0 * _wmean(W, p) for m, p in self.pref.items()}

    def variance(self, W) -> dict:
        """Mean per-document variance of the perplexity ratio (Tables 5.2/5.3 top)."""
        return {m: _wmean(W, v) for m, v in self.var.items()}

    def ratio(self, W) -> dict:
        """Corpus-level perplexity ratio exp(-sum_d mean_r L / sum_d N_d) (bottom rows)."""
        W = np.asarray(W, dtype=float)
        return {m: np.exp(-(W @ x) / (W @ self.N)) for m, x in self.L.items()}

    def corr(self, W) -> dict:
        """Correlation of the first run's perplexity ratio with the long LR run's (Table
        5.3 bottom)."""
        out = {}
        for m, x in self.x0.items():
            mx, mr = _wmean(W, x), _wmean(W, self.ref)
            dx = x - np.asarray(mx)[..., None]
            dr = self.ref - np.asarray(mr)[..., None]
            cov = _wmean_rows(W, dx * dr)
            sx, sr = np.sqrt(_wmean_rows(W, dx * dx)), np.sqrt(_wmean_rows(W, dr * dr))
            with np.errstate(invalid="ignore", divide="ignore"):
                out[m] = cov / (sx * sr)
        return out


def _wmean_rows(W, X):
    """Weighted mean of each row of X (B, D) (or of X (D,)) with weights W."""
    W = np.asarray(W, dtype=float)
    return (W * X).sum(axis=-1) / W.sum(axis=-1)


class Sample:
    """The documents of one role's raw results, the regimes' :class:`DocStats` and the
    bootstrap weights (seeded per step and role)."""

    def __init__(self, df: pd.DataFrame, seed: int, B: int = B_BOOT):
        ref = None
        if "lr_long" in set(df.regime):
            ref = df[df.regime == "lr_long"].set_index("doc")["perp_ratio"]
        self.regimes = {r: DocStats(df[df.regime == r], ref) for r in ("cheap", "expensive")}
        docs = [set(s.docs) for s in self.regimes.values()]
        if docs[0] != docs[1]:
            raise ValueError("the cheap and expensive regimes score different documents")
        self.D = len(docs[0])
        self.W = boot_weights(self.D, B, seed)
        self.ones = np.ones(self.D)
        self.source = f"a bootstrap over the {self.D} test documents, runs pooled"

    def value_and_noise(self, stat) -> tuple[float, Noise | None]:
        """``stat(W)`` on the documents as measured, and its bootstrap Noise."""
        return float(stat(self.ones)), boot_noise(stat(self.W), self.source)


def _sample(ctx, step: str, role: str) -> Sample:
    return ctx._cached(
        ("sample", step, role),
        lambda: Sample(ctx.csv(f"{step}_{role}"), ctx.seed(tag_offset("claims_boot", step, role))),
    )


def bound_order(pairs_fn, sample, doc_pairs, labels, unit: str, note: str,
                direction: str = ">") -> Sides:  # fmt: skip
    """Sides of "A ``direction`` B" over several comparisons at once (Tables 5.1-5.3, Figs
    5.7-5.10): ``pairs_fn(W)`` gives our (a, b) per comparison at document weights W,
    ``doc_pairs`` the document's for the same comparisons. The row is the binding
    comparison (the smallest difference in the claim's direction), its Noise the bootstrap
    spread of that minimum. The margin is half the document's smallest gap (issue 21: never
    wider than any effect judged) and the document's two sides are those of its binding
    comparison; without the document's numbers the margin is 0 (and the note says why)."""
    sign = 1.0 if direction == ">" else -1.0
    pairs = [(float(a), float(b)) for a, b in pairs_fn(sample.ones)]
    d = [sign * (a - b) for a, b in pairs]
    k = int(np.argmin(d))
    boot = np.min([sign * (np.asarray(a) - np.asarray(b)) for a, b in pairs_fn(sample.W)], axis=0)
    nz = boot_noise(boot, sample.source)
    a, b = pairs[k]
    bind = f"binding: {k + 1} of the {len(pairs)} {unit}"
    if not doc_pairs:
        return Sides([a], [b], labels=labels, margin=0.0, unit="resamples", noise=nz,
                     note=f"{note}; {bind}")  # fmt: skip
    gaps = [sign * (pa - pb) for pa, pb in doc_pairs]
    i = int(np.argmin(gaps))
    if gaps[i] <= 0:
        raise ValueError(f"the document's own sides {doc_pairs[i]} do not hold its ordering")
    return Sides(
        [a], [b], paper_a=doc_pairs[i][0], paper_b=doc_pairs[i][1], labels=labels,
        margin=gaps[i] / 2, unit="resamples", noise=nz,
        note=f"margin {gaps[i] / 2:.3g} = half the document's smallest gap; {note}; {bind}",
    )  # fmt: skip


def _per_role(ctx, fn):
    """One row per corpus role (in role order): fn(role) -> Measured | Sides."""
    rows = []
    for role in sorted(ctx.settings.corpora):
        m = fn(role)
        m.dataset = ctx.settings.corpora[role].dataset
        m.data_kind = data_kind(ctx.settings.corpora, role)
        rows.append(m)
    return rows


def _nips_not_run(ctx) -> list:
    """The NIPS corpus (UCI NIPS, public, a download target) when no role uses it."""
    if any(c.dataset == "uci_nips" for c in ctx.settings.corpora.values()):
        return []
    return [
        NotRun(
            "public (UCI NIPS, download target, not in the mirror) but not in this run's "
            "corpora; config/paper.yaml runs it (ais_eval.corpora.nips: uci_nips)",
            dataset="uci_nips",
        )
    ]


# ------------------------------------------------------------------ exact checks
def _tiny(seed):
    rng = np.random.default_rng(seed)
    V, K = 12, 3
    phi = rng.dirichlet(np.full(V, 0.5), size=K).T
    alpha = rng.gamma(2.0, 0.3, K) + 0.05
    return ais.TopicModel(phi, alpha)


def exact_checks(
    seed: int, n_temps: int = 5000, S: int = 20, long_temps: int = 10000, S_many: int = 100
) -> dict:
    """Max |estimate - exact| over tiny documents for each estimator (``n_temps``, ``S``),
    additivity and S=1 vs S=``S_many`` at ``long_temps`` temperatures, and the completion
    identity (C5.1, C5.11, C5.12, C5.13); the defaults are ``study.Exact``'s. The three
    tiny models and the documents are drawn from ``derive_seed(seed, r=0..3)``."""
    ma, mb, mc = (_tiny(derive_seed(seed, r=r)) for r in range(3))
    rng = np.random.default_rng(derive_seed(seed, r=3))
    docs = [rng.integers(0, 12, 8) for _ in range(4)]

    def E(m, ds=docs):
        return np.array([ais.exact_log_evidence(d, m.phi, m.alpha) for d in ds])

    ea, eb, ec = E(ma), E(mb), E(mc)
    out = {}
    out["std_ais"] = np.abs(ais.standard_ais(ma, docs, n_temps, S, seed).log_lik - ea).max()
    for path in ("convex", "geometric"):
        f = ais.ratio_ais(ma, mb, docs, n_temps, path, S, 100, seed, 1).log_lik
        r = -ais.ratio_ais(mb, ma, docs, n_temps, path, S, 100, seed, 2).log_lik
        out[f"ratio_{path}"] = max(np.abs(f - (ea - eb)).max(), np.abs(r - (ea - eb)).max())
    it = ais.iteration_ais(
        np.stack([mc.phi, mb.phi, ma.phi]),
        np.stack([mc.alpha, mb.alpha, ma.alpha]),
        docs,
        n_temps,
        1000,
        S,
        seed,
    ).log_lik
    out["iteration_ais"] = np.abs(it - np.stack([ec, eb, ea], 1)).max()
    out["lr"] = np.abs(ais.left_to_right(ma, docs, R=2000, seed=seed).log_lik - ea).max()
    two = [d[:2] for d in docs]
    out["lr_two_tokens"] = np.abs(
        ais.left_to_right(ma, two, R=20000, seed=seed).log_lik - E(ma, two)
    ).max()
    ab = ais.ratio_ais(ma, mb, docs, long_temps, S=S, seed=seed, stream=5).log_lik
    bc = ais.ratio_ais(mb, mc, docs, long_temps, S=S, seed=seed, stream=6).log_lik
    ac = ais.ratio_ais(ma, mc, docs, long_temps, S=S, seed=seed, stream=7).log_lik
    out["additivity"] = np.abs(ab + bc - ac).max()
    mp = ais.TopicModel(0.9 * ma.phi + 0.1 * mc.phi, ma.alpha)
    one = ais.ratio_ais(ma, mp, docs, long_temps, S=1, seed=seed, stream=8).log_lik
    many = ais.ratio_ais(ma, mp, docs, long_temps, S=S_many, seed=seed, stream=9).log_lik
    out["s1_vs_s100"] = np.abs(one - many).max()
    w = docs[0]
    obs = np.arange(len(w)) < len(w) // 2
    exact = (E(ma, [w])[0] - E(ma, [w[obs]])[0]) - (E(mb, [w])[0] - E(mb, [w[obs]])[0])
    est, _ = ais.ratio_ais_completion(ma, mb, w, obs, n_temps, S=S, seed=seed)
    out["completion"] = abs(est - exact)
    # the effects each check must resolve (issue 21: a value the rule must refuse): an
    # estimator that confused the two models, or answered "no difference", errs by these
    out["effect_ab"] = np.abs(ea - eb).mean()  # C5.1: log P under a vs b / the a-b ratio
    out["effect_ab_two"] = np.abs(E(ma, two) - E(mb, two)).mean()  # C5.1-lr: 2-token docs
    out["effect_ac"] = np.abs(ea - ec).mean()  # C5.12: the a-c ratio
    out["effect_mp"] = np.abs(E(ma) - E(mp)).mean()  # C5.11: the ratio S=1/S=100 estimate
    out["effect_completion"] = abs(exact)  # C5.13
    return {k: float(v) for k, v in out.items()}


def _exact(ctx) -> list[dict]:
    """The exact checks on ``exact.replicates`` problems (seeds ctx.seed(offset, r)),
    computed once per claims step."""
    ex = ctx.settings.exact
    off = tag_offset("exact")
    return ctx._cached(
        ("exact",),
        lambda: [
            exact_checks(ctx.seed(off, r), ex.n_temps, ex.S, ex.long_temps, ex.S_many)
            for r in range(ex.replicates)
        ],  # fmt: skip
    )


def _exact_row(ctx, key: str, effect: str, what: str, note: str = "") -> Measured:
    """An exact-DP check, one value per problem (seed), with the smallest effect it must
    resolve as the value to refuse."""
    ex = _exact(ctx)
    e = min(x[effect] for x in ex)
    return Measured(
        [x[key] for x in ex],
        reject=[e],
        unit="problems (seeds)",
        note="; ".join(x for x in (note, f"per problem: {', '.join(f'{x[key]:.3g}' for x in ex)}",
                                    f"refused: {e:.3g} = the smallest mean |{what}| over the "
                                    "problems (an estimator that confused the models errs by "
                                    "it)") if x),
    )  # fmt: skip


for _est in EXACT_ESTIMATORS:
    STUDY.claim(f"C5.1-{_est}")(
        lambda ctx, est=_est: _exact_row(ctx, est, "effect_ab", "log P_a - log P_b")
    )


@STUDY.claim("C5.1-lr")
def _(ctx):
    eight = ", ".join(f"{x['lr']:.3g}" for x in _exact(ctx))
    return _exact_row(
        ctx, "lr_two_tokens", "effect_ab_two", "log P_a - log P_b on 2 tokens",
        note=f"max |estimate - exact| over the 4 documents' first 2 tokens, R=20000; Wallach's "
        "LR (one resampling sweep per position) is exact there, and not consistent in R for "
        f"longer documents (Buntine 2009): on the 8-token documents, R=2000, {eight} per "
        "problem, a bias that differs by problem (issue 38: no tolerance of an exact check "
        "holds it)",
    )  # fmt: skip


@STUDY.claim("C5.11")
def _(ctx):
    return _exact_row(ctx, "s1_vs_s100", "effect_mp", "log-ratio learned vs mixed")


@STUDY.claim("C5.12")
def _(ctx):
    return _exact_row(ctx, "additivity", "effect_ac", "log-ratio a-c")


@STUDY.claim("C5.13")
def _(ctx):
    return _exact_row(ctx, "completion", "effect_completion", "completion log-ratio")


# ------------------------------------------------------------------ learned vs perturbed
ORDER_OF_MAGNITUDE = 10.0
ONE_ORDER = (
    "refused: 10, one order of magnitude (Table 5.3's 'one to two orders' has 10.6-13.3; "
    "Table 5.2's 'orders of magnitude' has 105-1333)"
)
NO_GAIN = "refused: 1 (ratio-AIS no better than the baselines)"


def variance_gain(v: dict):
    """min(LR, Std AIS) variance / the largest ratio-AIS variance (all four paths)."""
    worst = np.max([np.asarray(v[m], dtype=float) for m in RATIO], axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.minimum(v["lr"], v["std_ais"]) / worst


def _gain_row(ctx, step, role, regime, table, reject: float, refused: str):
    s = _sample(ctx, step, role)
    st = s.regimes[regime]
    val, nz = s.value_and_noise(lambda W: variance_gain(st.variance(W)))
    doc_gain = float(variance_gain(dict(zip(METHODS, PAPER[table][(role, regime)], strict=True))))
    v = st.variance(s.ones)
    return Measured(
        val, reject=[reject], noise=nz, unit="resamples",
        note=f"{_doc_text(role, regime, table, '.2g')} (gain {doc_gain:.3g}); "
        f"{_ours(v, '.2g')}; {refused}",
    )  # fmt: skip


@STUDY.claim("C5.2")
def _(ctx):
    rows = _per_role(ctx, lambda role: _gain_row(ctx, "perturbed", role, "cheap", "t52v",
                                                 ORDER_OF_MAGNITUDE, ONE_ORDER))  # fmt: skip
    return rows + _nips_not_run(ctx)


@STUDY.claim("T5.2v-exp")
def _(ctx):
    return _per_role(ctx, lambda role: _gain_row(ctx, "perturbed", role, "expensive", "t52v",
                                                 ORDER_OF_MAGNITUDE, ONE_ORDER))  # fmt: skip


def _low_log10(v: dict, path: str):
    """log10 of the lower of a path's two directions' variances."""
    return np.log10(np.minimum(v[path], v[f"{path}_rev"]))


def path_variance_sides(role: str, sample, table: str, low: str, high: str) -> Sides:
    """Table 5.2/5.3 (top): log10 of path ``low``'s lower-variance direction below path
    ``high``'s in both regimes (T5.2v-geo: geometric below convex, "In this case, the
    geometric path had lower variance than the convex path"; T5.3v-convex: convex lowest).
    The lower direction is the reading under which the document's four rows of Table 5.2
    all hold it: per direction, or on the two directions' mean, NIPS cheap has the
    geometric path above the convex one (1.8 vs 1.3, mean 1.45 vs 1.4 x 10^-6)."""
    regimes = ("cheap", "expensive")

    def pairs(W):
        return [(_low_log10(sample.regimes[r].variance(W), low),
                 _low_log10(sample.regimes[r].variance(W), high)) for r in regimes]  # fmt: skip

    docs = [dict(zip(METHODS, PAPER[table][(role, r)], strict=True)) for r in regimes]
    dpairs = [(float(_low_log10(d, low)), float(_low_log10(d, high))) for d in docs]
    ours = "; ".join(f"{r}: {_ours(sample.regimes[r].variance(sample.ones), '.2g')}"
                     for r in regimes)  # fmt: skip
    name = {"geo": "geometric", "convex": "convex"}
    return bound_order(
        pairs, sample, dpairs, (f"log10 var {name[low]} (lower direction)",
                                f"log10 var {name[high]}"),
        "regimes (cheap, expensive)",
        f"document {role.upper()}: " + "; ".join(
            f"{r} {_vals(PAPER[table][(role, r)], '.2g')}" for r in regimes) + f"; {ours}",
        direction="<",
    )  # fmt: skip


@STUDY.claim("T5.2v-geo")
def _(ctx):
    return _per_role(ctx, lambda role: path_variance_sides(role, _sample(ctx, "perturbed", role),
                                                           "t52v", "geo", "convex"))  # fmt: skip


def pct_sides(role: str, regime: str, sample) -> Sides:
    """Table 5.1: the lowest ratio-AIS path above each baseline (runs pooled), by half the
    document's smallest gap. ACL expensive: above Std AIS only (LR is "similar" there:
    T5.1-exp-lr). A tie fails."""
    doc = PAPER["t51"][(role, regime)]
    base = ("std_ais",) if (role, regime) == ("acl", "expensive") else ("lr", "std_ais")
    st = sample.regimes[regime]

    def pairs(W):
        pc = st.pct(W)
        low = np.min([pc[m] for m in RATIO], axis=0)
        return [(low, pc[b]) for b in base]

    dlow = min(_d(doc, m) for m in RATIO)
    return bound_order(
        pairs, sample, [(dlow, _d(doc, b)) for b in base],
        labels=("min ratio-AIS %", "/".join(SHORT[b] for b in base) + " %"),
        unit="baselines", note=f"{_doc_text(role, regime, 't51', '.1f')}; "
        + _ours(st.pct(sample.ones), ".1f"),
    )  # fmt: skip


@STUDY.claim("C5.3")
def _(ctx):
    rows = _per_role(ctx, lambda role: pct_sides(role, "cheap", _sample(ctx, "perturbed", role)))
    return rows + _nips_not_run(ctx)


@STUDY.claim("T5.1-exp")
def _(ctx):
    return _per_role(ctx, lambda role: pct_sides(role, "expensive",
                                                 _sample(ctx, "perturbed", role)))  # fmt: skip


def similar_bound() -> tuple[float, float]:
    """T5.1-exp-lr: 'similar' is under half the smallest lead of the lowest ratio-AIS path
    over LR that the document's Table 5.1 reports where it calls ratio-AIS more accurate
    (NIPS cheap and expensive, ACL cheap): (that lead, half of it)."""
    leads = [min(_d(PAPER["t51"][k], m) for m in RATIO) - _d(PAPER["t51"][k], "lr")
             for k in (("nips", "cheap"), ("nips", "expensive"), ("acl", "cheap"))]  # fmt: skip
    return min(leads), min(leads) / 2


@STUDY.claim("T5.1-exp-lr")
def _(ctx):
    if "acl" not in ctx.settings.corpora:
        return NotRun("this run has no acl corpus role")
    s = _sample(ctx, "perturbed", "acl")
    st = s.regimes["expensive"]
    doc = PAPER["t51"][("acl", "expensive")]
    paper = abs(np.mean([_d(doc, m) for m in RATIO]) - _d(doc, "lr"))
    lead, bound = similar_bound()

    def gap(W):
        pc = st.pct(W)
        return np.abs(np.mean([pc[m] for m in RATIO], axis=0) - pc["lr"])

    val, nz = s.value_and_noise(gap)
    return Measured(
        val, tolerance=bound - paper, reject=[lead, _d(doc, "lr") - _d(doc, "std_ais")],
        noise=nz, unit="resamples", dataset=ctx.settings.corpora["acl"].dataset,
        data_kind=data_kind(ctx.settings.corpora, "acl"),
        note=f"document: |90.3 - 90.7| = {paper:.1f}; bound {bound:.3g} = half the smallest "
        f"lead of ratio-AIS over LR in the document's Table 5.1 ({lead:.3g}, NIPS expensive); "
        f"refused: that lead and LR's distance to Std AIS; {_ours(st.pct(s.ones), '.1f')}",
    )  # fmt: skip


def corpus_ratio_sides(role: str, regime: str, sample) -> Sides:
    """Table 5.2 bottom (direction "<", runs pooled): NIPS: mean ratio-AIS below LR and Std
    AIS; ACL: LR competitive, LR < mean ratio-AIS < Std AIS. Margin: half the document's
    smallest gap (none for ACL expensive, missing in the text)."""
    doc = PAPER["t52r"][(role, regime)]
    st = sample.regimes[regime]

    def pairs(W):
        cr = st.ratio(W)
        rat = np.mean([cr[m] for m in RATIO], axis=0)
        if role == "nips":
            return [(rat, cr["lr"]), (rat, cr["std_ais"])]
        return [(cr["lr"], rat), (rat, cr["std_ais"])]

    dpairs = []
    if doc is not None:
        drat = float(np.mean([_d(doc, m) for m in RATIO]))
        if role == "nips":
            dpairs = [(drat, _d(doc, "lr")), (drat, _d(doc, "std_ais"))]
        else:
            dpairs = [(_d(doc, "lr"), drat), (drat, _d(doc, "std_ais"))]
    names = ("mean ratio-AIS", "LR, Std") if role == "nips" else ("LR, ratio-AIS", "ratio-AIS, Std")
    note = f"{_doc_text(role, regime, 't52r', '.4g')}; {_ours(st.ratio(sample.ones), '.4f')}"
    if doc is None:
        note = f"margin 0: the document's cell is missing; {note}"
    return bound_order(pairs, sample, dpairs, names, "comparisons", note, direction="<")


@STUDY.claim("T5.2r-cheap")
def _(ctx):
    return _per_role(ctx, lambda r: corpus_ratio_sides(r, "cheap", _sample(ctx, "perturbed", r)))


@STUDY.claim("T5.2r-exp")
def _(ctx):
    return _per_role(
        ctx, lambda r: corpus_ratio_sides(r, "expensive", _sample(ctx, "perturbed", r))
    )


@STUDY.claim("C5.14")
def _(ctx):
    def one(role):
        s = _sample(ctx, "perturbed", role)

        def ratio(W):
            v = {r: st.variance(W) for r, st in s.regimes.items()}
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.minimum(*[v[r]["std_ais"] / v[r]["lr"] for r in v])

        val, nz = s.value_and_noise(ratio)
        per = {r: float(st.variance(s.ones)["std_ais"] / st.variance(s.ones)["lr"])
               for r, st in s.regimes.items()}  # fmt: skip
        return Measured(
            val, reject=[1.0], noise=nz, unit="resamples",
            note="Std AIS / LR variance: " + ", ".join(f"{k} {x:.3g}" for k, x in per.items())
            + "; refused: 1 (Std AIS no worse than LR)",
        )  # fmt: skip

    return _per_role(ctx, one)


def log_direction_gap(doc, fwd: str, rev: str) -> float:
    """log(forward corpus ratio / reverse) of a document's row (Table 5.2/5.3 bottom)."""
    return float(np.log(_d(doc, fwd) / _d(doc, rev)))


def bias_sides(role: str, sample) -> Sides:
    """C5.4a (Figs 5.4/5.5; Table 5.2 bottom, cheap): the geometric path's forward corpus
    ratio above its reverse's (the forward direction biased towards 'no difference', as the
    document's cheap rows show: NIPS 0.991 vs 0.989, ACL 0.985 vs 0.984), by half the
    document's gap."""
    doc = PAPER["t52r"][(role, "cheap")]
    st = sample.regimes["cheap"]
    cr = st.ratio(sample.ones)
    return bound_order(
        lambda W: [(st.ratio(W)["geo"], st.ratio(W)["geo_rev"])], sample,
        [(_d(doc, "geo"), _d(doc, "geo_rev"))], ("forward ratio (geometric)", "reverse ratio"),
        "path", f"{_doc_text(role, 'cheap', 't52r', '.4g')}; ours: geometric {cr['geo']:.5f}, "
        f"reverse {cr['geo_rev']:.5f}",
    )  # fmt: skip


@STUDY.claim("C5.4a")
def _(ctx):
    return _per_role(ctx, lambda role: bias_sides(role, _sample(ctx, "perturbed", role)))


def agreement_row(role: str, sample) -> Measured:
    """C5.4b (Figs 5.4/5.5; Table 5.2 bottom, expensive: 0.9897 on both paths and
    directions): the larger |log(forward / reverse corpus ratio)| of the two paths, within
    half the smallest bias the document's cheap rows show on either path (the effect the
    expensive regime removes); refused: that bias."""
    doc = PAPER["t52r"][(role, "cheap")]
    bias = min(abs(log_direction_gap(doc, "geo", "geo_rev")),
               abs(log_direction_gap(doc, "convex", "convex_rev")))  # fmt: skip
    st = sample.regimes["expensive"]

    def gap(W):
        cr = st.ratio(W)
        return np.maximum(np.abs(np.log(cr["geo"] / cr["geo_rev"])),
                          np.abs(np.log(cr["convex"] / cr["convex_rev"])))  # fmt: skip

    val, nz = sample.value_and_noise(gap)
    cr = st.ratio(sample.ones)
    return Measured(
        val, tolerance=bias / 2, reject=[bias], noise=nz, unit="resamples",
        note=f"tolerance {bias / 2:.3g} = half the smallest cheap-regime bias of the document "
        f"({role.upper()}, log {bias:.3g}); refused: that bias; ours, expensive: "
        + ", ".join(f"{SHORT[m]} {cr[m]:.5f}" for m in RATIO),
    )  # fmt: skip


@STUDY.claim("C5.4b")
def _(ctx):
    return _per_role(ctx, lambda role: agreement_row(role, _sample(ctx, "perturbed", role)))


@STUDY.claim("C5.6")
def _(ctx):
    def one(role):
        s = _sample(ctx, "perturbed", role)
        st = s.regimes["expensive"]

        def spread(W):
            cr = st.ratio(W)
            four = np.array([cr[m] for m in RATIO])
            return four.max(axis=0) - four.min(axis=0)

        val, nz = s.value_and_noise(spread)
        cheap = [PAPER["t52r"][(role, "cheap")][METHODS.index(m)] for m in RATIO]
        dspread = float(max(cheap) - min(cheap))
        cr = st.ratio(s.ones)
        return Measured(
            val, reject=[dspread], noise=nz, unit="resamples",
            note="spread of the four corpus ratios: "
            + ", ".join(f"{float(cr[m]):.5f}" for m in RATIO)
            + f"; refused: {dspread:.3g}, the document's cheap-regime spread ({role.upper()})",
        )  # fmt: skip

    return _per_role(ctx, one)


# ------------------------------------------------------------------ Fig 5.6
def _ntemps(ctx):
    nt = ctx.csv("ntemps")
    where = dict(
        dataset=ctx.settings.corpora[NTEMPS_ROLE].dataset,
        data_kind=data_kind(ctx.settings.corpora, NTEMPS_ROLE),
    )
    return nt, nt.n_temps.min(), nt.n_temps.max(), where


def ntemps_gaps(nt: pd.DataFrame) -> tuple[pd.DataFrame, float]:
    """Per n: ratio = mean of the two ratio-AIS directions, gap = ratio - Std AIS and its
    SE; spread of the three means and its combined SE (from the S importance samples); the
    effect = |ratio-AIS estimate at the largest n|."""
    rows = []
    for n, g in nt.groupby("n_temps"):
        g = g.set_index("method")
        se2 = g["sd"] ** 2 / g["S"]
        ratio = (g.loc["geo", "mean"] + g.loc["geo_rev", "mean"]) / 2
        rows.append(
            dict(
                n=int(n),
                S=int(g["S"].min()),
                ratio=float(ratio),
                std_ais=float(g.loc["std_ais", "mean"]),
                gap=float(ratio - g.loc["std_ais", "mean"]),
                gap_se=float(np.sqrt((se2["geo"] + se2["geo_rev"]) / 4 + se2["std_ais"])),
                spread=float(g["mean"].max() - g["mean"].min()),
                spread_se=float(np.sqrt(se2.sum())),
            )
        )
    t = pd.DataFrame(rows).sort_values("n").reset_index(drop=True)
    return t, abs(float(t.ratio.iloc[-1]))


@STUDY.claim("C5.5a")
def _(ctx):
    nt, _, _, where = _ntemps(ctx)
    t, effect = ntemps_gaps(nt)
    margin = ctx.settings.claims.effect_rel * effect
    low = t.iloc[0]
    above = t[t.gap + 2 * t.gap_se < 0]
    return Sides(
        [low.ratio], [low.std_ais], labels=(f"ratio-AIS at n={int(low.n)}", "Std AIS"),
        margin=margin, unit="importance samples",
        noise=Noise(float(low.gap_se), int(low.S),
                    f"Fig 5.6 at n = {int(low.n)} (the gap's standard error)"),
        note=f"margin {margin:.3g} = {ctx.settings.claims.effect_rel:g} x effect {effect:.3g}; "
        "ratio-AIS minus Std AIS (+- 2 SE) per n: "
        + ", ".join(f"n={r.n}: {r.gap:.3g} +- {2 * r.gap_se:.2g}" for r in t.itertuples())
        + ("; Std AIS significantly above ratio-AIS at n = "
           + ", ".join(str(n) for n in above.n) if len(above) else
           "; Std AIS never significantly above ratio-AIS"),
        **where,
    )  # fmt: skip


@STUDY.claim("C5.5b")
def _(ctx):
    nt, _, nmax, where = _ntemps(ctx)
    t, effect = ntemps_gaps(nt)
    hi = t.iloc[-1]
    tol = ctx.settings.claims.effect_rel * effect
    return Measured(
        float(hi.spread),
        tolerance=tol,
        noise=Noise(
            float(hi.spread_se),
            int(hi.S),
            f"Fig 5.6 at n = {nmax} (the three means' combined standard error)",
        ),
        unit="importance samples",
        note=f"at n={nmax} (document: >= 20,000); tolerance {ctx.settings.claims.effect_rel:g} "
        f"x effect {effect:.3g}; spread +- 2 SE per n: "
        + ", ".join(f"{r.n}: {r.spread:.3g} +- {2 * r.spread_se:.2g}" for r in t.itertuples()),
        **where,
    )


# ------------------------------------------------------------------ asymmetric vs symmetric
def correlation_sides(role: str, regime: str, sample) -> Sides:
    """Table 5.3 bottom (the first run against the long LR run). Cheap (C5.7a): the best
    ratio-AIS path above LR and Std AIS. Expensive (T5.3c-exp, the document's numbers):
    LR above every ratio-AIS path, every ratio-AIS path above Std AIS."""
    doc = pd.Series(PAPER["t53c"][(role, regime)], index=METHODS)
    st = sample.regimes[regime]

    def pairs(W):
        c = st.corr(W)
        hi = np.max([c[m] for m in RATIO], axis=0)
        lo = np.min([c[m] for m in RATIO], axis=0)
        if regime == "cheap":
            return [(hi, c["lr"]), (hi, c["std_ais"])]
        return [(c["lr"], hi), (lo, c["std_ais"])]

    dhi, dlo = max(doc[m] for m in RATIO), min(doc[m] for m in RATIO)
    if regime == "cheap":
        dpairs = [(dhi, doc["lr"]), (dhi, doc["std_ais"])]
        labels = ("max ratio-AIS corr", "LR, Std corr")
    else:
        dpairs = [(doc["lr"], dhi), (dlo, doc["std_ais"])]
        labels = ("LR, min ratio-AIS corr", "max ratio-AIS, Std corr")
    return bound_order(pairs, sample, dpairs, labels, "comparisons",
                       f"{_doc_text(role, regime, 't53c', '.3f')}; "
                       + _ours(st.corr(sample.ones), ".3f"))  # fmt: skip


@STUDY.claim("C5.7a")
def _(ctx):
    rows = _per_role(ctx, lambda r: correlation_sides(r, "cheap", _sample(ctx, "symasym", r)))
    return rows + _nips_not_run(ctx)


@STUDY.claim("T5.3c-exp")
def _(ctx):
    return _per_role(ctx, lambda r: correlation_sides(r, "expensive", _sample(ctx, "symasym", r)))


@STUDY.claim("C5.7b")
def _(ctx):
    return _per_role(ctx, lambda role: _gain_row(ctx, "symasym", role, "cheap", "t53v",
                                                 1.0, NO_GAIN))  # fmt: skip


@STUDY.claim("T5.3v-exp")
def _(ctx):
    return _per_role(ctx, lambda role: _gain_row(ctx, "symasym", role, "expensive", "t53v",
                                                 1.0, NO_GAIN))  # fmt: skip


@STUDY.claim("T5.3v-convex")
def _(ctx):
    return _per_role(ctx, lambda role: path_variance_sides(role, _sample(ctx, "symasym", role),
                                                           "t53v", "convex", "geo"))  # fmt: skip


def direction_sides(role: str, regime: str, sample) -> Sides:
    """Table 5.3 (middle): forward corpus ratio above reverse on both paths (runs pooled),
    by half the document's smallest fwd - rev gap (C5.7c cheap, T5.3r-exp expensive)."""
    doc = PAPER["t53r"][(role, regime)]
    st = sample.regimes[regime]

    def pairs(W):
        cr = st.ratio(W)
        return [(cr["geo"], cr["geo_rev"]), (cr["convex"], cr["convex_rev"])]

    dpairs = [(_d(doc, "geo"), _d(doc, "geo_rev")), (_d(doc, "convex"), _d(doc, "convex_rev"))]
    return bound_order(pairs, sample, dpairs, ("forward ratio", "reverse ratio"), "paths",
                       f"{_doc_text(role, regime, 't53r', '.3g')}; "
                       + _ours(st.ratio(sample.ones), ".4f"))  # fmt: skip


@STUDY.claim("C5.7c")
def _(ctx):
    return _per_role(ctx, lambda role: direction_sides(role, "cheap",
                                                       _sample(ctx, "symasym", role)))  # fmt: skip


@STUDY.claim("T5.3r-exp")
def _(ctx):
    return _per_role(ctx, lambda role: direction_sides(role, "expensive",
                                                       _sample(ctx, "symasym", role)))  # fmt: skip


FORWARD_DETECTED = ("lr", "std_ais", "geo_rev", "convex_rev")


def forward_no_advantage(role: str, sample) -> Measured:
    """Table 5.3 (middle), cheap regime, "the forward direction of annealing did not detect
    an overall advantage to the asymmetric hyper-parameter model": the lower forward corpus
    ratio of the two paths (runs pooled) at or above 1 (no advantage), within half the
    smallest advantage the document's other estimators detected in the same row (1 - their
    largest ratio: NIPS 1 - 0.994, ACL 1 - 0.988); refused: their ratios (the document's
    forward numbers are 1.01, 1.01 on NIPS and 1.00, 1.00 on ACL)."""
    st = sample.regimes["cheap"]
    doc = PAPER["t53r"][(role, "cheap")]
    detected = [_d(doc, m) for m in FORWARD_DETECTED]
    tol = (1.0 - max(detected)) / 2
    val, nz = sample.value_and_noise(lambda W: np.minimum(st.ratio(W)["geo"],
                                                          st.ratio(W)["convex"]))  # fmt: skip
    cr = st.ratio(sample.ones)
    return Measured(
        val, paper_value=1.0, tolerance=tol, reject=detected, noise=nz, unit="resamples",
        note=f"forward: geometric {cr['geo']:.4f}, convex {cr['convex']:.4f}; tolerance "
        f"{tol:.3g} = half of 1 - {max(detected):g}; refused: "
        + ", ".join(f"{SHORT[m]} {_d(doc, m):g}" for m in FORWARD_DETECTED)
        + f"; {_doc_text(role, 'cheap', 't53r', '.3g')}",
    )  # fmt: skip


@STUDY.claim("C5.7d")
def _(ctx):
    return _per_role(ctx, lambda role: forward_no_advantage(role, _sample(ctx, "symasym", role)))


# ------------------------------------------------------------------ iteration-AIS
EVIDENCE = (
    "the weights are unbiased for the exact likelihood at every snapshot "
    "(tests/evaluation/ais/test_ais_unbiased.py); with S=1 (the document's, fn 6) the log "
    "estimate is low by about Var(log w)/2, accumulated over the links; see "
    "published/real/REVERSALS.md (case 4)"
)
BASELINES = ("std_ais", "lr")


class IterStats:
    """Per-document curves of the iteration step's raw results (Figs 5.7-5.10): for every
    (method, n) the mean over runs (``M``, documents x snapshots) and the run-to-run variance
    (``V``), so each statistic of the figures is a function of document weights ``W`` (ones:
    the figures' numbers; a bootstrap resample of the documents: its Noise). The later half
    is the snapshots after half the last training iteration (the same snapshots whichever
    the first is: train.first_snapshot)."""

    def __init__(self, df: pd.DataFrame, seed: int, B: int = B_BOOT):
        self.iters = np.sort(df.iteration.unique())
        self.docs = np.sort(df.doc.unique())
        self.late = self.iters > self.iters[-1] / 2
        self.n_small, self.n_big = int(df.n_temps.min()), int(df.n_temps.max())
        self.M, self.V = {}, {}
        for (m, n), g in df.groupby(["method", "n_temps"]):
            mean = g.groupby(["doc", "iteration"])["loglik"].mean().unstack()
            var = g.groupby(["doc", "iteration"])["loglik"].var(ddof=1).unstack()
            self.M[(m, int(n))] = mean.reindex(index=self.docs, columns=self.iters).to_numpy()
            self.V[(m, int(n))] = var.reindex(index=self.docs, columns=self.iters).to_numpy()
        self.runs = int(df.run.nunique())
        self.D = len(self.docs)
        self.W = boot_weights(self.D, B, seed)
        self.ones = np.ones(self.D)
        self.source = (f"a bootstrap over the {self.D} test documents of the iteration step, "
                       f"{self.runs} runs pooled")  # fmt: skip

    def curve(self, W, m, n):
        """Mean log-likelihood per document at every snapshot: () x I or (B, I)."""
        W = np.asarray(W, dtype=float)
        return (W @ self.M[(m, n)]) / W.sum(axis=-1)[..., None]

    def var_curve(self, W, m, n):
        W = np.asarray(W, dtype=float)
        return (W @ self.V[(m, n)]) / W.sum(axis=-1)[..., None]

    def dip(self, W, m, n):
        """Late dip of the mean curve: its maximum minus its final value."""
        c = self.curve(W, m, n)
        return c.max(axis=-1) - c[..., -1]

    def value_and_noise(self, stat):
        return float(stat(self.ones)), boot_noise(stat(self.W), self.source)


def _iter_stats(ctx, role) -> IterStats:
    return ctx._cached(
        ("iter", role),
        lambda: IterStats(
            ctx.csv(f"iteration_{role}"), ctx.seed(tag_offset("claims_boot", "iteration", role))
        ),
    )


def _late(st: IterStats) -> str:
    it = st.iters[st.late]
    return f"{it[0]}-{it[-1]}"


def _halves(st: IterStats) -> str:
    it = st.iters
    return f"snapshots {it[~st.late][0]}-{it[~st.late][-1]} vs {it[st.late][0]}-{it[-1]}"


def late_gap(st: IterStats):
    """C5.8a's statistic at weights W: iteration-AIS at n minus the better baseline at 10n,
    mean log-likelihood per document over the later half of the snapshots."""

    def stat(W):
        it = st.curve(W, "iteration_ais", st.n_small)[..., st.late].mean(axis=-1)
        base = np.max([st.curve(W, b, st.n_big)[..., st.late].mean(axis=-1) for b in BASELINES],
                      axis=0)  # fmt: skip
        return it - base

    return stat


@STUDY.claim("C5.8a")
def _(ctx):
    def one(role):
        st = _iter_stats(ctx, role)
        val, nz = st.value_and_noise(late_gap(st))
        parts = ", ".join(
            f"{m}@{n} {float(st.curve(st.ones, m, n)[st.late].mean()):.2f}"
            for m in ("iteration_ais", *BASELINES) for n in (st.n_small, st.n_big))  # fmt: skip
        return Measured(
            val, noise=nz, unit="resamples",
            note=f"mean LL per doc over the later half (snapshots {_late(st)}); n={st.n_small}, "
            f"10n={st.n_big}: {parts}; {EVIDENCE}",
        )  # fmt: skip

    return _per_role(ctx, one) + _nips_not_run(ctx)


def variance_sides(st: IterStats) -> Sides:
    """C5.8b (Figs 5.9/5.10): log10 of iteration-AIS's run-to-run variance (per document,
    averaged over documents and snapshots) below each baseline's at the same n. Margin 0:
    the figures give no values."""

    def lv(W, m, n):
        return np.log10(st.var_curve(W, m, n).mean(axis=-1))

    def pairs(W):
        return [(lv(W, "iteration_ais", n), lv(W, b, n))
                for n in (st.n_small, st.n_big) for b in BASELINES]  # fmt: skip

    note = "; ".join(
        f"{m}@{n} {10 ** float(lv(st.ones, m, n)):.3g}"
        for m in ("iteration_ais", *BASELINES)
        for n in (st.n_small, st.n_big)
    )
    return bound_order(pairs, st, [], ("log10 var iteration-AIS", "log10 var Std AIS, LR"),
                       "(n, baseline)", f"margin 0: Figs 5.9/5.10 give no values; variance: "
                       f"{note}; {EVIDENCE}", direction="<")  # fmt: skip


@STUDY.claim("C5.8b")
def _(ctx):
    return _per_role(ctx, lambda role: variance_sides(_iter_stats(ctx, role)))


def late_variance_sides(st: IterStats) -> Sides:
    """Figs 5.9/5.10, "all methods exhibited higher variance in the likelihood estimates
    for later learning iterations": per (method, n), log10 of the run-to-run variance per
    document averaged over documents and over the later half of the snapshots (a) against
    the earlier half (b); the binding (method, n) is the row. Margin 0: the figures give
    no values."""

    def lv(W, m, n, mask):
        return np.log10(st.var_curve(W, m, n)[..., mask].mean(axis=-1))

    keys = [k for k in sorted(st.V)]

    def pairs(W):
        return [(lv(W, m, n, st.late), lv(W, m, n, ~st.late)) for m, n in keys]

    parts = ", ".join(
        f"{m}@{n} {10 ** float(lv(st.ones, m, n, ~st.late)):.3g} -> "
        f"{10 ** float(lv(st.ones, m, n, st.late)):.3g}"
        for m, n in keys
    )
    return bound_order(pairs, st, [], ("log10 var, later half", "log10 var, earlier half"),
                       "(method, n)", f"margin 0: Figs 5.9/5.10 give no values; {_halves(st)}: "
                       + parts)  # fmt: skip


@STUDY.claim("C5.8c")
def _(ctx):
    return _per_role(ctx, lambda role: late_variance_sides(_iter_stats(ctx, role)))


def dip_rank_sides(st: IterStats) -> Sides:
    """C5.9 (Figs 5.7/5.8), "the baselines reported decreasing held-out likelihood in later
    iterations of the learning algorithm, while iteration-AIS did not": iteration-AIS's dip
    (max - final mean LL at n) below each baseline's. Margin 0: the figures give no values."""

    def pairs(W):
        d_it = st.dip(W, "iteration_ais", st.n_small)
        return [(d_it, st.dip(W, b, st.n_small)) for b in BASELINES]

    dips = ", ".join(f"{m} {float(st.dip(st.ones, m, st.n_small)):.3g}"
                     for m in ("iteration_ais", *BASELINES))  # fmt: skip
    return bound_order(pairs, st, [], ("iteration-AIS dip", "Std AIS, LR dip"), "baselines",
                       f"margin 0: Figs 5.7/5.8 give no values; dip = max - final mean LL at "
                       f"n={st.n_small}: {dips}; {EVIDENCE}", direction="<")  # fmt: skip


@STUDY.claim("C5.9")
def _(ctx):
    return _per_role(ctx, lambda role: dip_rank_sides(_iter_stats(ctx, role)))


def dip_sides(st: IterStats) -> Sides:
    """Figs 5.7/5.8, "the dip in likelihood was smaller with increased computation": each
    baseline's dip (as C5.9: max - final mean LL) with 10n temperatures (a) below its dip
    with n (b). Margin 0: the figures give no values."""

    def pairs(W):
        return [(st.dip(W, b, st.n_big), st.dip(W, b, st.n_small)) for b in BASELINES]

    parts = ", ".join(f"{b} {float(st.dip(st.ones, b, st.n_small)):.3g} (n={st.n_small}) -> "
                      f"{float(st.dip(st.ones, b, st.n_big)):.3g} (n={st.n_big})"
                      for b in BASELINES)  # fmt: skip
    return bound_order(pairs, st, [], (f"dip at n={st.n_big}", f"dip at n={st.n_small}"),
                       "baselines (Std, LR)", "margin 0: Figs 5.7/5.8 give no values; dip = "
                       f"max - final mean LL: {parts}", direction="<")  # fmt: skip


@STUDY.claim("C5.9b")
def _(ctx):
    return _per_role(ctx, lambda role: dip_sides(_iter_stats(ctx, role)))


# ------------------------------------------------------------------ Fig 5.11
JUMP_WINDOW = 10  # iterations: the study's snapshot spacing (ours; the document gives none)


def jump_ratio(st: pd.DataFrame, col: str, opt_iter: int, w: int = JUMP_WINDOW) -> dict:
    """Change of ``col`` over the ``w`` iterations after the first optimisation,
    |x(opt + w) - x(opt)|, against the median |x(t + w) - x(t)| for t in
    [opt - 50, opt - w] (before it). The column is computed at the fixed initial beta, so
    the re-optimised beta's smoothing cannot make the jump by construction (issue 21); the
    optimisation runs at the end of sweep ``opt``, so its effect on the counts starts at
    opt + 1. ``null_sd``: the spread of the same ratio over the windows before (what the
    ratio is without a jump), ``n_before`` their number."""
    x = st.set_index("iteration")[col]
    after = abs(float(x.get(opt_iter + w, np.nan) - x.get(opt_iter, np.nan)))
    ts = [t for t in range(opt_iter - 50, opt_iter - w + 1) if t in x.index and t + w in x.index]
    changes = np.array([abs(x[t + w] - x[t]) for t in ts])
    before = float(np.median(changes)) if ts else np.nan
    ratio = after / before if before and before > 0 else float("inf")
    null = changes / before if before and before > 0 else np.array([])
    null_sd = float(np.std(null, ddof=1)) if len(null) >= 3 else math.nan
    return {"ratio": float(ratio), "after": after, "before": before, "null_sd": null_sd,
            "n_before": len(null)}  # fmt: skip


def _jump(ctx, col: str, what: str):
    """One row per role (Fig 5.11): :func:`jump_ratio` of the fixed-beta ``col``."""
    tp = ctx.settings.train
    opt_iter = (tp.optimize_burn_in // tp.optimize_interval + 1) * tp.optimize_interval
    rows = []
    for role in sorted(ctx.settings.corpora):
        path = ctx.input(f"models_{role}")
        st = stats_frame(load_models(path), path)
        j = jump_ratio(st, f"{col}_fixed_beta", opt_iter)
        cur = jump_ratio(st, col, opt_iter)
        nz = None
        if math.isfinite(j["null_sd"]):
            nz = Noise(
                j["null_sd"],
                j["n_before"],
                f"the {JUMP_WINDOW}-iteration changes of the 50 iterations before "
                f"iteration {opt_iter}, over their median (the ratio without a jump)",
            )
        rows.append(
            Measured(
                j["ratio"],
                reject=[1.0],  # no jump: the change after as large as the usual change
                noise=nz,
                unit="windows",
                dataset=ctx.settings.corpora[role].dataset,
                data_kind=data_kind(ctx.settings.corpora, role),
                statement=f"{what} jumps at the first hyperparameter optimisation "
                f"(iteration {opt_iter} under burn-in/interval), at a fixed beta",
                note=f"at the fixed initial beta = {tp.beta:g}: |change over the "
                f"{JUMP_WINDOW} iterations after {opt_iter}| = {j['after']:.4g} vs median "
                f"{JUMP_WINDOW}-iteration change before = {j['before']:.4g} (threshold 5 is "
                f"ours); with the re-optimised beta, same window: "
                f"{cur['ratio']:.3g}; refused: 1 (no jump)",
            )
        )
    return rows


@STUDY.claim("C5.10")
def _(ctx):
    return _jump(ctx, "entropy", "topic entropy")


@STUDY.claim("C5.10b")
def _(ctx):
    return _jump(ctx, "log_prior", "log prior probability of the topics")


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
