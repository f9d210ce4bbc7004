"""Reshape a bench.csv written in a study's old wide layout into the one long layout of
``latentlab.bench`` (issue 25), losslessly, and check that it is lossless.

    python scripts/convert_bench_layout.py published/real/*/bench.csv     # rewrite in place
    python scripts/convert_bench_layout.py --check published/real/*/bench.csv

The study is the file's folder name. Each study's old layout (until commit 547c665) maps
onto the long one as its writer now does (``latentlab.studies.<study>.bench``); after
writing, the file is read back with ``latentlab.bench.bench_wide``, mapped back to the old
columns and compared with the original cell by cell (numbers exactly, text exactly, the
same empty cells), so nothing is lost. A file already in the long layout is left alone. A
``bench.md`` beside the file is rewritten from the new table; ``bench.meta.json`` is kept.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.bench import COLUMNS, bench_wide, long_format, write_bench

TIR_SETTINGS = ("K", "tokens", "n_params")
DRIFT_SETTINGS = ("N", "T", "K", "chains", "sweeps", "documents", "tokens")


# -- old layout -> wide table for long_format (and back) ------------------------------------
def _ais_eval(old):
    df = old.copy()
    parts = df.pop("target").str.split(": ", n=1)
    df.insert(0, "bench", parts.str[0])
    df.insert(1, "method", parts.str[1])
    df["meets_goal"] = df["meets_goal"].map(
        lambda v: np.nan if pd.isna(v) else str(v).strip().lower() == "true"
    )
    return long_format(df, "ais_eval", settings=("K", "doc_len"))


def _ais_eval_back(w):
    w = w.copy()
    w["target"] = w["bench"] + ": " + w["method"]
    w["meets_goal"] = w["meets_goal"].map(lambda v: np.nan if pd.isna(v) else bool(v))
    return w


def _drift(old):
    df = old.rename(columns={"case": "bench"})
    df.insert(1, "method", np.where(df["bench"] == "lfrm_lda_sweep", "LFRM_LDA", "DRIFT"))
    chains = df["bench"].str.startswith("chains_")
    df["K_plus"] = np.where(chains, df["K"], np.nan)
    df.loc[chains, "K"] = np.nan
    return long_format(df, "drift", settings=DRIFT_SETTINGS)


def _drift_back(w):
    w = w.rename(columns={"bench": "case"})
    w["K"] = w["K"].astype(float)
    if "K_plus" in w:
        w["K"] = w["K"].where(w["K_plus"].isna(), w["K_plus"])
    return w


def _hdp_pcvb0(old):
    df = old.rename(columns={"method": "family"}).rename(
        columns={"kind": "bench", "config": "method"}
    )
    return long_format(
        df, "hdp_pcvb0", settings=("family", "prior", "T"), note="status", units={"loc": "lines"}
    )


def _hdp_pcvb0_back(w):
    from latentlab.studies.hdp_pcvb0.study import bench_table

    w = bench_table(w)
    w["status"] = w["status"].replace("", np.nan)
    return w


def _iwtm(old):
    from latentlab.studies.iwtm.bench import bench_long

    machine = old["machine"].unique()
    if len(machine) != 1:
        raise ValueError(f"iwtm bench.csv: {len(machine)} machine descriptions")
    return bench_long(old.drop(columns=["machine"]), ast.literal_eval(machine[0]))


def _iwtm_back(w):
    w = w.rename(columns={"method": "what"})
    first = w.iloc[0]
    mach, proc = first["note"].removeprefix("machine ").split(", processor ")
    peaks = {
        "gemm_gflops": float(first["gemm_gflops_machine"]),
        "copy_bandwidth_gbs": float(first["copy_bandwidth_gbs_machine"]),
        "cpu_count": int(first["cpu_count"]),
        "machine": mach,
        "processor": proc,
    }
    w["machine"] = str(peaks)
    if "estimate" in w:
        w["estimate"] = w["estimate"].map(lambda v: np.nan if pd.isna(v) else v == "True")
    return w


def _nonconjugate_vi(old):
    from latentlab.studies.nonconjugate_vi.runs import bench_long

    return bench_long(old.to_dict("records"))


def _nonconjugate_vi_back(w):
    from latentlab.studies.nonconjugate_vi.runs import BENCH_METRICS

    rows = []
    for r in w.to_dict("records"):
        for unit, metric in BENCH_METRICS.items():
            if metric in r and pd.notna(r[metric]):
                rows.append({"what": r["bench"], "method": r["method"],
                             "K": 0 if pd.isna(r["K"]) else int(r["K"]), "dataset": r["dataset"],
                             "data_kind": r["data_kind"], "value": r[metric], "unit": unit,
                             "n": r["n"]})  # fmt: skip
    return pd.DataFrame(rows)


def _scvb0(old):
    from latentlab.studies.scvb0.bench import bench_long

    return bench_long(old)


def _scvb0_back(w):
    w = w.rename(columns={"method": "algorithm", "baseline": "ratio_baseline"})
    w["comparison"] = w["bench"].where(w["bench"] != "throughput", np.nan)
    return w


def _tir(old):
    df = old.copy()
    reg = df["method"].str.endswith("regression step")
    df.insert(0, "bench", np.where(reg, "regression", "sweep"))
    return long_format(df, "tir", settings=TIR_SETTINGS, note="note")


def _tir_back(w):
    w = w.copy()
    w["note"] = w["note"].replace("", np.nan)  # an empty note was read as missing
    return w


CONVERT = {
    "ais_eval": (_ais_eval, _ais_eval_back),
    "drift": (_drift, _drift_back),
    "hdp_pcvb0": (_hdp_pcvb0, _hdp_pcvb0_back),
    "iwtm": (_iwtm, _iwtm_back),
    "nonconjugate_vi": (_nonconjugate_vi, _nonconjugate_vi_back),
    "scvb0": (_scvb0, _scvb0_back),
    "tir": (_tir, _tir_back),
}


# -- the losslessness check ------------------------------------------------------------------
def _same(a, b) -> bool:
    if pd.isna(a) and pd.isna(b):
        return True
    if pd.isna(a) or pd.isna(b):
        return False
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def differences(old: pd.DataFrame, back: pd.DataFrame) -> list[str]:
    """Every cell of ``old`` that ``back`` (the long file mapped back) does not give again."""
    out = []
    if len(old) != len(back):
        return [f"{len(old)} rows became {len(back)}"]
    for c in old.columns:
        if c not in back.columns:
            if old[c].notna().any():
                out.append(f"column {c} lost")
            continue
        for i, (a, b) in enumerate(zip(old[c], back[c], strict=True)):
            if not _same(a, b):
                out.append(f"row {i} {c}: {a!r} -> {b!r}")
    return out


def convert(path: Path, check_only: bool = False) -> list[str]:
    study = path.parent.name
    old = pd.read_csv(path)
    if list(old.columns) == list(COLUMNS):
        print(f"{path}: already in the long layout")
        return []
    to_long, back = CONVERT[study]
    long = to_long(old)
    tmp = path.with_name(path.stem + ".long.tmp.csv")
    write_bench(long, tmp)
    problems = differences(old, back(bench_wide(tmp)).reset_index(drop=True))
    if problems or check_only:
        tmp.unlink()
    else:
        tmp.replace(path)
        md = path.with_suffix(".md")
        if md.exists():
            md.write_text(long.to_markdown(index=False, floatfmt=".6g") + "\n")
    print(f"{path}: {len(old)} rows x {len(old.columns)} columns -> {len(long)} long rows"
          + (f"; {len(problems)} differences" if problems else ", lossless"))  # fmt: skip
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--check", action="store_true", help="check only, write nothing")
    a = ap.parse_args(argv)
    bad = 0
    for p in a.files:
        problems = convert(p, a.check)
        for msg in problems[:20]:
            print(f"    {msg}")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
