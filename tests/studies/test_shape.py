"""The study shape: strict settings, the generated CLI, declarative claims."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import judge, read_claims
from latentlab.claims.spec import Claim, Measured, NotRun
from latentlab.errors import ConfigError
from latentlab.settings import parse_settings
from latentlab.studies.shape import FigureOutput, Study, TableOutput, derive_seed


@dataclass(frozen=True)
class Inner:
    n: int
    rate: float = 0.5


@dataclass(frozen=True)
class FitSettings:
    fit: Inner
    datasets: list[str] = field(default_factory=lambda: ["a"])
    mode: str | None = None


@dataclass(frozen=True)
class ClaimSettings:
    claims: dict[str, float]


def test_parse_settings_defaults_and_types():
    s = parse_settings(FitSettings, {"fit": {"n": 3}}, "toy")
    assert s.fit == Inner(3, 0.5) and s.datasets == ["a"] and s.mode is None
    assert parse_settings(Inner, {"n": 1, "rate": 2}, "x").rate == 2.0


@pytest.mark.parametrize(
    "mapping, key",
    [
        ({"fit": {"n": 3, "rat": 1.0}}, "toy.fit.rat"),
        ({"fitt": {"n": 3}}, "toy.fitt"),
        ({"fit": {}}, "toy.fit.n"),
        ({"fit": {"n": "3"}}, "toy.fit.n"),
        ({"fit": {"n": True}}, "toy.fit.n"),
        ({"fit": {"n": 1}, "datasets": "a"}, "toy.datasets"),
    ],
)
def test_parse_settings_names_the_bad_key(mapping, key):
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        parse_settings(FitSettings, mapping, "toy")


def test_check_given_allows_missing_keys_and_checks_the_given_ones():
    from latentlab.settings import check_given, misspelt

    assert check_given(FitSettings, {}, "toy") == {}
    assert check_given(FitSettings, {"fit": {"rate": 1}}, "toy") == {"fit": {"rate": 1.0}}
    for mapping, key in (
        ({"fit": {"rat": 1.0}}, "toy.fit.rat"),
        ({"fitt": {}}, "toy.fitt"),
        ({"fit": {"n": "3"}}, "toy.fit.n"),
    ):
        with pytest.raises(ConfigError) as e:
            check_given(FitSettings, mapping, "toy")
        assert e.value.key == key
    assert misspelt("rat", ["n", "rate"]) == "misspelt? did you mean 'rate'?"
    assert misspelt("zzz", ["n", "rate"]) == "misspelt?"


def _toy_study():
    st = Study("toy", document="doc", title="Toy")

    @st.run("fit", settings=FitSettings)
    def fit(ctx):
        rng = np.random.default_rng(ctx.seed(7))
        x = rng.normal(size=ctx.settings.fit.n)
        pd.DataFrame({"x": x}).to_csv(ctx.output("raw"), index=False)

    @st.figure("fig1", settings=FitSettings)
    def fig1(ctx):
        import matplotlib.pyplot as plt

        df = ctx.csv("raw")
        f, ax = plt.subplots()
        ax.plot(df.x)
        # the figure check wants labelled axes and the data named (and declared)
        ax.set(xlabel="index", ylabel="x", title="toy normal draws")
        from latentlab.plotting import name_dataset

        name_dataset(f, "toy normal draws")
        return FigureOutput(f, df, {"caption": "toy"})

    @st.table("table1")
    def table1(ctx):
        return TableOutput(ctx.csv("raw").describe().reset_index())

    st.claims(
        [
            Claim(
                "C1",
                where="Fig 1",
                statement="mean near 0",
                paper_value=0.0,
                how="abs",
                tolerance="claims.mean_abs",
            ),
            Claim("C2", where="Sec 2", statement="positive", paper_value="x > 0", how="true"),
            Claim("C3", where="Sec 3", statement="private", paper_value=1, not_testable="private"),
            Claim("C4", where="Sec 4", statement="bigger data", paper_value=1, how="ge"),
        ],
        settings=ClaimSettings,
    )

    def thirds(ctx):  # three replicates: the sample in three parts
        return np.array_split(ctx.csv("raw").x.to_numpy(), 3)

    @st.claim("C1")
    def _(ctx):
        return Measured([float(x.mean()) for x in thirds(ctx)], unit="parts")

    @st.claim("C2")
    def _(ctx):
        return [Measured([bool((x > -10).all()) for x in thirds(ctx)], dataset=d)
                for d in ("a", "b")]  # fmt: skip

    @st.claim("C4")
    def _(ctx):
        return NotRun("real corpus: config/real.yaml")

    return st


def test_study_runs_and_judges(tmp_path):
    st = _toy_study()
    params = {"run": "t", "base_seed": 1, "threads": 1, "fit": {"n": 50}}
    raw = tmp_path / "raw.csv"
    st.execute("fit", params, outputs={"raw": raw})
    st.execute("fig1", params, inputs={"raw": [raw]}, outputs={"png": tmp_path / "fig1.png"})
    assert (tmp_path / "fig1.csv").exists() and (tmp_path / "fig1.png").stat().st_size > 0
    meta = json.loads((tmp_path / "fig1.meta.json").read_text())
    assert meta["settings"]["fit"]["n"] == 50 and meta["caption"] == "toy"
    st.execute(
        "table1",
        {"run": "t", "base_seed": 1, "threads": 1},
        inputs={"raw": [raw]},
        outputs={"csv": tmp_path / "t.csv"},
    )
    assert (tmp_path / "t.md").exists()
    cp = {"run": "t", "base_seed": 1, "threads": 1, "claims": {"mean_abs": 1.0}}
    st.execute("claims", cp, inputs={"raw": [raw]}, outputs={"csv": tmp_path / "claims.csv"})
    df = read_claims(tmp_path / "claims.csv")
    assert list(df.claim_id) == ["C1", "C2", "C2", "C3", "C4"]
    assert list(df.verdict) == ["reproduced", "reproduced", "reproduced", "not_testable", "not_run"]
    assert list(df.n_rep) == ["3", "3", "3", "", ""]
    # a tolerance narrower than the parts' spread decides nothing: refused
    cp["claims"]["mean_abs"] = 1e-9
    st.execute("claims", cp, inputs={"raw": [raw]}, outputs={"csv": tmp_path / "c2.csv"})
    row = read_claims(tmp_path / "c2.csv").iloc[0]
    assert row.verdict == "inconclusive" and "tolerance refused" in row.note


def test_config_keys_and_check_config():
    st = _toy_study()
    assert st.config_keys("fit") == ["fit", "datasets", "mode"]
    assert st.config_keys("claims") == ["claims"]
    st.check_config({"fit": {"n": 2}, "claims": {"a": 1.0}})
    with pytest.raises(ConfigError, match=r"toy\.clams"):
        st.check_config({"fit": {"n": 2}, "clams": {}})
    with pytest.raises(ConfigError, match=r"toy\.fit\.n"):
        st.check_config({"fit": {"n": 2.5}})


def test_cli_is_generated(tmp_path):
    import argparse

    st = _toy_study()
    ap = argparse.ArgumentParser()
    st.register(ap.add_subparsers(dest="group"))
    raw = tmp_path / "r.csv"
    args = ap.parse_args(
        [
            "toy",
            "fit",
            "--params",
            '{"run": "t", "base_seed": 3, "threads": 1, "fit": {"n": 4}}',
            "--output",
            f"raw={raw}",
        ]
    )
    assert args.func(args) == 0 and len(pd.read_csv(raw)) == 4


def test_missing_claim_function_is_an_error():
    st = Study("t2", document="d")
    st.claims([Claim("X", where="w", statement="s", paper_value=1, how="ge")])
    with pytest.raises(ValueError, match="without a function"):
        st.check_claims()


def test_seed_is_derived_one_way():
    assert derive_seed(10, 3, 2) == 15


@pytest.mark.parametrize("value", ["false", "true", float("nan"), 1, None, "x"])
def test_judge_true_accepts_only_booleans(value):
    assert judge("x", value, "true")[0] == "not_reproduced"


def test_judge_true_booleans():
    assert judge("x", True, "true")[0] == "reproduced"
    assert judge("x", np.bool_(True), "true")[0] == "reproduced"
    assert judge("x", False, "true")[0] == "not_reproduced"
    assert judge(1.0, float("inf"), "abs", 0.1)[0] == "not_reproduced"


def test_grouped_claims_interleave_by_dataset(tmp_path):
    st = Study("t3", document="d")
    st.claims(
        [
            Claim("A", where="w", statement="s", paper_value=0, how="ge", group="g"),
            Claim("B", where="w", statement="s", paper_value=0, how="ge", group="g"),
            Claim("C", where="w", statement="s", paper_value=0, how="ge"),
            Claim("H", where="w", statement="s", paper_value=0, dataset="x", not_testable="r"),
            Claim("H", where="w", statement="s", paper_value=0, dataset="y", not_testable="r"),
        ]
    )
    for cid in ("A", "B"):
        st.claim(cid)(lambda ctx: [Measured(1.0, dataset=d, where=f"Fig {d}") for d in "pq"])
    st.claim("C")(lambda ctx: 1.0)
    p = {"run": "t", "base_seed": 0, "threads": 1}
    st.execute("claims", p, outputs={"csv": tmp_path / "c.csv"})
    df = read_claims(tmp_path / "c.csv")
    assert list(zip(df.claim_id, df.dataset, strict=True)) == [
        ("A", "p"), ("B", "p"), ("A", "q"), ("B", "q"), ("C", ""), ("H", "x"), ("H", "y"),
    ]  # fmt: skip
    assert list(df["where"][:2]) == ["Fig p", "Fig p"]


def test_claim_id_twice_is_refused_unless_untestable_per_dataset():
    st = Study("t4", document="d")
    with pytest.raises(ValueError, match="twice"):
        st.claims([Claim("A", where="w", statement="s", paper_value=0)] * 2)
    with pytest.raises(ValueError, match="twice"):
        st.claims(
            [
                Claim("A", where="w", statement="s", paper_value=0),
                Claim("A", where="w", statement="s", paper_value=0, not_testable="r"),
            ]
        )


@dataclass(frozen=True)
class Resources:
    resources: dict[str, int] = field(default_factory=dict)


def test_rule_settings_and_parsed_step_settings():
    st = _toy_study()
    st.rules(Resources)
    st.check_config({"fit": {"n": 2}, "claims": {}, "resources": {"fit": 3}})
    with pytest.raises(ConfigError, match=r"toy\.resources\.fit"):
        st.check_config({"fit": {"n": 2}, "claims": {}, "resources": {"fit": "x"}})
    assert "resources" not in st.config_keys("fit")
    s = st.settings("fit", {"fit": {"n": 4}, "resources": {}})
    assert s.fit.n == 4 and s.datasets == ["a"]
    assert st.settings("rules", {}).resources == {}


def test_measured_overrides_and_not_testable_rows(tmp_path):
    from latentlab.claims.spec import NotTestable

    st = Study("t3", document="d")
    st.claims([Claim("X", where="w", statement="s", paper_value=1.0, how="ge", tolerance=0.0)])

    @st.claim("X")
    def _(ctx):
        return [
            Measured([2.0, 2.1, 1.9], dataset="a", statement="s at T = 5", where="Fig 1 left"),
            NotTestable("private corpus", dataset="P", statement="s on P", paper_value=0.5),
        ]

    st.execute("claims", {"run": "t", "base_seed": 0, "threads": 1},
               outputs={"csv": tmp_path / "c.csv"})  # fmt: skip
    df = read_claims(tmp_path / "c.csv")
    assert list(df.verdict) == ["reproduced", "not_testable"]
    assert list(df.statement) == ["s at T = 5", "s on P"]
    assert df["where"].iloc[0] == "Fig 1 left" and df["where"].iloc[1] == "w"
    assert str(df.paper_value.iloc[1]) == "0.5" and df.dataset.iloc[1] == "P"


def test_job_threads_follow_the_scheduler(monkeypatch):
    from latentlab.studies.shape import job_threads

    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    assert job_threads(2) == 2
    monkeypatch.setenv("OMP_NUM_THREADS", "1")  # snakemake --cores 1
    assert job_threads(2) == 1
    monkeypatch.setenv("OMP_NUM_THREADS", "8")  # never more than the config asks
    assert job_threads(2) == 2
    monkeypatch.setenv("OMP_NUM_THREADS", "")
    assert job_threads(0) == 1


# --------------------------------------------------------------- per-kind required fields
@pytest.mark.parametrize(
    "cls, mapping, key",
    [
        ("scvb0.study:Dataset", {"kind": "synthetic", "D": 10, "W": 20, "K": 3}, "doc_len"),
        ("scvb0.study:Dataset", {"kind": "real"}, "name"),
        ("nonconjugate_vi.study:CorpusSpec", {"name": "ap", "dataset": "ap"}, "dataset"),
        ("nonconjugate_vi.study:CorpusSpec", {"name": "x", "kind": "real"}, "dataset"),
        ("nonconjugate_vi.study:MultilabelSpec", {"name": "y", "n_train": 5}, "n_test"),
        ("nonconjugate_vi.study:SchoolSpec", {"kind": "real", "n_schools": 3}, "n_schools"),
        ("hdp_pcvb0.study:DatasetSpec", {"generator": "graph", "n_nodes": 9}, "kind"),
        ("hdp_pcvb0.study:DatasetSpec", {"generator": "hdp", "kind": "graph"}, "kind"),
        ("hdp_pcvb0.study:DatasetSpec", {"generator": "graph", "kind": "graph"}, "n_nodes"),
    ],
)
def test_a_kind_refuses_missing_and_foreign_fields(cls, mapping, key):
    """A synthetic corpus without its size, a real one without its dataset, or a field of
    the other kind (``{name: ap, dataset: ap}`` without ``kind: real``) stops with its key."""
    import importlib

    mod, name = cls.split(":")
    klass = getattr(importlib.import_module(f"latentlab.studies.{mod}"), name)
    with pytest.raises(ConfigError, match=rf"x\.{key}\b"):
        parse_settings(klass, mapping, "x")


STUDIES = ("scvb0", "hdp_pcvb0", "ais_eval", "nonconjugate_vi", "iwtm", "tir", "drift")


@pytest.mark.parametrize("name", STUDIES)
def test_settings_registry_is_the_loaded_studys(name):
    """The steps and settings read from the registrations' source (what the workflow's
    start-up uses) are exactly the loaded study's: every step, its kind and its settings
    class, and the rules' settings."""
    from latentlab.studies.shape import load_study, settings_registry

    light, full = settings_registry(name), load_study(name)
    assert light is not full
    assert {n: (s.kind, s.settings) for n, s in light.steps.items()} == {
        n: (s.kind, s.settings) for n, s in full.steps.items()
    }
    assert light.rule_settings is full.rule_settings
    assert all(s.fn is None for s in light.steps.values())


