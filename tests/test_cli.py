"""The CLI the rules call: discovery, help, and errors that become one clear line."""

import subprocess
import sys

import pytest

from latentlab import cli
from latentlab.errors import ChecksumError, ConfigError, DataError, DivergenceError


def test_help_lists_core_groups(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "claims" in out


def test_no_group_prints_help_and_fails(capsys):
    assert cli.main([]) == 2


def test_module_entry_point_runs():
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "--version"], capture_output=True, text=True
    )
    assert r.returncode == 0 and r.stdout.strip()


def test_claims_check_reports_bad_file(tmp_path):
    p = tmp_path / "claims.csv"
    p.write_text("claim_id\nC1\n")
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "claims", "check", str(p)],
        capture_output=True,
        text=True,
    )
    assert r.returncode != 0 and "lacks columns" in r.stderr


def test_error_messages_name_file_key_and_iteration():
    e = ChecksumError("resources/x.gz", "aa", "bb")
    assert "resources/x.gz" in str(e) and "aa" in str(e) and "bb" in str(e)
    assert isinstance(e, DataError)
    assert "config scvb0.K" in str(ConfigError("scvb0.K", "must be >= 1"))
    d = DivergenceError("n_wk", 12)
    assert "n_wk" in str(d) and "12" in str(d)


def test_study_step_imports_only_its_study():
    """A job (``latentlab <study> <step>``) builds only its study's group and imports
    only the modules up to the one holding the step: no other study, no matplotlib."""
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "p = build_parser(['hdp_pcvb0', 'perplexity', '--params', '{}']); "
        "a = p.parse_args(['hdp_pcvb0', 'perplexity', '--params', '{}']); "
        "assert a.step == 'perplexity' and callable(a.func); "
        "bad = sorted(m for m in sys.modules if m.startswith(('matplotlib', "
        "'latentlab.studies.scvb0', 'latentlab.studies.iwtm', "
        "'latentlab.studies.hdp_pcvb0.figures'))); "
        "print(bad)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_study_group_help_and_unknown_step_list_every_step(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["hdp_pcvb0", "nostep"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "perplexity" in err and "fig5" in err and "claims" in err


def test_claims_step_registers_every_part():
    from latentlab.studies.hdp_pcvb0.study import STUDY

    cli.build_parser(["hdp_pcvb0", "claims", "--params", "{}"])
    assert {"perplexity", "fig3", "bench", "claims"} <= set(STUDY.steps)
    STUDY.check_claims()


def test_core_group_builds_only_itself():
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "p = build_parser(['data', 'list']); a = p.parse_args(['data', 'list']); "
        "assert callable(a.func); "
        "print(sorted(m for m in sys.modules if m.startswith('latentlab.studies.')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
