"""Active learning (Algorithm 2, Secs. 7.5-7.6; Figs 7.4-7.6): pool-based uncertainty
sampling with the margin criterion S(x) = p(y2|x) - p(y1|x) (y1, y2 the classifier's two
most likely classes; the largest S is the most uncertain document), against uniform
random selection. The class scores are the one-vs-rest SVM's decision values (the
document allows "any classifier from which class label probabilities can be derived";
Platt scaling needs inner cross-validation refits and scikit-learn deprecates it for
SVC, so the margin is taken on the decision values, a recorded choice).

Every round: features of the labelled set, the pool and the test set from the current
topic model; the HIK SVM retrained on the labelled set (C by CV); test accuracy;
``round_size`` documents leave the pool; the topic model grows (IWTM: IVI; LDA+KMEANS:
LDA retrained on the labelled set with its static codebook, inside ``eval_s``)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from latentlab.errors import ConfigError
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.models.iwtm.svi import IWTMSvi, SviSettings
from latentlab.studies.shape import derive_seed

# a module reference, not its names: incremental imports runs, which imports this module
from . import incremental as _inc
from . import parts
from . import pipeline as P
from .runs import _fs, _load, _sub
from .study import STUDY, ActiveStepSettings

METHODS = ("active", "random")


# --------------------------------------------------------------------------- selection
def margin(scores: np.ndarray) -> np.ndarray:
    """S = s_(2) - s_(1) per row (second-largest minus largest class score), <= 0; the
    margin criterion of Sec. 7.5 (largest S = smallest gap = most uncertain)."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 2 or scores.shape[1] < 2:
        raise ConfigError("iwtm active", f"need scores of >= 2 classes, got {scores.shape}")
    top2 = np.partition(scores, -2, axis=1)[:, -2:]
    return top2[:, 0] - top2[:, 1]


def select_margin(S: np.ndarray, n: int) -> np.ndarray:
    """Positions (sorted) of the ``n`` largest S; ties go to the lower position."""
    S = np.asarray(S, dtype=np.float64)
    if not 0 <= n <= len(S):
        raise ConfigError("iwtm active round_size", f"{n} documents from a pool of {len(S)}")
    order = np.lexsort((np.arange(len(S)), -S))
    return np.sort(order[:n])


def class_scores(clf, Kx: np.ndarray) -> np.ndarray:
    """One-vs-rest decision values (n x Y) of a fitted SVM on kernel rows ``Kx``."""
    d = clf.decision_function(Kx)
    return np.column_stack([-d, d]) if d.ndim == 1 else d


def move(pool: np.ndarray, labelled: np.ndarray, picked: np.ndarray):
    """(pool without the picked positions, labelled + the picked documents)."""
    new = pool[picked]
    return np.delete(pool, picked), np.concatenate([labelled, new]), new


# ---------------------------------------------------------------------------- learners
class IwtmLearner:
    """IWTM trained by SVI on the seed set, grown by IVI (prune, EXTEND, train)."""

    name = "IWTM"

    def __init__(self, z, a, c, seed):
        self.z, self.a, self.seed = z, a, seed
        self.cs = _inc.cavi_settings(c, a.T, a.alpha0, a.gamma)
        self.sv = SviSettings(rho=a.rho)
        self.beta0, self.chi1 = c.beta0, c.chi1_per_dim
        self.rng = np.random.default_rng([seed, 7])
        self.round = 0

    def start(self, docs):
        X, ip = _sub(self.z, docs)
        prior = NGPrior.from_data(X, self.beta0, self.chi1 * X.shape[1])
        self.m = IWTMSvi(self.cs, prior, self.sv, seed=self.seed).fit(X, ip, self.a.seed_iter)

    def grow(self, docs, new):
        self.round += 1
        # round r of this learner (learners' seeds are 1,000 apart, so rounds never meet)
        seed = derive_seed(1000 * self.seed, r=self.round)
        _inc.ivi_grow(self.m, self.z, docs, new, self.a, seed=seed, rng=self.rng)
        X, ip = _sub(self.z, docs)
        self.m.fit(X, ip, self.a.round_iter)

    def features(self, labelled, others):
        docs = np.concatenate([labelled, others])
        F = self.m.transform(*_sub(self.z, docs))  # documents are independent given globals
        return F[: len(labelled)], F[len(labelled) :]

    def size(self):
        return int(self.m.n_used())


class LdaLearner:
    """LDA+KMEANS with a static K-word codebook; LDA (batch VB, alpha = eta = 1/T) is
    retrained on the labelled set whenever features are asked for."""

    name = "LDA_KMEANS"

    def __init__(self, z, docs_all, book_docs, K, T, kcfg, seed):
        self.K, self.T, self.n_iter, self.seed = K, T, kcfg.n_iter, seed
        Xb, _ = _sub(z, book_docs)
        km = P.kmeans_codebook(Xb, K, kcfg.kmeans_iter, kcfg.kmeans_points, seed)
        Xa, _ = _sub(z, docs_all)
        M = P.bow(_fs(z, docs_all), km.predict(Xa), K)
        self.M = np.zeros((len(z["indptr"]) - 1, K), np.int64)
        self.M[docs_all] = M

    def start(self, docs):
        pass

    def grow(self, docs, new):
        pass

    def features(self, labelled, others):
        Ftr, Fo, _ = P.lda_features(self.M[labelled], self.M[others], self.T, self.n_iter,
                                    self.seed)  # fmt: skip
        return Ftr, Fo

    def size(self):
        return self.K


