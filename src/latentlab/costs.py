"""The cost model of the heavy jobs (issue 39): runtime and peak memory against the
settings, fitted to measured runs, and the table ``config/costs.csv`` the paper run's
resources are read from.

A job's runtime is a sum of terms, rate x work: the work of each term (descriptor-sweeps
times dishes for the Gibbs sampler, descriptor-iterations times clusters for CAVI, ...)
is computed from the run's settings by the same loops the step runs; the rates are fitted
(non-negative least squares on the relative error) to measured points: the per-fit seconds
the published real and ladder runs recorded (``published/real``, ``published/ladder``),
the wall time of every job of the real run and of a smoke run
(``benchmarks/costs_measured.csv``, from their Snakemake benchmark files), and
``benchmarks/iwtm_780k.csv``. Memory is the job's main arrays (their sizes follow from the
settings), times :data:`MEM_FACTOR` for temporaries, plus the measured start-up
:data:`BASE_MB`. The fit's error is the largest factor between a point and its prediction;
the margin (:data:`MARGIN`) must cover it and the published ladder rungs' totals
(``published/ladder/<study>/bench_targets.csv``): ``tests/test_costs.py`` checks both, and
that every declared runtime and memory of ``config/paper.yaml`` and of the ladder's two
cluster rungs covers its prediction times the margin.

``python -m latentlab costs`` prints the fit and the table; ``--write`` writes
``config/costs.csv``: per resource key the jobs, the largest predicted runtime and memory,
and the declared values (prediction x margin, rounded up), which the rules read when the
run's config names the table (``costs: config/costs.csv``, config/paper.yaml).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.errors import ConfigError, DataError

ROOT = Path(__file__).resolve().parents[2]
TABLE = "config/costs.csv"
MEASURED = "benchmarks/costs_measured.csv"
# every declared runtime covers its prediction times this: the ladder rungs' totals are
# predicted within it (0.9-1.6x) and so is every fit and job of 10 s or more the model is
# fitted to but the published real run's, 2-4x slower than the same work on the ladder
# (tests/test_costs.py)
MARGIN = 2.0
# every declared memory covers its prediction (an upper bound: the arrays' sizes times
# MEM_FACTOR, validated against the measured peaks) times this
MEM_MARGIN = 1.25
MIN_SECONDS = 10.0  # points shorter than this (start-up and overheads) are not judged
MIN_RUNTIME = 30  # minutes: the least a job declares (start-up, a shared file system's lag)
MIN_MEM_MB = 2048  # the least memory a job declares
BASE_MB = 400.0  # a job's start-up (Python, numpy, numba, scikit-learn): real jobs 250-450 MB
MEM_FACTOR = 2.0  # temporaries on top of the main arrays (copies, BLAS and sort buffers)
GB = 1024.0  # MB per GB, as latentlab.plan

# Data sizes of the document's run (config/paper.yaml). Descriptors per image at the
# original size: the ladder's d60 dense SIFT (published/ladder/iwtm/d60/iwtm/data/*.json,
# raw_descriptors_per_image); SUN397: HOG2x2 blocks of a 640 x 480 image (the largest side
# <= 640, cell 8: 79 x 59), an upper bound per image.
SIZES = {
    "scene13": {"images": 3859, "classes": 13, "desc": 624.8, "D": 128},
    "scene8": {"images": 2688, "classes": 8, "desc": 625.0, "D": 128},
    "sun397": {"images": 397 * 55, "classes": 397, "desc": 79 * 59, "D": 124},
}
# a test descriptor-sweep of the fold-in against a training one: one document at a time
# (a numba call per document and sweep); measured 92 against 46 us on the real run's
# descriptors (config/ladder.yaml, the iwtm ladder's estimates)
FOLD_FACTOR = 2.0
# dishes of a Gibbs IWTM fit at the document's scale: "IWTM infers a vocabulary with mean
# size 1240" (Waters 2014, Sec. 4.5.2, Fig 4.1)
PAPER_DISHES = 1240

TERMS = {
    "job": "one per job: start-up, imports, reading the inputs (s)",
    "gibbs": (
        "descriptor x sweep x dish x (D + T): the Gibbs IWTM sweep (a fold-in sweep counts "
        "FOLD_FACTOR, a dish predictive of Table 4.1's quantisation D / (D + T) of one)"
    ),
    "slda": "token x sweep x T: supervised LDA's Gibbs sweeps (fit and fold-in)",
    "kmeans": "descriptor x K x D x Lloyd iteration (the fit) + descriptor x K x D (predict)",
    "cavi": "descriptor x C x (D + 2) per iteration: the E l GEMM of CAVI/SVI/GDPMM",
    "local": "descriptor x max_local x T per iteration: the local (document) step",
    "cavi_n": "iteration of a CAVI/SVI fit: its fixed cost (thread start-up, the small blocks)",
    "bgm": "descriptor x C x D per VB iteration of scikit-learn's Gaussian mixture",
    "sift": "dense SIFT descriptors computed (CPU; the job spreads them over its threads)",
    "hog": "HOG2x2 blocks computed and written (CPU; the job spreads them over its threads)",
    "ctm": "training document x K x EM iteration: the CTM E-step",
    "hdp": "training token x T x iteration: the collapsed HDP updates",
    "uci": "nonzeros (doc, word, count lines) of a UCI docword file parsed and saved",
}
# peak memory of a UCI prepare job per nonzero: the largest of the measured parses
# (benchmarks/costs_measured.csv, run uci_parse: 5M and 20M nonzeros of a synthetic file,
# KOS), above the start-up
UCI_BASE_MB = 100.0


@dataclass
class Job:
    """One job of a run: its resource key, the work of each term, its main arrays' bytes."""

    study: str
    key: str  # the resource key the rule reads (iwtm.resources.<key>, ...)
    name: str
    terms: dict[str, float] = field(default_factory=dict)
    mem_bytes: float = 0.0
    mem_mb: float | None = None  # a measured memory model's prediction (instead of mem_bytes)

    def add(self, term: str, work: float) -> Job:
        if term not in TERMS:
            raise ConfigError("costs", f"unknown term {term!r}")
        self.terms[term] = self.terms.get(term, 0.0) + float(work)
        return self


# ------------------------------------------------------------------------------- iwtm
def _iwtm_settings(section: dict):
    from latentlab.studies.iwtm import parts
    from latentlab.studies.shape import load_study

    st = load_study("iwtm")
    return st, parts, {s: st.settings(s, section) for s in parts.NAMES}


def _n(ds: dict, per_class: int | None, desc_per_doc=None) -> float:
    """Descriptors of ``per_class`` images per class (None: every image)."""
    k = ds["images"] if per_class is None else per_class * ds["classes"]
    d = ds["desc"] if desc_per_doc is None else min(ds["desc"], desc_per_doc)
    return float(k * d)


