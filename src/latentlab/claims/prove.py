"""Every verdict can fail and can pass: re-apply each row's rule from ``claims.csv``.

For every judged row (``reproduced`` / ``not_reproduced``) of a ledger:

1. *can fail*: the rule on the sides swapped (an order), on the document's alternative
   values (a value row's ``reject``), or on the effect negated (a difference judged against
   0) gives ``not_reproduced``; a row that is ``not_reproduced`` has failed already (``own``);
2. *can pass*: the rule on the document's own numbers (a value row's paper value, an
   order's ``paper_a``/``paper_b``) gives ``reproduced``; a row without them passes on its
   own verdict (``own``) or on the sides swapped (``swapped``).

Rows whose decision cannot be written this way (bare booleans, ``how="true"``) need a
hand-written counter-example, registered next to their claim function::

    @counter_example("drift", "C2.3")
    def _(row):  # row: the claims.csv row as a dict
        return {"fails": verdict_of_the_check_on_a_counter_input,
                "passes": verdict_on_the_documents_numbers}

Identity rows (exact facts of our code) and unjudged rows (not_run, not_testable) are
counted apart. A row is *broken* when its rule is carried but shown unable to fail or to
pass (the swap or a rejected value passes, the document's numbers fail, the rule does not
give the row's verdict); it is *missing* a proof when the row carries no rule or no
counter-example for one direction.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.claims.ledger import judge, judge_order, judge_rule, load_rule, read_claims

COUNTER_EXAMPLES: dict[tuple[str, str], Callable[[dict], dict]] = {}


def counter_example(study: str, claim_id: str):
    """Register a hand-written counter-example for the rows of ``(study, claim_id)``.

    The function takes the row (a dict of claims.csv columns) and returns ``{"fails":
    verdict, "passes": verdict}`` (either key may be left out): the verdicts of the claim's
    own decision code on a counter input and on the document's numbers.
    """

    def deco(fn):
        key = (study, claim_id)
        if key in COUNTER_EXAMPLES:
            raise ValueError(f"counter-example for {study} {claim_id} registered twice")
        COUNTER_EXAMPLES[key] = fn
        return fn

    return deco


def direction_passes(row: dict, effect: float = 0.1) -> dict:
    """A "can pass" for an order row whose document gives a direction but no values: the
    row's rule on its own B side against an A moved the document's way by the margin plus
    ``effect`` x max|B| must give ``reproduced``. A constructed input, not the document's
    numbers (weaker than ``paper``); register it per claim with :func:`counter_example`."""
    rule = load_rule(row.get("rule", ""))
    if not rule or rule.get("how") != "order" or "paper_a" in rule:
        return {}
    b = np.atleast_1d(np.asarray(rule["b"], dtype=float))
    margin = float(rule.get("margin", 0.0))
    shift = margin + effect * float(np.max(np.abs(b)))
    a = b + shift if rule["dir"] == ">" else b - shift
    return {"passes": judge_order(a, b, rule["dir"], margin, rule.get("test", "every"))[0]}


def load_counter_examples(study: str) -> None:
    """Import the study's claims module so its counter-examples register (if it exists)."""
    try:
        importlib.import_module(f"latentlab.studies.{study}.claims")
    except ModuleNotFoundError:
        pass


@dataclass
class Proof:
    """How one row is shown able to fail and able to pass."""

    study: str
    claim_id: str
    dataset: str
    kind: str  # judged | identity | unjudged
    path: str = ""  # order | value | legacy (read from the tolerance column) | bool | none
    can_fail: str = ""  # swapped | reject | negated | counter | own
    can_pass: str = ""  # paper | swapped | negated | counter | own
    problems: list[str] = field(default_factory=list)
    broken: bool = False  # the rule is carried and shown unable to fail or to pass

    @property
    def proven(self) -> bool:
        return self.kind != "judged" or bool(self.can_fail and self.can_pass and not self.broken)


