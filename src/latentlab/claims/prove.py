"""Every verdict could have gone the other way: re-apply each row's rule from ``claims.csv``.

For every judged row (``reproduced``, ``not_reproduced``, ``inconclusive``) of a ledger, the
row's rule (the ``rule`` column: its replicates, margin or tolerance, and the noise rule of
:mod:`latentlab.claims.noise`) is applied again and moved:

1. **the rule gives the row's verdict** (else the row is *broken*), and its structural facts
   hold: the document's own numbers pass it, the document's alternatives (``reject``) fail
   it. These are checks, not proofs: they cannot show that the verdict could realistically
   have been the other one;
2. **the counter-example**: the smallest shift of the row's replicates (all by the same
   amount, their spread kept) that turns the verdict into the other one (``reproduced`` <->
   ``not_reproduced``; an ``inconclusive`` row: into either). When the shift is at most
   ``K_REALISTIC`` x the row's spread, the counter-example lies within the measured noise
   and the row is proven by a **realistic** counter-example; when it is larger, the row is
   **robust beyond noise** and its effect-to-noise ratio (shift / spread) is reported; a
   deterministic row (no spread) is robust with its shift. A row with a non-finite
   replicate (a fit that diverged, a curve with no value at the time compared) is
   ``not_reproduced`` by the rule whatever the shift, and is counted apart as
   **non-finite**: it passes only with finite values.

Flagged (``claims prove`` exits 1): a *broken* rule (it does not give the row's verdict,
fails the document's own numbers, accepts a rejected alternative, or no shift flips it), a
*refused* tolerance (narrower than the replicates' spread), a *legacy* row (its rule
predates replicates: :data:`~latentlab.claims.ledger.RULE_VERSION` 1) and a row *missing*
a rule. Bare booleans (``how="true"``) without replicate values need a hand-written
counter-example, registered next to their claim function::

    @counter_example("drift", "C2.3")
    def _(row):  # row: the claims.csv row as a dict
        return {"fails": verdict_of_the_check_on_a_counter_input,
                "passes": verdict_on_the_documents_numbers}

Identity rows (exact facts of our code) and unjudged rows (not_run, not_testable) are
counted apart.
"""

from __future__ import annotations

import copy
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from latentlab.claims import noise
from latentlab.claims.ledger import (
    JUDGED,
    RULE_VERSION,
    _decide_rule,
    judge,
    judge_order,
    judge_rule,
    load_rule,
    order_effect,
    order_region,
    read_claims,
    refused,
    value_region,
)

