"""The one shape every study has: a registry of steps, each with typed settings.

A study package ``latentlab.studies.<name>`` holds:

``study.py``   ``STUDY = Study(...)`` (with the document it replicates, :class:`Source`, and
               the data registry entries it reads) and the settings dataclasses of its
               steps; its docstring's ``Notes`` section is the study's notes in
               ``docs/studies.md`` (``python -m latentlab docs studies``)
``runs.py``    computation -> raw results on disk (``@STUDY.run``)
``figures.py`` figure id -> function returning :class:`FigureOutput` (``@STUDY.figure``)
``tables.py``  table id -> function returning :class:`TableOutput` (``@STUDY.table``)
``claims.py``  the claims as data (:class:`latentlab.claims.spec.Claim`) and one small
               function per claim (``@STUDY.claim``)
``bench.py``   the study's benchmark (``@STUDY.run("bench")``)
``cli.py``     ``register = STUDY.register`` (generated from the registries)

A study lists the modules that register its steps, ``Study(..., modules=("runs", ...))``
(other modules may hold steps too: ``drift.text``, ``iwtm.sun``); :func:`load_study`
imports them all, a job only the one that registers its step. No module is imported for
its side effect, and no study imports another's modules (``tests/studies/test_conformance.py``).

Every step is called as ``python -m latentlab <study> <step> --params JSON
--input NAME=PATH ... --output NAME=PATH ...``: the rule gives every path, and
``--params`` holds ``run``, ``base_seed``, ``threads`` and only the config keys the
step's settings dataclass declares (``step_params`` in ``rules/common.smk`` picks them),
so changing one setting reruns only the steps that read it.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from latentlab.errors import ConfigError, MissingInput
from latentlab.provenance import provenance
from latentlab.settings import check_given, field_names, misspelt, parse_settings, settings_dict
from latentlab.threads import job_threads

COMMON_KEYS = ("run", "base_seed", "threads")
# Optional keys of --params for every step: ``partial`` (a ladder rung's claims step,
# rules/ladder.smk) judges the claims whose inputs the rung built and gives the others
# not_run rows instead of stopping; ``readings`` (a claims step: the option of each of the
# study's readings that the run's settings implement, latentlab.readings.labels).
OPTIONAL_KEYS = ("partial", "readings")


def derive_seed(base_seed: int, offset: int = 0, r: int = 0) -> int:
    """The one way a seed is made: ``base_seed + offset + r`` (``offset`` is a named
    setting of the step, ``r`` the repetition)."""
    return int(base_seed) + int(offset) + int(r)


@dataclass
class StepContext:
    """What a step function receives: its settings and the paths the rule gave."""

    study: str
    step: str
    settings: Any
    run: str
    base_seed: int
    threads: int
    inputs: dict[str, list[Path]]
    outputs: dict[str, Path]
    wildcards: dict[str, str] = field(default_factory=dict)
    partial: bool = False
    readings: dict[str, str] = field(default_factory=dict)
    _cache: dict = field(default_factory=dict, repr=False)

    def input(self, name: str) -> Path:
        paths = self.input_list(name)
        if len(paths) != 1:
            raise ConfigError(f"{self.study} {self.step}", f"input {name!r} has {len(paths)} paths")
        return paths[0]

    def input_list(self, name: str) -> list[Path]:
        if name not in self.inputs:
            raise MissingInput(f"{self.study} {self.step}", name, self.inputs)
        return self.inputs[name]

    def has_input(self, name: str) -> bool:
        """Whether the rule gave the input ``name`` (a partial run gives only some)."""
        return name in self.inputs

    def output(self, name: str) -> Path:
        if name not in self.outputs:
            raise ConfigError(
                f"{self.study} {self.step}",
                f"no output named {name!r} (the rule gave {sorted(self.outputs)})",
            )
        return self.outputs[name]

    def csv(self, name: str):
        """The input ``name`` read as a DataFrame (read once per step)."""
        import pandas as pd

        return self._cached(("csv", name), lambda: pd.read_csv(self.input(name)))

    def bench(self, name: str = "bench"):
        """The input ``name``, a ``bench.csv``, as one row per measurement
        (:func:`latentlab.bench.bench_wide`; read once per step)."""
        from latentlab.bench import bench_wide

        return self._cached(("bench", name), lambda: bench_wide(self.input(name)))

    def json(self, name: str):
        """The input ``name`` read as JSON (read once per step)."""
        return self._cached(("json", name), lambda: json.loads(self.input(name).read_text()))

    def unit_key(self) -> dict:
        """What the finished units of this job depend on (:class:`latentlab.outputs.UnitStore`):
        its study, step, run, seed, wildcards, settings, the content of every input file and
        the source commit."""
        import hashlib

        def sha(p):
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            return h.hexdigest()

        meta = self.meta()
        return {
            **{k: meta[k] for k in ("study", "step", "run", "base_seed", "wildcards", "settings")},
            "inputs": {n: [sha(p) for p in ps] for n, ps in sorted(self.inputs.items())},
            "commit": meta["provenance"]["commit"],
        }

    def _cached(self, key, load):
        if key not in self._cache:
            self._cache[key] = load()
        return self._cache[key]

    def _input_settings(self) -> dict:
        """``{"from_inputs": {name: settings or "no .meta.json"}}`` (one entry per input
        file; ``{}`` when the step has no inputs)."""
        out = {}
        for name, paths in self.inputs.items():
            per = []
            for p in paths:
                m = Path(p).with_suffix(".meta.json")
                if m.exists():
                    try:
                        d = json.loads(m.read_text())
                    except ValueError:
                        d = {}
                    per.append(d.get("settings") or {"step": d.get("step", ""), "file": m.name})
                else:
                    per.append(f"{Path(p).name}: no .meta.json")
            out[name] = per[0] if len(per) == 1 else per
        return {"from_inputs": out} if out else {}

    def seed(self, offset: int = 0, r: int = 0) -> int:
        return derive_seed(self.base_seed, offset, r)

    def meta(self, **extra) -> dict:
        """Metadata for an output's ``.meta.json``: the settings used, seeds, run. A step
        with no settings of its own (a figure or table drawn from its inputs) names the
        settings that produced each input, read from the inputs' own ``.meta.json``."""
        s = settings_dict(self.settings) if dataclasses.is_dataclass(self.settings) else {}
        if not s:
            s = self._input_settings()
        return {
            "study": self.study,
            "step": self.step,
            "run": self.run,
            "base_seed": self.base_seed,
            "wildcards": self.wildcards,
            "settings": s,
            "provenance": provenance(),
            **extra,
        }


