"""config/README.md is generated from the settings dataclasses and config/schema.yaml
(``python -m latentlab config reference``): a key added, renamed or given another default
or range without regenerating the page fails here."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from latentlab import config_reference
from latentlab.errors import ConfigError
from latentlab.settings import Invalid, parse_settings, setting

ROOT = Path(__file__).resolve().parents[1]


def test_committed_config_reference_is_current():
    text = config_reference.render(ROOT)
    committed = (ROOT / config_reference.OUT).read_text(encoding="utf-8")
    assert committed == text, (
        "config/README.md is stale: run `python -m latentlab config reference` and commit it"
    )


def test_every_study_key_has_a_row():
    """Every top-level key each study's steps read is a row of its section."""
    from latentlab.studies.shape import load_study

    text = (ROOT / config_reference.OUT).read_text(encoding="utf-8")
    for name in config_reference.STUDIES:
        for key in load_study(name).all_config_keys():
            assert f"| `{name}.{key}` |" in text, (name, key)


def test_every_key_has_a_description():
    """A newcomer reads what each key does (issue 25): no row with an empty description
    (the last cell; a ``\\|`` inside a cell is text, not a column)."""
    import re

    text = (ROOT / config_reference.OUT).read_text(encoding="utf-8")
    empty = [
        cells[1].strip()
        for line in text.splitlines()
        if line.startswith("| `")
        for cells in [re.split(r"(?<!\\)\|", line)]
        if not cells[-2].strip()
    ]
    assert not empty, f"{len(empty)} keys without a description: {empty[:20]}"


def test_docs_config_links_the_reference():
    assert "../config/README.md" in (ROOT / "docs" / "config.md").read_text(encoding="utf-8")


@dataclass(frozen=True)
class _Inner:
    lo: int = setting(1, ge=1)
    hi: int = 5

    def __post_init__(self):
        if self.hi < self.lo:
            raise Invalid("hi", f"{self.hi} < lo {self.lo}")


@dataclass(frozen=True)
class _Outer:
    rho: float = setting(0.5, gt=0, le=1)
    T: list[int] = setting(factory=lambda: [2], ge=1)
    cap: int | None = setting(None, ge=1)
    inner: _Inner = field(default_factory=_Inner)


@pytest.mark.parametrize(
    "mapping, msg",
    [
        ({"rho": 0}, r"config s\.rho: must be > 0, <= 1, got 0"),
        ({"T": [3, 0]}, r"config s\.T\[1\]: must be >= 1, got 0"),
        ({"cap": 0}, r"config s\.cap: must be >= 1"),
        ({"inner": {"lo": 0}}, r"config s\.inner\.lo: must be >= 1"),
        ({"inner": {"lo": 6}}, r"config s\.inner\.hi: 5 < lo 6"),
    ],
)
def test_ranges_and_cross_field_checks_name_the_full_key(mapping, msg):
    """``setting`` bounds a number or every number of a list/mapping (None passes);
    ``Invalid`` from ``__post_init__`` is re-keyed to the full config key."""
    with pytest.raises(ConfigError, match=msg):
        parse_settings(_Outer, mapping, "s")


def test_values_in_range_pass_and_the_reference_states_the_range():
    s = parse_settings(_Outer, {"rho": 1, "T": [1, 3], "cap": None}, "s")
    assert s.rho == 1.0 and s.T == [1, 3] and s.inner == _Inner()
    f = _Outer.__dataclass_fields__["rho"]
    (row,) = config_reference._field_rows(_Outer, f, "s.rho", "x")
    assert row.allowed == "> 0, <= 1" and row.default == "`0.5`" and row.type == "float"
