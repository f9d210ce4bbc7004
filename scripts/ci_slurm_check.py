"""Checks of scripts/ci-slurm.sh: a study run through config/profiles/slurm on a real SLURM.

    python scripts/ci_slurm_check.py resources LOG...        sbatch got each rule's resources
    python scripts/ci_slurm_check.py cancelled LOG JOBID...  the run reported the killed jobs
    python scripts/ci_slurm_check.py snapshot DIR OUT.json   file mtimes before the rerun
    python scripts/ci_slurm_check.py rerun DRY FIRST RERUN SNAPSHOT DIR
                                                             the rerun did only what was missing
    python scripts/ci_slurm_check.py compare REF_DIR NEW_DIR claims and figure CSVs agree
    python scripts/ci_slurm_check.py compare-files REF_DIR NEW_DIR REL...
                                                             these files agree (golden rules)
    python scripts/ci_slurm_check.py resumed RUNLOG JOBLOG SLURMID
                                                             a cancelled checkpointed job was
                                                             retried and resumed mid-way
    python scripts/ci_slurm_check.py same-state A.npz B.npz  two iwtm Gibbs fits' states are
                                                             equal bit for bit

LOG files are Snakemake's output of a run with the profile (printshellcmds on). Each check
prints what it saw and exits 1 with a message naming the file and the difference.
"""

import json
import re
import subprocess
import sys
from pathlib import Path

# Claims measured at equal training time or within a fixed time budget (their values move
# with the machine's speed from run to run, locally too): only their non-measured columns
# are compared. Found by comparing two local smoke runs (every other claim is bit-identical).