@dataclass
class FigureOutput:
    """A figure step's result; the shape writes ``png`` with its CSV and metadata."""

    fig: Any
    data: Any  # pandas DataFrame of the plotted numbers
    meta: dict = field(default_factory=dict)
    allow_nan: bool = False


@dataclass
class TableOutput:
    """A table step's result; the shape writes ``csv`` and ``md`` with metadata."""

    data: Any
    meta: dict = field(default_factory=dict)
    allow_nan: bool = False
    floatfmt: str = ".4g"


@dataclass(frozen=True)
class Source:
    """The document a study replicates (``docs/studies.md`` is generated from it): its seed
    number, one line naming it (the same line in every study of the document), how a table
    cites it and the part of it the study replicates."""

    seed: str  # "004"
    document: str  # "Foulds (PhD 2014): DRIFT, TIR, SCVB0, AIS evaluation"
    cite: str  # "Foulds 2014"
    part: str = ""  # "ch. 4" ("": the whole document)


@dataclass
class Step:
    name: str
    kind: str  # run | figure | table | claims
    fn: Callable | None  # None in a settings_registry (the steps without their code)
    settings: type | None
    help: str = ""


class Study:
    """Registry of a study's steps; builds the CLI and tells the rules which keys each
    step reads."""

    def __init__(
        self,
        name: str,
        document: str,
        title: str = "",
        modules: tuple[str, ...] = (),
        source: Source | None = None,
        data: dict[str, str] | None = None,
    ):
        self.name = name
        self.document = document  # the claims ledger's document column
        self.title = title
        # the modules of latentlab.studies.<name> that register steps, in import order
        self.modules = tuple(modules)
        # the document and part replicated, and the data registry entries (latentlab.data.
        # registry) that a config of the study may name, each with a line on what it stands
        # for (docs/studies.md; tests/test_studies_reference.py checks the configs against it)
        self.source = source
        self.data = dict(data or {})
        self.steps: dict[str, Step] = {}
        self.redraws: dict[str, Callable] = {}
        self.claim_specs: list = []
        self.claim_fns: dict[str, Callable] = {}
        self.cause_specs: list = []
        self.claims_settings: type | None = None
        self.rule_settings: type | None = None

    @property
    def reading_specs(self) -> list:
        """The readings the study declares (:func:`readings_of`)."""
        if "_readings" not in self.__dict__:
            self._readings = readings_of(self.name)
        return self._readings

    @property
    def cited(self) -> str:
        """The document as a reader cites it: ``Foulds 2014, ch. 4`` (its ``source``), else
        the ledger's ``document``."""
        if self.source is None:
            return self.document
        return ", ".join(x for x in (self.source.cite, self.source.part) if x)

    # ------------------------------------------------------------------ registration
    def _add(self, names, kind, settings, fn, help=""):
        for n in names:
            if n in self.steps:
                raise ValueError(f"{self.name}: step {n!r} registered twice")
            self.steps[n] = Step(n, kind, fn, settings, help or (fn.__doc__ or "").strip())
        return fn

    def run(self, *names: str, settings: type | None = None, help: str = ""):
        """A computation step; the function writes its outputs itself."""
        return lambda fn: self._add(names or (fn.__name__,), "run", settings, fn, help)

    def figure(self, *ids: str, settings: type | None = None):
        """Figure id(s) -> function(ctx) -> :class:`FigureOutput`."""
        return lambda fn: self._add(ids, "figure", settings, fn)

    def redraw(self, *ids: str):
        """Figure id(s) -> function(df, meta) -> Figure drawing the figure again from its own
        CSV and ``.meta.json`` (``latentlab figures redraw``: a published figure re-rendered
        without the run's intermediate data). The figure step should draw through the same
        function, so that both give the same picture."""

        def deco(fn):
            for i in ids:
                if i in self.redraws:
                    raise ValueError(f"{self.name}: figure {i} has two redraw functions")
                self.redraws[i] = fn
            return fn

        return deco

    def table(self, *ids: str, settings: type | None = None):
        """Table id(s) -> function(ctx) -> :class:`TableOutput`."""
        return lambda fn: self._add(ids, "table", settings, fn)

    def claims(self, specs, settings: type | None = None) -> None:
        """The study's claims as data (a list of :class:`~latentlab.claims.spec.Claim`)."""
        # an id may repeat only for not_testable rows of different datasets (one claim
        # of the document that is untestable on each of its corpora)
        keys = [(c.id, c.dataset if c.not_testable else "") for c in specs]
        dup = sorted({k[0] for k in keys if keys.count(k) > 1})
        tested = {c.id for c in specs if not c.not_testable}
        dup += sorted({c.id for c in specs if c.not_testable and c.id in tested})
        if dup:
            raise ValueError(f"{self.name}: claim ids declared twice: {dup}")
        self.claim_specs = list(specs)
        self.claims_settings = settings
        self._add(["claims"], "claims", settings, self._run_claims, "write claims.csv")

    def causes(self, specs) -> None:
        """Why the study's misses miss (a list of :class:`~latentlab.claims.spec.Cause`):
        written into the ``cause``/``evidence`` columns of its ``not_reproduced`` rows."""
        known = {c.id for c in self.claim_specs}
        from fnmatch import fnmatchcase

        for c in specs:
            if not any(fnmatchcase(k, c.claim) or c.claim.startswith(k) for k in known):
                raise ValueError(f"{self.name}: cause for unknown claim {c.claim!r}")
        self.cause_specs = list(specs)

    def claim(self, *ids: str):
        """One small function per claim: ``fn(ctx) -> value | Measured | [Measured] | NotRun``."""

        def deco(fn):
            for i in ids:
                if i in self.claim_fns:
                    raise ValueError(f"{self.name}: claim {i} has two functions")
                self.claim_fns[i] = fn
            return fn

        return deco

    def rules(self, settings: type) -> None:
        """Keys of the study's config section that only the rules read (e.g. ``resources``):
        checked at start-up with the steps' keys, never passed to a step."""
        self.rule_settings = settings

    # ------------------------------------------------------------------ config side
    def config_keys(self, step: str) -> list[str]:
        """Top-level keys of the study's config section that ``step`` reads."""
        if step not in self.steps:
            raise KeyError(f"{self.name}: no step {step!r}; steps: {sorted(self.steps)}")
        cls = self.steps[step].settings
        return field_names(cls) if cls is not None else []

    def all_config_keys(self) -> set[str]:
        keys = {k for s in self.steps for k in self.config_keys(s)}
        if self.rule_settings is not None:
            keys |= set(field_names(self.rule_settings))
        return keys

    def settings(self, step: str, section: dict | None):
        """The parsed settings of ``step`` from the study's config section (only its keys);
        ``step="rules"`` gives the rules' own settings. The rules use this so that the
        defaults live only in the dataclasses."""
        cls = self.rule_settings if step == "rules" else self.steps[step].settings
        if cls is None:
            return None
        keys = set(field_names(cls))
        return parse_settings(
            cls, {k: v for k, v in (section or {}).items() if k in keys}, self.name
        )

    def check_config(self, section: dict, partial: bool = False) -> None:
        """Stop at start-up on a key no step reads, or a value a step cannot parse. With
        ``partial`` (the section of a study the run does not list), keys may be missing:
        the keys given are checked, nested ones too (:func:`~latentlab.settings.check_given`)."""
        section = section or {}
        if not isinstance(section, dict):
            raise ConfigError(self.name, f"expected a mapping, got {type(section).__name__}")
        known = self.all_config_keys()
        unknown = sorted(set(section) - known)
        if unknown:
            unlisted = f" ({self.name} is not in `studies`: its section is checked all the same)"
            raise ConfigError(
                f"{self.name}.{unknown[0]}",
                f"unknown key ({misspelt(unknown[0], known)}); "
                f"the steps of {self.name} read {sorted(known)}" + (unlisted if partial else ""),
            )
        classes = [st.settings for st in self.steps.values()] + [self.rule_settings]
        check = check_given if partial else parse_settings
        for cls in dict.fromkeys(c for c in classes if c is not None):
            keys = set(field_names(cls))
            check(cls, {k: v for k, v in section.items() if k in keys}, self.name)

    def check_claims(self) -> None:
        """Every claim that is not ``not_testable`` has a function, and every function a claim."""
        ids = {c.id for c in self.claim_specs}
        need = {c.id for c in self.claim_specs if not c.not_testable}
        missing = sorted(need - set(self.claim_fns))
        extra = sorted(set(self.claim_fns) - ids)
        if missing or extra:
            raise ValueError(
                f"{self.name}: claims without a function {missing}, "
                f"functions without a claim {extra}"
            )

    # ------------------------------------------------------------------ running
    def context(self, step: str, params: dict, inputs, outputs, wildcards=None) -> StepContext:
        st = self.steps[step]
        for k in COMMON_KEYS:
            if k not in params:
                raise ConfigError(f"{self.name} {step}", f"--params lacks {k!r}")
        section = {k: v for k, v in params.items() if k not in COMMON_KEYS + OPTIONAL_KEYS}
        settings = parse_settings(st.settings, section, self.name) if st.settings else None
        return StepContext(
            study=self.name,
            step=step,
            settings=settings,
            run=str(params["run"]),
            base_seed=int(params["base_seed"]),
            threads=job_threads(int(params["threads"])),
            inputs={k: [Path(p) for p in v] for k, v in (inputs or {}).items()},
            outputs={k: Path(p) for k, p in (outputs or {}).items()},
            wildcards=dict(wildcards or {}),
            partial=bool(params.get("partial", False)),
            readings=dict(params.get("readings") or {}),
        )

    def execute(self, step: str, params: dict, inputs=None, outputs=None, wildcards=None):
        """Run one step (the CLI calls this; tests may too)."""
        ctx = self.context(step, params, inputs, outputs, wildcards)
        st = self.steps[step]
        logging.getLogger(f"latentlab.{self.name}").info("%s %s", self.name, step)
        result = st.fn(ctx)
        if st.kind == "figure":
            _write_figure(ctx, result)
        elif st.kind == "table":
            _write_table(ctx, result)
        return result

    def _run_claims(self, ctx: StepContext):
        from latentlab.claims.spec import evaluate_claims

        self.check_claims()
        ledger = evaluate_claims(self, ctx)
        ledger.write(ctx.output("csv"))
        return ledger

    # ------------------------------------------------------------------ CLI
    def register(self, subparsers, step: str | None = None) -> None:
        """Add the study's CLI (``cli.py``: ``register = STUDY.register``); the study's
        ``modules`` are imported first so that every step is registered. With ``step`` (the
        command line names it), only the module that registers it is imported: a run step
        does not pay for matplotlib."""
        _import_parts(self, until=step)
        p = subparsers.add_parser(self.name, help=f"{self.title or self.name} ({self.cited})")
        sub = p.add_subparsers(dest="step", metavar="STEP", required=True)
        for name, st in sorted(self.steps.items()):
            sp = sub.add_parser(name, help=(st.help.splitlines() or [""])[0])
            sp.add_argument("--params", type=json.loads, required=True, help="JSON object")
            sp.add_argument("--input", nargs="*", default=[], metavar="NAME=PATH")
            sp.add_argument("--output", nargs="*", default=[], metavar="NAME=PATH")
            sp.add_argument("--wildcard", nargs="*", default=[], metavar="NAME=VALUE")
            sp.set_defaults(func=self._cli, step=name)

    def _cli(self, args) -> int:
        self.execute(
            args.step,
            args.params,
            inputs=_pairs(args.input, many=True),
            outputs=_pairs(args.output, many=False),
            wildcards=_pairs(args.wildcard, many=False),
        )
        return 0


