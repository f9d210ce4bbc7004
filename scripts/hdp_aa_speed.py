"""Where one ``hdp_pcvb0`` perplexity fit on KOS spends its time (the AA long pole).

Runs what the study's ``perplexity`` job runs for one configuration (default ``cvb_AA``):
the 80/20 within-document split of the real run (seed base_seed + split_seed), the model
seeded with base_seed, the options of ``config/real.yaml``, a test perplexity after every
iteration (the trace at ``trace_T``), for a reduced number of iterations, and writes one
CSV row per (configuration, T) with the CPU and wall seconds per iteration broken down by
phase: the token sweep, the count recount (§7.3), the log-zero statistics (Eqs 26, 32),
the global update (Eqs 24-33 or [24]) and the per-iteration perplexity.

Phases are timed by wrapping the kernels and model methods that exist in the checked-out
code, so the same script measures before and after a change (point ``PYTHONPATH`` at the
other source tree; ``--code`` names it in the CSV). ``--save`` writes the final state (every
50th row of q, counts, prior weights, perplexities) to compare two versions' results.
``--perturb-ulp SEED`` moves every entry of the initial q one unit in the last place up or
down (seeded), and with ``--perturb-each`` again after every iteration: how far a fit's
results move under rounding-level perturbations alone (its floating-point noise floor).

    PYTHONPATH=src nice -n 19 python scripts/hdp_aa_speed.py \\
        ../realrun/results/real/data/kos/dataset.npz --T 300 --iterations 12 \\
        --label before --note "idle machine" --out benchmarks/hdp_aa_speed.csv --append

Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import yaml  # noqa: E402

from latentlab.data.corpus import BowCorpus  # noqa: E402
from latentlab.data.splits import split_within_documents  # noqa: E402
from latentlab.models.hdp import HDPLDA, kernels  # noqa: E402
from latentlab.models.hdp import model as hdp_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PHASES = {  # phase of each wrapped callable (absent names are skipped)
    "sweep_zero": "sweep",
    "sweep_second": "sweep",
    "counts_from_q": "recount",
    "log_zero_stats": "log_zero",
    "_global_cvb": "global",
    "_global_pcvb": "global",
    "perplexity": "perplexity",
}


class Timer:
    def __init__(self):
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}
        self.depth = 0

    def wrap(self, phase, f):
        def g(*args, **kw):
            if self.depth:  # a phase inside a phase counts for the outer one
                return f(*args, **kw)
            self.depth += 1
            c0, w0 = time.process_time(), time.perf_counter()
            try:
                return f(*args, **kw)
            finally:
                self.cpu[phase] = self.cpu.get(phase, 0.0) + time.process_time() - c0
                self.wall[phase] = self.wall.get(phase, 0.0) + time.perf_counter() - w0
                self.depth -= 1

        return g


def instrument(timer: Timer) -> None:
    for name, phase in PHASES.items():
        if hasattr(kernels, name):
            setattr(kernels, name, timer.wrap(phase, getattr(kernels, name)))
        if hasattr(hdp_model.HDPLDA, name):
            setattr(hdp_model.HDPLDA, name, timer.wrap(phase, getattr(hdp_model.HDPLDA, name)))


def nudge(m, rng) -> None:
    """Every entry of q one unit in the last place up or down (counts left as they are)."""
    up = rng.random(m.q.shape) < 0.5
    m.q[...] = np.nextafter(m.q, np.where(up, 1.0, 0.0).astype(m.q.dtype))


def git_rev() -> str:
    """Commit of the source tree the imported ``latentlab`` comes from ("" outside git)."""
    import latentlab

    try:
        return subprocess.run(
            ["git", "-C", str(Path(latentlab.__file__).parent), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return ""


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--configs", nargs="+", default=["cvb_AA"])
    ap.add_argument("--T", type=int, nargs="+", default=[300])
    ap.add_argument("--iterations", type=int, default=12)
    ap.add_argument("--config-file", default=str(ROOT / "config" / "real.yaml"))
    ap.add_argument("--label", default="")
    ap.add_argument("--note", default="")
    ap.add_argument("--save", default="", help="npz prefix for the final state")
    ap.add_argument("--perturb-ulp", type=int, default=None, metavar="SEED")
    ap.add_argument("--perturb-each", action="store_true", help="... after every iteration")
    ap.add_argument("--code", default="", help="names the source tree (default: its commit)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--append", action="store_true")
    a = ap.parse_args(argv)

    cfg = yaml.safe_load(Path(a.config_file).read_text())
    base_seed = int(cfg["base_seed"])
    study = cfg["hdp_pcvb0"]
    p = study["perplexity"]
    opts = dict(study.get("options") or {})
    opts.update(p.get("options") or {})
    corpus = BowCorpus.load(a.dataset)
    sp = split_within_documents(
        corpus, frac=p["train_frac"], seed=base_seed + p["split_seed"],
        short_docs=p["short_docs"], oov_rule=p["oov_rule"],
    )  # fmt: skip
    print(f"split: {sp.info}", flush=True)

    timer = Timer()
    instrument(timer)
    # compile outside the timed fit (numba caches to disk; the first call still loads)
    for config in a.configs:
        method, prior = config.split("_")
        HDPLDA(3, method, prior, options=opts, seed=0).fit(sp.train, 2).perplexity(sp.test)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    new = not (a.append and out.exists())
    rows = []
    for config in a.configs:
        method, prior = config.split("_")
        for T in a.T:
            timer.cpu.clear()
            timer.wall.clear()
            m = HDPLDA(T, method, prior, options=opts, seed=base_seed)
            ppl = []
            load0 = os.getloadavg()[0]
            c0, w0 = time.process_time(), time.perf_counter()
            m._init(sp.train)  # what fit() does, with room for the perturbation
            rng = np.random.default_rng(a.perturb_ulp)
            if a.perturb_ulp is not None:
                nudge(m, rng)
                m._recount(m.second_order or m.method == "cvb0")
            for _ in range(a.iterations):
                m.step()
                ppl.append(m.perplexity(sp.test))  # the trace at trace_T
                if a.perturb_each and a.perturb_ulp is not None:
                    nudge(m, rng)
            cpu, wall = time.process_time() - c0, time.perf_counter() - w0
            load1 = os.getloadavg()[0]
            n = a.iterations
            r = {
                "label": a.label,
                "code": a.code or git_rev(),
                "dataset": Path(a.dataset).parent.name or Path(a.dataset).stem,
                "config": config,
                "T": T,
                "iterations": n,
                "perturb_ulp": "" if a.perturb_ulp is None else a.perturb_ulp,
                "perturb_each": bool(a.perturb_each and a.perturb_ulp is not None),
                "n_train_tokens": sp.train.n_tokens,
                "cpu_s_per_iter": cpu / n,
                "wall_s_per_iter": wall / n,
            }
            for ph in ("sweep", "recount", "log_zero", "global", "perplexity"):
                r[f"{ph}_cpu_s_per_iter"] = timer.cpu.get(ph, 0.0) / n
            r["other_cpu_s_per_iter"] = (cpu - sum(timer.cpu.values())) / n
            r.update({
                "final_perplexity": ppl[-1],
                "alpha0": float(m.alpha0), "beta0": float(m.beta0), "gamma0": float(m.gamma0),
                "load_avg_1min_start": load0, "load_avg_1min_end": load1,
                "note": a.note,
            })  # fmt: skip
            rows.append(r)
            print(
                f"{config} T={T}: {r['cpu_s_per_iter']:.3f} CPU-s/it "
                f"(sweep {r['sweep_cpu_s_per_iter']:.3f}, recount {r['recount_cpu_s_per_iter']:.3f}"
                f", log-zero {r['log_zero_cpu_s_per_iter']:.3f}, global "
                f"{r['global_cpu_s_per_iter']:.3f}, ppl {r['perplexity_cpu_s_per_iter']:.3f}, "
                f"other {r['other_cpu_s_per_iter']:.3f}); wall {r['wall_s_per_iter']:.3f}; "
                f"final ppl {ppl[-1]:.6f}",
                flush=True,
            )
            if a.save:
                np.savez(
                    f"{a.save}_{config}_T{T}.npz", q=m.q[::50], ndk=m.ndk, nkv=m.nkv, nk=m.nk,
                    alpha_pi=m.alpha_pi, beta_v=m.beta_v, ppl=np.array(ppl),
                )  # fmt: skip
    with out.open("w" if new else "a", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        if new:
            w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
