"""An interrupted CTM sweep resumes (outputs.UnitStore): the fits it finished are kept in
``<output>.units/`` and not run again, and the resumed sweep equals an uninterrupted one."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from latentlab.outputs import UnitStore, write_unit
from latentlab.provenance import COMMIT_ENV
from latentlab.studies.nonconjugate_vi import ctm

CTM = {
    "corpora": [
        {"name": "a", "kind": "synthetic", "n_docs": 30, "n_vocab": 50, "K_true": 3, "mean_len": 25}
    ],
    "max_test_docs": 6,
    "K_grid": [2, 3],
    "seeds": 1,
    "methods": ["laplace", "delta", "bl"],
    "em_max_iter": 3,
}
TIMES = ["fit_time_s", "estep_time_s"]  # the only columns that differ between runs


def _sweep(out):
    from latentlab.studies.shape import load_study

    params = {"run": "test", "base_seed": 3, "threads": 1, "ctm": CTM}
    load_study("nonconjugate_vi").execute(
        "sweep", params, outputs={"csv": out}, wildcards={"corpus": "a"}
    )
    return pd.read_csv(out)


@pytest.fixture
def counted(monkeypatch):
    """``_fit_one_inner`` counting its calls; ``fail_at``: the call that raises."""
    inner = ctm._fit_one_inner
    state = {"calls": 0, "fail_at": None}

    def fit(job):
        state["calls"] += 1
        if state["calls"] == state["fail_at"]:
            raise KeyboardInterrupt("killed")
        return inner(job)

    monkeypatch.setattr(ctm, "_fit_one_inner", fit)
    monkeypatch.setenv(COMMIT_ENV, "0123abc")
    return state


def test_an_interrupted_sweep_resumes_and_equals_an_uninterrupted_one(tmp_path, counted):
    whole = _sweep(tmp_path / "whole" / "sweep.csv")
    assert counted["calls"] == 6 and not (tmp_path / "whole" / "sweep.csv.units").exists()

    out = tmp_path / "cut" / "sweep.csv"
    counted.update(calls=0, fail_at=4)
    with pytest.raises(KeyboardInterrupt):
        _sweep(out)
    units = out.with_name("sweep.csv.units")
    assert not out.exists() and len(list(units.glob("*.json"))) == 3

    counted.update(calls=0, fail_at=None)
    resumed = _sweep(out)
    assert counted["calls"] == 3  # only the three fits the first run did not finish
    assert not units.exists()
    pd.testing.assert_frame_equal(resumed.drop(columns=TIMES), whole.drop(columns=TIMES))


def test_changed_settings_or_an_unnamed_commit_discard_the_units(tmp_path, monkeypatch):
    out = tmp_path / "x.csv"
    monkeypatch.setenv(COMMIT_ENV, "0123abc")
    key = {"settings": {"K": 2}, "commit": "0123abc"}
    s = UnitStore(out, key)
    write_unit(s.path("u"), {"v": 0.1 + 0.2, "nan": math.nan, "ok": True, "n": 3})
    got = UnitStore(out, key).get("u")  # the same job: kept, bit for bit
    assert got["v"] == 0.1 + 0.2 and math.isnan(got["nan"]) and got["ok"] is True
    assert got["n"] == 3
    assert UnitStore(out, {**key, "settings": {"K": 3}}).get("u") is None  # another job's
    write_unit(s.path("u"), {"v": 1})
    dirty = {**key, "commit": "0123abc+dirty"}  # uncommitted code: never reused
    UnitStore(out, dirty)
    write_unit(s.path("u"), {"v": 1})
    assert UnitStore(out, dirty).get("u") is None
    s.close()
    assert not s.dir.exists()
