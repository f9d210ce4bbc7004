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


def test_collect_refuses_empty_or_foreign(tmp_path):
    with pytest.raises(DataError, match="no Snakemake benchmark"):
        collect(tmp_path)
    (tmp_path / "x.tsv").write_text("a\tb\n1\t2\n")
    with pytest.raises(DataError, match="lacks"):
        collect(tmp_path)
