"""``docs/studies.md``: the documents, the studies and what each builds, generated from the
study registry.

``python -m latentlab docs studies`` writes it; ``--check`` fails when the file differs
from what the registry gives (``tests/test_studies_reference.py`` runs the check, so a
step, a claim or a study declaration changed without regenerating fails the tests).

Where each part of the page comes from:

* the documents and the part each study replicates: ``Study(..., source=Source(...))``
  (:class:`latentlab.studies.shape.Source`) in ``src/latentlab/studies/<study>/study.py``;
* a study's notes: the ``Notes`` section of that module's docstring;
* its targets: its figure and table steps (``@STUDY.figure``, ``@STUDY.table``), ``bench``
  and ``claims``; the document's figure or table a target replicates is read from its id,
  which follows the document's numbering (``fig4_3`` = Fig 4.3, ``sec5_6_1`` = Sec 5.6.1),
  and the claims of a target are those whose ``where`` cites that figure or table;
* its computation steps (``@STUDY.run``): the first sentence of the function's docstring
  and the config keys its settings dataclass declares (``Study.config_keys``);
* its real data: ``Study(..., data={registry name: what it stands for})`` with the title of
  the data registry's entry (:mod:`latentlab.data.registry`).

The registry does not hold the paths of a computation step's files (the rules name them)
nor the page's introduction, which is fixed text here.
"""

from __future__ import annotations

import importlib
import re
import textwrap

OUT = "docs/studies.md"
NON_STUDY = "compare"  # a target, not a study: every method on one corpus

# a target id that follows the document's numbering: fig4_3, fig5a, table5_1, sec5_6_1,
# fig3_3_signtest (the number is what precedes a "_word" suffix)
_TARGET_ID = re.compile(r"^(fig|table|sec)(\d+(?:_\d+)*)([a-z]?)(?=_[a-z]|$)")
_KIND_WORD = {"fig": "Fig", "table": "Table", "sec": "Sec"}
# a claim's `where`: "Fig 4.3", "Figs 4.3-4.5", "Tables 5.1/5.2", "Sec 5.1.4 and 5.2.1-5.2.2"
_NUM = r"\d+(?:\.\d+)*[a-z]?"
_REF = re.compile(rf"\b(Figs?|Tables?|Secs?)\.?\s*({_NUM}(?:\s*(?:-|–|/|,|and)\s*{_NUM})*)")
# a sentence ends at "." before a capital, a bracket or a backquote ("Sec. 7.6" goes on)
_SENTENCE = re.compile(r"(?<=\.)\s+(?=[A-Z(`])")
_WIDTH = 120  # longest line of a step in a table cell
_WRAP = 92  # prose lines (tables are one line a row)
_MAX_CLAIMS = 8  # claim ids listed in a target's row (then "and N more")
_NOTES = re.compile(r"^Notes\n-+\n(.*?)(?=^\S[^\n]*\n-+\n|\Z)", re.S | re.M)


# ------------------------------------------------------------------ the registry's parts
def studies() -> list:
    """The seven studies in the order of their documents (seed, then part)."""
    from latentlab.runconfig import STUDIES
    from latentlab.studies.shape import load_study

    loaded = [load_study(s) for s in STUDIES]
    for s in loaded:
        if s.source is None:
            raise ValueError(f"{s.name}: Study(..., source=Source(...)) is not declared")

    def part_key(s):
        return (s.source.seed, [int(x) for x in re.findall(r"\d+", s.source.part)])

    return sorted(loaded, key=part_key)


def documents(studies_: list) -> list[tuple]:
    """(seed, document line, [studies]) per document; the studies of one document must
    declare it alike."""
    docs: dict[str, tuple] = {}
    for s in studies_:
        src = s.source
        if src.seed in docs and docs[src.seed][:2] != (src.document, src.cite):
            raise ValueError(
                f"{s.name}: document {src.seed} declared as {src.document!r} ({src.cite}), "
                f"other studies say {docs[src.seed][0]!r} ({docs[src.seed][1]})"
            )
        docs.setdefault(src.seed, (src.document, src.cite, []))[2].append(s.name)
    return [(seed, doc, names) for seed, (doc, _, names) in sorted(docs.items())]


