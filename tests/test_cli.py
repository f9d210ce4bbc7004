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