def _pairs(items: list[str], many: bool) -> dict:
    out: dict = {}
    for it in items:
        name, sep, value = it.partition("=")
        if not sep or not name:
            raise ConfigError("command line", f"expected NAME=VALUE, got {it!r}")
        if many:
            out.setdefault(name, []).append(value)
        elif name in out:
            raise ConfigError("command line", f"{name!r} given twice")
        else:
            out[name] = value
    return out


def _write_figure(ctx: StepContext, res: FigureOutput) -> None:
    from latentlab.outputs import write_figure

    if not isinstance(res, FigureOutput):
        raise TypeError(f"{ctx.study} {ctx.step}: a figure step returns FigureOutput")
    png = ctx.output("png")
    csv = ctx.outputs.get("csv", png.with_suffix(".csv"))
    write_figure(res.fig, png, res.data, csv, ctx.meta(**res.meta), allow_nan=res.allow_nan)


def _write_table(ctx: StepContext, res: TableOutput) -> None:
    from latentlab.outputs import write_table

    if not isinstance(res, TableOutput):
        raise TypeError(f"{ctx.study} {ctx.step}: a table step returns TableOutput")
    csv = ctx.output("csv")
    md = ctx.outputs.get("md", csv.with_suffix(".md"))
    write_table(
        res.data, csv, md, ctx.meta(**res.meta), allow_nan=res.allow_nan, floatfmt=res.floatfmt
    )