def _num(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _prove_order(rule: dict, p: Proof) -> None:
    swapped = {**rule, "a": rule["b"], "b": rule["a"]}
    if judge_rule(swapped)[0] == "not_reproduced":
        p.can_fail = p.can_fail or "swapped"
    elif p.can_fail != "own":
        p.broken = True
        p.problems.append("the rule passes the sides swapped")
    if "paper_a" in rule and "paper_b" in rule:
        v = judge_order(rule["paper_a"], rule["paper_b"], rule["dir"], rule.get("margin", 0.0))
        if v[0] == "reproduced":
            p.can_pass = "paper"
        else:
            p.broken = True
            p.problems.append("the document's own sides fail the rule (margin wider than its gap)")
    elif not p.can_pass and judge_rule(swapped)[0] == "reproduced":
        p.can_pass = "swapped"


def _prove_value(rule: dict, p: Proof) -> None:
    how, paper, tol = rule["how"], rule["paper"], rule.get("tol", 0.0)
    if how in ("ge", "le") and _num(paper) == 0.0 and not rule.get("reject"):
        # a difference judged against 0 (the paper value is the threshold, not the
        # document's number): the effect negated must give the other verdict
        neg = judge(paper, -_num(rule.get("ours")), how, tol)[0]
        if p.can_pass == "own" and neg == "not_reproduced":
            p.can_fail = "negated"
        elif p.can_pass == "own":
            p.broken = True
            p.problems.append("the rule passes the effect negated")
        elif neg == "reproduced":
            p.can_pass = "negated"
        return
    if judge(paper, paper, how, tol)[0] == "reproduced":
        p.can_pass = p.can_pass or "paper"
    else:
        p.broken = True
        p.problems.append("the document's own value fails the rule")
    rejects = rule.get("reject")
    if rejects:
        passing = [r for r in rejects if judge(paper, r, how, tol)[0] == "reproduced"]
        if passing:
            p.broken = True
            p.problems.append(f"the rule accepts the document's alternative(s) {passing}")
        else:
            p.can_fail = p.can_fail or "reject"


def legacy_rule(row: dict) -> dict | None:
    """The rule of a row written before the ``rule`` column, read from its tolerance column
    (``abs 0.03``, ``check``) and its printed values (6 significant digits)."""
    tol = str(row.get("tolerance", "")).split()
    if tol == ["check"]:
        ours = str(row.get("our_value", "")).strip().lower()
        return {"how": "true", "ours": {"true": True, "false": False}.get(ours, ours)}
    if len(tol) == 2 and tol[0] in ("abs", "rel", "ge", "le"):
        paper, ours, t = _num(row.get("paper_value")), _num(row.get("our_value")), _num(tol[1])
        if math.isfinite(paper) and math.isfinite(t):
            return {"how": tol[0], "paper": paper, "ours": ours, "tol": t}
    return None


def prove_row(study: str, row: dict) -> Proof:
    """Show one ledger row able to fail and able to pass (see the module docstring)."""
    p = Proof(study, row["claim_id"], row.get("dataset", ""), "judged")
    verdict = row["verdict"]
    if verdict not in ("reproduced", "not_reproduced"):
        p.kind = "unjudged"
        return p
    if row.get("data_kind") == "identity":
        p.kind = "identity"
        return p
    if verdict == "not_reproduced":
        p.can_fail = "own"
    else:
        p.can_pass = "own"
    rule = load_rule(row.get("rule", ""))
    legacy = rule is None
    if legacy:
        rule = legacy_rule(row)
    if rule is None:
        p.path = "none"
    else:
        p.path = {"order": "order", "true": "bool"}.get(rule.get("how"), "value")
        p.path = "legacy" if legacy and p.path == "value" else p.path
        if judge_rule(rule)[0] != verdict:
            p.broken = True
            p.problems.append(f"the rule gives {judge_rule(rule)[0]}, the row says {verdict}")
        elif p.path == "order":
            _prove_order(rule, p)
        elif p.path in ("value", "legacy"):
            _prove_value(rule, p)
    counter = COUNTER_EXAMPLES.get((study, p.claim_id))
    if counter is not None:
        out = counter(dict(row))
        if out.get("fails") == "not_reproduced":
            p.can_fail = p.can_fail or "counter"
        elif "fails" in out:
            p.broken = True
            p.problems.append(f"the counter-example gives {out['fails']}")
        if out.get("passes") == "reproduced":
            p.can_pass = p.can_pass or "counter"
        elif "passes" in out:
            p.broken = True
            p.problems.append(f"the document's numbers give {out['passes']}")
    if not p.can_fail and not p.broken:
        p.problems.append("no counter-example: nothing shows the row can fail")
    if not p.can_pass and not p.broken:
        p.problems.append("nothing shows the row can pass")
    return p


def prove_ledger(path: str | Path, study: str | None = None) -> list[Proof]:
    """Proofs of every row of one ``claims.csv`` (the study is its folder's name)."""
    study = study or Path(path).parent.name
    load_counter_examples(study)
    df = read_claims(path)
    return [prove_row(study, r) for r in df.to_dict("records")]


def summary(proofs: list[Proof]) -> pd.DataFrame:
    """Counts per study: rows by kind, judged rows proven / broken / missing a proof, and
    how each direction was shown."""
    rows = []
    for study in sorted({p.study for p in proofs}):
        ps = [p for p in proofs if p.study == study]
        judged = [p for p in ps if p.kind == "judged"]
        r = {
            "study": study,
            "rows": len(ps),
            "identity": sum(p.kind == "identity" for p in ps),
            "unjudged": sum(p.kind == "unjudged" for p in ps),
            "judged": len(judged),
            "proven": sum(p.proven for p in judged),
            "broken": sum(p.broken for p in judged),
            "missing": sum(not p.proven and not p.broken for p in judged),
        }
        for path in ("order", "value", "legacy", "bool", "none"):
            r[f"path_{path}"] = sum(p.path == path for p in judged)
        for how in ("swapped", "reject", "negated", "counter", "own"):
            r[f"fail_{how}"] = sum(p.can_fail == how for p in judged)
        for how in ("paper", "swapped", "negated", "counter", "own"):
            r[f"pass_{how}"] = sum(p.can_pass == how for p in judged)
        rows.append(r)
    return pd.DataFrame(rows)


def prove_dir(root: str | Path) -> list[Proof]:
    """Proofs of every ``claims.csv`` under ``root``."""
    paths = sorted(Path(root).rglob("claims.csv"))
    if not paths:
        raise FileNotFoundError(f"{root}: no claims.csv under it")
    out = []
    for p in paths:
        out += prove_ledger(p)
    return out
