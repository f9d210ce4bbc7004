# ruff: noqa: E501  (the claims table reads best one claim per line)
"""Claims of chapters 4-9 (our numbering of the thesis's checkable statements: C1-C10 exact,
E1-E35 empirical), each with the document's value, ours and a verdict. Exact checks run here
on tiny cases; the empirical ones read the results of every dataset of the run, one value
per replicate (seeds; (setting, seed) pairs where the document's claim holds "in every
setting"; classes for E19), judged by the noise rule (issue 38, latentlab.claims.noise)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.claims.noise import MIN_REPS, Noise
from latentlab.claims.spec import Claim, Measured, NotRun, Sides

from .study import STUDY, ClaimsSettings
from .tables import svi_final

REAL = "config/real.yaml (15-Scene images from the mirror)"
ID = "identity"


def _c(
    id, where, statement, paper, how="true", tol=0.0, dk="real", ds="scene13", note="", reject=None
):
    return Claim(id, where=where, statement=statement, paper_value=paper, how=how,
                 tolerance=tol, dataset=ds, data_kind=dk, note=note, reject=reject)  # fmt: skip


CLAIMS = [
    _c("C1", "Eq 4.11", "collapsed NG marginal equals quadrature", 0.0, "abs", "claims.c1_abs", ID, "tiny"),
    _c("C2", "Eqs 4.6-4.11", "Student-t predictive = ratio of marginals", 0.0, "abs", 1e-10, ID, "tiny"),
    _c("C3", "Eqs 5.13-5.16", "CAVI cluster update (+1/chi2) = conjugate NG posterior", 0.0, "abs", 1e-10, ID, "tiny"),
    _c("C5", "Eq 2.15", "E[K(N)] = gamma(psi(gamma+N) - psi(gamma)) (CRP simulation within 4 SE)", True, dk=ID, ds="tiny"),
    _c("C6", "Eq 2.21", "sum_k p(z1 = z2 = k) = 1/(1+gamma)", 0.0, "abs", 1e-12, ID, "tiny"),
    _c("C7", "Sec 5.4.5", "simulated reordering equals explicit sorting", 0.0, "abs", 1e-12, ID, "tiny"),
    _c("C8", "Sec 5.4", "the CAVI ELBO never decreases after any block (fixed order)", 0.0, "ge", "claims.c8_abs", ID, "tiny",
       note="our value = most negative block change / |ELBO|; paper value 0 is the bound"),
    _c("C9", "Sec 5.4.5", "sorted order is ELBO-optimal when the last slot is empty", 0.0, "abs", 1e-9, ID, "tiny"),
    _c("C10", "Eqs 4.1-4.3, 4.12-4.14", "Gibbs conditionals = ratio of joint marginals", 0.0, "abs", 1e-9, ID, "tiny"),
    _c("E1", "Fig 4.1", "Gibbs IWTM >= best supervised LDA+BOW (within claims.se_margin points) in all (T, n_train) settings but one: per seed, the settings where it holds minus (settings - 1) >= 0",
       0, "ge", 0.0, note="our value per seed: settings where IWTM >= max_K LDA - se_margin, minus (settings - 1)"),
    _c("E2", "Fig 4.1", "IWTM's advantage over the best LDA shrinks as n_train grows: the gap (points) at the smallest n_train above the gap at the largest, per T and seed (margin 0: the document gives curves)", "shrinks", "order"),
    _c("E3", "Fig 4.1", "the best LDA K grows with n_train: log2(best K) at the largest n_train above at the smallest, per T and seed (margin 0; the document: K = 1000 best at 100/class)", "grows", "order"),
    _c("E4", "Fig 4.1", "IWTM > LDA at about the same K (nearest in log K to IWTM's vocabulary), per setting and seed (margin 0: the document gives curves)", "IWTM > LDA", "order"),
    _c("E5", "Table 4.1", "soft IWTM > LDA on IWTM's own clusters, per (T, n_train) and seed (margin 0; the document's smallest gap is 2.2 points)", "58.0/61.3/64.0 vs 51.0/58.0/61.8", "order"),
    _c("E6", "Table 4.1", "IWTM's vocabulary grows with the training size by the document's factor: K at the largest over K at the smallest n_train, per T and seed, within claims.e6_ratio_tol of 1247 / 867 = 1.44 (Table 4.1, 25 -> 100 per class)",
       1247 / 867, "abs", "claims.e6_ratio_tol", reject=[1.0],
       note="a DP vocabulary grows with the data whatever the model does with it, so the direction alone cannot fail (issue 38); the row judges the growth factor, and refuses no growth (1.0)"),
    _c("E7", "Fig 5.2", "CAVI IWTM + SVM > best LDA+KMEANS (K best on the seeds' mean) per (T, N_train) and seed, by half the document's gap (claims.e7_margin points)", "71.28 vs 70.18", "order", "claims.e7_margin"),
    _c("E8", "Fig 5.2", "IWTM's vocabulary is near (although slightly larger than) the optimal LDA+KMEANS K: IWTM's vocabulary > the best K (on the seeds' mean), per seed", "", "order",
       note="the document: IWTM 2784 at T = 50, N = 1300 vs LDA+KMEANS best at K = 750 (close peaks at 1750, 3000); 'near' spans 3.7x there, so only the side is judged"),
    _c("E9", "Fig 5.2", "LDA+GDPMM's vocabulary is close to IWTM's: GDPMM / IWTM words per setting and seed within claims.vocab_rel of the document's 3445 / 2784 = 1.24",
       3445 / 2784, "abs", "claims.vocab_rel", reject=[4 / 2784],
       note="the GDPMM is IWTM's machinery with one DP (gdpmm.engine: iwtm; scikit-learn's mixture, used before, collapsed to 4-5 clusters, rejected): "
            "published/real/REVERSALS.md case 7, tests/models/iwtm/test_gdpmm.py, published/real/iwtm/evidence/gdpmm_vocab.csv"),
    _c("E9-acc", "Fig 5.2", "LDA+GDPMM's accuracy is below CAVI IWTM's, per setting and seed (margin 0)", "IWTM 71.28 > GDPMM 68.59", "order"),
    _c("E10", "Fig 5.2", "LDA+KMEANS accuracy vs K is an inverted U: a quadratic in log2 K fitted to each (T, N_train, seed) curve peaks inside the K grid, above its higher end (points; margin 0)", "inverted U", "order",
       note="an interior maximum on a noisy K grid is near-certain (issue 38), so the row judges the fitted curve: a monotone or flat curve peaks at an end (difference 0)"),
    _c("E11", "Sec 5.6.1", "decoupled SVM (VI) > generative Gibbs classification at the largest n_train, per seed (margin 0; the document's gap is 3 points)", "71.5 vs 68.5", "order"),
    _c("E12", "Fig 5.3", "one LDA+KMEANS run is 2-5x faster than CAVI IWTM: the time ratio LDA+KMEANS / IWTM (median over K, per setting and seed) in 0.2-0.5 (0.35 +- 0.15)", 0.35, "abs", 0.15,
       note="the document's 2-5x faster is a ratio of 0.2-0.5; equal speed (ratio 1) is refused", reject=[1.0]),
    _c("E13", "Sec 5.6", "VI is much faster than Gibbs at equal data (20 h vs 14 days): Gibbs / VI time at the document's schedules, per setting and seed", 16.8, "rel", "claims.speedup_rel",
       note="document schedules: 500 Gibbs sweeps vs 50 CAVI iterations; 14 days / 20 h = 16.8; passes within claims.speedup_rel (relative)"),
    _c("E14", "Fig 5.4", "unlabelled data improve accuracy most at small N_L: the gain (points, largest N_total over N_total = N_L) at the smallest N_L above the gain at the largest N_L, per seed (margin 0)", "+5.8 at 5/class vs +4.3 at 10/class", "order"),
    _c("E30", "Fig 5.1", "b~ rows are nearly one-hot", 0.9, "ge", 0.0,
       note="fraction of used atoms whose b~ row has max > 0.99, per setting and seed"),
    _c("E4.3", "Fig 4.3", "IWTM on 8-scene (T = 100), per seed", 76.4, "abs", "claims.e4_3_abs", ds="scene8"),
    Claim("DLTM", where="Fig 4.3", statement="DLTM 76.25 % on 8-scene (quoted from Li et al.)",
          paper_value=76.25, not_testable="a number quoted from another paper; DLTM is not reimplemented"),
    _c("FF65", "Sec 4.5.2", "the best sLDA+BOW reaches Fei-Fei & Perona's 65.2 % (within claims.se_margin points), per seed", 65.2, "ge", "claims.se_margin",
       note="our value per seed: the best sLDA+BOW accuracy over K and n_train (%); the document's own best LDA+BOW, 65.15 %, passes"),
    # chapters 6-7 (SVI, IVI)
    _c("C4", "Sec 6.3 (Eqs 6.11-6.43)", "one SVI step with rho = 1 on the whole corpus equals one CAVI step", 0.0, "abs", "claims.c4_abs", ID, "tiny",
       note="max abs difference over every global parameter, both mapping modes, sparse and dense"),
    _c("E15", "Fig 6.1a", "SVI with rho < 1 ends above CAVI's full-corpus ELBO at equal documents seen, per (rho, seed) (margin 0)", "every SVI rho above CAVI", "order"),
    _c("E15-best", "Fig 6.1a", "rho = 0.25 ends with the highest ELBO of the SVI runs: its final ELBO above the best other rho's, per seed (margin 0)", "rho = 0.25 best", "order"),
    _c("E16", "Fig 6.1a", "SVI at the smallest rho passes CAVI's best ELBO in < 50 % of CAVI's time: (time to pass, or its whole run if it never does) / CAVI's time, per seed", 0.5, "le", 0.0,
       note="document: 600 of 1400 min (0.43)"),
    _c("E16-total", "Fig 6.1a", "SVI at the smallest rho finishes before CAVI: its total time / CAVI's, per seed", 1.0, "le", 0.0,
       note="document: 1150 of 1400 min (0.82)"),
    _c("E17", "Fig 6.1b", "the number of clusters is smaller for smaller rho at all times: clusters at the larger of two adjacent rho above at the smaller, at every tenth of the documents seen, per seed (margin 0)", "fewer for smaller rho", "order"),
    _c("E18", "Fig 6.2", "IWTM-SVI total time is about 2.5-3x one LDA+KMEANS run, per seed", 2.75, "abs", "claims.svi_ratio_slack",
       note="SVI rho = 0.25 time / median LDA+KMEANS time over K at the same n_train and T (ch5 rows)"),
    Claim("E19", where="Sec 6.5.3", statement="SPM on visual words (K = 300) > SPM on IWTM MAP topics (T = 100), 5 training images per class: per-class accuracy (mean over seeds), classes as replicates (margin 0)",
          paper_value="11.7 vs 7.1 %; per class 219 / 87 / 91 (VW better / tie / topics better, 1 % rule)", dataset="sun397", data_kind="real", how="order",
          note="the document's own comparison is per class (219 / 87 / 91 of 397); our per-class win/tie/loss (>= 1 % absolute) and the overall accuracies in the note"),
    Claim("E20", where="Fig 6.3", statement="MAP-topic maps are less fragmented (group related patches) than visual-word maps, per seed (margin 0)",
          paper_value="qualitative", dataset="sun397", data_kind="real", how="order",
          note="images: a higher spatial coherence lift (4-neighbour agreement minus its shuffle expectation); synthetic: a higher NMI with the true topics (E20) and fewer distinct labels per (document, true topic) region (E20-regions)"),
    _c("E21", "Fig 7.3a", "without EXTEND the number of clusters never increases as the data grow: the largest rise per iteration after growth starts, per seed", 0.0, "le", 0.0),
    _c("E22", "Fig 7.3a", "IVI's clusters jump at every EXTEND (jigsaw) and end above no-extend", "1400 vs 380", dk=ID,
       note="identity: EXTEND adds clusters by construction"),
    _c("E23", "Fig 7.3b", "IVI's ELBO exceeds no-extend's at every size after growth, per (size, seed) (margin 0)", "IVI > no-extend", "order"),
    _c("E23-widen", "Fig 7.3b", "the gap IVI - no-extend widens: at the last size above at the first size after growth, per seed (margin 0)", "widens", "order"),
    _c("E24", "Table 7.1", "IVI's ELBO is within ~0.4 % of retraining from scratch at every size: the largest |IVI - scratch| / |scratch| over sizes, per seed", 0.0, "abs", "claims.ivi_elbo_rel",
       note="the sign pattern (IVI >= scratch from 455 docs) in the note; the rule must refuse no-extend's gap"),
    _c("E25", "Table 7.1", "an IVI step is much faster than retraining from scratch (9.4x at 130 docs, 6.5x at 650): the smallest scratch / IVI-step time ratio over the grown sizes, per seed", 6.5, "ge", "claims.ivi_speedup_tol"),
    _c("E26", "Fig 7.4", "active (margin) selection > random for IWTM at every round after the seed set, per (round, seed) (margin 0; the document gives the direction and its largest gap)", "max gap 5.1 pts at 260 docs", "order",
       note="the largest gap, where, and its spread over seeds in the note"),
    _c("E27", "Fig 7.5a", "IWTM (active) > LDA+KMEANS (active) for every K at every round: IWTM above the best K, per (round, seed) (margin 0)", "2-4 pts", "order"),
    _c("E28", "Fig 7.5a", "for LDA the best K changes with the training size (small K early, large K late): log2(best K) at the last round above at the first, per seed (margin 0)", "small K early, large K late", "order"),
    _c("E29", "Fig 7.6", "LDA active >= random for most K: the mean over the rounds after the seed set of active vs random accuracy, per (K, seed) (margin 0)", "active >= random", "order",
       note="replicates: K values x seeds (one seed with 3 K cannot tell +0.5 points from noise, issue 38)"),
    _c("E31", "Sec 9.1", "a mapping shared by the topics needs 1/T of the memory of per-topic mappings", "T", dk=ID, ds="tiny",
       note="array sizes of a model's dense mapping, shared (K x C) vs per topic (T x K x C)"),
    _c("E32", "Sec 7.2", "on fixed data the number of clusters in use never increases under CAVI/SVI (paring back): the largest per-iteration rise of the clusters in use (n_c >= 1), per run", 0.0, "le", 0.0,
       note="every Fig 6.1 run (rho x seed); the Fig 7.1 analogue: every seed of the Gaussian DP mixture"),
    _c("E33", "Sec 8.2", "in LDA+KMEANS, K-means dominates the cost (7-10 h vs ~10 min)", 42.0, "ge", 32.0,
       note="our value: median K-means / LDA time over the ch. 5 K sweep, per setting and seed; passes if >= 10"),
    _c("E34", "Sec 8.2", "the expected log-likelihood (GEMM + top-C) dominates an IWTM VI iteration", 0.5, "ge", 0.0,
       note="our value: share of the CAVI (rho = 1) training time spent in the E l GEMM and top-C selection, per seed"),
    Claim("E35", where="Sec 3.2", statement="DLTM's Gibbs-slice sampler needs about a week of CPU for 1,600 images",
          paper_value="~1 week", not_testable="a cost reported for another paper's sampler; DLTM is not reimplemented"),
]  # fmt: skip

STUDY.claims(CLAIMS, settings=ClaimsSettings)


# ------------------------------------------------------------------ exact checks
def _prior():
    from latentlab.models.iwtm.normal_gamma import NGPrior

    return NGPrior(np.array([0.3, -0.2]), beta0=0.7, a=2.5, b=0.8)


@STUDY.claim("C1")
def _(ctx):
    from latentlab.models.iwtm import reference as ref
    from latentlab.models.iwtm.normal_gamma import log_marginal

    X = np.array([[0.1, 0.4], [-0.5, 0.2], [0.9, -0.3]])
    return log_marginal(X, _prior()) - ref.log_marginal_quadrature(X, _prior())


@STUDY.claim("C2")
def _(ctx):
    from latentlab.models.iwtm.normal_gamma import log_marginal, log_predictive

    X = np.random.default_rng(0).normal(size=(6, 2))
    p = _prior()
    return max(
        abs(log_predictive(X[n], X[:n], p) - log_marginal(X[: n + 1], p) + log_marginal(X[:n], p))
        for n in range(6)
    )


@STUDY.claim("C3")
def _(ctx):
    from latentlab.models.iwtm.normal_gamma import cluster_posterior

    p = _prior()
    X = np.random.default_rng(1).normal(size=(7, 2))
    q = cluster_posterior(np.array([7.0]), X.sum(0)[None], np.array([(X * X).sum()]), p)
    xb = X.mean(0)
    ss = ((X - xb) ** 2).sum() + p.beta0 * 7 / (p.beta0 + 7) * ((xb - p.m) ** 2).sum()
    return abs(1 / q.chi2[0] - (1 / p.b + 0.5 * ss))


@STUDY.claim("C5")
def _(ctx):
    from scipy.special import digamma

    rng = np.random.default_rng(5)
    g, N, R = 3.0, 200, 4000
    ks = [(rng.random(N) < g / (g + np.arange(N))).sum() for _ in range(R)]
    want = g * (digamma(g + N) - digamma(g))
    return Measured(bool(abs(np.mean(ks) - want) < 4 * np.std(ks) / np.sqrt(R)),
                    note=f"simulated {np.mean(ks):.3f} vs {want:.3f}")  # fmt: skip


@STUDY.claim("C6")
def _(ctx):
    g = 3.0
    k = np.arange(1, 4000)
    return float((2 / ((1 + g) * g) * np.exp(k * np.log(g / (2 + g)))).sum() - 1 / (1 + g))


@STUDY.claim("C7")
def _(ctx):
    from latentlab.models.iwtm import reference as ref
    from latentlab.models.iwtm.sticks import elog_sticks, stick_params

    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(50):
        c = rng.integers(0, 4, size=9).astype(float)
        a, b, _, o = stick_params(c, 1.7)
        a2, b2, e2 = ref.sorted_sticks(c, 1.7)
        worst = max(worst, np.abs(a - a2).max(), np.abs(b - b2).max(),
                    np.abs(elog_sticks(a, b, o) - e2).max())  # fmt: skip
    return worst


@STUDY.claim("C8")
def _(ctx):
    from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
    from latentlab.models.iwtm.normal_gamma import NGPrior

    rng = np.random.default_rng(0)
    cen = rng.normal(0, 3, size=(4, 2))
    lens = rng.integers(4, 9, size=15)
    X = np.vstack([cen[rng.integers(0, 4, n)] + 0.4 * rng.normal(size=(n, 2)) for n in lens])
    ip = np.concatenate([[0], np.cumsum(lens)])
    worst = np.inf
    for mode in ("tied", "per_topic"):
        s = CaviSettings(T=3, C=8, K=16, alpha0=1.5, gamma=2.0, c_top=8, map_top=8,
                         mapping_mode=mode, max_local=30, local_tol=1e-6, reorder=False)  # fmt: skip
        m = IWTMCavi(s, NGPrior.from_data(X, 1.0, 4.0), seed=0).fit(X, ip, 8, trace_blocks=True)
        e = np.array([v for *_, v in m.trace])
        worst = min(worst, float(np.diff(e).min() / np.abs(e).max()))
    return worst


@STUDY.claim("C9")
def _(ctx):
    import itertools
    import math

    from scipy.special import betaln, digamma

    from latentlab.models.iwtm.sticks import stick_params

    def elbo(counts, order, conc=2.0):
        sc = counts[list(order)]
        tot = 0.0
        for i in range(len(sc) - 1):
            a, b = 1 + sc[i], conc + sc[i + 1 :].sum()
            ev, e1 = digamma(a) - digamma(a + b), digamma(b) - digamma(a + b)
            tot += sc[i] * ev + sc[i + 1 :].sum() * e1 + math.log(conc) + (conc - 1) * e1
            tot -= -betaln(a, b) + (a - 1) * ev + (b - 1) * e1
        return tot

    rng = np.random.default_rng(4)
    gap = 0.0
    for _ in range(20):
        c = np.append(rng.integers(0, 20, size=4).astype(float), 0.0)
        best = max(elbo(c, (*p, 4)) for p in itertools.permutations(range(4)))
        gap = max(gap, best - elbo(c, stick_params(c, 2.0)[3]))
    return gap


@STUDY.claim("C10")
def _(ctx):
    from latentlab.models.iwtm import reference as ref
    from latentlab.models.iwtm.gibbs import IWTMGibbs, _leaf_logprobs
    from latentlab.models.iwtm.normal_gamma import NGPrior

    worst = 0.0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        g = IWTMGibbs(2, NGPrior(np.zeros(2), 0.5, 2.0, 0.7), alpha0=1.3, gamma=0.9,
                      dish_cap=16, seed=seed)  # fmt: skip
        g.setup(rng.normal(size=(7, 2)), np.array([0, 3, 5, 7]), np.array([0, 1, -1]), 2)
        g.alpha_y = np.array([[0.6, 1.4], [2.0, 0.3]])
        g.log_py = np.log([0.4, 0.6])
        g.sweep(np.arange(7))
        for i in (0, 4, 6):
            g._unseat([i])
            a = g._args()
            leaves = _leaf_logprobs(i, *a[:3], *a[5:8], *a[9:13], *a[14:26])
            dish_of = {int(t): int(g.table_dish[t]) for t in np.where(g.table_n > 0)[0]}
            joints = []
            for r, t, k, _ in leaves:
                z, tab, d = g.z.copy(), g.tab.copy(), dict(dish_of)
                if t < 0:
                    t = 10_000
                    d[t] = 10_000 if k < 0 else k
                z[i], tab[i] = r, t
                joints.append(ref.crf_log_joint(g.X, g.doc, g.y, z, tab, d, g.alpha_y,
                                                g.alpha0, g.gamma, g.prior, g.log_py))  # fmt: skip
            j = np.array(joints)
            lp = np.array([leaf[3] for leaf in leaves])
            worst = max(worst, float(np.abs(lp - (j - np.logaddexp.reduce(j))).max()))
            g.sweep(np.array([i]))
    return worst


# ------------------------------------------------------------------ empirical
# Every empirical row carries its replicates (issue 38): seeds, and where the document's
# claim is "in every setting" the (setting, seed) pairs; rows with fewer than 3 take the
# spread of the same quantity over the iwtm ladder's 3-seed rung (claims.ladder) where there
# is one, else they are inconclusive with the replicates that would decide them.
SCENE = ("scene13", "scene8")


def data_kind(ds: str, scene, desc_per_doc) -> tuple[str, str]:
    """The data kind of a row on ``ds`` (docs/design.md "Data kinds") and, for a
    substitute, what differs from the document's preprocessing: dense SIFT on the original
    images (Sec. 4.5.1: "approximately 600" descriptors per image, every one kept)."""
    if ds.startswith("syn"):
        return "synthetic", ""
    if ds not in SCENE:
        return "substitute", f"{ds} stands in for the document's data"
    diff = []
    if scene.size is not None:
        diff.append(f"images resized to {scene.size} px (document: original size)")
    if scene.max_desc is not None or desc_per_doc is not None:
        kept = min(x for x in (scene.max_desc, desc_per_doc) if x is not None)
        diff.append(f"{kept} dense-SIFT descriptors per image (document: all, ~600)")
    if scene.max_images_per_class is not None:
        diff.append(f"{scene.max_images_per_class} images per class (document: all)")
    if not diff:
        return "real", ""
    return "substitute", "substitute preprocessing of " + ds + ": " + "; ".join(diff)


def _kind(ctx, ds) -> tuple[str, str]:
    s = ctx.settings
    return data_kind(ds, s.scene, s.desc_per_doc)


def _frames(ctx, name, optional=False):
    """{dataset: frame} of the input ``name``. Absent: a partial run (a readings sweep or a
    ladder rung building other targets) raises MissingInput (a not_run row), unless
    ``optional``."""
    if optional and not ctx.has_input(name):
        return {}
    out = {}
    for p in ctx.input_list(name):
        df = pd.read_csv(p)
        out[str(df.dataset.iloc[0])] = df
    return out


def _tag(ctx, r, ds):
    """Give a Measured / Sides its dataset, data kind and the kind's note."""
    kind, why = _kind(ctx, ds)
    r.dataset, r.data_kind = ds, kind
    if why:
        r.note = "; ".join(x for x in (r.note, why) if x)
    return r


