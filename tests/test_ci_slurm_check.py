"""The parsers of scripts/ci_slurm_check.py (the SLURM CI step's checks), on a log excerpt of
the form Snakemake 9 with the SLURM executor plugin writes."""

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "scripts" / "ci_slurm_check.py"
_spec = importlib.util.spec_from_file_location("ci_slurm_check", _PATH)
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)

LOG = """\
Job stats:
job                   count
------------------  -------
scvb0_fig4_7              1
scvb0_table               1
total                     2

Select jobs to execute...

[Mon Nov 23 16:09:19 2026]
rule scvb0_fig4_7:
    input: results/r/scvb0/data/synth_b.npz
    output: results/r/scvb0/fig4_7.png, results/r/scvb0/fig4_7.csv
    log: logs/r/scvb0/fig4_7.log
    jobid: 16
    resources: tmpdir=<TBD>, disk_mb=1000, mem_mb=8000, mem=8 GB, runtime=240
Shell command: python -m latentlab scvb0 fig4_7
No SLURM account given, trying to guess.

[Mon Nov 23 16:09:20 2026]
rule scvb0_table:
    output: results/r/scvb0/table4_4.csv
    jobid: 3
    wildcards: table=table4_4
    threads: 2
    resources: tmpdir=<TBD>, mem_mb=4000, runtime=30
Job 16 has been submitted with SLURM jobid 43 (log: /w/logs/slurm/rule_scvb0_fig4_7/43.log).
Job 3 has been submitted with SLURM jobid 44 (log: /w/logs/slurm/rule_scvb0_table/table4_4/44.log).
"""


def test_parse_log_reads_each_jobs_resources_and_submission():
    jobs, subs = check.parse_log(LOG)
    assert jobs["16"]["rule"] == "scvb0_fig4_7"
    assert (jobs["16"]["threads"], jobs["16"]["mem_mb"], jobs["16"]["runtime"]) == (1, 8000, 240)
    assert jobs["16"]["outputs"] == ["results/r/scvb0/fig4_7.png", "results/r/scvb0/fig4_7.csv"]
    assert (jobs["3"]["threads"], jobs["3"]["mem_mb"], jobs["3"]["runtime"]) == (2, 4000, 30)
    assert jobs["3"]["wildcards"] == "table=table4_4"
    assert subs == [
        ("16", "43", "/w/logs/slurm/rule_scvb0_fig4_7/43.log"),
        ("3", "44", "/w/logs/slurm/rule_scvb0_table/table4_4/44.log"),
    ]


def test_job_stats_table():
    assert check.job_stats(LOG, "log") == {"scvb0_fig4_7": 1, "scvb0_table": 1}
    with pytest.raises(SystemExit):
        check.job_stats("no table here", "log")


@pytest.mark.parametrize(
    "limit, minutes",
    [("00:05:00", 5), ("04:00:00", 240), ("1-02:03:00", 1563), ("30:00", 30), ("7", 7)],
)
def test_slurm_time_limits(limit, minutes):
    assert check.minutes(limit) == minutes


@pytest.mark.parametrize("mem, mb", [("1000M", 1000), ("8G", 8192), ("512K", 0.5), ("2000", 2000)])
def test_slurm_memory(mem, mb):
    assert check.megabytes(mem) == mb
