"""iwtm computation steps: data (SYN-IWTM or 15-Scene subsets with dense SIFT), ch4
(Gibbs IWTM vs supervised LDA+BOW, Table 4.1) and ch5 (CAVI IWTM vs LDA+KMEANS vs
LDA+GDPMM, decoupled SVM vs generative classification)."""

from __future__ import annotations

import json
import pickle
import re
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.checkpoint import Checkpoint
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

from . import parts
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
_CH4_PART = re.compile(r"T(\d+)_n(\d+)_r(\d+)_(fit|iwtm|slda)")


def _resuming(ck) -> None:
    """Say (in the job's log) where a saved checkpoint of this job resumes."""
    st = ck.load()
    if st is not None:
        step = st.get("it", st.get("j"))
        print(f"resuming from checkpoint {ck.path.name}: {st['phase']} step {step}", flush=True)


def _save_fit(path, m, sec) -> None:
    """A Gibbs fit's final state (and its seconds) as a part: the fold-in's input."""
    blob = pickle.dumps({"model": m.state(), "seconds": sec}, protocol=pickle.HIGHEST_PROTOCOL)
    parts.write(path, [], state=np.frombuffer(blob, np.uint8))


def _load_fit(path, X):
    """(the fitted sampler on ``X``, the fit's seconds) from :func:`_save_fit`'s part."""
    _, arrays = parts.read(path)
    st = pickle.loads(arrays["state"].tobytes())
    return IWTMGibbs.__new__(IWTMGibbs).restore(st["model"], X), st["seconds"]


@STUDY.run("ch4_part", settings=ExpSettings)
def ch4_part(ctx):
    """One part of ch4 (Fig 4.1/4.2, Table 4.1) at (T, n_train, seed): the Gibbs IWTM fit
    (``fit``, checkpointed: latentlab.checkpoint; its output is the sampler's state), the
    test fold-in from that state (checkpointed) with LDA on IWTM's own clusters (hard:
    highest predictive f_k, chunked) (``iwtm``), or the sLDA+BOW K sweep (``slda``)."""
    s = ctx.settings
    part = parts.part_name(ctx, parts.jobs("ch4", s))
    T, n, r, piece = _CH4_PART.fullmatch(part).groups()
    T, n, r = int(T), int(n), int(r)
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    g = s.gibbs
    rank, labels = z["rank"], z["labels"]
    test = np.where(rank < 0)[0]
    Y = len(meta["class_names"])
    tr = pool_train(rank, n)
    X, ip = _sub(z, np.concatenate([tr, test]))
    y = np.concatenate([labels[tr], np.full(len(test), -1)])
    seed = ctx.seed(g.seed_offset, r)
    rows, conf = [], []
    ck = Checkpoint(ctx.output("part"), ctx.unit_key())
    _resuming(ck)
    if piece == "fit":
        m, sec = _gibbs_fit(g, T, X, ip, y, Y, len(tr), seed, ck)
        _save_fit(ctx.output("part"), m, sec)
        ck.clear()
        return
    if piece == "iwtm":
        m, t_train = _load_fit(ctx.input("fit"), X)
        pred = _gibbs_predict(m, g, len(tr), ip, ck)
        acc = float((pred == labels[test]).mean())
        rows.append(dict(model="IWTM", T=T, n_train=n, K=m.n_dishes(), seed=r, acc=acc,
                         seconds=t_train, sweeps=g.n_iter))  # fmt: skip
        conf.append((["IWTM", T, n, r], acc, P.confusion(labels[test], pred, Y)))
        # Table 4.1: LDA on IWTM's own clusters (hard: highest predictive f_k)
        words, W = m.dish_argmax(X)
        rows.append(_slda_row(s, "LDA_on_IWTM_clusters", words, W, ip, y, tr, labels, test,
                              T, n, r, seed, Y)[0])  # fmt: skip
    else:
        for K in s.slda.K:
            km = P.kmeans_codebook(X[: ip[len(tr)]], K, s.slda.kmeans_iter,
                                   s.slda.kmeans_points, seed)  # fmt: skip
            row, pr = _slda_row(s, "sLDA_BOW", km.predict(X), K, ip, y, tr, labels, test, T, n,
                                r, seed, Y)  # fmt: skip
            rows.append(row)
            conf.append((["sLDA_BOW", T, n, r, K], row["acc"], P.confusion(labels[test], pr, Y)))
    parts.write(ctx.output("part"), rows, conf=np.array(json.dumps([[k, a] for k, a, _ in conf])),
                conf_M=np.array([M for _, _, M in conf]).reshape(len(conf), Y, Y))  # fmt: skip
    ck.clear()


