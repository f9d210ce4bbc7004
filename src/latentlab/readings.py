"""Readings of a document (issue 37): the choices it leaves open, their sweeps, and what
each gives.

A study declares its readings in ``studies/<study>/readings.py`` as ``READINGS``, a list of
:class:`~latentlab.claims.spec.Reading` (the document's sentence, the options as overrides of
the study's config section, the option the published run uses and why, the rows it touches).

* Every ledger row a reading touches names the option its number uses: the ``reading``
  column, ``name=option`` from the run's own settings (:func:`labels`; ``custom`` when the
  settings match no option).
* A readings sweep reruns the study's own rules once per option with the run's config, the
  sweep's ``set`` (its scale, from the config's ``readings.studies``) and the option's
  overrides: a Snakemake module per option, run ``<run>/readings/<study>/<reading>/<option>``,
  as a ladder's rungs (``rules/readings.smk``; :func:`sweeps`). The study's claims step judges
  each option in partial mode, and :func:`collect` writes
  ``results/<run>/<study>/readings/<reading>.csv`` (option x row: our value, replicates,
  spread, verdict) and its figure.
* The study's claims step reads the sweeps (``readings.source``: ``run``, this run's own;
  a folder such as ``published/real``, the committed ones; ``none``). A ``not_reproduced``
  row that another option reproduces gets the cause ``reading`` with the sweep as evidence
  (:func:`apply`); its verdict stays the one of the reading its run uses.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import asdict, is_dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pandas as pd

from latentlab import runconfig
from latentlab.cliutil import name_value
from latentlab.errors import ConfigError, DataError
from latentlab.studies.shape import readings_of

SOURCES_FIXED = ("run", "none")
# what a readings sweep's config may not set (they name the sweep's run, not its settings)
_RESERVED = ("base", "run", "studies", "ladder", "readings")


def _flat(d: Mapping, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping) and v:
            out.update(_flat(v, key))
        else:
            out[key] = v
    return out


def _plain(x):
    """Settings values compared as JSON: dataclasses as dicts, tuples as lists."""
    if is_dataclass(x) and not isinstance(x, type):
        x = asdict(x)
    return json.loads(json.dumps(x, default=list, sort_keys=True))


def setting_value(study_obj, section: Mapping, dotted: str):
    """The parsed value of a dotted key of a study's section (defaults from the dataclass
    of the first step that reads its top-level key)."""
    top, *rest = dotted.split(".")
    for step in study_obj.steps:
        if top in study_obj.config_keys(step):
            obj = getattr(study_obj.settings(step, dict(section)), top)
            for part in rest:
                obj = obj[part] if isinstance(obj, Mapping) else getattr(obj, part)
            return obj
    raise ConfigError(f"{study_obj.name}.{dotted}", "no step of the study reads this key")


def option_of(study_obj, reading, section: Mapping) -> str:
    """The label of the option the settings in ``section`` implement (``custom`` when none
    does)."""
    for label, over in reading.options.items():
        flat = _flat(over)
        if all(_plain(setting_value(study_obj, section, k)) == _plain(v) for k, v in flat.items()):
            return label
    return "custom"


def labels(study: str, section: Mapping | None) -> dict[str, str]:
    """``{reading: option}`` for the run's settings of ``study`` (its config section)."""
    rs = readings_of(study)
    if not rs:
        return {}
    from latentlab.studies.shape import load_study

    st = load_study(study)
    return {r.name: option_of(st, r, section or {}) for r in rs}


def check(study: str, base: Mapping | None = None) -> None:
    """A study's readings are consistent with its claims and its settings: every row
    pattern matches a claim, every option's overrides parse (merged over ``base``, a
    section of the study's config; keys the overrides and ``base`` leave out may be
    missing, as in the section of a study a run does not list), the options differ."""
    from latentlab.studies.shape import load_study

    st = load_study(study)
    rs = readings_of(study)
    names = [r.name for r in rs]
    if len(set(names)) != len(names):
        raise ValueError(f"{study}: readings declared twice: {names}")
    for r in rs:
        for label, over in r.options.items():
            try:
                st.check_config(runconfig.merge(base or {}, over), partial=True)
            except ConfigError as e:
                raise ValueError(f"{study} reading {r.name} option {label}: {e}") from None
        flats = [json.dumps(_plain(_flat(o)), sort_keys=True) for o in r.options.values()]
        if len(set(flats)) != len(flats):
            raise ValueError(f"{study} reading {r.name}: two options set the same values")


