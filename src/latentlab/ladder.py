"""Reduction ladders (issue 24; docs/runs.md "Ladders"): a study's key claims re-measured at rungs
that go from the run's settings (``real``) toward the document's.

A ladder is data: ``config/ladder.yaml`` lists, per study, its rungs as overrides of the run's
settings, the outputs of the study each rung builds (``targets``) and which ledger rows the
ladder reports (``claims``). ``rules/ladder.smk`` runs every rung as the study's ordinary
rules with the rung's complete config (a Snakemake module per rung, run
``<run>/<study>/<rung>``), so a rung's claims are judged by the study's own claims step (in
its partial form: claims whose inputs the rung does not build are ``not_run``). This module:

* :func:`ladder_rungs` builds and validates each rung's config;
* :func:`collect` reads the rung ledgers into ``ladder.csv`` (one row per rung x claim row);
* :func:`draw` is ``ladder.png`` (our value against the rung, the document's value as a
  line, the verdict at each rung);
* :func:`bench` sums each rung's Snakemake benchmark files (``bench_targets.csv``).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab import runconfig
from latentlab.cliutil import name_value
from latentlab.errors import ConfigError, DataError

# keys a rung may not set: they name the rung's run, not its settings
_RESERVED = ("base", "run", "studies", "ladder")
NOT_RUN_HERE = "not_run_here"


@dataclass(frozen=True)
class Rung:
    """One rung of a study's ladder: its overrides and the complete config of its run."""

    study: str
    name: str
    index: int
    overrides: dict
    fits_here: bool
    reason: str
    config: dict = field(repr=False)
    prefix: str = "ladder"
    # outputs of the study this rung builds beside the ladder's ``targets`` (a rung's own
    # ``targets``: the document's figures at the rung that runs the document's settings)
    targets: tuple[str, ...] = ()  # readings sweeps use the same machinery (latentlab.readings)

    @property
    def run(self) -> str:
        return self.config["run"]

    @property
    def module(self) -> str:
        """Name of the rung's Snakemake module (and prefix of its rules)."""
        return f"{self.prefix}_{self.study}_{self.name}".replace(".", "_").replace("-", "_")

    def out(self, file: str = "") -> str:
        """Path of ``file`` among the rung's outputs of its study."""
        base = f"results/{self.run}/{self.study}"
        return f"{base}/{file}" if file else base

    def bench_dir(self) -> str:
        return f"benchmarks/{self.run}"


def _where(study: str, i: int, name: str) -> str:
    return f"ladder.studies.{study}.rungs[{i}] ({name})"


def _flat(d: Mapping, prefix: str = "") -> dict:
    """``{"a": {"b": 1}}`` -> ``{"a.b": 1}`` (lists are leaves)."""
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping) and v:
            out.update(_flat(v, key))
        else:
            out[key] = v
    return out


def _get(cfg: Mapping, dotted: str):
    cur = cfg
    for part in dotted.split("."):
        if not isinstance(cur, Mapping) or part not in cur:
            return None
        cur = cur[part]
    return cur