def test_settings_registry_loads_a_study_whose_registrations_are_computed():
    from latentlab.studies.shape import load_study, settings_registry

    # compare registers one fit step per method in a loop
    assert settings_registry("compare") is load_study("compare")


def test_the_start_up_registries_import_no_step_module():
    """Issue 40's cost: the workflow's start-up (every study's registry, the config check
    of listed and unlisted sections) imports, of the studies' modules, the seven study.py
    and only tir's tables.py (one settings class is defined there), and no numba,
    matplotlib, scipy or sklearn."""
    import subprocess
    import sys

    code = (
        "import importlib, sys\n"
        "from latentlab.studies.shape import settings_registry\n"
        f"studies = {STUDIES!r}\n"
        "for s in studies:\n"
        "    importlib.import_module(f'latentlab.studies.{s}.study')\n"
        "before = set(sys.modules)\n"
        "for s in studies:\n"
        "    settings_registry(s).check_config({'claims': {}}, partial=True)\n"
        "new = sorted(m for m in set(sys.modules) - before if m.startswith('latentlab.studies'))\n"
        "heavy = [m for m in ('numba', 'matplotlib', 'scipy', 'sklearn') if m in sys.modules]\n"
        "print(new, heavy)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['latentlab.studies.tir.tables'] []", r.stdout


def test_a_partial_check_refuses_unknown_keys_and_bad_values_and_allows_missing_ones():
    from latentlab.studies.shape import settings_registry

    study = settings_registry("scvb0")
    study.check_config({}, partial=True)
    study.check_config({"minibatch": 5, "curves": {"K": 3}}, partial=True)  # incomplete
    with pytest.raises(ConfigError, match="scvb0.datasets"):
        study.check_config({"minibatch": 5}, partial=False)  # the full check needs them
    for section, key, words in (
        ({"minibatchh": 5}, "scvb0.minibatchh", "did you mean 'minibatch'?"),
        ({"curves": {"k": 3}}, "scvb0.curves.k", "did you mean 'K'?"),
        ({"minibatch": 0}, "scvb0.minibatch", "must be >= 1, got 0"),
        ({"minibatch": "5"}, "scvb0.minibatch", "expected an integer"),
        ({"phi_clock": "hours"}, "scvb0.phi_clock", "is not one of"),
        ({"svb_variants": [{"B": 1, "Q": 0}]}, "scvb0.svb_variants[0].Q", "unknown key"),
    ):
        with pytest.raises(ConfigError) as e:
            study.check_config(section, partial=True)
        assert e.value.key == key and words in str(e.value), (section, str(e.value))
