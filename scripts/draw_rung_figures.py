"""Draw a published ladder rung's own figure targets from its published runs, fitting nothing.

A rung's `targets` in config/ladder.yaml (issue 40: the document's figures at the rung that
runs the document's settings) are built by a future ladder run like any target. For a rung
published before it listed them, this runs the same step command the rung's figure rule
runs (`python -m latentlab <study> <step> --params ... --input ... --output ...`, the
params as `step_params` in rules/common.smk gives them for the rung's config) on the
published run files, writes into a scratch folder and copies the PNG, CSV and .meta.json
into published/ladder/<study>/<rung>/<study>/:

    PYTHONPATH=src python scripts/draw_rung_figures.py hdp_pcvb0 kos_doc
    PYTHONPATH=src python scripts/draw_rung_figures.py nonconjugate_vi K100_doc
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _inputs(study: str, step: str, cfg: dict, rung_dir: Path) -> list[str]:
    """The named inputs of the study's figure rule for ``step`` (rules/<study>.smk), as
    ``NAME=PATH`` under the published rung."""
    from latentlab.studies.shape import settings_registry

    shape = settings_registry(study)
    sec = cfg[study]
    if study == "hdp_pcvb0" and step == "fig3":
        configs = shape.settings("perplexity", sec).configs
        ppl = shape.settings("perplexity", sec).perplexity.datasets
        want = shape.settings("fig3", sec).fig3.datasets
        return [
            f"runs={rung_dir / 'runs/perplexity' / ds / f'{c}.json'}"
            for ds in (ppl if want is None else want)
            for c in configs
        ]
    if study == "nonconjugate_vi" and step in ("fig5a", "fig5b"):
        corpora = [c.name for c in shape.settings("sweep", sec).ctm.corpora]
        want = shape.settings(step, sec).fig5.corpora
        return [f"sweeps={rung_dir / f'ctm_sweep_{c}.csv'}" for c in (want or corpora)]
    raise SystemExit(f"no inputs known for {study} {step}: add them here")


def main(argv=None) -> int:
    from latentlab import ladder, runconfig
    from latentlab.studies.shape import settings_registry

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study")
    ap.add_argument("rung")
    ap.add_argument("--published", default="published/ladder")
    args = ap.parse_args(argv)

    raw = yaml.safe_load((ROOT / "config/ladder.yaml").read_text())
    cfg = runconfig.load(copy.deepcopy(raw), ["config/ladder.yaml"], ROOT)
    rung = next(r for r in ladder.ladder_rungs(cfg, ROOT)[args.study] if r.name == args.rung)
    shape = settings_registry(args.study)
    rung_dir = ROOT / args.published / args.study / args.rung / args.study
    steps = sorted({Path(t).stem for t in rung.targets if t.endswith(".png")})
    if not steps:
        raise SystemExit(f"{args.study} {args.rung}: the rung lists no figure targets")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), MPLBACKEND="Agg")
    for step in steps:
        sec = rung.config[args.study]
        params = {
            "run": rung.run,
            "base_seed": rung.config["base_seed"],
            "threads": int(rung.config["threads"]),
            **{k: sec[k] for k in shape.config_keys(step) if k in sec},
        }
        with tempfile.TemporaryDirectory() as tmp:
            png, csv = Path(tmp) / f"{step}.png", Path(tmp) / f"{step}.csv"
            cmd = [sys.executable, "-m", "latentlab", args.study, step,
                   "--params", json.dumps(params, sort_keys=True),
                   "--input", *_inputs(args.study, step, rung.config, rung_dir),
                   "--output", f"png={png}", f"csv={csv}"]  # fmt: skip
            subprocess.run(cmd, check=True, cwd=ROOT, env=env)
            for f in (png, csv, png.with_suffix(".meta.json")):
                shutil.copy2(f, rung_dir / f.name)
                print(f"wrote {(rung_dir / f.name).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
