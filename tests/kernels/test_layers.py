"""Import layering (issue 25): kernels <- models <- evaluation <- studies, claims <- studies,
and no import circle. No module under
``models/`` imports ``latentlab.evaluation`` (or ``latentlab.studies``), and
``latentlab.kernels`` and ``latentlab.plotting`` import nothing else of latentlab (issue 40:
the figures CLI, which reads the studies, lives above them in ``latentlab.figures``), so
``outputs`` and ``plotting`` never import each other; and no two packages or top-level
modules import each other, directly or round a circle. Imports are read with ``ast`` (lazy
imports inside functions count too), relative ones resolved to absolute names."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PKG = SRC / "latentlab"


def _module_name(path: Path, src: Path) -> str:
    parts = list(path.relative_to(src).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports_of(path: Path, src: Path = SRC) -> set[str]:
    """Absolute names of every module ``path`` (below ``src``) imports (``from a import b``
    gives a and a.b)."""
    name = _module_name(path, src)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def _offenders(folder: str, forbidden) -> list[str]:
    bad = []
    for path in sorted((PKG / folder).rglob("*.py")):
        for mod in sorted(imports_of(path)):
            if forbidden(mod):
                bad.append(f"{path.relative_to(SRC)} imports {mod}")
    return bad


def _under(mod: str, pkg: str) -> bool:
    return mod == pkg or mod.startswith(pkg + ".")


def test_models_never_import_evaluation_or_studies():
    bad = _offenders(
        "models",
        lambda m: _under(m, "latentlab.evaluation") or _under(m, "latentlab.studies"),
    )
    assert not bad, "\n".join(bad)


def test_claims_never_import_studies():
    """The ledger machinery (claims/) sits below the studies that use it."""
    assert _offenders("claims", lambda m: _under(m, "latentlab.studies")) == []


def test_kernels_import_nothing_else_of_latentlab():
    bad = _offenders(
        "kernels", lambda m: _under(m, "latentlab") and not _under(m, "latentlab.kernels")
    )
    assert not bad, "\n".join(bad)


def test_plotting_imports_nothing_else_of_latentlab():
    """plotting (figure style, the figure check) is a bottom layer: the studies, outputs and
    the figures CLI use it, it uses none of them."""
    bad = _offenders(
        "plotting", lambda m: _under(m, "latentlab") and not _under(m, "latentlab.plotting")
    )
    assert not bad, "\n".join(bad)


def test_outputs_uses_only_the_figure_check_of_latentlab():
    """outputs (atomic writes, used by data/ and the studies) imports of latentlab only the
    figure check it runs on every figure; with plotting importing nothing of latentlab, the
    two never import each other."""
    mods = {m for m in imports_of(PKG / "outputs.py") if _under(m, "latentlab")}
    assert mods, "outputs no longer runs the figure check: say so in docs/design.md"
    bad = sorted(m for m in mods if not _under(m, "latentlab.plotting.check"))
    assert not bad, bad


CASES = [
    (
        "from latentlab.evaluation.ais import kernels\n",
        "models/tir/kernels.py",
        "latentlab.evaluation.ais",
    ),
    ("from ...evaluation import heldout\n", "models/lda/scvb0.py", "latentlab.evaluation"),
    (
        "def f():\n    import latentlab.evaluation.heldout\n",
        "models/lda/x.py",
        "latentlab.evaluation.heldout",
    ),
    ("from . import kernels\n", "models/tir/model.py", "latentlab.models.tir.kernels"),
]


@pytest.mark.parametrize("src, where, want", CASES)
def test_imports_of_resolves_relative_and_lazy_imports(tmp_path, src, where, want):
    path = tmp_path / "latentlab" / where
    path.parent.mkdir(parents=True)
    path.write_text(src)
    assert want in imports_of(path, tmp_path)


def _module_graph() -> dict[str, set[str]]:
    """Module -> the latentlab modules it imports. ``from pkg import sub`` (a submodule) is
    an edge to ``pkg.sub`` alone: the package is only its namespace there, while ``from pkg
    import name`` (a name its ``__init__`` defines or re-exports) is an edge to ``pkg``."""
    mods = {_module_name(p, SRC): p for p in PKG.rglob("*.py")}
    graph = {}
    for name, path in mods.items():
        names = imports_of(path)
        graph[name] = {
            m
            for m in names
            if m in mods
            and m != name
            and not any(n.startswith(m + ".") and n in mods for n in names)
        }
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root), on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w), on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_circle_in_src():
    """Issue 25: no two modules of latentlab import each other, directly or round a longer
    circle, at module level or lazily inside a function."""
    assert _cycles(_module_graph()) == []


def _package(mod: str) -> str:
    """The package or top-level module of latentlab that ``mod`` belongs to:
    ``latentlab.studies.scvb0.runs`` -> ``latentlab.studies``."""
    return ".".join(mod.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The module graph folded onto packages and top-level modules (``latentlab.outputs``,
    ``latentlab.plotting``, ``latentlab.studies``, ...), edges within one dropped."""
    out: dict[str, set[str]] = {}
    for mod, deps in graph.items():
        out.setdefault(_package(mod), set()).update(
            _package(d) for d in deps if _package(d) != _package(mod)
        )
    return out


def test_no_import_circle_between_packages():
    """Issue 40: an arrow up the house is a circle between packages even where no two
    modules form one (plotting/cli.py imported studies.shape, whose studies draw with
    plotting; plotting/cli.py imported outputs, which runs plotting's figure check)."""
    assert _cycles(package_graph(_module_graph())) == []


def test_package_graph_finds_a_circle_no_module_graph_has():
    g = {
        "latentlab.outputs": {"latentlab.plotting.check"},
        "latentlab.plotting.check": set(),
        "latentlab.plotting.cli": {"latentlab.outputs"},
        "latentlab.kernels.rng": set(),
    }
    assert _cycles(g) == []
    assert _cycles(package_graph(g)) == [["latentlab.outputs", "latentlab.plotting"]]


def test_cycles_finds_a_circle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(g) == [["a", "b", "c"]]