def _each(ctx, name, fn, need_real=("scene13",)):
    """``fn(df)`` -> a Measured / Sides (or a list of them) for every dataset of the input
    ``name``; NotRun for a real dataset the run leaves out."""
    res = []
    frames = _frames(ctx, name)
    for ds, df in frames.items():
        out = fn(df)
        for r in out if isinstance(out, list) else [out]:
            res.append(_tag(ctx, r, ds))
    for ds in need_real:
        if ds not in frames:
            res.append(NotRun(f"{ds} is not in this run; {REAL} runs it", dataset=ds))
    return res


def _ladder(ctx, field: str, quantity: str):
    """The ladder rung's spread of ``quantity`` (claims.ladder.<field>) as a Noise."""
    lad = ctx.settings.claims.ladder
    src = lad.e8_source if field == "e8" else lad.source
    return Noise(float(getattr(lad, field)), int(lad.n), f"{quantity}: {src}")


def _noise_if_few(ctx, n: int, field: str, quantity: str):
    """The ladder's Noise when fewer than MIN_REPS replicates, else None (their own)."""
    return _ladder(ctx, field, quantity) if n < MIN_REPS else None


def _seeds(df) -> list:
    return sorted(df.seed.unique())


def _settings(df):
    return sorted({(T, n) for T, n in zip(df["T"], df.n_train, strict=True)})


