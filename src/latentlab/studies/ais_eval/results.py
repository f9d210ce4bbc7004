"""Names and readers of the ``ais_eval`` raw results (the estimators' ids and labels, the
models file and its per-iteration stats), shared by the runs, tables, figures and claims.

Kept apart from ``runs.py`` so that a table or figure step does not import the estimators
and the training code (numba kernels, scipy.optimize) only to read a CSV: each Snakemake
job is a fresh process and pays for every import.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from latentlab.errors import DataError

METHODS = ["lr", "std_ais", "geo", "geo_rev", "convex", "convex_rev"]
# columns of models["stats"] (Fig 5.11): entropy / log prior at the current beta, then at
# the fixed initial beta (train.beta)
STATS = ["iteration", "entropy", "log_prior", "alpha_sum", "beta", "optimized",
         "entropy_fixed_beta", "log_prior_fixed_beta"]  # fmt: skip
METHOD_LABELS = {
    "lr": "LR",
    "std_ais": "Std AIS",
    "geo": "Geometric",
    "geo_rev": "Geometric (reverse)",
    "convex": "Convex",
    "convex_rev": "Convex (reverse)",
}


def stats_frame(models: dict, path="models") -> pd.DataFrame:
    """``models["stats"]`` as a frame with the :data:`STATS` columns (DataError for a
    models file written before the fixed-beta columns existed)."""
    st = np.asarray(models["stats"])
    if st.ndim != 2 or st.shape[1] != len(STATS):
        raise DataError(
            path, f"stats has {st.shape[-1]} columns, expected {len(STATS)} ({STATS}); re-run train"
        )
    df = pd.DataFrame(st, columns=STATS)
    df["optimized"] = df["optimized"].astype(bool)
    return df


def load_models(path):
    with np.load(path) as z:
        d = {k: z[k] for k in z.files}
    d["info"] = json.loads(bytes(d["info"]).decode())
    docs = [
        d["test_words"][a:b] for a, b in zip(d["test_ptr"][:-1], d["test_ptr"][1:], strict=True)
    ]
    d["docs"] = docs
    return d
