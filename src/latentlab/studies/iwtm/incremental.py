"""Chapters 6-7 steps: ``svi`` (Fig 6.1: SVI at several rho vs CAVI, full-corpus ELBO and
clusters vs time) and ``ivi`` (Fig 7.3 and Table 7.1: IVI vs IVI-NO-EXTEND vs retraining
from scratch as the training set grows). Images are taken in the seeded pool order, so a
smaller set is always a subset of a larger one."""

from __future__ import annotations

import json
import time

import numpy as np
import pandas as pd

from latentlab.checkpoint import Checkpoint
from latentlab.errors import ConfigError, DataError
from latentlab.models.iwtm.cavi import CaviSettings
from latentlab.models.iwtm.ivi import corr_docs, extend, prune
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.models.iwtm.svi import IWTMSvi, SviSettings
from latentlab.outputs import _jsonable

from . import parts
from .runs import _load, _sub
from .study import STUDY, IviStepSettings, SviStepSettings


def cavi_settings(c, T, alpha0, gamma) -> CaviSettings:
    """The ``cavi`` section's settings with ch. 6-7's T, alpha0 and gamma."""
    return CaviSettings(T=T, C=c.C, K=c.K, alpha0=alpha0, gamma=gamma, c_top=c.c_top,
                        map_top=c.map_top, mapping_mode=c.mapping_mode,
                        max_local=c.max_local, local_tol=c.local_tol,
                        el_gemm=c.el_gemm)  # fmt: skip


def pool_docs(rank, labels, per_class):
    """The first ``per_class`` pool images of every class, ordered by pool rank then
    class (so the docs of a smaller set come first)."""
    ids = np.where((rank >= 0) & (rank < per_class))[0]
    return ids[np.lexsort((labels[ids], rank[ids]))]


def _check_pool(rank, need, key):
    pool = int(rank.max()) + 1
    if need > pool:
        raise ConfigError(key, f"needs {need} images per class, the pool has {pool}")


# --------------------------------------------------------------------------- Fig 6.1


