"""claims.csv for chapter 5 (C5.1-C5.13, our numbering of the chapter's checkable
statements; ``where`` gives the thesis's section, figure or table): the claims as data and one
small function per claim.

Exact claims (C5.1, C5.11-C5.13) are recomputed here against the exact DP on tiny
synthetic documents; the others read the raw per-document results of the study.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, Sides
from latentlab.evaluation import ais
from latentlab.studies.shape import derive_seed

from .results import METHODS, load_models, stats_frame
from .study import NTEMPS_ROLE, STUDY, ClaimsSettings, Tolerances, data_kind, tag_offset
from .tables import corpus_ratio, doc_variance, pct_prefer

SYN = "tiny synthetic documents (exact DP)"
RATIO = ("geo", "geo_rev", "convex", "convex_rev")


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
        statement="left-to-right converges to the exact log P(w|Phi,alpha)",
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
        where="Figs 5.4/5.5",
        statement=(
            "cheap regime: forward and reverse ratio-AIS disagree systematically (a "
            "detected bias; geometric path, paired t-test over documents)"
        ),
        paper_value="paired p < 0.05",
        how="true",
        group="perturbed",
    ),
    Claim(
        "C5.4b",
        where="Figs 5.4/5.5",
        statement=(
            "expensive regime: forward and reverse ratio-AIS agree (both paths: no "
            "significant fwd-rev difference and its 95% interval within claims.effect_rel "
            "of the mean log-ratio)"
        ),
        paper_value="p >= 0.05 and |95% CI| <= effect_rel x |effect|",
        how="true",
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
            "expensive regime, ACL: ratio-AIS similar to LR (|mean ratio-AIS % - LR %|, "
            "tolerance claims.pct_similar points)"
        ),
        paper_value=0.4,
        how="abs",
        tolerance="claims.pct_similar",
        group="perturbed",
        note=(
            "document: |90.3 - 90.7| = 0.4; refused: 15.5, LR's distance to Std AIS (the "
            "spread of the column; the tolerance is at most half of it)"
        ),
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
            "standard AIS underestimates the model difference: below both ratio-AIS "
            "directions by more than claims.effect_rel of the effect (95% bound) at the "
            "smallest n, and never significantly above them at any n of the grid"
        ),
        paper_value="Std AIS < ratio-AIS (few temperatures)",
        how="true",
    ),
    Claim(
        "C5.5b",
        where="Fig 5.6",
        statement=(
            "at many temperatures both ratio-AIS directions and standard AIS agree: "
            "spread of the three means + 2 x combined SE at the largest n, within "
            "claims.effect_rel of the effect (the ratio-AIS estimate there)"
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
        statement=("ratio-AIS has 1-2 orders of magnitude lower variance, convex path lowest"),
        paper_value="convex variance < geometric variance < LR, Std AIS",
        how="true",
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
        statement="expensive regime: ratio-AIS variance below LR and Std AIS, convex lowest",
        paper_value="see row",
        how="true",
        group="symasym",
    ),
    Claim(
        "T5.3r-exp",
        where="Table 5.3 (middle)",
        statement="expensive regime: forward corpus ratio >= reverse (both paths)",
        paper_value="see row",
        how="true",
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
        statement=("iteration-AIS has lower run-to-run variance than the baselines"),
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
            "learning iterations': per method and budget, the mean run-to-run variance over "
            "the later half of the snapshots above the earlier half's"
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


def _scenario(ctx, role: str, regime: str, table: str, fmt: str, ordering: str) -> dict:
    """Row fields naming the scenario, with the document's numbers beside the ordering."""
    doc = PAPER[table][(role, regime)]
    docs = _vals(doc, fmt) if doc is not None else MISSING_T52R_ACL_EXP
    return dict(paper_value=f"{ordering} (document {role.upper()} {regime}: {docs})")


def _ours(series, fmt: str) -> str:
    return "ours: " + _vals([series[m] for m in METHODS], fmt)


