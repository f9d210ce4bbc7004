"""A bad config stops the workflow with a few lines (the key, the problem, what is allowed,
where it is documented), never the schema; config files are completed from their base
(latentlab.runconfig, docs/config.md "Config files")."""

from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from latentlab import runconfig
from latentlab.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 12  # the issue: "well under 25"
# where an error says the key is documented: a page and one of its headings
DOC_REF = re.compile(r'((?:docs/)?[\w.-]+\.md) "([^"]+)"')


def assert_documented_sections_exist(out: str) -> None:
    """Every `page.md "Section"` an error names is a page of the repository with that
    heading, so the pointer leads somewhere."""
    refs = DOC_REF.findall(out)
    assert refs, out
    for page, title in refs:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert re.search(rf"^#+ {re.escape(title)}$", text, flags=re.M), (page, title)


def _load(name):
    return yaml.safe_load((ROOT / "config" / name).read_text())


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, copy_workflow):
    return copy_workflow(tmp_path_factory.mktemp("cfgerr"))


def _dry_run(workdir: Path, text: str, name: str) -> tuple[int, list[str]]:
    (workdir / name).write_text(text)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1", f"--configfile={name}"],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return r.returncode, (r.stdout + r.stderr).strip().splitlines()


@pytest.mark.parametrize(
    "name, text, key, allowed",
    [
        # a bad value
        ("bad_value.yaml", "base_seed: -1\n", "config base_seed:", "integer >= 0"),
        # a missing required key (a local corpus without its file)
        (
            "missing.yaml",
            "data:\n  local:\n    mine: {format: uci, vocab: v.txt}\n",
            "config data.local.mine.path: missing (required)",
            "docword / LDA-C / .mtx / text file",
        ),
        # an unknown study name
        ("study.yaml", "studies: [scvbo]\n", "config studies[0]: 'scvbo'", "scvb0, hdp_pcvb0"),
    ],
)
def test_config_error_is_a_few_lines_naming_the_key(workdir, name, text, key, allowed):
    rc, lines = _dry_run(workdir, text, name)
    out = "\n".join(lines)
    assert rc != 0
    assert len(lines) <= MAX_LINES, out
    assert key in out and allowed in out, out
    assert "documented: config/schema.yaml" in out, out
    assert_documented_sections_exist(out)
    # never the schema: no jsonschema dump, no "Failed validating"
    assert "Failed validating" not in out and "schema[" not in out and "$schema" not in out


def test_the_documented_error_example_is_what_the_workflow_prints(workdir):
    """docs/config.md "Config files" shows the error of an unknown study name: the
    workflow prints those lines."""
    page = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    section = page.split("\n## Config files\n", 1)[1].split("\n## ", 1)[0]
    example = re.search(r"for instance:\n\n```\n(.*?)```", section, flags=re.S).group(1)
    bad = re.search(r"config studies\[0\]: '(\w+)'", example).group(1)
    rc, lines = _dry_run(workdir, f"studies: [{bad}]\n", "example.yaml")
    assert rc != 0
    printed = [ln.strip() for ln in lines]
    for line in example.strip().splitlines():
        assert line.strip() in printed, (line, lines)


def test_study_section_error_names_key_and_where_documented(workdir):
    rc, lines = _dry_run(workdir, "studies: [scvb0]\n", "nosection.yaml")
    out = "\n".join(lines)
    assert rc != 0 and len(lines) <= MAX_LINES, out
    assert "config scvb0." in out and "src/latentlab/studies/scvb0/study.py" in out, out
    assert "base: smoke" in out


def test_em_iter_budget_missing_a_fit_stops_the_start_up_naming_it(workdir):
    """nonconjugate_vi.ctm.em_iter_budget must give every (corpus, K, method) of the sweep:
    a gap stops the workflow before any job, naming the missing entry."""
    text = (
        "base: smoke\nstudies: [nonconjugate_vi]\n"
        "nonconjugate_vi:\n  ctm:\n    em_iter_budget: {synth_ctm_ap: {3: {laplace: 2}}}\n"
    )
    rc, lines = _dry_run(workdir, text, "ncvi_budget.yaml")
    out = "\n".join(lines)
    assert rc != 0 and len(lines) <= MAX_LINES, out
    assert "config nonconjugate_vi.ctm.em_iter_budget.synth_ctm_ap.3.delta: missing" in out, out


