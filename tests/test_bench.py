"""latentlab.bench: the one bench.csv layout (issue 25). Round trip of a wide table through
the long layout, the refusals, and every published bench.csv in that layout."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from latentlab.bench import (
    COLUMNS,
    bench_wide,
    check_bench,
    format_settings,
    long_format,
    parse_settings,
    read_bench,
    unit_of,
    write_bench,
)

ROOT = Path(__file__).resolve().parents[1]


def _wide():
    return pd.DataFrame(
        [
            {"bench": "sweep", "method": "A", "K": 5, "dataset": "kos", "threads": 2,
             "seconds": 0.25, "tokens_per_s": 1.5e6, "peak_rss_mb": 100.0, "note": ""},
            {"bench": "sweep", "method": "A", "K": 10, "dataset": "kos", "threads": 2,
             "seconds": 0.5, "tokens_per_s": np.nan, "peak_rss_mb": 120.0, "note": ""},
            {"bench": "library", "method": "lib", "K": 5, "dataset": np.nan, "threads": np.nan,
             "seconds": np.nan, "tokens_per_s": np.nan, "peak_rss_mb": np.nan,
             "note": "lib not installed"},
            {"bench": "goal", "method": "B", "K": 5, "dataset": "kos", "threads": 1,
             "seconds": 1.0, "tokens_per_s": 2.0, "peak_rss_mb": 1.0, "note": "", "ok": True},
        ]
    )  # fmt: skip


def test_round_trip_keeps_every_number_and_setting(tmp_path):
    long = long_format(_wide(), "toy", settings=("dataset", "K"), note="note")
    assert list(long.columns) == list(COLUMNS)
    write_bench(long, tmp_path / "bench.csv")
    back = bench_wide(tmp_path / "bench.csv")
    assert list(back.method) == ["A", "A", "lib", "B"]  # file order, one row per measurement
    assert back.K.tolist() == [5, 10, 5, 5] and str(back.K.dtype) == "Int64"
    assert back.seconds.iloc[0] == 0.25 and np.isnan(back.tokens_per_s.iloc[1])
    assert back.threads.tolist()[:2] == [2, 2] and pd.isna(back.threads.iloc[2])
    assert back.note.iloc[2] == "lib not installed" and np.isnan(back.seconds.iloc[2])
    assert back.ok.iloc[3] == 1.0
    units = read_bench(tmp_path / "bench.csv").set_index("metric").unit.to_dict()
    assert units["seconds"] == "s" and units["tokens_per_s"] == "1/s"
    assert units["peak_rss_mb"] == "MB" and units["ok"] == "bool"
    # one kind of measurement
    assert set(bench_wide(tmp_path / "bench.csv", bench="sweep").method) == {"A"}


def test_settings_text():
    s = format_settings({"dataset": "kos", "K": 20.0, "T": None, "x": 0.5})
    assert s == "dataset=kos;K=20;x=0.5"
    assert parse_settings(s) == {"dataset": "kos", "K": 20, "x": 0.5}
    assert parse_settings("") == {}
    with pytest.raises(ValueError, match="';'"):
        format_settings({"note": "a; b"})


def test_units_by_name():
    assert [unit_of(m) for m in ("seconds", "el_gemm_s", "state_mb", "docs_per_s", "gflops",
                                 "copy_bandwidth_gbs_machine", "speed_ratio", "loc",
                                 "sec_per_iter")] == [
        "s", "s", "MB", "1/s", "GFLOP/s", "GB/s", "", "", "s"]  # fmt: skip


def test_refusals(tmp_path):
    long = long_format(_wide(), "toy", settings=("dataset", "K"), note="note")
    with pytest.raises(ValueError, match="repeated"):
        check_bench(pd.concat([long, long.iloc[:1]], ignore_index=True))
    silent = long.copy()
    silent.loc[silent.metric == "", "note"] = ""
    with pytest.raises(ValueError, match="no metric and no note"):
        check_bench(silent)
    check_bench(long.assign(value=long.value.where(long.index != 0, np.inf)))  # inf is kept
    nan = long.copy()
    nan.loc[0, "value"] = np.nan
    with pytest.raises(ValueError, match="missing value"):
        check_bench(nan)
    with pytest.raises(ValueError, match="no 'bench' column"):
        long_format(_wide().drop(columns="bench"), "toy")
    old = tmp_path / "old.csv"
    pd.DataFrame({"method": ["A"], "seconds": [1.0]}).to_csv(old, index=False)
    with pytest.raises(ValueError, match="not the bench.csv layout"):
        read_bench(old)


@pytest.mark.parametrize(
    "path", sorted((ROOT / "published").glob("*/*/bench.csv")), ids=lambda p: p.parent.name
)
def test_published_bench_files_are_in_the_one_layout(path):
    long = read_bench(path)
    check_bench(long, path)
    assert set(long.study) == {path.parent.name}
    assert len(bench_wide(long))
