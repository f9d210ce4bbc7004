"""``latentlab plan``: what a run costs on a cluster, before it runs (issue 39).

Reads the run's job graph from a Snakemake dry run (``snakemake -n --forceall --cores C``:
one block per job with its rule, wildcards, input and output files, threads and
resources; a job depends on the jobs whose outputs it reads) and prints

* the number of jobs and the declared core-hours (threads x runtime, summed),
* the largest job by runtime and by memory,
* the critical path (the chain of dependent jobs with the largest summed runtime: no
  schedule on any number of nodes finishes sooner),
* the makespan of a list schedule on N nodes of C cores: whenever a job finishes, the
  ready jobs in order of their longest path to the end (then job id) are placed each on
  the first node with enough free cores (and memory, with ``--mem-per-node``),
* the rules holding most core-hours,

and exits 1 when a job declares more than ``--max-runtime`` hours or ``--max-mem`` GB (a
partition's limits), naming each. GB here are 1024 MB (``mem_mb / 1024``). Runtimes are
the declared limits (``runtime``, minutes), so the numbers are upper bounds. A job that
declares no runtime takes ``--default-runtime`` minutes (the SLURM profile's fall-back).
Local jobs (Snakemake ``localrule``) run on the submitting host: they take no node cores
but count in the critical path; a job without outputs (a target rule such as ``all``) runs
nothing and takes no time.
"""

from __future__ import annotations

import heapq
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from latentlab.errors import ConfigError, DataError

_HEAD = re.compile(r"^(local)?rule (\S+):\s*$")
_FIELD = re.compile(r"^\s+(input|output|jobid|wildcards|threads|resources): (.*)$")


@dataclass(frozen=True)
class Job:
    """One job of the dry run: declared runtime (minutes) and memory (MB)."""

    jobid: int
    rule: str
    wildcards: str = ""
    threads: int = 1
    runtime: float | None = None
    mem_mb: float | None = None
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    local: bool = False

    @property
    def name(self) -> str:
        return f"{self.rule}[{self.wildcards}]" if self.wildcards else self.rule

    def hours(self, default_runtime: float) -> float:
        return (default_runtime if self.runtime is None else self.runtime) / 60.0

    @property
    def mem_gb(self) -> float:
        return (self.mem_mb or 0.0) / 1024.0


def _files(value: str) -> tuple[str, ...]:
    return tuple(f.strip() for f in value.split(", ") if f.strip())


def _resources(value: str) -> dict[str, str]:
    out = {}
    for part in value.split(", "):
        k, sep, v = part.partition("=")
        if sep:
            out[k.strip()] = v.strip()
    return out


def parse_dryrun(text: str) -> list[Job]:
    """The jobs of a Snakemake dry run's text (``snakemake -n --cores C``; Snakemake 9
    prints ``rule NAME:`` then indented ``input:``, ``output:``, ``jobid:``, ``wildcards:``,
    ``threads:`` (when above 1) and ``resources:`` lines). Raises DataError on a block
    without a job id or a job id seen twice."""
    jobs: list[Job] = []
    cur: dict | None = None

    def close():
        if cur is None:
            return
        if "jobid" not in cur:
            raise DataError("snakemake dry run", f"rule {cur['rule']}: block without a jobid")
        if not cur.get("outputs"):  # a target rule: nothing runs
            cur.update(local=True, runtime=0.0)
        jobs.append(Job(**cur))

    for line in text.splitlines():
        m = _HEAD.match(line)
        if m:
            close()
            cur = {"rule": m.group(2), "local": bool(m.group(1))}
            continue
        if cur is None:
            continue
        f = _FIELD.match(line)
        if f:
            key, value = f.groups()
            if key == "input":
                cur["inputs"] = _files(value)
            elif key == "output":
                cur["outputs"] = _files(value)
            elif key == "jobid":
                cur["jobid"] = int(value)
            elif key == "wildcards":
                cur["wildcards"] = value.strip()
            elif key == "threads":
                cur["threads"] = int(value)
            else:
                res = _resources(value)
                if "runtime" in res:
                    cur["runtime"] = float(res["runtime"])
                if "mem_mb" in res:
                    cur["mem_mb"] = float(res["mem_mb"])
        elif line and not line.startswith((" ", "\t")):
            close()
            cur = None
    close()
    ids = [j.jobid for j in jobs]
    if len(set(ids)) != len(ids):
        dup = sorted({i for i in ids if ids.count(i) > 1})
        raise DataError("snakemake dry run", f"job ids listed twice: {dup[:5]}")
    return jobs