def _conf(arrays) -> list:
    """A part's confusion entries: (key, accuracy, matrix)."""
    keys = json.loads(str(arrays["conf"]))
    return [(tuple(k), a, M) for (k, a), M in zip(keys, arrays["conf_M"], strict=True)]


@STUDY.run("ch4", settings=ExpSettings)
def ch4(ctx):
    """Fig 4.1/4.2/4.3, Table 4.1: Gibbs IWTM vs supervised LDA+BOW over the K sweep; the
    parts (``ch4_part``) collected in order into the CSV and the best confusion matrices."""
    s = ctx.settings
    names = parts.ch4(s)
    files = parts.inputs(ctx, names)
    meta = ctx.json("meta")
    rows, conf = [], {}
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        for key, acc, M in _conf(arrays):
            conf[key] = (acc, M)
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


def _scene8_data(ctx):
    s, e = ctx.settings, ctx.settings.scene8
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    if not 1 <= e.n_train <= int(rank.max()) + 1:
        raise ConfigError("iwtm.scene8.n_train", f"{e.n_train} is not in 1..the training "
                          f"pool ({int(rank.max()) + 1} per class)")  # fmt: skip
    tr = pool_train(rank, e.n_train)
    test = pool_test(rank, labels, e.test_per_class, ctx.seed(e.seed_offset + 50))
    X, ip = _sub(z, np.concatenate([tr, test]))
    y = np.concatenate([labels[tr], np.full(len(test), -1)])
    return meta, labels, tr, test, X, ip, y


@STUDY.run("scene8_part", settings=Scene8Settings)
def scene8_part(ctx):
    """One seed of Fig 4.3, Gibbs IWTM on 8-scene at T = 100: the fit (``r0_fit``, its
    output the sampler's state) or the test fold-in from it (``r0``); both checkpointed."""
    s, e, g = ctx.settings, ctx.settings.scene8, ctx.settings.gibbs
    part = parts.part_name(ctx, parts.jobs("scene8", s))
    r = int(part[1:].removesuffix("_fit"))
    meta, labels, tr, test, X, ip, y = _scene8_data(ctx)
    Y = len(meta["class_names"])
    ck = Checkpoint(ctx.output("part"), ctx.unit_key())
    _resuming(ck)
    if part.endswith("_fit"):
        m, sec = _gibbs_fit(g, e.T, X, ip, y, Y, len(tr), ctx.seed(e.seed_offset, r), ck)
        _save_fit(ctx.output("part"), m, sec)
        ck.clear()
        return
    m, sec = _load_fit(ctx.input("fit"), X)
    pred = _gibbs_predict(m, g, len(tr), ip, ck)
    row = dict(dataset=meta["dataset"], data_kind=meta["data_kind"], model="IWTM", T=e.T,
               n_train=e.n_train, n_test=len(test), seed=r,
               acc=float((pred == labels[test]).mean()), K=m.n_dishes(), seconds=sec,
               sweeps=g.n_iter, reduction=e.reduction)  # fmt: skip
    parts.write(ctx.output("part"), [row], confusion=P.confusion(labels[test], pred, Y))
    ck.clear()