def run_loop(learner, labels, seed_docs, pool, test, a, svm, method, seed, log=print):
    """Algorithm 2 for one learner and one selection method. Returns one row per round
    (round 0 = the seed set) with the test accuracy and the documents picked after it."""
    rng = np.random.default_rng([seed, 11])
    labelled, pool = np.asarray(seed_docs), np.asarray(pool)
    t0 = time.perf_counter()
    learner.start(labelled)
    train_s = time.perf_counter() - t0
    rows = []
    for rnd in range(10**6):
        t1 = time.perf_counter()
        # random selection never looks at the pool's features
        scored = pool if method == "active" else pool[:0]
        F_lab, F_oth = learner.features(labelled, np.concatenate([scored, test]))
        F_pool, F_test = F_oth[: len(scored)], F_oth[len(scored) :]
        y = labels[labelled]
        clf, C = P.hik_svm_fit(F_lab, y, svm.C_grid, svm.folds, seed)
        acc = float((clf.predict(P.hik(F_test, F_lab)) == labels[test]).mean())
        row = dict(model=learner.name, method=method, seed=seed, round=rnd,
                   n_labelled=len(labelled), acc=acc, svm_C=C, size=learner.size(),
                   classes_labelled=len(np.unique(y)), train_s=train_s,
                   eval_s=time.perf_counter() - t1, picked="")  # fmt: skip
        rows.append(row)
        n = min(a.round_size, a.max_labelled - len(labelled), len(pool))
        if n <= 0:
            break
        if method == "active":
            S = margin(class_scores(clf, P.hik(F_pool, F_lab)))
            picked = select_margin(S, n)
        else:
            picked = np.sort(rng.choice(len(pool), n, replace=False))
        pool, labelled, new = move(pool, labelled, picked)
        row["picked"] = " ".join(map(str, new))
        t0 = time.perf_counter()
        learner.grow(labelled, new)
        train_s = time.perf_counter() - t0
        log(f"{learner.name} K={learner.size()} {method} seed {seed}: {row['n_labelled']} "
            f"labelled -> acc {acc:.3f}")  # fmt: skip
    return rows


def check(a, n_cls, pool_max):
    """Errors naming the setting for sizes that cannot work with the data (the ranges,
    ``codebook`` and ``methods`` are checked at start-up: ActiveCfg)."""
    key = "iwtm.active"
    if a.pool_per_class > pool_max:
        raise ConfigError(f"{key}.pool_per_class", f"{a.pool_per_class} > the pool {pool_max}")
    pool = (a.pool_per_class - a.seed_per_class) * n_cls
    if pool < a.round_size:
        raise ConfigError(
            f"{key}.round_size",
            f"{a.round_size} per round from an unlabelled "
            f"pool of {pool} (pool_per_class - seed_per_class, per class)",
        )
    if a.max_labelled < a.seed_per_class * n_cls:
        raise ConfigError(f"{key}.max_labelled", "smaller than the seed set")


def _active_data(ctx):
    s = ctx.settings
    a = s.active
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    n_cls = len(np.unique(labels))
    check(a, n_cls, int(rank.max()) + 1)
    order = _inc.pool_docs(rank, labels, a.pool_per_class)
    seed_docs = order[: a.seed_per_class * n_cls]
    pool = order[a.seed_per_class * n_cls :]
    test = np.where(rank < 0)[0]
    if a.test_max is not None and len(test) > a.test_max:
        rs = np.random.default_rng(ctx.seed(a.seed_offset, 99))
        test = np.sort(rs.choice(test, a.test_max, replace=False))
    return z, meta, labels, order, seed_docs, pool, test


@STUDY.run("active_part", settings=ActiveStepSettings)
def active_part(ctx):
    """One (seed, learner) of Figs 7.4-7.6: IWTM (IVI) or LDA+KMEANS at one K, with
    every selection method."""
    s = ctx.settings
    a = s.active
    part = parts.part_name(ctx, parts.active(s))
    r_, w = part.split("_", 1)
    r = int(r_[1:])
    z, meta, labels, order, seed_docs, pool, test = _active_data(ctx)
    seed = ctx.seed(a.seed_offset, r)
    rows = []
    if w == "iwtm":
        for method in a.methods:
            rows += run_loop(IwtmLearner(z, a, s.cavi, seed), labels, seed_docs, pool, test,
                             a, s.svm, method, seed)  # fmt: skip
    else:
        book = seed_docs if a.codebook == "seed" else order
        lrn = LdaLearner(z, np.concatenate([order, test]), book, int(w[1:]), a.T, s.kmeans_lda,
                         seed)  # fmt: skip
        for method in a.methods:
            rows += run_loop(lrn, labels, seed_docs, pool, test, a, s.svm, method, seed)
    parts.write(ctx.output("part"), rows, n_pool=np.array(len(order)),
                n_test=np.array(len(test)))  # fmt: skip


@STUDY.run("active", settings=ActiveStepSettings)
def active(ctx):
    """Figs 7.4-7.6: IWTM (IVI) and LDA+KMEANS at every K, active vs random selection;
    the parts (``active_part``) collected in order."""
    s = ctx.settings
    a = s.active
    names = parts.active(s)
    files = parts.inputs(ctx, names)
    rows, sizes = [], {}
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        sizes = {k: int(v) for k, v in arrays.items()}
    meta = ctx.json("meta")
    df = pd.DataFrame(rows)
    df["K"] = np.where(df.model == "LDA_KMEANS", df["size"], np.nan)
    df["seed"] = df.seed.map({ctx.seed(a.seed_offset, r): r for r in range(a.seeds)})
    df.insert(0, "dataset", meta["dataset"])
    df["n_pool"] = sizes["n_pool"]
    df["n_test"] = sizes["n_test"]
    df["score"] = "svm_ovr_decision"
    df["codebook"] = a.codebook
    df.to_csv(ctx.output("csv"), index=False)