def _best_k(df, base, T, n) -> int:
    """The baseline's best K at (T, n): highest accuracy on the mean over seeds (choosing K
    per seed would pick each seed's luckiest K)."""
    d = df[(df.model == base) & (df["T"] == T) & (df.n_train == n)]
    return int(d.groupby("K").acc.mean().idxmax())


def _acc(df, model, T, n, seed, K=None) -> float:
    """Accuracy (points) of one run."""
    d = df[(df.model == model) & (df["T"] == T) & (df.n_train == n) & (df.seed == seed)]
    if K is not None:
        d = d[d.K == K]
    if len(d) != 1:
        raise ValueError(f"{model} T={T} n={n} seed={seed} K={K}: {len(d)} rows, expected 1")
    return 100 * float(d.acc.iloc[0])


def _pairs(df, model, base):
    """Per (setting, seed): (T, n, seed, model's accuracy, base's accuracy at the best K, K)."""
    rows = []
    for T, n in _settings(df):
        k = _best_k(df, base, T, n)
        for s in _seeds(df):
            rows.append((T, n, s, _acc(df, model, T, n, s), _acc(df, base, T, n, s, k), k))
    return rows


def _unit(df, what="settings") -> str:
    return f"({what}, seed) pairs" if df.seed.nunique() > 1 else what