def notes(name: str) -> list[str]:
    """The paragraphs of the ``Notes`` section of ``latentlab.studies.<name>.study``'s
    docstring (``x`` as Markdown code), or none."""
    doc = importlib.import_module(f"latentlab.studies.{name}.study").__doc__ or ""
    m = _NOTES.search(doc)
    if not m:
        return []
    paras = [" ".join(p.split()) for p in re.split(r"\n\s*\n", m.group(1))]
    return [_markdown(p) for p in paras if p]


def _markdown(text: str) -> str:
    """reST inline markup as Markdown: ``x`` -> `x`, :mod:`x` -> `x`."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def document_ref(step_id: str) -> tuple[str, str] | None:
    """(kind, number) of the document's figure, table or section a target id names by the
    document's numbering (``fig4_3`` -> ("fig", "4.3"), ``fig5a`` -> ("fig", "5a")); None
    for an id of ours (``fig_l_recovery``, ``heldout_time``)."""
    m = _TARGET_ID.match(step_id)
    if not m:
        return None
    return m.group(1), m.group(2).replace("_", ".") + m.group(3)


def _expand(numbers: str) -> list[str]:
    """ "4.3-4.5" -> 4.3, 4.4, 4.5; "5.4/5.5" -> 5.4, 5.5; "1, 5 and 7" -> 1, 5, 7."""
    out: list[str] = []
    for part in re.split(r"\s*(?:/|,|\band\b)\s*", numbers):
        m = re.fullmatch(rf"({_NUM})\s*[-–]\s*({_NUM})", part)
        if not m:
            out.append(part)
            continue
        lo, hi = m.groups()
        head_lo, _, last_lo = lo.rpartition(".")
        head_hi, _, last_hi = hi.rpartition(".")
        if head_lo == head_hi and last_lo.isdigit() and last_hi.isdigit():
            out += [f"{head_lo}.{i}" if head_lo else str(i)
                    for i in range(int(last_lo), int(last_hi) + 1)]  # fmt: skip
        else:
            out += [lo, hi]
    return [n for n in out if n]


def claim_refs(where: str) -> set[tuple[str, str]]:
    """The figures, tables and sections a claim's ``where`` cites, as (kind, number)."""
    refs = set()
    for word, numbers in _REF.findall(where):
        refs |= {(word.lower().rstrip("s"), n) for n in _expand(numbers)}
    return refs


def _cites(ref: tuple[str, str], target: tuple[str, str]) -> bool:
    """Whether a claim's reference is the target's figure (a panel of it, "6.1a", or the
    figure of a panel target, "5" for fig5a, counts)."""
    (k, n), (tk, tn) = ref, target
    if k != tk:
        return False
    strip = re.sub(r"[a-z]$", "", n)
    return n == tn or strip == tn or n == re.sub(r"[a-z]$", "", tn)


def target_claims(study, step_id: str) -> list[str]:
    """Ids of the claims whose ``where`` cites the target's figure or table (the claims
    step: every claim)."""
    target = document_ref(step_id)
    if target is None:
        return []
    ids: list[str] = []
    for c in study.claim_specs:
        if any(_cites(r, target) for r in claim_refs(c.where)) and c.id not in ids:
            ids.append(c.id)
    return ids


def first_sentence(text: str) -> str:
    """A step's line: the first sentence of its docstring, on one line (cut at ``_WIDTH``
    characters)."""
    para = re.split(r"\n\s*\n", text.strip(), maxsplit=1)[0] if text.strip() else ""
    first = _markdown(_SENTENCE.split(" ".join(para.split()), maxsplit=1)[0])
    first = first.replace("|", "\\|")
    if len(first) <= _WIDTH:
        return first
    return first[:_WIDTH].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def _natural(step_id: str):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", step_id)]


def targets(study) -> list:
    """The study's figure steps, then its table steps (in the document's order), then
    ``bench`` and ``claims``."""
    figs = sorted(
        (s for s in study.steps.values() if s.kind == "figure"), key=lambda s: _natural(s.name)
    )
    tabs = sorted(
        (s for s in study.steps.values() if s.kind == "table"), key=lambda s: _natural(s.name)
    )
    tail = [study.steps[n] for n in ("bench", "claims") if n in study.steps]
    return figs + tabs + tail


