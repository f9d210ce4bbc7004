"""The sweep's deterministic EM budget (ctm.em_iter_budget, Sec. 5.1 / Fig. 5): checked at
start-up, applied per (corpus, K, method), recorded per fit (em_stop); the rule of the
evidence_em_iter_budget step on a small fake sweep, and the block config/real.yaml shows."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
import yaml

from latentlab.errors import ConfigError, DataError
from latentlab.studies.nonconjugate_vi.em_budget import (
    budget_iterations,
    budget_mapping,
    budget_table,
    budget_yaml,
)

ROOT = Path(__file__).resolve().parents[3]
TIMED = [ROOT / f"published/real/causes/ncvi_timed_ctm_sweep_{c}.csv" for c in ("ap", "newsgroups")]

CTM = {
    "corpora": [
        {"name": "a", "kind": "synthetic", "n_docs": 30, "n_vocab": 50, "K_true": 3, "mean_len": 25}
    ],
    "max_test_docs": 6,
    "K_grid": [2, 3],
    "seeds": 1,
    "methods": ["laplace", "delta", "bl"],
    "em_max_iter": 5,
    "em_tol": 0.0,  # never stops at the tolerance: every stop is a budget's or em_max_iter's
}
BUDGET = {"a": {2: {"laplace": 1, "delta": 2, "bl": 3}, 3: {"laplace": 3, "delta": 1, "bl": 2}}}
# the rest of a study section (the steps that read ctm also need their own keys)
REST = {
    "fig2": {"corpus": "a", "K": 3, "em_iters": 1, "n_check_docs": 5},
    "fig6": {"corpus": "a", "K": 3, "em_max_iter": 2},
    "bench": {"corpus": "a", "K": [3], "n_docs": 10, "em_iters": 1},
    "blr": {},
    "school": {"kind": "synthetic", "n_schools": 4, "d": 3},
}


def _study():
    from latentlab.studies.shape import load_study

    return load_study("nonconjugate_vi")


def _sweep(tmp_path, ctm: dict) -> pd.DataFrame:
    out = tmp_path / "sweep.csv"
    params = {"run": "test", "base_seed": 3, "threads": 1, "ctm": ctm}
    _study().execute("sweep", params, outputs={"csv": out}, wildcards={"corpus": "a"})
    return pd.read_csv(out)


# ------------------------------------------------------------------ start-up checks
def test_the_default_is_off():
    from latentlab.studies.nonconjugate_vi.study import CtmSettings

    c = CtmSettings()
    assert c.em_iter_budget is None and c.iter_budget("a", 2, "bl") is None
    for name in ("config.yaml", "paper.yaml"):  # the real run has it (below)
        cfg = yaml.safe_load((ROOT / "config" / name).read_text())
        assert "em_iter_budget" not in cfg.get("nonconjugate_vi", {}).get("ctm", {}), name


def test_a_full_mapping_parses_with_yaml_int_keys():
    _study().check_config({**REST, "ctm": {**CTM, "em_iter_budget": BUDGET}})
    from latentlab.settings import parse_settings
    from latentlab.studies.nonconjugate_vi.study import CtmSettings

    c = parse_settings(CtmSettings, {**CTM, "em_iter_budget": BUDGET}, "nonconjugate_vi.ctm")
    assert c.iter_budget("a", 3, "laplace") == 3 and c.iter_budget("a", 2, "bl") == 3


@pytest.mark.parametrize(
    "budget, key",
    [
        ({"a": {2: {"laplace": 1, "delta": 2, "bl": 3}, 3: {"laplace": 3, "delta": 1}}},
         "nonconjugate_vi.ctm.em_iter_budget.a.3.bl"),
        ({"a": {2: {"laplace": 1, "delta": 2, "bl": 3}}},
         "nonconjugate_vi.ctm.em_iter_budget.a.3.laplace"),
        ({"b": BUDGET["a"]}, "nonconjugate_vi.ctm.em_iter_budget.a.2.laplace"),
        ({"a": {**BUDGET["a"], 2: {"laplace": 0, "delta": 2, "bl": 3}}},
         "nonconjugate_vi.ctm.em_iter_budget.a.2.laplace"),
    ],
)  # fmt: skip
def test_a_missing_or_bad_entry_is_named_at_start_up(budget, key):
    with pytest.raises(ConfigError) as e:
        _study().check_config({**REST, "ctm": {**CTM, "em_iter_budget": budget}})
    assert e.value.key == key


def test_a_non_integer_budget_is_refused():
    bad = {"a": {**BUDGET["a"], 2: {"laplace": 1.5, "delta": 2, "bl": 3}}}
    with pytest.raises(ConfigError, match=r"nonconjugate_vi\.ctm\.em_iter_budget"):
        _study().check_config({**REST, "ctm": {**CTM, "em_iter_budget": bad}})


# ------------------------------------------------------------------ the sweep
def test_the_sweep_stops_each_fit_at_its_budget(tmp_path):
    df = _sweep(tmp_path, {**CTM, "em_iter_budget": BUDGET})
    assert len(df) == 6
    for r in df.itertuples():
        assert r.em_iters == BUDGET["a"][r.K][r.method], r
    assert set(df.em_stop) == {"iter_budget"} and not df.em_converged.any()


def test_without_a_budget_the_sweep_names_its_stop(tmp_path):
    df = _sweep(tmp_path, {**CTM, "em_max_iter": 2})
    assert (df.em_iters == 2).all() and set(df.em_stop) == {"max_iter"}
    df = _sweep(tmp_path, {**CTM, "em_max_iter": 50, "em_tol": 0.5})  # a loose tolerance
    assert set(df.em_stop) == {"tolerance"} and df.em_converged.all()


# ------------------------------------------------------------------ the rule and the evidence step
def test_budget_is_floor_of_seconds_over_t_plus_one():
    assert budget_iterations(40, 3.12) == 13  # 12 iterations take 37.4 s: the 13th crosses
    assert budget_iterations(40, 10.0) == 5  # 40 s after 4 is not over the budget
    assert budget_iterations(40, 41.0) == 1
    with pytest.raises(ValueError):
        budget_iterations(40, 0.0)


def _fake_sweep() -> pd.DataFrame:
    """Two corpora, K in {5, 10}, two seeds, two methods; fit times in seconds."""
    rows = [
        # corpus, K, seed, method, em_iters, em_converged, fit_time_s
        ("x", 5, 1, "laplace", 10, False, 41.0),
        ("x", 5, 2, "laplace", 8, True, 30.0),  # t = 71 / 18 = 3.944 -> 11
        ("x", 5, 1, "bl", 4, False, 40.0),
        ("x", 5, 2, "bl", 4, False, 40.0),  # t = 80 / 8 = 10.0 -> 5 (40 s is not over 40 s)
        ("x", 10, 1, "laplace", 1, False, 45.0),
        ("x", 10, 2, "laplace", 1, False, 43.0),  # t = 44 -> 1
        ("x", 10, 1, "bl", 2, False, 50.0),
        ("x", 10, 2, "bl", 3, False, 60.0),  # t = 22 -> 2
        ("y", 5, 1, "laplace", 3, False, 42.0),
        ("y", 5, 2, "laplace", 3, False, 42.0),  # t = 14 -> 3
        ("y", 5, 1, "bl", 7, False, 42.0),
        ("y", 5, 2, "bl", 7, False, 42.0),  # t = 6 -> 7
        ("y", 10, 1, "laplace", 2, False, 50.0),
        ("y", 10, 2, "laplace", 2, False, 46.0),  # t = 24 -> 2
        ("y", 10, 1, "bl", 5, False, 41.0),
        ("y", 10, 2, "bl", 5, False, 41.0),  # t = 8.2 -> 5
    ]
    cols = ["corpus", "K", "seed", "method", "em_iters", "em_converged", "fit_time_s"]
    return pd.DataFrame(rows, columns=cols)


EXPECTED = {
    "x": {5: {"laplace": 11, "bl": 5}, 10: {"laplace": 1, "bl": 2}},
    "y": {5: {"laplace": 3, "bl": 7}, 10: {"laplace": 2, "bl": 5}},
}


def test_the_rule_on_a_fake_sweep_gives_the_expected_table():
    t = budget_table(_fake_sweep(), 40.0)
    assert list(t.columns[:3]) == ["corpus", "K", "method"] and len(t) == 8
    assert t.set_index(["corpus", "K", "method"]).loc[("x", 5, "laplace"), "s_per_iter"] == (
        pytest.approx(71 / 18)
    )
    assert t.loc[(t.corpus == "x") & (t.K == 5) & (t.method == "laplace")].iloc[0].to_dict() == {
        "corpus": "x", "K": 5, "method": "laplace", "n_fits": 2, "em_iters": "10/8",
        "n_converged": 1, "s_per_iter": pytest.approx(71 / 18), "em_iter_budget": 11,
    }  # fmt: skip
    assert budget_mapping(t) == EXPECTED
    assert yaml.safe_load(budget_yaml(budget_mapping(t), indent=0)) == {"em_iter_budget": EXPECTED}


def _evidence(tmp_path, paths, ctm) -> pd.DataFrame:
    out = tmp_path / "em_iter_budget.csv"
    params = {"run": "test", "base_seed": 3, "threads": 1, "ctm": ctm}
    inputs = {"timed": [str(p) for p in paths]}
    _study().execute("evidence_em_iter_budget", params, inputs=inputs, outputs={"csv": out})
    return pd.read_csv(out)


def _timed(tmp_path, seconds=40.0) -> list[Path]:
    paths = []
    for corpus, g in _fake_sweep().groupby("corpus"):
        p = tmp_path / f"ctm_sweep_{corpus}.csv"
        g.to_csv(p, index=False)
        meta = {"settings": {"ctm": {"em_time_budget_s": seconds}}}
        p.with_suffix(".meta.json").write_text(json.dumps(meta))
        paths.append(p)
    return paths


def test_the_evidence_step_reads_the_sweeps_and_their_time_budget(tmp_path):
    """The step derives floor(S / t) + 1 with S from the sweeps' meta.json and puts the
    run's own budget beside it: a config with the expected mapping matches everywhere, one
    entry changed matches everywhere but there."""
    table = _evidence(tmp_path, _timed(tmp_path), {})
    got = budget_mapping(table)
    assert got == EXPECTED and (table.in_config == -1).all() and not table.matches.any()
    corpora = [{"name": c, "kind": "synthetic", "n_docs": 10, "n_vocab": 10, "K_true": 2,
                "mean_len": 5} for c in ("x", "y")]  # fmt: skip
    budget = json.loads(json.dumps(EXPECTED))
    budget["y"]["10"]["bl"] = 9
    ctm = {"corpora": corpora, "K_grid": [5, 10], "methods": ["laplace", "bl"],
           "em_iter_budget": budget}  # fmt: skip
    table = _evidence(tmp_path, _timed(tmp_path), ctm)
    off = table[~table.matches]
    assert list(zip(off.corpus, off.K, off.method, strict=True)) == [("y", 10, "bl")]
    assert int(off.in_config.iloc[0]) == 9 and int(off.em_iter_budget.iloc[0]) == 5


def test_sweeps_without_one_time_budget_are_refused(tmp_path):
    paths = _timed(tmp_path)
    paths[1].with_suffix(".meta.json").write_text(
        json.dumps({"settings": {"ctm": {"em_time_budget_s": 20.0}}})
    )
    with pytest.raises(DataError, match="single time budget"):
        _evidence(tmp_path, paths, {})


def test_the_budget_of_real_yaml_is_the_evidence_of_the_timed_sweeps(tmp_path):
    """The budget config/real.yaml runs with is derived by the evidence step from the 40 s
    run's sweeps (published/real/causes/ncvi_timed_*), not typed: every entry matches; it
    replaces the time budget and passes the start-up check of the real run."""
    real = yaml.safe_load((ROOT / "config" / "real.yaml").read_text())["nonconjugate_vi"]
    table = _evidence(tmp_path, TIMED, real["ctm"])
    assert len(table) == 24 and table.matches.all()
    assert {"em_iter_budget": real["ctm"]["em_iter_budget"]} == yaml.safe_load(
        budget_yaml(budget_mapping(table), indent=0)
    )
    assert real["ctm"]["em_time_budget_s"] is None
    _study().check_config(real)