def _part_order(step: str, modules: tuple[str, ...]) -> list[str]:
    """``modules`` with the one most likely to register ``step`` first (only the import
    order: the loop in :func:`_import_parts` goes on until the step is registered)."""
    first = {"bench": "bench", "claims": "claims"}.get(step)
    if first is None and step.startswith("fig"):
        first = "figures"
    elif first is None:
        first = "tables" if step.startswith("table") else "runs"
    return [m for m in modules if m == first] + [m for m in modules if m != first]


# A registration in a study's source: ``@STUDY.run("a", "b", settings=...)`` (group 1 the
# kind, group 2 the arguments), ``STUDY.claims(`` or ``@STUDY.claim(`` (the claims step).
_REGISTRATION = re.compile(
    r"^@STUDY\.(run|figure|table)\(([^)]*)\)|^(?:@STUDY\.claim\(|STUDY\.claims\()", re.M
)
_NAME = re.compile(r"""["']([A-Za-z_][A-Za-z0-9_]*)["']""")
_DEF = re.compile(r"^def ([A-Za-z_][A-Za-z0-9_]*)", re.M)


def step_modules(name: str, modules: tuple[str, ...] | None = None) -> dict[str, set[str]]:
    """Which modules of ``latentlab.studies.<name>`` (of ``modules`` only, when given)
    register each step, read from their source (decorators with literal names; ``claims`` =
    every module that declares the claims or a claim function), so that a job imports only
    the module of its own step (issue 23: every other module's imports cost each of the
    smoke run's jobs CPU seconds). A step registered under a computed name
    (``@STUDY.figure(*IDS)``) is not listed: :func:`_import_parts` then goes through the
    study's modules in order."""
    from importlib.util import find_spec

    try:
        spec = find_spec(f"latentlab.studies.{name}")
    except ModuleNotFoundError:
        return {}
    if spec is None or not spec.submodule_search_locations:
        return {}
    out: dict[str, set[str]] = {}
    for folder in spec.submodule_search_locations:
        for f in sorted(Path(folder).glob("*.py")):
            if modules is not None and f.stem not in modules:
                continue
            text = f.read_text(encoding="utf-8")
            mod = f"latentlab.studies.{name}.{f.stem}"
            for m in _REGISTRATION.finditer(text):
                if m.group(1) is None:
                    names = ["claims"]
                else:
                    positional = re.split(r"\b[A-Za-z_]\w*\s*=", m.group(2), maxsplit=1)[0]
                    names = _NAME.findall(positional)
                    if not names and "*" not in positional:  # named after the function
                        d = _DEF.search(text, m.end())
                        names = [d.group(1)] if d else []
                for n in names:
                    out.setdefault(n, set()).add(mod)
    return out


