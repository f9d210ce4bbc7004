"""Declarative claims: each claim of a document as data, our value from one small function.

A study lists its claims once::

    CLAIMS = [
        Claim("C2.3", where="Table 2.1", statement="DRIFT beats LFRM(all) at forecasting",
              paper_value="DRIFT > LFRM", how="true", dataset="enron", data_kind="real"),
        Claim("C2.9", where="Sec 2.6", statement="...", paper_value=0.1,
              how="abs", tolerance="claims.auc_abs", dataset="synthetic", data_kind="synthetic"),
        Claim("C2.12", where="Fig 2.8", statement="...", paper_value="...",
              not_testable="the Twitter data are private"),
    ]
    STUDY.claims(CLAIMS, settings=ClaimsSettings)

    @STUDY.claim("C2.3")
    def _(ctx):
        t = ctx.csv("table2_1")
        return bool(t.loc["DRIFT", "ll"] > t.loc["LFRM_all", "ll"])

A ``tolerance`` given as a string is a dotted path into the claims step's settings
(``"claims.auc_abs"``), so tolerances live in the config and a change to one reruns only
the claims. A claim function returns our value, a :class:`Measured` (value plus per-row
overrides), a list of them (one row per dataset), :class:`NotRun`, or :class:`NotTestable`
(a dataset of a tested claim that public data cannot cover). A claim with ``how="order"``
returns :class:`Sides` (both sides, per seed, and the document's two sides); its
``tolerance`` is the margin. A value claim may name ``reject``: the document's values the
rule must refuse (its proof that the row can fail, see :mod:`latentlab.claims.prove`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from latentlab.claims.ladders import apply as apply_ladders
from latentlab.claims.ledger import DIRECTIONS, HOWS, Ledger
from latentlab.claims.noise import Noise
from latentlab.claims.readings import apply as apply_readings
from latentlab.errors import MissingInput


@dataclass(frozen=True)
class Claim:
    """One checkable claim of a document (the ledger's columns: docs/design.md)."""

    id: str
    where: str
    statement: str
    paper_value: Any
    how: str = "true"
    tolerance: float | str = 0.0
    dataset: str = ""
    data_kind: str = "synthetic"
    note: str = ""
    not_testable: str = ""  # reason public data cannot test it (private data, human study)
    # consecutive claims with the same group have their rows written dataset by dataset
    # (C1 on a, C2 on a, C1 on b, C2 on b), as a reader compares them
    group: str = ""
    reject: Any = None  # value(s) of the document the rule must refuse (abs/rel/ge/le)
    direction: str = ">"  # how="order": A > B or A < B

    def __post_init__(self):
        if self.how not in (*HOWS, "order"):
            raise ValueError(f"claim {self.id}: how={self.how!r} not in {(*HOWS, 'order')}")
        if self.direction not in DIRECTIONS:
            raise ValueError(f"claim {self.id}: direction {self.direction!r}")


@dataclass
class Measured:
    """Our value for a claim, with optional per-row overrides of the claim's fields."""

    value: Any
    dataset: str | None = None
    data_kind: str | None = None
    note: str = ""
    paper_value: Any = None
    tolerance: float | str | None = None
    where: str | None = None  # e.g. the figure of this dataset's row
    statement: str | None = None  # when the statement names a setting (an iteration, ...)
    reject: Any = None  # overrides the claim's
    claim_id: str | None = None  # a per-row id (e.g. "C5-T300": one row per setting)
    # issue 38: ``value`` may hold one value per replicate (the row shows their mean and
    # is judged by the noise rule); fewer than 3 replicates decide only with a spread
    # measured elsewhere (``noise``) or a value nothing random changes (``deterministic``)
    noise: Noise | None = None
    deterministic: bool = False
    unit: str = "seeds"  # what the replicates are (seeds, splits, chains, runs)


@dataclass
class Sides:
    """Both sides of an order claim (``how="order"``): A against B, per seed where there are
    seeds, and the document's own two sides where it gives them."""

    a: Any
    b: Any
    paper_a: Any = None
    paper_b: Any = None
    labels: tuple[str, str] = ("A", "B")
    margin: float | str | None = None  # default: the claim's tolerance
    test: str = "every"
    dataset: str | None = None
    data_kind: str | None = None
    note: str = ""
    where: str | None = None
    statement: str | None = None
    unit: str = "seeds"  # what the paired values are (seeds, problems, splits)
    claim_id: str | None = None  # a per-row id (e.g. "C3.1c-TIR": one row per model)
    noise: Noise | None = None  # as Measured's
    deterministic: bool = False


@dataclass(frozen=True)
class Cause:
    """Why the ``not_reproduced`` rows of ``claim`` (a shell pattern over row ids, e.g.
    ``"T2-*"``) on ``dataset`` (a pattern; None: any) miss: one of
    :data:`~latentlab.claims.ledger.CAUSES`, with ``evidence`` naming the file or test that
    shows it (a ladder, REVERSALS.md, a test on known truth). Declared with
    ``STUDY.causes([...])``; the first matching entry wins."""

    claim: str
    cause: str
    evidence: str
    dataset: str | None = None
    # a genuine miss names the readings sweep that tried the document's other readings
    # (its evidence), or says here why no other reading exists (issue 37)
    no_other_reading: str = ""


@dataclass
class NotTestable:
    """One row of a tested claim that public data cannot test for this dataset (a private
    corpus of the document), while the claim is tested on others (same claim id)."""

    reason: str
    dataset: str
    paper_value: Any = None
    statement: str | None = None
    where: str | None = None


@dataclass
class NotRun:
    """The claim's data are public but this run's config leaves them out."""

    reason: str
    dataset: str | None = None
    data_kind: str | None = None  # default: the claim's (``none`` for an identity claim)
    paper_value: Any = None  # default: the claim's
    statement: str | None = None
    claim_id: str | None = None  # a per-row id (e.g. "C5-T100": a setting the run lacks)


def resolve_tolerance(tol: float | str, settings) -> float:
    """A number, or a dotted path into the claims settings (``"claims.win_fraction"``)."""
    if isinstance(tol, str):
        obj = settings
        for part in tol.split("."):
            obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
        return float(obj)
    return float(tol)


def _interleave(rows: list[tuple]) -> list[tuple]:
    """Rows (claim, result) of consecutive claims sharing a group, ordered by dataset
    (in order of first appearance), then by claim; other rows keep their place."""
    out, i = [], 0
    while i < len(rows):
        g = rows[i][0].group
        j = i + 1
        while g and j < len(rows) and rows[j][0].group == g:
            j += 1
        block = rows[i:j]
        if g:
            first: dict = {}
            for c, r in block:
                first.setdefault(_row_dataset(c, r), len(first))
            block = sorted(block, key=lambda cr: first[_row_dataset(*cr)])  # stable
        out += block
        i = j
    return out


def _row_dataset(c: Claim, r) -> str:
    d = getattr(r, "dataset", None)
    return c.dataset if d is None else d


def evaluate_claims(study, ctx) -> Ledger:
    """Run every claim function of ``study`` on ``ctx`` and judge it (Ledger.compare). In a
    partial run (``ctx.partial``: a ladder rung) a claim whose input was not built is a
    not_run row."""
    ledger = Ledger(study.name, document=study.document)
    rows: list[tuple] = []
    for c in study.claim_specs:
        if c.not_testable:
            rows.append((c, None))
            continue
        try:
            result = study.claim_fns[c.id](ctx)
        except MissingInput as e:
            if not getattr(ctx, "partial", False):
                raise
            # a ladder rung builds only some of the study's outputs (rules/ladder.smk)
            result = NotRun(f"partial run: {e.name!r} was not built in this run")
        results = result if isinstance(result, list) else [result]
        if not results:
            raise ValueError(f"{study.name} claim {c.id}: its function returned no row")
        rows += [(c, r) for r in results]
    for c, r in _interleave(rows):
        if c.not_testable:
            ledger.not_testable(
                c.id,
                where=c.where,
                statement=c.statement,
                paper_value=c.paper_value,
                reason=c.not_testable,
                dataset=c.dataset,
            )
            continue
        if isinstance(r, NotTestable):
            ledger.not_testable(
                c.id,
                where=c.where if r.where is None else r.where,
                statement=c.statement if r.statement is None else r.statement,
                paper_value=c.paper_value if r.paper_value is None else r.paper_value,
                reason=r.reason,
                dataset=r.dataset,
            )
            continue
        if isinstance(r, NotRun):
            ledger.not_run(
                c.id if r.claim_id is None else r.claim_id,
                where=c.where,
                statement=c.statement if r.statement is None else r.statement,
                paper_value=c.paper_value if r.paper_value is None else r.paper_value,
                reason=r.reason,
                dataset=r.dataset if r.dataset is not None else c.dataset,
                data_kind=r.data_kind
                if r.data_kind is not None
                else (c.data_kind if c.data_kind != "identity" else "none"),
            )
            continue
        if c.how == "order" or isinstance(r, Sides):
            if not (c.how == "order" and isinstance(r, Sides)):
                raise ValueError(f"{study.name} claim {c.id}: how='order' goes with Sides")
            margin = c.tolerance if r.margin is None else r.margin
            ledger.order(
                c.id if r.claim_id is None else r.claim_id,
                where=c.where if r.where is None else r.where,
                statement=c.statement if r.statement is None else r.statement,
                ours_a=r.a,
                ours_b=r.b,
                direction=c.direction,
                margin=resolve_tolerance(margin, ctx.settings),
                test=r.test,
                paper_a=r.paper_a,
                paper_b=r.paper_b,
                labels=r.labels,
                unit=r.unit,
                dataset=r.dataset if r.dataset is not None else c.dataset,
                data_kind=r.data_kind if r.data_kind is not None else c.data_kind,
                note="; ".join(x for x in (c.note, r.note) if x),
                noise=r.noise,
                deterministic=r.deterministic,
            )
            continue
        m = r if isinstance(r, Measured) else Measured(r)
        tol = c.tolerance if m.tolerance is None else m.tolerance
        ledger.compare(
            c.id if m.claim_id is None else m.claim_id,
            where=c.where if m.where is None else m.where,
            statement=c.statement if m.statement is None else m.statement,
            paper_value=c.paper_value if m.paper_value is None else m.paper_value,
            our_value=m.value,
            how=c.how,
            tolerance=resolve_tolerance(tol, ctx.settings) if c.how != "true" else 0.0,
            dataset=m.dataset if m.dataset is not None else c.dataset,
            data_kind=m.data_kind if m.data_kind is not None else c.data_kind,
            note="; ".join(x for x in (c.note, m.note) if x),
            reject=None if c.how == "true" else (c.reject if m.reject is None else m.reject),
            noise=m.noise,
            deterministic=m.deterministic,
            unit=m.unit,
        )
    # the causes are judgments about the real run (and the paper run it reduces): a miss of
    # the same claim in smoke or another small run has other reasons (its tiny budgets), so
    # it stays open
    run = getattr(ctx, "run", "real")
    causes = getattr(study, "cause_specs", ()) if run in ("real", "paper") else ()
    ledger.assign_causes(causes)
    # issue 37: the reading each row's number uses, and the cause `reading` of a miss that
    # another option of a readings sweep reproduces (measured, so it comes before the rest)
    readings = getattr(study, "reading_specs", ())
    has = getattr(ctx, "has_input", None)
    if readings:
        sweeps = ctx.input_list("readings") if has is not None and has("readings") else []
        apply_readings(ledger, readings, getattr(ctx, "readings", {}) or {}, sweeps)
    # issue 40: the verdict at the highest ladder rung that measured the row, beside ours
    if has is not None and has("ladder"):
        apply_ladders(ledger, ctx.input_list("ladder"))
    return ledger


@dataclass(frozen=True)
class Reading:
    """A choice the document leaves open that a result depends on (issue 37): when an
    update starts, how many optimiser steps, where a path starts, which predictive.

    ``options`` maps each label to the overrides of the study's config section that
    implement it; ``published`` is the label the published run uses, the most literal
    reading of ``sentence`` (``why`` says why). ``rows`` are the claim ids (shell patterns)
    whose numbers depend on the choice, ``targets`` the study's outputs (paths under
    ``results/{run}/{study}/``) a readings sweep rebuilds to judge them
    (:mod:`latentlab.readings`)."""

    name: str
    where: str
    sentence: str
    options: dict
    published: str
    why: str
    rows: tuple[str, ...]
    targets: tuple[str, ...]

    def __post_init__(self):
        if not self.name.isidentifier():
            raise ValueError(f"reading {self.name!r}: the name must be an identifier")
        if len(self.options) < 2:
            raise ValueError(f"reading {self.name}: a choice needs at least two options")
        if self.published not in self.options:
            raise ValueError(
                f"reading {self.name}: published {self.published!r} not among {list(self.options)}"
            )
        bad = [k for k in self.options if not str(k).replace("_", "").isalnum()]
        if bad:
            raise ValueError(f"reading {self.name}: option labels {bad} are not simple names")
        for k, v in self.options.items():
            if not isinstance(v, dict):
                raise ValueError(f"reading {self.name}: option {k!r} is not a mapping")
        if not (self.sentence and self.why and self.rows and self.targets):
            raise ValueError(f"reading {self.name}: sentence, why, rows and targets are needed")
