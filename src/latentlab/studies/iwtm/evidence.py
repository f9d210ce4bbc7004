"""Evidence files that causes, readings and REVERSALS.md cite, built by the study's rules
(issue 37): ``results/{run}/iwtm/evidence/<name>.csv`` + ``.meta.json``, so that
``latentlab rebuild published/real/iwtm/evidence/<name>.csv`` regenerates and compares them.

``gdpmm_vocab`` (REVERSALS.md case 7): how many clusters LDA+GDPMM's mixture uses on the
study's own training descriptors, scikit-learn's BayesianGaussianMixture (the baseline
before the fix, its own priors) against the Gaussian DP mixture of the IWTM machinery
(``models/iwtm/gdpmm.py``, IWTM's base measure), on the ``gdpmm.max_points`` subsample the
ch5 step fits and on every training descriptor (``iwtm_all``), and optionally the LDA + HIK
SVM accuracy of each quantisation (T: the cavi section's first). The words come from the
ch5 step's own function (``runs._gdpmm_words``) with the ch5 step's seed of run 0, so the
``iwtm`` rows are the words (and accuracies) of the ch5 step's LDA+GDPMM, run 0.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pandas as pd

from latentlab.data.splits import pool_train
from latentlab.errors import ConfigError
from latentlab.outputs import write_table

from .study import STUDY, GdpmmVocabSettings

ENGINES = {"sklearn": ("sklearn", True), "iwtm": ("iwtm", True), "iwtm_all": ("iwtm", False)}


@STUDY.run("evidence_gdpmm_vocab", settings=GdpmmVocabSettings)
def evidence_gdpmm_vocab(ctx):
    """REVERSALS case 7's evidence: clusters in use of LDA+GDPMM's mixture, scikit-learn's
    against IWTM's machinery, per training size (and the LDA + SVM accuracy of each)."""
    from latentlab.models.iwtm.normal_gamma import NGPrior

    from . import pipeline as P
    from .runs import _fs, _gdpmm_words, _load, _sub

    s = ctx.settings
    e, c, g = s.evidence.gdpmm_vocab, s.cavi, s.gdpmm
    z, meta = _load(ctx.input("data"), s.desc_per_doc, ctx.seed(7))
    rank, labels = z["rank"], z["labels"]
    pool = int(rank.max()) + 1
    if max(e.n_train) > pool:
        raise ConfigError("iwtm.evidence.gdpmm_vocab.n_train",
                          f"max {max(e.n_train)} > the training pool ({pool}/class)")  # fmt: skip
    test = np.where(rank < 0)[0]
    Xte, _ = _sub(z, test)
    seed = ctx.seed(c.seed_offset, 0)  # the ch5 step's run 0
    rows, cpu = [], []
    for n in e.n_train:
        tr = pool_train(rank, n)
        Xtr, _ = _sub(z, tr)
        prior = NGPrior.from_data(Xtr, c.beta0, c.chi1_per_dim * Xtr.shape[1])
        for name in e.engines:
            engine, subsample = ENGINES[name]
            gs = replace(g, engine=engine, max_points=g.max_points if subsample else None)
            c0 = time.process_time()
            wtr, wte, trace = _gdpmm_words(SimpleNamespace(gdpmm=gs), prior, Xtr, Xte, seed)
            cpu.append(time.process_time() - c0)
            fit_points = min(len(Xtr), gs.max_points or len(Xtr))
            used = json.loads(trace)[-1] if trace else int(len(np.unique(wtr)))
            row = dict(n_train=n, engine=name, fit_points=fit_points, train_desc=len(Xtr),
                       C=g.C, gamma=g.gamma, clusters_used=used,
                       vocab_train=int(len(np.unique(wtr))), acc=np.nan,
                       clusters_trace=trace)  # fmt: skip
            if e.accuracy:
                Mtr, Mte = P.bow(_fs(z, tr), wtr, g.C), P.bow(_fs(z, test), wte, g.C)
                Ftr, Fte, _ = P.lda_features(Mtr, Mte, c.T[0], s.kmeans_lda.n_iter, seed)
                pred, _ = P.hik_svm(Ftr, labels[tr], Fte, s.svm.C_grid, s.svm.folds, seed)
                row["acc"] = float((pred == labels[test]).mean())
            rows.append(row)
    df = pd.DataFrame(rows)
    df.insert(0, "dataset", meta["dataset"])
    # the CPU seconds of each row's fit and quantisation (and LDA + SVM): in the metadata, not
    # the CSV, so a rebuild compares only what does not depend on the clock
    write_table(df, ctx.output("csv"), None,
                ctx.meta(cpu_seconds=[round(x, 2) for x in cpu], data=meta["dataset"]),
                allow_nan=True)  # fmt: skip
