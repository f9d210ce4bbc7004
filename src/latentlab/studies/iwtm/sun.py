"""The SUN protocol (Sec. 6.5, Fig 6.3): HOG2x2-like descriptors, a K = 300 visual-word
3-level spatial-pyramid HIK SVM (Xiao et al. 2010) versus the same pyramid over IWTM's
MAP topics (Eq. 6.44; T = 100, SVI rho = 0.1, |S| = N_doc/10), 5 training images per class;
per-class accuracies with the document's win/tie/loss rule (better by >= 1 % absolute).

Datasets: ``sun397`` (the public release and its official partitions: the data
registry's entry, fetched by rule fetch_sun397; paper config), ``scene15`` (the 15-Scene
images of the mirror as the stand-in; real config) and ``syn_iwtm`` (SYN-IWTM documents
laid out on a square grid; smoke). Fragmentation of the label maps (Fig 6.3, claim E20):
on SYN-IWTM against the true topic of every descriptor (NMI, distinct labels per
true-topic region of a document); on images, the spatial coherence of the maps (share of
4-neighbour patch pairs with the same label, minus its expectation under a shuffle of the
image's labels).
"""

from __future__ import annotations

import contextlib
import json
import pickle
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.checkpoint import Checkpoint
from latentlab.data.splits import per_class_picks
from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.models.iwtm.svi import IWTMSvi, SviSettings
from latentlab.outputs import _jsonable

from . import parts
from . import pipeline as P
from .study import STUDY, SunDataSettings, SunSettings


# ----------------------------------------------------------------------- pyramid + SVM
def pyramid(words, pos, indptr, W, levels=3) -> list[np.ndarray]:
    """Spatial-pyramid histograms (Lazebnik et al. 2006): for level l = 0..levels-1 an
    image is cut into 2^l x 2^l cells and every cell holds a W-bin histogram of its words;
    each level's histogram (n_doc x W 4^l) is divided by the image's descriptor count.
    ``pos``: positions in [0, 1)^2 (x, y)."""
    words = np.asarray(words, np.int64)
    if words.size and (words.min() < 0 or words.max() >= W):
        raise DataError("iwtm sun words", f"word ids outside [0, {W})")
    pos = np.asarray(pos, np.float64)
    if pos.size and (pos.min() < 0 or pos.max() >= 1):
        raise DataError("iwtm sun positions", "positions must lie in [0, 1)")
    n_doc = len(indptr) - 1
    lens = np.diff(indptr)
    doc = np.repeat(np.arange(n_doc), lens)
    out = []
    for lev in range(levels):
        g = 2**lev
        cell = (pos[:, 1] * g).astype(np.int64) * g + (pos[:, 0] * g).astype(np.int64)
        H = np.zeros((n_doc, g * g * W))
        np.add.at(H, (doc, cell * W + words), 1.0)
        out.append(H / np.maximum(lens, 1)[:, None])
    return out


def spm_kernels(Htr, Hte) -> tuple[np.ndarray, np.ndarray]:
    """Per-level HIK, each level's matrices divided by the mean of its training kernel,
    summed with equal weights (Sec. 6.5.1). Returns (train x train, test x train)."""
    Ktr, Kte = 0.0, 0.0
    for a, b in zip(Htr, Hte, strict=True):
        ka, kb = P.hik(a, a), P.hik(b, a)
        m = ka.mean()
        if m <= 0:
            raise DataError("iwtm sun pyramid", "an all-zero pyramid level")
        Ktr, Kte = Ktr + ka / m, Kte + kb / m
    return Ktr, Kte


def win_tie_loss(acc_a, acc_b, margin=0.01) -> tuple[int, int, int]:
    """Classes where a beats b by >= margin, ties (|diff| < margin), and b beats a."""
    d = np.asarray(acc_a) - np.asarray(acc_b)
    return (
        int((d >= margin - 1e-12).sum()),
        int((np.abs(d) < margin - 1e-12).sum()),
        int((d <= -margin + 1e-12).sum()),
    )


