"""A failed job's own message reaches the console (issue 40): Snakemake names the job's log
("check log file(s) for error details"); the Snakefile's ``onerror`` prints the log's last
words (latentlab.cliutil), so a corrupt corpus says which file, which line and what."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import yaml

from latentlab.cliutil import failed_jobs_message, logs_of_failed_jobs, why_it_failed

ROOT = Path(__file__).resolve().parents[1]

SNAKEMAKE_LOG = """\
[Sun Dec  6 04:43:33 2026]
Error in rule local_bad:
    message: None
    jobid: 4
    log: logs/bad/data/local_bad.log (check log file(s) for error details)
    shell:
        python -m latentlab data local bad > logs/bad/data/local_bad.log 2>&1
Error in rule fit:
    log: logs/t/a.log, logs/t/b.log (check log file(s) for error details)
Error in rule again:
    log: logs/bad/data/local_bad.log (check log file(s) for error details)
"""


def test_logs_of_failed_jobs_reads_snakemakes_report():
    assert logs_of_failed_jobs(SNAKEMAKE_LOG) == [
        "logs/bad/data/local_bad.log",
        "logs/t/a.log",
        "logs/t/b.log",
    ]
    assert logs_of_failed_jobs("Building DAG of jobs...\nlog: x.log\n") == []


def test_why_it_failed_takes_the_error_line_or_the_traceback_end():
    info = "2026-12-06 04:43:30 INFO latentlab.data: reading bad.txt.gz\n"
    # the CLI's message for bad input: from the last "error: " line on
    assert why_it_failed(info + "error: old\n" + info + "error: bad.txt.gz: line 50\n") == [
        "error: bad.txt.gz: line 50"
    ]
    tb = (
        info + "Traceback (most recent call last):\n"
        '  File "x.py", line 3, in <module>\n    f()\n'
        '  File "x.py", line 2, in f\n    1 / 0\nZeroDivisionError: division by zero\n'
    )
    assert why_it_failed(tb) == [
        '  File "x.py", line 2, in f',
        "    1 / 0",
        "ZeroDivisionError: division by zero",
    ]
    plain = "".join(f"line {i}\n" for i in range(10))
    assert why_it_failed(plain) == [f"line {i}" for i in range(4, 10)]
    assert why_it_failed("") == []
    assert why_it_failed("error: " + "x" * 500)[0].endswith("...")


def test_failed_jobs_message_names_each_log(tmp_path):
    a = tmp_path / "a.log"
    a.write_text("starting\nerror: data.local.bad.path: no such file\n")
    empty = tmp_path / "e.log"
    empty.write_text("")
    text = failed_jobs_message([str(a), str(empty), str(tmp_path / "none.log")])
    lines = text.splitlines()
    assert lines[1:] == [
        f"  {a}:",
        "    error: data.local.bad.path: no such file",
        f"  {empty}:",
        "    (empty)",
        f"  {tmp_path / 'none.log'}: not written (the job stopped before its command ran)",
    ]
    assert failed_jobs_message([]) == ""


def _corrupt_uci(d: Path) -> dict:
    """A UCI docword whose line 50 has a negative count, and its vocabulary."""
    d.mkdir(parents=True, exist_ok=True)
    entries = [f"{1 + i // 3} {1 + (7 * i) % 30} 2" for i in range(54)]
    entries[46] = entries[46].rsplit(" ", 1)[0] + " -2"  # file line 50 (after 3 header lines)
    text = "\n".join(["20", "30", str(len(entries)), *entries]) + "\n"
    (d / "bad.txt.gz").write_bytes(gzip.compress(text.encode(), mtime=0))
    (d / "vocab.txt").write_text("\n".join(f"w{i}" for i in range(30)) + "\n")
    return {"format": "uci", "path": str(d / "bad.txt.gz"), "vocab": str(d / "vocab.txt")}


def test_a_corrupt_corpus_says_why_on_the_console(tmp_path, copy_workflow):
    """End to end: the job preparing a corrupt local corpus fails; the console (Snakemake's
    stdout and stderr) names the file, the line and the problem, not only the log file."""
    wd = copy_workflow(tmp_path / "wf")
    spec = _corrupt_uci(tmp_path / "data")
    (wd / "bad.yaml").write_text(yaml.safe_dump({"data": {"local": {"bad": spec}}}))
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    r = subprocess.run(
        [sys.executable, "-m", "snakemake", "--cores", "1", "--configfile=bad.yaml"]
        + ["results/bad/data/bad/summary.json"],
        cwd=wd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    console = r.stdout + r.stderr
    assert r.returncode != 0, console[-3000:]
    want = f"error: {spec['path']}: line 50: negative count -2"
    assert want in (wd / "logs/bad/data/local_bad.log").read_text()
    after = console.split("Error in rule local_bad", 1)[1]
    assert "Why the failed job(s) stopped" in after, console[-3000:]
    assert "  logs/bad/data/local_bad.log:\n    " + want in after, console[-3000:]
