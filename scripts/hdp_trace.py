"""Per-iteration traces of truncated HDP-LDA on a prepared corpus (issue 22, case 1).

Reproduces the perplexity split of ``hdp_pcvb0`` (80/20 within documents, seed
base_seed + split_seed) and writes, for each configuration and initialisation, one row per
iteration: test perplexity, α0, γ0, β0, τ statistics, effective topics (E[n_k] ≥ 1) and
the fixed-point diagnostics of Eqs 29/30 (numerator, the range (lo, hi) in which a root
exists, inner iterations, converged). Also prints the unigram perplexity of the split.

    PYTHONPATH=src python scripts/hdp_trace.py results/real/data/kos/dataset.npz \\
        --T 300 --iterations 40 --configs cvb0_AA pcvb0_AA --inits literal per_V \\
        --out published/real/reversals/hdp_pcvb0_T300_traces.csv
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import split_within_documents
from latentlab.models.hdp import HDPLDA

BASE_SEED = 20261122  # config/real.yaml base_seed; split seed = base + split_seed (1)


def unigram_perplexity(train, test) -> float:
    """Held-out perplexity of the training unigram (MLE; OOV test tokens were dropped)."""
    c = np.bincount(train.words, minlength=train.V).astype(float)
    p = c / c.sum()
    return float(np.exp(-np.sum(test.count * np.log(p[test.word])) / test.n_tokens))


def row_of(m: HDPLDA, it: int, ppl: float, secs: float) -> dict:
    tau = np.asarray(m.tau, dtype=float)
    tz = tau[tau > 0]
    fp = m.diagnostics.get("fp_last", {})
    r = {
        "iteration": it,
        "perplexity": ppl,
        "alpha0": float(m.alpha0),
        "gamma0": float(m.gamma0),
        "beta0": float(m.beta0),
        "tau_perplexity": float(np.exp(-np.sum(tz * np.log(tz)))),
        "tau_max": float(tau.max()),
        "effective_topics": m.effective_topics(1.0),
        "max_nk_share": float(m.nk.max() / m.nk.sum()),
        "max_alpha_pi": float(np.max(m.prior_weights()[0])),
        "seconds": secs,
    }
    for name in ("alpha0", "beta0"):
        d = fp.get(name, {})
        for key in ("num", "lo", "hi", "n_iter", "converged"):
            r[f"fp_{name}_{key}"] = d.get(key, "")
    return r


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--T", type=int, default=300)
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--configs", nargs="+", default=["cvb0_AA", "pcvb0_AA"])
    ap.add_argument("--inits", nargs="+", default=["literal"])
    ap.add_argument("--seed", type=int, default=BASE_SEED)
    ap.add_argument("--split-seed", type=int, default=BASE_SEED + 1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--append", action="store_true")
    a = ap.parse_args(argv)
    corpus, _ = BowCorpus.load(a.dataset).drop_empty()
    sp = split_within_documents(corpus, frac=0.8, seed=a.split_seed, short_docs="drop")
    print(f"split: {sp.info}")
    print(f"unigram perplexity: {unigram_perplexity(sp.train, sp.test):.2f}")
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    mode = "a" if a.append and out.exists() else "w"
    with out.open(mode, newline="") as fh:
        w = None
        for config in a.configs:
            method, prior = config.split("_")
            for init in a.inits:
                m = HDPLDA(a.T, method, prior, options={"beta_init": init}, seed=a.seed)
                t0 = time.perf_counter()

                def cb(mod, info, config=config, init=init):
                    nonlocal w, t0
                    r = {"config": config, "T": a.T, "beta_init": init}
                    r.update(row_of(mod, info["iteration"], mod.perplexity(sp.test),
                                    time.perf_counter() - t0))  # fmt: skip
                    t0 = time.perf_counter()
                    if w is None:
                        w = csv.DictWriter(fh, fieldnames=list(r))
                        if mode == "w":
                            w.writeheader()
                    w.writerow(r)
                    fh.flush()
                    print(
                        f"{config} {init} it {r['iteration']}: ppl {r['perplexity']:.1f} "
                        f"a0 {r['alpha0']:.4g} g0 {r['gamma0']:.4g} b0 {r['beta0']:.4g} "
                        f"eff {r['effective_topics']} tauP {r['tau_perplexity']:.0f} "
                        f"fpA {r['fp_alpha0_num']}/{r['fp_alpha0_lo']}-{r['fp_alpha0_hi']} "
                        f"{r['fp_alpha0_converged']} fpB {r['fp_beta0_num']}/{r['fp_beta0_lo']}"
                        f"-{r['fp_beta0_hi']} {r['fp_beta0_converged']} {r['seconds']:.1f}s",
                        flush=True,
                    )

                m.fit(sp.train, a.iterations, callback=cb)


if __name__ == "__main__":
    main()
