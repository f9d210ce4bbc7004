"""Issue 22, case 4: is the iteration-AIS deficit of Figs 5.7/5.8 the Jensen gap of S = 1?

Re-runs iteration-AIS on the study's own snapshots and test documents (a ``real`` or
``smoke`` models file of ``ais_eval``) with S independent chains per document instead of
the study's one, at the study's n and extra, and writes per snapshot:

* ``mean_log_w``: the mean over chains of the log-weight, i.e. the expectation of the
  study's S = 1 estimate (what Figs 5.7/5.8 plot, averaged over documents);
* ``log_mean_w``: logmeanexp over the S chains, Eq. 5.34 with S chains (unbiased for the
  likelihood, so its log is much less biased);
* ``var_log_w``: the variance of the log-weight over chains (the study's run-to-run
  variance, Figs 5.9/5.10, is an estimate of this);
* ``gap`` = log_mean_w - mean_log_w;
* ``lognormal_corrected`` = mean_log_w + var_log_w / 2 (log P if log w is normal).

Usage: python scripts/ais_iteration_jensen.py MODELS.npz OUT.csv [--n 1000] [--extra 1000]
[--docs 5] [--S 16] [--seed 1] [--threads 2]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from latentlab.evaluation import ais
from latentlab.studies.ais_eval.runs import load_models


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models")
    ap.add_argument("out")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--extra", type=int, default=1000)
    ap.add_argument("--docs", type=int, default=5)
    ap.add_argument("--S", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(argv)
    m = load_models(a.models)
    vocab = m["test_vocab"]
    remap = {int(w): i for i, w in enumerate(vocab)}
    docs = [np.array([remap[int(w)] for w in d]) for d in m["docs"][: a.docs]]
    phis = m["snap_phi"]
    phis = np.concatenate([phis, np.maximum(1.0 - phis.sum(axis=1, keepdims=True), 0.0)], 1)
    t = time.perf_counter()
    e = ais.iteration_ais(phis, m["snap_alpha"], docs, a.n, a.extra, a.S, a.seed, 7, a.threads)
    lw = e.log_weights  # (D, S, I)
    rows = []
    for i, it in enumerate(m["snap_iter"]):
        x = lw[:, :, i]
        rows.append(
            {
                "iteration": int(it),
                "n_temps": a.n,
                "S": a.S,
                "docs": len(docs),
                "mean_log_w": float(x.mean(axis=1).mean()),
                "log_mean_w": float((logsumexp(x, axis=1) - np.log(a.S)).mean()),
                "var_log_w": float(x.var(axis=1, ddof=1).mean()),
            }
        )
    df = pd.DataFrame(rows)
    df["gap"] = df.log_mean_w - df.mean_log_w
    # if log w is normal, E log w = log P - Var/2: the truth the S = 1 curve falls short of
    df["lognormal_corrected"] = df.mean_log_w + df.var_log_w / 2
    df.to_csv(a.out, index=False)
    print(f"{len(docs)} docs (lengths {[len(d) for d in docs]}), S={a.S}, n={a.n}: "
          f"{time.perf_counter() - t:.0f}s")  # fmt: skip
    print(df.iloc[[0, 1, 4, 9, 19, 29, 49, 69, len(df) - 1]].round(3).to_string(index=False))


if __name__ == "__main__":
    main()