# ------------------------------------------------------------------ the sweeps
def sweeps(config: Mapping, root: str | Path, configfiles=()) -> dict[str, dict[str, list]]:
    """``{study: {reading: [Rung per option]}}`` of the sweeps ``config["readings"]``
    asks for, each option with the complete config of its run (the run's config without
    its ``ladder`` and ``readings``, the sweep's ``set`` and the option merged over it; run
    ``<run>/readings/<study>/<reading>/<option>``; the run's prepared datasets). A bad
    sweep stops here with a few lines naming its key."""
    from latentlab.ladder import Rung
    from latentlab.studies.shape import load_study

    spec = config.get("readings") or {}
    base = {k: copy.deepcopy(v) for k, v in config.items() if k not in ("ladder", "readings")}
    base["readings"] = {"source": "none", "studies": {}}
    data_run = (config.get("data") or {}).get("run") or config["run"]
    out: dict[str, dict[str, list]] = {}
    for study, wanted in (spec.get("studies") or {}).items():
        declared = {r.name: r for r in readings_of(study)}
        for name, sweep in (wanted or {}).items():
            where = f"readings.studies.{study}.{name}"
            if name not in declared:
                raise ConfigError(
                    where, f"{study} declares no reading {name!r} (it has {sorted(declared)})"
                )
            over = (sweep or {}).get("set") or {}
            unknown = sorted(set(sweep or {}) - {"set", "targets"})
            if unknown:
                raise ConfigError(f"{where}.{unknown[0]}", "a sweep has `set` and `targets`")
            bad = [k for k in over if k in _RESERVED]
            if bad:
                raise ConfigError(f"{where}.set.{bad[0]}", "a sweep sets settings only")
            rungs = []
            for i, (label, opt) in enumerate(declared[name].options.items()):
                cfg = runconfig.merge(runconfig.merge(base, over), {study: opt})
                cfg["run"] = f"{config['run']}/readings/{study}/{name}/{label}"
                cfg["studies"] = [study]
                cfg.setdefault("data", {})["run"] = data_run
                try:
                    runconfig.validate(cfg, root, configfiles)
                    load_study(study).check_config(cfg.get(study, {}))
                except ConfigError as e:
                    raise ConfigError(f"{where}.set", str(e).removeprefix("config ")) from None
                rungs.append(
                    Rung(
                        study,
                        f"{name}_{label}",
                        i,
                        copy.deepcopy(opt),
                        True,
                        "",
                        cfg,
                        prefix="readings",
                    )  # fmt: skip
                )
            out.setdefault(study, {})[name] = rungs
    return out


def sweep_inputs(config: Mapping, study: str, out_dir: str) -> list[str]:
    """The readings sweeps a study's claims step reads (``readings.source``): this run's
    (``run``: ``<out_dir>/<study>/readings/<reading>.csv`` for each sweep the config asks
    for), a folder's committed ones that exist, or none."""
    spec = config.get("readings") or {}
    source = spec.get("source", "none")
    if source == "none":
        return []
    if source == "run":
        wanted = (spec.get("studies") or {}).get(study) or {}
        return [f"{out_dir}/{study}/readings/{name}.csv" for name in wanted]
    folder = Path(source) / study / "readings"
    return [str(folder / f"{r.name}.csv") for r in readings_of(study)
            if (folder / f"{r.name}.csv").is_file()]  # fmt: skip


def step_params(study: str, reading, rungs: list, run: str) -> dict:
    """What the sweep's collect step reads (rules/readings.smk passes it as ``--params``)."""
    return {
        "study": study,
        "run": run,
        "reading": reading.name,
        "published": reading.published,
        "rows": list(reading.rows),
        "options": [
            {
                "option": r.name.removeprefix(f"{reading.name}_"),
                "index": r.index,
                "run": r.run,
                "set": r.overrides,
            }  # fmt: skip
            for r in rungs
        ],
    }


COLUMNS = ["reading", "option", "option_index", "published", "claim_id", "where", "dataset",
           "ours", "document", "measure", "our_value", "n_rep", "spread", "paper_value",
           "tolerance", "verdict", "note", "set"]  # fmt: skip


