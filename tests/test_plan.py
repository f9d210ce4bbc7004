"""``latentlab plan`` (issue 39): the dry run's job graph, critical path and list-schedule
makespan on a small constructed workflow whose answers are worked out by hand."""

import subprocess
import sys
import textwrap

import pytest

from latentlab import plan
from latentlab.errors import ConfigError, DataError

# a(2 cores, 60 min), b(1, 120), c(1, 30); d(2, 60) reads a and b; e(1, 90) reads c;
# all reads d and e. Core-hours 2 + 2 + 0.5 + 2 + 1.5 = 8. Critical path b -> d = 3 h.
# 1 node x 2 cores: t=0 b (1 core), a does not fit, c; 0.5 c ends, e starts (a still does
# not fit); 2.0 b, e end; a 2-3, d 3-4: makespan 4 h (= 8 core-h / 2 cores, no idle core).
# 2 nodes x 2 cores: b, c on node 0, a on node 1; e 0.5-2; d 2-3: makespan 3 h.
SNAKEFILE = """
rule all:
    input: "d.txt", "e.txt"

rule a:
    output: "a.txt"
    threads: 2
    resources: runtime=60, mem_mb=1000
    shell: "touch {output}"

rule b:
    output: "b.txt"
    threads: 1
    resources: runtime=120, mem_mb=200000
    shell: "touch {output}"

rule c:
    output: "c.txt"
    threads: 1
    resources: runtime=30, mem_mb=1000
    shell: "touch {output}"

rule d:
    input: "a.txt", "b.txt"
    output: "d.txt"
    threads: 2
    resources: runtime=60, mem_mb=1000
    shell: "touch {output}"

rule e:
    input: "c.txt"
    output: "e.txt"
    threads: 1
    resources: runtime=90, mem_mb=1000
    shell: "touch {output}"
"""


def _job(jobid, rule, threads, runtime, inputs=(), outputs=None, mem_mb=1000):
    return plan.Job(
        jobid,
        rule,
        threads=threads,
        runtime=runtime,
        mem_mb=mem_mb,
        inputs=tuple(inputs),
        outputs=(f"{rule}.txt",) if outputs is None else tuple(outputs),
    )


JOBS = [
    _job(1, "a", 2, 60),
    _job(2, "b", 1, 120, mem_mb=200000),
    _job(3, "c", 1, 30),
    _job(4, "d", 2, 60, ["a.txt", "b.txt"]),
    _job(5, "e", 1, 90, ["c.txt"]),
    plan.Job(0, "all", runtime=0.0, inputs=("d.txt", "e.txt"), local=True),
]


def test_dependencies_follow_files():
    deps = plan.dependencies(JOBS)
    assert deps == {1: set(), 2: set(), 3: set(), 4: {1, 2}, 5: {3}, 0: {4, 5}}


def test_critical_path_by_hand():
    deps = plan.dependencies(JOBS)
    h, chain = plan.critical_path(JOBS, deps)
    assert h == pytest.approx(3.0)
    assert [j.rule for j in chain] == ["b", "d", "all"]


@pytest.mark.parametrize("nodes,makespan", [(1, 4.0), (2, 3.0), (5, 3.0)])
def test_list_schedule_makespan_by_hand(nodes, makespan):
    deps = plan.dependencies(JOBS)
    s = plan.list_schedule(JOBS, deps, nodes, 2)
    assert s.makespan == pytest.approx(makespan)
    # every job starts after the jobs it reads end
    by = {j.jobid: j for j in JOBS}
    for k, ds in deps.items():
        for d in ds:
            assert s.start[k] >= s.start[d] + by[d].hours(0) - 1e-12
    if nodes == 1:
        assert s.start[1] == pytest.approx(2.0) and s.start[5] == pytest.approx(0.5)


def test_schedule_never_overfills_a_node():
    """At every start time the cores in use on each node are at most its cores."""
    deps = plan.dependencies(JOBS)
    s = plan.list_schedule(JOBS, deps, 1, 2)
    by = {j.jobid: j for j in JOBS}
    for t in sorted(set(s.start.values())):
        used = sum(
            by[k].threads
            for k, t0 in s.start.items()
            if not by[k].local and t0 <= t < t0 + by[k].hours(0)
        )
        assert used <= 2


