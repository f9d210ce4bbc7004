"""Typed step settings: a config mapping parsed into a dataclass, strictly.

Each study step declares one dataclass whose fields are the config keys it reads and
whose defaults are the only defaults (the schema and the code hold none). Parsing is
strict, so a misspelt key stops the run naming it::

    @dataclass(frozen=True)
    class CurvesSettings:
        datasets: list[str]
        minibatch: int = 100

    s = parse_settings(CurvesSettings, config["scvb0"], where="scvb0")

Supported field types: bool, int, float, str, ``X | None``, ``list[X]``, ``tuple[X, ...]``,
``dict[str, X]``, ``Literal[...]``, nested dataclasses, and ``Any`` (taken as given).
Ints are accepted where floats are expected; bools are never taken for numbers.

A range is declared on the field, so that the start-up check enforces it and the config
reference (``config/README.md``, :mod:`latentlab.config_reference`) states it::

    n_iter: int = setting(500, ge=1)                    # >= 1
    rho: float = setting(0.5, gt=0, le=1)               # in (0, 1]
    T: list[int] = setting(factory=lambda: [25], ge=1)  # every item >= 1

A check that relates several fields goes in ``__post_init__`` and raises :class:`Invalid`
with the field's name; :func:`parse_settings` re-raises it naming the full key
(``iwtm.ivi.max_per_class``).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

from latentlab.errors import ConfigError

_MISSING = dataclasses.MISSING
_BOUNDS = (("ge", ">="), ("gt", ">"), ("le", "<="), ("lt", "<"))


class Invalid(ConfigError):
    """A settings value refused by its dataclass's ``__post_init__``: ``key`` is the field's
    name (or a dotted path below it), completed to the full config key by
    :func:`parse_settings`."""

    def __init__(self, key: str, problem: str):
        super().__init__(key, problem)
        self.problem = problem


def require_by_kind(obj, needs: dict[str, tuple[str, ...]], switch: str = "kind") -> None:
    """Per-kind required fields, for a settings dataclass's ``__post_init__``: when
    ``obj.<switch>`` is ``k``, every field named in ``needs[k]`` must be given (not None),
    e.g. a synthetic corpus its size and a real one its dataset's name, and a field only
    another kind needs must not be (it would be silently unused)."""
    kind = getattr(obj, switch)
    for other, names in needs.items():
        for name in names:
            if other != kind and name not in needs.get(kind, ()) and getattr(obj, name) is not None:
                raise Invalid(
                    name, f"given, but it is for {switch} {other!r} and {switch} is {kind!r}"
                )
    for name in needs.get(kind, ()):
        if getattr(obj, name) is None:
            raise Invalid(name, f"required when {switch} is {kind!r}")


def setting(
    default: Any = _MISSING,
    *,
    factory: Any = _MISSING,
    ge: float | None = None,
    gt: float | None = None,
    le: float | None = None,
    lt: float | None = None,
):
    """A settings field with a range: ``ge``/``gt``/``le``/``lt`` bound a number, or every
    number of a list or mapping value (``None`` values pass). Checked by
    :func:`parse_settings`, stated by the config reference."""
    bounds = {k: v for k, v in (("ge", ge), ("gt", gt), ("le", le), ("lt", lt)) if v is not None}
    return dataclasses.field(default=default, default_factory=factory, metadata=bounds)


def range_text(f: dataclasses.Field) -> str:
    """The range a field declares, in words (``>= 1``, ``> 0, <= 1``), or ``""``."""
    return ", ".join(f"{sym} {f.metadata[k]}" for k, sym in _BOUNDS if k in f.metadata)


def _check_range(f: dataclasses.Field, value: Any, where: str) -> None:
    if value is None or not any(k in f.metadata for k, _ in _BOUNDS):
        return
    if isinstance(value, dict):
        for k, v in value.items():
            _check_range(f, v, f"{where}.{k}")
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_range(f, v, f"{where}[{i}]")
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return
    m = f.metadata
    ok = (
        ("ge" not in m or value >= m["ge"])
        and ("gt" not in m or value > m["gt"])
        and ("le" not in m or value <= m["le"])
        and ("lt" not in m or value < m["lt"])
    )
    if not ok:
        raise ConfigError(where, f"must be {range_text(f)}, got {value!r}")


def misspelt(key: str, known) -> str:
    """``misspelt?``, with the closest known key when one is close (``did you mean
    'minibatch'?``): the words of an unknown-key error."""
    import difflib

    by_lower = {str(k).lower(): str(k) for k in sorted(known, key=str)}
    close = difflib.get_close_matches(str(key).lower(), list(by_lower), n=1)
    return f"misspelt? did you mean {by_lower[close[0]]!r}?" if close else "misspelt?"


def field_names(cls) -> list[str]:
    """The config keys a settings dataclass reads (its field names)."""
    return [f.name for f in dataclasses.fields(cls)]


def _known_keys(cls, mapping: Any, where: str, ignore: tuple[str, ...]) -> tuple[dict, dict]:
    """``cls``'s type hints and fields, after refusing a ``mapping`` that is not one or that
    gives a key ``cls`` does not read (naming ``where.key`` and the closest known key)."""
    if not isinstance(mapping, dict):
        raise ConfigError(where, f"expected a mapping, got {type(mapping).__name__}")
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(mapping) - set(fields) - set(ignore))
    if unknown:
        raise ConfigError(
            f"{where}.{unknown[0]}",
            f"unknown key ({misspelt(unknown[0], fields)}); {cls.__name__} reads {sorted(fields)}",
        )
    return hints, fields


def parse_settings(cls, mapping: Any, where: str, *, ignore: tuple[str, ...] = ()):
    """Build ``cls`` from ``mapping``; unknown keys, missing required keys and wrong types
    raise :class:`ConfigError` naming ``where.key``. Keys in ``ignore`` are passed over."""
    hints, fields = _known_keys(cls, mapping, where, ignore)
    kwargs = {}
    for name, f in fields.items():
        if name in mapping:
            kwargs[name] = _convert(hints[name], mapping[name], f"{where}.{name}")
            _check_range(f, kwargs[name], f"{where}.{name}")
        elif f.default is _MISSING and f.default_factory is _MISSING:
            raise ConfigError(f"{where}.{name}", f"required by {cls.__name__}, not given")
    try:
        return cls(**kwargs)
    except Invalid as e:
        raise ConfigError(f"{where}.{e.key}", e.problem) from None


def check_given(cls, mapping: Any, where: str, *, ignore: tuple[str, ...] = ()) -> dict:
    """Check the keys ``mapping`` gives as :func:`parse_settings` would (unknown keys, types,
    ranges, in nested settings too) but let required keys be missing: a config section no
    step of this run reads may be incomplete, yet a misspelt key in it still stops the run.
    ``__post_init__`` checks, which need every field, are not run. Returns the converted
    values."""
    hints, fields = _known_keys(cls, mapping, where, ignore)
    out = {}
    for name in mapping:
        if name in fields:
            out[name] = _convert(hints[name], mapping[name], f"{where}.{name}", partial=True)
            _check_range(fields[name], out[name], f"{where}.{name}")
    return out


def _convert(tp, value, where: str, partial: bool = False):
    """``value`` as type ``tp``; with ``partial``, a nested settings mapping is checked
    by :func:`check_given` (its missing keys allowed) instead of built."""
    origin = get_origin(tp)
    args = get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for a in args:
            if a is type(None):
                continue
            try:
                return _convert(a, value, where, partial)
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError(where, f"{value!r} fits none of {tp}")
    if origin is Literal:
        if value not in args:
            raise ConfigError(where, f"{value!r} is not one of {list(args)}")
        return value
    if dataclasses.is_dataclass(tp):
        return check_given(tp, value, where) if partial else parse_settings(tp, value, where)
    if origin in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(where, f"expected a list, got {value!r}")
        item = args[0] if args else Any
        out = [_convert(item, v, f"{where}[{i}]", partial) for i, v in enumerate(value)]
        return out if origin is list else tuple(out)
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(where, f"expected a mapping, got {value!r}")
        vt = args[1] if len(args) == 2 else Any
        return {str(k): _convert(vt, v, f"{where}.{k}", partial) for k, v in value.items()}
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(where, f"expected true/false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(where, f"expected an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(where, f"expected a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(where, f"expected a string, got {value!r}")
        return value
    raise TypeError(f"{where}: settings type {tp!r} is not supported")


def settings_dict(obj) -> dict:
    """A settings dataclass as plain data (for ``.meta.json``)."""
    return dataclasses.asdict(obj)