def _kmeans(job: Job, n_fit: float, n_pred: float, K: int, D: int, it: int, pts) -> None:
    n_fit = min(n_fit, pts) if pts is not None else n_fit
    job.add("kmeans", n_fit * K * D * it + n_pred * K * D)


def _cavi_fit(job: Job, c, N: float, D: int, T: int, n_iter: int) -> None:
    job.add("cavi", n_iter * N * c.C * (D + 2))
    job.add("local", n_iter * N * c.max_local * T)
    job.add("cavi_n", n_iter)


def iwtm_jobs(section: dict, sizes: dict, dishes: dict | None = None) -> list[Job]:
    """The iwtm part jobs of a run (rules/iwtm.smk's ``iwtm_part``, per dataset) and its
    data jobs, with their work; ``sizes``: dataset -> images, classes, descriptors per
    image (``desc``), D; ``dishes``: (T, n_train) -> dishes of the Gibbs fits (default:
    :data:`PAPER_DISHES`)."""
    st, parts, S = _iwtm_settings(section)
    out: list[Job] = []
    cl = st.settings("claims", section)
    for ds_name in cl.datasets:
        ds = sizes[ds_name]
        D = ds["D"]
        s = S["ch4"]
        dpd = s.desc_per_doc
        g = s.gibbs
        n_all = _n(ds, None, dpd)
        n_te = _n(ds, None, dpd) - _n(ds, ds.get("pool", 100), dpd)
        load = n_all * D * 4.0
        for part in parts.jobs("ch4", s):
            T, n, _, piece = part.split("_")
            T, n = int(T[1:]), int(n[1:])
            n_tr = _n(ds, n, dpd)
            K = (dishes or {}).get((T, n), PAPER_DISHES)
            used = (n_tr + n_te) * D * 8.0
            state = (n_tr + n_te) * 8 * 8.0 + g.dish_cap * D * 8 * 4.0 + T * g.dish_cap * 16.0
            if piece == "fit":
                j = Job("iwtm", "ch4", f"ch4_{ds_name}/{part}", mem_bytes=load + used + state)
                j.add("gibbs", n_tr * g.n_iter * K * (D + T))
            elif piece == "iwtm":
                j = Job(
                    "iwtm",
                    "ch4_fold",
                    f"ch4_{ds_name}/{part}",
                    mem_bytes=load + used + 2 * state + min(65536, n_tr + n_te) * K * 8.0,
                )
                j.add("gibbs", FOLD_FACTOR * n_te * g.test_iter * K * (D + T))
                j.add("gibbs", (n_tr + n_te) * K * D)  # the dish predictive
                j.add("slda", (n_tr * g.n_iter + n_te * g.test_iter) * T)
            else:
                j = Job(
                    "iwtm",
                    "slda",
                    f"ch4_{ds_name}/{part}",
                    mem_bytes=load + 2 * used + max(s.slda.K) * D * 8.0,
                )
                for K_ in s.slda.K:
                    _kmeans(j, n_tr, n_tr + n_te, K_, D, s.slda.kmeans_iter, s.slda.kmeans_points)
                    j.add("slda", (n_tr * g.n_iter + n_te * g.test_iter) * T)
            out.append(j.add("job", 1))
        s = S["ch5"]
        c = s.cavi
        for part in parts.jobs("ch5", s):
            n = int(part.split("_")[0][1:])
            n_tr = _n(ds, n, dpd)
            j = Job("iwtm", "ch5", f"ch5_{ds_name}/{part}")
            for K_ in s.kmeans_lda.K:
                _kmeans(
                    j,
                    n_tr,
                    2 * n_tr + 2 * n_te,
                    K_,
                    D,
                    s.kmeans_lda.kmeans_iter,
                    s.kmeans_lda.kmeans_points,
                )
            n_g = min(n_tr, s.gdpmm.max_points or n_tr)
            j.add("cavi", s.gdpmm.max_iter * n_g * s.gdpmm.C * (D + 2))
            j.add("cavi", (n_tr + n_te) * s.gdpmm.C * (D + 2))  # its predict
            for T in c.T:
                _cavi_fit(j, c, n_tr, D, T, c.n_iter)
                _cavi_fit(j, c, n_te, D, T, 1)  # the test transform
            K_max = max(s.kmeans_lda.K)
            j.mem_bytes = load + (n_tr + n_te) * D * 8.0 * 2 + (n_tr + n_te) * c.c_top * 8 * 6.0
            j.mem_bytes += c.K * c.map_top * 16.0 + c.C * D * 8 * 4.0 + K_max * D * 8.0 * 10
            out.append(j.add("job", 1))
        s = S["semi"]
        c = s.cavi
        for part in parts.jobs("semi", s):
            n = int(part.split("_")[0][1:])
            n_tr = _n(ds, n, dpd)
            j = Job("iwtm", "semi", f"semi_{ds_name}/{part}")
            _cavi_fit(j, c, n_tr, D, s.semi.T, c.n_iter)
            _cavi_fit(j, c, n_te, D, s.semi.T, 1)
            j.mem_bytes = load + (n_tr + n_te) * D * 8.0 + (n_tr + n_te) * c.c_top * 8 * 6.0
            out.append(j.add("job", 1))
        s = S["svi"]
        c, v = s.cavi, s.svi
        n_tr = _n(ds, v.n_train, dpd)
        for part in parts.jobs("svi", s):
            rho = float(part.split("_")[0][3:])
            n_iter = max(1, round(v.passes / rho))
            j = Job("iwtm", "svi", f"svi_{ds_name}/{part}")
            _cavi_fit(j, c, n_tr * rho, D, v.T, n_iter)
            snaps = len(
                set(
                    range(
                        max(1, round(v.snapshot_frac * n_iter)),
                        n_iter + 1,
                        max(1, round(v.snapshot_frac * n_iter)),
                    )
                )
                | {n_iter}
            )
            _cavi_fit(j, c, n_tr, D, v.T, snaps)  # the full-corpus ELBOs
            j.mem_bytes = load + n_tr * D * 8.0 + n_tr * c.c_top * 8 * 6.0 + c.C * D * 32.0
            out.append(j.add("job", 1))
        s = S["ivi"]
        c, v = s.cavi, s.ivi
        sizes_ = list(range(v.seed_per_class, v.max_per_class + 1, v.grow_per_class))
        for part in parts.jobs("ivi", s):
            j = Job("iwtm", "ivi", f"ivi_{ds_name}/{part}")
            n0 = _n(ds, sizes_[0], dpd)
            _cavi_fit(j, c, n0 * v.rho, D, v.T, 2 * v.seed_iter)
            for k, m in enumerate(sizes_):
                nk = _n(ds, m, dpd)
                if k:
                    new = nk - _n(ds, sizes_[k - 1], dpd)
                    _cavi_fit(j, c, new * v.rho, D, v.T, v.new_iter)
                    _cavi_fit(j, c, nk * v.rho, D, v.T, 2 * v.round_iter)
                _cavi_fit(j, c, nk * v.rho, D, v.T, v.scratch_iter)
                snaps = 2 * len(range(v.elbo_every, v.round_iter + 1, v.elbo_every)) + 3
                _cavi_fit(j, c, nk, D, v.T, snaps)
            nmax = _n(ds, v.max_per_class, dpd)
            j.mem_bytes = load + nmax * D * 8.0 * 2 + nmax * c.c_top * 8 * 6.0 + c.C * D * 96.0
            out.append(j.add("job", 1))
        s = S["active"]
        a, c = s.active, s.cavi
        rounds = (
            max(1, math.ceil((a.max_labelled - a.seed_per_class * ds["classes"]) / a.round_size))
            + 1
        )
        n_pool = _n(ds, a.pool_per_class, dpd)
        n_test = n_te if a.test_max is None else min(n_te, a.test_max * ds["desc"])
        for part in parts.jobs("active", s):
            j = Job("iwtm", "active", f"active_{ds_name}/{part}")
            for _ in a.methods:
                seen = n_pool + n_test  # the features of the pool and test set each round
                if part.endswith("_iwtm"):
                    lab = a.max_labelled * ds["desc"]
                    _cavi_fit(
                        j,
                        c,
                        a.seed_per_class * ds["classes"] * ds["desc"] * a.rho,
                        D,
                        a.T,
                        a.seed_iter,
                    )
                    for _r in range(rounds):
                        _cavi_fit(j, c, a.round_size * ds["desc"] * a.rho, D, a.T, a.new_iter)
                        _cavi_fit(j, c, lab * a.rho, D, a.T, a.round_iter)
                        _cavi_fit(j, c, seen, D, a.T, 1)
                else:
                    K_ = int(part.split("_")[1][1:])
                    book = a.seed_per_class if a.codebook == "seed" else a.pool_per_class
                    _kmeans(
                        j,
                        _n(ds, book, dpd),
                        seen,
                        K_,
                        D,
                        s.kmeans_lda.kmeans_iter,
                        s.kmeans_lda.kmeans_points,
                    )
            j.mem_bytes = load + (n_pool + n_test) * D * 8.0 * 2 + c.C * D * 96.0
            out.append(j.add("job", 1))
        s = S["pareback"]
        p = s.pareback
        n_p = _n(ds, p.n_train, dpd)
        n_p = min(n_p, p.max_points) if p.max_points is not None else n_p
        for part in parts.jobs("pareback", s):
            j = Job("iwtm", "pareback", f"pareback_{ds_name}/{part}")
            j.add("bgm", 2 * p.n_iter * n_p * p.C * D)  # fit + predict_proba each iteration
            j.mem_bytes = load + n_p * D * 8.0 + 4 * n_p * p.C * 8.0
            out.append(j.add("job", 1))
        for part in parts.jobs("scene8", S["scene8"]) if ds_name == cl.datasets[-1] else []:
            e, g8 = S["scene8"].scene8, S["scene8"].gibbs
            d8 = sizes[e.dataset]
            n8 = _n(d8, e.n_train, S["scene8"].desc_per_doc)
            t8 = (
                e.test_per_class * d8["classes"] * d8["desc"]
                if e.test_per_class
                else _n(d8, None) - _n(d8, d8.get("pool", 100))
            )
            K = (dishes or {}).get((e.T, e.n_train), PAPER_DISHES)
            l8 = _n(d8, None) * d8["D"] * 4.0
            st8 = (n8 + t8) * 8 * 8.0 + g8.dish_cap * d8["D"] * 32.0 + e.T * g8.dish_cap * 16.0
            if part.endswith("_fit"):
                j = Job("iwtm", "scene8", f"scene8_{e.dataset}/{part}")
                j.add("gibbs", n8 * g8.n_iter * K * (d8["D"] + e.T))
            else:
                j = Job("iwtm", "scene8_fold", f"scene8_{e.dataset}/{part}")
                j.add("gibbs", FOLD_FACTOR * t8 * g8.test_iter * K * (d8["D"] + e.T))
            j.mem_bytes = l8 + (n8 + t8) * d8["D"] * 8.0 + 2 * st8
            out.append(j.add("job", 1))
    # the data jobs: dense SIFT of every image (the descriptors, standardised, float64)
    names = list(dict.fromkeys([*cl.datasets, S["scene8"].scene8.dataset]))
    for ds_name in names:
        d = sizes[ds_name]
        raw = d["images"] * d.get("raw", d["desc"])
        j = Job("iwtm", "data", f"data_{ds_name}", mem_bytes=raw * d["D"] * (4 + 8 * 3.0))
        out.append(j.add("sift", raw).add("job", 1))
    s = S["sun"]
    su, c = s.sun, s.cavi
    if su.dataset in sizes and su.dataset != "syn_iwtm":
        d = sizes[su.dataset]
        n_all = d["images"] * d["desc"]
        # descriptors, positions and grid cells written through memory maps (sun.py)
        j = Job("iwtm", "sun_data", f"sun_data_{su.dataset}", mem_bytes=1 << 30)
        out.append(j.add("hog", n_all).add("job", 1))
    if su.dataset in sizes:
        d = sizes[su.dataset]
        D = d["D"]
        n_all = d["images"] * d["desc"]
        n_tr = d["classes"] * d.get("train_per_class", su.train_per_class) * d["desc"]
        n_iter = max(1, round(su.passes / su.rho))
        block = min(n_all, 1 << 22)
        # a fit job: the training descriptors in float64 and one temporary while they
        # are standardised, a minibatch's candidate lists; a map job: one block of rows
        # read (float32), converted and standardised, its words and topics
        m_fit = n_tr * D * 8.0 * 2 + n_tr * su.rho * c.c_top * 8 * 6.0 + c.C * D * 96.0
        share = n_all / su.map_jobs
        m_map = block * D * 20.0 + share * 8 * 3.0 + c.C * D * 96.0
        for part in parts.jobs("sun", s):
            _, _, rest = part.partition("_")
            key = "sun_" + rest[:3] if rest else "sun"
            j = Job("iwtm", key, f"sun_{su.dataset}/{part}")
            if rest in ("", "fit1"):
                _kmeans(j, n_tr, 0, su.K, D, su.kmeans_iter, su.kmeans_points)
            if rest == "" and not parts._sun_chained(s):  # the whole seed in one job
                _kmeans(j, 0, n_all, su.K, D, 1, None)
                _cavi_fit(j, c, n_tr * su.rho, D, su.T, n_iter)
                _cavi_fit(j, c, n_all, D, su.T, 1)  # MAP topics: the local step
                j.add("cavi", n_all * c.C * (D + 2))  # and the candidate lists
                j.mem_bytes = m_fit + m_map
            elif rest.startswith("fit"):
                _cavi_fit(j, c, n_tr * su.rho, D, su.T, n_iter / su.fit_jobs)
                j.mem_bytes = m_fit
            elif rest.startswith("map"):
                _kmeans(j, 0, share, su.K, D, 1, None)
                _cavi_fit(j, c, share, D, su.T, 1)
                j.add("cavi", share * c.C * (D + 2))
                j.mem_bytes = m_map
            else:  # the chained seed's SVMs: the words and topics of every descriptor
                j.mem_bytes = n_all * 8 * 6.0
            out.append(j.add("job", 1))
    return out


