"""Every caption of the HTML report (``report/**/*.rst``) renders without a docutils message.

``snakemake --report`` renders each caption as Snakemake does (snakemake/report: a Jinja
template given ``snakemake``, then ``docutils.core.publish_parts(..., writer_name="html")``)
and prints any docutils warning or error into the page: issue 40 found
``(ERROR/3) Undefined substitution referenced: "l-hat - l"`` in tir's l-recovery caption,
where ``|l-hat - l|`` reads as a substitution. Here each caption is rendered the same way,
once per value its ``{% if snakemake.wildcards.X == "..." %}`` branches test (and one
value none of them names), and any system message of level WARNING (2) or above fails.
"""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

import docutils.core
import jinja2
import pytest

ROOT = Path(__file__).resolve().parents[1]
CAPTIONS = sorted((ROOT / "report").rglob("*.rst"))


class _Anything(dict):
    """``snakemake.config`` / ``params``: any key gives a placeholder."""

    def __missing__(self, key):
        return f"<{key}>"

    def __getattr__(self, key):
        return self[key]


def _contexts(text: str):
    """One Jinja context per combination of the wildcard values the template tests."""
    names = sorted(set(re.findall(r"snakemake\.wildcards\.(\w+)", text)))
    values = {
        n: sorted(set(re.findall(rf'snakemake\.wildcards\.{n}\s*==\s*"([^"]*)"', text)))
        + ["<other>"]
        for n in names
    }
    for combo in itertools.product(*(values[n] for n in names)):
        wildcards = _Anything(zip(names, combo, strict=True))
        yield (
            wildcards,
            _Anything(
                wildcards=wildcards, config=_Anything(), params=_Anything(), input=[], output=[]
            ),
        )


def docutils_messages(rst: str) -> str:
    """The warnings and errors docutils reports while rendering ``rst`` to HTML ('' if
    none)."""
    stream = io.StringIO()
    docutils.core.publish_parts(
        rst,
        writer_name="html",
        settings_overrides={"report_level": 2, "halt_level": 5, "warning_stream": stream},
    )
    return stream.getvalue()


def test_the_check_catches_the_substitution_error_of_issue_40():
    assert "Undefined substitution" in docutils_messages("mean |l-hat - l| of ML")
    assert docutils_messages("mean ``|l-hat - l|`` of ML") == ""
    # a warning (level 2) counts as much as an error
    assert "WARNING/2" in docutils_messages("* an item\nnot indented")


def test_every_branch_of_a_template_is_rendered():
    text = (
        '{% if snakemake.wildcards.f == "a" %}A{% elif snakemake.wildcards.f == "b" %}B{% endif %}'
    )
    assert [w["f"] for w, _ in _contexts(text)] == ["a", "b", "<other>"]


@pytest.mark.parametrize("path", CAPTIONS, ids=lambda p: str(p.relative_to(ROOT)))
def test_report_caption_renders_without_a_docutils_message(path):
    assert CAPTIONS, "no captions under report/"
    text = path.read_text(encoding="utf-8")
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    for wildcards, snakemake in _contexts(text):
        rst = env.from_string(text).render(snakemake=snakemake, categories={}, files=[])
        msgs = docutils_messages(rst)
        assert msgs == "", f"{path.relative_to(ROOT)} (wildcards {dict(wildcards)}):\n{msgs}"