# ------------------------------------------------------------------- map fragmentation
def coherence_lift(labels, grid, indptr) -> float:
    """Mean over images of (share of 4-neighbour patch pairs with equal labels) minus its
    expectation when the image's labels are shuffled (sum_l n_l (n_l - 1) / (n (n - 1)))."""
    out = []
    for d in range(len(indptr) - 1):
        a, b = indptr[d], indptr[d + 1]
        if b - a < 2:
            continue
        g, lab = grid[a:b], labels[a:b]
        where = {(int(r), int(c)): int(v) for (r, c), v in zip(g, lab, strict=True)}
        same = [where[(r, c)] == where.get((r + dr, c + dc)) for (r, c) in where
                for dr, dc in ((0, 1), (1, 0)) if (r + dr, c + dc) in where]  # fmt: skip
        if not same:
            continue
        n = b - a
        cnt = np.bincount(lab)
        out.append(np.mean(same) - (cnt * (cnt - 1)).sum() / (n * (n - 1)))
    return float(np.mean(out)) if out else float("nan")


def region_fragmentation(labels, truth, indptr) -> float:
    """Mean number of distinct labels per (document, true topic) region."""
    doc = np.repeat(np.arange(len(indptr) - 1), np.diff(indptr))
    df = pd.DataFrame({"r": doc * (int(truth.max()) + 1) + truth, "l": labels})
    return float(df.groupby("r").l.nunique().mean())