# ---------------------------------------------------------------------- measured points
@dataclass
class Point:
    """A measured runtime: seconds against the work of each term."""

    source: str
    seconds: float
    terms: dict[str, float]


def _published(root: Path) -> list[Point]:
    """Per-fit seconds of the published real and ladder iwtm runs (ch4 Gibbs and sLDA
    fits, scene8 fits, ch5 CAVI fits and K-means codebooks), the CTM sweeps' fits
    (nonconjugate_vi) and the HDP runs' seconds per iteration (hdp_pcvb0)."""
    pts: list[Point] = []
    # the ladder's own real rung (the published real run, 2-4x slower for the same work,
    # is not fitted: points())
    runs = {"real": (root / "published/ladder/iwtm/real/iwtm", 20, 20, 400, 10, 10000)}
    for rung, dpi, sw, C in (("d60", 60, 20, 400), ("d60_g100_C4000", 60, 100, 4000)):
        runs[rung] = (root / f"published/ladder/iwtm/{rung}/iwtm", dpi, sw, C, 10, 10000)
    for rung, (base, dpi, _sw, C, ml, kp) in runs.items():
        ch4 = pd.read_csv(base / "ch4_scene13.csv")
        for _, r in ch4.iterrows():
            n_tr = 13 * r.n_train * dpi
            if r.model == "IWTM":
                w = n_tr * r.sweeps * r.K * (128 + r["T"])
                pts.append(Point(f"{rung} ch4 IWTM fit n={r.n_train}", r.seconds, {"gibbs": w}))
            else:  # sLDA's fit (its fold-in is not timed)
                pts.append(
                    Point(
                        f"{rung} ch4 {r.model} K={r.K}",
                        r.seconds,
                        {"slda": n_tr * r.sweeps * r["T"]},
                    )
                )
        s8 = pd.read_csv(base / "scene8_scene8.csv")
        for _, r in s8.iterrows():
            w = 8 * r.n_train * dpi * r.sweeps * r.K * (128 + r["T"])
            pts.append(Point(f"{rung} scene8 fit seed {r.seed}", r.seconds, {"gibbs": w}))
        ch5 = pd.read_csv(base / "ch5_scene13.csv")
        for _, r in ch5.iterrows():
            n_tr = 13 * r.n_train * dpi
            if r.model == "IWTM_CAVI":
                pts.append(
                    Point(
                        f"{rung} ch5 CAVI fit n={r.n_train}",
                        r.seconds,
                        {
                            "cavi": 50 * n_tr * C * 130,
                            "local": 50 * n_tr * ml * r["T"],
                            "cavi_n": 50,
                        },
                    )
                )
            elif r.model == "LDA_KMEANS":
                n_fit = min(n_tr, kp)
                pts.append(
                    Point(
                        f"{rung} ch5 K-means K={r.K}",
                        r.kmeans_s,
                        {"kmeans": n_fit * r.K * 128 * 20},
                    )
                )
    for rung in ("d60", "d60_g100_C4000"):
        for ds in ("scene13", "scene8"):
            m = json.loads((root / f"published/ladder/iwtm/{rung}/iwtm/data/{ds}.json").read_text())
            md = m["metadata"]
            n = md["images"] * md["raw_descriptors_per_image"]
            # the pool's wall seconds on the run's 2 processes (config/real.yaml threads)
            pts.append(Point(f"{rung} dense SIFT {ds}", 2 * md["sift_seconds"], {"sift": n}))
    # HOG of the SUN protocol's images: the real run's sun_data job on 825 15-Scene images
    # (960.5 blocks each, REAL_SIZES); its pool of 2 processes: CPU <= 2 x the wall time
    bt = pd.read_csv(root / "published/real/iwtm/bench_targets.csv").set_index("target")
    sz = REAL_SIZES["scene15"]
    wall = float(bt.loc["sun_data_scene15", "seconds"])
    pts.append(Point("real sun_data job (2 x wall)", 2 * wall,
                     {"hog": sz["images"] * sz["desc"], "job": 1.0}))  # fmt: skip
    # scikit-learn's variational mixture (pareback): the real run's fit (its cumulative
    # seconds after the last VB iteration) and the real bench's iteration
    pb = pd.read_csv(root / "published/real/iwtm/pareback_scene13.csv")
    last = pb.iloc[-1]
    pts.append(Point("real pareback fit", float(last.seconds),
                     {"bgm": last.iteration * last.N * last.C * 128}))  # fmt: skip
    from latentlab.bench import bench_wide

    bw = bench_wide(root / "published/real/iwtm/bench.csv")
    for _, r in bw[bw.method == "sklearn BGM iteration"].iterrows():
        pts.append(Point("real bench BGM iteration", float(r.seconds),
                         {"bgm": float(r.N) * float(r.C) * float(r.D)}))  # fmt: skip
    for f in sorted((root / "published").glob("**/nonconjugate_vi/ctm_sweep_*.csv")):
        meta = json.loads(f.with_suffix(".meta.json").read_text())
        n_tr = meta["corpus"]["n_train_docs"]
        df = pd.read_csv(f)
        rung = f.parent.parent.name if "ladder" in f.parts else "real"
        for (K, method), g in df.groupby(["K", "method"]):
            it = float(g.em_iters.mean())
            pts.append(
                Point(
                    f"{rung} CTM {f.stem[10:]} {method} K={K}",
                    float(g.fit_time_s.mean()),
                    {f"ctm_{method}": it * n_tr * K, f"ctm0_{method}": it * n_tr},
                )
            )
    for f in sorted((root / "published").glob("**/hdp_pcvb0/runs/perplexity/*/*.json")):
        d = json.loads(f.read_text())
        tok = d["split"]["n_train_tokens"]
        for r in d["runs"]:
            pts.append(
                Point(
                    f"{f.parts[-5]} HDP {f.parent.name} {d['config']} T={r['T']}",
                    float(r["sec_per_iter"]),
                    {f"hdp_{d['method']}": tok * r["T"]},
                )
            )
    return pts