@pytest.mark.parametrize(
    "name, text, needle",
    [
        # a range (latentlab.settings.setting), checked in the job before issue 25
        (
            "drift_frac.yaml",
            "base: smoke\nstudies: [drift]\ndrift:\n  monthly_fit: {heldout_frac: 1.5}\n",
            "config drift.monthly_fit.heldout_frac: must be > 0, < 1, got 1.5",
        ),
        # a check relating two fields (__post_init__ raising settings.Invalid)
        (
            "drift_bmf.yaml",
            "base: smoke\nstudies: [drift]\ndrift:\n  text_data: {bmf_text: {K2: 0}}\n",
            "config drift.text_data.bmf_text.K2: bmf_lda needs M >= 1 and K2 >= 1",
        ),
        (
            "iwtm_ivi.yaml",
            "base: smoke\nstudies: [iwtm]\niwtm:\n  ivi: {seed_per_class: 10, max_per_class: 5}\n",
            "config iwtm.ivi.max_per_class: 5 < seed_per_class 10",
        ),
        # allowed values (Literal) and an unknown nested key
        (
            "iwtm_codebook.yaml",
            "base: smoke\nstudies: [iwtm]\niwtm:\n  active: {codebook: test}\n",
            "config iwtm.active.codebook: 'test' is not one of ['seed', 'pool']",
        ),
        (
            "iwtm_nested.yaml",
            "base: smoke\nstudies: [iwtm]\niwtm:\n  gibbs: {n_itr: 5}\n",
            "config iwtm.gibbs.n_itr: unknown key",
        ),
        (
            "scvb0_kappa.yaml",
            "base: smoke\nstudies: [scvb0]\nscvb0:\n  rho_phi: {s: 10, tau: 1000, kappa: 1.5}\n",
            "config scvb0.rho_phi.kappa: must be > 0, <= 1, got 1.5",
        ),
        # checks that ran inside a job (tir fit, ais_eval symasym, compare split) or in a
        # rule's input function while the DAG was built (nonconjugate_vi fig6)
        (
            "tir_sample.yaml",
            "base: smoke\nstudies: [tir]\ntir:\n  fit: {n_iter: 50, sample_every: 60}\n",
            "config tir.fit.sample_every: 60 > n_iter 50: Table 3.1 would score no posterior",
        ),
        (
            "ais_eval_lr.yaml",
            "base: smoke\nstudies: [ais_eval]\nais_eval:\n  symasym: {lr_long_temps: null}\n",
            "config ais_eval.symasym.lr_long_temps: required (Table 5.3's long LR reference)",
        ),
        (
            "ncvi_corpus.yaml",
            "base: smoke\nstudies: [nonconjugate_vi]\nnonconjugate_vi:\n  fig6: {corpus: nyt}\n",
            "config nonconjugate_vi.fig6.corpus: 'nyt' is not a corpus of ctm.corpora",
        ),
        (
            "compare_frac.yaml",
            "base: smoke\nstudies: []\ncompare:\n  observed_frac: 1.0\n",
            "config compare.observed_frac: must be > 0, < 1, got 1.0",
        ),
    ],
)
def test_a_bad_study_value_stops_the_start_up_naming_the_key(workdir, name, text, needle):
    """Issue 25: every study in `studies` has its section parsed into every step's settings
    when the workflow loads, ranges and cross-field checks included, so a bad value stops
    `snakemake -n` before the DAG is built (no job), in a few lines naming the key."""
    rc, lines = _dry_run(workdir, text, name)
    out = "\n".join(lines)
    assert rc != 0 and len(lines) <= MAX_LINES, out
    assert needle in out, out
    assert "config/README.md" in out, out
    assert "Building DAG" not in out and "Job stats" not in out, out


@pytest.mark.parametrize(
    "name, text, needle",
    [
        # issue 40: the section of a study left out of `studies` ran without a word
        (
            "unlisted_claims.yaml",
            "scvb0: {claimz: {}}\nstudies: []\n",
            "config scvb0.claimz: unknown key (misspelt? did you mean 'claims'?)",
        ),
        (
            "unlisted_alone.yaml",
            "scvb0: {minibatchh: 5}\n",
            "config scvb0.minibatchh: unknown key (misspelt? did you mean 'minibatch'?)",
        ),
        # below the top level, and beside a listed study, over a base run
        (
            "unlisted_nested.yaml",
            "base: smoke\nstudies: [tir]\niwtm:\n  gibbs: {n_itr: 5}\n",
            "config iwtm.gibbs.n_itr: unknown key (misspelt? did you mean 'n_iter'?)",
        ),
        # a value given is checked too (type, range, allowed values)
        (
            "unlisted_range.yaml",
            "scvb0:\n  rho_phi: {kappa: 1.5}\n",
            "config scvb0.rho_phi.kappa: must be > 0, <= 1, got 1.5",
        ),
        (
            "unlisted_type.yaml",
            "drift:\n  monthly_fit: {heldout_frac: half}\n",
            "config drift.monthly_fit.heldout_frac: expected a number, got 'half'",
        ),
    ],
)
def test_a_study_left_out_of_studies_has_its_section_checked(workdir, name, text, needle):
    """Issue 40: every study's section is checked whether or not the run lists the study,
    so a misspelt key never passes silently; keys a section leaves out are fine there."""
    rc, lines = _dry_run(workdir, text, name)
    out = "\n".join(lines)
    assert rc != 0 and len(lines) <= MAX_LINES, out
    assert needle in out, out
    assert "config/README.md" in out, out
    assert "Building DAG" not in out and "Job stats" not in out, out


