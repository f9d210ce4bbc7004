"""iwtm readings (issue 37): the choices the thesis leaves open that its accuracies, ELBOs
and counts depend on, as data (studies/iwtm/readings.py). Each option changes a setting the
steps that write the sweep's targets read; the published run uses the declared option;
the smoke and real sweeps are the ones the configs ask for; every touched row names its
reading, and a miss that another option reproduces gets the cause ``reading``."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import yaml

from latentlab import readings as rd
from latentlab import runconfig
from latentlab.studies.iwtm.readings import READINGS
from latentlab.studies.shape import load_study

REPO = Path(__file__).resolve().parents[2]
# the step that writes each output of the study (the prefix of its file name)
WRITER = {"ch4": "ch4", "ch5": "ch5", "semi": "semi", "svi": "svi", "ivi": "ivi",
          "active": "active", "scene8": "scene8"}  # fmt: skip


def _config(name):
    cfg = yaml.safe_load((REPO / "config" / name).read_text())
    return runconfig.complete(cfg, [f"config/{name}"], REPO)


def test_readings_are_declared_and_consistent():
    rd.check("iwtm")
    names = [r.name for r in READINGS]
    assert names == ["alpha0", "gibbs_hyper", "gdpmm_gamma", "mapping_mode", "extend_prune",
                     "lda_codebook"]  # fmt: skip


def test_the_published_run_uses_the_published_option():
    """config/real.yaml implements each reading's ``published`` option (the reading column
    of the published ledger names it)."""
    got = rd.labels("iwtm", _config("real.yaml")["iwtm"])
    assert got == {r.name: r.published for r in READINGS}


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: r.name)
def test_every_option_changes_what_its_targets_are_built_from(reading):
    """Each option's keys are read by a step that writes one of the sweep's targets (so the
    sweep rebuilds it), and the options differ in what they set."""
    st = load_study("iwtm")
    steps = {WRITER[t.split("_")[0]] for t in reading.targets}
    keys = {k for s in steps for k in st.config_keys(s)}
    for label, over in reading.options.items():
        assert set(over) <= keys, (reading.name, label, set(over) - keys)
    for t in reading.targets:
        assert "_scene13." in t or "_scene8." in t, t  # the real run's outputs


def test_smoke_and_real_sweeps():
    """The smoke config sweeps five readings on SYN-IWTM outputs; the real config sweeps
    all six on the run's own settings (its seeds), with the declared targets."""
    smoke = rd.sweeps(_config("config.yaml"), REPO, ["config/config.yaml"])["iwtm"]
    assert set(smoke) == {"gibbs_hyper", "alpha0", "gdpmm_gamma", "extend_prune", "lda_codebook"}
    r = smoke["extend_prune"][1]
    assert r.run == "smoke/readings/iwtm/extend_prune/union"
    assert r.config["iwtm"]["ivi"]["prune_threshold"] == 0.0
    assert r.config["studies"] == ["iwtm"]
    real_cfg = _config("real.yaml")
    real = rd.sweeps(real_cfg, REPO, ["config/real.yaml"])["iwtm"]
    assert set(real) == {r.name for r in READINGS}
    a = {o.name: o.config["iwtm"] for o in real["alpha0"]}
    assert a["alpha0_ten"]["cavi"]["alpha0"] == 10.0 and a["alpha0_one"]["svi"]["alpha0"] == 1.0
    # a sweep judges the run's own seeds (no `set` lowers them)
    assert a["alpha0_ten"]["cavi"]["seeds"] == real_cfg["iwtm"]["cavi"]["seeds"]


def _ch5(gdpmm_k):
    return pd.DataFrame(
        [
            dict(
                dataset="scene13",
                model=m,
                T=25,
                n_train=n,
                K=k,
                seed=s,
                acc=a,
                seconds=1.0,
                onehot_frac=0.5,
                clusters_trace="[1]",
            )
            for s in range(3)
            for n in (25, 50, 100)
            for m, k, a in (
                ("IWTM_CAVI", 300, 0.5),
                ("LDA_GDPMM", gdpmm_k, 0.47),
                ("LDA_KMEANS", 125, 0.43),
                ("LDA_KMEANS", 250, 0.45),
                ("LDA_KMEANS", 500, 0.44),
            )
        ]  # fmt: skip
    )


def test_reading_column_and_reading_cause(tmp_path):
    """The run's E9 misses at gamma10 (GDPMM / IWTM words 0.3); a sweep where gamma100
    reproduces it gives the row the cause `reading`, its verdict unchanged; rows the reading
    does not touch name none of it."""
    from types import SimpleNamespace

    from latentlab.claims.spec import evaluate_claims
    from latentlab.studies.iwtm import claims as C
    from latentlab.studies.iwtm.study import STUDY, ClaimsSettings
    from latentlab.studies.shape import StepContext

    (tmp_path / "ch5.csv").write_text(_ch5(90).to_csv(index=False))
    sweep = tmp_path / "gdpmm_gamma.csv"
    pd.DataFrame([dict(reading="gdpmm_gamma", option=o, option_index=i, published=o == "gamma10",
                       claim_id="E9", dataset="scene13", our_value=v, verdict=w)
                  for i, (o, v, w) in enumerate((("gamma10", 0.3, "not_reproduced"),
                                                 ("gamma100", 1.1, "reproduced")))]
                 ).to_csv(sweep, index=False)  # fmt: skip
    specs = [c for c in C.CLAIMS if c.id in ("E9", "E10")]
    study = SimpleNamespace(name="iwtm", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=specs, reading_specs=STUDY.reading_specs)  # fmt: skip
    used = rd.labels("iwtm", _config("real.yaml")["iwtm"])
    ctx = StepContext("iwtm", "claims", ClaimsSettings(), "real", 0, 1,
                      {"ch5": [tmp_path / "ch5.csv"], "readings": [sweep]}, {},
                      readings=used)  # fmt: skip
    led = {r.claim_id: r for r in evaluate_claims(study, ctx).rows}
    e9 = led["E9"]
    assert e9.verdict == "not_reproduced" and e9.cause == "reading"
    assert "gdpmm_gamma=gamma100" in e9.evidence and str(sweep) in e9.evidence
    assert "gdpmm_gamma=gamma10" in e9.reading and "alpha0=per_chapter" in e9.reading
    assert led["E10"].reading == ""  # LDA+KMEANS alone: no reading touches it
