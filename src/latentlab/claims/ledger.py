"""The replication ledger: one row per checkable claim of a document.

A study declares each claim with the document's value, our measured value and a
comparison; the verdict is computed here, never typed by hand::

    ledger = Ledger("scvb0", document="Foulds 2014 (seed 004)")
    ledger.compare("C4.10", where="Sec 4.4", statement="SCVB0 == online EM for MAP_LDA_U",
                   paper_value=0.0, our_value=max_abs_diff, tolerance=1e-10, how="abs",
                   dataset="synthetic_lda", data_kind="synthetic")
    ledger.not_testable("T4.4-human", where="Table 4.4", statement="...",
                        paper_value="...", reason="human study")
    ledger.write("results/smoke/scvb0/claims.csv")

Comparisons (``how``)
---------------------
``abs``   |ours - paper| <= tolerance
``rel``   |ours - paper| <= tolerance * |paper|
``ge``    ours >= paper - tolerance   (a lower bound the document claims, e.g. a speed-up)
``le``    ours <= paper + tolerance
``true``  ours is a boolean outcome of a check (ordering, inequality, identity); paper_value
          states what the document asserts, e.g. "PCVB0 < PCVB". Only a real boolean
          (``bool`` or ``numpy.bool_``) is accepted: a string, a number or NaN is
          ``not_reproduced`` with the reason in the note.
A non-finite ``our_value`` is always ``not_reproduced`` (and says so in the note).

Decisions as data
-----------------
Every judged row also carries its rule in the ``rule`` column (compact JSON), so that
``latentlab claims prove`` can re-apply it from the CSV alone (:mod:`latentlab.claims.prove`):

- a value (``compare`` with abs/rel/ge/le): ``{"how", "paper", "ours", "tol", "reject"}``;
  ``reject`` lists values the rule must refuse (the document's nearest alternative: another
  method's number in the same column, the comparator, the null), which proves the row can fail;
- an order (``Ledger.order``): both sides, per seed where there are seeds, the direction, a
  margin tied to the document's effect and the document's own two sides: ``{"how": "order",
  "a", "b", "dir", "margin", "test", "paper_a", "paper_b"}``. ``test`` is ``every`` (the sign,
  beyond the margin, holds in every seed) or ``t<alpha>`` (a one-sided t-test across seeds);
- a bare boolean (``how="true"``): ``{"how": "true", "ours"}``; it cannot be proven from the
  CSV and needs a counter-example registered next to its claim function.

Causes (issue 24): every ``not_reproduced`` row says why it misses in ``cause`` (one of
:data:`CAUSES`) with a pointer to the file or test that shows it in ``evidence``; the study
declares them next to its claims (``STUDY.causes``), and a miss nobody has explained yet is
``open``, its evidence ending with the run or check that would settle it (``settle: ...``).

Verdicts: ``reproduced``, ``not_reproduced``, ``not_testable`` (public data cannot test
it: private corpora, human studies), ``not_run`` (public data this run's config leaves
out; the note names the config that runs it). Data kinds: ``real``, ``substitute``,
``synthetic``, ``identity`` (an exact mathematical check, counted apart from empirical
claims) and ``none`` (nothing was run).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.claims import noise

COLUMNS = [
    "claim_id",
    "document",
    "where",
    "statement",
    "paper_value",
    "our_value",
    "n_rep",
    "spread",
    "tolerance",
    "dataset",
    "data_kind",
    "verdict",
    "note",
    "rule",
    "cause",
    "evidence",
    "reading",
    "ladder_rung",
    "ladder_value",
    "ladder_verdict",
]
# files written before these columns existed are read with them empty
OPTIONAL_COLUMNS = ("rule", "cause", "evidence", "n_rep", "spread", "reading", "ladder_rung",
                    "ladder_value", "ladder_verdict")  # fmt: skip
# inconclusive (issue 38): the noise band of our replicates covers both outcomes
VERDICTS = ("reproduced", "not_reproduced", "inconclusive", "not_testable", "not_run")
JUDGED = ("reproduced", "not_reproduced", "inconclusive")
# why a not_reproduced row misses (issue 24): our reduction of the document's settings, a
# stand-in corpus, a choice the document leaves open, another reading of the document that
# reproduces it (issue 37: the row keeps the literal reading's verdict), a genuine miss, or
# not known yet
CAUSES = ("reduction", "substitute", "ambiguity", "reading", "genuine", "open")
RULE_VERSION = 2  # rules with replicates and the noise rule (issue 38); 1: point rules
DATA_KINDS = ("real", "substitute", "synthetic", "identity", "none")
HOWS = ("abs", "rel", "ge", "le", "true")
DIRECTIONS = (">", "<")


@dataclass
class ClaimRow:
    claim_id: str
    document: str
    where: str
    statement: str
    paper_value: str
    our_value: str
    tolerance: str
    dataset: str
    data_kind: str
    verdict: str
    note: str
    rule: str = ""
    cause: str = ""
    evidence: str = ""
    n_rep: str = ""  # replicates behind our value (seeds, splits, chains, runs)
    spread: str = ""  # their sd (or the sd measured elsewhere: the rule's noise)
    reading: str = ""  # the reading(s) of the document our number uses (issue 37)
    ladder_rung: str = ""  # the highest ladder rung that measured the row (issue 40)
    ladder_value: str = ""
    ladder_verdict: str = ""


def _jsonable(x):
    """A JSON-ready copy of a rule value (numpy scalars and arrays to Python)."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        x = float(x)
        return x if math.isfinite(x) else str(x)
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in x]
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if x is None:
        return None
    return str(x)