# the real run's data sizes (config/real.yaml iwtm): 30 dense-SIFT descriptors per image
# kept (max_desc), 20 used (desc_per_doc); the SUN protocol's 15-Scene stand-in, 15 classes
# x (5 + 50) images, 960.5 HOG blocks per image (the mean over the mirror's 4,485 images)
REAL_SIZES = {
    "scene13": {"images": 3859, "classes": 13, "desc": 30, "D": 128, "pool": 100},
    "scene8": {"images": 2688, "classes": 8, "desc": 30, "D": 128, "pool": 100},
    "scene15": {"images": 15 * 55, "classes": 15, "desc": 960.5, "D": 124, "train_per_class": 5},
}
# the smoke run's SYN-IWTM (config/config.yaml iwtm.syn_iwtm): 5 classes x 40 documents of
# 10 + Poisson(30) descriptors, 8-d, a training pool of 20 per class
SMOKE_SIZES = {"syn_iwtm": {"images": 200, "classes": 5, "desc": 40.0, "D": 8, "pool": 20}}


def _dishes(csv: Path, scene8: Path | None = None) -> dict:
    """(T, n_train) -> the dishes of a run's Gibbs fits (the largest over seeds)."""
    out = {}
    df = pd.read_csv(csv)
    for (T, n), g in df[df.model == "IWTM"].groupby(["T", "n_train"]):
        out[(int(T), int(n))] = float(g.K.max())
    if scene8 is not None and scene8.exists():
        for (T, n), g in pd.read_csv(scene8).groupby(["T", "n_train"]):
            out[(int(T), int(n))] = float(g.K.max())
    return out


