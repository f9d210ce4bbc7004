"""Why CTM variational EM stops (Sec. 5.1): the iteration budget cuts EM at exactly N
iterations, the tolerance still stops it first, and the last record says which (em_stop)."""

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError
from latentlab.models.ctm import CTM
from latentlab.models.ctm.synthetic import synthetic_ctm


@pytest.fixture(scope="module")
def docs():
    d, _ = synthetic_ctm(30, 50, 3, 30, seed=5)
    X = np.zeros((len(d), 50), dtype=np.int64)
    for i, (ids, cnt) in enumerate(d):
        X[i, ids] = cnt.astype(np.int64)
    return BowCorpus.from_dense(X)


def _em(corpus, max_iter=6, tol=0.0, time_budget_s=None, iter_budget=None):
    """The history of a Laplace CTM fit (topics from init_topics(3, 50, 2))."""
    m = CTM(3, "laplace", seed=2, tol=tol)
    return m.fit(corpus, max_iter, time_budget=time_budget_s, iter_budget=iter_budget).history


def _bounds(hist):
    return [h["bound_per_word"] for h in hist]


@pytest.fixture(scope="module")
def free_run(docs):
    """Six EM iterations with no stopping rule: the reference the stopped runs must follow."""
    return _em(docs)


def test_free_run_stops_at_max_iter(free_run):
    assert len(free_run) == 6
    assert [h["em_stop"] for h in free_run] == [None] * 5 + ["max_iter"]


@pytest.mark.parametrize("n", [1, 3, 5])
def test_iter_budget_stops_at_exactly_n_iterations(docs, free_run, n):
    hist = _em(docs, iter_budget=n)
    assert len(hist) == n
    assert [h["em_stop"] for h in hist] == [None] * (n - 1) + ["iter_budget"]
    assert _bounds(hist) == _bounds(free_run[:n])  # the same iterations, only fewer


def test_iter_budget_at_max_iter_is_named_the_budget(docs):
    assert _em(docs, iter_budget=6)[-1]["em_stop"] == "iter_budget"
    hist = _em(docs, iter_budget=8)
    assert len(hist) == 6 and hist[-1]["em_stop"] == "max_iter"


def test_tolerance_stop_still_works_and_comes_first(docs, free_run):
    b = np.array(_bounds(free_run))
    rel = np.abs((b[1:] - b[:-1]) / b[:-1])  # relative change at iterations 2..6
    stop_at = int(np.argmin(rel)) + 2
    tol = float(rel.min()) * (1 + 1e-9)  # only the smallest change is below it
    hist = _em(docs, tol=tol)
    assert len(hist) == stop_at and hist[-1]["em_stop"] == "tolerance"
    assert _bounds(hist) == _bounds(free_run[:stop_at])
    # a budget that ends at the same iteration: the tolerance is named, a shorter one wins
    assert _em(docs, tol=tol, iter_budget=stop_at)[-1]["em_stop"] == "tolerance"
    if stop_at > 2:
        short = _em(docs, tol=tol, iter_budget=stop_at - 1)
        assert len(short) == stop_at - 1 and short[-1]["em_stop"] == "iter_budget"


def test_time_budget_is_named(docs):
    hist = _em(docs, time_budget_s=0.0)  # any iteration takes more than 0 s
    assert len(hist) == 1 and hist[0]["em_stop"] == "time_budget"


@pytest.mark.parametrize("bad", [0, -1, 2.5])
def test_bad_iter_budget(docs, bad):
    with pytest.raises(ConfigError) as e:
        _em(docs, iter_budget=bad)
    assert e.value.key == "iter_budget"


def test_model_history_names_the_stop(docs):
    corpus = docs
    m = CTM(3, seed=2, tol=0).fit(corpus, 3)
    assert [h["em_stop"] for h in m.history] == [None, None, "max_iter"]
    m = CTM(3, seed=2, tol=0).fit(corpus, 5, callback=lambda model, info: info["iter"] == 2)
    assert m.history[-1]["em_stop"] == "callback" and len(m.history) == 2