def dump_rule(rule: dict) -> str:
    """The ``rule`` cell: compact JSON with finite floats kept exactly."""
    return json.dumps({k: _jsonable(v) for k, v in rule.items()}, separators=(",", ":"))


def load_rule(cell: str) -> dict | None:
    """Parse a ``rule`` cell (``None`` when the row carries no rule)."""
    if not cell or not str(cell).strip():
        return None
    return json.loads(cell)


def _floats(x) -> np.ndarray:
    """Per-seed values as a 1-d float array (a scalar is one seed; text is NaN)."""
    vals = np.atleast_1d(np.asarray(x, dtype=object)).ravel()
    out = np.empty(len(vals))
    for i, v in enumerate(vals):
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            out[i] = math.nan
    return out


def _paired(a, b) -> tuple[np.ndarray, np.ndarray]:
    a, b = _floats(a), _floats(b)
    if len(a) != len(b) and 1 not in (len(a), len(b)):
        raise ValueError(f"sides have {len(a)} and {len(b)} seeds")
    return a, b


def _check_order(direction: str, margin: float) -> float:
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r}; use one of {DIRECTIONS}")
    m = float(margin)
    if not (math.isfinite(m) and m >= 0):
        raise ValueError(f"margin {margin!r} must be finite and >= 0")
    return m


def order_effect(a, b, direction: str) -> np.ndarray:
    """Per-replicate difference in the claim's direction (positive: A ``direction`` B)."""
    a, b = _paired(a, b)
    return (a - b) if direction == ">" else (b - a)


def judge_order(a, b, direction: str, margin: float, test: str = "every") -> tuple[str, str]:
    """Point rule of "A ``direction`` B by more than ``margin``" on per-seed sides, without
    noise: the difference beyond the margin in every seed (``test="every"``), or a one-sided
    t-test of mean(d) > margin at the stated level (``"t0.05"``, at least 2 seeds). For the
    document's own numbers and hand-written counter-examples; ledger rows use the noise rule
    (:func:`decide_order`)."""
    m = _check_order(direction, margin)
    a, b = _paired(a, b)
    if a.size == 0 or b.size == 0:
        return "not_reproduced", "no value measured"
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        return "not_reproduced", "a side is non-finite"
    d = (a - b) if direction == ">" else (b - a)
    if test == "every":
        ok = bool((d > m).all())
        return ("reproduced" if ok else "not_reproduced"), ""
    if test.startswith("t"):
        alpha = float(test[1:])
        if len(d) < 2:
            return "not_reproduced", "a t-test needs at least 2 seeds"
        ok = noise._t_sided(d, m, True, alpha)
        return ("reproduced" if ok else "not_reproduced"), ""
    raise ValueError(f"unknown test {test!r}; use 'every' or 't<alpha>'")


def order_region(margin: float) -> noise.Region:
    """An order accepts the difference beyond its margin, strictly (a tie is no order)."""
    return noise.Region(lo=float(margin), lo_open=True)


