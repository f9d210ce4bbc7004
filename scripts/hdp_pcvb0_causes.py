"""Per-run facts behind the causes of hdp_pcvb0's misses (issue 24): one row per
(dataset, configuration, T, run) of the perplexity step, next to the unigram perplexity of
the same 80/20 split.

For each perplexity dataset of a ``real`` results folder it rebuilds the study's split
(``runs.split``: 80/20 within documents, seed base_seed + split_seed, short documents and
OOV test tokens dropped), checks its token counts against the run files, computes the
held-out perplexity of the training unigram (the no-topic state the zero-order AA fits
stall in, REVERSALS case 1), and writes from ``runs/perplexity/<dataset>/<config>.json``:
final perplexity, perplexity after iteration 1 and its range over iterations 5-50 (trace T
only), final / unigram, alpha0, beta0, gamma0, effective topics (E[n_k] >= 1 and >= 0.1 %
of the training tokens) and max alpha0 E[pi_k]. Reads only; no model is fitted.

    PYTHONPATH=src python scripts/hdp_pcvb0_causes.py results/real/hdp_pcvb0 \\
        --out published/real/causes/hdp_pcvb0_runs.csv
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import split_within_documents

BASE_SEED = 20261122  # config/real.yaml base_seed
SPLIT_SEED = 1  # config/real.yaml hdp_pcvb0.perplexity.split_seed
DATASETS = ("kos", "news20", "ap", "cora")  # hdp_pcvb0.perplexity.datasets


def unigram_perplexity(train, test) -> float:
    """Held-out perplexity of the training unigram (MLE; OOV test tokens were dropped)."""
    c = np.bincount(train.words, minlength=train.V).astype(float)
    p = c / c.sum()
    return float(np.exp(-np.sum(test.count * np.log(p[test.word])) / test.n_tokens))


def rows_of(results: Path, dataset: str) -> list[dict]:
    corpus = BowCorpus.load(results / "data" / f"{dataset}.npz")
    corpus.validate(results / "data" / f"{dataset}.npz")
    sp = split_within_documents(corpus, frac=0.8, seed=BASE_SEED + SPLIT_SEED,
                                short_docs="drop", oov_rule="drop")  # fmt: skip
    uni = unigram_perplexity(sp.train, sp.test)
    rows = []
    for f in sorted((results / "runs" / "perplexity" / dataset).glob("*.json")):
        d = json.loads(f.read_text())
        for key in ("n_train_tokens", "n_test_tokens"):
            if d["split"][key] != sp.info[key]:
                raise SystemExit(f"{f}: split differs ({key} {d['split'][key]} vs {sp.info[key]})")
        for r in d["runs"]:
            tr = r["trace"]
            rows.append(
                {
                    "dataset": dataset,
                    "config": d["config"],
                    "T": r["T"],
                    "run": r["run"],
                    "n_docs": sp.info["n_docs_in"] - sp.info["n_docs_dropped_short"],
                    "n_train_tokens": sp.info["n_train_tokens"],
                    "tokens_per_doc": corpus.n_tokens / corpus.n_docs,
                    "n_vocab": corpus.n_vocab,
                    "unigram_perplexity": uni,
                    "final_perplexity": r["final_perplexity"],
                    "final_over_unigram": r["final_perplexity"] / uni,
                    "perplexity_it1": tr[0] if tr else np.nan,
                    "perplexity_it5_50_min": min(tr[4:50]) if tr else np.nan,
                    "perplexity_it5_50_max": max(tr[4:50]) if tr else np.nan,
                    "alpha0": r["alpha0"],
                    "beta0": r["beta0"],
                    "gamma0": r["gamma0"],
                    "effective_topics": r["effective_topics"],
                    "effective_topics_0p1pct": r["effective_topics_0p1pct"],
                    "max_alpha_pi_E": r["max_alpha_pi_E"],
                }
            )
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", help="a run's hdp_pcvb0 folder (results/real/hdp_pcvb0)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    res = Path(a.results)
    df = pd.DataFrame([row for ds in DATASETS for row in rows_of(res, ds)])
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False, float_format="%.6g")
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(df.drop(columns=["n_docs", "n_train_tokens", "tokens_per_doc", "n_vocab"]))


if __name__ == "__main__":
    main()
