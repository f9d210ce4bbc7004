# ruff: noqa: E501  (the claims table reads best one claim per line)
"""Claims of chapters 4-5 (our numbering of the thesis's checkable statements: C1-C10 exact,
E1-E14 empirical), each with
the document's value, ours and a verdict. Exact checks run here on tiny cases; the
empirical ones read the ch4/ch5 results of every dataset of the run."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.claims.prove import counter_example, direction_passes
from latentlab.claims.spec import Claim, Measured, NotRun, Sides

from .study import STUDY, ClaimsCfg, ClaimsSettings
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
    _c("E1", "Fig 4.1", "Gibbs IWTM >= best supervised LDA+BOW in all (T, n_train) but one", "all but one",
       note="our value: settings where IWTM >= max_K LDA - se_margin, minus (settings - 1)"),
    _c("E2", "Fig 4.1", "IWTM's advantage over the best LDA shrinks as n_train grows: the gap (points) at the smallest n_train above the gap at the largest, for every T", "shrinks", "order"),
    _c("E3", "Fig 4.1", "the best LDA K does not decrease with n_train", True),
    _c("E4", "Fig 4.1", "IWTM > LDA at about the same K (nearest in log K to IWTM's vocabulary) in every setting (margin 0: the document gives curves)", "IWTM > LDA", "order"),
    _c("E5", "Table 4.1", "soft IWTM > LDA on IWTM's own clusters for every (T, n_train) (margin 0; the document's smallest gap is 2.2 points)", "58.0/61.3/64.0 vs 51.0/58.0/61.8", "order"),
    _c("E6", "Table 4.1", "IWTM's vocabulary grows with the training size: K at each larger n_train > K at the previous n_train, for every T (margin 0)", "867 -> 1116 -> 1247", "order"),
    _c("E7", "Fig 5.2", "CAVI IWTM + SVM > best LDA+KMEANS in every (T, N_train), by half the document's gap (claims.e7_margin points)", "71.28 vs 70.18", "order", "claims.e7_margin"),
    _c("E8", "Fig 5.2", "IWTM's vocabulary is near (although slightly larger than) the optimal LDA+KMEANS K: IWTM's vocabulary > the best K", "", "order",
       note="the document: IWTM 2784 at T = 50, N = 1300 vs LDA+KMEANS best at K = 750 (close peaks at 1750, 3000); 'near' spans 3.7x there, so only the side is judged"),
    _c("E9", "Fig 5.2", "LDA+GDPMM's vocabulary is close to IWTM's, but its accuracy is worse", "68.59 vs 71.28 (V 3445 vs 2784)",
       note="passes if, in every setting, GDPMM's vocabulary is within claims.vocab_rel of IWTM's and its accuracy is lower; "
            "the GDPMM is IWTM's machinery with one DP (gdpmm.engine: iwtm; scikit-learn's mixture, used before, collapsed to 4-5 clusters): "
            "published/real/REVERSALS.md case 7, tests/models/iwtm/test_gdpmm.py, published/real/reversals/iwtm_gdpmm_vocab.csv"),
    _c("E10", "Fig 5.2", "LDA+KMEANS accuracy vs K is inverted-U (interior maximum)", True),
    _c("E11", "Sec 5.6.1", "decoupled SVM (VI) > generative Gibbs classification at 100/class (margin 0; the document's gap is 3 points)", "71.5 vs 68.5", "order"),
    _c("E12", "Fig 5.3", "one LDA+KMEANS run is 2-5x faster than CAVI IWTM: the time ratio LDA+KMEANS / IWTM in 0.2-0.5 (0.35 +- 0.15)", 0.35, "abs", 0.15,
       note="our value: median time ratio LDA+KMEANS / IWTM over K; the document's 2-5x faster is a ratio of 0.2-0.5; equal speed (ratio 1) is refused", reject=[1.0]),
    _c("E13", "Sec 5.6", "VI is much faster than Gibbs at equal data (20 h vs 14 days): Gibbs / VI time at the document's schedules", 16.8, "rel", "claims.speedup_rel",
       note="document schedules: 500 Gibbs sweeps vs 50 CAVI iterations; 14 days / 20 h = 16.8; passes within claims.speedup_rel (relative)"),
    _c("E14", "Fig 5.4", "unlabelled data improve accuracy, most at small N_L", "+5.8 / +4.3 pts"),
    _c("E30", "Fig 5.1", "b~ rows are nearly one-hot", 0.9, "ge", 0.0,
       note="fraction of used atoms whose b~ row has max > 0.99"),
    _c("E4.3", "Fig 4.3", "IWTM on 8-scene (T = 100)", 76.4, "abs", "claims.se_margin", ds="scene8"),
    Claim("DLTM", where="Fig 4.3", statement="DLTM 76.25 % on 8-scene (quoted from Li et al.)",
          paper_value=76.25, not_testable="a number quoted from another paper; DLTM is not reimplemented"),
    _c("FF65", "Sec 4.5.2", "Fei-Fei & Perona's 65.2 % on 13-scene", 65.2, dk="real"),
    # chapters 6-7 (SVI, IVI)
    _c("C4", "Sec 6.3 (Eqs 6.11-6.43)", "one SVI step with rho = 1 on the whole corpus equals one CAVI step", 0.0, "abs", "claims.c4_abs", ID, "tiny",
       note="max abs difference over every global parameter, both mapping modes, sparse and dense"),
    _c("E15", "Fig 6.1a", "SVI rho in {0.25, 0.5, 0.75} ends above CAVI's full-corpus ELBO at equal documents seen; rho = 0.25 is best", True,
       note="mean final ELBO over seeds"),
    _c("E16", "Fig 6.1a", "SVI rho = 0.25 passes CAVI's best ELBO in < 50 % of CAVI's time and finishes faster", "600/1400 min; 1150 vs 1400 min",
       note="our value: (time to pass CAVI's best) / CAVI time, and SVI / CAVI total time"),
    _c("E17", "Fig 6.1b", "the number of clusters is smaller for smaller rho at all times", True,
       note="share of snapshots where mean clusters are ordered rho = 0.25 <= 0.5 <= 0.75 <= 1"),
    _c("E18", "Fig 6.2", "IWTM-SVI total time is about 2.5-3x one LDA+KMEANS run", 2.75, "abs", "claims.svi_ratio_slack",
       note="SVI rho = 0.25 time / median LDA+KMEANS time over K at the same n_train and T (ch5 rows)"),
    Claim("E19", where="Sec 6.5.3", statement="SPM on visual words (K = 300) > SPM on IWTM MAP topics (T = 100), 5 training images per class",
          paper_value="11.7 vs 7.1 %; per class 219 / 87 / 91 (VW better / tie / topics better, 1 % rule)", dataset="sun397", data_kind="real", how="order",
          note="passes if the accuracy (%) of visual words exceeds that of topics in every seed (margin 0; the document's gap is 4.6 points); our per-class win/tie/loss (>= 1 % absolute) in the note"),
    Claim("E20", where="Fig 6.3", statement="MAP-topic maps are less fragmented (group related patches) than visual-word maps",
          paper_value="qualitative", dataset="sun397", data_kind="real",
          note="synthetic: fewer distinct labels per (document, true topic) region and a higher NMI with the true topics; images: a higher spatial coherence lift (4-neighbour agreement minus its shuffle expectation)"),
    _c("E21", "Fig 7.3a", "without EXTEND the number of clusters never increases as the data grow", True),
    _c("E22", "Fig 7.3a", "IVI's clusters jump at every EXTEND (jigsaw) and end above no-extend", "1400 vs 380", dk=ID,
       note="identity: EXTEND adds clusters by construction"),
    _c("E23", "Fig 7.3b", "IVI's ELBO exceeds no-extend at every size after growth, and the gap widens", True),
    _c("E24", "Table 7.1", "IVI's ELBO is within ~0.4 % of retraining from scratch at every size", 0.0, "abs", "claims.ivi_elbo_rel",
       note="our value: the largest |IVI - scratch| / |scratch| over sizes; the sign pattern (IVI >= scratch from 455 docs) in the note; the rule must refuse no-extend's gap"),
    _c("E25", "Table 7.1", "an IVI step is much faster than retraining from scratch (9.4x at 130 docs, 6.5x at 650)", 6.5, "ge", "claims.ivi_speedup_tol",
       note="our value: the smallest scratch / IVI-step time ratio over the grown sizes"),
    _c("E26", "Fig 7.4", "active (margin) selection > random for IWTM at every round after the seed set (margin 0; the document gives the direction and its largest gap)", "max gap 5.1 pts at 260 docs", "order",
       note="mean accuracy over seeds per round; the largest gap, where, and its spread over seeds in the note"),
    _c("E27", "Fig 7.5a", "IWTM (active) > LDA+KMEANS (active) for every K at every round", "2-4 pts",
       note="mean accuracy over seeds; the smallest IWTM - best-LDA gap per round in the note"),
    _c("E28", "Fig 7.5a", "for LDA the best K changes with the training size (small K early, large K late): the best K at the last round > at the first (margin 0)", "small K early, large K late", "order",
       note="passes if the best K (mean accuracy, active) at the last round is larger than at the first"),
    _c("E29", "Fig 7.6", "LDA active >= random for most K", True,
       note="per K: mean (active - random) over the rounds after the seed set; passes if >= 0 for more than half of the K"),
    _c("E31", "Sec 9.1", "a mapping shared by the topics needs 1/T of the memory of per-topic mappings", "T", dk=ID, ds="tiny",
       note="array sizes of a model's dense mapping, shared (K x C) vs per topic (T x K x C)"),
    _c("E32", "Sec 7.2", "on fixed data the number of clusters in use never increases under CAVI/SVI (paring back)", True,
       note="every Fig 6.1 run, per iteration, clusters with n_c >= 1"),
    _c("E33", "Sec 8.2", "in LDA+KMEANS, K-means dominates the cost (7-10 h vs ~10 min)", 42.0, "ge", 32.0,
       note="our value: median K-means / LDA time over the ch. 5 K sweep; passes if >= 10"),
    _c("E34", "Sec 8.2", "the expected log-likelihood (GEMM + top-C) dominates an IWTM VI iteration", 0.5, "ge", 0.0,
       note="our value: share of the CAVI (rho = 1) training time spent in the E l GEMM and top-C selection"),
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
def _kind(ds):
    return "synthetic" if ds.startswith("syn") else "real"


def _frames(ctx, name):
    try:
        paths = ctx.input_list(name)
    except Exception:
        return {}
    out = {}
    for p in paths:
        df = pd.read_csv(p)
        out[str(df.dataset.iloc[0])] = df
    return out


def _each(ctx, name, fn, need_real=("scene13",)):
    """fn(df) -> (value, note) for every dataset of the run; NotRun for a real dataset
    the run leaves out."""
    res = []
    frames = _frames(ctx, name)
    for ds, df in frames.items():
        out = fn(df)
        if isinstance(out, (Sides, Measured)):  # an order row, or a value with a rule
            out.dataset, out.data_kind = ds, _kind(ds)
            res.append(out)
            continue
        v, note = out
        res.append(Measured(v, dataset=ds, data_kind=_kind(ds), note=note))
    for ds in need_real:
        if ds not in frames:
            res.append(NotRun(f"{ds} is not in this run; {REAL} runs it", dataset=ds))
    return res


def _best_lda(df, base):
    return df[df.model == base].groupby(["T", "n_train", "K"]).acc.mean()


def _settings(df):
    return sorted({(T, n) for T, n in zip(df["T"], df.n_train, strict=True)})


def _gap_table(df, model, base):
    lda = _best_lda(df, base)
    iw = df[df.model == model].groupby(["T", "n_train"]).acc.mean()
    rows = []
    for T, n in _settings(df):
        best = lda.loc[(T, n)]
        rows.append((T, n, 100 * iw.loc[(T, n)], 100 * best.max(), int(best.idxmax())))
    return rows


def _verdict(ok: bool) -> str:
    return "reproduced" if ok else "not_reproduced"


def all_but_one(a, b, margin: float) -> bool:
    """E1: ``a >= b - margin`` (a tie within the margin counts) in every setting but one."""
    wins = sum(x >= y - margin for x, y in zip(a, b, strict=True))
    return bool(wins >= len(a) - 1)


@counter_example("iwtm", "E1")
def _(row):
    """Passes on Fig 4.1's shape: six (T, n_train) settings, IWTM above the best LDA in five
    (its best setting with the document's 66.8 vs 65.15) and 1 point beyond the tie margin
    below in one (the document's exception); fails when IWTM is below in two settings."""
    m = ClaimsCfg().se_margin
    lda = [50.0, 56.0, 60.0, 52.0, 58.0, 65.15]  # T = 25, then 50; n_train 25, 50, 100
    iwtm = [53.0, 58.0, 60.0 - m - 1, 55.0, 60.0, 66.8]
    two = [53.0, 56.0 - m - 1, 60.0 - m - 1, 55.0, 60.0, 66.8]
    return {"fails": _verdict(all_but_one(two, lda, m)),
            "passes": _verdict(all_but_one(iwtm, lda, m))}  # fmt: skip


@STUDY.claim("E1")
def _(ctx):
    m = ctx.settings.claims.se_margin

    def f(df):
        rows = _gap_table(df, "IWTM", "sLDA_BOW")
        ok = all_but_one([a for _, _, a, _, _ in rows], [b for _, _, _, b, _ in rows], m)
        return ok, "; ".join(
            f"T={T} n={n}: {a:.1f} vs {b:.1f}" for T, n, a, b, _ in rows)  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E2")
def _(ctx):
    def f(df):
        rows = _gap_table(df, "IWTM", "sLDA_BOW")
        first, last, notes = [], [], []
        for T in sorted({r[0] for r in rows}):
            gaps = [a - b for t, _, a, b, _ in rows if t == T]
            first.append(gaps[0])
            last.append(gaps[-1])
            notes.append(f"T={T} gaps {[round(g, 1) for g in gaps]}")
        return Sides(first, last, labels=("gap at the smallest n_train", "at the largest"),
                     unit="T values", note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


def non_decreasing(values) -> bool:
    """E3: every value >= the one before it (the best LDA K along n_train)."""
    v = list(values)
    return all(b >= a for a, b in zip(v, v[1:], strict=False))


@counter_example("iwtm", "E3")
def _(row):
    """Passes on a best K rising to Fig 4.1's K = 1000 at 100/class (250, 500, 1000); fails
    when it falls (1000, 500, 500)."""
    return {"fails": _verdict(non_decreasing([1000, 500, 500])),
            "passes": _verdict(non_decreasing([250, 500, 1000]))}  # fmt: skip


@STUDY.claim("E3")
def _(ctx):
    def f(df):
        rows = _gap_table(df, "IWTM", "sLDA_BOW")
        ok, notes = True, []
        for T in sorted({r[0] for r in rows}):
            ks = [k for t, _, _, _, k in rows if t == T]
            ok &= non_decreasing(ks)
            notes.append(f"T={T} best K {ks}")
        return bool(ok), "; ".join(notes)

    return _each(ctx, "ch4", f)


@STUDY.claim("E4")
def _(ctx):
    def f(df):
        lda = _best_lda(df, "sLDA_BOW")
        iw = (
            df[df.model == "IWTM"]
            .groupby(["T", "n_train"])
            .agg(acc=("acc", "mean"), K=("K", "mean"))
        )
        a, b, notes = [], [], []
        for (T, n), r in iw.iterrows():
            s = lda.loc[(T, n)]
            k = s.index[np.argmin(np.abs(np.log(s.index.values / r.K)))]
            a.append(100 * r.acc)
            b.append(100 * s.loc[k])
            notes.append(
                f"T={T} n={n}: {100 * r.acc:.1f} (K={r.K:.0f}) vs LDA K={k} {100 * s.loc[k]:.1f}"
            )
        return Sides(a, b, labels=("IWTM", "LDA at its K"), unit="settings",
                     note="; ".join(notes))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E5")
def _(ctx):
    def f(df):
        g = df.groupby(["T", "n_train", "model"]).acc.mean().unstack("model")
        return Sides(list(100 * g.IWTM), list(100 * g.LDA_on_IWTM_clusters), paper_a=58.0,
                     paper_b=51.0, labels=("soft IWTM", "LDA on its clusters"), unit="settings",
                     note="; ".join(f"T={T} n={n}: {100 * r.IWTM:.1f} vs {100 * r.LDA_on_IWTM_clusters:.1f}"
                             for (T, n), r in g.iterrows()))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E6")
def _(ctx):
    def f(df):
        g = df[df.model == "IWTM"].groupby(["T", "n_train"]).K.mean()
        a, b = [], []
        for T in g.index.levels[0]:  # per T: K at each larger n_train vs the previous one
            k = list(g.loc[T].values)
            a += k[1:]
            b += k[:-1]
        return Sides(a, b, paper_a=[1116, 1247], paper_b=[867, 1116],
                     labels=("K at the larger n_train", "K at the previous n_train"),
                     unit="steps of n_train",
                     note="; ".join(f"T={T} n={n}: {v:.0f}" for (T, n), v in g.items()))  # fmt: skip

    return _each(ctx, "ch4", f)


@STUDY.claim("E7")
def _(ctx):
    def f(df):
        rows = _gap_table(df, "IWTM_CAVI", "LDA_KMEANS")
        return Sides([a for _, _, a, _, _ in rows], [b for _, _, _, b, _ in rows], paper_a=71.28,
                     paper_b=70.18, labels=("IWTM CAVI", "best LDA+KMEANS"), unit="settings",
                     note="; ".join(f"T={T} n={n}: {a:.1f} vs {b:.1f} (K={k})"
                                    for T, n, a, b, k in rows))  # fmt: skip

    return _each(ctx, "ch5", f)


@STUDY.claim("E8")
def _(ctx):
    res = []
    for ds, df in _frames(ctx, "ch5").items():
        top = max(_settings(df))
        sub = df[(df["T"] == top[0]) & (df.n_train == top[1])]
        bestK = int(sub[sub.model == "LDA_KMEANS"].groupby("K").acc.mean().idxmax())
        v = float(sub[sub.model == "IWTM_CAVI"].K.mean())
        res.append(Sides(v, bestK, paper_a=2784, paper_b=750, labels=("IWTM vocabulary", "best K"),
                         dataset=ds, data_kind=_kind(ds),
                         note=f"T={top[0]} n={top[1]}: IWTM {v:.0f} clusters vs best LDA+KMEANS K {bestK} (one run per setting)"))  # fmt: skip
    if "scene13" not in _frames(ctx, "ch5"):
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


def near_but_worse(v_other, v_iwtm, acc_other, acc_iwtm, rel: float) -> bool:
    """E9: in every setting the other model's vocabulary is within ``rel`` of IWTM's
    (relative to IWTM's) and its accuracy is lower."""
    vo, vi = np.asarray(v_other, dtype=float), np.asarray(v_iwtm, dtype=float)
    near = np.abs(vo - vi) <= rel * vi
    worse = np.asarray(acc_other, dtype=float) < np.asarray(acc_iwtm, dtype=float)
    return bool((near & worse).all())


@counter_example("iwtm", "E9")
def _(row):
    """Passes on the document's numbers (Fig 5.2: GDPMM 68.59 % with V = 3445 vs IWTM 71.28 %
    with V = 2784) with the configured vocab_rel; fails when either half fails: a GDPMM
    collapsed to 4 clusters (REVERSALS case 7) at the document's accuracies, or the document's
    vocabularies with GDPMM 0.5 points above IWTM."""
    rel = ClaimsCfg().vocab_rel
    collapsed = near_but_worse([4], [2784], [68.59], [71.28], rel)
    better = near_but_worse([3445], [2784], [71.78], [71.28], rel)
    return {"fails": _verdict(collapsed or better),
            "passes": _verdict(near_but_worse([3445], [2784], [68.59], [71.28], rel))}  # fmt: skip


@STUDY.claim("E9")
def _(ctx):
    def f(df):
        g = (
            df.groupby(["T", "n_train", "model"])
            .agg(acc=("acc", "mean"), K=("K", "mean"))
            .unstack("model")
        )
        ok = near_but_worse(g.K.LDA_GDPMM.values, g.K.IWTM_CAVI.values, g.acc.LDA_GDPMM.values,
                            g.acc.IWTM_CAVI.values, ctx.settings.claims.vocab_rel)  # fmt: skip
        return ok, "; ".join(f"T={T} n={n}: GDPMM {100 * r.acc.LDA_GDPMM:.1f} (V={r.K.LDA_GDPMM:.0f}) vs "
                             f"IWTM {100 * r.acc.IWTM_CAVI:.1f} (V={r.K.IWTM_CAVI:.0f})"
                             for (T, n), r in g.iterrows())  # fmt: skip

    return _each(ctx, "ch5", f)


def interior_maximum(values) -> bool:
    """E10: a curve's maximum lies strictly inside its range (at neither end)."""
    i = int(np.argmax(values))
    return 0 < i < len(values) - 1


@counter_example("iwtm", "E10")
def _(row):
    """Passes on Fig 5.2's shape: accuracy over K = 125 ... 8000 peaking at the document's
    70.18 % at K = 750 (close peaks at 1750 and 3000); fails when accuracy still rises at the
    largest K."""
    # K = 125, 250, 500, 750, 1000, 1750, 3000, 8000
    peak = [64.0, 67.5, 69.6, 70.18, 69.5, 69.9, 69.8, 66.0]
    rising = [64.0, 66.0, 67.5, 68.0, 68.5, 69.0, 69.5, 70.18]
    return {"fails": _verdict(interior_maximum(rising)),
            "passes": _verdict(interior_maximum(peak))}  # fmt: skip


@STUDY.claim("E10")
def _(ctx):
    def f(df):
        lda = _best_lda(df, "LDA_KMEANS")
        ok = [interior_maximum(lda.loc[(T, n)].values) for T, n in _settings(df)]
        return bool(all(ok)), f"interior maximum in {sum(ok)} of {len(ok)} settings"

    return _each(ctx, "ch5", f)


@STUDY.claim("E11")
def _(ctx):
    a, b = _frames(ctx, "ch4"), _frames(ctx, "ch5")
    res = []
    for ds in a:
        if ds not in b:
            continue
        n = max(a[ds].n_train)
        g = a[ds][(a[ds].model == "IWTM") & (a[ds].n_train == n)].acc
        v = b[ds][(b[ds].model == "IWTM_CAVI") & (b[ds].n_train == n)].acc
        gi, vi = g.mean(), v.mean()
        res.append(Sides(100 * vi, 100 * gi, paper_a=71.5, paper_b=68.5,
                         labels=("VI+SVM", "Gibbs"), dataset=ds, data_kind=_kind(ds),
                         note=f"{n}/class: VI+SVM {100 * vi:.1f} vs Gibbs {100 * gi:.1f}; one run "
                              f"per side (the mean of {len(v)} VI and {len(g)} Gibbs row(s))"))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


@STUDY.claim("E12")
def _(ctx):
    def f(df):
        iw = df[df.model == "IWTM_CAVI"].groupby(["T", "n_train"]).seconds.mean()
        lk = df[df.model == "LDA_KMEANS"].groupby(["T", "n_train", "K"]).seconds.mean()
        r = np.array([lk.loc[(T, n, K)] / iw.loc[(T, n)] for T, n, K in lk.index])
        med = float(np.median(r))
        return med, f"median ratio {med:.2f}, range {r.min():.2f}-{r.max():.2f}"

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
        gi = (g.seconds / g.sweeps).groupby([g["T"], g.n_train]).mean()
        it = v.clusters_trace.map(lambda t: len(json.loads(t)))
        vi = (v.seconds / it).groupby([v["T"], v.n_train]).mean()
        j = pd.concat([gi.rename("g"), vi.rename("v")], axis=1).dropna()
        r = float((500 * j.g / (50 * j.v)).median())
        # the rule must refuse a CAVI iteration as slow as a Gibbs sweep (ratio 10) or twice
        # as slow (ratio 5)
        res.append(Measured(r, dataset=ds, data_kind=_kind(ds), reject=[5.0, 10.0],
                            note=f"median over {len(j)} settings of 500 x (s per Gibbs sweep) / "
                                 f"50 x (s per CAVI iteration); per-step ratio "
                                 f"{float((j.g / j.v).median()):.2f}"))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


def most_at_smallest(gains, margin: float) -> bool:
    """E14: the gain at the smallest N_L (the first) is above ``margin`` and the largest."""
    g = list(gains)
    return bool(g[0] > margin and g[0] >= max(g))


@counter_example("iwtm", "E14")
def _(row):
    """Passes on the document's gains (Fig 5.4: +5.8 points at 5/class, +4.3 at 10/class);
    fails on them the other way round (the gain growing with N_L)."""
    m = ClaimsCfg().se_margin
    return {"fails": _verdict(most_at_smallest([4.3, 5.8], m)),
            "passes": _verdict(most_at_smallest([5.8, 4.3], m))}  # fmt: skip


@STUDY.claim("E14")
def _(ctx):
    """Gain of the largest N_total over N_total = N_L for each N_L; holds if the gain is
    > se_margin at the smallest N_L and the gain at the smallest N_L is the largest."""
    m = ctx.settings.claims.se_margin

    def f(df):
        a = df.groupby(["n_labelled", "n_total"]).acc.mean()
        gains = {}
        for nl in sorted(df.n_labelled.unique()):
            s = a.loc[nl]
            gains[nl] = 100 * (s.loc[s.index.max()] - s.loc[s.index.min()])
        ok = most_at_smallest(gains.values(), m)
        note = "; ".join(f"N_L={nl}/class: {v:+.1f} pts" for nl, v in gains.items())
        return ok, note + " (largest N_total vs N_total = smallest seen)"

    return _each(ctx, "semi", f)


@STUDY.claim("E30")
def _(ctx):
    res = []
    for ds, df in _frames(ctx, "ch5").items():
        v = float(df[df.model == "IWTM_CAVI"].onehot_frac.mean())
        res.append(Measured(v, dataset=ds, data_kind=_kind(ds)))
    return res or [NotRun("no CAVI run in this config")]


@STUDY.claim("E4.3")
def _(ctx):
    """Fig 4.3's IWTM accuracy on 8-scene (T = 100); the document: 76.4 +- 0.2 %."""
    a = _frames(ctx, "scene8")
    if "scene8" not in a:
        return NotRun(f"scene8 is not in this run; {REAL} runs it", dataset="scene8")
    df = a["scene8"]
    v = float(100 * df.acc.mean())
    return Measured(v, dataset="scene8", data_kind="real",
                    note=f"mean of {len(df)} run(s) at T = {int(df['T'].iloc[0])}, "
                         f"{int(df.n_train.iloc[0])} train / {int(df.n_test.iloc[0])} test "
                         f"images ({df.reduction.iloc[0] or 'the document protocol'})")  # fmt: skip


def reaches(value: float, target: float, margin: float) -> bool:
    """FF65: ``value >= target - margin`` (a tie within the margin counts)."""
    return bool(value >= target - margin)


@counter_example("iwtm", "FF65")
def _(row):
    """Passes on the document's own best LDA+BOW (Fig 4.1: 65.15 %) against Fei-Fei &
    Perona's 65.2 %; fails 0.1 points beyond the tie margin below it."""
    m = ClaimsCfg().se_margin
    return {"fails": _verdict(reaches(65.2 - m - 0.1, 65.2, m)),
            "passes": _verdict(reaches(65.15, 65.2, m))}  # fmt: skip


@STUDY.claim("FF65")
def _(ctx):
    a = _frames(ctx, "ch4")
    if "scene13" not in a:
        return NotRun(f"scene13 is not in this run; {REAL} runs it")
    df = a["scene13"]
    best = float(100 * df[df.model == "sLDA_BOW"].acc.max())
    return Measured(reaches(best, 65.2, ctx.settings.claims.se_margin), dataset="scene13",
                    data_kind="real", note=f"our best sLDA+BOW {best:.1f} %")  # fmt: skip


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


def svi_beats_cavi(cavi: float, rhos, elbos) -> bool:
    """E15: every SVI run's final ELBO (``elbos`` at ``rhos``) is above CAVI's, and the
    smallest rho's is the highest."""
    r, e = np.asarray(rhos, dtype=float), np.asarray(elbos, dtype=float)
    return bool((e > cavi).all() and r[np.argmax(e)] == r.min())


@counter_example("iwtm", "E15")
def _(row):
    """Passes on Fig 6.1a's order (constructed; the document gives no final ELBOs): CAVI
    -5.10e7 below rho = 0.75, 0.5, 0.25 at -5.06e7, -5.03e7, -5.00e7; fails when either half
    fails: rho = 0.75 ending below CAVI, or rho = 0.75 best instead of 0.25."""
    rhos = [0.25, 0.5, 0.75]
    below = svi_beats_cavi(-5.10e7, rhos, [-5.00e7, -5.03e7, -5.12e7])
    order = svi_beats_cavi(-5.10e7, rhos, [-5.06e7, -5.03e7, -5.00e7])
    return {"fails": _verdict(below or order),
            "passes": _verdict(svi_beats_cavi(-5.10e7, rhos, [-5.00e7, -5.03e7, -5.06e7]))}  # fmt: skip


@STUDY.claim("E15")
def _(ctx):
    def f(df):
        fin = svi_final(df)
        cavi = fin.elbo.loc[1.0]
        svi = fin.elbo.drop(1.0)
        ok = svi_beats_cavi(cavi, svi.index.values, svi.values)
        return ok, "final ELBO " + ", ".join(f"rho={r:g}: {v:.6g}" for r, v in fin.elbo.items())

    return _each(ctx, "svi", f)


def svi_faster(frac: float, fin: float) -> bool:
    """E16: SVI passes CAVI's best ELBO before half of CAVI's time (``frac``) and finishes
    before CAVI (``fin``: its total time / CAVI's)."""
    return bool(frac < 0.5 and fin < 1.0)


@counter_example("iwtm", "E16")
def _(row):
    """Passes on the document's numbers (Fig 6.1a: rho = 0.25 passes CAVI's best at 600 of
    CAVI's 1400 min and finishes at 1150 min: 0.43 and 0.82); fails when either half fails:
    passing at 840 min (0.6), or finishing at 1540 min (1.1)."""
    return {"fails": _verdict(svi_faster(0.6, 1150 / 1400) or svi_faster(600 / 1400, 1.1)),
            "passes": _verdict(svi_faster(600 / 1400, 1150 / 1400))}  # fmt: skip


@STUDY.claim("E16")
def _(ctx):
    def f(df):
        snap = df.dropna(subset=["elbo"]).groupby(["rho", "iteration"])[["elbo", "seconds"]].mean()
        cavi, low = snap.loc[1.0], snap.loc[min(df.rho)]
        t_cavi = cavi.seconds.max()
        passed = low[low.elbo > cavi.elbo.max()]
        frac = float(passed.seconds.min() / t_cavi) if len(passed) else float("inf")
        fin = float(low.seconds.max() / t_cavi)
        return svi_faster(frac, fin), (
            f"rho={min(df.rho):g} passes CAVI's best ELBO at {frac:.2f} of CAVI's time "
            f"(document 600/1400 = 0.43); total time {fin:.2f} of CAVI's (document 0.82)"
        )

    return _each(ctx, "svi", f)


def fewer_for_smaller_rho(curves) -> tuple[bool, np.ndarray]:
    """E17: mean clusters per point of progress, one curve per rho (rows by increasing rho):
    whether the rows are non-decreasing at every point, and the per-point flags."""
    ok = np.all(np.diff(np.vstack(curves), axis=0) >= 0, axis=0)
    return bool(ok.all()), ok


@counter_example("iwtm", "E17")
def _(row):
    """Passes on Fig 6.1b's shape (constructed): clusters falling from 4000, fewest for
    rho = 0.25 and most for CAVI at every tenth of the documents seen; fails when rho = 0.75
    drops below rho = 0.5 at the last point only."""
    base = np.linspace(4000, 1000, 10)
    nested = [0.6 * base, 0.7 * base, 0.8 * base, base]  # rho = 0.25, 0.5, 0.75, 1
    crossed = [0.6 * base, 0.7 * base, np.append(0.8 * base[:-1], 0.65 * base[-1]), base]
    return {"fails": _verdict(fewer_for_smaller_rho(crossed)[0]),
            "passes": _verdict(fewer_for_smaller_rho(nested)[0])}  # fmt: skip


@STUDY.claim("E17")
def _(ctx):
    def f(df):
        c = df.groupby(["rho", "iteration"]).agg(p=("passes", "mean"), n=("clusters", "mean"))
        rhos = sorted(df.rho.unique())
        grid = np.linspace(0, 1, 11)[1:] * df.passes.max()
        curves = [np.interp(grid, c.loc[r].p, c.loc[r].n) for r in rhos]
        every, ok = fewer_for_smaller_rho(curves)
        return every, (f"ordered at {ok.sum()} of {len(ok)} points (every 10 % of the "
                                f"documents seen); final clusters "
                                + ", ".join(f"rho={r:g}: {v[-1]:.1f}" for r, v in zip(rhos, curves, strict=True)))  # fmt: skip

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
        if lk is None or lk.empty:
            res.append(NotRun(f"no ch5 LDA+KMEANS run at n_train = {n}/class and T = {T} on "
                              f"{ds} in this config", dataset=ds, data_kind=_kind(ds)))  # fmt: skip
            continue
        t_svi = float(svi_final(df).seconds.loc[min(df.rho)])
        med = float(lk.seconds.median())
        res.append(Measured(t_svi / med, dataset=ds, data_kind=_kind(ds),
                            note=f"SVI rho={min(df.rho):g} {t_svi:.1f} s vs median LDA+KMEANS "
                                 f"{med:.1f} s over K (ch5, {n}/class, T = {T})"))  # fmt: skip
    if "scene13" not in a:
        res.append(NotRun(f"scene13 is not in this run; {REAL} runs it", dataset="scene13"))
    return res


def _sun(ctx):
    """(metrics, per-class) frames of the SUN protocol run, or None."""
    try:
        return pd.read_csv(ctx.input("sun")), pd.read_csv(ctx.input("sun_class"))
    except Exception:
        return None


def _sun_rows(ctx, fn):
    got = _sun(ctx)
    res = []
    if got is not None:
        m, c = got
        out = fn(m, c)
        ds, kind = str(m.dataset.iloc[0]), str(m.data_kind.iloc[0])
        if isinstance(out, Sides):  # an order row
            out.dataset, out.data_kind = ds, kind
            res.append(out)
        else:
            v, note = out
            res.append(Measured(v, dataset=ds, data_kind=kind, note=note))
    if got is None or str(got[0].dataset.iloc[0]) != "sun397":
        res.append(NotRun("SUN397 is not in this run; config/paper.yaml downloads it "
                          "(fetch_sun397) and runs the protocol", dataset="sun397"))  # fmt: skip
    return res


@STUDY.claim("E19")
def _(ctx):
    def f(m, c):
        acc = m.groupby("method").acc.agg(["mean", "std"])
        g = c.groupby("class_id")[["acc_vw", "acc_topic"]].mean()
        from .sun import win_tie_loss

        w, t, lo = win_tie_loss(g.acc_vw, g.acc_topic)
        vw, tp = acc.loc["visual_words"], acc.loc["iwtm_topics"]
        per = 100 * m.pivot_table(index="seed", columns="method", values="acc")  # sides by seed
        return Sides(list(per["visual_words"]), list(per["iwtm_topics"]), paper_a=11.7,
                     paper_b=7.1, labels=("visual words", "IWTM topics"), note=(
            f"VW {100 * vw['mean']:.1f} vs topics {100 * tp['mean']:.1f} % "
            f"(sd over {m.seed.nunique()} seed(s): {100 * np.nan_to_num(vw['std']):.1f} / "
            f"{100 * np.nan_to_num(tp['std']):.1f}); per class VW better / tie / topics better: "
            f"{w} / {t} / {lo} of {len(g)} (document 219 / 87 / 91 of 397; chance "
            f"{100 / len(g):.1f} %)"))  # fmt: skip

    return _sun_rows(ctx, f)


def topics_less_fragmented(tp: dict, vw: dict) -> bool:
    """E20 on the mean metrics of the topics (``tp``) and the visual words (``vw``): with true
    topics (synthetic, a finite ``nmi_truth``), fewer labels per true-topic region and a higher
    NMI for the topics; on images, a higher spatial coherence lift."""
    if np.isfinite(vw.get("nmi_truth", np.nan)):
        return bool(tp["labels_per_region"] < vw["labels_per_region"]
                    and tp["nmi_truth"] > vw["nmi_truth"])  # fmt: skip
    return bool(tp["coherence_lift"] > vw["coherence_lift"])


@counter_example("iwtm", "E20")
def _(row):
    """Fig 6.3 is qualitative: constructed inputs for both readings. Passes on images when
    the topics' coherence lift is twice the words' (0.2 vs 0.1) and with true topics on 1.5 vs
    4 labels per region and NMI 0.6 vs 0.3; fails when neither reading holds: equal lifts,
    and fewer labels per region but a lower NMI (0.2 vs 0.3)."""
    vw_img, vw_syn = {"coherence_lift": 0.1}, {"labels_per_region": 4.0, "nmi_truth": 0.3}
    good = [({"coherence_lift": 0.2}, vw_img),
            ({"labels_per_region": 1.5, "nmi_truth": 0.6}, vw_syn)]  # fmt: skip
    bad = [({"coherence_lift": 0.1}, vw_img),
           ({"labels_per_region": 1.5, "nmi_truth": 0.2}, vw_syn)]  # fmt: skip
    return {"fails": _verdict(any(topics_less_fragmented(t, v) for t, v in bad)),
            "passes": _verdict(all(topics_less_fragmented(t, v) for t, v in good))}  # fmt: skip


@STUDY.claim("E20")
def _(ctx):
    def f(m, c):
        g = m.groupby("method").mean(numeric_only=True)
        vw, tp = g.loc["visual_words"], g.loc["iwtm_topics"]
        ok = topics_less_fragmented(tp.to_dict(), vw.to_dict())
        if "nmi_truth" in g and np.isfinite(vw.get("nmi_truth", np.nan)):
            return ok, (f"labels per true-topic region {tp.labels_per_region:.2f} (topics) vs "
                        f"{vw.labels_per_region:.2f} (VW); NMI with the true topics "
                        f"{tp.nmi_truth:.3f} vs {vw.nmi_truth:.3f}")  # fmt: skip
        return ok, (f"spatial coherence lift {tp.coherence_lift:.3f} (topics, "
                    f"{tp.labels_used:.0f} labels used) vs {vw.coherence_lift:.3f} (VW, "
                    f"{vw.labels_used:.0f})")  # fmt: skip

    return _sun_rows(ctx, f)


def _ivi(ctx, fn, name="ivi"):
    return _each(ctx, name, fn)


def never_rises(counts) -> bool:
    """E21, E32: a count (clusters in use) never rises from one step to the next."""
    return bool(np.all(np.diff(np.asarray(counts, dtype=float)) <= 0))


@counter_example("iwtm", "E21")
def _(row):
    """Passes on the document's ends joined by a falling path (about 400 clusters at the seed
    set, Fig 7.5b, to about 380 at 650 documents, Fig 7.3a); fails with one rise of 5."""
    return {"fails": _verdict(never_rises([400, 398, 395, 400, 386, 383, 380])),
            "passes": _verdict(never_rises([400, 398, 395, 390, 386, 383, 380]))}  # fmt: skip


@STUDY.claim("E21")
def _(ctx):
    def f(tr):
        g = (
            tr[(tr.method == "IVI-NO-EXTEND")]
            .groupby("iteration")
            .agg(c=("clusters", "mean"), n=("n_doc", "first"))
        )
        grown = g[g.n > g.n.min()]
        after = g.c.values[len(g) - len(grown) - 1 :]  # from the last size before growth
        up = float(np.diff(after).max()) if len(grown) else 0.0
        return never_rises(after), (f"largest rise after growth starts {up:+.1f} clusters; "
                               f"{g.c.iloc[len(g) - len(grown) - 1]:.0f} -> {g.c.iloc[-1]:.0f}")  # fmt: skip

    return _ivi(ctx, f, "ivi_trace")


@STUDY.claim("E22")
def _(ctx):
    def f(df):
        d = df.dropna(subset=["ivi_extend_clusters"])
        g = d.groupby("n_docs")[["ivi_before_clusters", "ivi_extend_clusters"]].mean()
        jumps = int((g.ivi_extend_clusters > g.ivi_before_clusters).sum())
        last = df[df.n_docs == df.n_docs.max()][["ivi_clusters", "noext_clusters"]].mean()
        ok = bool(jumps == len(g) and last.ivi_clusters > last.noext_clusters)
        return ok, (
            f"EXTEND raised the clusters at {jumps} of {len(g)} growths; final "
            f"{last.ivi_clusters:.0f} (IVI) vs {last.noext_clusters:.0f} (no extend)"
        )

    rows = _ivi(ctx, f)
    for r in rows:
        if isinstance(r, Measured):
            r.data_kind = ID  # EXTEND adds clusters by construction: a fact of our code
    return rows


def positive_and_widening(gaps) -> bool:
    """E23: every gap (IVI - no-extend ELBO per size) > 0 and the last above the first."""
    g = np.asarray(gaps, dtype=float)
    return bool((g > 0).all() and g[-1] > g[0])


@counter_example("iwtm", "E23")
def _(row):
    """Passes on Fig 7.3b's shape (constructed; the document gives no gaps): IVI above
    no-extend by 2e4, 5e4, 9e4, 1.4e5 nats as the set grows; fails when either half fails:
    the same gaps narrowing, or the first one negative."""
    widening = [2e4, 5e4, 9e4, 1.4e5]
    narrowing = positive_and_widening(widening[::-1])
    negative = positive_and_widening([-2e4, 5e4, 9e4, 1.4e5])
    return {"fails": _verdict(narrowing or negative),
            "passes": _verdict(positive_and_widening(widening))}  # fmt: skip


@STUDY.claim("E23")
def _(ctx):
    def f(df):
        g = df.groupby("n_docs")[["ivi_elbo", "noext_elbo"]].mean().iloc[1:]
        gap = g.ivi_elbo - g.noext_elbo
        ok = positive_and_widening(gap.values)
        return ok, "IVI - no-extend ELBO per size: " + ", ".join(
            f"{n}: {v:+.4g}" for n, v in gap.items()
        )

    return _ivi(ctx, f)


@STUDY.claim("E24")
def _(ctx):
    def f(df):
        """The rule must refuse the no-extend model's gap to scratch (Fig 7.3b's other
        method): a tolerance that also passes no-extend cannot tell IVI from it."""
        g = df.groupby("n_docs")[["ivi_elbo", "scratch_elbo", "noext_elbo"]].mean().iloc[1:]
        rel = (g.ivi_elbo - g.scratch_elbo) / g.scratch_elbo.abs()
        noext = float(((g.noext_elbo - g.scratch_elbo) / g.scratch_elbo.abs()).abs().max())
        return Measured(float(rel.abs().max()), reject=[noext],
                        note="(IVI - scratch)/|scratch| per size: "
                             + ", ".join(f"{n}: {100 * v:+.2f} %" for n, v in rel.items())
                             + f"; no-extend's largest gap {100 * noext:.2f} % (rejected)")  # fmt: skip

    return _ivi(ctx, f)


@STUDY.claim("E25")
def _(ctx):
    def f(df):
        g = df.groupby("n_docs")[["scratch_s", "ivi_s"]].mean().iloc[1:]
        r = g.scratch_s / g.ivi_s
        return float(r.min()), "scratch / IVI step time per size: " + ", ".join(
            f"{n}: {v:.2f}x" for n, v in r.items()
        )

    return _ivi(ctx, f)


def _active_curves(df, model, method=None):
    """Mean accuracy (%) over seeds: rows n_labelled, columns K (LDA) or method (IWTM)."""
    d = df[df.model == model]
    if method is not None:
        d = d[d.method == method]
    col = "K" if model == "LDA_KMEANS" else "method"
    return 100 * d.groupby(["n_labelled", col]).acc.mean().unstack(col)


# E26 and E28: the document gives a direction (and E26's largest gap), not the sides per
# round; E2 and E4 (Fig 4.1) give curves, no values (a row with the document's sides passes
# on them instead: direction_passes then returns nothing)
for _cid in ("E2", "E4", "E26", "E28"):
    counter_example("iwtm", _cid)(direction_passes)


@STUDY.claim("E26")
def _(ctx):
    def f(df):
        c = _active_curves(df, "IWTM").iloc[1:]  # round 0 = the shared seed set
        gap = c["active"] - c["random"]
        per = df[df.model == "IWTM"].pivot_table(index=["n_labelled", "seed"], columns="method",
                                                 values="acc")  # fmt: skip
        n = gap.idxmax()
        sd = float(100 * (per["active"] - per["random"]).loc[n].std())
        return Sides(list(c["active"]), list(c["random"]), labels=("active", "random"),
                     unit="rounds", note=(
            f"active - random at {int((gap > 0).sum())} of {len(gap)} rounds > 0; largest "
            f"{gap.max():+.1f} pts at {n} docs (sd over {df.seed.nunique()} seeds {sd:.1f}); "
            f"smallest {gap.min():+.1f} pts (document: +5.1 at 260)"))  # fmt: skip

    return _each(ctx, "active", f)


def above_every_k(iwtm, lda) -> bool:
    """E27: IWTM's accuracy (one per round) above LDA's at every K (rows rounds, columns K)
    at every round."""
    d = np.asarray(iwtm, dtype=float)[:, None] - np.asarray(lda, dtype=float)
    return bool((d > 0).all())


@counter_example("iwtm", "E27")
def _(row):
    """Passes on Fig 7.5a's shape: three rounds, three K, IWTM 2, 3 and 4 points above the
    best K (the document's 2-4 points); fails when one K passes IWTM at the last round."""
    lda = [[50.0, 52.0, 51.0], [55.0, 57.0, 58.0], [60.0, 61.0, 63.0]]
    return {"fails": _verdict(above_every_k([54.0, 61.0, 62.0], lda)),
            "passes": _verdict(above_every_k([54.0, 61.0, 67.0], lda))}  # fmt: skip


@STUDY.claim("E27")
def _(ctx):
    def f(df):
        iw = _active_curves(df, "IWTM")["active"]
        lda = _active_curves(df, "LDA_KMEANS", "active")
        gap = lda.rsub(iw, axis=0)  # IWTM - LDA(K) per round
        best = iw - lda.max(1)
        iw_r, lda_r = iw.align(lda, join="outer", axis=0)  # by round, as rsub aligns them
        return above_every_k(iw_r.values, lda_r.values), (
            f"IWTM - best LDA K per round: {best.min():+.1f} to {best.max():+.1f} pts; IWTM > "
            f"every K at {int((gap > 0).all(1).sum())} of {len(gap)} rounds")  # fmt: skip

    return _each(ctx, "active", f)


@STUDY.claim("E28")
def _(ctx):
    def f(df):
        lda = _active_curves(df, "LDA_KMEANS", "active")
        bestK = lda.idxmax(1).astype(int)
        return Sides(int(bestK.iloc[-1]), int(bestK.iloc[0]),
                     labels=("best K at the last round", "at the first"),
                     note="best K per round: " + ", ".join(f"{n}: {k}" for n, k in bestK.items()))  # fmt: skip

    return _each(ctx, "active", f)


def mostly_non_negative(values) -> bool:
    """E29: more than half of the values (mean active - random per K) are >= 0."""
    v = np.asarray(values, dtype=float)
    return bool((v >= 0).sum() > len(v) / 2)


@counter_example("iwtm", "E29")
def _(row):
    """Passes on Fig 7.6's shape over its 7 K (62 ... 4000): active ahead on average except
    slightly behind at K = 125, 250 and 2000 (where the document finds it no better than
    random until about 200 documents); fails when random is ahead for 5 of the 7 K."""
    return {"fails": _verdict(mostly_non_negative([0.5, -0.3, -0.2, -1.0, 0.4, -0.1, -0.6])),
            "passes": _verdict(mostly_non_negative([2.0, -0.3, -0.2, 1.5, 1.8, -0.1, 1.2]))}  # fmt: skip


@STUDY.claim("E29")
def _(ctx):
    def f(df):
        a = _active_curves(df, "LDA_KMEANS", "active").iloc[1:]
        r = _active_curves(df, "LDA_KMEANS", "random").iloc[1:]
        m = (a - r).mean(0)
        return mostly_non_negative(m.values), (
            f"active >= random (mean over rounds) for {int((m >= 0).sum())} of {len(m)} K: "
            + ", ".join(f"K={int(k)}: {v:+.1f}" for k, v in m.items()) + " pts")  # fmt: skip

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


@counter_example("iwtm", "E32")
def _(row):
    """Passes on a paring-back trace (constructed: clusters in use from 4000 down to 1400,
    then flat); fails with one rise of 100 (as minibatch noise gives)."""
    return {"fails": _verdict(never_rises([4000, 2600, 2700, 1500, 1400, 1400])),
            "passes": _verdict(never_rises([4000, 2600, 1800, 1500, 1400, 1400]))}  # fmt: skip


@STUDY.claim("E32")
def _(ctx):
    def f(df):
        ups, ok = {}, True
        for (rho, _), g in df.groupby(["rho", "seed"]):
            counts = g.sort_values("iteration").clusters.values
            ok &= never_rises(counts)
            up = float(np.diff(counts).max(initial=0))
            ups[rho] = max(ups.get(rho, 0.0), up)
        per = ", ".join(f"rho={r:g}: {u:+.0f}" for r, u in sorted(ups.items()))
        return bool(ok), (
            f"largest per-iteration rise per rho (over seeds): {per}; exact CAVI (dense, "
            "fixed order) pares back on 3 blobs (tests/models/iwtm/test_paring_back.py): "
            "the rises come from minibatch noise (rho < 1) and sparse top-C / reordering "
            "(rho = 1), see published/real/REVERSALS.md")  # fmt: skip

    res = _each(ctx, "svi", f)
    for ds, df in _frames(ctx, "pareback").items():  # Fig 7.1 analogue: a Gaussian DPM
        runs = [g.sort_values("iteration").clusters.values for _, g in df.groupby("seed")]
        ups = [float(np.diff(c).max(initial=0)) for c in runs]
        first, last = df[df.iteration == 1].clusters.mean(), df.clusters.iloc[-1]
        res.append(Measured(all(never_rises(c) for c in runs),
                            dataset=f"{ds} (Gaussian DP mixture, VB)", data_kind=_kind(ds),
                            note=f"Fig 7.1 analogue, sklearn VB: largest per-iteration rise "
                                 f"{max(ups):+.0f} clusters; {first:.0f} after the first "
                                 f"iteration -> {last} at the last"))  # fmt: skip
    return res


@STUDY.claim("E33")
def _(ctx):
    def f(df):
        lk = df[df.model == "LDA_KMEANS"]
        r = (lk.kmeans_s / lk.lda_s).median()
        return float(r), f"median K-means / LDA time {r:.2f} over {len(lk)} runs"

    return _each(ctx, "ch5", f)


@STUDY.claim("E34")
def _(ctx):
    import json

    def f(df):
        tm = [json.loads(t) for t in df[(df.rho == 1.0)].timing.dropna() if t]
        el = sum(t.get("el_gemm", 0) + t.get("el_topc", 0) for t in tm)
        tot = sum(sum(v for k, v in t.items() if k != "el_gemm" and k != "el_topc") for t in tm)
        share = el / tot if tot else float("nan")
        loc = sum(t.get("local", 0) for t in tm) / tot if tot else float("nan")
        return float(share), (
            f"E l GEMM + top-C {el:.2f} s of {tot:.2f} s (the local step, "
            f"which includes them, is {100 * loc:.0f} % of the iteration)"
        )

    return _each(ctx, "svi", f)


from .causes import CAUSES  # noqa: E402

STUDY.causes(CAUSES)
