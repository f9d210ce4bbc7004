"""The CLI the rules call: discovery, help, and errors that become one clear line."""

import subprocess
import sys

import pytest

from latentlab import cli
from latentlab.errors import ChecksumError, ConfigError, DataError, DivergenceError


def test_help_lists_core_groups(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "claims" in out


def test_no_group_prints_help_and_fails(capsys):
    assert cli.main([]) == 2


def test_module_entry_point_runs():
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "--version"], capture_output=True, text=True
    )
    assert r.returncode == 0 and r.stdout.strip()


def test_claims_check_reports_bad_file(tmp_path):
    p = tmp_path / "claims.csv"
    p.write_text("claim_id\nC1\n")
    r = subprocess.run(
        [sys.executable, "-m", "latentlab", "claims", "check", str(p)],
        capture_output=True,
        text=True,
    )
    assert r.returncode != 0 and "lacks columns" in r.stderr


def test_error_messages_name_file_key_and_iteration():
    e = ChecksumError("resources/x.gz", "aa", "bb")
    assert "resources/x.gz" in str(e) and "aa" in str(e) and "bb" in str(e)
    assert isinstance(e, DataError)
    assert "config scvb0.K" in str(ConfigError("scvb0.K", "must be >= 1"))
    d = DivergenceError("n_wk", 12)
    assert "n_wk" in str(d) and "12" in str(d)


def test_study_step_imports_only_its_study():
    """A job (``latentlab <study> <step>``) builds only its study's group and imports
    only the modules up to the one holding the step: no other study, no matplotlib."""
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "p = build_parser(['hdp_pcvb0', 'perplexity', '--params', '{}']); "
        "a = p.parse_args(['hdp_pcvb0', 'perplexity', '--params', '{}']); "
        "assert a.step == 'perplexity' and callable(a.func); "
        "bad = sorted(m for m in sys.modules if m.startswith(('matplotlib', "
        "'latentlab.studies.scvb0', 'latentlab.studies.iwtm', "
        "'latentlab.studies.hdp_pcvb0.figures'))); "
        "print(bad)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_study_group_help_and_unknown_step_list_every_step(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["hdp_pcvb0", "nostep"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "perplexity" in err and "fig5" in err and "claims" in err


def test_claims_step_registers_the_claims_without_figures():
    """The claims job imports the module declaring the claims (and their functions), not
    the study's figures: every claim has its function, and no matplotlib is loaded."""
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "from latentlab.studies.hdp_pcvb0.study import STUDY; "
        "build_parser(['hdp_pcvb0', 'claims', '--params', '{}']); "
        "STUDY.check_claims(); assert 'claims' in STUDY.steps; "
        "print(sorted(m for m in sys.modules if m.startswith(('matplotlib', "
        "'latentlab.studies.hdp_pcvb0.figures', 'latentlab.studies.hdp_pcvb0.bench'))))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_figure_step_imports_no_numba():
    """A figure job draws from its inputs: hdp_pcvb0's settings come from the model's
    options module, so neither numba nor the model is imported (issue 23)."""
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "argv = ['hdp_pcvb0', 'fig3', '--params', '{}']; "
        "a = build_parser(argv).parse_args(argv); "
        "assert a.step == 'fig3'; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'numba' "
        "or m.startswith('latentlab.models.hdp.model')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_step_modules_name_the_module_that_registers_each_step():
    """``shape.step_modules`` (read from the sources) agrees with the registry of every
    study: a listed step is registered by a listed module, the claims step's modules hold
    every claim function, and a step with a computed name is registered by the part the
    fallback imports first."""
    import pkgutil

    import latentlab.studies as studies
    from latentlab.studies.shape import _part_order, load_study, step_modules

    names = [m.name for m in pkgutil.iter_modules(studies.__path__) if m.ispkg]
    assert len(names) >= 7
    for name in names:
        study = load_study(name)
        idx = step_modules(name, study.modules)
        assert set(idx) <= set(study.steps), (name, sorted(set(idx) - set(study.steps)))
        for step in sorted(set(study.steps) - set(idx)):  # computed names: the fallback
            # imports the study's parts in _part_order, the registering one first
            first = _part_order(step, study.modules)[0]
            assert study.steps[step].fn.__module__.endswith(f".{first}"), (name, step)
        for step, st in study.steps.items():
            if step == "claims":
                need = {fn.__module__ for fn in study.claim_fns.values()}
                assert need <= idx["claims"], (name, need - idx["claims"])
            elif step in idx:
                assert st.fn.__module__ in idx[step], (name, step, st.fn.__module__)