def value_region(paper_value, how: str, tolerance: float) -> noise.Region:
    """The values a value row (abs, rel, ge, le) accepts."""
    paper, tol = float(paper_value), float(tolerance)
    if not (math.isfinite(paper) and math.isfinite(tol)):
        # a claim must state a finite target; a negative tolerance makes ge/le strict
        raise ValueError(f"paper value {paper_value!r} and tolerance {tolerance!r}: not finite")
    if how == "abs":
        return noise.Region(paper - tol, paper + tol)
    if how == "rel":
        return noise.Region(paper - tol * abs(paper), paper + tol * abs(paper))
    if how == "ge":
        return noise.Region(lo=paper - tol)
    if how == "le":
        return noise.Region(hi=paper + tol)
    raise ValueError(f"unknown comparison {how!r}; use one of {HOWS}")


def decide_order(a, b, direction, margin, test="every", noise_=None, deterministic=False):
    """The noise rule (:mod:`latentlab.claims.noise`) on an order's per-replicate
    differences."""
    m = _check_order(direction, margin)
    return noise.decide(order_effect(a, b, direction), order_region(m), noise=noise_,
                        deterministic=deterministic, test=test)  # fmt: skip


def tolerance_width(how: str, paper, tolerance) -> float:
    """Half-width of a value row's accepted band (abs, rel); nan for ge / le."""
    if how == "abs":
        return float(tolerance)
    if how == "rel":
        return float(tolerance) * abs(float(paper))
    return math.nan


def decide_value(paper, ours, how, tolerance=0.0, test="every", noise_=None,
                 deterministic=False) -> noise.Decision:  # fmt: skip
    """The noise rule on a value row's per-replicate values. A tolerance narrower than the
    replicates' spread is refused: the row is ``inconclusive`` and says so (``claims
    prove`` flags it)."""
    if how == "true":
        v = np.atleast_1d(np.asarray(ours, dtype=object)).ravel()
        if v.size == 0 or any(not isinstance(x, (bool, np.bool_)) for x in v):
            return noise.Decision("not_reproduced", f"check gave {ours!r}, not booleans",
                                  int(v.size), math.nan, math.nan, math.nan)  # fmt: skip
        vals = v.astype(float)
        # "holds in every replicate": 1 = holds
        return noise.decide(vals, noise.Region(1.0, 1.0), noise=noise_,
                            deterministic=deterministic, test="every")  # fmt: skip
    v = _floats(ours)
    d = noise.decide(v, value_region(paper, how, tolerance), noise=noise_,
                     deterministic=deterministic, test=test)  # fmt: skip
    width = tolerance_width(how, paper, tolerance)
    if np.isfinite(v).all() and math.isfinite(width) and math.isfinite(d.sd) and d.sd > width:
        why = (f"tolerance refused: its half-width {_fmt(width)} is narrower than the "
               f"replicates' spread (sd {_fmt(d.sd)}), so it cannot decide")  # fmt: skip
        return noise.Decision("inconclusive", why, d.n, d.mean, d.sd, d.band, d.needed)
    return d


def refused(rule: dict) -> bool:
    """A value rule whose tolerance is narrower than its spread (issue 38)."""
    if rule.get("v", 1) < RULE_VERSION or rule.get("how") not in ("abs", "rel"):
        return False
    d = _decide_rule(rule)
    return d.verdict == "inconclusive" and d.why.startswith("tolerance refused")


def _decide_rule(rule: dict) -> noise.Decision:
    nz = noise.Noise.from_rule(rule.get("noise"))
    det = bool(rule.get("det", False))
    if rule.get("how") == "order":
        return decide_order(rule["a"], rule["b"], rule["dir"], rule.get("margin", 0.0),
                            rule.get("test", "every"), nz, det)  # fmt: skip
    return decide_value(rule.get("paper"), rule.get("ours"), rule["how"], rule.get("tol", 0.0),
                        rule.get("test", "every"), nz, det)  # fmt: skip


