"""Readings of the documents (issue 37): declared as data, named in every row they touch,
swept with the study's own rules, and a miss another option reproduces gets the cause
``reading`` without its verdict switching."""

import copy
from pathlib import Path

import pytest
import yaml

from latentlab import readings as rd
from latentlab import runconfig
from latentlab.claims.ledger import Ledger
from latentlab.claims.readings import apply
from latentlab.claims.spec import Reading
from latentlab.errors import ConfigError
from latentlab.studies.shape import readings_of

REPO = Path(__file__).resolve().parents[1]
STUDIES = ["ais_eval", "drift", "hdp_pcvb0", "iwtm", "nonconjugate_vi", "scvb0", "tir"]


def _config(name: str) -> dict:
    cfg = yaml.safe_load((REPO / "config" / name).read_text())
    return runconfig.complete(cfg, [f"config/{name}"], REPO)


@pytest.mark.parametrize("study", STUDIES)
def test_declared_readings_are_consistent(study):
    """Every option parses as the study's settings, the options differ, the published one
    is among them (Reading's own checks) and the rows name claims of the study."""
    rd.check(study)
    from latentlab.studies.shape import load_study

    st = load_study(study)
    from latentlab.studies.shape import _import_parts

    _import_parts(st)
    ids = {c.id for c in st.claim_specs}
    from fnmatch import fnmatchcase

    for r in readings_of(study):
        for pat in r.rows:
            assert any(fnmatchcase(i, pat) for i in ids), (study, r.name, pat)


def test_reading_needs_two_options_and_a_published_one():
    kw = dict(name="x", where="Sec 1", sentence="s", why="w", rows=("C1",), targets=("t",))
    with pytest.raises(ValueError, match="two options"):
        Reading(options={"a": {}}, published="a", **kw)
    with pytest.raises(ValueError, match="published"):
        Reading(options={"a": {"k": 1}, "b": {"k": 2}}, published="c", **kw)
    with pytest.raises(ValueError, match="mapping"):
        Reading(options={"a": 1, "b": 2}, published="a", **kw)


def test_labels_follow_the_run_settings():
    section = copy.deepcopy(_config("config.yaml")["hdp_pcvb0"])
    assert rd.labels("hdp_pcvb0", section) == {"hyper_start": "as_written"}
    section["options"]["hyper_burnin"] = 10
    assert rd.labels("hdp_pcvb0", section) == {"hyper_start": "after10"}
    section["options"]["hyper_burnin"] = 7
    assert rd.labels("hdp_pcvb0", section) == {"hyper_start": "custom"}
    section["options"].pop("hyper_burnin")  # the default: Algorithm 1 as written
    assert rd.labels("hdp_pcvb0", section) == {"hyper_start": "as_written"}


def test_sweeps_build_one_run_per_option():
    cfg = _config("config.yaml")
    sw = rd.sweeps(cfg, REPO, ["config/config.yaml"])
    opts = sw["hdp_pcvb0"]["hyper_start"]
    assert [r.name for r in opts] == [
        "hyper_start_as_written",
        "hyper_start_after5",
        "hyper_start_after10",
    ]
    r = opts[2]
    assert r.run == "smoke/readings/hdp_pcvb0/hyper_start/after10"
    assert r.module == "readings_hdp_pcvb0_hyper_start_after10"
    assert r.config["studies"] == ["hdp_pcvb0"]
    assert r.config["hdp_pcvb0"]["options"]["hyper_burnin"] == 10
    assert r.config["readings"] == {"source": "none", "studies": {}}  # no sweep of a sweep
    assert r.config["data"]["run"] == "smoke"  # the run's own prepared data
    real = rd.sweeps(_config("real.yaml"), REPO, ["config/real.yaml"])
    kos = real["hdp_pcvb0"]["hyper_start"][0].config["hdp_pcvb0"]["perplexity"]["per_dataset"]
    assert kos["kos"]["T"] == [100, 200, 300] and kos["kos"]["runs"] == 3


@pytest.mark.parametrize(
    "bad, key",
    [
        ({"hdp_pcvb0": {"no_such": {}}}, "readings.studies.hdp_pcvb0.no_such"),
        (
            {"hdp_pcvb0": {"hyper_start": {"sett": {}}}},
            "readings.studies.hdp_pcvb0.hyper_start.sett",
        ),
        ({"hdp_pcvb0": {"hyper_start": {"set": {"run": "x"}}}}, "hyper_start.set.run"),
    ],
)
def test_a_bad_sweep_stops_naming_its_key(bad, key):
    cfg = _config("config.yaml")
    cfg["readings"]["studies"] = bad
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        rd.sweeps(cfg, REPO, ["config/config.yaml"])


def test_sweep_inputs_by_source(tmp_path):
    cfg = {"readings": {"source": "run", "studies": {"hdp_pcvb0": {"hyper_start": {}}}}}
    assert rd.sweep_inputs(cfg, "hdp_pcvb0", "results/x") == [
        "results/x/hdp_pcvb0/readings/hyper_start.csv"
    ]
    assert rd.sweep_inputs({"readings": {"source": "none"}}, "hdp_pcvb0", "r") == []
    folder = tmp_path / "pub"
    (folder / "hdp_pcvb0" / "readings").mkdir(parents=True)
    cfg = {"readings": {"source": str(folder)}}
    assert rd.sweep_inputs(cfg, "hdp_pcvb0", "r") == []  # nothing committed yet
    (folder / "hdp_pcvb0" / "readings" / "hyper_start.csv").write_text("x\n")
    assert rd.sweep_inputs(cfg, "hdp_pcvb0", "r") == [
        str(folder / "hdp_pcvb0" / "readings" / "hyper_start.csv")
    ]