def fail(msg):
    print(f"ci-slurm check: FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def parse_log(text):
    """Jobs declared in a Snakemake log (jobid -> rule, wildcards, threads, mem_mb, runtime,
    outputs) and the submissions (jobid, SLURM job id, SLURM log path)."""
    jobs = {}
    for block in re.split(r"\n(?=\[[A-Z][a-z]{2} [A-Z][a-z]{2} .*\]\n)", text):
        m = re.search(r"^(?:local)?rule (\S+):$", block, re.M)
        jid = re.search(r"^\s+jobid: (\d+)$", block, re.M)
        if not (m and jid):
            continue
        res = re.search(r"^\s+resources: (.*)$", block, re.M)
        resources = dict(kv.split("=", 1) for kv in res.group(1).split(", ")) if res else {}
        threads = re.search(r"^\s+threads: (\d+)$", block, re.M)
        wc = re.search(r"^\s+wildcards: (.*)$", block, re.M)
        out = re.search(r"^\s+output: (.*)$", block, re.M)
        jobs[jid.group(1)] = {
            "rule": m.group(1),
            "wildcards": wc.group(1) if wc else "",
            "threads": int(threads.group(1)) if threads else 1,
            "mem_mb": int(resources["mem_mb"]) if "mem_mb" in resources else None,
            "runtime": int(resources["runtime"]) if "runtime" in resources else None,
            "outputs": out.group(1).split(", ") if out else [],
        }
    subs = re.findall(r"Job (\d+) has been submitted with SLURM jobid (\d+) \(log: (\S+)\)\.", text)
    return jobs, subs


def job_stats(text, path):
    """The first "Job stats" table of a Snakemake log: {rule: count}."""
    m = re.search(r"^Job stats:\n.*\n-+ +-+\n((?:\S+ +\d+\n)+)", text, re.M)
    if not m:
        fail(f"{path}: no 'Job stats' table")
    stats = dict(line.split() for line in m.group(1).splitlines())
    stats.pop("total", None)
    return {k: int(v) for k, v in stats.items()}


def scontrol(jobid):
    """`scontrol show job -o` as a dict (finished jobs stay for MinJobAge seconds)."""
    r = subprocess.run(
        ["scontrol", "show", "job", "-o", str(jobid)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if r.returncode != 0:
        return None
    return dict(re.findall(r"(\S+?)=(\S*)", r.stdout))


def minutes(limit):
    """SLURM time limit [D-]HH:MM:SS, MM:SS or MM -> minutes."""
    days, _, hms = limit.rpartition("-")
    parts = [int(p) for p in hms.split(":")]
    seconds = 0
    for p in parts:
        seconds = seconds * 60 + p
    if len(parts) == 1:
        seconds *= 60
    return int(days or 0) * 1440 + seconds / 60


def megabytes(mem):
    units = {"K": 1 / 1024, "M": 1, "G": 1024, "T": 1024**2}
    return float(mem[:-1]) * units[mem[-1]] if mem[-1] in units else float(mem)


def cmd_resources(logs):
    rows, bad = [], []
    for log in logs:
        jobs, subs = parse_log(Path(log).read_text())
        for jid, sid, _ in subs:
            job, info = jobs.get(jid), scontrol(sid)
            if job is None:
                fail(f"{log}: SLURM job {sid} (Snakemake job {jid}) has no rule block")
            if info is None:
                continue  # left the controller's memory (MinJobAge)
            got = (
                int(info["CPUs/Task"]),
                megabytes(info["MinMemoryNode"]),
                minutes(info["TimeLimit"]),
            )
            want = (job["threads"], job["mem_mb"], job["runtime"])
            rows.append((job["rule"], job["wildcards"], sid, want, got, info["JobState"]))
            if tuple(float(x) for x in got) != tuple(float(x) for x in want):
                bad.append(rows[-1])
            if info.get("Comment") != f"rule_{job['rule']}" and not info.get(
                "Comment", ""
            ).startswith(f"rule_{job['rule']}_wildcards_"):
                fail(f"SLURM job {sid}: comment {info.get('Comment')!r} is not rule {job['rule']}")
    print(
        f"{'rule':20} {'wildcards':22} {'slurm id':>8}  declared (threads, mem_mb, runtime min)"
        "  ->  sbatch (--cpus-per-task, --mem MB, --time min)  state"
    )
    for rule, wc, sid, want, got, state in rows:
        print(f"{rule:20} {wc:22} {sid:>8}  {want}  ->  {got}  {state}")
    if bad:
        fail(f"{len(bad)} job(s) did not get their rule's resources: {bad}")
    rules = {r[0] for r in rows}
    if not rows:
        fail("scontrol knew none of the submitted jobs")
    print(f"resources: {len(rows)} jobs of {len(rules)} rules got exactly what their rule declares")


def cmd_cancelled(log, ids):
    text = Path(log).read_text()
    _, subs = parse_log(text)
    logs = {sid: path for _, sid, path in subs}
    if not ids:
        fail("no job was cancelled")
    for sid in ids:
        m = re.search(rf"SLURM-job '{sid}' failed, SLURM status is: 'CANCELLED'[^\n]*", text)
        if not m:
            fail(f"{log}: the cancelled SLURM job {sid} is not reported as CANCELLED")
        if sid not in logs:
            fail(f"{log}: no submission line (with its log path) for SLURM job {sid}")
        slurm_log = Path(logs[sid])
        if not slurm_log.is_file():
            fail(f"SLURM log {slurm_log} of job {sid} named in {log} does not exist")
        if f"JOB {sid} ON" not in slurm_log.read_text() or "CANCELLED" not in slurm_log.read_text():
            fail(f"SLURM log {slurm_log} does not record the cancellation of job {sid}")
        if str(slurm_log) not in text.split(m.group(0), 1)[1]:
            fail(f"{log}: the error report of job {sid} does not name its log {slurm_log}")
        print(
            f"cancelled job {sid}: reported ({m.group(0)!r}); its log {slurm_log} is "
            "named after the report and records the cancellation"
        )
    if "Exiting because a job execution failed" not in text and "Incomplete" not in text:
        fail(f"{log}: the run does not end by reporting the failure")


def cmd_snapshot(folder, out):
    snap = {str(p): p.stat().st_mtime_ns for p in sorted(Path(folder).rglob("*")) if p.is_file()}
    Path(out).write_text(json.dumps(snap))
    print(f"snapshot: {len(snap)} files in {folder}")


def cmd_rerun(dry, first, rerun, snapshot, folder):
    planned = job_stats(Path(dry).read_text(), dry)
    total_first = sum(job_stats(Path(first).read_text(), first).values())
    rerun_text = Path(rerun).read_text()
    done = job_stats(rerun_text, rerun)
    if done != planned:
        fail(f"{rerun} ran {done}, the dry run before it planned {planned}")
    if sum(done.values()) >= total_first:
        fail(f"{rerun}: {sum(done.values())} jobs, as many as the first run's {total_first}")
    jobs, subs = parse_log(rerun_text)
    submitted = sorted({jobs[j]["rule"] for j, _, _ in subs})
    if not set(submitted) <= set(planned) or not submitted:
        fail(f"{rerun}: submitted rules {submitted}, planned {planned}")
    outputs = {o for j, _, _ in subs for o in jobs[j]["outputs"]}
    before = json.loads(Path(snapshot).read_text())
    changed = []
    for p in sorted(Path(folder).rglob("*")):
        if p.is_file() and before.get(str(p)) != p.stat().st_mtime_ns:
            changed.append(str(p))
    # a job's outputs and their sidecars: .meta.json, and a table's Markdown (outputs.py)
    own = outputs | {str(Path(o).with_suffix(x)) for o in outputs for x in (".meta.json", ".md")}
    stray = [c for c in changed if c not in own]
    if stray:
        fail(f"the rerun rewrote files no rerun job makes: {stray}")
    print(
        f"rerun: {sum(done.values())} of {total_first} jobs ({done}), as the dry run planned; "
        f"submitted {submitted}; {len(changed)} files written, all theirs; "
        f"{len(before) - len([c for c in changed if c in before])} files untouched"
    )


def cmd_compare(ref, new):
    """The study's claims.csv and figure/table CSVs equal the local run's, to the rules of
    the golden comparison (numbers to 1e-9, what varies with the clock in
    tests/golden/volatile.yaml compared by shape)."""
    sys.path.insert(0, str(Path(__file__).parent))
    import golden_compare

    ref, new = Path(ref), Path(new)
    if ref.name != new.name:
        fail(f"compare: {ref} and {new} are not the same study")
    volatile = golden_compare._load_volatile(golden_compare.ROOT / "tests/golden/volatile.yaml")
    if golden_compare.compare_trees(ref.parent, new.parent, volatile, only=ref.name):
        fail(f"{new} differs from {ref}")


def cmd_compare_files(ref, new, rels):
    """Files of the two folders agree by the golden comparison's rules."""
    sys.path.insert(0, str(Path(__file__).parent))
    import golden_compare

    volatile = golden_compare._load_volatile(golden_compare.ROOT / "tests/golden/volatile.yaml")
    bad = 0
    for rel in rels:
        a, b = Path(ref) / rel, Path(new) / rel
        if not (a.is_file() and b.is_file()):
            fail(f"compare-files: {a} or {b} is missing")
        rule_path = f"{Path(ref).name}/{rel}"
        problems = golden_compare.compare_file(a, b, golden_compare._rule_for(rule_path, volatile))
        for p in problems:
            print(f"DIFF {rel}: {p}")
        bad += bool(problems)
    if bad:
        fail(f"{bad} of {len(rels)} files differ between {ref} and {new}")
    print(f"compare-files: {len(rels)} files of {new} equal {ref}'s")


def cmd_resumed(runlog, joblog, sid):
    """The SLURM job ``sid`` was cancelled, the profile retried it, the retry resumed from
    the job's checkpoint at a step above 0 (its log says so) and the run succeeded."""
    text = Path(runlog).read_text()
    if not re.search(rf"SLURM-job '{sid}' failed, SLURM status is: 'CANCELLED'", text):
        fail(f"{runlog}: the cancelled SLURM job {sid} is not reported as CANCELLED")
    if "Trying to restart job" not in text:
        fail(f"{runlog}: the cancelled job was not retried (profile retries: 1)")
    if not re.search(r"\d+ of \d+ steps \(100%\) done", text):
        fail(f"{runlog}: the run did not finish every job")
    m = re.search(r"resuming from checkpoint (\S+): (\w+) step (\d+)", Path(joblog).read_text())
    if not m or int(m.group(3)) < 1:
        fail(f"{joblog}: the retried job did not resume from a checkpoint past its start")
    print(f"resumed: SLURM job {sid} cancelled, retried, {m.group(0)!r} ({joblog})")


def cmd_same_state(a, b):
    """Two ch4 fit parts (latentlab.studies.iwtm: the sampler's pickled state) hold the
    same state: every array bit for bit, the same generator state and scalars."""
    import pickle

    import numpy as np

    def load(p):
        with np.load(p) as z:
            return pickle.loads(z["state"].tobytes())["model"]

    x, y = load(a), load(b)
    if set(x) != set(y):
        fail(f"same-state: {a} and {b} hold different attributes")
    n = 0
    for k, v in x.items():
        w = y[k]
        if isinstance(v, np.ndarray):
            if v.dtype != w.dtype or not np.array_equal(v, w):
                fail(f"same-state: {k} differs between {a} and {b}")
            n += 1
        elif k == "rng":
            if v.bit_generator.state != w.bit_generator.state:
                fail(f"same-state: the random generators differ between {a} and {b}")
        elif isinstance(v, (int, float, str)) and v != w:
            fail(f"same-state: {k} = {v!r} vs {w!r}")
    print(f"same-state: {n} arrays, the generator and the scalars equal ({a} vs {b})")


def main(argv):
    if not argv:
        fail(__doc__)
    cmd, args = argv[0], argv[1:]
    if cmd == "resources":
        cmd_resources(args)
    elif cmd == "cancelled":
        cmd_cancelled(args[0], args[1:])
    elif cmd == "snapshot":
        cmd_snapshot(*args)
    elif cmd == "rerun":
        cmd_rerun(*args)
    elif cmd == "compare":
        cmd_compare(*args)
    elif cmd == "compare-files":
        cmd_compare_files(args[0], args[1], args[2:])
    elif cmd == "resumed":
        cmd_resumed(*args)
    elif cmd == "same-state":
        cmd_same_state(*args)
    else:
        fail(f"unknown check {cmd!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
