"""Does document length move ais_eval's Table 5.1-5.3 statistics? (issue 24, causes)

The stand-ins' test documents are short (KOS, Cora) where the document scored full NIPS /
ACL papers. This reads the raw per-document results of a ``real`` run
(``results/real/ais_eval/raw/{perturbed,symasym}_{acl,nips}.csv``; nothing is re-run) and
writes, per corpus, experiment, regime and test-set part (all 80 documents, the shorter
and the longer half by N_d):
the documents' length range, Table 5.1's % preferring model 1 per estimator,
Table 5.2/5.3's mean per-document variance per estimator, the two variance ratios the
ledger judges (Std AIS / LR, C5.14; min(LR, Std AIS) / max ratio-AIS, T5.2v-exp, C5.7b,
T5.3v-exp), and over the 80 documents the Spearman correlation of N_d with the
per-document log variance ratios.

    PYTHONPATH=src python scripts/ais_eval_causes.py results/real/ais_eval/raw \\
        --out published/real/causes/ais_eval_doc_length.csv
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

RATIO = ["geo", "geo_rev", "convex", "convex_rev"]
CORPUS = {"acl": "cora", "nips": "kos"}  # config/real.yaml ais_eval.corpora


def _stats(g: pd.DataFrame) -> dict:
    pct = (
        g.groupby(["method", "run"])["perp_ratio"]
        .apply(lambda x: 100 * (x < 1).mean())
        .groupby("method")
        .mean()
    )
    var = g.groupby(["method", "doc"])["perp_ratio"].var(ddof=1).groupby("method").mean()
    n = g.groupby("doc")["N"].first()
    return {
        "n_docs": len(n),
        "N_min": int(n.min()),
        "N_median": float(n.median()),
        "N_max": int(n.max()),
        **{f"pct_{m}": pct[m] for m in ["lr", "std_ais", *RATIO]},
        **{f"var_{m}": var[m] for m in ["lr", "std_ais", *RATIO]},
        "var_std_over_lr": var["std_ais"] / var["lr"],
        "var_baselines_over_ratio": min(var["lr"], var["std_ais"]) / var[RATIO].max(),
    }


def _spearman(g: pd.DataFrame) -> dict:
    v = g.groupby(["doc", "method"])["perp_ratio"].var(ddof=1).unstack()
    n = g.groupby("doc")["N"].first()
    a = np.log(v["std_ais"] / v["lr"])
    b = np.log(np.minimum(v["lr"], v["std_ais"]) / v[RATIO].max(axis=1))
    ok = np.isfinite(a) & np.isfinite(b)
    return {
        "spearman_N_std_over_lr": stats.spearmanr(n[ok], a[ok]).statistic,
        "spearman_N_baselines_over_ratio": stats.spearmanr(n[ok], b[ok]).statistic,
    }


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", help="a run's ais_eval raw folder (results/real/ais_eval/raw)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    rows = []
    for role, dataset in CORPUS.items():
        for exp in ("perturbed", "symasym"):
            df = pd.read_csv(Path(a.raw) / f"{exp}_{role}.csv")
            med = df.groupby("doc")["N"].first().median()
            for regime in ("cheap", "expensive"):
                g = df[df.regime == regime]
                parts = {"all": g, "shorter half": g[g.N <= med], "longer half": g[g.N > med]}
                for part, gp in parts.items():
                    r = {"dataset": dataset, "experiment": exp, "regime": regime,
                         "part": part, "n_temps": int(g.n_temps.iloc[0]), **_stats(gp)}  # fmt: skip
                    if part == "all":
                        r.update(_spearman(gp))
                    rows.append(r)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    df = pd.DataFrame(rows)
    df.to_csv(out, index=False, float_format="%.4g")
    cols = ["dataset", "experiment", "regime", "part", "N_min", "N_median", "N_max",
            "var_std_over_lr", "var_baselines_over_ratio", "spearman_N_std_over_lr",
            "spearman_N_baselines_over_ratio"]  # fmt: skip
    with pd.option_context("display.width", 250, "display.max_columns", 30):
        print(df[cols].round(3).to_string(index=False))


if __name__ == "__main__":
    main()
