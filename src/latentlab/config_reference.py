"""``config/README.md``: every config key, generated from the settings dataclasses.

``python -m latentlab config reference`` writes it; ``--check`` fails when the file differs
from what the code gives (``tests/test_config_reference.py`` runs the check, so a field
added without regenerating fails the tests).

Each study's section is the union of the settings dataclasses of its registered steps
(:class:`latentlab.studies.shape.Study`) and of its rules' settings; nested dataclasses are
expanded (``iwtm.gibbs.n_iter``, ``hdp_pcvb0.datasets.<NAME>.source``). For each key: its
type, its default, the range (:func:`latentlab.settings.setting`) or allowed values
(``Literal``) it states, the steps that read it (a change reruns those) and a one-line
description, taken from the comment on (or just above) the field's line, else from the
sentence of the class's docstring that names it. The top-level keys come from
``config/schema.yaml``.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import io
import json
import operator
import re
import textwrap
import tokenize
import types
import typing
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import yaml

from latentlab.settings import range_text

OUT = "config/README.md"
# every study with a config section, in the order of the schema's `studies` (+ compare)
STUDIES = (
    "scvb0",
    "hdp_pcvb0",
    "nonconjugate_vi",
    "ais_eval",
    "iwtm",
    "drift",
    "tir",
    "compare",
)
_WIDTH = 110  # longest description / default text in a cell
# a sentence (or a clause after ";") ends before a capital, a bracket or a backquote
_SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z(`])")
# a clause of a docstring (a field's line): ends at ".", ";" or ":" not before a digit
# ("Sec. 7.6" goes on)
_CLAUSE = re.compile(r"(?<=[.;:])\s+(?!\d)")


# ------------------------------------------------------------------ source comments
@cache
def _comments(path: str) -> tuple[dict[int, str], frozenset[int]]:
    """Line number -> the comment text on that line, and the lines holding only a comment."""
    out: dict[int, str] = {}
    alone = set()
    text = Path(path).read_text(encoding="utf-8")
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            body = tok.string.lstrip("#").strip()
            if not body.startswith(("fmt:", "noqa", "type:", "pragma")):
                out[tok.start[0]] = body
                if tok.line.strip().startswith("#"):
                    alone.add(tok.start[0])
    return out, frozenset(alone)


@cache
def _field_lines(cls) -> dict[str, tuple[int, int]]:
    """Field name -> (first line, last line) in the source file of ``cls``, for the
    fields ``cls`` itself declares."""
    try:
        src_lines, start = inspect.getsourcelines(cls)
    except (OSError, TypeError):
        return {}
    tree = ast.parse(textwrap.dedent("".join(src_lines)))
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.ClassDef):
        return {}
    return {
        st.target.id: (st.lineno + start - 1, st.end_lineno + start - 1)
        for st in node.body
        if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name)
    }


def _declaring_class(cls, name: str):
    for k in cls.__mro__:
        if name in k.__dict__.get("__annotations__", {}):
            return k
    return cls


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    text = text.replace("|", "\\|")
    if len(text) <= _WIDTH:
        return text
    cut = text[:_WIDTH].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + " …"


def _docstring_sentence(cls, name: str) -> str:
    doc = inspect.getdoc(cls) or ""
    if not doc or cls.__doc__ is None or f"``{name}``" not in doc:
        return ""
    for sentence in _CLAUSE.split(" ".join(doc.split())):
        if f"``{name}``" in sentence:
            return sentence.replace("``", "`").rstrip(";:,")
    return ""


def describe(cls, name: str) -> str:
    """One line on field ``name`` of ``cls``: its comment (on its first line, else the
    comment lines just above it), else the docstring sentence naming it."""
    owner = _declaring_class(cls, name)
    lines = _field_lines(owner)
    if name in lines:
        first, _ = lines[name]
        comments, alone = _comments(inspect.getsourcefile(owner))
        if first in comments:  # (a multi-line default's inner comments are its items')
            return _one_line(comments[first])
        above = []
        i = first - 1
        while i in alone:
            above.insert(0, comments[i])
            i -= 1
        if above:
            return _one_line(" ".join(above))
    return _one_line(_docstring_sentence(owner, name))


def class_summary(cls) -> str:
    """The first sentence of a dataclass's own docstring (not the generated signature)."""
    if cls.__doc__ is None or cls.__doc__.startswith(cls.__name__ + "("):
        return ""
    first = _SENTENCE.split(" ".join(cls.__doc__.split()), maxsplit=1)[0]
    return _one_line(first.replace("``", "`"))


# ------------------------------------------------------------------ types and defaults
def _strip_none(tp):
    if get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) < len(get_args(tp)):
            inner = args[0] if len(args) == 1 else functools.reduce(operator.or_, args)
            return inner, True
    return tp, False


