"""iwtm computation steps: data (SYN-IWTM or 15-Scene subsets with dense SIFT), ch4
(Gibbs IWTM vs supervised LDA+BOW, Table 4.1) and ch5 (CAVI IWTM vs LDA+KMEANS vs
LDA+GDPMM, decoupled SVM vs generative classification)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.data.featureset import SCENE8, SCENE13, FeatureSet
from latentlab.data.splits import pool_split, pool_test, pool_train
from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.gdpmm import GdpmmSettings, IWTMGdpmm
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.models.iwtm.slda import SupervisedLDA
from latentlab.outputs import write_csv, write_json
from latentlab.studies.shape import derive_seed

from . import pipeline as P
from .study import STUDY, DataSettings, ExpSettings, Scene8Settings

SUBSETS = {"scene13": SCENE13, "scene8": SCENE8}


# ------------------------------------------------------------------------------ data
def _sift_one(args):
    from latentlab.data.parsers.scene15 import dense_sift, load_image

    path, size, step, patch = args
    if size is None:
        from PIL import Image

        with Image.open(path) as im:
            if im.mode not in ("L", "RGB"):
                raise DataError(path, f"unexpected image mode {im.mode}")
            g = np.asarray(im.convert("L"), dtype=np.float32) / 255.0
    else:
        g = load_image(Path(path), size)
    try:
        return dense_sift(g, step, patch)
    except DataError as e:
        raise DataError(path, e.problem) from e


def scene_features(folder: Path, subset: str, cfg, threads: int, seed: int, log=print):
    """Dense SIFT of every image of the subset (parallel over images)."""
    from multiprocessing import Pool

    from latentlab.data.parsers.scene15 import read_manifest

    entries = read_manifest(folder / "MANIFEST.sha256")
    classes = SUBSETS[subset]
    rels = sorted(rel for _, rel in entries if Path(rel).parent.name in classes)
    if cfg.max_images_per_class is not None:
        rng = np.random.default_rng(seed)
        keep = []
        for c in classes:
            rc = [r for r in rels if Path(r).parent.name == c]
            keep += [rc[i] for i in sorted(rng.permutation(len(rc))[: cfg.max_images_per_class])]
        rels = sorted(keep)
    for r in rels:
        if not (folder / r).exists():
            raise DataError(folder / r, "image listed in the manifest is missing")
    t0 = time.perf_counter()
    jobs = [(str(folder / r), cfg.size, cfg.step, cfg.patch) for r in rels]
    with Pool(max(1, threads)) as pool:
        res = pool.map(_sift_one, jobs, chunksize=16)
    sec = time.perf_counter() - t0
    rng = np.random.default_rng(derive_seed(seed, r=1))
    descs, counts = [], []
    for d, _ in res:
        if cfg.max_desc is not None and len(d) > cfg.max_desc:
            d = d[np.sort(rng.choice(len(d), cfg.max_desc, replace=False))]
        descs.append(d)
        counts.append(len(d))
    labels = np.array([classes.index(Path(r).parent.name) for r in rels])
    fs = FeatureSet(
        np.concatenate([[0], np.cumsum(counts)]),
        np.concatenate(descs),
        labels,
        classes,
        names=rels,
        metadata={
            "descriptor": {"type": "dense_sift_opencv", **asdict(cfg)},
            "sift_seconds": sec,
            "images": len(rels),
            "raw_descriptors_per_image": float(np.mean([len(d) for d, _ in res])),
        },
    )
    log(f"dense SIFT: {len(rels)} images in {sec:.1f} s")
    return fs


@STUDY.run("data", settings=DataSettings)
def data(ctx):
    """Build one dataset: SYN-IWTM (synthetic) or a 15-Scene subset with dense SIFT."""
    name = ctx.wildcards.get("dataset") or ctx.output("npz").stem
    s = ctx.settings
    if name == "syn_iwtm":
        from latentlab.data.synthetic import syn_iwtm

        cfg = asdict(s.syn_iwtm)
        off = cfg.pop("seed_offset")
        fs, truth = syn_iwtm(cfg, ctx.seed(off))
        kind = "synthetic"
    elif name in SUBSETS:
        # the images are the ones the fetched manifest lists, relative to its folder
        folder = Path(ctx.input("manifest")).parent
        fs = scene_features(folder, name, s.scene, ctx.threads, ctx.seed(3))
        truth = {}
        kind = "real"
    else:  # (iwtm.datasets names one of these: the settings' Literal, at start-up)
        raise ConfigError("iwtm.datasets", f"unknown dataset {name!r}")
    rank = pool_split(
        fs.labels,
        s.split.train_pool,
        ctx.seed(s.split.seed_offset),
        key="iwtm.data.split.train_pool",
    )
    X = fs.descriptors.astype(np.float64)
    pool_rows = np.concatenate(
        [np.arange(fs.indptr[d], fs.indptr[d + 1]) for d in np.where(rank >= 0)[0]]
    )
    std = {"applied": False}
    if name in SUBSETS and s.scene.standardise:
        mu, sd = X[pool_rows].mean(0), X[pool_rows].std(0) + 1e-6
        X = (X - mu) / sd
        std = {"applied": True, "stats_from": "training pool"}
    np.savez_compressed(
        ctx.output("npz"),
        X=X.astype(np.float32),
        indptr=fs.indptr,
        labels=fs.labels,
        rank=rank,
        **{f"truth_{k}": v for k, v in truth.items()},
    )
    meta = {
        "dataset": name,
        "data_kind": kind,
        "class_names": fs.class_names,
        "n_docs": fs.n_docs,
        "n_desc": int(len(X)),
        "dim": int(X.shape[1]),
        "test_size": int((rank < 0).sum()),
        "standardise": std,
        "metadata": fs.metadata,
        **ctx.meta(),
    }
    ctx.output("meta").write_text(json.dumps(meta, indent=1, default=str))


def _load(path, desc_per_doc=None, seed=0):
    """The dataset's arrays (dict) and metadata. ``desc_per_doc``: keep a seeded random
    subset of at most that many descriptors per document (a recorded reduction)."""
    z = dict(np.load(path))
    meta = json.loads(Path(str(path).replace(".npz", ".json")).read_text())
    if desc_per_doc is not None:  # (>= 1: the settings, at start-up)
        rng = np.random.default_rng(seed)
        ip = z["indptr"]
        keep, lens = [], []
        for d in range(len(ip) - 1):
            n = ip[d + 1] - ip[d]
            k = min(n, desc_per_doc)
            keep.append(ip[d] + np.sort(rng.choice(n, k, replace=False)))
            lens.append(k)
        z["X"] = z["X"][np.concatenate(keep)]
        z["indptr"] = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    return z, meta


def _sub(z, docs):
    ip = z["indptr"]
    rows = np.concatenate([np.arange(ip[d], ip[d + 1]) for d in docs])
    lens = ip[docs + 1] - ip[docs]
    return np.ascontiguousarray(z["X"][rows], dtype=np.float64), np.concatenate(
        [[0], np.cumsum(lens)]
    )


def _fs(z, docs):
    X, ip = _sub(z, docs)
    return FeatureSet(ip, X, z["labels"][docs], ["c"] * (int(z["labels"].max()) + 1))


# ------------------------------------------------------------------------------ ch. 4
@STUDY.run("ch4", settings=ExpSettings)
def ch4(ctx):
    """Fig 4.1/4.2/4.3, Table 4.1: Gibbs IWTM vs supervised LDA+BOW over the K sweep."""
    s = ctx.settings
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    g = s.gibbs
    rank, labels = z["rank"], z["labels"]
    test = np.where(rank < 0)[0]
    Y = len(meta["class_names"])
    rows, conf = [], {}
    for T in g.T:
        for n in s.n_train:
            tr = pool_train(rank, n)
            docs = np.concatenate([tr, test])
            X, ip = _sub(z, docs)
            y = np.concatenate([labels[tr], np.full(len(test), -1)])
            for r in range(g.seeds):
                seed = ctx.seed(g.seed_offset, r)
                m, pred, t_train = _gibbs_iwtm(g, T, X, ip, y, Y, len(tr), seed)
                acc = float((pred == labels[test]).mean())
                vocab = m.n_dishes()
                rows.append(
                    dict(
                        model="IWTM",
                        T=T,
                        n_train=n,
                        K=vocab,
                        seed=r,
                        acc=acc,
                        seconds=t_train,
                        sweeps=g.n_iter,
                    )
                )
                conf[("IWTM", T, n, r)] = (acc, P.confusion(labels[test], pred, Y))
                # Table 4.1: LDA on IWTM's own clusters (hard: highest predictive f_k)
                lp, live = m.dish_predictive(X)
                words = lp.argmax(1)
                rows.append(
                    _slda_row(
                        s,
                        "LDA_on_IWTM_clusters",
                        words,
                        len(live),
                        ip,
                        y,
                        tr,
                        labels,
                        test,
                        T,
                        n,
                        r,
                        seed,
                        Y,
                    )[0]
                )
                for K in s.slda.K:
                    km = P.kmeans_codebook(
                        X[: ip[len(tr)]], K, s.slda.kmeans_iter, s.slda.kmeans_points, seed
                    )
                    row, pr = _slda_row(
                        s, "sLDA_BOW", km.predict(X), K, ip, y, tr, labels, test, T, n, r, seed, Y
                    )
                    rows.append(row)
                    conf[("sLDA_BOW", T, n, r, K)] = (row["acc"], P.confusion(labels[test], pr, Y))
    df = pd.DataFrame(rows)
    df.insert(0, "dataset", meta["dataset"])
    df.to_csv(ctx.output("csv"), index=False)
    best = {}
    for key, (acc, M) in conf.items():
        if key[0] not in best or acc > best[key[0]][0]:
            best[key[0]] = (acc, M, key)
    np.savez(
        ctx.output("confusion"),
        **{k: v[1] for k, v in best.items()},
        keys=json.dumps({k: [str(x) for x in v[2]] for k, v in best.items()}),
        class_names=np.array(meta["class_names"]),
    )


@STUDY.run("scene8", settings=Scene8Settings)
def scene8(ctx):
    """Fig 4.3: Gibbs IWTM on 8-scene at T = 100; accuracy and the confusion matrix."""
    s, e, g = ctx.settings, ctx.settings.scene8, ctx.settings.gibbs
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    if not 1 <= e.n_train <= int(rank.max()) + 1:
        raise ConfigError("iwtm.scene8.n_train", f"{e.n_train} is not in 1..the training "
                          f"pool ({int(rank.max()) + 1} per class)")  # fmt: skip
    tr = pool_train(rank, e.n_train)
    test = pool_test(rank, labels, e.test_per_class, ctx.seed(e.seed_offset + 50))
    docs = np.concatenate([tr, test])
    X, ip = _sub(z, docs)
    y = np.concatenate([labels[tr], np.full(len(test), -1)])
    Y = len(meta["class_names"])
    rows, conf = [], []
    for r in range(e.seeds):
        m, pred, sec = _gibbs_iwtm(g, e.T, X, ip, y, Y, len(tr), ctx.seed(e.seed_offset, r))
        rows.append(dict(dataset=meta["dataset"], data_kind=meta["data_kind"], model="IWTM",
                         T=e.T, n_train=e.n_train, n_test=len(test), seed=r,
                         acc=float((pred == labels[test]).mean()), K=m.n_dishes(),
                         seconds=sec, sweeps=g.n_iter, reduction=e.reduction))  # fmt: skip
        conf.append(P.confusion(labels[test], pred, Y))
    pd.DataFrame(rows).to_csv(ctx.output("csv"), index=False)
    np.savez(ctx.output("confusion"), confusion=np.mean(conf, axis=0),
             class_names=np.array(meta["class_names"]))  # fmt: skip


def _gibbs_iwtm(g, T, X, ip, y, Y, n_tr, seed):
    """Supervised Gibbs IWTM (Eqs 4.1-4.17) trained on the first ``n_tr`` documents of
    (X, ip) with labels ``y`` (-1 for the test documents after them); the test documents
    are folded in with ``g.test_iter`` sweeps. Returns (model, test predictions, seconds)."""
    prior = NGPrior.from_data(X[: ip[n_tr]], g.beta0, g.shape_a)
    t0 = time.perf_counter()
    m = IWTMGibbs(T, prior, g.alpha0, g.gamma, g.alpha_init, g.dish_cap, seed=seed)
    m.fit(X, ip, y, Y, GibbsSchedule(g.n_iter, g.burn_in, g.hyper_every, g.test_iter))
    sec = time.perf_counter() - t0
    nd = m.fold_in(np.arange(n_tr, len(ip) - 1), g.test_iter)
    return m, m.predict(nd), sec


def _slda_row(s, model, words, W, ip, y, tr, labels, test, T, n, r, seed, Y):
    g = s.gibbs
    t0 = time.perf_counter()
    m = SupervisedLDA(T, W, beta=s.slda.beta_init, alpha_init=g.alpha_init, seed=seed)
    m.fit_tokens(words, ip, y, Y, GibbsSchedule(g.n_iter, g.burn_in, g.hyper_every, g.test_iter))
    sec = time.perf_counter() - t0
    pred, _ = m.predict(np.arange(len(tr), len(tr) + len(test)), g.test_iter)
    acc = float((pred == labels[test]).mean())
    return dict(
        model=model, T=T, n_train=n, K=W, seed=r, acc=acc, seconds=sec, sweeps=g.n_iter
    ), pred


# ------------------------------------------------------------------------------ ch. 5
@STUDY.run("ch5", settings=ExpSettings)
def ch5(ctx):
    """Fig 5.1-5.3, Sec 5.6.1: CAVI IWTM + HIK SVM vs LDA+KMEANS (K sweep) vs LDA+GDPMM."""
    s = ctx.settings
    c = s.cavi
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    test = np.where(rank < 0)[0]
    Xte, ipte = _sub(z, test)
    rows, extra = [], {}
    for n in s.n_train:
        tr = pool_train(rank, n)
        Xtr, iptr = _sub(z, tr)
        fs_tr, fs_te = _fs(z, tr), _fs(z, test)
        for r in range(c.seeds):
            seed = ctx.seed(c.seed_offset, r)
            prior = NGPrior.from_data(Xtr, c.beta0, c.chi1_per_dim * Xtr.shape[1])
            # LDA+KMEANS: codebooks shared by the T values (timed once per K)
            books = {}
            for K in s.kmeans_lda.K:
                t0 = time.perf_counter()
                km = P.kmeans_codebook(
                    Xtr, K, s.kmeans_lda.kmeans_iter, s.kmeans_lda.kmeans_points, seed
                )
                books[K] = (km, time.perf_counter() - t0)
            # LDA+GDPMM
            t0 = time.perf_counter()
            wtr, wte, gd_trace = _gdpmm_words(s, prior, Xtr, Xte, seed)
            t_gd = time.perf_counter() - t0
            gd_vocab = int(len(np.unique(wtr)))
            for T in c.T:
                cs = CaviSettings(
                    T=T,
                    C=c.C,
                    K=c.K,
                    alpha0=c.alpha0,
                    gamma=c.gamma,
                    c_top=c.c_top,
                    map_top=c.map_top,
                    mapping_mode=c.mapping_mode,
                    max_local=c.max_local,
                    local_tol=c.local_tol,
                    el_gemm=c.el_gemm,
                )
                t0 = time.perf_counter()
                m = IWTMCavi(cs, prior, seed=seed).fit(Xtr, iptr, c.n_iter)
                t_iwtm = time.perf_counter() - t0
                Fte = m.transform(Xte, ipte)
                pred, Cc = P.hik_svm(
                    m.train_theta(), labels[tr], Fte, s.svm.C_grid, s.svm.folds, seed
                )
                B = m.beta_dense()
                used = m.n_c >= 1
                rows.append(
                    dict(
                        model="IWTM_CAVI",
                        T=T,
                        n_train=n,
                        K=m.n_used(),
                        seed=r,
                        acc=float((pred == labels[test]).mean()),
                        seconds=t_iwtm,
                        svm_C=Cc,
                        el_gemm_s=m.timing.get("el_gemm", 0.0),
                        local_s=m.timing.get("local", 0.0),
                        onehot_frac=_onehot(B, used),
                        clusters_trace=json.dumps([h["clusters_used"] for h in m.history]),
                    )
                )
                if (n, T, r) == (s.n_train[-1], c.T[0], 0):
                    extra["beta"] = B
                    extra["n_k"] = m.last_stats.n_k
                for K, (km, t_km) in books.items():
                    Mtr = P.bow(fs_tr, km.predict(Xtr), K)
                    Mte = P.bow(fs_te, km.predict(Xte), K)
                    Ftr, Fte2, t_lda = P.lda_features(Mtr, Mte, T, s.kmeans_lda.n_iter, seed)
                    pred, Cc = P.hik_svm(Ftr, labels[tr], Fte2, s.svm.C_grid, s.svm.folds, seed)
                    rows.append(
                        dict(
                            model="LDA_KMEANS",
                            T=T,
                            n_train=n,
                            K=K,
                            seed=r,
                            acc=float((pred == labels[test]).mean()),
                            seconds=t_km + t_lda,
                            kmeans_s=t_km,
                            lda_s=t_lda,
                            svm_C=Cc,
                        )
                    )
                Mtr, Mte = P.bow(fs_tr, wtr, s.gdpmm.C), P.bow(fs_te, wte, s.gdpmm.C)
                Ftr, Fte2, t_lda = P.lda_features(Mtr, Mte, T, s.kmeans_lda.n_iter, seed)
                pred, Cc = P.hik_svm(Ftr, labels[tr], Fte2, s.svm.C_grid, s.svm.folds, seed)
                rows.append(
                    dict(
                        model="LDA_GDPMM",
                        T=T,
                        n_train=n,
                        K=gd_vocab,
                        seed=r,
                        acc=float((pred == labels[test]).mean()),
                        seconds=t_gd + t_lda,
                        svm_C=Cc,
                        clusters_trace=gd_trace,
                        gdpmm_engine=s.gdpmm.engine,
                    )
                )
    df = pd.DataFrame(rows)
    df.insert(0, "dataset", meta["dataset"])
    write_csv(df, ctx.output("csv"))
    # the settings (gdpmm.engine among them) beside the CSV
    write_json(ctx.meta(), ctx.output("csv").with_suffix(".meta.json"))
    np.savez(
        ctx.output("beta"),
        beta=extra.get("beta", np.zeros((0, 0))),
        n_k=extra.get("n_k", np.zeros(0)),
    )


def _gdpmm_words(s, prior, Xtr, Xte, seed):
    """LDA+GDPMM's words (Sec. 5.6.1): fit the Gaussian DP mixture on at most
    ``gdpmm.max_points`` seeded training descriptors, quantise the training and test
    descriptors. ``engine: iwtm``: IWTM's machinery with one DP and IWTM's base measure
    ``prior``, ``max_iter`` CAVI iterations, Student-t quantiser; ``sklearn``: the old
    BayesianGaussianMixture (its own priors). Returns (train words, test words, clusters in
    use per iteration as JSON; "" for sklearn)."""
    g = s.gdpmm
    rng = np.random.default_rng(seed)
    Xg = Xtr
    if g.max_points is not None and len(Xtr) > g.max_points:
        Xg = Xtr[rng.choice(len(Xtr), g.max_points, replace=False)]
    if g.engine == "sklearn":
        from sklearn.mixture import BayesianGaussianMixture

        bgm = BayesianGaussianMixture(
            n_components=g.C,
            covariance_type="spherical",
            weight_concentration_prior_type="dirichlet_process",
            weight_concentration_prior=g.gamma,
            max_iter=g.max_iter,
            random_state=seed,
        ).fit(Xg)
        return bgm.predict(Xtr), bgm.predict(Xte), ""
    m = IWTMGdpmm(GdpmmSettings(C=g.C, gamma=g.gamma), prior, seed=seed).fit(Xg, g.max_iter)
    trace = json.dumps([h["clusters_used"] for h in m.history])
    return m.predict(Xtr), m.predict(Xte), trace


def _onehot(B, used):
    """Fraction of the atoms mapped to a used cluster whose b~ row has max > 0.99 (E30)."""
    rows = B[B[:, used].sum(1) > 0]
    return float((rows.max(1) > 0.99).mean()) if len(rows) else float("nan")