# ------------------------------------------------------------------- images -> HOG
def _hog_one(args):
    from PIL import Image, UnidentifiedImageError

    from latentlab.data.parsers.scene15 import dense_hog

    path, max_dim, cell, step, bins, thumb = args
    try:
        with Image.open(path) as im:
            im = im.convert("L")
            r = min(1.0, max_dim / max(im.size))  # downsize only (Xiao et al.)
            if r < 1:
                im = im.resize((round(im.size[0] * r), round(im.size[1] * r)), Image.BILINEAR)
            g = np.asarray(im, dtype=np.float32) / 255.0
    except (UnidentifiedImageError, OSError, ValueError) as e:
        raise DataError(path, f"unreadable image: {e}") from e
    d, pos = dense_hog(g, cell, step, bins)
    if not len(d):
        raise DataError(path, f"image {g.shape} gives no {2 * cell}px HOG block")
    H, W = (g.shape[0] // cell) * cell, (g.shape[1] // cell) * cell
    grid = np.column_stack([pos[:, 1] // step, pos[:, 0] // step]).astype(np.int64)
    npos = np.column_stack([pos[:, 0] / W, pos[:, 1] / H]).clip(0, 1 - 1e-9)
    th = g[:: max(1, g.shape[0] // thumb), :: max(1, g.shape[0] // thumb)] if thumb else None
    return d, npos, grid, th


@STUDY.run("sun_data", settings=SunDataSettings)
def sun_data(ctx):
    """HOG2x2-like descriptors of the SUN protocol's images (5 train + 50 test per class)."""
    from multiprocessing import Pool

    s = ctx.settings.sun_data
    name = ctx.wildcards.get("sunset") or ctx.output("npz").stem
    rng = np.random.default_rng(ctx.seed(s.seed_offset))
    if name == "scene15":
        from latentlab.data.parsers.scene15 import read_manifest

        # the images the fetched manifest lists, relative to its folder
        folder = Path(ctx.input("manifest")).parent
        entries = [(Path(r).parent.name, r) for _, r in read_manifest(folder / "MANIFEST.sha256")]
        classes, pick = per_class_picks(
            sorted(entries), s.train_per_class, s.test_per_class, rng, key="iwtm.sun_data"
        )
        kind = "substitute"
    elif name == "sun397":
        from latentlab.data.parsers.sun397 import read_partition

        # the fetched release (its manifest lists SUN397/ and Partitions/)
        root = Path(ctx.input("manifest")).parent
        folder = root / "SUN397"
        split = read_partition(root, s.partition)
        entries = [(c, r) for c, rs in split["train"].items() for r in rs]
        classes, pick = per_class_picks(entries, s.train_per_class, s.test_per_class, rng,
                                        split["train"], split["test"],
                                        key="iwtm.sun_data")  # fmt: skip
        kind = "real"
    else:
        raise ConfigError("iwtm.sun.dataset", f"unknown image set {name!r}")
    show = set([i for i, (_, _, t) in enumerate(pick) if t == 0][: s.n_show])  # training
    jobs = [(str(folder / r), s.max_dim, s.cell, s.cell, s.bins, s.thumb if i in show else 0)
            for i, (_, r, _) in enumerate(pick)]  # fmt: skip
    t0 = time.perf_counter()
    out = Path(ctx.output("npz"))
    # the descriptors, positions and grid cells go image by image to raw files beside the
    # output and are then compressed into it from memory maps: SUN397's ~100M descriptors
    # (50 GB in float32) are never held, let alone twice (issue 39)
    with Pool(max(1, ctx.threads)) as pool, tempfile.TemporaryDirectory(dir=out.parent) as tmp:
        lens, thumbs, dt = [], {}, {}
        names = ("X", "pos", "grid")
        with contextlib.ExitStack() as stack:
            fs = {k: stack.enter_context(open(Path(tmp) / k, "wb")) for k in names}
            for i, res in enumerate(pool.imap(_hog_one, jobs, chunksize=8)):
                for k, a in zip(names, res[:3], strict=True):
                    if dt.setdefault(k, (a.dtype, a.shape[1])) != (a.dtype, a.shape[1]):
                        raise DataError(jobs[i][0], f"{k}: {a.dtype} x {a.shape[1]} differs")
                    fs[k].write(np.ascontiguousarray(a).tobytes())
                lens.append(len(res[0]))
                if res[3] is not None:
                    thumbs[f"thumb_{i}"] = res[3]
        n = int(np.sum(lens))
        arr = {k: np.memmap(Path(tmp) / k, dtype=dt[k][0], mode="r", shape=(n, dt[k][1]))
               for k in names}  # fmt: skip
        np.savez_compressed(
            out, X=arr["X"], indptr=np.concatenate([[0], np.cumsum(lens)]).astype(np.int64),
            labels=np.array([c for c, _, _ in pick]), split=np.array([t for _, _, t in pick]),
            pos=arr["pos"], grid=arr["grid"], **thumbs)  # fmt: skip
        del arr
    meta = {"dataset": name, "data_kind": kind, "class_names": classes, "n_images": len(pick),
            "descriptor": {"type": "dense_hog_2x2_l2hys", "dim": 4 * s.bins, "cell": s.cell,
                           "max_dim": s.max_dim}, "hog_seconds": time.perf_counter() - t0,
            "descriptors_per_image": float(np.mean(lens)), "images": [r for _, r, _ in pick],
            **ctx.meta()}  # fmt: skip
    ctx.output("meta").write_text(json.dumps(meta, indent=1, default=str))


# ------------------------------------------------------------------------- the protocol
def _syn_layout(z, meta, s, rng):
    """SYN-IWTM as a SUN-protocol set: per class the first train_per_class pool documents
    and test_per_class test documents, descriptors laid out row-major on a square grid."""
    rank, labels, ip = z["rank"], z["labels"], z["indptr"]
    docs, split = [], []
    for c in np.unique(labels):
        tr = np.where((labels == c) & (rank >= 0) & (rank < s.train_per_class))[0]
        te = np.where((labels == c) & (rank < 0))[0][: s.test_per_class]
        if len(tr) < s.train_per_class or len(te) < s.test_per_class:
            raise ConfigError("iwtm.sun.train_per_class", f"class {c} has too few documents")
        docs += list(tr) + list(te)
        split += [0] * len(tr) + [1] * len(te)
    docs = np.array(docs)
    rows = np.concatenate([np.arange(ip[d], ip[d + 1]) for d in docs])
    lens = ip[docs + 1] - ip[docs]
    grid, pos = [], []
    for n in lens:
        side = int(np.ceil(np.sqrt(n)))
        i = np.arange(n)
        grid.append(np.column_stack([i // side, i % side]))
        pos.append(np.column_stack([(i % side + 0.5) / side, (i // side + 0.5) / side]))
    out = {"X": z["X"][rows], "indptr": np.concatenate([[0], np.cumsum(lens)]),
           "labels": labels[docs], "split": np.array(split), "grid": np.concatenate(grid),
           "pos": np.concatenate(pos)}  # fmt: skip
    if "truth_z" in z:
        out["truth"] = z["truth_z"][rows]
    return out


def _subset(z, docs):
    ip = z["indptr"]
    rows = np.concatenate([np.arange(ip[d], ip[d + 1]) for d in docs])
    return rows, np.concatenate([[0], np.cumsum(ip[docs + 1] - ip[docs])])


# rows of descriptors handled at once by the sun step: the real and smoke sets fit in one
# block (the step then computes exactly what the whole-array code did); SUN397 (~100M
# descriptors) is read, quantised and mapped block by block (issue 39)
BLOCK = 1 << 22


class _Rows:
    """The descriptors ``X`` (N x D) of a SUN-protocol set read in consecutive blocks of
    ``BLOCK`` rows: from memory, or streamed from the ``X.npy`` member of an ``.npz``
    (compressed or not) without holding the whole array."""

    def __init__(self, X=None, path=None, name="X"):
        self.X, self.path, self.name = X, path, name
        if X is not None:
            self.shape, self.dtype = X.shape, X.dtype
        else:
            with self._open() as (_, shape, dtype):
                self.shape, self.dtype = shape, dtype

    @contextlib.contextmanager
    def _open(self):
        import zipfile

        fmt = np.lib.format
        with zipfile.ZipFile(self.path) as zf, zf.open(f"{self.name}.npy") as f:
            version = fmt.read_magic(f)
            read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read(f)
            if fortran or len(shape) != 2:
                raise DataError(self.path, f"{self.name}: expected a C-ordered 2-D array")
            yield f, shape, dtype

    def blocks(self, block=None):
        """(first row, rows) of every block, in order."""
        block = BLOCK if block is None else int(block)
        n, d = self.shape
        if self.X is not None:
            for a in range(0, n, block):
                yield a, self.X[a : a + block]
            return
        with self._open() as (f, _, dtype):
            for a in range(0, n, block):
                m = min(block, n - a)
                buf = f.read(m * d * dtype.itemsize)
                if len(buf) != m * d * dtype.itemsize:
                    raise DataError(self.path, f"{self.name}: truncated at row {a}")
                yield a, np.frombuffer(buf, dtype=dtype).reshape(m, d)

    def take(self, rows):
        """The rows ``rows`` (ascending) as one array, read block by block."""
        rows = np.asarray(rows, np.int64)
        if self.X is not None:
            return self.X[rows]
        out = np.empty((len(rows), self.shape[1]), self.dtype)
        for a, Xb in self.blocks():
            i, j = np.searchsorted(rows, [a, a + len(Xb)])
            out[i:j] = Xb[rows[i:j] - a]
        return out


def _sun_input(ctx, s):
    """(z: the set's arrays but X, the descriptors as :class:`_Rows`, meta, data kind,
    thumbnails' source)."""
    path = ctx.input("data")
    meta = json.loads(Path(str(path).replace(".npz", ".json")).read_text())
    with np.load(path) as npz:
        files = list(npz.files)
        if "rank" in files:  # SYN-IWTM (smoke): small, laid out in memory
            raw = {k: npz[k] for k in files}
            rng = np.random.default_rng(ctx.seed(s.seed_offset))
            z = _syn_layout(raw, meta, s, rng)
            return z, _Rows(X=z.pop("X")), meta, "synthetic"
        z = {k: npz[k] for k in files if k != "X" and not k.startswith("thumb_")}
    return z, _Rows(path=path), meta, meta["data_kind"]


def _sun_split(ctx, s):
    """The set, its descriptors and the train / test documents and rows."""
    z, src, meta, kind = _sun_input(ctx, s)
    tr, te = np.where(z["split"] == 0)[0], np.where(z["split"] == 1)[0]
    rtr, iptr = _subset(z, tr)
    rte, ipte = _subset(z, te)
    return z, src, meta, kind, tr, te, rtr, iptr, rte, ipte


def _svi_iterations(ctx, ck, m, Xs_tr, iptr, start, stop, spent):
    """SVI iterations ``start`` .. ``stop`` - 1 of ``m`` (from its checkpoint when one is
    saved), saving the state when due; returns (model, seconds spent in the fit)."""
    saved = ck.load()
    if saved is not None:
        m, start, spent = saved["model"], saved["done"], saved["seconds"]
    t0 = time.perf_counter() - spent

    def save(model, j, st):
        if ck.due():
            ck.save({"model": model, "done": start + j, "seconds": time.perf_counter() - t0})

    if stop - start > 0:
        m.fit(Xs_tr, iptr, stop - start, callback=save)
    return m, time.perf_counter() - t0


@STUDY.run("sun_part", settings=SunSettings)
def sun_part(ctx):
    """One seed of the SUN protocol: visual words (K-means K) vs IWTM MAP topics, both
    through the 3-level SPM HIK SVM. The SVI fit is checkpointed; the descriptors are
    quantised and mapped ``BLOCK`` rows at a time. With ``sun.fit_jobs`` or
    ``sun.map_jobs`` above 1 the seed is a chain of jobs (``r0_fit1`` .. : the codebook
    and the SVI iterations in equal shares, each continuing from the previous one's state;
    ``r0_map1`` ..: the words and MAP topics of a share of the images; ``r0``: the SVMs)."""
    from .incremental import cavi_settings  # (incremental imports runs: not for sun_data)

    s, c = ctx.settings.sun, ctx.settings.cavi
    part = parts.part_name(ctx, parts.jobs("sun", ctx.settings))
    r = int(part[1:].split("_")[0])
    z, src, meta, kind, tr, te, rtr, iptr, rte, ipte = _sun_split(ctx, s)
    N = src.shape[0]
    seed = ctx.seed(s.seed_offset, r)
    n_iter = max(1, round(s.passes / s.rho))
    ck = Checkpoint(ctx.output("part"), ctx.unit_key())
    kind_ = part.split("_")[1][:3] if "_" in part else "all"
    if kind_ == "map":
        st = _read_state(ctx.input("fit"))
        m_ = int(part.split("_")[1][3:])
        docs = np.array_split(np.arange(len(z["indptr"]) - 1), s.map_jobs)[m_ - 1]
        out = _map_share(st, src, z["indptr"], docs, z["split"])
        parts.write(ctx.output("part"), [], **out)
        return
    if kind_ in ("all", "fit"):
        k = int(part.split("_")[1][3:]) if kind_ == "fit" else 1
        Xtr = src.take(rtr).astype(np.float64)
        if k == 1:
            t0 = time.perf_counter()
            km = P.kmeans_codebook(Xtr, s.K, s.kmeans_iter, s.kmeans_points, seed)
            t_km = time.perf_counter() - t0
            # IWTM on z-scored descriptors (training statistics); MAP topic per patch (6.44)
            mu, sd = Xtr.mean(0), Xtr.std(0) + 1e-6
            Xs_tr = (Xtr - mu) / sd
            prior = NGPrior.from_data(Xs_tr, c.beta0, c.chi1_per_dim * src.shape[1])
            cs = cavi_settings(c, s.T, s.alpha0, s.gamma)
            st = {"km": km, "t_km": t_km, "mu": mu, "sd": sd, "seconds": 0.0, "done": 0,
                  "model": IWTMSvi(cs, prior, SviSettings(rho=s.rho), seed=seed)}  # fmt: skip
        else:
            st = _read_state(ctx.input("fit"))
            Xs_tr = (Xtr - st["mu"]) / st["sd"]
        del Xtr
        if kind_ == "fit":
            stop = round(n_iter * k / s.fit_jobs)
            m, spent = _svi_iterations(ctx, ck, st["model"], Xs_tr, iptr, st["done"], stop,
                                       st["seconds"])  # fmt: skip
            st.update(model=m, done=stop, seconds=spent)
            blob = pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL)
            parts.write(ctx.output("part"), [], state=np.frombuffer(blob, np.uint8))
            ck.clear()
            return
        # the whole seed in this job, as before the chain existed
        km, mu, sd = st["km"], st["mu"], st["sd"]
        t0 = time.perf_counter()
        vw = np.empty(N, np.int64)
        for a, Xb in src.blocks():
            vw[a : a + len(Xb)] = km.predict(Xb.astype(np.float64))
        t_vw = st["t_km"] + time.perf_counter() - t0
        m, spent = _svi_iterations(ctx, ck, st["model"], Xs_tr, iptr, 0, n_iter, 0.0)
        t0 = time.perf_counter() - spent
        topic = np.empty(N, np.int64)
        topic[rtr] = m.map_topics(Xs_tr, iptr)
        del Xs_tr
        _map_test(m, src, z["indptr"], te, rte, mu, sd, topic)
        t_iwtm = time.perf_counter() - t0
    else:  # the seed's SVMs from its chain's state and maps
        st = _read_state(ctx.input("fit"))
        m = st["model"]
        vw, topic = np.empty(N, np.int64), np.empty(N, np.int64)
        t_vw, t_iwtm = st["t_km"], st["seconds"]
        for path in ctx.input_list("maps"):
            _, a = parts.read(path)
            vw[a["at"]], topic[a["at"]] = a["vw"], a["topic"]
            t_vw, t_iwtm = t_vw + float(a["vw_s"]), t_iwtm + float(a["topic_s"])
    _sun_svms(ctx, r, seed, z, meta, kind, tr, te, rtr, iptr, rte, ipte, vw, topic, t_vw,
              t_iwtm, m.n_used())  # fmt: skip
    ck.clear()


def _read_state(path):
    _, arrays = parts.read(path)
    return pickle.loads(arrays["state"].tobytes())


def _map_share(st, src, indptr, docs, split):
    """Words and MAP topics of the rows of ``docs`` (consecutive documents) under a fit's
    state, read in one pass and mapped whole documents at a time, about ``BLOCK`` rows per
    call (the training documents of a call, then its test ones, as the one-job code):
    (their row numbers ``at``, vw, topic, the seconds of each)."""
    m, km, mu, sd = st["model"], st["km"], st["mu"], st["sd"]
    lo, hi = int(indptr[docs[0]]), int(indptr[docs[-1] + 1])
    vw, topic = np.empty(hi - lo, np.int64), np.empty(hi - lo, np.int64)
    ends = indptr[docs + 1]
    pend: list[np.ndarray] = []
    first, vw_s, topic_s = 0, 0.0, 0.0
    for a, Xb in src.blocks():
        b = a + len(Xb)
        if b <= lo or a >= hi:
            continue
        pend.append(Xb[max(lo - a, 0) : hi - a])
        done = int(np.searchsorted(ends, b, side="right"))
        if done > first and (sum(len(p) for p in pend) >= BLOCK or b >= hi):
            X = np.concatenate(pend)
            d = docs[first:done]
            r0, r1 = int(indptr[d[0]]) - lo, int(indptr[d[-1] + 1]) - lo
            n = r1 - r0
            t0 = time.perf_counter()
            vw[r0:r1] = km.predict(X[:n].astype(np.float64))
            vw_s += time.perf_counter() - t0
            t0 = time.perf_counter()
            for which in (0, 1):
                dd = d[split[d] == which]
                if not len(dd):
                    continue
                rows = np.concatenate([np.arange(indptr[i], indptr[i + 1]) for i in dd]) - lo
                ip = np.concatenate([[0], np.cumsum(indptr[dd + 1] - indptr[dd])])
                Xc = (X[rows - r0].astype(np.float64) - mu) / sd
                topic[rows] = m.map_topics(Xc, ip)
            topic_s += time.perf_counter() - t0
            pend = [X[n:]] if n < len(X) else []
            first = done
    if first != len(docs):
        raise DataError("iwtm sun", f"{len(docs) - first} documents of the share not mapped")
    return {"at": np.arange(lo, hi), "vw": vw, "topic": topic, "vw_s": np.array(vw_s),
            "topic_s": np.array(topic_s)}  # fmt: skip


def _sun_svms(ctx, r, seed, z, meta, kind, tr, te, rtr, iptr, rte, ipte, vw, topic, t_vw,
              t_iwtm, n_used):  # fmt: skip
    """The seed's spatial-pyramid SVMs on the words and the topics, its metrics and (seed
    0) the maps of Fig 6.3: the part's rows."""
    s, svm = ctx.settings.sun, ctx.settings.svm
    y = z["labels"]
    rows, metrics, maps = [], [], {}
    accs = {}
    for method, words, W in (("visual_words", vw, s.K), ("iwtm_topics", topic, s.T)):
        Htr = pyramid(words[rtr], z["pos"][rtr], iptr, W, s.levels)
        Hte = pyramid(words[rte], z["pos"][rte], ipte, W, s.levels)
        Ktr, Kte = spm_kernels(Htr, Hte)
        clf, C = P.kernel_svm_fit(Ktr, y[tr], svm.C_grid, svm.folds, seed)
        pred = clf.predict(Kte)
        accs[method] = np.array([(pred[y[te] == k] == k).mean() for k in np.unique(y)])
        lab = words[np.concatenate([rtr, rte])]
        ipall = np.concatenate([iptr, iptr[-1] + ipte[1:]])
        met = dict(seed=r, method=method, acc=float((pred == y[te]).mean()), svm_C=C,
                   labels_used=int(len(np.unique(words))),
                   coherence_lift=coherence_lift(lab, z["grid"][np.concatenate([rtr, rte])],
                                                 ipall),
                   seconds=t_vw if method == "visual_words" else t_iwtm)  # fmt: skip
        if "truth" in z:
            from sklearn.metrics import normalized_mutual_info_score as nmi

            tru = z["truth"][np.concatenate([rtr, rte])]
            met["nmi_truth"] = float(nmi(tru, lab))
            met["labels_per_region"] = region_fragmentation(lab, tru, ipall)
        metrics.append(met)
        if r == 0:
            maps[method] = words
    for k in range(len(accs["visual_words"])):
        rows.append(dict(seed=r, class_id=k, class_name=meta.get("class_names", [])[k]
                         if k < len(meta.get("class_names", [])) else str(k),
                         n_test=int((y[te] == k).sum()), acc_vw=accs["visual_words"][k],
                         acc_topic=accs["iwtm_topics"][k]))  # fmt: skip
    print(f"seed {r}: VW {accs['visual_words'].mean():.3f} vs topics "
          f"{accs['iwtm_topics'].mean():.3f}; clusters {n_used}")  # fmt: skip
    info = dict(dataset=meta["dataset"], data_kind=kind, T=s.T, K=s.K, rho=s.rho,
                passes=s.passes, n_train_total=len(tr), n_test_total=len(te))  # fmt: skip
    keep = {}
    if r == 0:
        show = tr[: s.n_show]
        keep["n_show"] = np.array(len(show))
        thumbs = _thumbs(ctx.input("data"), show)
        for i, d in enumerate(show):
            rr = np.arange(z["indptr"][d], z["indptr"][d + 1])
            keep[f"grid_{i}"] = z["grid"][rr]
            for method, words in maps.items():
                keep[f"{method}_{i}"] = words[rr]
            if d in thumbs:
                keep[f"thumb_{i}"] = thumbs[d]
    parts.write(ctx.output("part"), rows, metrics=np.array(json.dumps(_jsonable(metrics))),
                info=np.array(json.dumps(_jsonable(info))), **keep)  # fmt: skip


def _map_test(m, src, indptr, te, rte, mu, sd, topic):
    """MAP topics of the test documents (``te``, rows ``rte``, both ascending) under the
    fitted ``m``, whole documents at a time, about ``BLOCK`` rows per call (one call when
    the descriptors fit a block, as the whole-array code made)."""
    starts, ends = indptr[te], indptr[te + 1]
    pend: list[np.ndarray] = []  # rows of the test documents read, not yet mapped
    first = 0  # the first test document (index into te) not yet mapped
    for a, Xb in src.blocks():
        b = a + len(Xb)
        i, j = np.searchsorted(rte, [a, b])
        if j > i:
            pend.append(Xb[rte[i:j] - a])
        done = int(np.searchsorted(ends, b, side="right"))  # test documents read whole
        have = sum(len(p) for p in pend)
        if done > first and (have >= BLOCK or b >= src.shape[0]):
            Xp = np.concatenate(pend)
            lens = ends[first:done] - starts[first:done]
            n_rows = int(lens.sum())
            Xc = (Xp[:n_rows].astype(np.float64) - mu) / sd
            rows = np.concatenate([np.arange(starts[k], ends[k]) for k in range(first, done)])
            topic[rows] = m.map_topics(Xc, np.concatenate([[0], np.cumsum(lens)]))
            pend = [Xp[n_rows:]] if n_rows < len(Xp) else []
            first = done
    if first != len(te):
        raise DataError("iwtm sun", f"{len(te) - first} test documents were not mapped")


def _thumbs(path, docs) -> dict:
    """The thumbnails ``thumb_<d>`` the set keeps for the documents ``docs``."""
    with np.load(path) as npz:
        return {int(d): npz[f"thumb_{d}"] for d in docs if f"thumb_{d}" in npz.files}


@STUDY.run("sun", settings=SunSettings)
def sun(ctx):
    """Visual words (K-means K) vs IWTM MAP topics, both through the 3-level SPM HIK SVM;
    the seeds' parts (``sun_part``) collected in order, the maps of seed 0."""
    names = parts.sun(ctx.settings)
    files = parts.inputs(ctx, names)
    rows, metrics, info, keep = [], [], {}, {}
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        metrics += json.loads(str(arrays.pop("metrics")))
        info = json.loads(str(arrays.pop("info")))
        if name == "r0":
            keep = arrays
    pd.DataFrame(rows).assign(**info).to_csv(ctx.output("csv"), index=False)
    pd.DataFrame(metrics).assign(**info).to_csv(ctx.output("metrics"), index=False)
    n_show = int(keep.pop("n_show", 0))
    np.savez_compressed(ctx.output("maps"), n_show=n_show, **keep)
