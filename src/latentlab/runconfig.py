"""The run configuration: a user's config file completed from its base, then validated
against ``config/schema.yaml`` with an error of a few lines (docs/config.md "Config files").

A config file given with ``--configfile`` needs only what it changes:

- ``base: smoke | real | paper`` merges the file over ``config/config.yaml``,
  ``config/real.yaml`` or ``config/paper.yaml`` (mappings key by key, any other value
  replaced);
- without ``base``, the file is completed by the schema's documented defaults only (no
  study, no dataset, seed 20261122), so nothing of the smoke run leaks into it;
- without ``run``, the run is named after the (last) config file: ``my.yaml`` writes
  ``results/my/``; with ``run:`` it writes ``results/{run}/``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import yaml

from latentlab.errors import ConfigError

SCHEMA = "config/schema.yaml"
BASES = {"smoke": "config/config.yaml", "real": "config/real.yaml", "paper": "config/paper.yaml"}

# The docs/ page and section documenting each top-level key (the rest: "Config files").
_SECTIONS = {
    "data": 'docs/data.md "Data"',
    "synthetic": 'docs/data.md "Data"',
    "compare": 'docs/config.md "Your corpus, every method (`compare`)"',
    "data.local": 'docs/config.md "Your corpus, every method (`compare`)"',
    "ladder": 'docs/runs.md "Ladders"',
}
_CONFIG_FILES = 'docs/config.md "Config files"'
STUDIES = ("scvb0", "hdp_pcvb0", "nonconjugate_vi", "ais_eval", "iwtm", "drift", "tir")
_STUDY_DOC = "src/latentlab/studies/{s}/study.py (settings), example: config/config.yaml"
MAX_ERRORS = 3


class ConfigFileError(ConfigError):
    """A config that does not validate: a few lines naming the key, the problem, what is
    allowed and where it is documented (never the schema)."""

    def __init__(self, key: str, lines: list[str]):
        Exception.__init__(self, "\n".join(lines))
        self.key = key


def merge(base: Mapping, over: Mapping) -> dict:
    """``over`` merged into a copy of ``base``: mappings key by key, other values replaced
    (what Snakemake does with several config files)."""
    out = copy.deepcopy(dict(base))
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def complete(config: Mapping, configfiles: Sequence, root: str | Path) -> dict:
    """The run's config: ``config`` (the merged config files and ``--config`` values) over
    its ``base`` run when it names one, ``run`` defaulting to the last config file's name."""
    cfg = dict(config)
    base = cfg.pop("base", None)
    if "run" not in cfg and configfiles:
        cfg["run"] = Path(str(configfiles[-1])).stem
    if base is not None:
        if base not in BASES:
            raise ConfigFileError(
                "base",
                [
                    f"config base: {base!r} is not a base run",
                    f"  allowed: {', '.join(BASES)} ({', '.join(BASES.values())})",
                    f"  documented: {_CONFIG_FILES}",
                ],
            )
        with open(Path(root) / BASES[base]) as f:
            cfg = merge(yaml.safe_load(f), cfg)
    studies = cfg.get("studies")
    if isinstance(studies, list) and "compare" in studies:
        raise ConfigFileError(
            "studies",
            [
                "config studies: 'compare' is not a study of `studies:`",
                f"  allowed: {', '.join(STUDIES)}; `compare` is its own target: "
                "snakemake --cores 2 --configfile=FILE compare (settings: the compare: section)",
                f"  documented: {_SECTIONS['compare']}",
            ],
        )
    return cfg


def _key(path) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _allowed(schema: Mapping) -> str:
    """What a schema node allows, in words."""
    if "enum" in schema:
        return ", ".join(map(str, schema["enum"]))
    parts = []
    t = schema.get("type")
    if t:
        parts.append(" or ".join(t) if isinstance(t, list) else t)
    for word, sym in (
        ("minimum", ">="),
        ("exclusiveMinimum", ">"),
        ("maximum", "<="),
        ("exclusiveMaximum", "<"),
    ):
        if word in schema:
            parts.append(f"{sym} {schema[word]}")
    if "pattern" in schema:
        parts.append(f"matching {schema['pattern']}")
    if schema.get("type") == "array" and "enum" in schema.get("items", {}):
        parts.append("of: " + ", ".join(map(str, schema["items"]["enum"])))
    if schema.get("uniqueItems"):
        parts.append("without repeats")
    text = " ".join(parts)
    desc = " ".join(str(schema.get("description", "")).split())
    if desc:
        desc = desc if len(desc) <= 90 else desc[:87] + "..."
        text = f"{text} ({desc})" if text else desc
    return text or "see the schema"


def _schema_node(schema_path, extra=()) -> list[str]:
    """The schema's node as a key path: data.local.<NAME>.path, studies[]."""
    out: list[str] = []
    parts = list(schema_path)
    for i, p in enumerate(parts):
        prev = parts[i - 1] if i else None
        if prev == "properties":
            out.append(str(p))
        elif p == "additionalProperties" and prev != "properties":
            out.append("<NAME>")
        elif p == "items" and prev != "properties" and out:
            out[-1] += "[]"
    return out + list(extra)