def test_memory_per_node_serialises_and_refuses():
    deps = plan.dependencies(JOBS)
    # b (200,000 MB) leaves 500 MB of a 200,500 MB node: every other job waits for it
    s = plan.list_schedule(JOBS, deps, 1, 4, mem_per_node_mb=200500)
    assert s.start[1] >= 2.0  # a (1000 MB) does not fit beside b
    with pytest.raises(ConfigError, match="b"):
        plan.list_schedule(JOBS, deps, 1, 4, mem_per_node_mb=100000)
    with pytest.raises(ConfigError, match="cores"):
        plan.list_schedule(JOBS, deps, 1, 1)


def test_report_limits():
    out, over = plan.report(JOBS, 2, 2, max_runtime=1.5, max_mem=128)
    assert [j.rule for j in over] == ["b"]  # 2 h and 195 GB
    assert "OVER THE LIMITS" in out and "core-hours: 8" in out
    out, over = plan.report(JOBS, 2, 2, max_runtime=2, max_mem=200)
    assert not over and "every job fits" in out
    assert "makespan on 2 nodes x 2 cores: 3.0 h" in out


def test_parse_dryrun_text():
    text = textwrap.dedent(
        """\
        Building DAG of jobs...
        [Sun Dec  6 03:25:49 2026]
        rule iwtm_data:
            input: resources/scene15/MANIFEST.sha256
            output: results/paper/iwtm/data/scene13.npz, results/paper/iwtm/data/scene13.json
            log: logs/paper/iwtm/data_scene13.log
            jobid: 150
            reason: Forced execution
            wildcards: dataset=scene13
            threads: 8
            resources: tmpdir=/tmp, runtime=120, mem_mb=16000, mem=16 GB, mem_mib=15259
        [Sun Dec  6 03:25:49 2026]
        localrule all:
            input: results/paper/iwtm/data/scene13.npz
            jobid: 0
            reason: Forced execution
            resources: tmpdir=/tmp
        Job stats:
        job      count
        """
    )
    jobs = plan.parse_dryrun(text)
    assert jobs[0] == plan.Job(
        150,
        "iwtm_data",
        "dataset=scene13",
        8,
        120.0,
        16000.0,
        ("resources/scene15/MANIFEST.sha256",),
        ("results/paper/iwtm/data/scene13.npz", "results/paper/iwtm/data/scene13.json"),
    )
    assert jobs[1].rule == "all" and jobs[1].local and jobs[1].runtime == 0.0
    assert plan.dependencies(jobs) == {150: set(), 0: {150}}
    with pytest.raises(DataError, match="jobid"):
        plan.parse_dryrun("rule x:\n    output: a\n")


def test_cycle_is_refused():
    jobs = [_job(1, "a", 1, 1, ["b.txt"]), _job(2, "b", 1, 1, ["a.txt"])]
    with pytest.raises(DataError, match="cycle"):
        plan.critical_path(jobs, plan.dependencies(jobs))


def test_plan_cli_on_a_constructed_workflow(tmp_path):
    """The command runs Snakemake's dry run on a workflow and prints the worked numbers;
    it exits 1 when a job is over the limits, 0 when none is."""
    (tmp_path / "Snakefile").write_text(SNAKEFILE)
    base = [sys.executable, "-m", "latentlab", "plan", "--snakefile", "Snakefile"]
    base += ["--directory", str(tmp_path), "--cores-per-node", "2"]
    r = subprocess.run(
        [*base, "--nodes", "1", "--max-runtime", "48", "--max-mem", "128"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 1, r.stderr
    assert "jobs: 6" in r.stdout and "core-hours: 8" in r.stdout
    assert "makespan on 1 nodes x 2 cores: 4.0 h" in r.stdout
    assert "critical path: 3.0 h over 3 jobs" in r.stdout
    assert "largest job by memory: b" in r.stdout and "OVER THE LIMITS" in r.stdout
    r = subprocess.run(
        [*base, "--nodes", "2", "--max-runtime", "48", "--max-mem", "200"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "makespan on 2 nodes x 2 cores: 3.0 h" in r.stdout