def test_core_group_builds_only_itself():
    code = (
        "import sys; from latentlab.cli import build_parser; "
        "p = build_parser(['data', 'list']); a = p.parse_args(['data', 'list']); "
        "assert callable(a.func); "
        "print(sorted(m for m in sys.modules if m.startswith('latentlab.studies.')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


_FIRST_IMPORT = """
import json, os, sys
import numpy, pandas  # noqa: F401  (shared by every child; the study is imported after fork)
from latentlab.cli import build_parser
study, steps = sys.argv[1], json.loads(sys.argv[2])
failed = []
for step in steps:
    pid = os.fork()
    if pid == 0:
        try:
            build_parser([study, step, "--params", "{}"])
        except BaseException as e:  # noqa: BLE001
            print(f"{step}: {type(e).__name__}: {e}", file=sys.stderr)
            os._exit(1)
        os._exit(0)
    if os.waitpid(pid, 0)[1] != 0:
        failed.append(step)
print(json.dumps(failed))
"""


@pytest.mark.slow  # about 2 CPU-minutes: every step's modules imported afresh
@pytest.mark.parametrize(
    "study",
    ["ais_eval", "compare", "drift", "hdp_pcvb0", "iwtm", "nonconjugate_vi", "scvb0", "tir"],
)
def test_every_step_loads_as_a_jobs_first_import(study):
    """A job imports only its step's modules (shape.step_modules), so each step must load
    when its module is the first of its study imported: an import circle between a study's
    modules breaks only the steps whose module comes first (iwtm ivi, issue 25)."""
    import json

    from latentlab.studies.shape import load_study

    steps = sorted(load_study(study).steps)
    r = subprocess.run(
        [sys.executable, "-c", _FIRST_IMPORT, study, json.dumps(steps)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [], r.stderr


_LIGHT_IMPORTS = """
import json, os, sys
import numpy, pandas  # noqa: F401  (shared by every child; the study is imported after fork)
from latentlab.cli import build_parser
study, steps = sys.argv[1], json.loads(sys.argv[2])
ok = ("latentlab.models", "latentlab.models.hdp", "latentlab.models.hdp.options")  # settings
for step in steps:
    pid = os.fork()
    if pid == 0:
        build_parser([study, step, "--params", "{}"])
        heavy = sorted(
            m for m in sys.modules
            if m.split(".")[0] in ("numba", "sklearn")
            or (m.startswith("latentlab.models") and m not in ok)
        )
        print(json.dumps([step, heavy]), flush=True)
        os._exit(0)
    os.waitpid(pid, 0)
"""

# light steps that do import model code at start-up, and why
HEAVY_LIGHT_STEPS = {
    ("ais_eval", "claims"): "its exact checks run the AIS estimators on tiny documents",
}


@pytest.mark.slow  # about a CPU-minute: every table, figure and claims step imported afresh
@pytest.mark.parametrize(
    "study",
    ["ais_eval", "compare", "drift", "hdp_pcvb0", "iwtm", "nonconjugate_vi", "scvb0", "tir"],
)
def test_table_figure_and_claims_steps_import_no_model_code(study):
    """A table, figure or claims job draws from files that earlier jobs wrote: its start-up
    imports no numba, sklearn or latentlab.models module (each costs every such job up to
    a CPU-second; scripts/step_import_cost.py measures them), except the steps of
    HEAVY_LIGHT_STEPS. (scipy.stats, which imports scipy.optimize, is left to the steps
    that test with it.) A figure that computes (scvb0 fig4_10) imports its kernel
    when it runs."""
    import json

    from latentlab.studies.shape import load_study

    steps = sorted(
        s for s, st in load_study(study).steps.items() if st.kind in ("table", "figure", "claims")
    )
    r = subprocess.run(
        [sys.executable, "-c", _LIGHT_IMPORTS, study, json.dumps(steps)],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    got = dict(json.loads(line) for line in r.stdout.splitlines() if line.strip())
    assert sorted(got) == steps, r.stderr
    heavy = {s: m for s, m in got.items() if m and (study, s) not in HEAVY_LIGHT_STEPS}
    assert heavy == {}, heavy
