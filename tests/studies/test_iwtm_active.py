"""Study iwtm, active learning (Algorithm 2, Figs 7.4-7.6): margin selection against brute
force, the pool/labelled bookkeeping, determinism, bad settings, the step and figures."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from latentlab.errors import ConfigError
from latentlab.studies.iwtm import active as A
from latentlab.studies.iwtm import parts
from latentlab.studies.iwtm import pipeline as P
from latentlab.studies.shape import load_study

TINY = {
    "syn_iwtm": {"n_classes": 3, "docs_per_class": 12, "dim": 4, "n_clusters": 12,
                 "n_topics": 4, "signature": 2, "mean_len": 15.0, "min_len": 8},
    "split": {"train_pool": 8},
    "cavi": {"C": 20, "K": 40, "max_local": 10},
}  # fmt: skip


def _step(name, inputs=None, outputs=None, section=TINY, **wc):
    st = load_study("iwtm")
    params = {"run": "test", "base_seed": 0, "threads": 1}
    params.update({k: v for k, v in section.items() if k in st.config_keys(name)})
    inputs = {k: v if isinstance(v, list) else [v] for k, v in (inputs or {}).items()}
    if name in parts.NAMES:  # a fanned-out step: its parts, then the step (issue 39)
        return parts.execute_all(st, name, params, inputs, outputs, wc)
    return st.execute(name, params, inputs, outputs, wc)


ACTIVE = {"T": 3, "pool_per_class": 8, "seed_per_class": 2, "round_size": 4,
          "max_labelled": 18, "seed_iter": 4, "new_iter": 3, "round_iter": 2, "n_corr": 10,
          "lda_K": [5, 15], "seeds": 2}  # fmt: skip
SECTION = {**TINY, "active": ACTIVE, "svm": {"C_grid": [0.1, 1.0, 10.0], "folds": 3},
           "kmeans_lda": {"n_iter": 10}}  # fmt: skip


def test_margin_is_second_minus_first_score():
    s = np.random.default_rng(0).normal(size=(30, 5))
    srt = np.sort(s, axis=1)
    np.testing.assert_allclose(A.margin(s), srt[:, -2] - srt[:, -1])
    assert (A.margin(s) <= 0).all()
    with pytest.raises(ConfigError):
        A.margin(s[:, :1])


@pytest.mark.parametrize("n", [0, 1, 3, 5])
def test_select_margin_is_the_brute_force_best_set(n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        S = -rng.random(9)  # distinct: the n most uncertain set is unique
        best = max(itertools.combinations(range(9), n), key=lambda c: S[list(c)].sum())
        np.testing.assert_array_equal(A.select_margin(S, n), sorted(best))
    # ties go to the lower position; every picked S >= every unpicked S
    S = np.array([-0.5, -0.1, -0.1, -0.9, -0.1])
    np.testing.assert_array_equal(A.select_margin(S, 2), [1, 2])
    with pytest.raises(ConfigError, match="round_size"):
        A.select_margin(S, 6)


class _Fixed:
    """A learner whose features are fixed per document (no model): isolates the loop."""

    name = "FIXED"

    def __init__(self, F):
        self.F, self.grown = F, []

    def start(self, docs):
        self.grown.append(len(docs))

    def grow(self, docs, new):
        assert len(np.intersect1d(docs, new)) == len(new)
        self.grown.append(len(docs))

    def features(self, labelled, others):
        return self.F[labelled], self.F[others]

    def size(self):
        return 0


def _loop(method, seed=3):
    rng = np.random.default_rng(1)
    y = np.repeat(np.arange(3), 20)
    F = rng.dirichlet(np.ones(4), size=60) + 0.3 * np.eye(4)[y + 1 * (y > 0)]
    seed_docs = np.array([0, 1, 20, 21, 40, 41])
    pool = np.array([d for d in range(60) if d % 20 not in (0, 1) and d % 20 < 14])
    test = np.array([d for d in range(60) if d % 20 >= 14])
    a = SimpleNamespace(round_size=5, max_labelled=25)
    svm = SimpleNamespace(C_grid=[0.1, 1.0, 10.0], folds=2)
    lrn = _Fixed(F)
    rows = A.run_loop(lrn, y, seed_docs, pool, test, a, svm, method, seed, log=lambda *x: 0)
    return rows, lrn, F, y, seed_docs, pool, test, svm


@pytest.mark.parametrize("method", ["active", "random"])
def test_loop_keeps_pool_and_labelled_disjoint(method):
    rows, lrn, _, _, seed_docs, pool, test, _ = _loop(method)
    picked = [np.array(r["picked"].split(), int) for r in rows if r["picked"]]
    allp = np.concatenate(picked)
    assert [r["n_labelled"] for r in rows] == [6, 11, 16, 21, 25]
    assert [len(p) for p in picked] == [5, 5, 5, 4] and lrn.grown == [6, 11, 16, 21, 25]
    assert len(np.unique(allp)) == len(allp)  # never picked twice
    assert set(allp) <= set(pool) and not set(allp) & set(seed_docs) and not set(allp) & set(test)
    assert rows[-1]["picked"] == ""


def test_active_picks_exactly_the_smallest_margins():
    rows, _, F, y, seed_docs, pool, _, svm = _loop("active")
    lab, rest = seed_docs, pool
    for r in rows[:-1]:
        clf, _ = P.hik_svm_fit(F[lab], y[lab], svm.C_grid, svm.folds, 3)
        d = clf.decision_function(P.hik(F[rest], F[lab]))
        gap = np.sort(d, 1)[:, -1] - np.sort(d, 1)[:, -2]  # brute force: top two by sorting
        want = np.sort(rest[np.argsort(gap, kind="stable")[: len(r["picked"].split())]])
        got = np.array(r["picked"].split(), int)
        np.testing.assert_array_equal(np.sort(got), want)
        lab, rest = np.concatenate([lab, got]), np.setdiff1d(rest, got)


def test_loop_is_deterministic_and_random_differs_by_seed():
    a1, b1 = _loop("active")[0], _loop("active")[0]
    assert [r["picked"] for r in a1] == [r["picked"] for r in b1]
    r1, r2 = _loop("random", 3)[0], _loop("random", 4)[0]
    assert [r["picked"] for r in r1] == [r["picked"] for r in _loop("random", 3)[0]]
    assert [r["picked"] for r in r1] != [r["picked"] for r in r2]


# ----------------------------------------------------------------- the step
@pytest.fixture(scope="module")
def act(tmp_path_factory):
    d = tmp_path_factory.mktemp("iwtm_active")
    _step("data", outputs={"npz": d / "syn_iwtm.npz", "meta": d / "syn_iwtm.json"},
          dataset="syn_iwtm")  # fmt: skip
    _step("active", {"data": d / "syn_iwtm.npz"}, {"csv": d / "active_syn_iwtm.csv"},
          section=SECTION)  # fmt: skip
    return d


def test_active_step_rounds_and_shared_seed_set(act):
    df = pd.read_csv(act / "active_syn_iwtm.csv", keep_default_na=False)
    runs = df.groupby(["model", "K", "method", "seed"])
    assert runs.ngroups == 2 * (1 + 2) * 2  # seeds x (IWTM + 2 K) x methods
    for _, g in runs:
        assert list(g.n_labelled) == [6, 10, 14, 18] and (g.classes_labelled == 3).all()
        p = " ".join(g.picked).split()
        assert len(p) == len(set(p)) == 12
    r0 = df[df["round"] == 0].pivot_table(index=["model", "K", "seed"], columns="method",
                                          values="acc")  # fmt: skip
    np.testing.assert_array_equal(r0["active"], r0["random"])  # same seed model and SVM


def test_active_step_is_deterministic(act, tmp_path):
    sec = {**SECTION, "active": {**ACTIVE, "seeds": 1, "lda_K": [5]}}
    for k in (1, 2):
        _step("active", {"data": act / "syn_iwtm.npz"}, {"csv": tmp_path / f"{k}.csv"},
              section=sec)  # fmt: skip
    a, b = (pd.read_csv(tmp_path / f"{k}.csv") for k in (1, 2))
    cols = [c for c in a.columns if not c.endswith("_s")]
    pd.testing.assert_frame_equal(a[cols], b[cols])


@pytest.mark.parametrize(
    "bad,key",
    [({"round_size": 100}, "round_size"), ({"seed_per_class": 0}, "seed_per_class"),
     ({"pool_per_class": 50}, "pool_per_class"), ({"max_labelled": 3}, "max_labelled"),
     ({"codebook": "test"}, "codebook"), ({"methods": ["greedy"]}, "methods")],
)  # fmt: skip
def test_active_bad_settings_name_the_key(act, bad, key):
    sec = {**SECTION, "active": {**ACTIVE, **bad}}
    with pytest.raises(ConfigError, match=key):
        _step("active", {"data": act / "syn_iwtm.npz"}, {"csv": act / "x.csv"}, section=sec)


def test_fig7_4_to_7_6_build(act, tmp_path):
    for f in ("fig7_4", "fig7_5", "fig7_6"):
        _step(f, {"active": act / "active_syn_iwtm.csv"},
              {"png": tmp_path / f"{f}.png", "csv": tmp_path / f"{f}.csv"})  # fmt: skip
        assert (tmp_path / f"{f}.png").stat().st_size > 0
    c = pd.read_csv(tmp_path / "fig7_6.csv")
    assert set(c.K.dropna()) == {5, 15} and (c.runs == 2).all()
