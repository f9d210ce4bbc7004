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


def _judged(path) -> pd.DataFrame:
    df = read_ladder(path)
    return df, df[df.verdict.isin(JUDGED)]


def _top(df: pd.DataFrame, judged: pd.DataFrame, claim_id: str, dataset: str):
    """(ladder_rung, ladder_value, ladder_verdict) of the highest rung that judged
    ``claim_id`` on ``dataset``; ``None`` when no rung did."""
    hit = judged[(judged.claim_id == claim_id) & (judged.dataset.fillna("") == dataset)]
    if hit.empty:
        return None
    top = hit[hit.rung_index == hit.rung_index.max()].iloc[0]
    settings = rung_settings(df, top.rung)
    rung = f"{top.rung} ({settings})" if settings else str(top.rung)
    return rung, str(top.our_value), str(top.verdict)


def apply(ledger, ladder_paths=()) -> None:
    """Fill ``ladder_rung``, ``ladder_value`` and ``ladder_verdict`` of every ledger row a
    ladder judged (same claim id and dataset), from its highest judged rung."""
    for path in ladder_paths:
        df, judged = _judged(path)
        for row in ledger.rows:
            top = _top(df, judged, row.claim_id, row.dataset)
            if top is not None:
                row.ladder_rung, row.ladder_value, row.ladder_verdict = top


def apply_published(claims_csv, ladder_csv) -> int:
    """The same columns filled in a written ledger (``latentlab claims ladder``: a published
    ledger beside the published ladders, without re-running its claims step); the row's
    own verdict and every other cell are kept. Returns the rows filled."""
    from latentlab.claims.ledger import read_claims
    from latentlab.outputs import write_csv

    led = read_claims(claims_csv)
    df, judged = _judged(ladder_csv)
    n = 0
    for i, r in led.iterrows():
        top = _top(df, judged, r.claim_id, r.dataset)
        if top is not None:
            led.loc[i, ["ladder_rung", "ladder_value", "ladder_verdict"]] = top
            n += 1
    write_csv(led, claims_csv)
    return n