def _steps(jobs: list[Job]) -> dict[str, dict[str, float]]:
    """The work of each whole step (``ch4_scene13`` ...): the sum of its part jobs'."""
    out: dict[str, dict[str, float]] = {}
    for j in jobs:
        step = j.name.split("/")[0]
        t = out.setdefault(step, {})
        for k, v in j.terms.items():
            if k != "job":
                t[k] = t.get(k, 0.0) + v
        t["job"] = 1.0
    return out


def _real_jobs(root: Path) -> list[Point]:
    """The published real run's iwtm jobs (one per step and dataset: bench_targets.csv,
    CPU seconds) against the work of their parts at the real settings."""
    real = _load_yaml(root / "config/real.yaml")["iwtm"]
    base = root / "published/real/iwtm"
    dishes = _dishes(base / "ch4_scene13.csv", base / "scene8_scene8.csv")
    work = _steps(iwtm_jobs(real, REAL_SIZES, dishes))
    bt = pd.read_csv(base / "bench_targets.csv").set_index("target")
    return [
        Point(f"real job {name}", float(bt.loc[name, "cpu_seconds"]), terms)
        for name, terms in work.items()
        if name in bt.index
    ]


def _measured(root: Path) -> list[Point]:
    """Job-level points measured here (``benchmarks/costs_measured.csv``, written by
    ``latentlab costs --measure RUN`` from a run's Snakemake benchmark files: each part job's
    CPU seconds with the work the model gives it at that run's settings)."""
    path = root / MEASURED
    if not path.exists():
        return []
    df = pd.read_csv(path)
    return [
        Point(f"{r.run} job {r.job}", float(r.seconds), json.loads(r.terms))
        for _, r in df.iterrows()
    ]


def measure(run: str, root: Path = ROOT) -> pd.DataFrame:
    """Rows of ``benchmarks/costs_measured.csv`` from ``benchmarks/<run>/iwtm/parts``: each
    part job's CPU seconds (Snakemake's ``cpu_time``; its wall ``s`` when that is 0) with
    the work of the part at the run's settings (smoke: config/config.yaml)."""
    cfg = _load_yaml(root / {"smoke": "config/config.yaml", "real": "config/real.yaml"}[run])
    sizes = {"smoke": SMOKE_SIZES, "real": REAL_SIZES}[run]
    res = root / "results" / run / "iwtm"
    ds = next(iter(sizes)) if run == "smoke" else "scene13"
    dishes = _dishes(res / f"ch4_{ds}.csv", next(iter(res.glob("scene8_*.csv")), None))
    jobs = {j.name: j for j in iwtm_jobs(cfg["iwtm"], sizes, dishes)}
    rows = []
    for tsv in sorted((root / "benchmarks" / run / "iwtm" / "parts").glob("*/*.tsv")):
        name = f"{tsv.parent.name}/{tsv.stem}"
        if name not in jobs:
            continue
        b = pd.read_csv(tsv, sep="\t")
        sec = float(b.cpu_time.iloc[0]) if float(b.cpu_time.iloc[0]) > 0 else float(b.s.iloc[0])
        rows.append(
            dict(
                run=run,
                job=name,
                seconds=round(sec, 3),
                max_rss_mb=float(b.max_rss.iloc[0]),
                predicted_mb=round(memory_mb(jobs[name]), 1),
                terms=json.dumps(jobs[name].terms, sort_keys=True),
            )
        )
    if not rows:
        raise DataError(root / "benchmarks" / run, "no iwtm part benchmark files")
    return pd.DataFrame(rows)


def points(root: Path = ROOT) -> list[Point]:
    """Every measured point the rates are fitted to. Not the published real run's job
    totals (:func:`_real_jobs`, shown apart): that run took 2-4x the CPU of the ladder's
    real rung for the same work (config/ladder.yaml, the iwtm estimates) and its jobs
    compiled their numba kernels, a constant the paper's hours do not see."""
    return _published(root) + _measured(root)


def fit(pts: list[Point]) -> dict[str, float]:
    """Rates (seconds per unit of work) minimising sum_i log(prediction_i / measured_i)^2,
    each rate positive (a least-squares fit in log space, started from the non-negative
    least squares of the relative error): a point twice too slow and one twice too fast
    weigh the same."""
    from scipy.optimize import least_squares, nnls

    terms = sorted({t for p in pts for t in p.terms if p.terms[t] > 0})
    A = np.array([[p.terms.get(t, 0.0) / p.seconds for t in terms] for p in pts])
    scale = A.max(0)
    scale[scale == 0] = 1.0
    x0, _ = nnls(A / scale, np.ones(len(pts)), maxiter=50 * len(terms))
    x0 = np.where(x0 > 0, x0, 1e-3 * max(x0.max(), 1e-12))
    W = A / scale

    def resid(theta):
        return np.log(W @ np.exp(theta))

    def jac(theta):
        v = W * np.exp(theta)
        return v / v.sum(1, keepdims=True)

    res = least_squares(resid, np.log(x0), jac=jac, method="trf", x_scale=1.0, max_nfev=2000)
    if not res.success:
        raise DataError("costs fit", f"did not converge: {res.message}")
    rates = dict(zip(terms, np.exp(res.x) / scale, strict=True))
    dead = sorted({t for p in pts for t in p.terms} - set(rates))
    if dead:
        raise DataError("costs fit", f"terms without a positive rate: {dead}")
    return rates