COUNTER_EXAMPLES: dict[tuple[str, str], Callable[[dict], dict]] = {}
K_REALISTIC = noise.K_REALISTIC
CATEGORIES = ("realistic", "robust", "inconclusive", "counter", "nonfinite")
FLAGS = ("broken", "refused", "legacy", "missing")


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
    row's point rule on its own B side against an A moved the document's way by the margin
    plus ``effect`` x max|B|. A constructed input, kept for the point rules of older
    ledgers; it proves nothing about noise and is not counted as a proof."""
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
    """How one row is shown able to have gone the other way."""

    study: str
    claim_id: str
    dataset: str
    kind: str  # judged | identity | unjudged
    verdict: str = ""
    path: str = ""  # order | value | bool | legacy | none
    category: str = ""  # one of CATEGORIES ("" when flagged)
    flag: str = ""  # broken | refused | legacy | missing ("" when proven)
    n_rep: int = 0
    spread: float = math.nan
    shift: float = math.nan  # the smallest shift of the replicates that flips the verdict
    ratio: float = math.nan  # shift / spread: the effect-to-noise ratio
    needed: float = math.nan  # an inconclusive row: replicates that would decide it
    problems: list[str] = field(default_factory=list)

    @property
    def proven(self) -> bool:
        return self.kind != "judged" or (bool(self.category) and not self.flag)


def _num(x) -> float:
    try:
        return float(x)
    except (TypeError, ValueError):
        return math.nan


def _values_region(rule: dict) -> tuple[np.ndarray, noise.Region]:
    """The replicate values a rule judges and the region it accepts."""
    if rule["how"] == "order":
        d = order_effect(rule["a"], rule["b"], rule["dir"])
        return d, order_region(float(rule.get("margin", 0.0)))
    v = np.atleast_1d(np.asarray(rule["ours"], dtype=float)).ravel()
    return v, value_region(rule["paper"], rule["how"], rule.get("tol", 0.0))


def _shifted(rule: dict, s: float) -> dict:
    """The rule with its replicates moved by ``s`` (an order: its differences A - B in the
    claim's direction)."""
    r = copy.deepcopy(rule)
    if r["how"] == "order":
        a = np.atleast_1d(np.asarray(r["a"], dtype=float))
        r["a"] = list(a + s if r["dir"] == ">" else a - s)
    else:
        r["ours"] = list(np.atleast_1d(np.asarray(r["ours"], dtype=float)) + s)
    return r


def flip_shift(rule: dict, targets: tuple[str, ...]) -> float:
    """The smallest |s| such that the replicates moved by ``s`` get one of ``targets``
    (inf when none does). The verdict changes only where the band or an extreme replicate
    crosses an end of the region: those shifts are tried, just beyond each."""
    v, region = _values_region(rule)
    d = _decide_rule(rule)
    xs = [float(v.min()), float(v.max()), d.mean]
    if math.isfinite(d.band):
        xs += [d.mean - d.band, d.mean + d.band]
    ends = [e for e in (region.lo, region.hi) if math.isfinite(e)]
    scale = max([abs(x) for x in xs + ends] + [1.0])
    eps = 1e-9 * scale
    cands = sorted({e - x + sgn * eps for e in ends for x in xs for sgn in (-1, 1)}, key=abs)
    for s in cands:
        if _decide_rule(_shifted(rule, s)).verdict in targets:
            return abs(s)
    return math.inf


def _structural(rule: dict, p: Proof) -> None:
    """Checks of the rule against the document's own numbers (not proofs)."""
    how = rule["how"]
    if how == "order":
        if "paper_a" in rule and "paper_b" in rule:
            v = judge_order(rule["paper_a"], rule["paper_b"], rule["dir"], rule.get("margin", 0.0))
            if v[0] != "reproduced":
                p.flag = "broken"
                p.problems.append(
                    "the document's own sides fail the rule (margin wider than its gap)"
                )
        return
    if how == "true":
        return
    paper, tol = rule["paper"], rule.get("tol", 0.0)
    if how in ("ge", "le") and _num(paper) == 0.0 and not rule.get("reject"):
        return  # a difference judged against 0: the paper value is the threshold
    if judge(paper, paper, how, tol)[0] != "reproduced":
        p.flag = "broken"
        p.problems.append("the document's own value fails the rule")
    passing = [r for r in rule.get("reject") or [] if judge(paper, r, how, tol)[0] == "reproduced"]
    if passing:
        p.flag = "broken"
        p.problems.append(f"the rule accepts the document's alternative(s) {passing}")


def prove_row(study: str, row: dict) -> Proof:
    """The proof of one ledger row (see the module docstring)."""
    p = Proof(study, row["claim_id"], row.get("dataset", ""), "judged", row["verdict"])
    if p.verdict not in JUDGED:
        p.kind = "unjudged"
        return p
    if row.get("data_kind") == "identity":
        p.kind = "identity"
        return p
    rule = load_rule(row.get("rule", ""))
    counter = COUNTER_EXAMPLES.get((study, p.claim_id))
    if rule is None:
        p.path, p.flag = "none", "missing"
        p.problems.append("the row carries no rule")
        return p
    p.path = {"order": "order", "true": "bool"}.get(rule.get("how"), "value")
    if judge_rule(rule)[0] != p.verdict:
        p.flag = "broken"
        p.problems.append(f"the rule gives {judge_rule(rule)[0]}, the row says {p.verdict}")
        return p
    if rule.get("v", 1) < RULE_VERSION:
        p.path, p.flag = "legacy", "legacy"
        p.problems.append("its rule predates replicates and spreads (re-judge the row)")
        return p
    _structural(rule, p)
    if refused(rule):
        p.flag = p.flag or "refused"
        p.problems.append("its tolerance is narrower than its replicates' spread")
    d = _decide_rule(rule)
    p.n_rep, p.spread = d.n, d.sd
    if p.path == "bool":
        if counter is None:
            p.flag = p.flag or "missing"
            p.problems.append("a bare boolean: no spread to move, no counter-example")
            return p
        out = counter(dict(row))
        bad = [k for k, want in (("fails", "not_reproduced"), ("passes", "reproduced"))
               if k in out and out[k] != want]  # fmt: skip
        if bad or not out:
            p.flag = p.flag or "broken"
            p.problems.append(f"the counter-example gives {out}")
        p.category = "counter"
        return p
    if p.verdict == "not_reproduced" and not np.isfinite(_values_region(rule)[0]).all():
        p.category = "nonfinite"
        return p
    if p.verdict == "inconclusive":
        p.category = "inconclusive"
        p.needed = d.needed
        p.shift = flip_shift(rule, ("reproduced", "not_reproduced"))
    else:
        other = "not_reproduced" if p.verdict == "reproduced" else "reproduced"
        p.shift = flip_shift(rule, (other,))
        if math.isinf(p.shift):
            p.flag = p.flag or "broken"
            p.problems.append(f"no shift of the replicates makes the row {other}")
            return p
        p.ratio = p.shift / p.spread if p.spread > 0 else math.inf
        p.category = "realistic" if p.ratio <= K_REALISTIC else "robust"
    return p


def prove_ledger(path: str | Path, study: str | None = None) -> list[Proof]:
    """Proofs of every row of one ``claims.csv`` (the study is its folder's name)."""
    study = study or Path(path).parent.name
    load_counter_examples(study)
    df = read_claims(path)
    return [prove_row(study, r) for r in df.to_dict("records")]


def summary(proofs: list[Proof]) -> pd.DataFrame:
    """Counts per study: rows by kind; judged rows by how they are proven (a realistic
    counter-example, robust beyond noise, inconclusive, a hand-written counter-example)
    and by flag; the median effect-to-noise ratio of the robust ones."""
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
        }
        for c in CATEGORIES:
            r[c] = sum(p.category == c and not p.flag for p in judged)
        for f in FLAGS:
            r[f] = sum(p.flag == f for p in judged)
        ratios = [p.ratio for p in judged if p.category == "robust" and math.isfinite(p.ratio)]
        r["robust_median_ratio"] = float(np.median(ratios)) if ratios else math.nan
        for v in JUDGED:
            r[f"verdict_{v}"] = sum(p.verdict == v for p in judged)
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


def describe(p: Proof) -> str:
    """One line on how a row is proven (``claims prove --list``)."""
    head = f"{p.study} {p.claim_id} [{p.dataset}] {p.verdict} ({p.path})"
    if p.flag:
        return f"{p.flag.upper()} {head}: {'; '.join(p.problems)}"
    if p.category == "inconclusive":
        need = "never" if math.isinf(p.needed) else f"~{p.needed:.0f} replicates"
        return f"inconclusive {head}: n = {p.n_rep}, decided at {need}; flips at {p.shift:.4g}"
    if p.category == "counter":
        return f"counter {head}: a hand-written counter-example"
    if p.category == "nonfinite":
        return f"non-finite {head}: a replicate is not finite (not_reproduced by the rule)"
    ratio = "deterministic" if math.isinf(p.ratio) else f"{p.ratio:.2f} x the spread"
    return f"{p.category} {head}: flips at a shift of {p.shift:.4g} ({ratio}, n = {p.n_rep})"
