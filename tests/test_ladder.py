"""Reduction ladders (issue 24; latentlab.ladder, rules/ladder.smk, config/ladder.yaml): the
ladder config validates (a bad rung key is a few lines naming it), the ladders resolve
with one job set per rung, the collect step turns rung ledgers into ladder.csv rows and a
figure that passes the figure check, and a smoke-sized ladder runs end to end (slow)."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from latentlab import ladder, runconfig
from latentlab.claims.ledger import Ledger
from latentlab.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 12
# per ladder of config/ladder.yaml: the study's main fitting rule and its jobs per rung
# (ais_eval_raw: iteration-AIS on both corpora and Fig 5.6's ntemps)
LADDER_STEP = {
    "scvb0": ("scvb0_curves", 1),
    "nonconjugate_vi": ("nonconjugate_vi_sweep", 1),
    "drift": ("drift_monthly_fit", 1),
    "ais_eval": ("ais_eval_raw", 3),
    "iwtm": ("iwtm_exp", 2),  # ch4 and ch5 on scene13
    "hdp_pcvb0": ("hdp_pcvb0_fit", 16),  # KOS and 20 Newsgroups x 8 configurations
}


def _ladder_config(over: dict | None = None) -> dict:
    cfg = yaml.safe_load((ROOT / "config" / "ladder.yaml").read_text())
    if over:
        cfg = runconfig.merge(cfg, over)
    return cfg


def _load(cfg: dict) -> dict:
    return runconfig.load(copy.deepcopy(cfg), ["config/ladder.yaml"], ROOT)


# ------------------------------------------------------------------ config
def test_ladder_config_builds_each_rung_as_a_run_over_real():
    rungs = ladder.ladder_rungs(_load(_ladder_config()), ROOT)
    assert set(rungs) >= set(LADDER_STEP)
    real = yaml.safe_load((ROOT / "config" / "real.yaml").read_text())
    for study, rs in rungs.items():
        assert len(rs) >= 3
        assert rs[0].name == "real" and rs[0].overrides == {}
        # the first rung is the real run's settings of the study, nothing else
        assert rs[0].config[study] == runconfig.validate(copy.deepcopy(real), ROOT)[study]
        for r in rs:
            assert r.run == f"ladder/{study}/{r.name}"
            assert r.config["studies"] == [study]
            assert r.config["data"]["run"] == "real"
            assert "ladder" not in r.config
        # the last rung is the document's setting: built here (nonconjugate_vi's K100_doc),
        # or it does not fit here and says why
        assert rs[-1].fits_here == (study == "nonconjugate_vi")
        assert rs[-1].fits_here or rs[-1].reason
    k = {r.name: r.config["scvb0"]["curves"]["K"] for r in rungs["scvb0"]}
    assert k["real"] == 100 and k["K200"] == 200
    ncv = {r.name: r.config["nonconjugate_vi"]["ctm"] for r in rungs["nonconjugate_vi"]}
    # the real run's EM budget is in iterations (config/real.yaml); the rungs run to tolerance
    assert ncv["real"]["em_time_budget_s"] is None and ncv["real"]["em_iter_budget"]
    assert ncv["converged"]["em_time_budget_s"] is None
    # every other rung runs to tolerance (no iteration budget)
    assert all(c["em_iter_budget"] is None for n, c in ncv.items() if n != "real")
    assert ncv["K100_doc"]["K_grid"][-1] == 100
    # drift: the document's Enron forecasts, then its 10 synthetic data sets and missing data
    paper = yaml.safe_load((ROOT / "config" / "paper.yaml").read_text())
    dr = {r.name: r.config["drift"] for r in rungs["drift"]}
    fc = ("chains", "burnin", "samples")
    assert [dr["real"]["monthly_fit"][k] for k in fc] == [2, 20, 3]
    assert [dr["fc_doc"]["monthly_fit"][k] for k in fc] == [3, 100, 10]
    assert dr["fc_doc"]["synthetic_fit"]["datasets"] == 3
    assert dr["fc_doc_synth10"]["synthetic_fit"]["datasets"] == 10
    assert dr["doc"]["monthly_fit"] == {
        **dr["real"]["monthly_fit"],
        **paper["drift"]["monthly_fit"],
    }
    assert dr["doc"]["reductions"] == [] and len(dr["fc_doc"]["reductions"]) == 2
    # ais_eval: more test documents for iteration-AIS, Fig 5.6 at the document's S = 100
    ae = {r.name: r.config["ais_eval"] for r in rungs["ais_eval"]}
    assert [ae[n]["iteration"]["n_docs"] for n in ae] == [5, 10, 10, 80, 130]
    assert [ae[n]["ntemps"]["S"] for n in ae] == [20, 20, 100, 100, 100]
    assert ae["uci_nips_doc"]["ntemps"] == paper["ais_eval"]["ntemps"]
    assert ae["uci_nips_doc"]["corpora"]["nips"]["dataset"] == "uci_nips"
    assert ae["uci_nips_doc"]["train"]["max_test_docs"] is None
    # iwtm: 100 images per class at the document's image size after real, >= 3 seeds where
    # it fits, the float32 E l GEMM wherever C = 4000, the document's Gibbs schedule last
    iw = {r.name: r.config["iwtm"] for r in rungs["iwtm"]}
    assert iw["real"]["desc_per_doc"] == 20 and iw["real"]["scene"]["size"] == 128
    for r in rungs["iwtm"][1:]:
        c = r.config["iwtm"]
        assert c["n_train"] == [100] and c["scene"]["size"] is None
        if r.fits_here:
            assert min(c["gibbs"]["seeds"], c["cavi"]["seeds"], c["scene8"]["seeds"]) >= 3
        if c["cavi"]["C"] == 4000:
            assert c["cavi"]["el_gemm"] == "float32" and c["cavi"]["K"] == 8000
    doc = iw[rungs["iwtm"][-1].name]
    assert [doc["gibbs"][k] for k in ("n_iter", "burn_in", "hyper_every", "test_iter")] == [
        paper["iwtm"]["gibbs"][k] for k in ("n_iter", "burn_in", "hyper_every", "test_iter")
    ]
    assert doc["scene"]["max_desc"] is None and doc["desc_per_doc"] is None
    # hdp_pcvb0: KOS from the real grid to the document's T = 100, 200, 300 with 5 runs,
    # 20 Newsgroups at the document's 10,000 documents last
    hdp = {r.name: r.config["hdp_pcvb0"] for r in rungs["hdp_pcvb0"]}
    assert hdp["real"]["perplexity"]["per_dataset"]["kos"]["T"] == [50, 300]
    last = hdp[rungs["hdp_pcvb0"][-1].name]
    kos = last["perplexity"]["per_dataset"]["kos"]
    assert kos["T"] == paper["hdp_pcvb0"]["perplexity"]["T"] and kos["runs"] == 5
    assert kos["max_T_configs"] is None
    assert (
        last["datasets"]["news20"]["n_docs"] == paper["hdp_pcvb0"]["datasets"]["news20"]["n_docs"]
    )


def test_every_claims_selector_picks_a_row_of_the_published_ledger():
    """A ladder's selectors name rows its study's ledger has (the published real run's,
    whose settings are the first rung's): a typo would stop ``ladder collect`` only after
    the rungs ran."""
    from fnmatch import fnmatchcase

    for study, lad in _ladder_config()["ladder"]["studies"].items():
        led = pd.read_csv(ROOT / "published" / "real" / study / "claims.csv").fillna("")
        for sel in lad["claims"]:
            m = led.claim_id.astype(str) == sel["id"]
            for key in ("where", "dataset"):
                if key in sel:
                    m &= led[key].astype(str).map(lambda v, p=sel[key]: fnmatchcase(v, p))
            assert m.any(), (study, sel)


def _error_lines(cfg) -> tuple[str, list[str]]:
    with pytest.raises(ConfigError) as e:
        ladder.ladder_rungs(_load(cfg), ROOT)
    text = str(e.value)
    return text, text.splitlines()


def test_bad_rung_key_is_a_few_lines_naming_it():
    cfg = _ladder_config()
    cfg["ladder"]["studies"]["scvb0"]["rungs"][1]["sett"] = {}
    with pytest.raises(runconfig.ConfigFileError) as e:
        _load(cfg)
    text = str(e.value)
    assert len(text.splitlines()) <= MAX_LINES, text
    assert "config ladder.studies.scvb0.rungs[1].sett: unknown key" in text, text
    assert 'docs/runs.md "Ladders"' in text and "fits_here" in text, text


def test_bad_setting_in_a_rung_names_the_rung_and_the_key():
    cfg = _ladder_config()
    cfg["ladder"]["studies"]["scvb0"]["rungs"][1]["set"] = {"scvb0": {"curvez": {"K": 200}}}
    text, lines = _error_lines(cfg)
    assert len(lines) <= MAX_LINES, text
    assert "ladder.studies.scvb0.rungs[1] (K200).set" in text and "curvez" in text, text


def test_a_rung_cannot_rename_its_run_or_lack_a_reason():
    cfg = _ladder_config()
    cfg["ladder"]["studies"]["scvb0"]["rungs"][1]["set"] = {"run": "x"}
    text, _ = _error_lines(cfg)
    assert "rungs[1] (K200).set.run" in text, text
    cfg = _ladder_config()
    del cfg["ladder"]["studies"]["scvb0"]["rungs"][-1]["reason"]
    text, _ = _error_lines(cfg)
    assert "rungs[5] (pubmed_doc).reason" in text, text


def test_fewer_than_three_rungs_are_refused():
    cfg = _ladder_config()
    del cfg["ladder"]["studies"]["nonconjugate_vi"]["rungs"][1:]
    with pytest.raises(runconfig.ConfigFileError) as e:
        _load(cfg)
    assert "ladder.studies.nonconjugate_vi.rungs" in str(e.value)


# ------------------------------------------------------------------ collect + figure
def _rung(name, index, over, fits=True, reason=""):
    cfg = {"run": f"lad/s/{name}", "s": runconfig.merge({"K": 10, "n": 3}, over.get("s", {}))}
    return ladder.Rung("s", name, index, over, fits, reason, cfg)


def _ledger(path: Path, gap: float, order_a: list[float]) -> str:
    led = Ledger("s", document="doc")
    # deterministic values: the ladder's mechanics, not the noise rule, are tested here
    led.compare("C1", where="Fig. 1", statement="gap >= 0", paper_value=0.0, our_value=gap,
                how="ge", tolerance=0.0, dataset="d", data_kind="real",
                deterministic=True)  # fmt: skip
    led.order("C2", where="Fig. 2", statement="A > B", ours_a=order_a, ours_b=[1.0, 1.0],
              direction=">", paper_a=3.0, paper_b=1.0, dataset="d", data_kind="real",
              deterministic=True)  # fmt: skip
    led.not_run("C2", where="Fig. 2", statement="A > B", paper_value="A > B",
                reason="corpus e not in this run", dataset="e")  # fmt: skip
    led.compare("C3", where="Fig. 3", statement="other", paper_value=1.0, our_value=1.0,
                how="abs", tolerance=0.1, dataset="d", data_kind="real",
                deterministic=True)  # fmt: skip
    led.write(path)
    return str(path)


CLAIMS = [
    {"id": "C1", "measure": "gap (nats)"},
    {"id": "C2", "where": "Fig. 2", "measure": "A - B (nats)"},
]


def _params_and_ledgers(tmp_path):
    rungs = [
        _rung("real", 0, {}),
        _rung("K20", 1, {"s": {"K": 20}}),
        _rung("K20n9", 2, {"s": {"K": 20, "n": 9}}),
        _rung("doc", 3, {"s": {"K": 200, "n": 9}}, fits=False, reason="too big here"),
    ]
    params = ladder.step_params("s", rungs, CLAIMS, "lad")
    ledgers = {
        "real": _ledger(tmp_path / "a.csv", -0.5, [0.5, 0.8]),
        "K20": _ledger(tmp_path / "b.csv", -0.1, [1.5, 2.0]),
        "K20n9": _ledger(tmp_path / "c.csv", 0.2, [2.5, 3.5]),
    }
    return params, ledgers


def test_collect_gives_one_row_per_rung_and_claim_row(tmp_path):
    params, ledgers = _params_and_ledgers(tmp_path)
    assert params["settings"] == ["s.K", "s.n"]
    df = ladder.collect(params, ledgers)
    got = df[["rung", "s.K", "s.n", "claim_id", "dataset", "ours", "document", "verdict"]]
    want = pd.DataFrame(
        [
            ["real", 10, 3, "C1", "d", -0.5, 0.0, "not_reproduced"],
            ["real", 10, 3, "C2", "d", 0.65 - 1.0, 2.0, "not_reproduced"],
            ["K20", 20, 3, "C1", "d", -0.1, 0.0, "not_reproduced"],
            ["K20", 20, 3, "C2", "d", 1.75 - 1.0, 2.0, "reproduced"],
            ["K20n9", 20, 9, "C1", "d", 0.2, 0.0, "reproduced"],
            ["K20n9", 20, 9, "C2", "d", 3.0 - 1.0, 2.0, "reproduced"],
            ["doc", 200, 9, "C1", "", float("nan"), float("nan"), "not_run_here"],
            ["doc", 200, 9, "C2", "", float("nan"), float("nan"), "not_run_here"],
        ],
        columns=got.columns,
    )
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_dtype=False)
    assert (df[df.rung == "doc"].note == "not run here: too big here").all()
    # the selector's measure names the number (the figure's y axis); an order row's adds
    # how its number is formed
    assert set(df[df.claim_id == "C1"].measure) == {"gap (nats)"}
    assert set(df[(df.claim_id == "C2") & (df.rung != "doc")].measure) == {
        "A - B (nats); > 0 where the claim's order holds"
    }
    assert list(df.columns[:4]) == ["rung", "rung_index", "s.K", "s.n"]


def test_collect_refuses_a_selector_that_picks_nothing(tmp_path):
    params, ledgers = _params_and_ledgers(tmp_path)
    params["claims"] = [{"id": "C1", "dataset": "nope", "measure": "gap (nats)"}]
    with pytest.raises(Exception, match="picks no row"):
        ladder.collect(params, ledgers)


def test_ladder_step_writes_csv_and_a_figure_that_passes_the_check(tmp_path):
    params, ledgers = _params_and_ledgers(tmp_path)
    out = tmp_path / "run"
    csv, png = out / "s" / "ladder.csv", out / "s" / "ladder.png"
    args = ["ladder", "collect", "--params", json.dumps(params),
            "--ledger", *[f"{k}={v}" for k, v in ledgers.items()],
            "--csv", str(csv), "--png", str(png)]  # fmt: skip
    from latentlab.cli import main

    assert main(args) == 0
    df = pd.read_csv(out / "s" / "ladder.csv")
    assert len(df) == 8 and (out / "s" / "ladder.meta.json").exists()
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "figures", "check", str(out)],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_ladder_figure_keeps_long_rung_names_and_labels_apart(tmp_path):
    """ais_eval's ladder (2026-11-28): upright rung names of 26 characters left each panel
    1.2 in of plotting height, and a three-line y label ran into the suptitle."""
    from latentlab.plotting.check import figure_problems

    names = ["real", "docs10", "docs10_S100", "docs80_S100", "uci_nips_doc"]
    rungs = [_rung(n, i, {"s": {"K": 10 + i}}) for i, n in enumerate(names[:3])]
    rungs += [_rung(n, i + 3, {"s": {"K": 99}}, fits=False, reason="big") for i, n in
              enumerate(names[3:])]  # fmt: skip
    long = "spread of the 3 estimators + 2 SE, most temperatures (nats)"
    claims = [{"id": "C1", "measure": long}, {"id": "C2", "measure": long},
              {"id": "C3", "measure": long}]  # fmt: skip
    params = ladder.step_params("s", rungs, claims, "lad")
    ledgers = {n: _ledger(tmp_path / f"{n}.csv", 0.1 * i, [1.0 + i, 2.0]) for i, n in
               enumerate(names[:3])}  # fmt: skip
    fig = ladder.draw(ladder.collect(params, ledgers), "s")
    assert figure_problems(fig) == []


def test_bench_sums_each_rung(tmp_path):
    params, _ = _params_and_ledgers(tmp_path)
    head = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
    for i, r in enumerate(params["rungs"][:3]):
        d = tmp_path / "benchmarks" / r["run"] / "s"
        d.mkdir(parents=True)
        for j in range(2):
            (d / f"job{j}.tsv").write_text(
                head + f"{10 * (i + 1)}\t0\t{100 + j}\t0\t0\t0\t0\t0\t50\t{i + 1}\n"
            )
    df = ladder.bench(params, tmp_path)
    assert df.rung.tolist() == ["real", "K20", "K20n9", "total"]
    assert df.jobs.tolist() == [2, 2, 2, 6]
    assert df.seconds.tolist() == [20, 40, 60, 120]
    assert df.cpu_seconds.tolist() == [2, 4, 6, 12]


# ------------------------------------------------------------------ the workflow
@pytest.fixture(scope="module")
def workdir(tmp_path_factory, copy_workflow):
    return copy_workflow(tmp_path_factory.mktemp("ladder"))


# the document's figures at the rung that runs the document's settings (issue 40): the rung's
# own targets, and the corpora the figure step draws there
DOC_FIGURES = {
    ("hdp_pcvb0", "kos_doc"): (["fig3.csv", "fig3.png"], {"fig3": {"datasets": ["kos"]}}),
    ("nonconjugate_vi", "K100_doc"): (
        ["fig5a.csv", "fig5a.png", "fig5b.csv", "fig5b.png"],
        {"fig5": {"corpora": ["ap"]}},
    ),
}


def test_the_document_rungs_draw_the_documents_figures():
    rungs = ladder.ladder_rungs(_load(_ladder_config()), ROOT)
    for (study, name), (targets, sel) in DOC_FIGURES.items():
        r = next(r for r in rungs[study] if r.name == name)
        assert list(r.targets) == targets and r.fits_here
        for key, val in sel.items():
            assert r.config[study][key] == val
        # only that rung: the others build the ladder's targets alone
        assert all(not o.targets for o in rungs[study] if o.name != name)


def test_the_published_document_figures_cover_the_documents_axes():
    from latentlab.figures import figure_records

    hdp = ROOT / "published/ladder/hdp_pcvb0/kos_doc/hdp_pcvb0"
    ncv = ROOT / "published/ladder/nonconjugate_vi/K100_doc/nonconjugate_vi"
    for (study, _), (targets, _) in DOC_FIGURES.items():
        folder = hdp if study == "hdp_pcvb0" else ncv
        for t in targets:
            assert (folder / t).exists(), folder / t
    f3 = pd.read_csv(hdp / "fig3.csv")
    left = f3[f3.panel == "vs_T"]
    assert set(left.dataset) == {"kos"}
    assert sorted(set(left["T"])) == [100, 200, 300]
    assert left.groupby("config")["T"].nunique().eq(3).all() and len(set(left.config)) == 8
    assert (left["count"] == 5).all()  # the document's five runs
    for fig in ("fig5a", "fig5b"):
        df = pd.read_csv(ncv / f"{fig}.csv")
        assert set(df.corpus) == {"ap"}
        assert sorted(set(df.K)) == [5, 10, 20, 30, 40, 50, 60, 80, 100]
        assert (df.n_seeds == 3).all() and (df.n_converged == df.n_fits).all()
    assert figure_records(hdp) == [] and figure_records(ncv) == []
    # shown in the published report beside the real run's figures
    report = (ROOT / "published/real/REPORT.md").read_text()
    k100 = "nonconjugate_vi/K100_doc/nonconjugate_vi"
    for path in ("hdp_pcvb0/kos_doc/hdp_pcvb0/fig3.png", f"{k100}/fig5a.png", f"{k100}/fig5b.png"):
        assert f"(../ladder/{path})" in report, path


def test_a_rung_target_list_is_checked():
    cfg = _ladder_config()
    cfg["ladder"]["studies"]["scvb0"]["rungs"][1]["targets"] = "fig4_3.png"
    with pytest.raises(ConfigError) as e:
        ladder.ladder_rungs(_load(cfg), ROOT)
    assert "targets" in str(e.value)


def _snakemake(workdir, *args, timeout=600):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    env.pop("LATENTLAB_MIRROR", None)
    return subprocess.run(
        [sys.executable, "-m", "snakemake", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _jobs(out: str) -> dict[str, int]:
    """{rule: jobs} of a dry run's job table."""
    table, jobs = False, {}
    for line in out.splitlines():
        if line.startswith("job ") and "count" in line:
            table = True
            continue
        if table:
            m = re.match(r"^(\S+)\s+(\d+)$", line.strip())
            if m and m.group(1) != "total":
                jobs[m.group(1)] = int(m.group(2))
            elif line.strip().startswith("total"):
                break
    return jobs


@pytest.fixture(scope="module")
def ladder_jobs(workdir) -> dict[str, int]:
    """{rule: jobs} of the dry run of every ladder's target (nothing on disk)."""
    r = _snakemake(workdir, "-n", "--cores", "2", "--configfile=config/ladder.yaml",
                   *[f"{s}_ladder" for s in LADDER_STEP])  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    return _jobs(r.stdout)


@pytest.mark.parametrize("study", list(LADDER_STEP))
def test_ladder_resolves_with_one_job_set_per_rung(ladder_jobs, study):
    jobs = ladder_jobs
    step, per_rung = LADDER_STEP[study]
    rungs = ladder.ladder_rungs(_load(_ladder_config()), ROOT)[study]
    for rung in rungs:
        n = per_rung if rung.fits_here else 0  # a rung that does not fit here is not built
        assert jobs.get(f"{rung.module}_{step}", 0) == n, (rung.name, jobs)
        built = 1 if rung.fits_here else 0
        assert jobs.get(f"{rung.module}_{study}_claims", 0) == built, (rung.name, jobs)
    for rule in (f"{study}_ladder_collect", f"{study}_ladder_bench", f"{study}_ladder"):
        assert jobs[rule] == 1
    # the rungs read the real run's prepared datasets: one prepare job per dataset
    assert all(v == 1 for k, v in jobs.items() if k.startswith("prepare_")), jobs
    # only the targets the ladder names, not the whole study
    assert not any(k.startswith(f"ladder_{study}_") and k.endswith("_bench") for k in jobs)


def test_rungs_that_do_not_fit_here_resolve_on_the_slurm_profile(workdir):
    rungs = ladder.ladder_rungs(_load(_ladder_config()), ROOT).values()
    last = [rs[-1] for rs in rungs if not rs[-1].fits_here]
    assert len(last) == len(rungs) - 1  # all but nonconjugate_vi's, built here
    r = _snakemake(workdir, "-n", "--profile", "config/profiles/slurm",
                   "--configfile=config/ladder.yaml", *[r.module for r in last])  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    jobs = _jobs(r.stdout)
    for rung in last:
        step, n = LADDER_STEP[rung.study]
        assert jobs[f"{rung.module}_{step}"] == n, (rung.name, jobs)


def _smoke_rung(name, K, epochs):
    curves = {"K": K, "n_epochs": epochs, "seeds": 2}
    return {"name": name, "set": {"scvb0": {"curves": curves, "heldout_max_docs": 50}}}


# over the smoke run: 3 rungs of Fig 4.3's curves on a small synthetic corpus, and one rung
# that does not fit here
SMOKE_LADDER = {
    "base": "smoke",
    "run": "lad",
    "studies": [],
    "ladder": {
        "studies": {
            "scvb0": {
                "targets": ["fig4_3.csv", "fig4_3.png"],
                "claims": [
                    {"id": "C4.4", "where": "Fig. 4.3", "measure": "early gap (nats/token)"},
                    {"id": "C4.6-similar", "where": "Fig. 4.3", "measure": "end gap (nats/token)"},
                ],  # fmt: skip
                "rungs": [
                    _smoke_rung("k5", 5, 1),
                    _smoke_rung("k10", 10, 1),
                    _smoke_rung("k10_2ep", 10, 2),
                    {
                        "name": "big",
                        "fits_here": False,
                        "reason": "a test rung",
                        "set": {"scvb0": {"curves": {"K": 500}}},
                    },  # fmt: skip
                ],
            }
        }
    },
}


@pytest.mark.slow
def test_smoke_ladder_runs_end_to_end_and_resumes(tmp_path, copy_workflow):
    wd = copy_workflow(tmp_path / "wf")
    (wd / "lad.yaml").write_text(yaml.safe_dump(SMOKE_LADDER))
    r = _snakemake(wd, "--cores", "2", "--configfile=lad.yaml", "scvb0_ladder", timeout=900)
    assert r.returncode == 0, r.stderr[-5000:]
    out = wd / "results" / "lad" / "scvb0"
    df = pd.read_csv(out / "ladder.csv")
    assert df.rung.tolist() == ["k5", "k5", "k10", "k10", "k10_2ep", "k10_2ep", "big", "big"]
    assert df["scvb0.curves.K"].tolist() == [5, 5, 10, 10, 10, 10, 500, 500]
    assert set(df.verdict[:6]) <= {"reproduced", "not_reproduced", "inconclusive"}  # judged
    assert (df.verdict[6:] == "not_run_here").all()
    assert (df.dataset[:6] == "synth_a").all()
    # each rung's ledger is the study's own, judged on the rung's outputs only
    led = pd.read_csv(out / "k10" / "scvb0" / "claims.csv")
    notes = led.set_index("claim_id").note.fillna("")
    assert notes["C4.5"] == "partial run: 'curves_fig4_6' was not built in this run"
    assert led.set_index("claim_id").verdict["C4.10"] == "reproduced"  # needs no input
    bench = pd.read_csv(out / "bench_targets.csv")
    assert bench.rung.tolist() == ["k5", "k10", "k10_2ep", "total"]
    assert (bench.jobs[:3] >= 3).all()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    chk = subprocess.run([sys.executable, "-m", "latentlab", "figures", "check", str(out)],
                         capture_output=True, text=True, env=env)  # fmt: skip
    assert chk.returncode == 0, chk.stdout + chk.stderr
    again = _snakemake(wd, "--cores", "2", "--configfile=lad.yaml", "scvb0_ladder")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