def predict(terms: dict[str, float], rates: dict[str, float]) -> float:
    missing = sorted(set(terms) - set(rates))
    if missing:
        raise DataError("costs", f"no measured rate for {missing}")
    return float(sum(rates[t] * w for t, w in terms.items()))


def errors(pts: list[Point], rates: dict[str, float]) -> pd.DataFrame:
    """Each point's measured and predicted seconds and their ratio."""
    rows = [
        dict(source=p.source, measured=p.seconds, predicted=predict(p.terms, rates)) for p in pts
    ]
    df = pd.DataFrame(rows)
    df["ratio"] = df.predicted / df.measured
    return df


def memory_mb(job: Job) -> float:
    """Predicted peak memory: start-up plus the main arrays times the temporaries' factor
    (or the job's own measured model, ``mem_mb``)."""
    if job.mem_mb is not None:
        return job.mem_mb
    return BASE_MB + MEM_FACTOR * job.mem_bytes / 2**20


def uci_bytes_per_nonzero(root: Path = ROOT) -> float:
    """Peak memory above the start-up per nonzero of a UCI prepare, the largest measured
    over parses of 1M nonzeros or more (benchmarks/costs_measured.csv, run uci_parse)."""
    df = pd.read_csv(root / MEASURED)
    df = df[df.run == "uci_parse"]
    nnz = np.array([json.loads(t)["uci"] for t in df.terms], float)
    big = nnz >= 1e6
    if not big.any():
        raise DataError(root / MEASURED, "no uci_parse row of 1M nonzeros or more")
    return float(((df.max_rss_mb.to_numpy()[big] - UCI_BASE_MB) * 2**20 / nnz[big]).max())


# ------------------------------------------------------------- nonconjugate_vi, hdp_pcvb0
CTM_METHODS = ("laplace", "delta", "bl")
HDP_METHODS = ("cvb", "cvb0", "pcvb", "pcvb0")
for _m in CTM_METHODS:
    TERMS[f"ctm_{_m}"] = f"training document x K x EM iteration of the CTM E-step, {_m}"
    TERMS[f"ctm0_{_m}"] = f"training document x EM iteration of the CTM E-step, {_m}"
for _m in HDP_METHODS:
    TERMS[f"hdp_{_m}"] = f"training token x T x iteration of HDP {_m} (AS and AA)"
del TERMS["ctm"], TERMS["hdp"]


def ctm_em_iters(root: Path = ROOT) -> pd.DataFrame:
    """EM iterations to ctm-c's convergence (1e-3) per (K, method): the largest over the
    seeds of the published K100_doc rung (AP, the document's K grid, every fit converged)."""
    f = root / "published/ladder/nonconjugate_vi/K100_doc/nonconjugate_vi/ctm_sweep_ap.csv"
    return pd.read_csv(f).groupby(["K", "method"]).em_iters.max()


def ncv_jobs(section: dict, train_docs: dict[str, int], root: Path = ROOT) -> list[Job]:
    """The CTM sweep job of every corpus (rules/nonconjugate_vi.smk): every (seed, K,
    method) fit to convergence, ``threads`` at a time; its work in CPU terms (the rule's
    runtime divides by the threads, :func:`table`)."""
    from latentlab.studies.shape import load_study

    c = load_study("nonconjugate_vi").settings("sweep", section).ctm
    iters = ctm_em_iters(root)
    out = []
    for spec in c.corpora:
        j = Job("nonconjugate_vi", "sweep", f"sweep_{spec.name}")
        n = train_docs[spec.name]
        for K in c.K_grid:
            for m in c.methods:
                it = iters.loc[(K, m)] if (K, m) in iters.index else iters.xs(m, level=1).max()
                n_it = c.seeds * n * min(int(it), c.em_max_iter)
                j.add(f"ctm_{m}", n_it * K).add(f"ctm0_{m}", n_it)
        V = 10000
        j.mem_bytes = n * 300 * 16.0 + max(c.K_grid) * V * 8 * 4.0
        out.append(j.add("job", 1))
    return out


def hdp_jobs(section: dict, tokens: dict[str, float], datasets=("kos", "news20")) -> list[Job]:
    """hdp_pcvb0's perplexity jobs (one per dataset and configuration, every T and run
    inside) with their work: runs x iterations x training tokens x T."""
    from latentlab.studies.shape import load_study

    st = load_study("hdp_pcvb0")
    s = st.settings("perplexity", section)
    out = []
    p = s.perplexity
    for ds in datasets:
        for cfg in s.configs:
            method = cfg.split("_")[0]
            j = Job("hdp_pcvb0", "perplexity", f"perplexity_{ds}_{cfg}")
            grid, _ = p.grid(ds, cfg)
            for T, runs in grid:
                j.add(f"hdp_{method}", runs * p.iterations * tokens[ds] * T)
            # the state: ~8.7 bytes per token and topic (the runs' state_bytes); the real
            # runs' peaks are 1.3-1.7x it (published/real/hdp_pcvb0/bench_targets.csv)
            j.mem_bytes = tokens[ds] * max(T for T, _ in grid) * 8.7
            out.append(j.add("job", 1))
    return out


# ------------------------------------------------------------------------------ the table
def _load_yaml(path: Path) -> dict:
    import yaml

    return yaml.safe_load(path.read_text()) or {}