def computation_steps(study) -> list:
    """The run steps that are not targets (``bench`` is one), in registration order."""
    return [s for s in study.steps.values() if s.kind == "run" and s.name != "bench"]


def config_datasets(section, names: set[str]) -> set[str]:
    """The data registry names (of ``names``) a config section names as a value, skipping
    a mapping that declares itself synthetic (``kind``/``source: synthetic``: a synthetic
    stand-in may carry a real corpus's name)."""
    found: set[str] = set()
    if isinstance(section, dict):
        if "synthetic" in (section.get("kind"), section.get("source")):
            return found
        for v in section.values():
            found |= config_datasets(v, names)
    elif isinstance(section, list):
        for v in section:
            found |= config_datasets(v, names)
    elif isinstance(section, str) and section in names:
        found.add(section)
    return found


# ------------------------------------------------------------------ the page
def _files(step) -> str:
    return f"`{step.name}.png`" if step.kind == "figure" else f"`{step.name}.csv`"


def _keys(study, step: str) -> str:
    keys = study.config_keys(step)
    return ", ".join(f"`{k}`" for k in keys) if keys else "–"


def _doc_cell(step) -> str:
    ref = document_ref(step.name)
    if ref is None:
        return "–"
    return f"{_KIND_WORD[ref[0]]} {ref[1]}"


def _target_table(study, with_claims: bool) -> list[str]:
    head = ["target", "document", "what it shows", "config keys read"]
    head += ["claims"] if with_claims else []
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for st in targets(study):
        if st.kind == "claims":
            what = f"the claims ledger ({len({c.id for c in study.claim_specs})} claims)"
        else:
            what = first_sentence(st.help)
        cells = [_files(st), _doc_cell(st), what, _keys(study, st.name)]
        if with_claims:
            cells.append(_claims_cell(target_claims(study, st.name)))
        out.append("| " + " | ".join(cells) + " |")
    return out


def _claims_cell(ids: list[str]) -> str:
    if len(ids) > _MAX_CLAIMS:
        return ", ".join(ids[: _MAX_CLAIMS - 2]) + f" and {len(ids) - _MAX_CLAIMS + 2} more"
    return ", ".join(ids) or "–"


def _step_table(study) -> list[str]:
    out = ["| step | what it computes | config keys read |", "|---|---|---|"]
    for st in computation_steps(study):
        out.append(f"| `{st.name}` | {first_sentence(st.help)} | {_keys(study, st.name)} |")
    return out


def _data_lines(study) -> list[str]:
    from latentlab.data import registry

    lines = []
    for name, what in study.data.items():
        if name not in registry.REGISTRY:
            raise ValueError(f"{study.name}: data entry {name!r} is not in the data registry")
        title = registry.get(name).title.replace("|", "\\|")
        lines.append(f"- `{name}` ({title}): {what}" if what else f"- `{name}` ({title})")
    return lines


def _figure_command(study) -> str | None:
    figs = [s for s in targets(study) if s.kind == "figure"]
    if not figs:
        return None
    return f"`snakemake --cores 2 results/smoke/{study.name}/{figs[0].name}.png`"


def _study_section(study) -> list[str]:
    src = study.source
    lines = [
        "",
        f"## {study.name}",
        "",
        f"{study.title}: {study.cited} (document [{src.seed}](#the-documents)). Build it with "
        f"`snakemake --cores 2 {study.name}`, one figure with {_figure_command(study)}; its "
        f"settings: [config reference](../config/README.md#{study.name}), "
        f"`src/latentlab/studies/{study.name}/study.py`.",
    ]
    for p in notes(study.name):
        lines += ["", p]
    lines += [
        "",
        f"Targets (under `results/{{run}}/{study.name}/`):",
        "",
        *_target_table(study, with_claims=True),
        "",
        f"Computation steps (their files: `rules/{study.name}.smk`):",
        "",
        *_step_table(study),
    ]
    data = _data_lines(study)
    lines += ["", "Real data (data registry entries):" if data else "Real data: none.", ""]
    lines += data if data else []
    if not data:
        lines.pop()
    return lines