@STUDY.run("scene8", settings=Scene8Settings)
def scene8(ctx):
    """Fig 4.3: Gibbs IWTM on 8-scene at T = 100; accuracy and the confusion matrix (the
    mean over the seeds' parts)."""
    names = parts.scene8(ctx.settings)
    files = parts.inputs(ctx, names)
    rows, conf = [], []
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        conf.append(arrays["confusion"])
    meta = ctx.json("meta")
    pd.DataFrame(rows).to_csv(ctx.output("csv"), index=False)
    np.savez(ctx.output("confusion"), confusion=np.mean(conf, axis=0),
             class_names=np.array(meta["class_names"]))  # fmt: skip


def _gibbs_fit(g, T, X, ip, y, Y, n_tr, seed, checkpoint=None):
    """Supervised Gibbs IWTM (Eqs 4.1-4.17) trained on the first ``n_tr`` documents of
    (X, ip) with labels ``y`` (-1 for the test documents after them). ``checkpoint``: the
    fit saves its state to it and continues from it. Returns (model, seconds)."""
    prior = NGPrior.from_data(X[: ip[n_tr]], g.beta0, g.shape_a)
    t0 = time.perf_counter()
    m = IWTMGibbs(T, prior, g.alpha0, g.gamma, g.alpha_init, g.dish_cap, seed=seed)
    m.fit(X, ip, y, Y, GibbsSchedule(g.n_iter, g.burn_in, g.hyper_every, g.test_iter),
          checkpoint=checkpoint)  # fmt: skip
    return m, time.perf_counter() - t0


def _gibbs_predict(m, g, n_tr, ip, checkpoint=None):
    """The test documents (after the first ``n_tr``) folded in with ``g.test_iter`` sweeps
    (checkpointed) and classified (Eq. 4.16)."""
    nd = m.fold_in(np.arange(n_tr, len(ip) - 1), g.test_iter, checkpoint=checkpoint)
    return m.predict(nd)


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


def _cavi_settings(c, T) -> CaviSettings:
    return CaviSettings(T=T, C=c.C, K=c.K, alpha0=c.alpha0, gamma=c.gamma, c_top=c.c_top,
                        map_top=c.map_top, mapping_mode=c.mapping_mode, max_local=c.max_local,
                        local_tol=c.local_tol, el_gemm=c.el_gemm)  # fmt: skip