def paper_jobs(root: Path = ROOT) -> list[Job]:
    """Every modelled job of ``config/paper.yaml`` and of the ladder's two cluster rungs
    (hdp_pcvb0 ``doc``: 20 Newsgroups at 10,000 documents; the others keep to paper.yaml)."""
    from latentlab.runconfig import merge

    paper = _load_yaml(root / "config/paper.yaml")
    sizes = {k: {**v, "pool": 100} for k, v in SIZES.items()}
    jobs = iwtm_jobs(paper["iwtm"], sizes)
    # AP: 1,797 training documents (published sweep); NYT stand-in: 9,238 x 0.8
    jobs += ncv_jobs(paper["nonconjugate_vi"], {"ap": 1797, "newsgroups": round(9238 * 0.8)}, root)
    ladder = _load_yaml(root / "config/ladder.yaml")["ladder"]["studies"]["hdp_pcvb0"]
    rung = next(r for r in ladder["rungs"] if r["name"] == "doc")
    real = _load_yaml(root / "config/real.yaml")
    hdp = merge(real["hdp_pcvb0"], rung["set"]["hdp_pcvb0"])
    # training tokens: KOS 374,163; 20 Newsgroups 369,522 at 2,000 documents, x 5 at 10,000
    # (published/ladder/hdp_pcvb0/*/runs/perplexity/*/*.json, split.n_train_tokens)
    for j in hdp_jobs(hdp, {"kos": 374163, "news20": 5 * 369522}):
        j.key = "ladder_doc.perplexity"
        jobs.append(j)
    # prepare_uci_pubmed (the scvb0 pubmed_doc rung and config/paper.yaml): 483,450,157
    # nonzeros (the data registry's note)
    nnz = 483_450_157
    jobs.append(Job("data", "prepare.uci_pubmed", "prepare_uci_pubmed", {"uci": nnz, "job": 1},
                    mem_mb=UCI_BASE_MB + uci_bytes_per_nonzero(root) * nnz / 2**20))  # fmt: skip
    return jobs


# jobs spread over the paper run's threads (config/paper.yaml threads: 8)
THREADS = {("nonconjugate_vi", "sweep"): 8, ("iwtm", "data"): 8, ("iwtm", "sun_data"): 8}


def _round_up(x: float, step: float) -> float:
    return step * math.ceil(x / step - 1e-9)


def table(rates: dict[str, float], jobs: list[Job], margin: float = MARGIN) -> pd.DataFrame:
    """Per (study, resource key): jobs, the largest predicted runtime (h) and memory (GB),
    and the declared values, the rules' ``runtime`` (minutes; prediction x ``margin``
    rounded up to 15 minutes) and ``mem_mb`` (prediction x :data:`MEM_MARGIN` rounded up
    to 1 GB)."""
    rows = {}
    for j in jobs:
        sec = predict(j.terms, rates)
        th = THREADS.get((j.study, j.key), 1)
        if th > 1:  # fits spread over the job's threads; no job shorter than its longest fit
            sec = sec / th
        r = rows.setdefault(
            (j.study, j.key),
            dict(study=j.study, key=j.key, jobs=0, hours=0.0, mem_gb=0.0, largest=""),
        )
        r["jobs"] += 1
        if sec / 3600 > r["hours"]:
            r["hours"], r["largest"] = sec / 3600, j.name
        # a process pool holds a start-up per worker
        mem = memory_mb(j) + (th - 1) * BASE_MB * (j.mem_mb is None)
        r["mem_gb"] = max(r["mem_gb"], mem / GB)
    df = pd.DataFrame(list(rows.values()))
    df["margin"] = margin
    df["mem_margin"] = MEM_MARGIN
    df["runtime"] = [max(MIN_RUNTIME, int(_round_up(h * margin * 60, 15))) for h in df.hours]
    df["mem_mb"] = [max(MIN_MEM_MB, int(_round_up(g * MEM_MARGIN, 1) * 1024)) for g in df.mem_gb]
    df["hours"] = df.hours.round(3)
    df["mem_gb"] = df.mem_gb.round(3)
    cols = ["study", "key", "jobs", "hours", "mem_gb", "margin", "mem_margin", "runtime", "mem_mb"]
    return df[[*cols, "largest"]]


def declared(path: str | Path, study: str, key: str) -> tuple[int, int] | None:
    """(mem_mb, runtime minutes) the table declares for ``study``'s resource ``key``, or
    None when it has no such row (rules/common.smk ``cost_resources``)."""
    df = _table_cache(str(path))
    hit = df[(df.study == study) & (df.key == key)]
    if hit.empty:
        return None
    return int(hit.mem_mb.iloc[0]), int(hit.runtime.iloc[0])


_TABLES: dict[str, pd.DataFrame] = {}


def _table_cache(path: str) -> pd.DataFrame:
    if path not in _TABLES:  # (one read per workflow run)
        p = Path(path)
        if not p.exists():
            raise ConfigError(
                "costs", f"{p}: no such cost table (python -m latentlab costs --write)"
            )
        df = pd.read_csv(p, comment="#")
        need = {"study", "key", "runtime", "mem_mb"}
        if not need <= set(df.columns):
            raise DataError(p, f"lacks columns {sorted(need - set(df.columns))}")
        _TABLES[path] = df
    return _TABLES[path]


def report(root: Path = ROOT) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    """(rates, each point's error, the table)."""
    pts = points(root)
    rates = fit(pts)
    return rates, errors(pts, rates), table(rates, paper_jobs(root))


def fit_error(err: pd.DataFrame) -> dict:
    """The fit's error over the points of MIN_SECONDS or more: their number, the range of
    predicted / measured and its geometric standard deviation."""
    big = err[err.measured >= MIN_SECONDS]
    lr = np.log(big.ratio)
    return {"points": len(big), "low": float(big.ratio.min()), "high": float(big.ratio.max()),
            "gsd": float(np.exp(lr.std()))}  # fmt: skip


def header(err: pd.DataFrame, rg: pd.DataFrame) -> str:
    """The table's comment lines: what it is, the fit's error, the rungs' error."""
    e = fit_error(err)
    return (
        "# The cost model of the heavy jobs (latentlab.costs; python -m latentlab costs "
        "--write): per resource key the largest job's predicted hours and mem_gb, and the "
        "declared runtime (minutes) and mem_mb = prediction x margin (memory: x mem_margin), "
        "read by the rules when the run's config names this table (config/paper.yaml: "
        "costs). docs/cluster.md\n"
        f"# fit error: {e['points']} measured fits and jobs of {MIN_SECONDS:g} s or more "
        f"predicted within x{e['low']:.2f} .. x{e['high']:.2f} (geometric sd "
        f"{e['gsd']:.2f})\n"
        f"# ladder rungs ({len(rg)}: iwtm, nonconjugate_vi, hdp_pcvb0) predicted within "
        f"x{rg.ratio.min():.2f} .. x{rg.ratio.max():.2f} of their measured CPU seconds\n"
    )