def _per_role_regime(ctx, step, regime, table, fmt, fn, numeric=False):
    """One row per role of ``step``'s raw results in ``regime``: fn(role, frame, raw) ->
    (Measured, ordering); the document's row of ``table`` is put beside ours (in the
    paper value, or for a ``numeric`` claim in the note)."""

    def one(role):
        df = ctx.csv(f"{step}_{role}")
        m, ordering = fn(role, df[df.regime == regime], df)
        fields = _scenario(ctx, role, regime, table, fmt, ordering)
        if numeric or isinstance(m, Sides):
            m.note = f"{fields['paper_value']}; {m.note}"
        else:
            m.paper_value = fields["paper_value"]
        m.dataset = ctx.settings.corpora[role].dataset
        m.data_kind = data_kind(ctx.settings.corpora, role)
        return m

    return [one(role) for role in sorted(ctx.settings.corpora)]


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
    out["lr_two_tokens"] = np.abs(
        ais.left_to_right(ma, [d[:2] for d in docs], R=20000, seed=seed).log_lik
        - E(ma, [d[:2] for d in docs])
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
    out["effect_ac"] = np.abs(ea - ec).mean()  # C5.12: the a-c ratio
    out["effect_mp"] = np.abs(E(ma) - E(mp)).mean()  # C5.11: the ratio S=1/S=100 estimate
    out["effect_completion"] = abs(exact)  # C5.13
    return {k: float(v) for k, v in out.items()}


def _exact(ctx) -> dict:
    """The exact checks, computed once per claims step."""
    ex = ctx.settings.exact
    return ctx._cached(
        ("exact",),
        lambda: exact_checks(
            ctx.seed(tag_offset("exact")), ex.n_temps, ex.S, ex.long_temps, ex.S_many
        ),
    )


def _exact_row(ctx, key: str, effect: str, what: str, note: str = "") -> Measured:
    """An exact-DP check with the effect it must resolve as the value to refuse."""
    ex = _exact(ctx)
    e = ex[effect]
    return Measured(
        ex[key],
        reject=[e],
        note="; ".join(x for x in (note, f"refused: {e:.3g} = mean |{what}| (an estimator "
                                          "that confused the models errs by it)") if x),
    )  # fmt: skip


for _est in EXACT_ESTIMATORS:
    STUDY.claim(f"C5.1-{_est}")(
        lambda ctx, est=_est: _exact_row(ctx, est, "effect_ab", "log P_a - log P_b")
    )


@STUDY.claim("C5.1-lr")
def _(ctx):
    ex = _exact(ctx)
    return _exact_row(
        ctx, "lr", "effect_ab", "log P_a - log P_b",
        note=f"R=2000 particles; Wallach's LR (one resampling sweep per position) is exact "
        f"for N<=2 (max error there {ex['lr_two_tokens']:.3g}) but not consistent in R "
        "for longer documents (Buntine 2009); the residual is a bias, not MC noise",
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


def _per_role(ctx, step, fn):
    """One row per corpus role (in role order): fn(raw frame) -> Measured."""
    rows = []
    for role in sorted(ctx.settings.corpora):
        m = fn(ctx.csv(f"{step}_{role}"))
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


# ------------------------------------------------------------------ learned vs perturbed
ONE_ORDER = (
    "; refused: 10, one order of magnitude (Table 5.3's 'one to two orders' has 10.6-13.3; "
    "Table 5.2's 'orders of magnitude' has 105-1333)"
)


def _var_ratio(g):
    v = doc_variance(g)
    rat_var = max(v[m] for m in RATIO)
    base_var = min(v["lr"], v["std_ais"])
    return v, float(base_var / rat_var) if rat_var > 0 else float("inf")


@STUDY.claim("C5.2")
def _(ctx):
    def fn(role, g, _):
        v, r = _var_ratio(g)
        return Measured(r, reject=[ORDER_OF_MAGNITUDE], note=_ours(v, ".2g") + ONE_ORDER), (
            "ratio >= 100"
        )

    rows = _per_role_regime(ctx, "perturbed", "cheap", "t52v", ".2g", fn, numeric=True)
    return rows + _nips_not_run(ctx)


@STUDY.claim("T5.2v-exp")
def _(ctx):
    def fn(role, g, _):
        v, r = _var_ratio(g)
        return Measured(r, reject=[ORDER_OF_MAGNITUDE], note=_ours(v, ".2g") + ONE_ORDER), (
            "ratio >= 100"
        )

    return _per_role_regime(ctx, "perturbed", "expensive", "t52v", ".2g", fn, numeric=True)


def _d(doc, m) -> float:
    return float(doc[METHODS.index(m)])


def _low_log10(v, path: str) -> float:
    """log10 of the lower of a path's two directions' variances."""
    return float(np.log10(min(float(v[path]), float(v[f"{path}_rev"]))))


def path_variance_sides(role: str, by_regime: dict) -> Sides:
    """Table 5.2 (top), "the geometric path had lower variance than the convex path": per
    regime (``by_regime``: regime -> variance per method), log10 of each path's
    lower-variance direction, geometric below convex by half the document's smallest gap
    (log10, so one margin serves both regimes). The lower direction is the reading under
    which the document's four rows all hold it: per direction, or on the two directions'
    mean, NIPS cheap has the geometric path above the convex one (1.8 vs 1.3, mean 1.45
    vs 1.4 x 10^-6)."""
    pairs = [(_low_log10(v, "geo"), _low_log10(v, "convex")) for v in by_regime.values()]
    docs = [pd.Series(PAPER["t52v"][(role, r)], index=METHODS) for r in by_regime]
    dpairs = [(_low_log10(d, "geo"), _low_log10(d, "convex")) for d in docs]
    ours = "; ".join(f"{r}: {_ours(v, '.2g')}" for r, v in by_regime.items())
    return order_sides(
        pairs, dpairs, ("log10 var geometric (lower direction)", "log10 var convex"),
        unit="regimes (" + ", ".join(by_regime) + ")", direction="<",
        note=f"document {role.upper()}: " + "; ".join(
            f"{r} {_vals(PAPER['t52v'][(role, r)], '.2g')}" for r in by_regime) + f"; {ours}",
    )  # fmt: skip


@STUDY.claim("T5.2v-geo")
def _(ctx):
    rows = []
    for role in sorted(ctx.settings.corpora):
        df = ctx.csv(f"perturbed_{role}")
        s = path_variance_sides(
            role, {r: doc_variance(df[df.regime == r]) for r in ("cheap", "expensive")}
        )
        s.dataset = ctx.settings.corpora[role].dataset
        s.data_kind = data_kind(ctx.settings.corpora, role)
        rows.append(s)
    return rows


def order_sides(pairs, doc_pairs, labels, unit: str, note: str, direction: str = ">"):
    """Sides of "A ``direction`` B" over several comparisons at once (Tables 5.1-5.3):
    ``pairs`` are our (a, b) values, ``doc_pairs`` the document's for the same comparisons.
    The margin is half the document's smallest gap (issue 21: never wider than any effect
    judged) and the document's two sides are those of that binding comparison. A document
    without the cell (Table 5.2 bottom, ACL expensive) gives margin 0 and no sides."""
    a = [float(x) for x, _ in pairs]
    b = [float(y) for _, y in pairs]
    if not doc_pairs:
        return Sides(a, b, labels=labels, margin=0.0, unit=unit,
                     note=f"margin 0: the document's cell is missing; {note}")  # fmt: skip
    gaps = [(pa - pb) if direction == ">" else (pb - pa) for pa, pb in doc_pairs]
    i = int(np.argmin(gaps))
    if gaps[i] <= 0:
        raise ValueError(f"the document's own sides {doc_pairs[i]} do not hold its ordering")
    return Sides(
        a, b, paper_a=doc_pairs[i][0], paper_b=doc_pairs[i][1], labels=labels,
        margin=gaps[i] / 2, unit=unit,
        note=f"margin {gaps[i] / 2:.3g} = half the document's smallest gap; {note}",
    )  # fmt: skip


def pct_by_run(g) -> pd.DataFrame:
    """% of documents preferring model 1 per (run, method): Table 5.1 per run."""
    pc = g.groupby(["method", "run"])["perp_ratio"].apply(lambda x: 100 * (x < 1).mean())
    return pc.unstack("method")


def pct_sides(role: str, regime: str, byrun: pd.DataFrame) -> Sides:
    """Table 5.1: the lowest ratio-AIS path above each baseline, in every run, by half the
    document's smallest gap. ACL expensive: above Std AIS only (LR is "similar" there:
    T5.1-exp-lr). A tie fails."""
    doc = PAPER["t51"][(role, regime)]
    base = ("std_ais",) if (role, regime) == ("acl", "expensive") else ("lr", "std_ais")
    low = byrun[list(RATIO)].min(axis=1)
    pairs = [(low[r], byrun.loc[r, b]) for b in base for r in byrun.index]
    dlow = min(_d(doc, m) for m in RATIO)
    return order_sides(
        pairs, [(dlow, _d(doc, b)) for b in base],
        labels=("min ratio-AIS %", "/".join(SHORT[b] for b in base) + " %"),
        unit="(baseline, run)", note=_ours(byrun.mean(), ".1f"),
    )  # fmt: skip


@STUDY.claim("C5.3")
def _(ctx):
    def fn(role, g, _):
        return pct_sides(role, "cheap", pct_by_run(g)), "min ratio-AIS % > LR %, Std AIS %"

    return _per_role_regime(ctx, "perturbed", "cheap", "t51", ".1f", fn) + _nips_not_run(ctx)


@STUDY.claim("T5.1-exp")
def _(ctx):
    def fn(role, g, _):
        return pct_sides(role, "expensive", pct_by_run(g)), "min ratio-AIS % > baselines %"

    return _per_role_regime(ctx, "perturbed", "expensive", "t51", ".1f", fn)


@STUDY.claim("T5.1-exp-lr")
def _(ctx):
    if "acl" not in ctx.settings.corpora:
        return NotRun("this run has no acl corpus role")
    df = ctx.csv("perturbed_acl")
    pc = pct_prefer(df[df.regime == "expensive"])
    doc = PAPER["t51"][("acl", "expensive")]
    return Measured(
        float(abs(np.mean([pc[m] for m in RATIO]) - pc["lr"])),
        reject=[_d(doc, "lr") - _d(doc, "std_ais")],
        dataset=ctx.settings.corpora["acl"].dataset,
        data_kind=data_kind(ctx.settings.corpora, "acl"),
        note=_ours(pc, ".1f"),
    )


def corpus_ratio_sides(role: str, regime: str, g) -> Sides:
    """Table 5.2 bottom, per run (direction "<"): NIPS: mean ratio-AIS below LR and Std
    AIS; ACL: LR competitive, LR < mean ratio-AIS < Std AIS. Margin: half the document's
    smallest gap (none for ACL expensive, missing in the text)."""
    doc = PAPER["t52r"][(role, regime)]
    pairs, dpairs = [], []
    for _, gr in g.groupby("run"):
        cr = corpus_ratio(gr)
        rat = float(np.mean([cr[m] for m in RATIO]))
        if role == "nips":
            pairs += [(rat, cr["lr"]), (rat, cr["std_ais"])]
        else:
            pairs += [(cr["lr"], rat), (rat, cr["std_ais"])]
    if doc is not None:
        drat = float(np.mean([_d(doc, m) for m in RATIO]))
        if role == "nips":
            dpairs = [(drat, _d(doc, "lr")), (drat, _d(doc, "std_ais"))]
        else:
            dpairs = [(_d(doc, "lr"), drat), (drat, _d(doc, "std_ais"))]
    names = ("mean ratio-AIS", "LR, Std") if role == "nips" else ("LR, ratio-AIS", "ratio-AIS, Std")
    return order_sides(pairs, dpairs, names, "(comparison, run)",
                       _ours(corpus_ratio(g), ".4f"), direction="<")  # fmt: skip


@STUDY.claim("T5.2r-cheap")
def _(ctx):
    def fn(role, g, _):
        return corpus_ratio_sides(role, "cheap", g), "per run"

    return _per_role_regime(ctx, "perturbed", "cheap", "t52r", ".4g", fn)


@STUDY.claim("T5.2r-exp")
def _(ctx):
    def fn(role, g, _):
        return corpus_ratio_sides(role, "expensive", g), "per run"

    return _per_role_regime(ctx, "perturbed", "expensive", "t52r", ".4g", fn)


@STUDY.claim("C5.14")
def _(ctx):
    def one(df):
        r = {}
        for regime in ("cheap", "expensive"):
            v = doc_variance(df[df.regime == regime])
            r[regime] = float(v["std_ais"] / v["lr"]) if v["lr"] > 0 else float("inf")
        return Measured(
            min(r.values()),
            reject=[1.0],
            note="Std AIS / LR variance: "
            + ", ".join(f"{k} {x:.3g}" for k, x in r.items())
            + "; refused: 1 (Std AIS no worse than LR)",
        )

    return _per_role(ctx, "perturbed", one)


def _fwd_rev(g, path):
    """Per-document forward and reverse log-ratio of ``path`` (run 0), by document."""
    rev = "geo_rev" if path == "geo" else "convex_rev"
    f = g[(g.method == path) & (g.run == 0)].sort_values("doc")["logratio"].to_numpy()
    r = g[(g.method == rev) & (g.run == 0)].sort_values("doc")["logratio"].to_numpy()
    return f, r


def _paired(f, r):
    """Mean fwd - rev, its 95% half-width and the paired t-test p-value."""
    d = f - r
    if len(d) < 3:
        return float(np.mean(d)), float("inf"), 1.0
    half = float(sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d)))
    if d.std(ddof=1) == 0:
        return float(d.mean()), 0.0, 1.0 if d.mean() == 0 else 0.0
    return float(d.mean()), half, float(sps.ttest_rel(f, r).pvalue)


