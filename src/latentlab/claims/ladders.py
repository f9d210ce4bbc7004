"""Each row judged where it was measured closest to the document (issue 40): the verdict at
the highest ladder rung that measured the row, beside the run's own.

A ladder (docs/runs.md "Ladders") re-judges a study's key rows at rungs going from the real
settings toward the document's; its ``ladder.csv`` holds one row per rung x ledger row. The
claims step of a run whose config names the published ladders (``ladder_source``) fills the
row's ``ladder_rung`` (the rung's name and the settings it changes from the first rung),
``ladder_value`` and ``ladder_verdict`` from the highest rung that judged the same claim on
the same dataset. The run's own verdict is not touched.
"""

from __future__ import annotations

import pandas as pd

from latentlab.claims.ledger import JUDGED


def _short(key: str) -> str:
    """``hdp_pcvb0.perplexity.per_dataset.kos.T`` -> ``kos.T``: the key's last two parts."""
    return ".".join(key.split(".")[-2:])


def _cell(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def rung_settings(df: pd.DataFrame, rung: str) -> str:
    """The settings a rung changes from the ladder's first rung, ``key=value`` joined."""
    cols = list(df.columns[2 : df.columns.get_loc("claim_id")])
    first = df[df.rung_index == df.rung_index.min()].iloc[0]
    this = df[df.rung == rung].iloc[0]
    out = []
    for c in cols:
        a, b = first[c], this[c]
        if pd.isna(a) and pd.isna(b):
            continue
        if str(a) != str(b) and len(str(b)) <= 60:
            out.append(f"{_short(c)}={_cell(b)}")
    return ", ".join(out)


def read_ladder(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype={"claim_id": str, "dataset": str, "rung": str},
                       keep_default_na=False, na_values=[""])  # fmt: skip


def apply(ledger, ladder_paths=()) -> None:
    """Fill ``ladder_rung``, ``ladder_value`` and ``ladder_verdict`` of every ledger row a
    ladder judged (same claim id and dataset), from its highest judged rung."""
    for path in ladder_paths:
        df = read_ladder(path)
        judged = df[df.verdict.isin(JUDGED)]
        for row in ledger.rows:
            hit = judged[(judged.claim_id == row.claim_id) & (judged.dataset.fillna("") ==
                                                              row.dataset)]  # fmt: skip
            if hit.empty:
                continue
            top = hit[hit.rung_index == hit.rung_index.max()].iloc[0]
            settings = rung_settings(df, top.rung)
            row.ladder_rung = f"{top.rung} ({settings})" if settings else str(top.rung)
            row.ladder_value = str(top.our_value)
            row.ladder_verdict = str(top.verdict)
