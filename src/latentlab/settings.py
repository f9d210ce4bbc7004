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
"""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any, Literal, get_args, get_origin, get_type_hints

from latentlab.errors import ConfigError

_MISSING = dataclasses.MISSING


def field_names(cls) -> list[str]:
    """The config keys a settings dataclass reads (its field names)."""
    return [f.name for f in dataclasses.fields(cls)]


def parse_settings(cls, mapping: Any, where: str, *, ignore: tuple[str, ...] = ()):
    """Build ``cls`` from ``mapping``; unknown keys, missing required keys and wrong types
    raise :class:`ConfigError` naming ``where.key``. Keys in ``ignore`` are passed over."""
    if not isinstance(mapping, dict):
        raise ConfigError(where, f"expected a mapping, got {type(mapping).__name__}")
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(mapping) - set(fields) - set(ignore))
    if unknown:
        raise ConfigError(
            f"{where}.{unknown[0]}",
            f"unknown key (misspelt?); {cls.__name__} reads {sorted(fields)}",
        )
    kwargs = {}
    for name, f in fields.items():
        if name in mapping:
            kwargs[name] = _convert(hints[name], mapping[name], f"{where}.{name}")
        elif f.default is _MISSING and f.default_factory is _MISSING:
            raise ConfigError(f"{where}.{name}", f"required by {cls.__name__}, not given")
    return cls(**kwargs)


def _convert(tp, value, where: str):
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
                return _convert(a, value, where)
            except ConfigError as e:
                errors.append(str(e))
        raise ConfigError(where, f"{value!r} fits none of {tp}")
    if origin is Literal:
        if value not in args:
            raise ConfigError(where, f"{value!r} is not one of {list(args)}")
        return value
    if dataclasses.is_dataclass(tp):
        return parse_settings(tp, value, where)
    if origin in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(where, f"expected a list, got {value!r}")
        item = args[0] if args else Any
        out = [_convert(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
        return out if origin is list else tuple(out)
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(where, f"expected a mapping, got {value!r}")
        vt = args[1] if len(args) == 2 else Any
        return {str(k): _convert(vt, v, f"{where}.{k}") for k, v in value.items()}
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