@STUDY.run("ch5_part", settings=ExpSettings)
def ch5_part(ctx):
    """One (n_train, seed) of ch5 (Fig 5.1-5.3, Sec 5.6.1): CAVI IWTM + HIK SVM vs
    LDA+KMEANS (K sweep) vs LDA+GDPMM at every T. Checkpointed by stage (codebooks, the
    mixture, each T): a killed job continues after the last stage it finished."""
    s = ctx.settings
    c = s.cavi
    n, r = (
        int(v) for v in re.fullmatch(r"n(\d+)_r(\d+)", parts.part_name(ctx, parts.ch5(s))).groups()
    )
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    test = np.where(rank < 0)[0]
    Xte, ipte = _sub(z, test)
    tr = pool_train(rank, n)
    Xtr, iptr = _sub(z, tr)
    fs_tr, fs_te = _fs(z, tr), _fs(z, test)
    seed = ctx.seed(c.seed_offset, r)
    prior = NGPrior.from_data(Xtr, c.beta0, c.chi1_per_dim * Xtr.shape[1])
    ck = Checkpoint(ctx.output("part"), ctx.unit_key())
    st = ck.load() or {"rows": [], "extra": {}, "T_done": 0}
    if "books" not in st:
        # LDA+KMEANS: codebooks shared by the T values (timed once per K)
        books = {}
        for K in s.kmeans_lda.K:
            t0 = time.perf_counter()
            km = P.kmeans_codebook(Xtr, K, s.kmeans_lda.kmeans_iter, s.kmeans_lda.kmeans_points,
                                   seed)  # fmt: skip
            books[K] = (km, time.perf_counter() - t0)
        st["books"] = books
        ck.save(st)
    if "gdpmm" not in st:
        t0 = time.perf_counter()
        wtr, wte, gd_trace = _gdpmm_words(s, prior, Xtr, Xte, seed)
        st["gdpmm"] = (wtr, wte, gd_trace, time.perf_counter() - t0)
        ck.save(st)
    books = st["books"]
    wtr, wte, gd_trace, t_gd = st["gdpmm"]
    gd_vocab = int(len(np.unique(wtr)))
    for T in c.T[st["T_done"] :]:
        rows = st["rows"]
        t0 = time.perf_counter()
        m = IWTMCavi(_cavi_settings(c, T), prior, seed=seed).fit(Xtr, iptr, c.n_iter)
        t_iwtm = time.perf_counter() - t0
        Fte = m.transform(Xte, ipte)
        pred, Cc = P.hik_svm(m.train_theta(), labels[tr], Fte, s.svm.C_grid, s.svm.folds, seed)
        B = m.beta_dense()
        used = m.n_c >= 1
        trace = json.dumps([h["clusters_used"] for h in m.history])
        rows.append(dict(model="IWTM_CAVI", T=T, n_train=n, K=m.n_used(), seed=r,
                         acc=float((pred == labels[test]).mean()), seconds=t_iwtm, svm_C=Cc,
                         el_gemm_s=m.timing.get("el_gemm", 0.0),
                         local_s=m.timing.get("local", 0.0), onehot_frac=_onehot(B, used),
                         clusters_trace=trace))  # fmt: skip
        if (n, T, r) == (s.n_train[-1], c.T[0], 0):
            st["extra"] = {"beta": B, "n_k": m.last_stats.n_k}
        for K, (km, t_km) in books.items():
            Mtr = P.bow(fs_tr, km.predict(Xtr), K)
            Mte = P.bow(fs_te, km.predict(Xte), K)
            Ftr, Fte2, t_lda = P.lda_features(Mtr, Mte, T, s.kmeans_lda.n_iter, seed)
            pred, Cc = P.hik_svm(Ftr, labels[tr], Fte2, s.svm.C_grid, s.svm.folds, seed)
            rows.append(dict(model="LDA_KMEANS", T=T, n_train=n, K=K, seed=r,
                             acc=float((pred == labels[test]).mean()), seconds=t_km + t_lda,
                             kmeans_s=t_km, lda_s=t_lda, svm_C=Cc))  # fmt: skip
        Mtr, Mte = P.bow(fs_tr, wtr, s.gdpmm.C), P.bow(fs_te, wte, s.gdpmm.C)
        Ftr, Fte2, t_lda = P.lda_features(Mtr, Mte, T, s.kmeans_lda.n_iter, seed)
        pred, Cc = P.hik_svm(Ftr, labels[tr], Fte2, s.svm.C_grid, s.svm.folds, seed)
        rows.append(dict(model="LDA_GDPMM", T=T, n_train=n, K=gd_vocab, seed=r,
                         acc=float((pred == labels[test]).mean()), seconds=t_gd + t_lda,
                         svm_C=Cc, clusters_trace=gd_trace,
                         gdpmm_engine=s.gdpmm.engine))  # fmt: skip
        st["T_done"] += 1
        ck.save(st)
    parts.write(ctx.output("part"), st["rows"], **st["extra"])
    ck.clear()


@STUDY.run("ch5", settings=ExpSettings)
def ch5(ctx):
    """Fig 5.1-5.3, Sec 5.6.1: CAVI IWTM + HIK SVM vs LDA+KMEANS (K sweep) vs LDA+GDPMM;
    the parts (``ch5_part``) collected in order; beta and n_k of the first T's fit at the
    largest n_train, seed 0."""
    s = ctx.settings
    names = parts.ch5(s)
    files = parts.inputs(ctx, names)
    meta = ctx.json("meta")
    rows, extra = [], {}
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        if name == f"n{s.n_train[-1]}_r0":
            extra = arrays
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
