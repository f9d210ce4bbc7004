"""`snakemake compare` on the tiny corpus in each of the four local formats (smoke
settings), and bad input stopping with nothing written under results/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml
from compare_formats import write_all

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("tiny_uci", "tiny_ldac", "tiny_mm", "tiny_text")
TWO = ("scvb0", "cvb0")
SMOKE = {
    "K": [3],
    "methods": ["scvb0", "svb", "cvb0", "cgs", "hdp", "ctm"],
    "test_frac": 0.2,
    "scvb0": {"minibatch": 5, "epochs": 10},
    "svb": {"minibatch": 5, "epochs": 10},
    "cvb0": {"n_iter": 20},
    "cgs": {"n_iter": 50},
    "hdp": {"n_iter": 20},
    "ctm": {"em_max_iter": 3},
    "evaluation": {"n_checkpoints": 3, "lr_max_docs": 8},
}


def _snakemake(wd: Path, local: dict, compare: dict, *targets, cli_compare: str | None = None):
    # a --configfile run stands on its own (the Snakefile does not merge it over the default)
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    cfg.update(run="t", studies=[], compare=compare)
    cfg["data"]["local"] = local
    (wd / "cfg.yaml").write_text(yaml.safe_dump(cfg))
    args = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile=cfg.yaml", *targets]
    if cli_compare:
        args += ["--config", f"compare={cli_compare}"]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    return subprocess.run(args, cwd=wd, capture_output=True, text=True, timeout=900, env=env)


def _files(d: Path) -> list[Path]:
    return [p for p in d.rglob("*") if p.is_file()] if d.exists() else []


def test_compare_runs_on_each_format_with_identical_results(tmp_path, copy_workflow):
    wd = copy_workflow(tmp_path / "wf")
    local = write_all(tmp_path / "data")
    out = wd / "results" / "t" / "compare"
    # the other formats: the split and two fits (the full table on one format keeps the
    # test within the smoke budget; equal hashes make the rest identical anyway)
    targets = [f"results/t/compare/{n}/fits/{m}_K3.json" for n in NAMES[1:] for m in TWO]
    # the `compare` target first, then --config compare='{...}' as a user types it
    r = _snakemake(wd, local, SMOKE, "compare", *targets, cli_compare="{dataset: tiny_uci}")
    assert r.returncode == 0, r.stderr[-4000:]
    ref = pd.read_csv(out / "tiny_uci" / "table.csv")
    assert list(ref.method) == ["SCVB0", "SVB", "CVB0", "CGS", "HDP-PCVB0", "CTM-Laplace"]
    assert (ref.K == 3).all() and (ref.train_seconds > 0).all() and (ref.peak_rss_mb > 0).all()
    lda = ref.method != "CTM-Laplace"
    assert ref.lr_ll[lda].notna().all() and ref.lr_ll[~lda].isna().all()
    assert (ref.heldout_ll < 0).all() and (ref.perplexity > 1).all()
    for n in NAMES[1:]:  # same content hash -> same split and seeds -> the same numbers
        for m in TWO:
            fa, fb = (
                json.loads((out / d / "fits" / f"{m}_K3.json").read_text()) for d in (n, "tiny_uci")
            )
            assert (fa["heldout_ll"], fa["lr_ll"]) == (fb["heldout_ll"], fb["lr_ll"]), (n, m)
            assert fa["content_sha256"] == fb["content_sha256"]
    meta = json.loads((out / "tiny_uci" / "table.meta.json").read_text())
    summary = json.loads((wd / "results/t/data/tiny_uci/summary.json").read_text())
    assert meta["content_sha256"] == summary["content_sha256"]
    fit = json.loads((out / "tiny_uci" / "fits" / "hdp_K3.json").read_text())
    assert fit["content_sha256"] == summary["content_sha256"] and len(fit["curve"]) >= 2
    top = pd.read_csv(out / "tiny_uci" / "topwords.csv")
    assert set(top.method) == set(ref.method) and top.top_words.str.split().str.len().eq(10).all()
    for f in ("heldout_time.png", "time_memory.png", "table.md", "topwords.md"):
        assert (out / "tiny_uci" / f).stat().st_size > 0


@pytest.mark.parametrize("case", ["short_vocab", "not_utf8", "K_too_large"])
def test_bad_input_stops_and_writes_nothing_under_results(tmp_path, case, copy_workflow):
    wd = copy_workflow(tmp_path / "wf")
    local = write_all(tmp_path / "data")
    compare = dict(SMOKE, methods=["cvb0"])
    if case == "short_vocab":
        v = Path(local["tiny_uci"]["vocab"])
        v.write_text("\n".join(v.read_text().split("\n")[:-5]) + "\n")
        compare["dataset"], expect = (
            "tiny_uci",
            "vocabulary lines but docword.tiny.txt.gz uses word id",
        )
    elif case == "not_utf8":
        p = tmp_path / "data" / "bad.txt"
        p.write_bytes(b"good line here\nbad \xff\xfe line\n")
        local["tiny_text"] = {"format": "text", "path": str(p)}
        compare["dataset"], expect = "tiny_text", "bad.txt: line 2: not valid UTF-8"
    else:
        compare.update(dataset="tiny_mm", K=[100000])
        expect = "compare.K: K = 100000 is larger than the vocabulary of tiny_mm"
    r = _snakemake(wd, local, compare, "compare")
    assert r.returncode != 0
    logs = "".join(p.read_text() for p in _files(wd / "logs"))
    assert expect in r.stdout + r.stderr + logs
    assert _files(wd / "results") == []