def ladder_rungs(
    config: Mapping, root: str | Path, configfiles=("config/ladder.yaml",)
) -> dict[str, list[Rung]]:
    """The rungs of every ladder of ``config`` (a complete, validated run config with a
    ``ladder`` section), each with the complete config of its run: the run's config
    without ``ladder``, the rung's ``set`` merged over it, ``run`` =
    ``<run>/<study>/<rung>``, ``studies`` = the study, and the datasets of ``data.run`` (or
    of the ladder's own run): one prepare job per dataset, shared by the rungs. A bad rung
    stops here with a few lines naming it and its key."""
    from latentlab.studies.shape import load_study

    spec = config.get("ladder") or {}
    base = {k: copy.deepcopy(v) for k, v in config.items() if k != "ladder"}
    data_run = (config.get("data") or {}).get("run") or config["run"]
    out: dict[str, list[Rung]] = {}
    for study, lad in (spec.get("studies") or {}).items():
        rungs, names = [], set()
        for i, r in enumerate(lad["rungs"]):
            where = _where(study, i, r["name"])
            if r["name"] in names:
                raise ConfigError(f"ladder.studies.{study}.rungs[{i}].name", "rung name repeated")
            names.add(r["name"])
            over = r.get("set") or {}
            bad = [k for k in over if k in _RESERVED]
            if bad:
                raise ConfigError(
                    f"{where}.set.{bad[0]}",
                    "a rung sets settings only; its run and studies come from the ladder",
                )
            cfg = runconfig.merge(base, over)
            cfg["run"] = f"{config['run']}/{study}/{r['name']}"
            cfg["studies"] = [study]
            cfg.setdefault("data", {})["run"] = data_run
            try:
                runconfig.validate(cfg, root, configfiles)
                load_study(study).check_config(cfg.get(study, {}))
            except ConfigError as e:
                text = str(e).removeprefix("config ")
                raise ConfigError(f"{where}.set", text) from None
            fits = bool(r.get("fits_here", True))
            if not fits and not r.get("reason"):
                raise ConfigError(f"{where}.reason", "a rung with fits_here: false says why")
            extra = r.get("targets") or []
            if not isinstance(extra, list) or not all(isinstance(t, str) for t in extra):
                raise ConfigError(f"{where}.targets", "a list of the study's output files")
            reason = r.get("reason") or ""
            rung = Rung(study, r["name"], i, copy.deepcopy(over), fits, reason, cfg)
            rungs.append(dataclasses.replace(rung, targets=tuple(extra)))
        out[study] = rungs
    return out


def setting_columns(rungs: list[Rung]) -> list[str]:
    """The settings the rungs change: every dotted key any rung's ``set`` names, in order."""
    cols: list[str] = []
    for r in rungs:
        for k in _flat(r.overrides):
            if k not in cols:
                cols.append(k)
    return cols


def _cell(v):
    """A setting value as a CSV cell: numbers and text as they are, the rest as JSON."""
    if v is None:
        return "null"
    if isinstance(v, (bool, list, dict)):
        return json.dumps(v, sort_keys=True)
    return v


def _numbers(row: pd.Series) -> tuple[float, float, str]:
    """(ours, the document's value, what they measure) of a ledger row, from its rule: a
    value row's value and the document's; an order row's mean difference in the claim's
    direction (positive: the direction holds) and the document's own difference."""
    nan = float("nan")
    try:
        rule = json.loads(row.get("rule") or "{}")
    except (TypeError, ValueError):
        rule = {}
    if rule.get("how") == "order":
        sign = 1.0 if rule.get("dir", ">") == ">" else -1.0
        a = np.mean(np.atleast_1d(np.asarray(rule["a"], float)))
        b = np.mean(np.atleast_1d(np.asarray(rule["b"], float)))
        pa, pb = rule.get("paper_a"), rule.get("paper_b")
        if pa is not None and pb is not None:
            doc = sign * float(np.mean(np.asarray(pa, float)) - np.mean(np.asarray(pb, float)))
        else:
            doc = nan
        return float(sign * (a - b)), doc, "> 0 where the claim's order holds"
    if rule.get("how") == "true":
        held = np.atleast_1d(np.asarray(rule.get("ours"), dtype=bool))  # per replicate
        return float(held.mean()), 1.0, "share of replicates where it holds"
    ours = rule.get("ours")
    if isinstance(ours, list):  # one value per replicate (issue 38): their mean
        vals = [v for v in ours if isinstance(v, (int, float)) and not isinstance(v, bool)]
        ours = float(np.mean(vals)) if vals and len(vals) == len(ours) else nan
    ours = float(ours) if isinstance(ours, (int, float)) and not isinstance(ours, bool) else nan
    paper = rule.get("paper")
    doc = float(paper) if isinstance(paper, (int, float)) and not isinstance(paper, bool) else nan
    return ours, doc, "value"


def _matches(df: pd.DataFrame, sel: Mapping) -> pd.DataFrame:
    m = df.claim_id.astype(str) == str(sel["id"])
    for key, col in (("where", "where"), ("dataset", "dataset")):
        if sel.get(key) is not None:
            m &= df[col].fillna("").astype(str).map(lambda v, p=str(sel[key]): fnmatchcase(v, p))
    return df[m]