@STUDY.run("svi_part", settings=SviStepSettings)
def svi_part(ctx):
    """One (rho, seed) of Fig 6.1: round(passes/rho) SVI iterations with |S| = rho N_doc
    on the first n_train pool images per class; the full-corpus ELBO after every
    snapshot_frac of the iterations (not timed)."""
    s, c = ctx.settings.svi, ctx.settings.cavi
    names = parts.svi(ctx.settings)
    part = parts.part_name(ctx, names)
    rho, r = s.rho[names.index(part) // s.seeds], names.index(part) % s.seeds
    z, meta = _load(ctx.input("data"), ctx.settings.desc_per_doc, ctx.seed(7))
    _check_pool(z["rank"], s.n_train, "iwtm.svi.n_train")
    docs = pool_docs(z["rank"], z["labels"], s.n_train)
    X, ip = _sub(z, docs)
    prior = NGPrior.from_data(X, c.beta0, c.chi1_per_dim * X.shape[1])
    cs = cavi_settings(c, s.T, s.alpha0, s.gamma)
    rows = []
    n_iter = max(1, round(s.passes / rho))
    step = max(1, round(s.snapshot_frac * n_iter))
    snaps = sorted(set(range(step, n_iter + 1, step)) | {n_iter})
    seed = ctx.seed(s.seed_offset, r)
    m = IWTMSvi(cs, prior, SviSettings(rho=rho), seed=seed)
    m.fit(X, ip, n_iter, snapshots=snaps)
    el = {h["iteration"]: h["elbo"] for h in m.snapshots}
    cum = 0.0
    tm = {k: round(v, 6) for k, v in m.timing.items()}
    for h in m.history:
        cum += h["seconds"]
        rows.append(dict(dataset=meta["dataset"], rho=rho, seed=r, T=s.T, n_train=s.n_train,
                         n_doc=h["n_doc"], batch=h["batch"], iteration=h["iteration"],
                         docs_seen=h["docs_seen"], passes=h["docs_seen"] / h["n_doc"],
                         seconds=cum, clusters=h["clusters_used"],
                         elbo=el.get(h["iteration"], np.nan),
                         timing=json.dumps(tm) if h is m.history[-1] else ""))  # fmt: skip
    print(f"rho={rho} seed={r}: {n_iter} it, {cum:.1f} s, ELBO {m.snapshots[-1]['elbo']:.4g}")
    parts.write(ctx.output("part"), rows, n_desc=np.array(len(X)))


@STUDY.run("svi", settings=SviStepSettings)
def svi(ctx):
    """Fig 6.1: SVI at every rho and seed; the parts (``svi_part``) collected in order."""
    names = parts.svi(ctx.settings)
    files = parts.inputs(ctx, names)
    rows, n_desc = [], None
    for name in names:
        prow, arrays = parts.read(files[name])
        rows += prow
        n_desc = int(arrays["n_desc"])
    df = pd.DataFrame(rows)
    df["n_desc"] = n_desc
    df.to_csv(ctx.output("csv"), index=False)


# --------------------------------------------------------------------- Fig 7.3, Table 7.1


@STUDY.run("ivi_part", settings=IviStepSettings)
def ivi_part(ctx):
    """One seed of Fig 7.3 / Table 7.1: IVI, IVI-NO-EXTEND and retraining from scratch on
    a training set that grows by grow_per_class images per class per round. Checkpointed
    after the seed fits and after every size: a killed job continues from there."""
    s, c = ctx.settings.ivi, ctx.settings.cavi
    r = int(parts.part_name(ctx, parts.ivi(ctx.settings))[1:])
    z, meta = _load(ctx.input("data"), ctx.settings.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    _check_pool(rank, s.max_per_class, "iwtm.ivi.max_per_class")
    sizes = list(range(s.seed_per_class, s.max_per_class + 1, s.grow_per_class))
    order = pool_docs(rank, labels, s.max_per_class)
    n_cls = len(np.unique(labels))
    cs = cavi_settings(c, s.T, s.alpha0, s.gamma)
    sv = SviSettings(rho=s.rho)
    seed = ctx.seed(s.seed_offset, r)
    ck = Checkpoint(ctx.output("part"), ctx.unit_key())
    st = ck.load()
    if st is None:
        rng = np.random.default_rng([seed, 7])
        X0, ip0 = _sub(z, order[: sizes[0] * n_cls])
        prior = NGPrior.from_data(X0, c.beta0, c.chi1_per_dim * X0.shape[1])
        models = {}
        for method in ("IVI", "IVI-NO-EXTEND"):
            m = IWTMSvi(cs, prior, sv, seed=seed)
            t0 = time.perf_counter()
            m.fit(X0, ip0, s.seed_iter, snapshots=_every(s.seed_iter, s.elbo_every), label="seed")
            models[method] = (m, time.perf_counter() - t0)
        st = {"models": models, "rng": rng, "prior": prior, "table": [], "k": 0}
        ck.save(st)
    models, rng, prior, table = st["models"], st["rng"], st["prior"], st["table"]
    for k in range(st["k"], len(sizes)):
        n = sizes[k]
        docs = order[: n * n_cls]
        X, ip = _sub(z, docs)
        row = dict(dataset=meta["dataset"], seed=r, per_class=n, n_docs=len(docs))
        if k > 0:
            new = order[sizes[k - 1] * n_cls : n * n_cls]
            # IVI: model the new images alone, prune both, EXTEND, train on the union
            m, _ = models["IVI"]
            t0 = time.perf_counter()
            g = ivi_grow(m, z, docs, new, s, seed=ctx.seed(s.seed_offset, 1000 * (r + 1) + k),
                         rng=rng)  # fmt: skip
            row["ivi_extend_clusters"] = g["after"]
            row["ivi_before_clusters"] = g["before"]
            row["corr_s"] = g["corr_s"]
            m.fit(X, ip, s.round_iter, snapshots=_every(s.round_iter, s.elbo_every),
                  label=f"round {k}")  # fmt: skip
            row["ivi_s"] = time.perf_counter() - t0
            # IVI-NO-EXTEND: just the grown set
            m3, _ = models["IVI-NO-EXTEND"]
            t0 = time.perf_counter()
            m3.fit(X, ip, s.round_iter, snapshots=_every(s.round_iter, s.elbo_every),
                   label=f"round {k}")  # fmt: skip
            row["noext_s"] = time.perf_counter() - t0
        else:
            row["ivi_s"] = models["IVI"][1]
        for method, (m, _) in models.items():
            key = "ivi" if method == "IVI" else "noext"
            row[f"{key}_elbo"] = m.snapshots[-1]["elbo"]
            row[f"{key}_clusters"] = m.n_used()
        # retraining from scratch at this size
        t0 = time.perf_counter()
        ms = IWTMSvi(cs, prior, sv, seed=ctx.seed(s.seed_offset, 2000 * (r + 1) + k))
        ms.fit(X, ip, s.scratch_iter, snapshots=[s.scratch_iter])
        row["scratch_s"] = time.perf_counter() - t0
        row["scratch_elbo"] = ms.snapshots[-1]["elbo"]
        row["scratch_clusters"] = ms.n_used()
        row["n_desc"] = len(X)
        table.append(row)
        shown = {k2: round(v, 4) for k2, v in row.items() if k2.endswith(("elbo", "_s"))}
        print(f"seed {r} size {len(docs)}: {shown}")
        st["k"] = k + 1
        ck.save(st)
    trace = []
    for method, (m, _) in models.items():
        el = {(h["label"], h["iteration"]): h["elbo"] for h in m.snapshots}
        for h in m.history:
            trace.append(dict(dataset=meta["dataset"], seed=r, method=method,
                              iteration=h["iteration"], n_doc=h["n_doc"], phase=h["label"],
                              clusters=h["clusters_used"],
                              elbo=el.get((h["label"], h["iteration"]), np.nan)))  # fmt: skip
    parts.write(ctx.output("part"), table, trace=np.array(json.dumps(_jsonable(trace))))
    ck.clear()


@STUDY.run("ivi", settings=IviStepSettings)
def ivi(ctx):
    """Fig 7.3 / Table 7.1: the seeds' parts (``ivi_part``) collected in order."""
    names = parts.ivi(ctx.settings)
    files = parts.inputs(ctx, names)
    trace, table = [], []
    for name in names:
        prow, arrays = parts.read(files[name])
        table += prow
        trace += json.loads(str(arrays["trace"]))
    pd.DataFrame(trace).to_csv(ctx.output("trace"), index=False)
    pd.DataFrame(table).to_csv(ctx.output("csv"), index=False)


def ivi_grow(m, z, docs, new, s, seed, rng) -> dict:
    """IVI's growth step (Sec. 7.3) in place on the SVI model ``m``: a model M' of the
    ``new`` documents alone (``s.new_iter`` iterations, m's settings and prior), both
    pruned (``s.prune_threshold``), EXTEND with topics matched on ``s.n_corr`` of ``docs``
    (the grown set). ``m`` is then to be trained on ``docs``. Returns clusters in use
    before and after, and the seconds of the matching and concatenation."""
    if len(new) == 0:
        raise DataError("iwtm ivi extend", "EXTEND called with no new documents")
    Xn, ipn = _sub(z, new)
    m2 = IWTMSvi(m.s, m.prior, m.svi, seed=seed)
    m2.fit(Xn, ipn, s.new_iter)
    before = m.n_used()
    prune(m, s.prune_threshold)
    prune(m2, s.prune_threshold)
    cd = corr_docs(len(docs), s.n_corr, rng)
    Xc, ipc = _sub(z, docs[cd])
    t0 = time.perf_counter()
    extend(m, m2, m.transform(Xc, ipc), m2.transform(Xc, ipc))
    return {"before": int(before), "after": int(m.n_used()), "corr_s": time.perf_counter() - t0}


def _every(n_iter, every):
    """Snapshot iterations: every ``every`` and the last."""
    return sorted(set(range(every, n_iter + 1, max(1, every))) | {n_iter})