def dependencies(jobs: list[Job]) -> dict[int, set[int]]:
    """jobid -> the job ids whose outputs it reads (files made by no listed job are
    inputs from outside the run)."""
    maker = {}
    for j in jobs:
        for o in j.outputs:
            maker[o.rstrip("/")] = j.jobid
    deps: dict[int, set[int]] = {}
    for j in jobs:
        deps[j.jobid] = {maker[i.rstrip("/")] for i in j.inputs if i.rstrip("/") in maker}
        deps[j.jobid].discard(j.jobid)
    return deps


def _order(jobs: list[Job], deps: dict[int, set[int]]) -> list[int]:
    """A topological order (Kahn, smallest job id first); DataError on a cycle."""
    indeg = {j.jobid: len(deps[j.jobid]) for j in jobs}
    users: dict[int, list[int]] = {j.jobid: [] for j in jobs}
    for k, ds in deps.items():
        for d in ds:
            users[d].append(k)
    ready = [k for k, n in indeg.items() if n == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        k = heapq.heappop(ready)
        out.append(k)
        for u in users[k]:
            indeg[u] -= 1
            if indeg[u] == 0:
                heapq.heappush(ready, u)
    if len(out) != len(jobs):
        raise DataError("snakemake dry run", "the job graph has a cycle")
    return out


def critical_path(
    jobs: list[Job], deps: dict[int, set[int]], default_runtime: float = 0.0
) -> tuple[float, list[Job]]:
    """The longest chain of dependent jobs by summed runtime (hours) and its jobs, first
    to last (ties: the smaller job id)."""
    by = {j.jobid: j for j in jobs}
    finish: dict[int, float] = {}
    prev: dict[int, int | None] = {}
    for k in _order(jobs, deps):
        best, arg = 0.0, None
        for d in sorted(deps[k]):
            if finish[d] > best:
                best, arg = finish[d], d
        finish[k] = best + by[k].hours(default_runtime)
        prev[k] = arg
    if not finish:
        return 0.0, []
    end = max(sorted(finish), key=lambda k: finish[k])
    chain = []
    k: int | None = end
    while k is not None:
        chain.append(by[k])
        k = prev[k]
    return finish[end], chain[::-1]


def bottom_levels(
    jobs: list[Job], deps: dict[int, set[int]], default_runtime: float = 0.0
) -> dict[int, float]:
    """jobid -> the longest runtime (hours) from the job's start to the end of the run."""
    by = {j.jobid: j for j in jobs}
    users: dict[int, list[int]] = {j.jobid: [] for j in jobs}
    for k, ds in deps.items():
        for d in ds:
            users[d].append(k)
    level: dict[int, float] = {}
    for k in reversed(_order(jobs, deps)):
        level[k] = by[k].hours(default_runtime) + max((level[u] for u in users[k]), default=0.0)
    return level


@dataclass
class Schedule:
    makespan: float  # hours
    start: dict[int, float] = field(default_factory=dict)
    node: dict[int, int] = field(default_factory=dict)


def list_schedule(
    jobs: list[Job],
    deps: dict[int, set[int]],
    nodes: int,
    cores: int,
    mem_per_node_mb: float | None = None,
    default_runtime: float = 0.0,
) -> Schedule:
    """Makespan (hours) of a list schedule on ``nodes`` nodes of ``cores`` cores: at time 0
    and whenever a job ends, the ready jobs, longest path to the end first (then job id),
    each go to the first node with enough free cores (and memory); a job that fits no node
    waits. Local jobs take no node. ConfigError when a job can never fit a node."""
    if nodes < 1 or cores < 1:
        raise ConfigError("plan --nodes/--cores-per-node", "must be at least 1")
    by = {j.jobid: j for j in jobs}
    for j in jobs:
        if j.local:
            continue
        if j.threads > cores:
            raise ConfigError(
                "plan --cores-per-node", f"job {j.name} needs {j.threads} cores > {cores}"
            )
        if mem_per_node_mb is not None and (j.mem_mb or 0) > mem_per_node_mb:
            raise ConfigError(
                "plan --mem-per-node", f"job {j.name} needs {j.mem_gb:.0f} GB > the node's"
            )
    level = bottom_levels(jobs, deps, default_runtime)
    users: dict[int, list[int]] = {j.jobid: [] for j in jobs}
    for k, ds in deps.items():
        for d in ds:
            users[d].append(k)
    waiting = {k: len(ds) for k, ds in deps.items()}
    free_c = [cores] * nodes
    free_m = [mem_per_node_mb if mem_per_node_mb is not None else float("inf")] * nodes
    ready = sorted((k for k, n in waiting.items() if n == 0), key=lambda k: (-level[k], k))
    running: list[tuple[float, int]] = []  # (end, jobid)
    sched = Schedule(0.0)
    now = 0.0
    while ready or running:
        still = []
        for k in ready:
            j = by[k]
            if j.local:
                n = -1
            else:
                n = next(
                    (
                        i
                        for i in range(nodes)
                        if free_c[i] >= j.threads and free_m[i] >= (j.mem_mb or 0)
                    ),
                    None,
                )
                if n is None:
                    still.append(k)
                    continue
                free_c[n] -= j.threads
                free_m[n] -= j.mem_mb or 0
            sched.start[k], sched.node[k] = now, n
            heapq.heappush(running, (now + j.hours(default_runtime), k))
        ready = still
        if not running:  # (cannot happen: every job fits an empty node)
            raise ConfigError("plan", f"jobs {ready[:3]} fit no node")
        now, k = heapq.heappop(running)
        done = [k]
        while running and running[0][0] == now:
            done.append(heapq.heappop(running)[1])
        for k in done:
            n = sched.node[k]
            if n >= 0:
                free_c[n] += by[k].threads
                free_m[n] += by[k].mem_mb or 0
            for u in users[k]:
                waiting[u] -= 1
                if waiting[u] == 0:
                    ready.append(u)
        ready.sort(key=lambda k: (-level[k], k))
        sched.makespan = max(sched.makespan, now)
    return sched


def dry_run(
    configfiles: list[str],
    cores: int,
    snakefile: str | None = None,
    directory: str | None = None,
    targets: list[str] | None = None,
    extra: list[str] | None = None,
) -> str:
    """The text of ``snakemake -n --forceall --cores C`` (every job, done or not)."""
    cmd = [sys.executable, "-m", "snakemake", "-n", "--forceall", "--cores", str(cores)]
    if snakefile:
        cmd += ["--snakefile", snakefile]
    if directory:
        cmd += ["--directory", directory]
    if configfiles:
        cmd += ["--configfile", *configfiles]
    cmd += list(extra or []) + list(targets or [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-15:])
        raise DataError("snakemake -n", f"exit code {r.returncode}:\n{tail}")
    return r.stdout + "\n" + r.stderr


def _h(x: float) -> str:
    return f"{x:,.1f} h" if x < 100 else f"{x:,.0f} h ({x / 24:,.1f} days)"


def report(
    jobs: list[Job],
    nodes: int,
    cores: int,
    mem_per_node_mb: float | None = None,
    default_runtime: float = 0.0,
    max_runtime: float | None = None,
    max_mem: float | None = None,
    top: int = 10,
) -> tuple[str, list[Job]]:
    """The printed plan and the jobs over the limits (hours, GB)."""
    if not jobs:
        raise DataError("snakemake dry run", "no jobs (nothing to plan)")
    deps = dependencies(jobs)
    hours = {j.jobid: j.hours(default_runtime) for j in jobs}
    core_h = sum(hours[j.jobid] * (0 if j.local else j.threads) for j in jobs)
    longest = max(jobs, key=lambda j: (hours[j.jobid], j.mem_mb or 0, -j.jobid))
    biggest = max(jobs, key=lambda j: (j.mem_mb or 0, hours[j.jobid], -j.jobid))
    cp, chain = critical_path(jobs, deps, default_runtime)
    sched = list_schedule(jobs, deps, nodes, cores, mem_per_node_mb, default_runtime)
    rules: dict[str, list[float]] = {}
    for j in jobs:
        # a rule with a `step` wildcard (iwtm_part) is counted per step
        step = re.search(r"(?:^|, )step=([^,]+)", j.wildcards)
        r = rules.setdefault(j.rule + (f"[{step.group(1)}]" if step else ""), [0, 0.0, 0.0, 0.0])
        r[0] += 1
        r[1] += hours[j.jobid] * (0 if j.local else j.threads)
        r[2] = max(r[2], hours[j.jobid])
        r[3] = max(r[3], j.mem_gb)

    def one(j: Job) -> str:
        return f"{j.name}: {_h(hours[j.jobid])}, {j.mem_gb:,.1f} GB, {j.threads} thread(s)"

    lines = [
        f"jobs: {len(jobs)} ({len({j.rule for j in jobs})} rules, "
        f"{sum(j.local for j in jobs)} local)",
        f"core-hours: {core_h:,.0f} (declared runtime x threads)",
        f"largest job by runtime: {one(longest)}",
        f"largest job by memory: {one(biggest)}",
        f"critical path: {_h(cp)} over {len(chain)} jobs",
    ]
    lines += [f"  {hours[j.jobid]:>9,.1f} h  {j.name}" for j in chain]
    util = core_h / (sched.makespan * nodes * cores) if sched.makespan > 0 else 0.0
    mem = f", {mem_per_node_mb / 1024:,.0f} GB" if mem_per_node_mb else ""
    lines.append(
        f"makespan on {nodes} nodes x {cores} cores{mem}: {_h(sched.makespan)} "
        f"(list schedule, longest path first; {100 * util:.1f}% of the core-hours used; "
        f"critical path {_h(cp)})"
    )
    lines.append(f"rules by core-hours (top {top}): rule[step], jobs, core-hours, max h, max GB")
    ranked = sorted(rules.items(), key=lambda kv: (-kv[1][1], kv[0]))[:top]
    for name, (n, ch, mh, mg) in ranked:
        share = 100 * ch / core_h if core_h else 0.0
        lines.append(
            f"  {name:<32} {int(n):>4} {ch:>10,.0f} ({share:4.1f}%) {mh:>8,.1f} {mg:>7,.1f}"
        )
    over = [
        j
        for j in jobs
        if (max_runtime is not None and hours[j.jobid] > max_runtime)
        or (max_mem is not None and j.mem_gb > max_mem)
    ]
    if max_runtime is not None or max_mem is not None:
        lim = ", ".join(
            s
            for s in (
                f"{max_runtime:g} h" if max_runtime is not None else "",
                f"{max_mem:g} GB" if max_mem is not None else "",
            )
            if s
        )
        if over:
            lines.append(f"OVER THE LIMITS ({lim}): {len(over)} jobs")
            lines += [f"  {one(j)}" for j in sorted(over, key=lambda j: j.jobid)]
        else:
            lines.append(f"limits ({lim}): every job fits")
    return "\n".join(lines), over


def _cli(args) -> int:
    text = (
        Path(args.dry_run).read_text()
        if args.dry_run
        else dry_run(
            args.configfile or [],
            args.cores_per_node,
            args.snakefile,
            args.directory,
            args.targets,
        )
    )
    jobs = parse_dryrun(text)
    mem = args.mem_per_node * 1024 if args.mem_per_node else None
    out, over = report(
        jobs,
        args.nodes,
        args.cores_per_node,
        mem,
        args.default_runtime,
        args.max_runtime,
        args.max_mem,
    )
    src = " ".join(args.configfile or []) or args.dry_run or "(default config)"
    print(f"plan: {src}, {args.nodes} nodes x {args.cores_per_node} cores")
    print(out)
    return 1 if over else 0


def register(subparsers) -> None:
    """``latentlab plan --configfile=FILE --nodes N --cores-per-node C``."""
    p = subparsers.add_parser(
        "plan",
        help="jobs, core-hours, largest job, critical path and makespan of a run (docs/cluster.md)",
        description=__doc__.split("\n\n")[0],
    )
    p.add_argument("--configfile", nargs="+", help="the run's config file(s)")
    p.add_argument("--nodes", type=int, required=True, help="nodes of the list schedule")
    p.add_argument("--cores-per-node", type=int, required=True, help="cores per node")
    p.add_argument("--mem-per-node", type=float, help="GB per node (default: no limit)")
    p.add_argument("--max-runtime", type=float, help="hours: exit 1 if a job declares more")
    p.add_argument("--max-mem", type=float, help="GB (1024 MB): exit 1 if a job declares more")
    p.add_argument(
        "--default-runtime",
        type=float,
        default=120.0,
        help="minutes for a job without a runtime (the SLURM profile's fall-back: 120)",
    )
    p.add_argument("--snakefile", help="default: ./Snakefile")
    p.add_argument("--directory", help="working directory of the dry run")
    p.add_argument("--dry-run", help="read this saved dry-run text instead of running one")
    p.add_argument("targets", nargs="*", help="targets (default: the Snakefile's first rule)")
    p.set_defaults(func=_cli)