def detects_bias(f, r) -> tuple[bool, str]:
    """C5.4a: forward and reverse disagree systematically (paired t-test over documents,
    two-sided p < 0.05; the document gives no direction for Figs 5.4/5.5)."""
    m, half, p = _paired(np.asarray(f), np.asarray(r))
    return bool(p < 0.05), f"mean fwd-rev log-ratio {m:.4g} +- {half:.2g} (p={p:.2g})"


def directions_agree(paths, rel: float) -> tuple[bool, list[str]]:
    """C5.4b: on every path ``(f, r)``, no significant fwd-rev difference and its 95%
    interval within ``rel`` of the mean log-ratio (an equivalence bound tied to the effect)."""
    ok, parts = True, []
    for name, f, r in paths:
        f, r = np.asarray(f), np.asarray(r)
        m, half, p = _paired(f, r)
        tol = rel * abs(float(np.mean((f + r) / 2)))
        ok &= p >= 0.05 and abs(m) + half <= tol
        parts.append(f"{name}: fwd-rev {m:.4g} +- {half:.2g} (p={p:.2g}), tolerance {tol:.3g}")
    return bool(ok), parts


def doc_directions(ratio_f: float, ratio_r: float, n_docs: int = 30, N: int = 100):
    """Per-document forward and reverse log-ratios of ``n_docs`` documents of ``N`` tokens
    whose corpus ratios are the given ones (Table 5.2 bottom), each moved by a fixed
    zero-mean pattern of +-0.01 nats (forward and reverse moved differently)."""
    pat = np.resize([0.01, -0.01, 0.005, -0.005], n_docs)
    return -N * np.log(ratio_f) + pat, -N * np.log(ratio_r) + np.roll(pat, 1)


