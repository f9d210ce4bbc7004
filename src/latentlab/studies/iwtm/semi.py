"""Fig 5.4 (Sec. 5.5.2): semi-supervised IWTM. CAVI learns the topics from N_total
training images (labels unused); the HIK SVM is trained on the N_L labelled ones among
them (pairs with N_L <= N_total) and tested on the fixed test set. N_total and N_L are
per class, taken in the seeded pool order, so every labelled set is a subset of every
N_total set >= it."""

from __future__ import annotations

import re
import time

import numpy as np
import pandas as pd

from latentlab.data.splits import pool_train
from latentlab.errors import ConfigError
from latentlab.models.iwtm.cavi import CaviSettings, IWTMCavi
from latentlab.models.iwtm.normal_gamma import NGPrior

from . import parts
from . import pipeline as P
from .runs import _load, _sub
from .study import STUDY, SemiSettings


@STUDY.run("semi_part", settings=SemiSettings)
def semi_part(ctx):
    """One (N_total, seed) of Fig 5.4: CAVI topics from N_total training images per class
    and the HIK SVM trained on each N_L labelled ones among them."""
    s, c = ctx.settings.semi, ctx.settings.cavi
    svm = ctx.settings.svm
    m_ = re.fullmatch(r"n(\d+)_r(\d+)", parts.part_name(ctx, parts.semi(ctx.settings)))
    nt, r = int(m_.group(1)), int(m_.group(2))
    z, meta = _load(ctx.input("data"), ctx.settings.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    pool = int(rank.max()) + 1
    # (2 <= n_labelled <= max(n_total): SemiCfg, at start-up; the pool is the data's)
    if max(s.n_total) > pool:
        raise ConfigError(
            "iwtm.semi.n_total", f"max {max(s.n_total)} > the training pool ({pool}/class)"
        )
    test = np.where(rank < 0)[0]
    Xte, ipte = _sub(z, test)
    rows = []
    tr = pool_train(rank, nt)
    Xtr, iptr = _sub(z, tr)
    seed = ctx.seed(c.seed_offset, r)
    prior = NGPrior.from_data(Xtr, c.beta0, c.chi1_per_dim * Xtr.shape[1])
    cs = CaviSettings(T=s.T, C=c.C, K=c.K, alpha0=c.alpha0, gamma=c.gamma,
                      c_top=c.c_top, map_top=c.map_top, mapping_mode=c.mapping_mode,
                      max_local=c.max_local, local_tol=c.local_tol,
                      el_gemm=c.el_gemm)  # fmt: skip
    t0 = time.perf_counter()
    m = IWTMCavi(cs, prior, seed=seed).fit(Xtr, iptr, c.n_iter)
    sec = time.perf_counter() - t0
    Ftr, Fte = m.train_theta(), m.transform(Xte, ipte)
    for nl in [v for v in s.n_labelled if v <= nt]:
        lab = rank[tr] < nl  # the labelled subset, in pool order
        pred, Cc = P.hik_svm(Ftr[lab], labels[tr][lab], Fte, svm.C_grid,
                             svm.folds, seed)  # fmt: skip
        rows.append(dict(dataset=meta["dataset"], T=s.T, n_total=nt, n_labelled=nl,
                         seed=r, acc=float((pred == labels[test]).mean()),
                         n_unlabelled_images=int(len(tr) - lab.sum()), svm_C=Cc,
                         vocab=m.n_used(), seconds=sec,
                         reduction=s.reduction))  # fmt: skip
    parts.write(ctx.output("part"), rows)


@STUDY.run("semi", settings=SemiSettings)
def semi(ctx):
    """Fig 5.4: semi-supervised IWTM; the parts (``semi_part``) collected in order."""
    names = parts.semi(ctx.settings)
    files = parts.inputs(ctx, names)
    rows = [row for name in names for row in parts.read(files[name])[0]]
    pd.DataFrame(rows).to_csv(ctx.output("csv"), index=False)