def test_an_incomplete_section_of_a_study_not_run_is_accepted(workdir):
    """A section the run does not use may set a few keys only (no base run completes it)."""
    text = "scvb0: {minibatch: 5, curves: {K: 3}}\ntir: {fit: {n_iter: 10}}\n"
    rc, lines = _dry_run(workdir, text, "unlisted_partial.yaml")
    assert rc == 0, "\n".join(lines)[-2000:]


def test_minimal_file_resolves_without_studies_or_datasets(workdir):
    rc, lines = _dry_run(workdir, "threads: 1\n", "tiny_run.yaml")
    out = "\n".join(lines)
    assert rc == 0, out[-2000:]
    # nothing of the smoke run leaked in: its default target builds only the report
    assert "data_synth_lda" not in out and "results/tiny_run/REPORT.md" in out, out


def _lines_of(cfg):
    with pytest.raises(runconfig.ConfigFileError) as e:
        runconfig.load(cfg, ["x.yaml"], ROOT)
    lines = str(e.value).splitlines()
    assert len(lines) <= 1 + 3 * runconfig.MAX_ERRORS + 1
    return e.value, "\n".join(lines)


@pytest.mark.parametrize(
    "cfg, key, needle",
    [
        ({"foo": 1}, "foo", "config foo: unknown key"),
        ({"data": {"mirorr": "x"}}, "data.mirorr", "allowed keys here: datasets, local"),
        ({"data": {"datasets": ["kos2"]}}, "data.datasets[0]", "allowed: kos, ap"),
        ({"run": "bad name/"}, "run", "matching"),
        ({"threads": "two"}, "threads", "allowed: integer >= 1"),
        ({"base": "smok"}, "base", "allowed: smoke, real, paper"),
        ({"studies": ["compare"]}, "studies", "its own target"),
    ],
)
def test_each_kind_of_error_names_the_key(cfg, key, needle):
    err, text = _lines_of(cfg)
    assert isinstance(err, ConfigError) and err.key == key, text
    assert needle in text, text
    assert_documented_sections_exist(text)


def test_many_errors_are_cut_to_a_few():
    bad = {"threads": 0, "base_seed": -1, "run": "a b", "studies": ["x"], "k1": 1, "k2": 2}
    err, text = _lines_of(bad)
    assert "and 2 more" in text and len(text.splitlines()) == 11
    assert "config k1: unknown key (also unknown: k2)" in text


def test_merge_is_key_by_key_for_mappings_and_replaces_the_rest():
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 3}
    over = {"a": {"c": [9]}, "e": 4}
    assert runconfig.merge(base, over) == {"a": {"b": 1, "c": [9]}, "d": 3, "e": 4}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 3}  # not mutated


def test_shipped_configs_complete_to_themselves():
    for name, files in (("config.yaml", []), ("real.yaml", ["config/real.yaml"])):
        cfg = _load(name)
        done = runconfig.load(copy.deepcopy(cfg), files, ROOT)
        # every key of the file unchanged, only schema defaults added
        assert {k: done[k] for k in cfg} == cfg
        assert done["run"] == cfg["run"]


def test_base_merges_over_the_base_run_and_run_defaults_to_the_file_name():
    user = {"base": "real", "studies": ["scvb0"], "scvb0": {"alpha": 0.5}}
    cfg = runconfig.load(copy.deepcopy(user), ["some/dir/mine.yaml"], ROOT)
    real = _load("real.yaml")
    assert cfg["run"] == "mine" and cfg["studies"] == ["scvb0"]
    assert cfg["scvb0"]["alpha"] == 0.5
    assert cfg["scvb0"]["datasets"] == real["scvb0"]["datasets"]
    assert cfg["data"] == real["data"] and "base" not in cfg


def test_minimal_file_gets_documented_defaults_and_no_smoke_settings():
    cfg = runconfig.load({"compare": {"dataset": "x"}}, ["my.yaml"], ROOT)
    assert cfg["run"] == "my" and cfg["studies"] == [] and cfg["base_seed"] == 20261122
    assert cfg["data"]["datasets"] == [] and cfg["data"]["mirror"] is None
    assert cfg["compare"] == {"dataset": "x"}
    # sections the file does not set are empty (the step dataclasses' defaults apply), never
    # the smoke run's settings
    assert cfg["synthetic"] == {} and cfg["data"]["local"] == {}
    assert all(cfg[s] == {} for s in runconfig.STUDIES)