def _option_ledger(path: Path, ppl_zero: float, reading: str) -> Path:
    led = Ledger("demo", "D")
    led.order("C9", where="Sec 6.6", statement="second order worse", ours_a=[110.0] * 3,
              ours_b=[ppl_zero] * 3, dataset="kos", data_kind="real")  # fmt: skip
    led.compare("C1", where="", statement="", paper_value=1.0, our_value=1.0, how="abs",
                tolerance=0.1, dataset="kos", data_kind="real", deterministic=True)  # fmt: skip
    led.write(path)
    return path


HYPER_START = Reading(name="hyper_start", where="Alg 1", sentence="s", why="w",
                      options={"as_written": {"a": 0}, "after10": {"a": 10}},
                      published="as_written", rows=("C9",), targets=("t",))  # fmt: skip


def _hyper_start_sweep(tmp_path: Path, ppl_as_written: float):
    """The collected sweep of HYPER_START: C9 at ``ppl_as_written`` (as_written) and at 100
    (after10) against 110."""
    ledgers = {
        "as_written": _option_ledger(tmp_path / "w" / "claims.csv", ppl_as_written, "w"),
        "after10": _option_ledger(tmp_path / "a" / "claims.csv", 100.0, "after10"),
    }
    opts = [{"option": "as_written", "index": 0, "run": "r0", "set": {"a": 0}},
            {"option": "after10", "index": 1, "run": "r1", "set": {"a": 10}}]  # fmt: skip
    params = {"study": "demo", "run": "smoke", "reading": "hyper_start",
              "published": "as_written", "rows": ["C9"], "options": opts}  # fmt: skip
    return rd.collect(params, ledgers)


def test_collect_and_apply(tmp_path):
    """The sweep's CSV holds the touched rows of every option; the main ledger keeps the
    literal option's verdict, names the reading and gets the cause `reading`."""
    reading = HYPER_START
    df = _hyper_start_sweep(tmp_path, 120.0)
    assert list(df.option) == ["as_written", "after10"] and set(df.claim_id) == {"C9"}
    assert list(df.verdict) == ["not_reproduced", "reproduced"]
    assert list(df.published) == [True, False]
    sweep = tmp_path / "hyper_start.csv"
    df.to_csv(sweep, index=False)
    main = Ledger("demo", "D")
    main.order("C9", where="Sec 6.6", statement="s", ours_a=[110.0] * 3, ours_b=[120.0] * 3,
               dataset="kos", data_kind="real")  # fmt: skip
    main.compare("C1", where="", statement="", paper_value=1.0, our_value=2.0, how="abs",
                 tolerance=0.1, dataset="kos", data_kind="real", deterministic=True)  # fmt: skip
    main.assign_causes([])
    apply(main, [reading], {"hyper_start": "as_written"}, [sweep])
    c9, c1 = main.rows
    assert c9.verdict == "not_reproduced" and c9.reading == "hyper_start=as_written"
    assert c9.cause == "reading" and "hyper_start=after10" in c9.evidence
    assert str(sweep) in c9.evidence
    assert (c1.reading, c1.cause) == ("", "open")  # not touched: its cause stays
    # another run that uses after10 names it, and there is nothing to explain
    other = Ledger("demo", "D")
    other.order("C9", where="", statement="", ours_a=[110.0] * 3, ours_b=[100.0] * 3,
                dataset="kos", data_kind="real")  # fmt: skip
    apply(other, [reading], {"hyper_start": "after10"}, [sweep])
    assert other.rows[0].reading == "hyper_start=after10" and other.rows[0].cause == ""


@pytest.mark.parametrize("published_ppl, cause", [(120.0, "reading"), (100.0, "open")])
def test_a_reading_cause_needs_the_runs_option_to_miss_in_the_sweep(tmp_path, published_ppl, cause):
    """A sweep run at another scale than the ledger (more seeds, a `set`) in which the run's
    own option reproduces the row (100: C9 holds there) does not explain the ledger's miss
    by the reading: the row keeps its cause. Where the run's option misses in the sweep too
    (120), another option that reproduces it gives the cause `reading`."""
    sweep = tmp_path / "hyper_start.csv"
    _hyper_start_sweep(tmp_path, published_ppl).to_csv(sweep, index=False)
    main = Ledger("demo", "D")
    main.order("C9", where="Sec 6.6", statement="s", ours_a=[110.0] * 3, ours_b=[120.0] * 3,
               dataset="kos", data_kind="real")  # fmt: skip
    main.assign_causes([])
    apply(main, [HYPER_START], {"hyper_start": "as_written"}, [sweep])
    [c9] = main.rows
    assert c9.verdict == "not_reproduced" and c9.cause == cause
    assert ("hyper_start=after10" in c9.evidence) == (cause == "reading")


def test_collect_refuses_a_sweep_that_touches_nothing(tmp_path):
    led = _option_ledger(tmp_path / "w" / "claims.csv", 120.0, "x")
    params = {"study": "demo", "run": "s", "reading": "r", "published": "a", "rows": ["C77"],
              "options": [{"option": "a", "index": 0, "run": "r0", "set": {}}]}  # fmt: skip
    with pytest.raises(Exception, match="no judged row matches"):
        rd.collect(params, {"a": led})
