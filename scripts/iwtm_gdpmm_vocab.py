"""How many clusters LDA+GDPMM's mixture uses on the real 13-scene descriptors (issue 22,
case 7): scikit-learn's BayesianGaussianMixture (the old baseline) against the Gaussian DP
mixture built from the IWTM machinery (models/iwtm/gdpmm.py), and optionally the LDA+SVM
accuracy of each, at the settings of config/real.yaml's iwtm section.

The features are built as the study's ``data`` step builds them (dense SIFT at 128 px, 30
per image, pool split, z-scored with the pool's statistics, then 20 per image), cached in
``--features``. One row per (n_train, engine, points).

    LATENTLAB_MIRROR=/work/shared/data PYTHONPATH=src nice -n 19 python \\
        scripts/iwtm_gdpmm_vocab.py --features /tmp/scene13.npz --n-train 25 100 \\
        --out published/real/reversals/iwtm_gdpmm_vocab.csv
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import time
from pathlib import Path

import numpy as np

from latentlab.models.iwtm.gdpmm import GdpmmSettings, IWTMGdpmm
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.studies.iwtm import pipeline as P
from latentlab.studies.iwtm.runs import _fs, _load, _sub, scene_features
from latentlab.studies.iwtm.study import SceneCfg
from latentlab.studies.shape import derive_seed

BASE = 20261122  # config/real.yaml base_seed
SCENE = SceneCfg(step=10, patch=16, size=128, max_desc=30, standardise=True)  # real.yaml
C, GAMMA, ITERS, POINTS = 400, 10.0, 50, 5000  # real.yaml gdpmm section
BETA0, CHI1_PER_DIM, T, SEED_OFFSET = 1.0, 32.0, 25, 200  # real.yaml cavi section


def build(path: Path):
    """The data step for scene13 (runs.data without the workflow context)."""
    mirror = Path(os.environ.get("LATENTLAB_MIRROR", "/work/shared/data"))
    fs = scene_features(mirror / "scene15", "scene13", SCENE, 1, derive_seed(BASE, 3))
    rank = P.pool_split(fs.labels, 100, derive_seed(BASE, 10))
    X = fs.descriptors.astype(np.float64)
    rows = np.concatenate(
        [np.arange(fs.indptr[d], fs.indptr[d + 1]) for d in np.where(rank >= 0)[0]]
    )
    mu, sd = X[rows].mean(0), X[rows].std(0) + 1e-6
    X = (X - mu) / sd
    np.savez_compressed(path, X=X.astype(np.float32), indptr=fs.indptr, labels=fs.labels, rank=rank)
    path.with_suffix(".json").write_text(
        json.dumps({"dataset": "scene13", "class_names": fs.class_names})
    )


def build_train_only(path: Path, n_max: int):
    """Cheaper: the same procedure on the first ``n_max`` pool images per class only (the
    split is the study's; the 30-per-image subsample draws its own seeds and the z-scoring
    uses these images' statistics, not the whole pool's). No test images (no accuracy)."""
    from latentlab.data.parsers.scene15 import read_manifest
    from latentlab.studies.iwtm.runs import SUBSETS, _sift_one

    folder = Path(os.environ.get("LATENTLAB_MIRROR", "/work/shared/data")) / "scene15"
    classes = SUBSETS["scene13"]
    rels = sorted(
        rel
        for _, rel in read_manifest(folder / "MANIFEST.sha256")
        if Path(rel).parent.name in classes
    )
    labels = np.array([classes.index(Path(r).parent.name) for r in rels])
    rank = P.pool_split(labels, 100, derive_seed(BASE, 10))
    keep = np.where((rank >= 0) & (rank < n_max))[0]
    rng = np.random.default_rng(derive_seed(BASE, 3) + 1)
    descs = []
    for d in keep:
        x, _ = _sift_one((str(folder / rels[d]), SCENE.size, SCENE.step, SCENE.patch))
        if len(x) > SCENE.max_desc:
            x = x[np.sort(rng.choice(len(x), SCENE.max_desc, replace=False))]
        descs.append(x)
    X = np.concatenate(descs).astype(np.float64)
    X = (X - X.mean(0)) / (X.std(0) + 1e-6)
    ip = np.concatenate([[0], np.cumsum([len(x) for x in descs])])
    np.savez_compressed(
        path, X=X.astype(np.float32), indptr=ip, labels=labels[keep], rank=rank[keep]
    )
    path.with_suffix(".json").write_text(json.dumps({"dataset": "scene13", "class_names": classes}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", type=Path, required=True)
    ap.add_argument("--n-train", type=int, nargs="+", default=[25])
    ap.add_argument("--engines", nargs="+", default=["sklearn", "iwtm", "iwtm_all"])
    ap.add_argument("--accuracy", action="store_true", help="also LDA (T=25) + HIK SVM")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument(
        "--train-only", type=int, default=None, help="SIFT only the first N pool images per class"
    )
    a = ap.parse_args()
    if not a.features.exists():
        t0 = time.perf_counter()
        build(a.features) if a.train_only is None else build_train_only(a.features, a.train_only)
        print(f"features built in {time.perf_counter() - t0:.0f} s", flush=True)
    z, _ = _load(a.features, 20, derive_seed(BASE, 7))
    rank, labels = z["rank"], z["labels"]
    test = np.where(rank < 0)[0]
    Xte = _sub(z, test)[0] if len(test) else np.zeros((0, z["X"].shape[1]))
    out = []
    for n in a.n_train:
        tr = P.train_ids(rank, n)
        Xtr, _ = _sub(z, tr)
        seed = derive_seed(BASE, SEED_OFFSET)
        prior = NGPrior.from_data(Xtr, BETA0, CHI1_PER_DIM * Xtr.shape[1])
        for eng in a.engines:
            rng = np.random.default_rng(seed)
            Xg = Xtr
            if eng != "iwtm_all" and len(Xtr) > POINTS:
                Xg = Xtr[rng.choice(len(Xtr), POINTS, replace=False)]
            t0, c0 = time.perf_counter(), time.process_time()
            trace = ""
            if eng == "sklearn":
                from sklearn.mixture import BayesianGaussianMixture

                m = BayesianGaussianMixture(n_components=C, covariance_type="spherical",
                                            weight_concentration_prior_type="dirichlet_process",
                                            weight_concentration_prior=GAMMA, max_iter=ITERS,
                                            random_state=seed).fit(Xg)  # fmt: skip
                used = int((m.weights_ * len(Xg) >= 1).sum())
            else:
                m = IWTMGdpmm(GdpmmSettings(C=C, gamma=GAMMA), prior, seed=seed, threads=1)
                m.fit(Xg, ITERS)
                used = m.n_used()
                trace = json.dumps([h["clusters_used"] for h in m.history])
            fit_s, fit_cpu = time.perf_counter() - t0, time.process_time() - c0
            wtr = m.predict(Xtr)
            wte = m.predict(Xte) if len(Xte) else np.zeros(0, np.int64)
            row = dict(n_train=n, engine=eng, fit_points=len(Xg), train_desc=len(Xtr), C=C,
                       clusters_used=used, vocab_train=len(np.unique(wtr)),
                       fit_seconds=round(fit_s, 2), fit_cpu_seconds=round(fit_cpu, 2),
                       acc="", clusters_trace=trace)  # fmt: skip
            if a.accuracy:
                Mtr, Mte = P.bow(_fs(z, tr), wtr, C), P.bow(_fs(z, test), wte, C)
                Ftr, Fte, _ = P.lda_features(Mtr, Mte, T, 50, seed)
                pred, _ = P.hik_svm(Ftr, labels[tr], Fte, [0.1, 1.0, 10.0, 100.0, 1000.0], 5, seed)
                row["acc"] = round(float((pred == labels[test]).mean()), 4)
            print({k: v for k, v in row.items() if k != "clusters_trace"}, flush=True)
            out.append(row)
            a.out.parent.mkdir(parents=True, exist_ok=True)
            with open(a.out, "w", newline="") as f:  # after every row (partial runs count)
                w = csv.DictWriter(f, fieldnames=list(out[0]))
                w.writeheader()
                w.writerows(out)


if __name__ == "__main__":
    main()