def judge_rule(rule: dict) -> tuple[str, str]:
    """Apply a row's machine-readable rule (see the module docstring): the noise rule for a
    rule of :data:`RULE_VERSION`, the point rule for an older one."""
    if rule.get("v", 1) >= RULE_VERSION:
        d = _decide_rule(rule)
        return d.verdict, d.why
    how = rule.get("how")
    if how == "order":
        return judge_order(
            rule["a"], rule["b"], rule["dir"], rule.get("margin", 0.0), rule.get("test", "every")
        )
    if how == "true":
        return judge(None, rule.get("ours"), "true")
    return judge(rule["paper"], rule.get("ours"), how, rule.get("tol", 0.0))


def _fmt(x) -> str:
    if x is None:
        return ""
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    return str(x)


def _fmt_side(x) -> str:
    """The document's side of an order: one number, or several paired ones (``867/1116``)."""
    v = _floats(x)
    return _fmt(float(v[0])) if v.size == 1 else "/".join(_fmt(float(y)) for y in v)


def judge(paper_value, our_value, how: str, tolerance: float = 0.0) -> tuple[str, str]:
    """Point rule of one comparison, without noise: for the document's own numbers and
    hand-written counter-examples (ledger rows use :func:`decide_value`)."""
    if how not in HOWS:
        raise ValueError(f"unknown comparison {how!r}; use one of {HOWS}")
    if how == "true":
        if our_value is None:
            return "not_reproduced", "no value measured"
        if not isinstance(our_value, (bool, np.bool_)):
            return "not_reproduced", f"check gave {our_value!r}, not a boolean"
        return ("reproduced" if bool(our_value) else "not_reproduced"), ""
    try:
        ours = float(our_value)
    except (TypeError, ValueError):
        return "not_reproduced", f"our value {our_value!r} is not a number"
    if not math.isfinite(ours):
        return "not_reproduced", f"our value is {ours} (non-finite)"
    ok = bool(value_region(paper_value, how, tolerance).inside(ours))
    return ("reproduced" if ok else "not_reproduced"), ""


def _spread_cells(d: noise.Decision, nz, deterministic: bool) -> tuple[str, str]:
    """The ``n_rep`` and ``spread`` cells: the replicates, their sd (or the noise's)."""
    if deterministic:
        return str(d.n), "0"
    return str(d.n), ("" if not math.isfinite(d.sd) else _fmt(d.sd))


def _noise_note(nz, deterministic: bool, unit: str) -> str:
    if deterministic:
        return "deterministic: no seed, split or chain changes this value"
    if nz is not None:
        return f"spread measured elsewhere: sd {_fmt(nz.sd)} over {nz.n} {unit} of {nz.source}"
    return ""