def _import_parts(study: Study, until: str | None = None) -> None:
    """Import the study's ``modules`` (``latentlab.studies.<name>.<module>``; a study
    defined outside that package, as in the tests, lists none). With ``until``, import the
    modules :func:`step_modules` names for that step; if that does not register it (a
    computed name), go through the modules until the study's steps hold it."""
    pkg = f"latentlab.studies.{study.name}"
    if until is None:
        for m in study.modules:
            importlib.import_module(f"{pkg}.{m}")
        return
    for mod in sorted(step_modules(study.name, study.modules).get(until, ())):
        importlib.import_module(mod)
    for m in _part_order(until, study.modules):
        if until in study.steps:
            return
        importlib.import_module(f"{pkg}.{m}")


def readings_of(study: str) -> list:
    """The readings a study declares: ``READINGS`` of ``studies/<study>/readings.py``, a list
    of :class:`~latentlab.claims.spec.Reading` (issue 37); [] when it declares none."""
    from importlib.util import find_spec

    name = f"latentlab.studies.{study}.readings"
    if find_spec(f"latentlab.studies.{study}") is None or find_spec(name) is None:
        return []
    return list(getattr(importlib.import_module(name), "READINGS", []))


def load_study(name: str) -> Study:
    """The :class:`Study` of ``latentlab.studies.<name>`` with all its steps registered."""
    study = importlib.import_module(f"latentlab.studies.{name}.study").STUDY
    _import_parts(study)
    return study


