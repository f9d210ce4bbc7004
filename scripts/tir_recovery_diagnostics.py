"""Diagnostics of TIR's l recovery by in-degree (issue 22 case 3; evidence for
published/real/REVERSALS.md (case 3)).

A corpus from the study's generator at config/real.yaml's synth_tir settings (seed given on
the command line), then the L1 error, bias and correlation of l-hat against the true l,
overall and by the cited document's number of citers (1, 2-3, >= 4), for: the baselines,
ML and MAP with the TRUE topic assignments (no sampling), and stochastic EM / MCMC from
random z for 200 sweeps (ML approximate, MAP, ML exact Eq 3.4, MH). The exact sampler
dominates the cost (about a minute per 10 sweeps on an idle core).

    PYTHONPATH=src python scripts/tir_recovery_diagnostics.py --seed 1 [--no-exact]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from latentlab.models.tir.graph import CitationGraph
from latentlab.models.tir.model import InfluenceModel
from latentlab.models.tir.synthetic import generate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sweeps", type=int, default=200)
    ap.add_argument("--no-exact", action="store_true")
    a = ap.parse_args()
    K, rate = 15, 0.5
    corpus, truth = generate(600, 1000, K, 80, 6, rate, 0.1, 0.1, seed=a.seed)
    g = CitationGraph.from_edges(corpus.n_docs, corpus.links)
    cited = np.unique(g.cidx)
    lt = truth["l"][cited]
    deg = g.in_degree()[cited]
    print(f"{len(cited)} cited documents; citers 1: {(deg == 1).sum()}, 2-3: "
          f"{((deg >= 2) & (deg <= 3)).sum()}, >= 4: {(deg >= 4).sum()}")  # fmt: skip

    def report(name, lh):
        e = np.abs(lh - lt)
        s = f"{name:34s} L1 {e.mean():.3f} bias {np.mean(lh - lt):+.3f}"
        for lo, hi in ((1, 1), (2, 3), (4, 10**9)):
            m = (deg >= lo) & (deg <= hi)
            top = hi if hi < 10**9 else ""
            s += f" | {lo}-{top} L1 {e[m].mean():.2f} bias {np.mean(lh[m] - lt[m]):+.2f}"
        print(s, flush=True)

    report("no regression (l = 0)", np.zeros_like(lt))
    report("constant l = true mean", np.full_like(lt, lt.mean()))
    ptr, _ = corpus.to_tokens()
    ndk = np.rint(truth["zbar"] * np.diff(ptr)[:, None]).astype(np.int64)
    for est in ("ml", "map"):
        m = InfluenceModel("tir", K, estimator=est, rate=rate, lbfgs_iter=500).initialize(corpus, g)
        m.ndk[:] = ndk
        m.regress()
        report(f"{est} given the true z (rate {rate})", m.l[cited])
    runs = [("ml", False), ("map", False), ("mh", False)] + ([] if a.no_exact else [("ml", True)])
    for est, exact in runs:
        t0 = time.perf_counter()
        m = InfluenceModel("tir", K, estimator=est, exact=exact, seed=0, average_from=a.sweeps // 2)
        m.fit(corpus, a.sweeps, graph=g)
        name = f"{est}{' exact' if exact else ''} (fit.rate 1, {time.perf_counter() - t0:.0f} s)"
        report(name, m.l_mean[cited])


if __name__ == "__main__":
    main()