def collect(params: Mapping, ledgers: Mapping[str, str | Path]) -> pd.DataFrame:
    """``<reading>.csv``: for every option (in order) and every row of its ledger that the
    reading touches (and that was judged), the row's numbers and verdict. An option without
    a ledger, or a reading that touches no judged row of an option, stops: the sweep and
    the study disagree."""
    from latentlab.claims.ledger import JUDGED, read_claims
    from latentlab.ladder import _numbers

    rows = []
    for o in params["options"]:
        label = o["option"]
        if label not in ledgers:
            raise DataError(o["run"], f"reading {params['reading']} option {label}: no ledger")
        df = read_claims(ledgers[label]).fillna("")
        hit = df[df.claim_id.map(lambda c: any(fnmatchcase(c, p) for p in params["rows"]))]
        hit = hit[hit.verdict.isin(JUDGED)]
        if hit.empty:
            raise DataError(
                ledgers[label],
                f"reading {params['reading']} option {label}: no judged row matches "
                f"{params['rows']}",
            )
        for _, row in hit.iterrows():
            ours, doc, how = _numbers(row)
            rows.append({"reading": params["reading"], "option": label,
                         "option_index": o["index"], "published": label == params["published"],
                         "claim_id": row.claim_id, "where": row["where"],
                         "dataset": row.dataset, "ours": ours, "document": doc,
                         "measure": row.statement if how == "value" else
                         f"{row.statement}; {how}", "our_value": row.our_value,
                         "n_rep": row.n_rep, "spread": row.spread,
                         "paper_value": row.paper_value, "tolerance": row.tolerance,
                         "verdict": row.verdict, "note": row.note,
                         "set": json.dumps(o["set"], sort_keys=True)})  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def draw(df: pd.DataFrame, study: str, reading: str):
    """The sweep's figure: one panel per row, our value under each option (marker: the
    verdict), the document's value as a dashed line (:func:`latentlab.ladder.draw`)."""
    from latentlab.ladder import draw as draw_ladder

    d = df.rename(columns={"option": "rung", "option_index": "rung_index"})
    return draw_ladder(
        d,
        suptitle=f"{study}: reading {reading}, each option on the run's data, split and seeds",
        xlabel=f"option of reading {reading} (settings: {reading}.csv)",
    )


# ------------------------------------------------------------------ CLI
def _collect_cli(args) -> int:
    from latentlab.outputs import write_figure
    from latentlab.provenance import provenance

    params = args.params
    ledgers = dict(name_value(p, "OPTION=PATH") for p in args.ledger)
    df = collect(params, ledgers)
    meta = {"study": params["study"], "step": "readings", "reading": params["reading"],
            "run": params["run"], "settings": params, "ledgers": ledgers,
            "provenance": provenance()}  # fmt: skip
    fig = draw(df, params["study"], params["reading"])
    write_figure(fig, args.png, df, args.csv, meta, allow_nan=True)
    return 0


def _list_cli(args) -> int:
    import pkgutil

    import latentlab.studies as studies

    names = sorted(m.name for m in pkgutil.iter_modules(studies.__path__) if m.ispkg)
    for study in args.studies or names:
        for r in readings_of(study):
            print(f"{study}.{r.name} ({r.where}): options {list(r.options)}, published "
                  f"{r.published!r}; rows {list(r.rows)}")  # fmt: skip
            print(f'    "{r.sentence}"')
            print(f"    why {r.published}: {r.why}")
    return 0


def register(subparsers) -> None:
    """``latentlab readings collect|list``: the readings steps of rules/readings.smk."""
    p = subparsers.add_parser("readings", help="readings of the documents (docs/runs.md)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    c = sub.add_parser("collect", help="<reading>.csv + .png from the option ledgers")
    c.add_argument("--params", type=json.loads, required=True, help="JSON (step_params)")
    c.add_argument("--csv", required=True)
    c.add_argument("--png", required=True)
    c.add_argument("--ledger", nargs="*", default=[], metavar="OPTION=PATH")
    c.set_defaults(func=_collect_cli)
    li = sub.add_parser("list", help="the readings each study declares")
    li.add_argument("studies", nargs="*")
    li.set_defaults(func=_list_cli)
