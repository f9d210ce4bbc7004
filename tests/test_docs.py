"""The README and the docs/ pages (issues 23 and 25): the README fits a screen or two and
opens with what a newcomer needs, every page is linked from it, every link of the pages
resolves, every file a command names exists, and (slow) every `snakemake` and
`latentlab rebuild` command they show resolves on a clean copy of the checkout, scheduling
jobs rather than "Nothing to be done".

The examples that run for real are tested beside their code: the `compare` and config
examples of docs/config.md in tests/test_readme_config.py, its error example in
tests/test_config_errors.py, the Python API block of docs/api.md in tests/test_readme_api.py.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from latentlab import runconfig

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]  # the pages whose commands must work on a fresh clone
LINKED = [*PAGES, ROOT / "CONTRIBUTING.md", ROOT / "published" / "README.md"]
MAX_README_LINES = 200  # issue 25
FIRST_SCREEN = 60  # lines: what is replicated, where the results are, the two commands

# Code spans that name a command but are not one to run as written, with the reason.
NOT_COMMANDS = {
    "snakemake -n": "a fragment: 'resolves with `snakemake -n`'",
    "snakemake --config compare=... compare": "the example of what fails (target after --config)",
    "snakemake --lint": "a fragment: what scripts/lint_workflow.py runs",
    "snakemake --report report.html": "needs a finished run (docs/outputs.md says so)",
}
_COMMAND_START = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:snakemake|python -m latentlab) ")


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _prose(text: str) -> str:
    """The page without its fenced code blocks."""
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    s = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return s.replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    heads = re.findall(r"^#+ (.+)$", _prose(page.read_text(encoding="utf-8")), flags=re.M)
    return {_slug(h) for h in heads}


def commands(page: Path) -> list[str]:
    """The commands a page shows: every line of its ```bash blocks (continuations joined,
    comments dropped, `a && b` split) and every inline code span that starts like a
    `snakemake` or `python -m latentlab` command (NOT_COMMANDS excepted)."""
    text = page.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```bash\n(.*?)^```", text, flags=re.S | re.M):
        for line in re.sub(r"\s*\\\n\s*", " ", block).splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                out += [part.strip() for part in line.split("&&")]
    for span in re.findall(r"`([^`]+)`", _prose(text)):
        span = " ".join(span.split())
        if _COMMAND_START.match(span) and span not in NOT_COMMANDS:
            out.append(span)
    return out


def _example_files(page: Path) -> dict[str, str]:
    """The files a page's ```yaml examples define (first line `# name.yaml`)."""
    blocks = re.findall(r"^```yaml\n(.*?)^```", page.read_text(encoding="utf-8"), flags=re.S | re.M)
    named = (re.match(r"#\s*(\S+\.yaml)\s*\n", b) for b in blocks)
    return {m.group(1): b for m, b in zip(named, blocks, strict=True) if m}


# --- the README --------------------------------------------------------------------------


def test_readme_fits_and_its_first_screen_says_what_a_newcomer_needs():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, len(lines)
    first = "\n".join(lines[:FIRST_SCREEN])
    for study in runconfig.STUDIES:  # what is replicated, one line each
        assert sum(f"| `{study}` |" in ln for ln in lines[:FIRST_SCREEN]) == 1, study
    for where in ("published/real/README.md", "published/real/REPORT.md"):
        assert f"({where})" in first, where
    assert 'python -m pip install -e ".[test]" && snakemake --cores 2' in first
    assert 'python -m pip install -e ".[test]" && python -m pytest' in first


def test_every_docs_page_is_linked_from_the_readme():
    text = README.read_text(encoding="utf-8")
    assert DOCS, "no docs/*.md"
    for page in DOCS:
        assert f"](docs/{page.name})" in text, page.name


# --- links and named files ---------------------------------------------------------------


@pytest.mark.parametrize("page", LINKED, ids=_rel)
def test_every_link_resolves(page):
    links = re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", _prose(page.read_text(encoding="utf-8")))
    for target in links:
        if re.match(r"[a-z]+:", target):
            continue  # http(s), mailto
        path, _, anchor = target.partition("#")
        dest = (page.parent / path) if path else page
        assert dest.exists(), f"{_rel(page)}: {target}"
        if anchor:
            assert dest.suffix == ".md" and anchor in _anchors(dest), f"{_rel(page)}: {target}"


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_the_files_a_command_names_exist(page):
    examples = _example_files(page)
    for cmd in commands(page):
        args = shlex.split(cmd)
        for i, a in enumerate(args):
            if a.startswith("--configfile="):
                name = a.split("=", 1)[1]
                assert name in examples or (ROOT / name).is_file(), (cmd, name)
            elif a == "--profile":
                assert (ROOT / args[i + 1]).is_dir(), cmd
            elif a.startswith(("scripts/", "published/")):  # a pattern must match a file
                assert any(ROOT.glob(a)) if "*" in a else (ROOT / a).exists(), (cmd, a)


# --- the commands on a clean copy (dry runs) ---------------------------------------------


def _mirror() -> str | None:
    for m in (os.environ.get("LATENTLAB_MIRROR"), ROOT.parent / "shared" / "data"):
        if m and Path(m).is_dir():
            return str(Path(m).resolve())  # absolute: the clean copy is elsewhere
    return None


def _write_example(wd: Path, name: str, yml: str) -> None:
    """A page's example config and the corpus files its data.local entries name (the tiny
    bundled corpus, as UCI files)."""
    sys.path.insert(0, str(ROOT / "tests" / "compare"))
    from compare_formats import tiny_corpus, write_uci

    (wd / name).write_text(yml)
    for spec in (yaml.safe_load(yml).get("data", {}).get("local") or {}).values():
        assert spec["format"] == "uci", "adapt this test to the example's format"
        (wd / "_tiny").mkdir(exist_ok=True)
        files = write_uci(tiny_corpus(), wd / "_tiny")
        shutil.copy(files["path"], wd / spec["path"])
        shutil.copy(files["vocab"], wd / spec["vocab"])


_RUNNABLE = re.compile(r"^(?:[A-Z_]+=\S+ )*(?:snakemake|python -m latentlab rebuild) ")
_DRY: list[tuple[Path, str]] = []  # each runnable command once, with the first page showing it
for _page in PAGES:
    for _cmd in commands(_page):
        if _RUNNABLE.match(_cmd) and all(_cmd != c for _, c in _DRY):
            _DRY.append((_page, _cmd))


@pytest.mark.slow
@pytest.mark.parametrize("page, cmd", _DRY, ids=[f"{_rel(p)}: {c}" for p, c in _DRY])
def test_command_resolves_on_a_clean_copy(clean_copy, page, cmd):
    """The command with `-n` added, in a clean copy: it resolves and schedules jobs (a
    committed file never stands in for the run's output)."""
    args = shlex.split(cmd)
    env = dict(os.environ, PYTHONPATH=str(clean_copy / "src"), MPLBACKEND="Agg")
    env.pop("LATENTLAB_MIRROR", None)
    while "=" in args[0]:
        key, value = args.pop(0).split("=", 1)
        if key == "LATENTLAB_MIRROR":
            value = _mirror()
            if value is None:
                pytest.skip("needs the data mirror (LATENTLAB_MIRROR or ../shared/data)")
        env[key] = value
    for name, yml in _example_files(page).items():
        if f"--configfile={name}" in args:
            _write_example(clean_copy, name, yml)
    if args[0] == "snakemake":
        run = [sys.executable, "-m", "snakemake", "-n", *args[1:]]
    else:  # python -m latentlab rebuild FILE...
        run = [sys.executable, *args[1:], "-n"]
    r = subprocess.run(
        run, cwd=clean_copy, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out[-3000:]
    assert "Nothing to be done" not in out, out[-3000:]