def settings_beaten_all_but_one(iwtm, lda, margin: float) -> int:
    """E1 for one seed: settings where ``iwtm >= lda - margin``, minus (settings - 1): >= 0
    when IWTM holds its own in all settings but one."""
    wins = sum(a >= b - margin for a, b in zip(iwtm, lda, strict=True))
    return int(wins - (len(iwtm) - 1))


@STUDY.claim("E1")
def _(ctx):
    m = ctx.settings.claims.se_margin

    def f(df):
        vals, notes = [], []
        for s in _seeds(df):
            rows = [r for r in _pairs(df, "IWTM", "sLDA_BOW") if r[2] == s]
            vals.append(settings_beaten_all_but_one([r[3] for r in rows], [r[4] for r in rows], m))
            notes.append(f"seed {s}: " + ", ".join(f"T={T} n={n} {a:.1f} vs {b:.1f}"
                                                   for T, n, _, a, b, _ in rows))  # fmt: skip
        return Measured(vals, note="; ".join(notes))

    return _each(ctx, "ch4", f)


@STUDY.claim("E2")
def _(ctx):
    def f(df):
        first, last, notes = [], [], []
        rows = _pairs(df, "IWTM", "sLDA_BOW")
        for T in sorted({r[0] for r in rows}):
            for s in _seeds(df):
                gaps = [a - b for t, _, ss, a, b, _ in rows if t == T and ss == s]
                first.append(gaps[0])
                last.append(gaps[-1])
                notes.append(f"T={T} seed {s} gaps {[round(g, 1) for g in gaps]}")
        return Sides(first, last, labels=("gap at the smallest n_train", "at the largest"),
                     unit="(T, seed) pairs", note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E3")
def _(ctx):
    def f(df):
        a, b, notes = [], [], []
        lda = df[df.model == "sLDA_BOW"]
        for T in sorted(df["T"].unique()):
            ns = sorted(df[df["T"] == T].n_train.unique())
            for s in _seeds(df):
                best = [int(lda[(lda["T"] == T) & (lda.n_train == n) & (lda.seed == s)]
                            .set_index("K").acc.idxmax()) for n in ns]  # fmt: skip
                a.append(float(np.log2(best[-1])))
                b.append(float(np.log2(best[0])))
                notes.append(f"T={T} seed {s}: best K {best} over n_train {ns}")
        return Sides(a, b, labels=("log2 best K at the largest n_train", "at the smallest"),
                     unit="(T, seed) pairs", note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E4")
def _(ctx):
    def f(df):
        a, b, notes = [], [], []
        lda = df[df.model == "sLDA_BOW"]
        for T, n in _settings(df):
            ks = np.array(sorted(lda[(lda["T"] == T) & (lda.n_train == n)].K.unique()))
            for s in _seeds(df):
                iw = df[(df.model == "IWTM") & (df["T"] == T) & (df.n_train == n) & (df.seed == s)]
                k = int(ks[np.argmin(np.abs(np.log(ks / float(iw.K.iloc[0]))))])
                a.append(_acc(df, "IWTM", T, n, s))
                b.append(_acc(df, "sLDA_BOW", T, n, s, k))
                notes.append(f"T={T} n={n} seed {s}: {a[-1]:.1f} (K={int(iw.K.iloc[0])}) vs "
                             f"LDA K={k} {b[-1]:.1f}")  # fmt: skip
        return Sides(a, b, labels=("IWTM", "LDA at its K"), unit=_unit(df),
                     note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E5")
def _(ctx):
    def f(df):
        a, b, notes = [], [], []
        for T, n in _settings(df):
            for s in _seeds(df):
                a.append(_acc(df, "IWTM", T, n, s))
                b.append(_acc(df, "LDA_on_IWTM_clusters", T, n, s))
                notes.append(f"T={T} n={n} seed {s}: {a[-1]:.1f} vs {b[-1]:.1f}")
        return Sides(a, b, paper_a=58.0, paper_b=51.0, labels=("soft IWTM", "LDA on its clusters"),
                     unit=_unit(df), note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E6")
def _(ctx):
    def f(df):
        iw = df[df.model == "IWTM"]
        vals, notes = [], []
        for T in sorted(iw["T"].unique()):
            ns = sorted(iw[iw["T"] == T].n_train.unique())
            for s in _seeds(df):
                k = iw[(iw["T"] == T) & (iw.seed == s)].set_index("n_train").K
                vals.append(float(k.loc[ns[-1]] / k.loc[ns[0]]))
                notes.append(f"T={T} seed {s}: K " + " -> ".join(f"{int(k.loc[n])}" for n in ns)
                             + f" over n_train {ns}")  # fmt: skip
        return Measured(vals, unit="(T, seed) pairs", note="; ".join(notes))

    return _each(ctx, "ch4", f)


@STUDY.claim("E7")
def _(ctx):
    def f(df):
        rows = _pairs(df, "IWTM_CAVI", "LDA_KMEANS")
        return Sides([r[3] for r in rows], [r[4] for r in rows], paper_a=71.28, paper_b=70.18,
                     labels=("IWTM CAVI", "best LDA+KMEANS"), unit=_unit(df),
                     note="; ".join(f"T={T} n={n} seed {s}: {a:.1f} vs {b:.1f} (K={k})"
                                    for T, n, s, a, b, k in rows))  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E8")
def _(ctx):
    def f(df):
        T, n = max(_settings(df))
        k = _best_k(df, "LDA_KMEANS", T, n)
        cv = df[(df.model == "IWTM_CAVI") & (df["T"] == T) & (df.n_train == n)].sort_values("seed")
        v = [float(x) for x in cv.K]
        return Sides(v, k, paper_a=2784, paper_b=750, labels=("IWTM vocabulary", "best K"),
                     noise=_noise_if_few(ctx, len(v), "e8", "CAVI IWTM's vocabulary at 100 images per class"),
                     note=f"T={T} n={n}: IWTM {np.mean(v):.0f} clusters (per seed {[int(x) for x in v]}) "
                          f"vs best LDA+KMEANS K {k}")  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E9")
def _(ctx):
    def f(df):
        vals, notes = [], []
        for T, n in _settings(df):
            for s in _seeds(df):
                sub = df[(df["T"] == T) & (df.n_train == n) & (df.seed == s)].set_index("model")
                g, i = float(sub.K.loc["LDA_GDPMM"]), float(sub.K.loc["IWTM_CAVI"])
                vals.append(g / i)
                notes.append(f"T={T} n={n} seed {s}: GDPMM {g:.0f} vs IWTM {i:.0f} words")
        return Measured(vals, unit=_unit(df), note="; ".join(notes))

    return _each(ctx, "ch5", f)


@STUDY.claim("E9-acc")
def _(ctx):
    def f(df):
        a, b, notes = [], [], []
        for T, n in _settings(df):
            for s in _seeds(df):
                a.append(_acc(df, "IWTM_CAVI", T, n, s))
                b.append(_acc(df, "LDA_GDPMM", T, n, s))
                notes.append(f"T={T} n={n} seed {s}: IWTM {a[-1]:.1f} vs GDPMM {b[-1]:.1f}")
        return Sides(a, b, paper_a=71.28, paper_b=68.59, labels=("IWTM CAVI", "LDA+GDPMM"),
                     unit=_unit(df), note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch5", f)


def fitted_peak(log_k, acc) -> tuple[float, float]:
    """E10: a quadratic fitted to ``acc`` over ``log_k`` (least squares), and its value at
    its highest point within the grid and at the higher end of the grid. A curve peaking
    inside the grid gives peak > end; a monotone or flat curve's highest point is an end
    (peak == end)."""
    x, y = np.asarray(log_k, dtype=float), np.asarray(acc, dtype=float)
    if len(x) < 3:
        raise ValueError(f"a quadratic needs at least 3 K values, got {len(x)}")
    c = np.polyfit(x, y, 2)
    ends = [float(np.polyval(c, x.min())), float(np.polyval(c, x.max()))]
    peak = max(ends)
    if c[0] < 0:
        v = -c[1] / (2 * c[0])
        if x.min() < v < x.max():
            peak = max(peak, float(np.polyval(c, v)))
    return peak, max(ends)


@STUDY.claim("E10")
def _(ctx):
    def f(df):
        a, b, notes = [], [], []
        lk = df[df.model == "LDA_KMEANS"]
        for T, n in _settings(df):
            for s in _seeds(df):
                d = lk[(lk["T"] == T) & (lk.n_train == n) & (lk.seed == s)].sort_values("K")
                peak, end = fitted_peak(np.log2(d.K.values), 100 * d.acc.values)
                a.append(peak)
                b.append(end)
                best = int(d.K.values[np.argmax(d.acc.values)])
                notes.append(f"T={T} n={n} seed {s}: fitted peak {peak:.1f} vs end {end:.1f} "
                             f"(best K on the grid {best})")  # fmt: skip
        return Sides(a, b, labels=("fitted peak", "higher end"), unit=_unit(df),
                     note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E11")
def _(ctx):
    a, b = _frames(ctx, "ch4"), _frames(ctx, "ch5")
    res = []
    for ds in a:
        if ds not in b:
            continue
        n = max(a[ds].n_train)
        g = a[ds][(a[ds].model == "IWTM") & (a[ds].n_train == n)]
        v = b[ds][(b[ds].model == "IWTM_CAVI") & (b[ds].n_train == n)]
        # seed r of the Gibbs run against seed r of the CAVI run (and every T's mean)
        gs = 100 * g.groupby("seed").acc.mean()
        vs = 100 * v.groupby("seed").acc.mean()
        seeds = sorted(set(gs.index) & set(vs.index))
        res.append(_tag(ctx, Sides(
            [float(vs[s]) for s in seeds], [float(gs[s]) for s in seeds], paper_a=71.5,
            paper_b=68.5, labels=("VI+SVM", "Gibbs"),
            noise=_noise_if_few(ctx, len(seeds), "e11",
                                "CAVI IWTM + SVM minus Gibbs IWTM accuracy at 100 images per class"),
            note=f"{n}/class, per seed: VI+SVM {[round(float(vs[s]), 1) for s in seeds]} vs "
                 f"Gibbs {[round(float(gs[s]), 1) for s in seeds]}"), ds))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


@STUDY.claim("E12")
def _(ctx):
    def f(df):
        iw = df[df.model == "IWTM_CAVI"].set_index(["T", "n_train", "seed"]).seconds
        lk = df[df.model == "LDA_KMEANS"]
        vals, notes = [], []
        for (T, n, s), g in lk.groupby(["T", "n_train", "seed"]):
            r = g.seconds.values / iw.loc[(T, n, s)]
            vals.append(float(np.median(r)))
            notes.append(f"T={T} n={n} seed {s}: {np.median(r):.2f} ({r.min():.2f}-{r.max():.2f})")
        return Measured(vals, reject=[1.0], unit=_unit(df),
                        note="median ratio over K: " + "; ".join(notes))  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E13")
def _(ctx):
    """Training time at the document's schedules (Gibbs 500 sweeps, CAVI 50 iterations)
    from our per-sweep / per-iteration times on the same training images."""
    import json

    a, b = _frames(ctx, "ch4"), _frames(ctx, "ch5")
    res = []
    for ds in a:
        if ds not in b:
            continue
        g = a[ds][a[ds].model == "IWTM"]
        v = b[ds][b[ds].model == "IWTM_CAVI"]
        gi = (g.seconds / g.sweeps).groupby([g["T"], g.n_train, g.seed]).mean()
        it = v.clusters_trace.map(lambda t: len(json.loads(t)))
        vi = (v.seconds / it).groupby([v["T"], v.n_train, v.seed]).mean()
        j = pd.concat([gi.rename("g"), vi.rename("v")], axis=1).dropna()
        r = list((500 * j.g / (50 * j.v)).astype(float))
        # the rule must refuse a CAVI iteration as slow as a Gibbs sweep (ratio 10) or twice
        # as slow (ratio 5)
        res.append(_tag(ctx, Measured(r, reject=[5.0, 10.0], unit=_unit(a[ds]),
                                      note=f"500 x (s per Gibbs sweep) / 50 x (s per CAVI "
                                           f"iteration) per setting and seed; per-step ratio "
                                           f"median {float((j.g / j.v).median()):.2f}"), ds))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


@STUDY.claim("E14")
def _(ctx):
    """Gain of the largest N_total over N_total = N_L at the smallest and the largest N_L,
    per seed (the CAVI runs of each N_total)."""

    def f(df):
        lo, hi, notes = [], [], []
        nls = sorted(df.n_labelled.unique())
        for s in _seeds(df):
            d = df[df.seed == s].set_index(["n_labelled", "n_total"]).acc
            gains = {}
            for nl in nls:
                g = d.loc[nl]
                gains[nl] = 100 * float(g.loc[g.index.max()] - g.loc[g.index.min()])
            lo.append(gains[nls[0]])
            hi.append(gains[nls[-1]])
            notes.append(
                f"seed {s}: " + ", ".join(f"N_L={nl}: {v:+.1f}" for nl, v in gains.items())
            )
        return Sides(lo, hi, paper_a=5.8, paper_b=4.3,
                     labels=(f"gain at N_L={nls[0]}/class", f"at N_L={nls[-1]}/class"),
                     note="gain of the largest N_total over N_total = N_L (points); "
                          + "; ".join(notes))  # fmt: skip

    return _each(ctx, "semi", f)


@STUDY.claim("E30")
def _(ctx):
    def f(df):
        d = df[df.model == "IWTM_CAVI"]
        v = [float(x) for x in d.onehot_frac]
        return Measured(
            v, unit=_unit(df), noise=_noise_if_few(ctx, len(v), "e30", "CAVI's one-hot share")
        )

    return _each(ctx, "ch5", f, need_real=())


@STUDY.claim("E4.3")
def _(ctx):
    """Fig 4.3's IWTM accuracy on 8-scene (T = 100) per seed; the document: 76.4 +- 0.2 %."""
    a = _frames(ctx, "scene8")
    if "scene8" not in a:
        return NotRun(f"scene8 is not in this run; {REAL} runs it", dataset="scene8")
    df = a["scene8"].sort_values("seed")
    v = [100 * float(x) for x in df.acc]
    return _tag(ctx, Measured(v, noise=_noise_if_few(ctx, len(v), "e4_3", "Gibbs IWTM accuracy on 8-scene at T = 100"),
                              note=f"{len(df)} run(s) at T = {int(df['T'].iloc[0])}, "
                                   f"{int(df.n_train.iloc[0])} train / {int(df.n_test.iloc[0])} test "
                                   f"images ({df.reduction.iloc[0] or 'the document protocol'})"),
                "scene8")  # fmt: skip


@STUDY.claim("FF65")
def _(ctx):
    a = _frames(ctx, "ch4")
    if "scene13" not in a:
        return NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13")
    df = a["scene13"]
    best = 100 * df[df.model == "sLDA_BOW"].groupby("seed").acc.max()
    v = [float(x) for x in best]
    return _tag(ctx, Measured(v, noise=_noise_if_few(ctx, len(v), "ff65", "the best sLDA+BOW accuracy at 100 images per class"),
                              note=f"our best sLDA+BOW per seed {[round(x, 1) for x in v]} %"),
                "scene13")  # fmt: skip


# ------------------------------------------------------------------ chapters 6-7
@STUDY.claim("C4")
def _(ctx):
    from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
    from latentlab.models.iwtm.normal_gamma import NGPrior
    from latentlab.models.iwtm.svi import IWTMSvi, SviSettings

    rng = np.random.default_rng(2)
    cen = rng.normal(0, 3, size=(4, 2))
    lens = rng.integers(4, 9, size=20)
    X = np.vstack([cen[rng.integers(0, 4, n)] + 0.4 * rng.normal(size=(n, 2)) for n in lens])
    ip = np.concatenate([[0], np.cumsum(lens)])
    prior = NGPrior.from_data(X, 1.0, 4.0)
    worst = 0.0
    for mode in ("tied", "per_topic"):
        for ct, J in ((3, 4), (8, 8)):
            s = CaviSettings(T=3, C=8, K=16, alpha0=1.5, gamma=2.0, c_top=ct, map_top=J,
                             mapping_mode=mode, max_local=30, local_tol=1e-6)  # fmt: skip
            a = IWTMCavi(s, prior, seed=1).fit(X, ip, 1)
            b = IWTMSvi(s, prior, SviSettings(rho=1.0), seed=1).fit(X, ip, 1)
            for x, y in ((a.q.mt, b.q.mt), (a.q.nu, b.q.nu), (a.q.chi1, b.q.chi1),
                         (a.q.chi2, b.q.chi2), (a.beta_dense(), b.beta_dense()),
                         (a.zeta_stick, b.zeta_stick), (a.elog_pi, b.elog_pi),
                         (a.elog_beta, b.elog_beta)):  # fmt: skip
                worst = max(worst, float(np.abs(x - y).max()))
    return worst


def svi_final_runs(df) -> pd.DataFrame:
    """Fig 6.1 runs: the last ELBO snapshot of each (rho, seed) (columns elbo, seconds)."""
    last = df.dropna(subset=["elbo"]).sort_values("iteration").groupby(["rho", "seed"]).tail(1)
    return last.set_index(["rho", "seed"])[["elbo", "seconds"]].sort_index()


@STUDY.claim("E15")
def _(ctx):
    def f(df):
        fin = svi_final_runs(df).elbo
        a, b = [], []
        for (rho, s), e in fin.items():
            if rho < 1.0 and (1.0, s) in fin.index:
                a.append(float(e))
                b.append(float(fin.loc[(1.0, s)]))
        mean = svi_final(df).elbo
        return Sides(a, b, labels=("SVI final ELBO", "CAVI's"), unit="(rho, seed) pairs",
                     note="mean final ELBO " + ", ".join(f"rho={r:g}: {v:.6g}" for r, v in mean.items()))  # fmt: skip

    return _each(ctx, "svi", f)


@STUDY.claim("E15-best")
def _(ctx):
    def f(df):
        fin = svi_final_runs(df).elbo.unstack("rho")
        svi = fin[[r for r in fin.columns if r < 1.0]]
        low = min(svi.columns)
        other = svi.drop(columns=low).max(axis=1)
        return Sides(list(svi[low].astype(float)), list(other.astype(float)),
                     labels=(f"rho={low:g}", "the best other SVI rho"),
                     note="final ELBO per seed: " + "; ".join(
                         f"seed {s}: " + ", ".join(f"rho={r:g} {v:.6g}" for r, v in row.items())
                         for s, row in fin.iterrows()))  # fmt: skip

    return _each(ctx, "svi", f)


def svi_times(df) -> pd.DataFrame:
    """E16 per seed: the smallest rho's time to pass CAVI's best ELBO of that seed (its whole
    run's time when it never does: a lower bound of the value, flagged ``passed``) and its
    total time, both over CAVI's total time."""
    snap = df.dropna(subset=["elbo"])
    low = min(df.rho)
    rows = []
    for s in sorted(df.seed.unique()):
        cavi = snap[(snap.rho == 1.0) & (snap.seed == s)]
        run = snap[(snap.rho == low) & (snap.seed == s)].sort_values("iteration")
        t_cavi = float(df[(df.rho == 1.0) & (df.seed == s)].seconds.max())
        t_run = float(df[(df.rho == low) & (df.seed == s)].seconds.max())
        passed = run[run.elbo > cavi.elbo.max()]
        t_pass = float(passed.seconds.min()) if len(passed) else t_run
        rows.append(
            dict(seed=s, frac=t_pass / t_cavi, total=t_run / t_cavi, passed=bool(len(passed)))
        )
    return pd.DataFrame(rows)


@STUDY.claim("E16")
def _(ctx):
    def f(df):
        t = svi_times(df)
        return Measured(list(t.frac), note=(
            f"rho={min(df.rho):g} per seed: " + ", ".join(
                f"{v:.2f}" + ("" if p else " (never passes: its whole run)")
                for v, p in zip(t.frac, t.passed, strict=True))))  # fmt: skip

    return _each(ctx, "svi", f)


@STUDY.claim("E16-total")
def _(ctx):
    def f(df):
        t = svi_times(df)
        return Measured(list(t.total), note=f"rho={min(df.rho):g} total / CAVI total per seed: "
                        + ", ".join(f"{v:.2f}" for v in t.total))  # fmt: skip

    return _each(ctx, "svi", f)


@STUDY.claim("E17")
def _(ctx):
    def f(df):
        rhos = sorted(df.rho.unique())
        grid = np.linspace(0, 1, 11)[1:] * df.passes.max()
        a, b, per = [], [], {}
        for s in _seeds(df):
            curves = []
            for r in rhos:
                g = df[(df.rho == r) & (df.seed == s)].sort_values("iteration")
                curves.append(np.interp(grid, g.passes, g.clusters))
            for lo, hi in zip(curves, curves[1:], strict=False):
                a += list(hi)
                b += list(lo)
            per[s] = [float(c[-1]) for c in curves]
        return Sides(a, b, labels=("clusters at the larger rho", "at the smaller"),
                     unit="(adjacent rho pair, tenth of the run, seed)",
                     note="final clusters per seed " + "; ".join(
                         f"seed {s}: " + ", ".join(f"rho={r:g} {v:.0f}" for r, v in zip(rhos, c, strict=True))
                         for s, c in per.items()))  # fmt: skip

    return _each(ctx, "svi", f)


@STUDY.claim("E18")
def _(ctx):
    a, b = _frames(ctx, "svi"), _frames(ctx, "ch5")
    res = []
    for ds, df in a.items():
        n, T = int(df.n_train.iloc[0]), int(df["T"].iloc[0])
        c5 = b.get(ds)
        lk = None if c5 is None else c5[(c5.model == "LDA_KMEANS") & (c5["T"] == T)
                                         & (c5.n_train == n)]  # fmt: skip
        kind, _ = _kind(ctx, ds)
        if lk is None or lk.empty:
            res.append(NotRun(f"no ch5 LDA+KMEANS run at n_train = {n}/class and T = {T} on "
                              f"{ds} in this config", dataset=ds, data_kind=kind))  # fmt: skip
            continue
        low = min(df.rho)
        t_svi = svi_final_runs(df).seconds.xs(low, level="rho")
        med = float(lk.seconds.median())
        res.append(_tag(ctx, Measured([float(t) / med for t in t_svi],
                                      note=f"SVI rho={low:g} per seed {[round(float(t), 1) for t in t_svi]} s "
                                           f"vs median LDA+KMEANS {med:.1f} s over K and seeds (ch5, {n}/class, T = {T})"),
                        ds))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


def _sun(ctx):
    """(metrics, per-class) frames of the SUN protocol run; MissingInput in a partial run
    that did not build them."""
    return pd.read_csv(ctx.input("sun")), pd.read_csv(ctx.input("sun_class"))


def _sun_rows(ctx, fn):
    m, c = _sun(ctx)
    res = []
    ds, kind = str(m.dataset.iloc[0]), str(m.data_kind.iloc[0])
    for out in fn(m, c):
        out.dataset, out.data_kind = ds, kind
        res.append(out)
    if ds != "sun397":
        res.append(NotRun("SUN397 is not in this run; config/paper.yaml downloads it "
                          "(fetch_sun397) and runs the protocol", dataset="sun397"))  # fmt: skip
    return res


@STUDY.claim("E19")
def _(ctx):
    def f(m, c):
        from .sun import win_tie_loss

        acc = m.groupby("method").acc.agg(["mean", "std"])
        g = c.groupby("class_id")[["acc_vw", "acc_topic"]].mean()
        w, t, lo = win_tie_loss(g.acc_vw, g.acc_topic)
        vw, tp = acc.loc["visual_words"], acc.loc["iwtm_topics"]
        return [Sides(list(100 * g.acc_vw), list(100 * g.acc_topic), paper_a=11.7, paper_b=7.1,
                      labels=("visual words", "IWTM topics"), unit="classes", note=(
            f"overall VW {100 * vw['mean']:.1f} vs topics {100 * tp['mean']:.1f} % over "
            f"{m.seed.nunique()} seed(s); per class VW better / tie / topics better: "
            f"{w} / {t} / {lo} of {len(g)} (document 219 / 87 / 91 of 397; chance "
            f"{100 / len(g):.1f} %)"))]  # fmt: skip

    return _sun_rows(ctx, f)


@STUDY.claim("E20")
def _(ctx):
    def f(m, c):
        p = m.pivot_table(index="seed", columns="method", aggfunc="mean", numeric_only=True)
        if "nmi_truth" in m and np.isfinite(m.nmi_truth).all():
            lab = p["labels_per_region"]
            nmi = p["nmi_truth"]
            return [
                Sides(list(nmi.iwtm_topics), list(nmi.visual_words),
                      labels=("NMI with the true topics: topics", "visual words")),
                Sides(list(lab.visual_words), list(lab.iwtm_topics), claim_id="E20-regions",
                      labels=("labels per true-topic region: visual words", "topics")),
            ]  # fmt: skip
        lift = p["coherence_lift"]
        return [Sides(list(lift.iwtm_topics), list(lift.visual_words),
                      labels=("spatial coherence lift: topics", "visual words"),
                      note=f"labels used: topics {p['labels_used'].iwtm_topics.mean():.0f}, "
                           f"VW {p['labels_used'].visual_words.mean():.0f}")]  # fmt: skip

    return _sun_rows(ctx, f)


@STUDY.claim("E21")
def _(ctx):
    def f(tr):
        d = tr[tr.method == "IVI-NO-EXTEND"]
        vals, notes = [], []
        for s in _seeds(d):
            g = (
                d[d.seed == s]
                .groupby("iteration")
                .agg(c=("clusters", "mean"), n=("n_doc", "first"))
            )
            grown = g[g.n > g.n.min()]
            after = g.c.values[len(g) - len(grown) - 1 :]  # from the last size before growth
            vals.append(float(np.diff(after).max(initial=0.0)))
            notes.append(f"seed {s}: {after[0]:.0f} -> {after[-1]:.0f}")
        return Measured(vals, note="clusters from growth on: " + "; ".join(notes))

    return _each(ctx, "ivi_trace", f)


@STUDY.claim("E22")
def _(ctx):
    def f(df):
        d = df.dropna(subset=["ivi_extend_clusters"])
        g = d.groupby("n_docs")[["ivi_before_clusters", "ivi_extend_clusters"]].mean()
        jumps = int((g.ivi_extend_clusters > g.ivi_before_clusters).sum())
        last = df[df.n_docs == df.n_docs.max()][["ivi_clusters", "noext_clusters"]].mean()
        ok = bool(jumps == len(g) and last.ivi_clusters > last.noext_clusters)
        return Measured(ok, note=(f"EXTEND raised the clusters at {jumps} of {len(g)} growths; "
                                  f"final {last.ivi_clusters:.0f} (IVI) vs {last.noext_clusters:.0f} "
                                  "(no extend)"))  # fmt: skip

    rows = _each(ctx, "ivi", f)
    for r in rows:
        if isinstance(r, Measured):
            r.data_kind = ID  # EXTEND adds clusters by construction: a fact of our code
    return rows


def _ivi_gaps(df):
    """Per (seed, size after growth): IVI and no-extend ELBO."""
    first = df.n_docs.min()
    return df[df.n_docs > first].sort_values(["seed", "n_docs"])


@STUDY.claim("E23")
def _(ctx):
    def f(df):
        g = _ivi_gaps(df)
        gap = g.groupby("n_docs")[["ivi_elbo", "noext_elbo"]].mean()
        return Sides(list(g.ivi_elbo.astype(float)), list(g.noext_elbo.astype(float)),
                     labels=("IVI ELBO", "no-extend"), unit="(size, seed) pairs",
                     note="mean IVI - no-extend per size: " + ", ".join(
                         f"{n}: {v:+.4g}" for n, v in (gap.ivi_elbo - gap.noext_elbo).items()))  # fmt: skip

    return _each(ctx, "ivi", f)


@STUDY.claim("E23-widen")
def _(ctx):
    def f(df):
        g = _ivi_gaps(df)
        a, b = [], []
        for _, d in g.groupby("seed"):
            gap = (d.ivi_elbo - d.noext_elbo).values
            a.append(float(gap[-1]))
            b.append(float(gap[0]))
        return Sides(a, b, labels=("gap at the last size", "at the first size after growth"))

    return _each(ctx, "ivi", f)


@STUDY.claim("E24")
def _(ctx):
    def f(df):
        """The rule must refuse the no-extend model's gap to scratch (Fig 7.3b's other
        method): a tolerance that also passes no-extend cannot tell IVI from it."""
        g = _ivi_gaps(df)
        rel = (g.ivi_elbo - g.scratch_elbo) / g.scratch_elbo.abs()
        worst = [float(x) for x in rel.abs().groupby(g.seed).max()]
        noext = float(((g.noext_elbo - g.scratch_elbo) / g.scratch_elbo.abs()).abs().max())
        mean = rel.groupby(g.n_docs).mean()
        return Measured(worst, reject=[noext],
                        note="mean (IVI - scratch)/|scratch| per size: "
                             + ", ".join(f"{n}: {100 * v:+.2f} %" for n, v in mean.items())
                             + f"; no-extend's largest gap {100 * noext:.2f} % (rejected)")  # fmt: skip

    return _each(ctx, "ivi", f)


@STUDY.claim("E25")
def _(ctx):
    def f(df):
        g = _ivi_gaps(df)
        r = g.scratch_s / g.ivi_s
        low = [float(x) for x in r.groupby(g.seed).min()]
        mean = r.groupby(g.n_docs).mean()
        return Measured(low, note="mean scratch / IVI step time per size: " + ", ".join(
            f"{n}: {v:.2f}x" for n, v in mean.items()))  # fmt: skip

    return _each(ctx, "ivi", f)


def _active(df, model, method=None) -> pd.DataFrame:
    """Accuracy (points) per (n_labelled, seed) rows, columns K (LDA) or method (IWTM)."""
    d = df[df.model == model]
    if method is not None:
        d = d[d.method == method]
    col = "K" if model == "LDA_KMEANS" else "method"
    return 100 * d.pivot_table(index=["n_labelled", "seed"], columns=col, values="acc")


def _after_seed(t: pd.DataFrame) -> pd.DataFrame:
    """Rows after the shared seed set (round 0)."""
    n0 = t.index.get_level_values("n_labelled").min()
    return t[t.index.get_level_values("n_labelled") > n0]


@STUDY.claim("E26")
def _(ctx):
    def f(df):
        c = _after_seed(_active(df, "IWTM"))
        gap = (c["active"] - c["random"]).groupby(level="n_labelled")
        mean, sd = gap.mean(), gap.std()
        n = int(mean.idxmax())
        return Sides(list(c["active"]), list(c["random"]), labels=("active", "random"),
                     unit="(round, seed) pairs", note=(
            f"mean active - random > 0 at {int((mean > 0).sum())} of {len(mean)} rounds; largest "
            f"{mean.max():+.1f} pts at {n} docs (sd over {df.seed.nunique()} seeds "
            f"{np.nan_to_num(sd.loc[n]):.1f}); smallest {mean.min():+.1f} pts (document: +5.1 at 260)"))  # fmt: skip

    return _each(ctx, "active", f)


@STUDY.claim("E27")
def _(ctx):
    def f(df):
        iw = _active(df, "IWTM")["active"]
        lda = _active(df, "LDA_KMEANS", "active")
        iw, lda = iw.align(lda, join="inner", axis=0)
        best = lda.max(axis=1)
        gap = (iw - best).groupby(level="n_labelled").mean()
        return Sides(list(iw), list(best), labels=("IWTM", "the best LDA K"),
                     unit="(round, seed) pairs",
                     note=f"mean IWTM - best LDA K per round: {gap.min():+.1f} to {gap.max():+.1f} pts")  # fmt: skip

    return _each(ctx, "active", f)


@STUDY.claim("E28")
def _(ctx):
    def f(df):
        lda = _active(df, "LDA_KMEANS", "active")
        best = lda.idxmax(axis=1).astype(int)
        rounds = sorted(best.index.get_level_values("n_labelled").unique())
        a, b, notes = [], [], []
        for s in sorted(best.index.get_level_values("seed").unique()):
            k = best.xs(s, level="seed")
            a.append(float(np.log2(k.loc[rounds[-1]])))
            b.append(float(np.log2(k.loc[rounds[0]])))
            notes.append(f"seed {s}: " + ", ".join(f"{n}: {v}" for n, v in k.items()))
        return Sides(a, b, labels=("log2 best K at the last round", "at the first"),
                     note="best K per round: " + "; ".join(notes))  # fmt: skip

    return _each(ctx, "active", f)


@STUDY.claim("E29")
def _(ctx):
    def f(df):
        act = _after_seed(_active(df, "LDA_KMEANS", "active")).groupby(level="seed").mean()
        rnd = _after_seed(_active(df, "LDA_KMEANS", "random")).groupby(level="seed").mean()
        act, rnd = act.align(rnd, join="inner")
        a = [float(act.loc[s, k]) for k in act.columns for s in act.index]
        b = [float(rnd.loc[s, k]) for k in act.columns for s in act.index]
        d = (act - rnd).mean(axis=0)
        return Sides(a, b, labels=("LDA active", "random"), unit="(K, seed) pairs",
                     note="mean over rounds and seeds, active - random: " + ", ".join(
                         f"K={int(k)}: {v:+.1f}" for k, v in d.items()) + " pts")  # fmt: skip

    return _each(ctx, "active", f)


@STUDY.claim("E31")
def _(ctx):
    from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
    from latentlab.models.iwtm.normal_gamma import NGPrior

    T = 7
    X = np.random.default_rng(0).normal(size=(40, 3))
    m = IWTMCavi(CaviSettings(T=T, C=10, K=20, c_top=10, map_top=10),
                 NGPrior.from_data(X, 1.0, 4.0)).initialize(X)  # fmt: skip
    shared = m.beta_dense()
    per_topic = np.broadcast_to(shared, (T, *shared.shape)).copy()
    return Measured(bool(per_topic.nbytes == T * shared.nbytes),
                    note=f"per-topic {per_topic.nbytes} B vs shared {shared.nbytes} B at T = {T}")  # fmt: skip


def largest_rise(counts) -> float:
    """E21, E32: the largest rise of a count (clusters in use) from one step to the next
    (0 when it never rises)."""
    return float(np.diff(np.asarray(counts, dtype=float)).max(initial=0.0))


@STUDY.claim("E32")
def _(ctx):
    def f(df):
        ups, per = [], {}
        for (rho, _), g in df.groupby(["rho", "seed"]):
            u = largest_rise(g.sort_values("iteration").clusters.values)
            ups.append(u)
            per[rho] = max(per.get(rho, 0.0), u)
        return Measured(ups, unit="(rho, seed) runs", note=(
            "largest per-iteration rise per rho (over seeds): "
            + ", ".join(f"rho={r:g}: {u:+.0f}" for r, u in sorted(per.items()))
            + "; exact CAVI (dense, fixed order) pares back on 3 blobs "
              "(tests/models/iwtm/test_paring_back.py): the rises come from minibatch noise "
              "(rho < 1) and sparse top-C / reordering (rho = 1), see published/real/REVERSALS.md"))  # fmt: skip

    res = _each(ctx, "svi", f)
    for ds, df in _frames(ctx, "pareback", optional=True).items():  # Fig 7.1's analogue
        runs = {s: g.sort_values("iteration").clusters.values for s, g in df.groupby("seed")}
        first = df[df.iteration == 1].clusters.mean()
        r = Measured([largest_rise(c) for c in runs.values()], unit="seeds",
                     note=f"Fig 7.1 analogue, sklearn VB: {first:.0f} clusters after the first "
                          f"iteration -> {np.mean([c[-1] for c in runs.values()]):.0f} at the last")  # fmt: skip
        _tag(ctx, r, ds)
        r.dataset = f"{ds} (Gaussian DP mixture, VB)"
        res.append(r)
    return res


@STUDY.claim("E33")
def _(ctx):
    def f(df):
        lk = df[df.model == "LDA_KMEANS"]
        r = (lk.kmeans_s / lk.lda_s).groupby([lk["T"], lk.n_train, lk.seed]).median()
        return Measured([float(x) for x in r], unit=_unit(df),
                        note=f"median K-means / LDA time per setting and seed over {len(lk)} runs")  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E34")
def _(ctx):
    import json

    def f(df):
        vals, loc = [], []
        for _, g in df[df.rho == 1.0].groupby("seed"):
            tm = [json.loads(t) for t in g.timing.dropna() if t]
            el = sum(t.get("el_gemm", 0) + t.get("el_topc", 0) for t in tm)
            tot = sum(sum(v for k, v in t.items() if k not in ("el_gemm", "el_topc")) for t in tm)
            vals.append(el / tot if tot else float("nan"))
            loc.append(sum(t.get("local", 0) for t in tm) / tot if tot else float("nan"))
        return Measured(vals, note=(
            "E l GEMM + top-C share per seed " + ", ".join(f"{v:.3f}" for v in vals)
            + " (the local step, which includes them, "
            + ", ".join(f"{100 * v:.0f} %" for v in loc) + " of the iteration)"))  # fmt: skip

    return _each(ctx, "svi", f)


def ladder_sds(ch4: pd.DataFrame, ch5: pd.DataFrame, scene8: pd.DataFrame) -> dict:
    """The spreads of claims.ladder (:class:`~.study.LadderNoise`) from a 3-seed run's ch4,
    ch5 and scene8 frames at one n_train (the iwtm ladder's rung): the sd over seeds of each
    row's quantity, in the row's units."""
    n = ch4.n_train.max()
    g = 100 * ch4[(ch4.model == "IWTM") & (ch4.n_train == n)].groupby("seed").acc.mean()
    cv = ch5[(ch5.model == "IWTM_CAVI") & (ch5.n_train == n)].groupby("seed")
    v = 100 * cv.acc.mean()
    sl = 100 * ch4[(ch4.model == "sLDA_BOW") & (ch4.n_train == n)].groupby("seed").acc.max()
    return {"e11": float((v - g).std()), "e4_3": float((100 * scene8.acc).std()),
            "ff65": float(sl.std()), "e30": float(cv.onehot_frac.mean().std()),
            "e8": float(cv.K.mean().std()), "n": int(len(v))}  # fmt: skip


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
