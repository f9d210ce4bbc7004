"""Every study lists the modules that register its steps (``Study(..., modules=...)``),
nothing registers a step from elsewhere, and a job imports only its own study (issue 25)."""

import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import latentlab.studies as studies
from latentlab.studies.shape import load_study

STUDIES = ["ais_eval", "compare", "drift", "hdp_pcvb0", "iwtm", "nonconjugate_vi", "scvb0", "tir"]

# a registration in a study's source: a step, a claim function, the claims, a redraw, or a
# counter-example for the claims prover (indented ones too: registrations made in a loop)
_REGISTERS = re.compile(
    r"^\s*@?(?:STUDY\.(?:run|figure|table|redraw|claim|claims|causes)\(|counter_example\()",
    re.M,
)

# `python -m latentlab <study> <step> --help` for every step of the study, one after
# another in one process (each call builds the parser as a job does, importing the modules
# of its step), then the modules of other studies that the process holds
_HELP_EVERY_STEP = """
import contextlib, io, json, runpy, sys
study, steps = sys.argv[1], json.loads(sys.argv[2])
for step in steps:
    sys.argv = ["latentlab", study, step, "--help"]
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            runpy.run_module("latentlab", run_name="__main__", alter_sys=True)
        except SystemExit as e:
            if e.code != 0:
                raise SystemExit(f"{study} {step} --help: exit {e.code}")
own = f"latentlab.studies.{study}"
shared = ("latentlab.studies", "latentlab.studies.shape")
print(json.dumps(sorted(
    m for m in sys.modules
    if m.startswith("latentlab.studies.") and m not in shared
    and m != own and not m.startswith(own + ".")
)))
"""


def test_the_eight_studies():
    found = sorted(m.name for m in pkgutil.iter_modules(studies.__path__) if m.ispkg)
    assert found == STUDIES


@pytest.mark.parametrize("name", STUDIES)
def test_study_lists_its_modules_and_imports_no_other_study(name):
    """Every registered step, claim function and redraw comes from a module of the study's
    list, every listed module registers something, no module outside the list registers
    anything (its steps would be missing from jobs and from the rules), and a
    ``python -m latentlab <study> <step> --help`` process imports no other study's modules.
    (The help calls run in one process: each imports a subset of the study's modules, so
    what the union lacks, no single job has.)"""
    study = load_study(name)
    pkg = f"latentlab.studies.{name}"
    listed = {f"{pkg}.{m}" for m in study.modules}
    assert len(listed) == len(study.modules), study.modules

    registered = {st.fn.__module__: step for step, st in study.steps.items() if st.kind != "claims"}
    registered.update({fn.__module__: f"claim {c}" for c, fn in study.claim_fns.items()})
    registered.update({fn.__module__: f"redraw {f}" for f, fn in study.redraws.items()})
    assert set(registered) <= listed, {m: s for m, s in registered.items() if m not in listed}
    assert listed <= set(registered), sorted(listed - set(registered))
    if "claims" in study.steps:
        assert study.claim_fns, name

    folder = Path(sys.modules[pkg].__path__[0])
    unlisted = [
        f.name
        for f in sorted(folder.glob("*.py"))
        if f.stem not in study.modules and _REGISTERS.search(f.read_text(encoding="utf-8"))
    ]
    assert unlisted == [], f"{name}: register steps but are not in STUDY.modules: {unlisted}"

    r = subprocess.run(
        [sys.executable, "-c", _HELP_EVERY_STEP, name, json.dumps(sorted(study.steps))],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [], f"{name}'s jobs import other studies: {r.stdout}"


# a seed made by hand: `seed + 1`, `seed + 2 + t`, or the base seed read past ctx.seed
_SEED_ARITHMETIC = re.compile(r"\bseed\s*\+\s*\w|\w\.base_seed\b(?!\s*[=:])")


@pytest.mark.parametrize("name", STUDIES)
def test_every_seed_is_derived_one_way(name):
    """One seed policy (issue 25): a step's seed is ``ctx.seed(offset, r)`` and a seed a
    function derives from one it was given is ``shape.derive_seed(seed, r=...)``."""
    root = Path(studies.__file__).parent / name
    bad = [
        f"{p.name}:{i}: {line.strip()}"
        for p in sorted(root.glob("*.py"))
        for i, line in enumerate(p.read_text().splitlines(), 1)
        if _SEED_ARITHMETIC.search(line.split("#")[0])
    ]
    assert not bad, "\n".join(bad)