for _cid in ("C5.8b", "C5.8c", "C5.9", "C5.9b", "T5.2r-exp"):
    counter_example("ais_eval", _cid)(direction_passes)


def _verdict(ok: bool) -> str:
    return "reproduced" if ok else "not_reproduced"


@counter_example("ais_eval", "C5.4a")
def _(row):
    """Passes on Table 5.2 bottom's cheap NIPS geometric ratios (fwd 0.991, rev 0.989);
    fails when reverse equals forward (0.991 both: no bias)."""
    return {
        "fails": _verdict(detects_bias(*doc_directions(0.991, 0.991))[0]),
        "passes": _verdict(detects_bias(*doc_directions(0.991, 0.989))[0]),
    }


@counter_example("ais_eval", "C5.4b")
def _(row):
    """Passes on Table 5.2 bottom's expensive NIPS ratios (0.9897 on both paths and
    directions); fails on its cheap geometric pair (0.991 vs 0.989)."""
    rel = Tolerances().effect_rel
    same = [("geo", *doc_directions(0.9897, 0.9897)), ("convex", *doc_directions(0.9897, 0.9897))]
    cheap = [("geo", *doc_directions(0.991, 0.989)), ("convex", *doc_directions(0.991, 0.989))]
    return {
        "fails": _verdict(directions_agree(cheap, rel)[0]),
        "passes": _verdict(directions_agree(same, rel)[0]),
    }


@STUDY.claim("C5.4a")
def _(ctx):
    def one(df):
        ok, txt = detects_bias(*_fwd_rev(df[df.regime == "cheap"], "geo"))
        return Measured(ok, note=f"geometric path, cheap: {txt}")

    return _per_role(ctx, "perturbed", one)


@STUDY.claim("C5.4b")
def _(ctx):
    rel = ctx.settings.claims.effect_rel

    def one(df):
        g = df[df.regime == "expensive"]
        ok, parts = directions_agree([(p, *_fwd_rev(g, p)) for p in ("geo", "convex")], rel)
        return Measured(ok, note="expensive; " + "; ".join(parts))

    return _per_role(ctx, "perturbed", one)


@STUDY.claim("C5.6")
def _(ctx):
    rows = []
    for role in sorted(ctx.settings.corpora):
        df = ctx.csv(f"perturbed_{role}")
        cr = corpus_ratio(df[df.regime == "expensive"])
        four = [cr[m] for m in RATIO]
        cheap = [PAPER["t52r"][(role, "cheap")][METHODS.index(m)] for m in RATIO]
        spread = float(max(cheap) - min(cheap))
        rows.append(Measured(
            float(max(four) - min(four)),
            reject=[spread],
            dataset=ctx.settings.corpora[role].dataset,
            data_kind=data_kind(ctx.settings.corpora, role),
            note="spread of the four corpus ratios: " + ", ".join(f"{x:.5f}" for x in four)
            + f"; refused: {spread:.3g}, the document's cheap-regime spread ({role.upper()})",
        ))  # fmt: skip
    return rows