COLUMNS_AFTER = ["claim_id", "where", "dataset", "ours", "document", "measure", "our_value",
                 "paper_value", "tolerance", "verdict", "note"]  # fmt: skip


def step_params(
    study: str, rungs: list[Rung], claims: list[Mapping], run: str, all_rungs: bool = False
) -> dict:
    """What the ladder's collect and bench steps read (rules/ladder.smk passes it as
    ``--params``, so Snakemake reruns them when a rung or a selector changes): each rung's
    name, run, overrides, whether it fits here (and why not), whether this run builds it
    (``built``: it fits, or ``all_rungs``) and the value of every setting some rung changes."""
    cols = setting_columns(rungs)
    return {
        "study": study,
        "run": run,
        "claims": [dict(c) for c in claims],
        "settings": cols,
        "rungs": [
            {
                "rung": r.name,
                "index": r.index,
                "run": r.run,
                "set": r.overrides,
                "fits_here": r.fits_here,
                "reason": r.reason,
                "built": r.fits_here or all_rungs,
                "values": {c: _cell(_get(r.config, c)) for c in cols},
            }
            for r in rungs
        ],  # fmt: skip
    }


def collect(params: Mapping, ledgers: Mapping[str, str | Path]) -> pd.DataFrame:
    """ladder.csv: for every rung (in order) and every ledger row the ``claims`` selectors
    pick (``id``, optional ``where`` and ``dataset`` patterns), the rung's name, the value of
    every setting some rung changes, and the row (ours, the document's value, verdict; no
    cause: a rung's ledger has none, causes explain the published real run's misses).
    ``ledgers`` maps each rung built to its claims.csv; a rung not built (it does not fit
    here) gets one ``not_run_here`` row per selector, with its reason. A selector that picks
    no row of a ledger stops (the ladder's config and the study disagree)."""
    from latentlab.claims.ledger import read_claims

    cols, claims = params["settings"], params["claims"]
    rows = []
    for r in params["rungs"]:
        head = {"rung": r["rung"], "rung_index": r["index"], **r["values"]}
        if not r["built"]:
            for sel in claims:
                rows.append({**head, "claim_id": sel["id"], "where": sel.get("where", ""),
                             "dataset": sel.get("dataset", ""), "ours": math.nan,
                             "document": math.nan, "measure": sel["measure"], "our_value": "",
                             "paper_value": "", "tolerance": "", "verdict": NOT_RUN_HERE,
                             "note": f"not run here: {r['reason']}"})  # fmt: skip
            continue
        if r["rung"] not in ledgers:
            raise DataError(r["run"], f"rung {r['rung']} was built but has no ledger")
        path = ledgers[r["rung"]]
        df = read_claims(path).fillna("")
        for sel in claims:
            hit = _matches(df, sel)
            if (hit.verdict != "not_run").any():
                # a claim's not_run rows name the corpora the run leaves out
                hit = hit[hit.verdict != "not_run"]
            if hit.empty:
                ids = df[df.claim_id == sel["id"]][["where", "dataset"]].values.tolist()
                raise DataError(
                    path,
                    f"ladder {params['study']} rung {r['rung']}: claims selector {dict(sel)} "
                    f"picks no row (rows of {sel['id']}: {ids or 'none'})",
                )
            for _, row in hit.iterrows():
                ours, doc, how = _numbers(row)
                measure = sel["measure"] if how == "value" else f"{sel['measure']}; {how}"
                rows.append({**head, "claim_id": row.claim_id, "where": row["where"],
                             "dataset": row.dataset, "ours": ours, "document": doc,
                             "measure": measure, "our_value": row.our_value,
                             "paper_value": row.paper_value, "tolerance": row.tolerance,
                             "verdict": row.verdict, "note": row.note})  # fmt: skip
    return pd.DataFrame(rows, columns=["rung", "rung_index", *cols, *COLUMNS_AFTER])


