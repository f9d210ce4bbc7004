"""Effective topics of PCVB0 against the truncation T (claim C13, issue 24): a T ladder.

The ``real`` run fits the stand-ins at T = 50 only (document: T = 100, 200, 300), where
PCVB0 uses every topic (E[n_k] >= 1, and >= 0.1 % of the training tokens). This fits the
same configurations on the study's own 80/20 split (seed base_seed + split_seed, short
documents and OOV test tokens dropped) with the study's options (HDPOptions defaults =
config/real.yaml hdp_pcvb0.options) and model seed (run r: base_seed + r), at each T of
the ladder for the document's 100 iterations, and writes one row per fit: final test
perplexity, the unigram perplexity of the split, effective topics under both metrics,
alpha0, beta0, gamma0, max alpha0 E[pi_k], CPU seconds. Its T = 50 rows repeat the
published fits (published/real/causes/hdp_pcvb0_runs.csv), which checks the set-up.

    PYTHONPATH=src python scripts/hdp_pcvb0_keff_ladder.py \\
        results/real/hdp_pcvb0/data/cora.npz --T 50 100 300 --configs pcvb0_AS pcvb0_AA \\
        --out published/real/causes/hdp_pcvb0_keff_ladder.csv
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

BASE_SEED = 20261122  # config/real.yaml base_seed
SPLIT_SEED = 1  # config/real.yaml hdp_pcvb0.perplexity.split_seed


def unigram_perplexity(train, test) -> float:
    c = np.bincount(train.words, minlength=train.V).astype(float)
    p = c / c.sum()
    return float(np.exp(-np.sum(test.count * np.log(p[test.word])) / test.n_tokens))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset", help="a prepared corpus (results/real/hdp_pcvb0/data/<name>.npz)")
    ap.add_argument("--T", type=int, nargs="+", default=[50, 100, 300])
    ap.add_argument("--configs", nargs="+", default=["pcvb0_AS", "pcvb0_AA"])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    path = Path(a.dataset)
    corpus = BowCorpus.load(path)
    corpus.validate(path)
    sp = split_within_documents(corpus, frac=0.8, seed=BASE_SEED + SPLIT_SEED,
                                short_docs="drop", oov_rule="drop")  # fmt: skip
    uni = unigram_perplexity(sp.train, sp.test)
    print(f"{path.stem}: {sp.info}; unigram perplexity {uni:.2f}", flush=True)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    new = not out.exists()
    with out.open("a", newline="") as fh:
        w = None
        for T in a.T:
            for config in a.configs:
                method, prior = config.split("_")
                for r in range(a.runs):
                    m = HDPLDA(T, method, prior, seed=BASE_SEED + r)
                    t0 = time.process_time()
                    m.fit(sp.train, a.iterations)
                    row = {
                        "dataset": path.stem,
                        "config": config,
                        "T": T,
                        "run": r,
                        "iterations": a.iterations,
                        "unigram_perplexity": round(uni, 3),
                        "final_perplexity": round(float(m.perplexity(sp.test)), 3),
                        "effective_topics": m.effective_topics(1.0),
                        "effective_topics_0p1pct": m.effective_topics(1e-3 * m.data.n_tokens),
                        "alpha0": float(m.alpha0),
                        "beta0": float(m.beta0),
                        "gamma0": float(m.gamma0),
                        "max_alpha_pi_E": float(np.max(m.alpha0 * m.Epi)),
                        "cpu_seconds": round(time.process_time() - t0, 1),
                    }
                    if w is None:
                        w = csv.DictWriter(fh, fieldnames=list(row))
                        if new:
                            w.writeheader()
                    w.writerow(row)
                    fh.flush()
                    print(row, flush=True)


if __name__ == "__main__":
    main()