# ------------------------------------------------------------------ Fig 5.6
def _ntemps(ctx):
    nt = ctx.csv("ntemps")
    where = dict(
        dataset=ctx.settings.corpora[NTEMPS_ROLE].dataset,
        data_kind=data_kind(ctx.settings.corpora, NTEMPS_ROLE),
    )
    return nt, nt.n_temps.min(), nt.n_temps.max(), where


def _ntemps_gaps(ctx):
    """Per n: gap = mean(ratio-AIS fwd, rev) - Std AIS and its SE; spread of the three
    means and its combined SE; the effect = ratio-AIS estimate at the largest n."""
    nt, _, nmax, where = _ntemps(ctx)
    rows = []
    for n, g in nt.groupby("n_temps"):
        g = g.set_index("method")
        se2 = g["sd"] ** 2 / g["S"]
        ratio = (g.loc["geo", "mean"] + g.loc["geo_rev", "mean"]) / 2
        rows.append(
            dict(
                n=int(n),
                gap=float(ratio - g.loc["std_ais", "mean"]),
                gap_se=float(np.sqrt((se2["geo"] + se2["geo_rev"]) / 4 + se2["std_ais"])),
                spread=float(g["mean"].max() - g["mean"].min()),
                spread_se=float(np.sqrt(se2.sum())),
                ratio=float(ratio),
            )
        )
    t = pd.DataFrame(rows).sort_values("n").reset_index(drop=True)
    effect = abs(float(t.ratio.iloc[-1]))
    return t, effect, nmax, where


def std_ais_underestimates(t: pd.DataFrame, tol: float) -> bool:
    """C5.5a (Fig 5.6): ratio-AIS minus Std AIS above ``tol`` at the smallest n (95 %
    bound, 2 SE) and never significantly below 0 at any n."""
    low = t.iloc[0]
    under = low.gap - 2 * low.gap_se > tol
    return bool(under and (t.gap + 2 * t.gap_se >= 0).all())


@counter_example("ais_eval", "C5.5a")
def _(row):
    """Passes on Fig 5.6's shape (Std AIS below ratio-AIS by the whole effect, 1 nat, at
    few temperatures, meeting it at many); fails when the two agree at every n."""
    n = [10, 100, 1000, 20000]
    shape = pd.DataFrame(dict(n=n, gap=[1.0, 0.5, 0.1, 0.0], gap_se=[0.05] * 4))
    flat = shape.assign(gap=0.0)
    tol = Tolerances().effect_rel * 1.0
    return {
        "fails": _verdict(std_ais_underestimates(flat, tol)),
        "passes": _verdict(std_ais_underestimates(shape, tol)),
    }


@STUDY.claim("C5.5a")
def _(ctx):
    t, effect, _, where = _ntemps_gaps(ctx)
    tol = ctx.settings.claims.effect_rel * effect
    low = t.iloc[0]
    return Measured(
        std_ais_underestimates(t, tol),
        note="ratio-AIS minus Std AIS (+- 2 SE) per n: "
        + ", ".join(f"n={r.n}: {r.gap:.3g} +- {2 * r.gap_se:.2g}" for r in t.itertuples())
        + f"; needed at n={int(low.n)}: > {tol:.3g} ({ctx.settings.claims.effect_rel:g} x effect "
        f"{effect:.3g})",
        **where,
    )


@STUDY.claim("C5.5b")
def _(ctx):
    t, effect, nmax, where = _ntemps_gaps(ctx)
    hi = t.iloc[-1]
    tol = ctx.settings.claims.effect_rel * effect
    return Measured(
        float(hi.spread + 2 * hi.spread_se),
        tolerance=tol,
        note=f"at n={nmax} (document: >= 20,000): spread {hi.spread:.3g} + 2 SE "
        f"{2 * hi.spread_se:.2g}; tolerance {ctx.settings.claims.effect_rel:g} x effect "
        f"{effect:.3g}; spread +- 2 SE per n: "
        + ", ".join(f"{r.n}: {r.spread:.3g} +- {2 * r.spread_se:.2g}" for r in t.itertuples()),
        **where,
    )


# ------------------------------------------------------------------ asymmetric vs symmetric
def _correlations(g, df):
    """Correlation of run 0 of each method with the long LR run, over documents."""
    ref = df[df.regime == "lr_long"].set_index("doc")["perp_ratio"]
    corr = {}
    for m, gm in g[g.run == 0].groupby("method"):
        x = gm.set_index("doc")["perp_ratio"].reindex(ref.index)
        corr[m] = float(np.corrcoef(x, ref)[0, 1]) if x.std() > 0 and ref.std() > 0 else 0.0
    return pd.Series(corr)


def correlation_sides(role: str, regime: str, corr) -> Sides:
    """Table 5.3 bottom (run 0 against the long LR run). Cheap (C5.7a): the best
    ratio-AIS path above LR and Std AIS. Expensive (T5.3c-exp, the document's numbers):
    LR above every ratio-AIS path, every ratio-AIS path above Std AIS."""
    doc = PAPER["t53c"][(role, regime)]

    def best(x):
        return max(float(x[m]) for m in RATIO), min(float(x[m]) for m in RATIO)

    (hi, lo), (dhi, dlo) = best(corr), best(pd.Series(doc, index=METHODS))
    if regime == "cheap":
        pairs = [(hi, corr["lr"]), (hi, corr["std_ais"])]
        dpairs = [(dhi, _d(doc, "lr")), (dhi, _d(doc, "std_ais"))]
        labels = ("max ratio-AIS corr", "LR, Std corr")
    else:
        pairs = [(corr["lr"], hi), (lo, corr["std_ais"])]
        dpairs = [(_d(doc, "lr"), dhi), (dlo, _d(doc, "std_ais"))]
        labels = ("LR, min ratio-AIS corr", "max ratio-AIS, Std corr")
    return order_sides(pairs, dpairs, labels, "comparisons (run 0)", _ours(corr, ".3f"))