def type_text(tp) -> str:
    """A type as a reader of YAML would say it."""
    if tp is Any:
        return "any"
    inner, optional = _strip_none(tp)
    if optional:
        return f"{type_text(inner)} or null"
    origin, args = get_origin(tp), get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(type_text(a) for a in args)
    if origin is Literal:
        kinds = sorted({type(a).__name__ for a in args})
        return " or ".join("string" if k == "str" else k for k in kinds)
    if dataclasses.is_dataclass(tp):
        return "mapping"
    if origin in (list, tuple):
        return f"list of {type_text(args[0]) if args else 'any'}"
    if origin is dict:
        return f"mapping of {type_text(args[1]) if len(args) == 2 else 'any'}"
    return {bool: "bool", int: "int", float: "float", str: "string"}.get(tp, str(tp))


def allowed_text(f: dataclasses.Field, tp) -> str:
    """Range and allowed values a field states (``Literal`` values, ``setting`` bounds)."""
    parts = []
    inner, _ = _strip_none(tp)
    while get_origin(inner) in (list, tuple, dict):
        a = get_args(inner)
        inner = _strip_none(a[-1] if get_origin(inner) is dict else a[0])[0] if a else Any
    if get_origin(inner) is Literal:
        parts.append("one of " + ", ".join(f"`{a}`" for a in get_args(inner)))
    r = range_text(f)
    if r:
        parts.append(r)
    return "; ".join(parts)


def _default(f: dataclasses.Field):
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


def _plain(value):
    """A default's item that JSON has no form for: a settings dataclass as its mapping (a
    list of them, e.g. hdp_pcvb0.evidence.traces.fits), anything else as its text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return str(value)


def default_text(value) -> str:
    if value is dataclasses.MISSING:
        return "**required**"
    if dataclasses.is_dataclass(value):
        return "(below)"
    text = json.dumps(value, default=_plain, ensure_ascii=False)
    text = text.replace("|", "\\|")
    return f"`{text}`" if len(text) <= 60 else f"`{text[:56]}…`"


# ------------------------------------------------------------------ rows
@dataclasses.dataclass
class Row:
    key: str
    type: str
    default: str
    allowed: str
    steps: str
    doc: str


def _field_rows(cls, f: dataclasses.Field, key: str, steps: str, depth: int = 0) -> list[Row]:
    """The row of field ``f`` of ``cls`` (config key ``key``) and those of its nested keys."""
    tp = get_type_hints(cls)[f.name]
    doc = describe(cls, f.name)
    inner, _ = _strip_none(tp)
    nested, sub = None, key
    if dataclasses.is_dataclass(inner):
        nested = inner
    elif get_origin(inner) is dict and dataclasses.is_dataclass(get_args(inner)[-1]):
        nested, sub = get_args(inner)[-1], f"{key}.<NAME>"
    elif get_origin(inner) in (list, tuple) and dataclasses.is_dataclass(get_args(inner)[0]):
        nested, sub = get_args(inner)[0], f"{key}[]"
    if nested is not None:
        doc = doc or class_summary(nested)
    row = Row(key, type_text(tp), default_text(_default(f)), allowed_text(f, tp), steps, doc)
    out = [row]
    if nested is not None and depth < 8:
        for g in dataclasses.fields(nested):
            out += _field_rows(nested, g, f"{sub}.{g.name}", "", depth + 1)
    return out


def study_rows(study) -> list[Row]:
    """The rows of one study's section: its top-level keys (alphabetical), each with the
    steps that read it (``(rules)``: the rules only), then its nested keys."""
    readers: dict[str, list[str]] = {}
    owner: dict[str, tuple[type, dataclasses.Field]] = {}
    classes = [(name, st.settings) for name, st in sorted(study.steps.items())]
    classes.append(("(rules)", study.rule_settings))
    for step, cls in classes:
        if cls is None:
            continue
        for f in dataclasses.fields(cls):
            readers.setdefault(f.name, []).append(step)
            owner.setdefault(f.name, (cls, f))
    rows = []
    for key in sorted(readers):
        cls, f = owner[key]
        rows += _field_rows(cls, f, f"{study.name}.{key}", ", ".join(readers[key]))
    return rows


# ------------------------------------------------------------------ the schema's keys
def _schema_type(node: dict) -> str:
    if "enum" in node:
        return "string"
    t = node.get("type", "any")
    t = t if isinstance(t, list) else [t]
    names = {"string": "string", "integer": "int", "number": "float", "boolean": "bool",
             "object": "mapping", "array": "list", "null": "null"}  # fmt: skip
    text = " or ".join(names.get(x, str(x)) for x in t)
    if "array" in t and isinstance(node.get("items"), dict):
        text = text.replace("list", f"list of {_schema_type(node['items'])}")
    return text


def _schema_allowed(node: dict) -> str:
    parts = []
    enum = node.get("enum") or (node.get("items") or {}).get("enum")
    if enum:
        parts.append("one of " + ", ".join(f"`{e}`" for e in enum))
    for word, sym in (("minimum", ">="), ("exclusiveMinimum", ">"), ("maximum", "<="),
                      ("exclusiveMaximum", "<"), ("minItems", "items >=")):  # fmt: skip
        if word in node:
            parts.append(f"{sym} {node[word]}")
    if "pattern" in node:
        parts.append(f"matching `{node['pattern']}`".replace("|", "\\|"))
    return "; ".join(parts)


def schema_rows(schema: dict, prefix: str = "", skip=()) -> list[Row]:
    """Rows of the schema's keys (study sections: their description only)."""
    rows = []
    required = set(schema.get("required", []))
    for name, node in (schema.get("properties") or {}).items():
        key = f"{prefix}{name}"
        default = default_text(node["default"]) if "default" in node else ""
        if name in required:
            default = "**required**"
        desc = " ".join(str(node.get("description", "")).split())
        first = re.split(r"(?<=[.:])\s+(?=[A-Z(])", desc, maxsplit=1)[0]
        rows.append(Row(key, _schema_type(node), default, _schema_allowed(node), "",
                        _one_line(first)))  # fmt: skip
        if name in skip:
            continue
        if node.get("properties"):
            rows += schema_rows(node, f"{key}.")
        extra = node.get("additionalProperties")
        if isinstance(extra, dict) and extra.get("properties"):
            rows += schema_rows(extra, f"{key}.<NAME>.")
        items = node.get("items")
        if isinstance(items, dict) and items.get("properties"):
            rows += schema_rows(items, f"{key}[].")
    return rows