class Ledger:
    """Collects a study's claims and writes ``claims.csv`` (columns: docs/design.md)."""

    def __init__(self, study: str, document: str):
        self.study = study
        self.document = document
        self.rows: list[ClaimRow] = []

    def _add(self, row: ClaimRow) -> ClaimRow:
        if any(r.claim_id == row.claim_id and r.dataset == row.dataset for r in self.rows):
            raise ValueError(f"claim {row.claim_id} on {row.dataset} declared twice")
        if row.data_kind not in DATA_KINDS:
            raise ValueError(f"data_kind {row.data_kind!r} not in {DATA_KINDS}")
        self.rows.append(row)
        return row

    def compare(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        our_value,
        how: str,
        tolerance: float = 0.0,
        dataset: str,
        data_kind: str,
        note: str = "",
        reject=None,
        noise: noise.Noise | None = None,
        deterministic: bool = False,
        unit: str = "seeds",
    ) -> ClaimRow:
        """Declare a claim and compute its verdict from ``how`` and ``tolerance``.

        ``our_value``: one value, or one per replicate (a list: the row's value is their
        mean, judged by the noise rule, :mod:`latentlab.claims.noise`); for ``how="true"``
        a boolean or one per replicate. ``noise``: a spread measured elsewhere, for fewer
        than 3 replicates; ``deterministic``: nothing random changes the value (a count on
        fixed data, an exact check). ``reject``: a value or list of values this rule must
        refuse (the document's nearest alternative, e.g. another method's number in the
        same column); written into the row's rule so ``claims prove`` shows the row can
        fail. ``unit`` names the replicates (seeds, splits, chains).
        """
        if how not in HOWS:
            raise ValueError(f"unknown comparison {how!r}; use one of {HOWS}")
        det = bool(deterministic or data_kind == "identity")
        d = decide_value(paper_value, our_value, how, tolerance, "every", noise, det)
        tol = "check" if how == "true" else f"{how} {_fmt(float(tolerance))}"
        reps = list(np.atleast_1d(np.asarray(our_value, dtype=object)).ravel())
        ours_rule = reps[0] if len(reps) == 1 else reps
        rule = {"v": RULE_VERSION, "how": how, "ours": ours_rule}
        if how != "true":
            rule.update(paper=paper_value, tol=tolerance)
            if reject is not None:
                rule["reject"] = list(np.atleast_1d(np.asarray(reject, dtype=float)))
        if noise is not None:
            rule["noise"] = noise.as_rule()
        if det:
            rule["det"] = True
        if how == "true":
            shown = ours_rule if len(reps) == 1 else f"{int(sum(map(bool, reps)))} of {len(reps)}"
        else:
            shown = d.mean if len(reps) > 1 and math.isfinite(d.mean) else ours_rule
        n_rep, spread = _spread_cells(d, noise, det)
        return self._add(
            ClaimRow(
                claim_id,
                self.document,
                where,
                statement,
                _fmt(paper_value),
                _fmt(shown),
                tol,
                dataset,
                data_kind,
                d.verdict,
                "; ".join(x for x in (note, _noise_note(noise, det, unit), d.why) if x),
                dump_rule(rule),
                n_rep=n_rep,
                spread=spread,
            )
        )

    def order(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        ours_a,
        ours_b,
        direction: str = ">",
        margin: float = 0.0,
        test: str = "every",
        paper_a=None,
        paper_b=None,
        labels: tuple[str, str] = ("A", "B"),
        dataset: str,
        data_kind: str,
        note: str = "",
        unit: str = "seeds",
        noise: noise.Noise | None = None,
        deterministic: bool = False,
    ) -> ClaimRow:
        """Declare "A ``direction`` B by more than ``margin``" with both sides as data.

        ``ours_a``/``ours_b`` are scalars or per-replicate arrays (paired by replicate),
        judged by the noise rule on the differences; ``paper_a``/``paper_b`` the document's
        own two sides where it gives them (scalars, or paired arrays when the document
        gives several pairs). The margin must be tied to the document's effect (at most
        half its gap), never to our noise; ``noise`` / ``deterministic`` as in
        :meth:`compare`.
        """
        det = bool(deterministic)
        d = decide_order(ours_a, ours_b, direction, margin, test, noise, det)
        a, b = _floats(ours_a), _floats(ours_b)
        la, lb = labels
        if paper_a is not None and paper_b is not None:
            paper = f"{la} {_fmt_side(paper_a)} {direction} {lb} {_fmt_side(paper_b)}"
        else:
            paper = f"{la} {direction} {lb}"
        diff = order_effect(a, b, direction)
        ours = f"{la} {_fmt(float(np.mean(a)))} vs {lb} {_fmt(float(np.mean(b)))}"
        if len(diff) > 1:
            ours += f" (d over {len(diff)} {unit}: min {_fmt(float(diff.min()))}"
            ours += f", max {_fmt(float(diff.max()))})"
        else:
            ours += " (one run)"
        rule = {"v": RULE_VERSION, "how": "order", "a": ours_a, "b": ours_b, "dir": direction,
                "margin": margin, "test": test}  # fmt: skip
        if paper_a is not None and paper_b is not None:
            rule.update(paper_a=paper_a, paper_b=paper_b)
        if noise is not None:
            rule["noise"] = noise.as_rule()
        if det:
            rule["det"] = True
        n_rep, spread = _spread_cells(d, noise, det)
        return self._add(
            ClaimRow(
                claim_id,
                self.document,
                where,
                statement,
                paper,
                ours,
                f"order {direction} margin {_fmt(float(margin))} ({test})",
                dataset,
                data_kind,
                d.verdict,
                "; ".join(x for x in (note, _noise_note(noise, det, unit), d.why) if x),
                dump_rule(rule),
                n_rep=n_rep,
                spread=spread,
            )
        )

    def _unjudged(self, claim_id, verdict, where, statement, paper_value, reason, dataset,
                  data_kind) -> ClaimRow:  # fmt: skip
        """A row with no value of ours: ``reason`` says why (required)."""
        if not reason:
            hint = " (which config runs it)" if verdict == "not_run" else ""
            raise ValueError(f"claim {claim_id}: {verdict} needs a reason{hint}")
        return self._add(
            ClaimRow(
                claim_id,
                self.document,
                where,
                statement,
                _fmt(paper_value),
                "",
                "",
                dataset,
                data_kind,
                verdict,
                reason,
            )
        )

    def not_testable(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        reason: str,
        dataset: str = "",
    ) -> ClaimRow:
        """A claim we cannot test here; ``reason`` is required (data private, human study...)."""
        return self._unjudged(
            claim_id, "not_testable", where, statement, paper_value, reason, dataset, "none"
        )

    def not_run(
        self,
        claim_id: str,
        *,
        where: str,
        statement: str,
        paper_value,
        reason: str,
        dataset: str = "",
        data_kind: str = "none",
    ) -> ClaimRow:
        """Public data this run leaves out; ``reason`` names the config that runs it."""
        return self._unjudged(
            claim_id, "not_run", where, statement, paper_value, reason, dataset, data_kind
        )

    def assign_causes(self, causes: Iterable) -> None:
        """Give every ``not_reproduced`` row its cause and evidence: the first of ``causes``
        (objects with ``claim``, ``dataset``, ``cause``, ``evidence``; ``claim`` and
        ``dataset`` are shell patterns, ``dataset=None`` matches any) that matches the
        row's id and dataset, else ``open``. Other rows carry none: a cause explains a miss."""
        causes = list(causes)
        for c in causes:
            if c.cause not in CAUSES:
                raise ValueError(f"cause {c.cause!r} of {c.claim} not in {CAUSES}")
            if c.cause != "open" and not c.evidence:
                raise ValueError(f"cause {c.cause!r} of {c.claim} needs its evidence")
        for r in self.rows:
            r.cause, r.evidence = cause_of(causes, r.verdict, r.claim_id, r.dataset)

    def extend(self, rows: Iterable[ClaimRow]) -> None:
        for r in rows:
            self._add(r)

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame([asdict(r) for r in self.rows], columns=COLUMNS)

    def write(self, path: str | Path) -> pd.DataFrame:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        df = self.frame()
        tmp = path.with_name(path.name + ".tmp")
        df.to_csv(tmp, index=False)
        tmp.replace(path)
        return df