@STUDY.claim("C5.7a")
def _(ctx):
    def fn(role, g, df):
        return correlation_sides(role, "cheap", _correlations(g, df)), "max ratio-AIS > LR, Std"

    return _per_role_regime(ctx, "symasym", "cheap", "t53c", ".3f", fn) + _nips_not_run(ctx)


@STUDY.claim("T5.3c-exp")
def _(ctx):
    def fn(role, g, df):
        return correlation_sides(role, "expensive", _correlations(g, df)), "LR > ratio-AIS > Std"

    return _per_role_regime(ctx, "symasym", "expensive", "t53c", ".3f", fn)


ORDER_OF_MAGNITUDE = 10.0


def variance_gain(v) -> float:
    """min(LR, Std AIS) variance / the largest ratio-AIS variance (all four paths)."""
    worst = max(float(v[m]) for m in RATIO)
    return float(min(v["lr"], v["std_ais"]) / worst) if worst > 0 else float("inf")


def variance_order_of_magnitude(v) -> tuple[bool, float]:
    """Table 5.3 (top): 'one to two orders of magnitude lower variance, convex lowest':
    every ratio-AIS path at least 10x below both baselines, and the convex path's lower
    direction at or below the geometric path's. (The document's own rows give 10.6-13.3.)"""
    gain = variance_gain(v)
    convex_low = min(v["convex"], v["convex_rev"]) <= min(v["geo"], v["geo_rev"])
    return bool(gain >= ORDER_OF_MAGNITUDE and convex_low), gain


def _variance_row(role, regime, g):
    v = doc_variance(g)
    ok, gain = variance_order_of_magnitude(v)
    doc_gain = variance_gain(pd.Series(PAPER["t53v"][(role, regime)], index=METHODS))
    note = (
        f"{_ours(v, '.2g')}; min(LR, Std) / max ratio-AIS = {gain:.3g} (needs >= "
        f"{ORDER_OF_MAGNITUDE:g}; document {doc_gain:.3g})"
    )
    rule = "min(LR, Std) / max ratio-AIS variance >= 10, convex <= geometric"
    return Measured(ok, note=note), rule


def _variance_counter(regime: str) -> dict:
    """Passes on the document's Table 5.3 (top) rows of the regime (gain 10.6-13.3, convex
    lowest); fails on the same rows with the ratio-AIS variances doubled (gain 5-7: under
    one order of magnitude, though the ordering still holds)."""
    docs = [pd.Series(PAPER["t53v"][(r, regime)], index=METHODS) for r in ("nips", "acl")]
    worse = [v.where(~v.index.isin(RATIO), 2 * v) for v in docs]
    return {
        "fails": _verdict(all(variance_order_of_magnitude(v)[0] for v in worse)),
        "passes": _verdict(all(variance_order_of_magnitude(v)[0] for v in docs)),
    }


counter_example("ais_eval", "C5.7b")(lambda row: _variance_counter("cheap"))
counter_example("ais_eval", "T5.3v-exp")(lambda row: _variance_counter("expensive"))


@STUDY.claim("C5.7b")
def _(ctx):
    def fn(role, g, _):
        return _variance_row(role, "cheap", g)

    return _per_role_regime(ctx, "symasym", "cheap", "t53v", ".2g", fn)


@STUDY.claim("T5.3v-exp")
def _(ctx):
    def fn(role, g, _):
        return _variance_row(role, "expensive", g)

    return _per_role_regime(ctx, "symasym", "expensive", "t53v", ".2g", fn)


def direction_sides(role: str, regime: str, g) -> Sides:
    """Table 5.3 (middle), C5.7c: forward corpus ratio above reverse on both paths, in
    every run, by half the document's smallest fwd - rev gap."""
    doc = PAPER["t53r"][(role, regime)]
    pairs = []
    for _, gr in g.groupby("run"):
        cr = corpus_ratio(gr)
        pairs += [(cr["geo"], cr["geo_rev"]), (cr["convex"], cr["convex_rev"])]
    dpairs = [(_d(doc, "geo"), _d(doc, "geo_rev")), (_d(doc, "convex"), _d(doc, "convex_rev"))]
    return order_sides(pairs, dpairs, ("forward ratio", "reverse ratio"), "(run, path)",
                       _ours(corpus_ratio(g), ".4f"))  # fmt: skip


@STUDY.claim("C5.7c")
def _(ctx):
    def fn(role, g, _):
        return direction_sides(role, "cheap", g), "forward ratio > reverse (both paths)"

    return _per_role_regime(ctx, "symasym", "cheap", "t53r", ".3g", fn)


FORWARD_DETECTED = ("lr", "std_ais", "geo_rev", "convex_rev")


def forward_no_advantage(role: str, g) -> Measured:
    """Table 5.3 (middle), cheap regime, "the forward direction of annealing did not detect
    an overall advantage to the asymmetric hyper-parameter model": the lower forward corpus
    ratio of the two paths (runs pooled) at or above 1 (no advantage), within half the
    smallest advantage the document's other estimators detected in the same row (1 - their
    largest ratio: NIPS 1 - 0.994, ACL 1 - 0.988); refused: their ratios (the document's
    forward numbers are 1.01, 1.01 on NIPS and 1.00, 1.00 on ACL)."""
    cr = corpus_ratio(g)
    doc = PAPER["t53r"][(role, "cheap")]
    detected = [_d(doc, m) for m in FORWARD_DETECTED]
    tol = (1.0 - max(detected)) / 2
    return Measured(
        float(min(cr["geo"], cr["convex"])),
        paper_value=1.0,
        tolerance=tol,
        reject=detected,
        note=f"forward: geometric {cr['geo']:.4f}, convex {cr['convex']:.4f}; tolerance "
        f"{tol:.3g} = half of 1 - {max(detected):g}; refused: "
        + ", ".join(f"{SHORT[m]} {_d(doc, m):g}" for m in FORWARD_DETECTED),
    )


