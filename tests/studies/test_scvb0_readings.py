"""scvb0 readings (issue 37): the two choices of Foulds (2014) ch. 4 the SCVB0 curves depend
on and the thesis leaves open, as data (studies/scvb0/readings.py): what t of rho^Phi counts
and the scale of SCVB0's random start. The published option of each is the settings'
default (the one the published run uses); every option is a valid scvb0 section that
changes its own key only; the smoke and real sweeps rebuild curves of synthetic corpora."""

from __future__ import annotations

import copy
from dataclasses import asdict, fields
from pathlib import Path

import pytest
import yaml

from latentlab import readings as rd
from latentlab import runconfig
from latentlab.studies.scvb0.readings import CURVE_ROWS, READINGS
from latentlab.studies.scvb0.study import Model
from latentlab.studies.shape import load_study

REPO = Path(__file__).resolve().parents[2]
# the steps that fit SCVB0 (each reads both keys) and the figure CSV -> the curves it draws
FITS = ("curves", "fig4_7_run", "topics", "bench")
FIGURES = {"fig4_3.csv", "fig4_4.csv", "fig4_5.csv", "fig4_6.csv", "fig4_7.csv"}


def _config(name):
    cfg = yaml.safe_load((REPO / "config" / name).read_text())
    return runconfig.complete(cfg, [f"config/{name}"], REPO)


def test_readings_are_declared_and_consistent():
    rd.check("scvb0")
    assert [r.name for r in READINGS] == ["phi_clock", "scvb0_init"]
    assert {r.name: list(r.options) for r in READINGS} == {
        "phi_clock": ["minibatch", "documents"],
        "scvb0_init": ["corpus", "hoffman"],
    }
    # every SCVB0 curve row, and no row of the fixed budgets or the identities
    assert set(CURVE_ROWS) == {"C4.4", "C4.4b", "C4.5", "C4.6", "C4.6-similar", "C4.6b",
                               "C4.7", "C4.7b"}  # fmt: skip
    for r in READINGS:
        assert r.rows == CURVE_ROWS
        assert set(r.targets) <= FIGURES, r.targets


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
def test_published_option_is_the_settings_default(reading):
    """The published option sets the key to Model's default, the value of the published
    run's config and of the smoke config (the reading column of their ledgers names it)."""
    default = {f.name: f.default for f in fields(Model)}[reading.name]
    assert reading.options[reading.published] == {reading.name: default}
    for name in ("config.yaml", "real.yaml"):
        assert rd.labels("scvb0", _config(name)["scvb0"])[reading.name] == reading.published


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
def test_every_option_parses_and_changes_its_key_only(reading):
    """Each option, merged over the smoke section, parses as the settings of every step
    that fits SCVB0 and differs from the published settings in the reading's key only
    (and the options set different values of it)."""
    st = load_study("scvb0")
    base = copy.deepcopy(_config("config.yaml")["scvb0"])
    seen = set()
    for label, over in reading.options.items():
        assert set(over) == {reading.name}, (label, over)
        section = runconfig.merge(base, over)
        st.check_config(section)
        for step in FITS:
            assert reading.name in st.config_keys(step)
            ref = asdict(st.settings(step, dict(base)))
            got = asdict(st.settings(step, dict(section)))
            changed = {k for k in got if got[k] != ref[k]}
            assert changed == (set() if label == reading.published else {reading.name})
            assert got[reading.name] == over[reading.name]
        seen.add(over[reading.name])
        assert rd.labels("scvb0", section)[reading.name] == label
    assert len(seen) == len(reading.options)


def test_smoke_and_real_sweeps():
    """Both configs sweep both readings, one run per option with its override. Smoke sweeps
    curves of synthetic corpora only (every smoke corpus is); real sweeps synth_50k's curves
    (Figs 4.4, 4.7) and the real stand-ins of the rows whose causes quote the sweeps: Fig 4.6
    on 20 Newsgroups (C4.5) and Fig 4.3 on KOS (C4.6-similar)."""
    for name in ("config.yaml", "real.yaml"):
        cfg = _config(name)
        sw = rd.sweeps(cfg, REPO, [f"config/{name}"])["scvb0"]
        assert set(sw) == {r.name for r in READINGS}
        for r in READINGS:
            rungs = sw[r.name]
            assert [o.name for o in rungs] == [f"{r.name}_{o}" for o in r.options]
            for o, (label, over) in zip(rungs, r.options.items(), strict=True):
                assert o.run == f"{cfg['run']}/readings/scvb0/{r.name}/{label}"
                assert o.config["scvb0"][r.name] == over[r.name]
                assert o.config["studies"] == ["scvb0"]
            targets = cfg["readings"]["studies"]["scvb0"][r.name].get("targets")
            assert targets, (name, r.name)  # a config names its sweep's (smaller) targets
            s0 = cfg["scvb0"]
            seen = {}
            for t in targets:
                fig = t.removesuffix(".csv")
                if fig == "fig4_7":
                    ds = s0["fig4_7"]["dataset"]
                elif fig.startswith("fig4_3_"):  # Fig 4.3 on an extra dataset
                    ds = fig.removeprefix("fig4_3_")
                    assert ds in s0["curves"]["extra_datasets"], (name, t)
                else:
                    assert t in FIGURES, (name, t)
                    ds = s0["curves"][fig]
                seen[fig] = ds
                if name == "config.yaml":
                    assert s0["datasets"][ds]["kind"] == "synthetic", (name, t, ds)
            if name == "real.yaml":
                assert seen == {"fig4_4": "synth_50k", "fig4_7": "synth_50k",
                                "fig4_6": "newsgroups", "fig4_3_kos": "kos"}  # fmt: skip
