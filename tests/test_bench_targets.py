"""bench_targets: per-target times from Snakemake benchmark files."""

import pytest

from latentlab.bench_targets import collect
from latentlab.errors import DataError

HEAD = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"


def test_collect_sorts_and_totals(tmp_path):
    (tmp_path / "fit_a.tsv").write_text(HEAD + "2.5\t0:00:02\t-\t-\t-\t-\t-\t-\t-\t-\n")
    (tmp_path / "fit_b.tsv").write_text(HEAD + "12.5\t0:00:12\t100.1\t2\t1\t1\t0\t0\t90\t11\n")
    df = collect(tmp_path)
    assert list(df.target) == ["fit_b", "fit_a", "total"]
    assert df.seconds.tolist() == [12.5, 2.5, 15.0]
    assert df.max_rss_mb.tolist() == [100.1, 0.0, 100.1]  # "-" (too short to sample) -> 0
    # the collecting job's own benchmark file, from an earlier build, is not a target
    (tmp_path / "bench_targets.tsv").write_text(HEAD + "1.5\t0:00:01\t9\t2\t1\t1\t0\t0\t90\t1\n")
    assert list(collect(tmp_path).target) == ["fit_b", "fit_a", "total"]


def test_collect_refuses_empty_or_foreign(tmp_path):
    with pytest.raises(DataError, match="no Snakemake benchmark"):
        collect(tmp_path)
    (tmp_path / "x.tsv").write_text("a\tb\n1\t2\n")
    with pytest.raises(DataError, match="lacks"):
        collect(tmp_path)


def test_by_study_sums_cpu_per_study(tmp_path):
    from latentlab.bench_targets import by_study

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "empty").mkdir()
    (tmp_path / "a" / "x.tsv").write_text(HEAD + "3.0\t0:00:03\t1\t2\t1\t1\t0\t0\t90\t2.5\n")
    (tmp_path / "a" / "y.tsv").write_text(HEAD + "1.0\t0:00:01\t1\t2\t1\t1\t0\t0\t90\t0.5\n")
    (tmp_path / "b" / "z.tsv").write_text(HEAD + "4.0\t0:00:04\t1\t2\t1\t1\t0\t0\t90\t4.0\n")
    df = by_study(tmp_path)
    assert df.study.tolist() == ["a", "b", "total"]
    assert df.jobs.tolist() == [2, 1, 3]
    assert df.cpu_seconds.tolist() == [3.0, 4.0, 7.0]
    assert df.job_seconds.tolist() == [4.0, 4.0, 8.0]
    with pytest.raises(DataError, match="no study folders"):
        by_study(tmp_path / "empty")
