"""Exact CPU seconds of every ``python -m latentlab`` job (a measuring aid, not run by CI).

Snakemake's ``benchmark:`` ``cpu_time`` is *sampled*: psutil reads the job's process tree
at start, every 0.5 s for 30 readings, then every 30 s, and keeps the last reading; a job
shorter than half a second records about 0 and a long job loses up to 30 s of its tail
(and any child process that ends between two readings). For a fair CPU-seconds figure, put
this folder first on ``PYTHONPATH`` and set ``LATENTLAB_CPU_LOG=FILE``: each latentlab
job then appends one JSON line at exit with its own and its waited-for children's
user + system seconds (``getrusage``), its wall seconds, its command line and, when it
used numba, how many kernel signatures it compiled (``compiled``: cache misses) and loaded
from the on-disk cache (``cached``), summed over the dispatchers of latentlab's modules.

    LATENTLAB_CPU_LOG=/tmp/cpu.jsonl PYTHONPATH=scripts/cpu_hook:src snakemake --cores 2
    python scripts/smoke_cost.py --rusage /tmp/cpu.jsonl
"""

import os
import sys
import time

_LOG = os.environ.get("LATENTLAB_CPU_LOG")
_T0 = time.time()
_PID = os.getpid()


def _write() -> None:
    import json
    import resource

    if os.getpid() != _PID:  # a forked child that ran atexit handlers
        return
    import multiprocessing

    if multiprocessing.parent_process() is not None:
        return  # a spawned worker (it carries its parent's argv; the parent counts it)
    argv = list(sys.argv)
    if not argv or not argv[0].replace(os.sep, "/").endswith("latentlab/__main__.py"):
        return
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    rec = {
        "argv": argv[1:],
        "cpu_self": me.ru_utime + me.ru_stime,
        "cpu_children": kids.ru_utime + kids.ru_stime,
        "wall": time.time() - _T0,
        "end": time.time(),
        "cwd": os.getcwd(),
        **_numba_counts(),
    }
    with open(_LOG, "a") as f:
        f.write(json.dumps(rec) + "\n")


def _numba_counts() -> dict:
    if "numba" not in sys.modules:
        return {}
    from numba.core.dispatcher import Dispatcher

    compiled = cached = 0
    seen = set()
    for name, mod in list(sys.modules.items()):
        if not name.startswith("latentlab") or mod is None:
            continue
        for obj in list(vars(mod).values()):
            if isinstance(obj, Dispatcher) and id(obj) not in seen:
                seen.add(id(obj))
                st = obj.stats
                compiled += sum(st.cache_misses.values())
                cached += sum(st.cache_hits.values())
    return {"compiled": compiled, "cached": cached}


if _LOG:
    import atexit

    atexit.register(_write)