# a registration's text: @STUDY.run(...), STUDY.claims(...), STUDY.rules(...), ...
_REGISTERS = re.compile(r"\bSTUDY\.(?:run|figure|table|claims|rules)\b")


class _Computed(Exception):
    """A registration whose step names or settings are computed when its module runs."""


def _registrations(name: str) -> list[tuple[str, list[str], type | None]]:
    """``(kind, step names, settings class)`` of every registration of study ``name``
    (``@STUDY.run/figure/table(names..., settings=X)``, ``STUDY.claims(..., settings=X)``,
    ``STUDY.rules(X)``: kind ``rules``), read from its modules' source with ``ast``. Names
    and classes are looked up in its ``study.py`` (a class defined in a step module is taken
    from that module, imported then); raises :class:`_Computed` when a registration gives
    them otherwise than as literals, ``*NAME`` or a plain name."""
    import ast

    pkg = f"latentlab.studies.{name}"
    light = importlib.import_module(f"{pkg}.study")
    folder = Path(light.__file__).parent
    out = []

    def cls_of(arg, mod: str, defined: set[str]):
        if isinstance(arg, ast.Constant) and arg.value is None:
            return None
        if not isinstance(arg, ast.Name):
            raise _Computed(f"{mod}.py: settings {ast.unparse(arg)}")
        where = light
        if (mod != "study" and arg.id in defined) or not hasattr(light, arg.id):
            where = importlib.import_module(f"{pkg}.{mod}")
        return getattr(where, arg.id)

    def candidates(tree, lines: list[str]):
        """The nodes of the statements whose text registers (most of a module's code, the
        steps' bodies, is skipped unread) and the function each decorator decorates."""
        decorated: dict[int, str] = {}
        nodes = []

        def has(first: int, last: int) -> bool:
            return bool(_REGISTERS.search("\n".join(lines[first - 1 : last])))

        for stmt in tree.body:
            first = (getattr(stmt, "decorator_list", None) or [stmt])[0].lineno
            if not has(first, stmt.end_lineno):
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for d in stmt.decorator_list:
                    decorated[id(d)] = stmt.name
                    nodes += ast.walk(d)
                if has(stmt.body[0].lineno, stmt.end_lineno):
                    nodes += [n for b in stmt.body for n in ast.walk(b)]
            else:
                nodes += ast.walk(stmt)
        return nodes, decorated

    for mod in ("study", *light.STUDY.modules):
        path = folder / f"{mod}.py"
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text, str(path))
        defined = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        nodes, decorated = candidates(tree, text.splitlines())
        for node in nodes:
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "STUDY"
                and node.func.attr in ("run", "figure", "table", "claims", "rules")
            ):
                continue
            kind = node.func.attr
            if kind == "rules":
                out.append(("rules", [], cls_of(node.args[0], mod, defined)))
                continue
            settings = next((k.value for k in node.keywords if k.arg == "settings"), None)
            cls = None if settings is None else cls_of(settings, mod, defined)
            if kind == "claims":
                out.append(("claims", ["claims"], cls))
                continue
            names: list[str] = []
            for a in node.args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str):
                    names.append(a.value)
                elif (
                    isinstance(a, ast.Starred)
                    and isinstance(a.value, ast.Name)
                    and hasattr(light, a.value.id)
                ):
                    names += [str(n) for n in getattr(light, a.value.id)]
                else:
                    raise _Computed(f"{mod}.py: step name {ast.unparse(a)}")
            if not node.args:  # named after the decorated function
                if id(node) not in decorated:
                    raise _Computed(f"{mod}.py: a step registered without a name")
                names = [decorated[id(node)]]
            out.append((kind, names, cls))
    return out


@functools.cache
def settings_registry(name: str) -> Study:
    """Study ``name``'s steps with their kinds and settings, without their functions: what
    the workflow's start-up needs (``step_params``, ``Study.settings``, the config check).
    Read from the registrations' source (:func:`_registrations`), so the Snakemake process
    imports a study's ``study.py`` and not the modules that register its steps (numba,
    matplotlib, scipy: seconds of CPU for each Snakemake process, and on a cluster for each
    job); a study whose registrations are computed is loaded (:func:`load_study`). The same
    steps and settings as the loaded study's (``tests/studies/test_shape.py``)."""
    try:
        regs = _registrations(name)
    except _Computed:
        return load_study(name)
    full = importlib.import_module(f"latentlab.studies.{name}.study").STUDY
    study = Study(full.name, full.document, full.title, full.modules, full.source, full.data)
    for kind, names, cls in regs:
        if kind == "rules":
            study.rules(cls)
            continue
        for n in names:
            if n in study.steps:
                raise ValueError(f"{name}: step {n!r} registered twice")
            study.steps[n] = Step(n, kind, None, cls)
    return study
