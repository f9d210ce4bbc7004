"""config/README.md is generated from the settings dataclasses and config/schema.yaml
(``python -m latentlab config reference``): a key added, renamed or given another default
or range without regenerating the page fails here."""

from __future__ import annotations

from pathlib import Path

from latentlab import config_reference

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


def test_docs_config_links_the_reference():
    assert "../config/README.md" in (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
