"""A tiny end-to-end Snakemake run in a temporary copy of the workflow."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory, copy_workflow):
    return copy_workflow(tmp_path_factory.mktemp("wf"))


def run(workdir, *args):
    return subprocess.run(
        [*SNAKEMAKE, "--cores", "1", "--config", "run=e2e", "studies=[]", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_dry_run_lists_data_and_report_targets(workdir):
    r = run(workdir, "-n")
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout + r.stderr
    assert "data_synth_lda" in out and "report" in out


def test_end_to_end_builds_summaries_and_report_then_is_idempotent(workdir):
    r = run(workdir)
    assert r.returncode == 0, r.stderr[-3000:]
    res = workdir / "results" / "e2e"
    assert (res / "REPORT.md").read_text().startswith("# latentlab report: run `e2e`")
    for name in ("synth_lda", "synth_hdp"):
        assert (res / "data" / name / "summary.json").exists()
    again = run(workdir)
    assert again.returncode == 0
    assert "Nothing to be done" in again.stdout + again.stderr


def test_bad_config_stops_before_any_job(workdir):
    r = run(workdir, "-n", "base_seed=not-a-number")
    assert r.returncode != 0
    assert "base_seed" in r.stdout + r.stderr


# ------------------------------------------------------------------ every rule's resources
# `rule NAME:` or an anonymous `rule:` (named by its `name:` directive), at any indentation
# (rules under `if` / `for` too); `use rule ... with:` lines do not match
_RULE = re.compile(r"^(?P<ind>[ \t]*)rule(?:[ \t]+(?P<name>\w+))?[ \t]*:[ \t]*(?:#.*)?$")
_ACTIONS = {"shell", "run", "script", "notebook", "wrapper", "cwl"}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def smk_rules(path: Path) -> list[tuple[str, dict[str, str]]]:
    """(name, {directive: its text}) of every rule statement of a .smk file, read from the
    text, so that every branch is seen whatever the config (hdp_pcvb0's batched and
    unbatched fit rules, the ladder's rules, the data rules of every registry entry)."""
    lines = path.read_text().splitlines()
    out = []
    for i, line in enumerate(lines):
        m = _RULE.match(line)
        if not m:
            continue
        body = []
        for nxt in lines[i + 1 :]:
            if nxt.strip() and not nxt.lstrip().startswith("#") and _indent(nxt) <= len(m["ind"]):
                break
            body.append(nxt)
        code = [b for b in body if b.strip() and not b.lstrip().startswith("#")]
        level = _indent(code[0]) if code else 0
        directives: dict[str, str] = {}
        key = None
        for b in code:
            if _indent(b) == level:
                d = re.match(r"\s*(\w+)\s*:(.*)$", b)
                key = d[1] if d else None
                if key:
                    directives[key] = d[2]
            elif key:
                directives[key] += "\n" + b
        name = m["name"] or directives.get("name", "?").strip()
        out.append((f"{path.name}: {name}", directives))
    return out


def test_every_job_rule_declares_threads_resources_and_benchmark():
    """CONTRIBUTING "Rules": every rule that runs a job declares `threads:`, `resources:`
    with `mem_mb` and `runtime` (minutes), and a `benchmark:` under benchmarks/{run}/, so a
    cluster profile sizes each job (config/profiles/slurm) and bench_targets.csv times it;
    a target rule (inputs only) runs no job."""
    rules = [r for p in sorted((ROOT / "rules").glob("*.smk")) for r in smk_rules(p)]
    jobs = {name: d for name, d in rules if d.keys() & _ACTIONS}
    # the parser sees every file's rules, nested and anonymous ones too
    for seen in ("iwtm.smk: iwtm_exp", "iwtm.smk: iwtm_claims", "hdp_pcvb0.smk: hdp_pcvb0_fit",
                 "hdp_pcvb0.smk: hdp_pcvb0_fit_batch", 'data.smk: f"prepare_{_name}"',
                 'ladder.smk: f"{_study}_ladder_bench"', "report.smk: report"):  # fmt: skip
        assert seen in jobs, seen
    assert len(jobs) > 80 and "iwtm.smk: iwtm" not in jobs  # (a target rule)
    missing = []
    for name, d in jobs.items():
        for key in ("threads", "benchmark", "resources"):
            if key not in d:
                missing.append(f"{name}: no {key}:")
        for res in ("mem_mb", "runtime"):
            if "resources" in d and not re.search(rf"^\s*{res}\s*=", d["resources"], re.M):
                missing.append(f"{name}: resources without {res}")
        if "benchmark" in d and "BENCH" not in d["benchmark"]:
            missing.append(f"{name}: benchmark outside benchmarks/{{run}}/ (BENCH)")
    assert not missing, "\n".join(missing)