@STUDY.claim("C5.7d")
def _(ctx):
    def fn(role, g, _):
        return forward_no_advantage(role, g), "min forward ratio >= 1"

    return _per_role_regime(ctx, "symasym", "cheap", "t53r", ".3g", fn, numeric=True)


def direction_gap_check(g, doc: list[float]) -> tuple[bool, list[str]]:
    """Forward corpus ratio above reverse on both paths by at least half the document's
    own gap, in every run, and by more than 2 standard errors (documents resampled:
    SE of the fwd - rev corpus ratio from the per-document log-ratio differences)."""
    ok, parts = True, []
    for fwd, rev in (("geo", "geo_rev"), ("convex", "convex_rev")):
        margin = (doc[METHODS.index(fwd)] - doc[METHODS.index(rev)]) / 2
        per_run = []
        for _, gr in g.groupby("run"):
            cr = corpus_ratio(gr)
            per_run.append(float(cr[fwd] - cr[rev]))
        cr = corpus_ratio(g)
        diff = float(cr[fwd] - cr[rev])
        f = g[g.method == fwd].groupby("doc").agg(lr=("logratio", "mean"), N=("N", "first"))
        r = g[g.method == rev].groupby("doc")["logratio"].mean().reindex(f.index)
        # d ratio = ratio * d(-sum lr / sum N): delta method over documents
        se = float(cr[fwd] * np.sqrt(len(f)) * (f.lr - r).std(ddof=1) / f.N.sum())
        this = min(per_run) >= margin and diff > 2 * se and margin > 0
        ok &= this
        parts.append(
            f"{fwd}: fwd-rev {diff:.4f} (runs "
            + ", ".join(f"{x:.4f}" for x in per_run)
            + f"), 2 SE {2 * se:.2g}, margin {margin:.4g}"
        )
    return bool(ok), parts


def direction_frame(ratios: dict, n_docs: int = 30, N: int = 100) -> pd.DataFrame:
    """Per-document log-ratios, two runs, whose corpus ratios per method are ``ratios``,
    each document moved by a fixed zero-mean pattern of +-0.01 nats (differently per
    method and run)."""
    pat = np.resize([0.01, -0.01, 0.005, -0.005], n_docs)
    rows = []
    for run in (0, 1):
        for i, (m, cr) in enumerate(ratios.items()):
            lr = -N * np.log(cr) + np.roll(pat, i + 2 * run)
            rows += [dict(doc=d, N=N, run=run, method=m, logratio=lr[d]) for d in range(n_docs)]
    return pd.DataFrame(rows)


@counter_example("ais_eval", "T5.3r-exp")
def _(row):
    """Passes on the document's Table 5.3 (middle) expensive rows (NIPS and ACL); fails on
    the same rows with each reverse ratio set to its forward one (no direction effect)."""
    fails, passes = [], []
    for role in ("nips", "acl"):
        doc = PAPER["t53r"][(role, "expensive")]
        cr = {m: _d(doc, m) for m in RATIO}
        same = {**cr, "geo_rev": cr["geo"], "convex_rev": cr["convex"]}
        passes.append(direction_gap_check(direction_frame(cr), doc)[0])
        fails.append(direction_gap_check(direction_frame(same), doc)[0])
    return {"fails": _verdict(all(fails)), "passes": _verdict(all(passes))}


@STUDY.claim("T5.3r-exp")
def _(ctx):
    def fn(role, g, _):
        cr = corpus_ratio(g)
        ok, parts = direction_gap_check(g, PAPER["t53r"][(role, "expensive")])
        note = f"{_ours(cr, '.4f')}; " + "; ".join(parts)
        rule = "forward - reverse >= half the document's gap in every run and > 2 SE (both paths)"
        return Measured(ok, note=note), rule

    return _per_role_regime(ctx, "symasym", "expensive", "t53r", ".3g", fn)


# ------------------------------------------------------------------ iteration-AIS
EVIDENCE = (
    "checked (issue 22): the weights are unbiased for the exact likelihood at every "
    "snapshot (tests/evaluation/ais/test_ais_unbiased.py); with S=1 (the document's, fn 6) "
    "the log estimate is low by about Var(log w)/2, accumulated over the links; see "
    "published/real/REVERSALS.md (case 4)"
)


def _iteration(df):
    n_small, n_big = df.n_temps.min(), df.n_temps.max()
    mean = df.groupby(["method", "n_temps", "iteration"])["loglik"].mean()
    return n_small, n_big, mean


def _dip(mean, m, n) -> float:
    """Late dip of a per-iteration mean LL curve: its maximum minus its final value."""
    s = mean.loc[(m, n)]
    return float(s.max() - s.iloc[-1])