# ------------------------------------------------------------------ the page
def _table(rows: list[Row], steps: bool) -> list[str]:
    head = ["key", "type", "default", "range / allowed"] + (["read by"] if steps else [])
    out = ["| " + " | ".join(head + ["description"]) + " |",
           "|" + "---|" * (len(head) + 1)]  # fmt: skip
    for r in rows:
        cells = [f"`{r.key}`", r.type, r.default, r.allowed] + ([r.steps] if steps else [])
        out.append("| " + " | ".join(cells + [r.doc]) + " |")
    return out


def render(root: str | Path = ".") -> str:
    """The text of ``config/README.md``."""
    from latentlab.studies.shape import load_study

    schema = yaml.safe_load((Path(root) / "config" / "schema.yaml").read_text())
    studies = [load_study(s) for s in STUDIES]
    lines = [
        "# Config reference",
        "",
        "<!-- generated by `python -m latentlab config reference` from config/schema.yaml and",
        "the settings dataclasses of src/latentlab/studies/*/study.py; do not edit by hand -->",
        "",
        "Every key a config file may set (how config files combine: "
        '[docs/config.md "Config files"](../docs/config.md#config-files)). The top-level keys',
        "are checked against `config/schema.yaml`; each study's section (and `compare`) is read",
        "into the settings dataclasses of its steps, and a key no step reads, a wrong type or a",
        "value out of its range stops `snakemake -n` before any job, naming the key. The",
        "defaults below are the only defaults (`config/config.yaml`, `real.yaml` and",
        "`paper.yaml` override some of them). `read by`: the steps whose jobs rerun when the",
        "key changes (`(rules)`: only the rules read it); a nested key is read by its",
        "section's steps. `<NAME>`: a name of your choice; `[]`: every item of a list.",
        "",
        "Sections: [top level](#top-level), "
        + ", ".join(f"[{s.name}](#{s.name})" for s in studies)
        + ".",
        "",
        "## top level",
        "",
        *_table(schema_rows(schema, skip=STUDIES), steps=False),
    ]
    for s in studies:
        lines += [
            "",
            f"## {s.name}",
            "",
            f"{s.title or s.name} ({s.cited}); settings: "
            f"`src/latentlab/studies/{s.name}/study.py`.",
            "",
            *_table(study_rows(s), steps=True),
        ]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ CLI
def _cmd_reference(args) -> int:
    from latentlab.cliutil import write_generated

    return write_generated(
        render(args.root), args, "the settings give", "python -m latentlab config reference"
    )


def register(subparsers) -> None:
    """``latentlab config reference [--check]``."""
    p = subparsers.add_parser("config", help="the config reference (config/README.md)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    r = sub.add_parser("reference", help="write config/README.md from the settings dataclasses")
    from latentlab.cliutil import add_generated_args

    add_generated_args(r, OUT, _cmd_reference)