def _compare_section() -> list[str]:
    from latentlab.studies.shape import load_study

    cmp = load_study(NON_STUDY)
    return [
        "",
        "## compare (not a study)",
        "",
        "`compare` runs the replicated methods on one corpus, your own or a prepared dataset "
        "([config.md](config.md#your-corpus-every-method-compare)): "
        "`snakemake --cores 2 compare` builds it for the config's `compare.dataset`; its "
        "settings: [config reference](../config/README.md#compare), "
        "`src/latentlab/studies/compare/study.py`.",
        "",
        "Targets (under `results/{run}/compare/<dataset>/`):",
        "",
        *_target_table(cmp, with_claims=False),
        "",
        "Computation steps (their files: `rules/compare.smk`):",
        "",
        *_step_table(cmp),
    ]


def render() -> str:
    """The text of ``docs/studies.md``."""
    all_ = studies()
    docs = documents(all_)
    example = next(s for s in all_ if s.name == "scvb0")
    fig = _figure_command(example)
    words = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven"}
    n_docs = words.get(len(docs), str(len(docs)))
    n_studies = words.get(len(all_), str(len(all_))).lower()
    lines = [
        "# The documents and studies",
        "",
        "<!-- generated by `python -m latentlab docs studies` from the study registry",
        "(src/latentlab/studies/*/study.py and the steps they register); do not edit by hand -->",
        "",
        f"{n_docs} documents, {n_studies} studies: the [README](../README.md) gives one line "
        "per study, this page the tables and figures each study builds, the steps that "
        "compute them and the data it reads.",
        "",
        "## The documents",
        "",
        "| seed | document | studies |",
        "|---|---|---|",
        *[
            f"| {seed} | {doc} | " + ", ".join(f"[`{n}`](#{n})" for n in names) + " |"
            for seed, doc, names in docs
        ],
        "",
        "The documents' texts are not in this repository (on the project's machines they and "
        "the project's reading digests are in `../shared/seeds/`); the claims ledgers cite the "
        f"documents' own figures, tables and sections. A study is built by its target "
        f"(`snakemake --cores 2 {example.name}`), one figure by its file ({fig}). Which "
        "studies `all` builds is the config's `studies:` list. `compare` is not a study but a "
        "target that runs the replicated methods on one corpus "
        "([below](#compare-not-a-study)).",
        "",
        "Each figure is a `.png` with the `.csv` of its numbers and a `.meta.json` of the "
        "settings that produced it (config values, seeds, the choices a document leaves "
        "open); each table is `.csv` + `.md`. Budgets of the `real` run (fewer runs, smaller "
        "grids than the documents') are recorded in `config/real.yaml` and in each output's "
        "metadata; the documents' own settings are in `config/paper.yaml`.",
        "",
        "In each study's tables: *document* is the document's figure, table or section a "
        "target replicates (a target's name follows the document's numbering; – : ours), "
        "*claims* the rows of its claims ledger whose `where` cites it, *config keys read* "
        "the keys of the study's config section the step reads (a change to one reruns the "
        "steps that read it). The smoke run (`config/config.yaml`) reads no real data: its "
        "corpora are synthetic or bundled.",
    ]
    for s in all_:
        lines += _study_section(s)
    lines += _compare_section()
    return "\n".join(w for line in lines for w in _wrap(line)) + "\n"


def _wrap(line: str) -> list[str]:
    """A paragraph or a list item wrapped at ``_WRAP`` columns; a table row, a heading or
    the comment as it is."""
    if len(line) <= _WRAP or line.startswith(("|", "#", "<!--")):
        return [line]
    indent = "  " if line.startswith("- ") else ""
    # a code span (a command, a path) is never broken
    glued = re.sub(r"`[^`]+`", lambda m: m.group(0).replace(" ", "\0"), line)
    out = textwrap.wrap(
        glued, _WRAP, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )
    return [w.replace("\0", " ") for w in out]


# ------------------------------------------------------------------ CLI
def _cmd_studies(args) -> int:
    from latentlab.cliutil import write_generated

    return write_generated(
        render(), args, "the study registry gives", "python -m latentlab docs studies"
    )


def register(subparsers) -> None:
    """``latentlab docs studies [--check]``."""
    p = subparsers.add_parser("docs", help="generated docs pages (docs/studies.md)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)
    r = sub.add_parser("studies", help="write docs/studies.md from the study registry")
    from latentlab.cliutil import add_generated_args

    add_generated_args(r, OUT, _cmd_studies)