def _cli(args) -> int:
    root = Path(args.root)
    if args.measure:
        df = measure(args.measure, root)
        out = root / MEASURED
        old = pd.read_csv(out) if out.exists() else df.iloc[:0]
        df = pd.concat([old[old.run != args.measure], df], ignore_index=True)
        df.to_csv(out, index=False)
        print(f"wrote {out}: {len(df)} jobs")
    rates, err, tab = report(root)
    worst = err.iloc[(np.log(err.ratio).abs()).argsort()[::-1]]
    print(f"{len(err)} measured points, {len(rates)} terms; margin {MARGIN:g}")
    for t, v in sorted(rates.items()):
        print(f"  {t:<12} {v:.4g} s per unit  ({TERMS[t]})")
    lo, hi = float(err.ratio.min()), float(err.ratio.max())
    print(f"predicted / measured: {lo:.2f} .. {hi:.2f}; the worst:")
    for _, r in worst.head(args.worst).iterrows():
        print(f"  {r.ratio:6.2f}  {r.source}: {r.measured:.1f} s measured, {r.predicted:.1f} s")
    pd.set_option("display.width", 200)
    rg = rungs(rates, root)
    print("ladder rungs (CPU seconds of their jobs):")
    print(rg.round(2).to_string(index=False))
    print(tab.to_string(index=False))
    if args.write:
        out = root / TABLE
        out.write_text(header(err, rg) + tab.to_csv(index=False))
        print(f"wrote {out}")
    return 0


def register(subparsers) -> None:
    """``latentlab costs [--write]``: the cost model's fit and table."""
    p = subparsers.add_parser("costs", help="the cost model of the heavy jobs (config/costs.csv)")
    p.add_argument("--root", default=str(ROOT), help="repository root")
    p.add_argument("--write", action="store_true", help=f"write {TABLE}")
    p.add_argument("--worst", type=int, default=10, help="points with the largest error shown")
    p.add_argument(
        "--measure",
        choices=["smoke", "real"],
        help=f"first add RUN's iwtm part jobs (benchmarks/RUN/iwtm/parts) to {MEASURED}",
    )
    p.set_defaults(func=_cli)


# ---------------------------------------------------------------------------- validation
def _rung_iwtm(root: Path, rung: str, rates: dict[str, float]) -> float:
    """Predicted CPU seconds of the iwtm ladder rung ``rung``'s jobs (its targets ch4, ch5
    and scene8 on the real scene13 / scene8 sets, their two data jobs and the claims)."""
    from latentlab.runconfig import merge

    real = _load_yaml(root / "config/real.yaml")["iwtm"]
    lad = _load_yaml(root / "config/ladder.yaml")["ladder"]["studies"]["iwtm"]
    rs = next(r for r in lad["rungs"] if r["name"] == rung)
    sec = merge(real, rs["set"].get("iwtm", {}))
    # the settings the rung was measured at, where its ch5 step recorded them: the real
    # config may have moved since (issue 38 gave the real run 3 seeds; the rung ran 1)
    meta = root / f"published/ladder/iwtm/{rung}/iwtm/ch5_scene13.meta.json"
    if meta.is_file():
        sec = merge(sec, json.loads(meta.read_text())["settings"])
    keep = sec.get("scene", {}).get("max_desc") or 1e9
    raw = {"scene13": 162.2, "scene8": 144.0} if sec["scene"].get("size") else {
        "scene13": 624.8, "scene8": 625.0}  # fmt: skip
    sizes = {
        k: {"images": n, "classes": c, "desc": min(raw[k], keep), "raw": raw[k], "D": 128,
            "pool": 100}
        for k, n, c in (("scene13", 3859, 13), ("scene8", 2688, 8))
    }  # fmt: skip
    base = root / (
        "published/real/iwtm" if rung == "real" else f"published/ladder/iwtm/{rung}/iwtm"
    )
    if rung == "real":
        base = root / "published/ladder/iwtm/real/iwtm"
        base = base if (base / "ch4_scene13.csv").exists() else root / "published/real/iwtm"
    dishes = _dishes(base / "ch4_scene13.csv", base / "scene8_scene8.csv")
    jobs = iwtm_jobs(sec, sizes, dishes)
    steps = ("ch4_scene13", "ch5_scene13", "scene8_scene8", "data_scene13", "data_scene8")
    work = _steps([j for j in jobs if j.name.split("/")[0] in steps])
    return sum(predict(t, rates) for t in work.values()) + rates["job"]  # + the claims job


def _rung_ncv(root: Path, rung: str, rates: dict[str, float]) -> float:
    """Predicted CPU seconds of a nonconjugate_vi rung: its AP sweep's fits as recorded
    (EM iterations) and the claims job."""
    f = root / f"published/ladder/nonconjugate_vi/{rung}/nonconjugate_vi/ctm_sweep_ap.csv"
    if rung == "real":
        f = root / "published/real/nonconjugate_vi/ctm_sweep_ap.csv"
    n_tr = json.loads(f.with_suffix(".meta.json").read_text())["corpus"]["n_train_docs"]
    df = pd.read_csv(f)
    cpu = sum(
        (rates[f"ctm_{r.method}"] * r.K + rates[f"ctm0_{r.method}"]) * n_tr * r.em_iters
        for _, r in df.iterrows()
    )
    return cpu + 2 * rates["job"]


def _rung_hdp(root: Path, rung: str, rates: dict[str, float]) -> float:
    """Predicted CPU seconds of a hdp_pcvb0 rung: its 16 perplexity runs as recorded, the
    two prepare jobs and the claims."""
    base = root / f"published/ladder/hdp_pcvb0/{rung}/hdp_pcvb0/runs/perplexity"
    cpu = 0.0
    for f in sorted(base.glob("*/*.json")):
        d = json.loads(f.read_text())
        tok = d["split"]["n_train_tokens"]
        for r in d["runs"]:
            cpu += rates[f"hdp_{d['method']}"] * tok * r["T"] * d["iterations"]
    return cpu + 19 * rates["job"]


RUNGS = {
    "iwtm": (["real", "d60", "d60_g100_C4000"], _rung_iwtm),
    "nonconjugate_vi": (["converged", "K50_seed1", "K100_doc"], _rung_ncv),
    "hdp_pcvb0": (["kos_Tdoc", "kos_T100_runs5", "kos_doc"], _rung_hdp),
}


def rungs(rates: dict[str, float], root: Path = ROOT) -> pd.DataFrame:
    """The published ladder rungs the model covers: measured CPU seconds of the rung's
    jobs (bench_targets.csv) against the prediction."""
    rows = []
    for study, (names, fn) in RUNGS.items():
        bt = pd.read_csv(root / f"published/ladder/{study}/bench_targets.csv").set_index("rung")
        for rung in names:
            rows.append(dict(study=study, rung=rung, measured=float(bt.loc[rung, "cpu_seconds"]),
                             predicted=fn(root, rung, rates)))  # fmt: skip
    df = pd.DataFrame(rows)
    df["ratio"] = df.predicted / df.measured
    return df