def cause_of(causes: Iterable, verdict: str, claim_id: str, dataset: str) -> tuple[str, str]:
    """(cause, evidence) of one ledger row: none unless it is ``not_reproduced``, then the
    first matching cause's, else ``open``."""
    if verdict != "not_reproduced":
        return "", ""
    hit = match_cause(causes, claim_id, dataset)
    return (hit.cause, hit.evidence) if hit else ("open", "")


def match_cause(causes: Iterable, claim_id: str, dataset: str):
    """The first of ``causes`` whose ``claim`` pattern matches ``claim_id`` and whose
    ``dataset`` pattern (``None``: any) matches ``dataset``; ``None`` when none does."""
    from fnmatch import fnmatchcase

    return next((c for c in causes if fnmatchcase(claim_id, c.claim)
                 and (c.dataset is None or fnmatchcase(dataset, c.dataset))), None)  # fmt: skip


def read_claims(path: str | Path) -> pd.DataFrame:
    """Read a claims.csv and check its columns and verdicts."""
    df = pd.read_csv(path, dtype=str, keep_default_na=False)
    for c in OPTIONAL_COLUMNS:
        if c not in df.columns:
            df[c] = ""
    missing = [c for c in COLUMNS if c not in df.columns]
    if missing:
        raise ValueError(f"{path}: claims file lacks columns {missing}")
    bad = sorted(set(df["verdict"]) - set(VERDICTS))
    if bad:
        raise ValueError(f"{path}: unknown verdicts {bad}")
    bad = sorted(set(df["cause"]) - {"", *CAUSES})
    if bad:
        raise ValueError(f"{path}: unknown causes {bad} (allowed: {CAUSES})")
    for v in ("not_testable", "not_run"):
        nt = df[(df["verdict"] == v) & (df["note"].str.strip() == "")]
        if len(nt):
            raise ValueError(f"{path}: {v} claims without a reason: {list(nt['claim_id'])}")
    return df[COLUMNS]