def check_values(df: pd.DataFrame) -> None:
    """Missing numbers only where they mean something: ``ours`` on rows not judged (not
    run, not testable) or an order row the ledger gives as text, ``document`` where the
    document gives no number."""
    judged = df.verdict.isin(["reproduced", "not_reproduced", "inconclusive"])
    bad = df[judged & ~np.isfinite(df.ours.astype(float))]
    if len(bad):
        raise DataError("ladder.csv", f"judged rows without a number: {bad.claim_id.tolist()}")


MARKERS = {
    "reproduced": dict(marker="o", color="tab:green", label="reproduced"),
    "not_reproduced": dict(marker="X", color="tab:red", label="not reproduced"),
    "inconclusive": dict(marker="s", color="tab:orange", label="inconclusive"),
}


def series_keys(df: pd.DataFrame) -> list[tuple[str, str, str]]:
    """One panel per claim row kept by the ladder: (claim_id, where, dataset) of the
    rungs that ran, in the order of the CSV."""
    ran = df[df.verdict != NOT_RUN_HERE]
    return list(dict.fromkeys(zip(ran.claim_id, ran["where"], ran.dataset, strict=True)))


def draw(df: pd.DataFrame, study: str = "", suptitle: str = "", xlabel: str = ""):
    """ladder.png: one panel per claim row, our value at each rung (marker = verdict), the
    document's value as a dashed line; a rung that does not fit here is a tick without a
    point (its reason: ladder.csv). ``suptitle`` / ``xlabel`` replace the ladder's (a readings
    sweep draws its options the same way)."""
    from latentlab.plotting import figure

    keys = series_keys(df)
    rung_names = list(dict.fromkeys(df.sort_values("rung_index").rung))
    here = set(df[df.verdict == NOT_RUN_HERE].rung)
    labels = [f"{n} (not run here)" if n in here else n for n in rung_names]
    n = max(1, len(keys))
    ncols = min(3, n)
    nrows = math.ceil(n / ncols)
    width = max(3.6, 0.55 * len(rung_names) + 1.5)
    # the upright rung names take ~0.08 in per character below each panel: the panel grows
    # with them, so that the plotting area stays taller than its wrapped y label (ais_eval's
    # "docs80_S100 (not run here)" left 1.2 in, and the label ran into the suptitle)
    height = max(3.4, 2.6 + 0.08 * max(map(len, labels)))
    fig, axes = figure(nrows, ncols, width=width, height=height, squeeze=False)
    x_of = {name: i for i, name in enumerate(rung_names)}
    for ax, (cid, where, ds) in zip(axes.flat, keys, strict=False):
        s = df[(df.claim_id == cid) & (df["where"] == where) & (df.dataset == ds)]
        s = s.sort_values("rung_index")
        xs = [x_of[r] for r in s.rung]
        ys = s.ours.astype(float).to_numpy()
        ok = np.isfinite(ys)
        title = f"{cid} ({ds})" if ds else cid
        if not ok.any():  # judged at no rung: a text panel saying so
            ax.axis("off")
            ax.set_title(title, fontsize=9)
            ax.text(0.5, 0.5, "no value at any rung\n(not run: see ladder.csv notes)",
                    ha="center", va="center", transform=ax.transAxes)  # fmt: skip
            continue
        ax.plot(np.asarray(xs)[ok], ys[ok], color="0.6", lw=1, zorder=1)
        for verdict, style in MARKERS.items():
            m = (s.verdict == verdict).to_numpy() & ok
            if m.any():
                ax.scatter(np.asarray(xs)[m], ys[m], s=40, zorder=3, **style)
        doc = s.document.astype(float).dropna()
        if len(doc):
            ax.axhline(float(doc.iloc[0]), color="k", ls="--", lw=1, label="document")
        ax.set_xticks(range(len(rung_names)), labels, rotation=90)
        ax.set_xlim(-0.5, len(rung_names) - 0.5)
        measure = s.measure[s.measure != ""]
        ax.set_ylabel(textwrap.fill(measure.iloc[0], 38) if len(measure) else "value", fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.legend(loc="best", fontsize=7)
    for ax in list(axes.flat)[len(keys) :]:
        ax.axis("off")
    fig.supxlabel(xlabel or "rung (settings: ladder.csv)")
    from latentlab.plotting import name_dataset

    # each panel's title names its claim's dataset (the figure check's dataset rule)
    named = sorted({ds for _, _, ds in keys if ds})
    if named:
        name_dataset(fig, *named)
    if suptitle or study:
        fig.suptitle(suptitle or f"{study}: key claims, real settings -> the document's")
    return fig


def bench(params: Mapping, root: str | Path = ".") -> pd.DataFrame:
    """bench_targets.csv of a ladder: per rung that ran, its jobs, the sum of their wall
    seconds and CPU seconds and the largest memory (the rung's Snakemake benchmark files,
    ``benchmarks/<rung run>/**.tsv``), then a ``total`` row. The prepared datasets are
    shared by the rungs and counted in none."""
    from latentlab.bench_targets import collect as collect_dir

    rows = []
    for r in params["rungs"]:
        if not r["built"]:
            continue
        d = Path(root) / "benchmarks" / r["run"]
        dirs = sorted({f.parent for f in d.rglob("*.tsv")})
        if not dirs:
            raise DataError(d, f"rung {r['rung']}: no Snakemake benchmark files")
        jobs = pd.concat([collect_dir(x).query("target != 'total'") for x in dirs])
        rows.append({"rung": r["rung"], "jobs": len(jobs), "seconds": jobs.seconds.sum(),
                     "cpu_seconds": jobs.cpu_seconds.sum(),
                     "max_rss_mb": jobs.max_rss_mb.max()})  # fmt: skip
    df = pd.DataFrame(rows, columns=["rung", "jobs", "seconds", "cpu_seconds", "max_rss_mb"])
    total = {"rung": "total", "jobs": int(df.jobs.sum()), "seconds": df.seconds.sum(),
             "cpu_seconds": df.cpu_seconds.sum(), "max_rss_mb": df.max_rss_mb.max()}  # fmt: skip
    return pd.concat([df, pd.DataFrame([total])], ignore_index=True)


# ------------------------------------------------------------------ CLI
def _collect_cli(args) -> int:
    from latentlab.outputs import write_figure
    from latentlab.provenance import provenance

    params = args.params
    ledgers = dict(name_value(p, "RUNG=PATH") for p in args.ledger)
    df = collect(params, ledgers)
    check_values(df)
    meta = {"study": params["study"], "step": "ladder", "run": params["run"],
            "settings": params, "ledgers": ledgers, "provenance": provenance()}  # fmt: skip
    # NaN only where check_values allows it (rungs not run here, no number in the document)
    fig = draw(df, params["study"])
    write_figure(fig, args.png, df, args.csv, meta, allow_nan=True)
    return 0


def _bench_cli(args) -> int:
    from latentlab.outputs import write_table
    from latentlab.provenance import provenance

    params = args.params
    df = bench(params, args.root)
    not_here = [r["rung"] for r in params["rungs"] if not r["built"]]
    meta = {"study": params["study"], "run": params["run"], "rungs_not_run_here": not_here,
            "provenance": provenance()}  # fmt: skip
    write_table(df, args.csv, meta=meta)
    return 0


def register(subparsers) -> None:
    """``latentlab ladder collect|bench``: the ladder steps of rules/ladder.smk."""
    p = subparsers.add_parser("ladder", help="reduction ladders (docs/runs.md 'Ladders')")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    c = sub.add_parser("collect", help="ladder.csv + ladder.png from the rung ledgers")
    b = sub.add_parser("bench", help="bench_targets.csv: the time of each rung")
    for q in (c, b):
        q.add_argument("--params", type=json.loads, required=True, help="JSON (step_params)")
        q.add_argument("--csv", required=True)
    c.add_argument("--ledger", nargs="*", default=[], metavar="RUNG=PATH")
    c.add_argument("--png", required=True)
    b.add_argument("--root", default=".", help="folder holding benchmarks/")
    c.set_defaults(func=_collect_cli)
    b.set_defaults(func=_bench_cli)