def _documented(path, schema_file: str, node: list[str] | None = None) -> str:
    """The schema node of ``path`` and the docs section (or study module) explaining it."""
    names = [p for p in path if isinstance(p, str)]
    where = f"{schema_file} ({'.'.join(node if node is not None else names) or 'top level'})"
    top = names[0] if names else ""
    if top in STUDIES:
        return f"{where}, {_STUDY_DOC.format(s=top)}"
    section = _SECTIONS.get(".".join(names[:2])) or _SECTIONS.get(top) or _CONFIG_FILES
    return f"{where}, {section}"


def _lines(error, schema_file: str) -> tuple[str, list[str]]:
    """The key and three lines of one jsonschema error."""
    path = list(error.absolute_path)
    v, sch = error.validator, error.schema
    if v == "required":
        missing = [k for k in sch.get("required", []) if k not in error.instance]
        key = _key([*path, missing[0]]) if missing else _key(path)
        desc = sch.get("properties", {}).get(missing[0] if missing else "", {})
        node = _schema_node(list(error.absolute_schema_path)[:-1], missing[:1])
        return key, [
            f"config {key}: missing (required)",
            f"  allowed: {_allowed(desc)}",
            f"  documented: {_documented([*path, *missing[:1]], schema_file, node)}",
        ]
    if v == "additionalProperties" and isinstance(error.instance, Mapping):
        known = set(sch.get("properties", {}))
        extra = [k for k in error.instance if k not in known]
        key = _key([*path, extra[0]]) if extra else _key(path)
        allowed = ", ".join(sorted(known)) if known else "(see the description)"
        node = _schema_node(list(error.absolute_schema_path)[:-1])
        also = f" (also unknown: {', '.join(map(str, extra[1:]))})" if extra[1:] else ""
        return key, [
            f"config {key}: unknown key{also}"[:200],
            f"  allowed keys here: {allowed}",
            f"  documented: {_documented(path, schema_file, node)}",
        ]
    problem = "is not one of the allowed values" if v == "enum" else f"is refused: {error.message}"
    return _key(path), [
        f"config {_key(path)}: {_short(error.instance)} {problem}"[:200],
        f"  allowed: {_allowed(sch)}",
        f"  documented: {_documented(path, schema_file, _schema_node(error.absolute_schema_path))}",
    ]


def _default_setting_validator(schema: Mapping):
    """A validator class of the schema's draft that fills in the ``default`` values (as
    ``snakemake.utils.validate`` does)."""
    from jsonschema import validators

    base = validators.validator_for(schema)
    props = base.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, sub in properties.items():
                if isinstance(sub, Mapping) and "default" in sub:
                    instance.setdefault(name, copy.deepcopy(sub["default"]))
        yield from props(validator, properties, instance, schema)

    return validators.extend(base, {"properties": set_defaults})


def validate(config: dict, root: str | Path, configfiles: Sequence = ()) -> dict:
    """Validate ``config`` in place against the schema (defaults filled in); a failure raises
    ConfigFileError of at most a dozen lines."""
    schema_file = str(Path(root) / SCHEMA)
    with open(schema_file) as f:
        schema = yaml.safe_load(f)
    errors = sorted(
        _default_setting_validator(schema)(schema).iter_errors(config),
        key=lambda e: [str(p) for p in e.absolute_path],
    )
    if not errors:
        return config
    src = ", ".join(map(str, configfiles)) or BASES["smoke"]
    lines = [f"config error ({len(errors)} problem(s); config files: {src}):"]
    keys = []
    for e in errors[:MAX_ERRORS]:
        key, more = _lines(e, SCHEMA)
        keys.append(key)
        lines += more
    if len(errors) > MAX_ERRORS:
        lines.append(f"... and {len(errors) - MAX_ERRORS} more: fix these first")
    raise ConfigFileError(keys[0], lines)


def load(config: dict, configfiles: Sequence, root: str | Path) -> dict:
    """``complete`` then ``validate``: the config a run uses."""
    return validate(complete(config, configfiles, root), root, configfiles)


@contextmanager
def documented(section: str) -> Iterator[None]:
    """Re-raise a ConfigError of a study's (or compare's) settings check with where the
    section's keys are documented (the settings dataclasses and a complete example)."""
    try:
        yield
    except ConfigFileError:
        raise
    except ConfigError as e:
        # every key: config/README.md (generated from the settings dataclasses)
        if section == "compare":
            doc = (
                "config/README.md (section compare), "
                "src/latentlab/studies/compare/study.py (settings dataclasses), "
                + _SECTIONS["compare"]
            )
        else:
            doc = (
                f"config/README.md (section {section}), "
                f"src/latentlab/studies/{section}/study.py (settings dataclasses); "
                f"a complete {section} section: config/config.yaml (`base: smoke` starts from it)"
            )
        key = getattr(e, "key", section)
        raise ConfigFileError(key, [str(e), f"  documented: {doc}"]) from None