@STUDY.claim("C5.8a")
def _(ctx):
    def one(df):
        n_small, n_big, mean = _iteration(df)
        iters = sorted(df.iteration.unique())
        late = iters[len(iters) // 2 :]
        it_small = mean.loc[("iteration_ais", n_small)].loc[late].mean()
        base_big = max(mean.loc[(m, n_big)].loc[late].mean() for m in ("std_ais", "lr"))
        return Measured(
            float(it_small - base_big),
            note=f"mean LL per doc over the later half of the snapshots; n={n_small}, "
            f"10n={n_big}; {EVIDENCE}",
        )

    return _per_role(ctx, "iteration", one) + _nips_not_run(ctx)


@STUDY.claim("C5.8b")
def _(ctx):
    def one(df):
        n_small, n_big, _ = _iteration(df)
        var = df.groupby(["method", "n_temps", "iteration", "doc"])["loglik"].var(ddof=1)
        vm = var.groupby(["method", "n_temps"]).mean()
        ns = (n_small, n_big)
        note = "; ".join(f"{m}@{n} {x:.3g}" for (m, n), x in vm.items())
        return Sides(
            [float(vm[("iteration_ais", n)]) for n in ns for _ in (0, 1)],
            [float(vm[(m, n)]) for n in ns for m in ("std_ais", "lr")],
            labels=("iteration-AIS variance", "Std AIS, LR variance"),
            unit="(n, baseline)",
            note=f"margin 0: Figs 5.9/5.10 give no values; {note}; {EVIDENCE}",
        )

    return _per_role(ctx, "iteration", one)


@STUDY.claim("C5.9")
def _(ctx):
    def one(df):
        n_small, _, mean = _iteration(df)
        d_it = _dip(mean, "iteration_ais", n_small)
        d_base = {m: _dip(mean, m, n_small) for m in ("std_ais", "lr")}
        return Sides(
            [d_it, d_it],
            list(d_base.values()),
            labels=("iteration-AIS dip", "Std AIS, LR dip"),
            unit="baselines",
            note="margin 0: Figs 5.7/5.8 give no values; "
            f"dip = max - final mean LL at n={n_small}: iteration-AIS {d_it:.3g}, "
            + ", ".join(f"{m} {x:.3g}" for m, x in d_base.items())
            + f"; {EVIDENCE}",
        )

    return _per_role(ctx, "iteration", one)


def late_variance_sides(df) -> Sides:
    """Figs 5.9/5.10, "all methods exhibited higher variance in the likelihood estimates
    for later learning iterations": per (method, n), the run-to-run variance per document
    averaged over documents and then over the later half of the snapshots (a) against the
    earlier half (b). Margin 0: the figures give no values."""
    var = df.groupby(["method", "n_temps", "iteration", "doc"])["loglik"].var(ddof=1)
    v = var.groupby(["method", "n_temps", "iteration"]).mean()
    iters = sorted(df.iteration.unique())
    early, late = iters[: len(iters) // 2], iters[len(iters) // 2 :]
    a, b, parts = [], [], []
    for (m, n), s in v.groupby(level=["method", "n_temps"]):
        s = s.droplevel(["method", "n_temps"])
        a.append(float(s.loc[late].mean()))
        b.append(float(s.loc[early].mean()))
        parts.append(f"{m}@{n} {b[-1]:.3g} -> {a[-1]:.3g}")
    return Sides(
        a, b, labels=("variance, later half", "variance, earlier half"), unit="(method, n)",
        note=f"margin 0: Figs 5.9/5.10 give no values; snapshots {iters[0]}-{early[-1]} vs "
        f"{late[0]}-{iters[-1]}: " + ", ".join(parts),
    )  # fmt: skip


@STUDY.claim("C5.8c")
def _(ctx):
    return _per_role(ctx, "iteration", late_variance_sides)


def dip_sides(df) -> Sides:
    """Figs 5.7/5.8, "the dip in likelihood was smaller with increased computation": each
    baseline's dip (as C5.9: max - final mean LL) with 10n temperatures (a) below its dip
    with n (b). Margin 0: the figures give no values."""
    n_small, n_big, mean = _iteration(df)
    base = ("std_ais", "lr")
    a = [_dip(mean, m, n_big) for m in base]
    b = [_dip(mean, m, n_small) for m in base]
    return Sides(
        a, b, labels=(f"dip at n={n_big}", f"dip at n={n_small}"), unit="baselines (Std, LR)",
        note="margin 0: Figs 5.7/5.8 give no values; dip = max - final mean LL: "
        + ", ".join(f"{m} {y:.3g} (n={n_small}) -> {x:.3g} (n={n_big})"
                    for m, x, y in zip(base, a, b, strict=True)),
    )  # fmt: skip


@STUDY.claim("C5.9b")
def _(ctx):
    return _per_role(ctx, "iteration", dip_sides)


# ------------------------------------------------------------------ Fig 5.11
JUMP_WINDOW = 10  # iterations: the study's snapshot spacing (ours; the document gives none)


def jump_ratio(st: pd.DataFrame, col: str, opt_iter: int, w: int = JUMP_WINDOW) -> dict:
    """Change of ``col`` over the ``w`` iterations after the first optimisation,
    |x(opt + w) - x(opt)|, against the median |x(t + w) - x(t)| for t in
    [opt - 50, opt - w] (before it). The column is computed at the fixed initial beta, so
    the re-optimised beta's smoothing cannot make the jump by construction (issue 21); the
    optimisation runs at the end of sweep ``opt``, so its effect on the counts starts at
    opt + 1."""
    x = st.set_index("iteration")[col]
    after = abs(float(x.get(opt_iter + w, np.nan) - x.get(opt_iter, np.nan)))
    ts = [t for t in range(opt_iter - 50, opt_iter - w + 1) if t in x.index and t + w in x.index]
    before = float(np.median([abs(x[t + w] - x[t]) for t in ts])) if ts else np.nan
    ratio = after / before if before and before > 0 else float("inf")
    return {"ratio": float(ratio), "after": after, "before": before}


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
        rows.append(
            Measured(
                j["ratio"],
                reject=[1.0],  # no jump: the change after as large as the usual change
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
