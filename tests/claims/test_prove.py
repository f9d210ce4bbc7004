"""Decisions as data: the rule in each row, and the both-ways proof of every row."""

from pathlib import Path

import numpy as np
import pytest

from latentlab.claims import prove as pv
from latentlab.claims.ledger import Ledger, judge_order, judge_rule, load_rule, read_claims
from latentlab.cli import main

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "a, b, d, m, test, verdict",
    [
        ([3, 4, 5], [1, 1, 1], ">", 1.0, "every", "reproduced"),
        ([3, 4, 1.5], [1, 1, 1], ">", 1.0, "every", "not_reproduced"),  # one seed short
        ([1, 1], [3, 3], "<", 1.0, "every", "reproduced"),
        (2.0, 2.0, ">", 0.0, "every", "not_reproduced"),  # a tie is not an order
        ([3.0, 3.1, 2.9, 3.05], [1, 1, 1, 1], ">", 0.5, "t0.05", "reproduced"),
        ([3.0, -2.0, 4.0], [1, 1, 1], ">", 0.0, "t0.05", "not_reproduced"),
        ([3.0], [1.0], ">", 0.0, "t0.05", "not_reproduced"),  # a t-test needs 2 seeds
        ([np.nan, 3.0], [1, 1], ">", 0.0, "every", "not_reproduced"),
    ],
)
def test_judge_order(a, b, d, m, test, verdict):
    assert judge_order(a, b, d, m, test)[0] == verdict


def test_judge_order_rejects_bad_rules():
    with pytest.raises(ValueError, match="direction"):
        judge_order(1, 0, ">=", 0)
    with pytest.raises(ValueError, match="margin"):
        judge_order(1, 0, ">", -1)
    with pytest.raises(ValueError, match="seeds"):
        judge_order([1, 2], [0, 0, 0], ">", 0)


def _ledger():
    led = Ledger("demo", document="Doc 001")
    kw = dict(where="T1", statement="s", dataset="d", data_kind="real")
    # the document: 71.9 > 70.5 (gap 1.4); margin half of it; ours in every seed
    led.order("O1", ours_a=[72.1, 72.4], ours_b=[70.9, 71.0], margin=0.7, paper_a=71.9,
              paper_b=70.5, labels=("L", "J"), **kw)  # fmt: skip
    # a margin wider than the document's own gap: cannot pass on the document's numbers
    led.order("O2", ours_a=[80.0], ours_b=[70.0], margin=2.0, paper_a=71.9, paper_b=70.5, **kw)
    # a value row with the column's spread as the alternatives the rule must refuse
    led.compare("V1", paper_value=71.9, our_value=71.6, how="abs", tolerance=0.5, reject=[70.5],
                **kw)  # fmt: skip
    # a tolerance wider than the spread: any method's number passes
    led.compare("V2", paper_value=71.9, our_value=71.6, how="abs", tolerance=2.0, reject=[70.5],
                **kw)  # fmt: skip
    led.compare("V3", paper_value=71.9, our_value=71.6, how="abs", tolerance=0.5, **kw)
    led.compare("D1", paper_value=0, our_value=0.3, how="ge", tolerance=0.0, **kw)
    led.compare("B1", paper_value="A > B", our_value=True, how="true", **kw)
    led.compare("B2", paper_value="A > B", our_value=True, how="true", **kw)
    led.compare("I1", paper_value=0, our_value=1e-12, how="abs", tolerance=1e-9,
                dataset="d", data_kind="identity", where="", statement="")  # fmt: skip
    led.not_run("N1", where="", statement="", paper_value=1, reason="config real runs it")
    return led


def test_rule_column_carries_the_decision(tmp_path):
    led = _ledger()
    led.write(tmp_path / "demo" / "claims.csv")
    df = read_claims(tmp_path / "demo" / "claims.csv").set_index("claim_id")
    o1 = load_rule(df.loc["O1", "rule"])
    assert o1["a"] == [72.1, 72.4] and o1["paper_b"] == 70.5 and o1["margin"] == 0.7
    assert df.loc["O1", "paper_value"] == "L 71.9 > J 70.5"
    assert "min 1.2, max 1.4" in df.loc["O1", "our_value"]
    for cid in ("O1", "O2", "V1", "D1", "B1"):  # the rule re-gives the row's verdict
        assert judge_rule(load_rule(df.loc[cid, "rule"]))[0] == df.loc[cid, "verdict"]
    assert df.loc["N1", "rule"] == ""


def test_prove_both_ways(tmp_path):
    _ledger().write(tmp_path / "demo" / "claims.csv")
    key = ("demo", "B2")
    pv.COUNTER_EXAMPLES.pop(key, None)

    @pv.counter_example("demo", "B2")
    def _(row):
        # the check "A > B" on the sides swapped, and on the document's numbers
        return {"fails": judge_order(1, 2, ">", 0)[0], "passes": judge_order(2, 1, ">", 0)[0]}

    try:
        proofs = {p.claim_id: p for p in pv.prove_ledger(tmp_path / "demo" / "claims.csv")}
    finally:
        pv.COUNTER_EXAMPLES.pop(key, None)
    o1 = proofs["O1"]
    assert o1.proven and (o1.can_fail, o1.can_pass) == ("swapped", "paper")
    assert proofs["O2"].broken and "margin wider" in proofs["O2"].problems[0]
    assert proofs["V1"].proven and proofs["V1"].can_fail == "reject"
    assert proofs["V2"].broken and "70.5" in proofs["V2"].problems[0]
    assert not proofs["V3"].proven and not proofs["V3"].broken  # missing a counter-example
    assert proofs["D1"].proven and proofs["D1"].can_fail == "negated"
    assert proofs["B1"].path == "bool" and not proofs["B1"].proven
    assert proofs["B2"].proven and proofs["B2"].can_fail == "counter"
    assert proofs["I1"].kind == "identity" and proofs["N1"].kind == "unjudged"
    s = pv.summary(list(proofs.values())).iloc[0]
    assert (s.judged, s.proven, s.broken, s.missing, s.identity, s.unjudged) == (8, 4, 2, 2, 1, 1)
    assert (s.path_order, s.path_value, s.path_bool) == (2, 4, 2)


def test_order_with_paired_document_sides(tmp_path):
    """A document giving several pairs (867 -> 1116 -> 1247: each step up) carries them all;
    the proof passes on every pair."""
    led = Ledger("demo", document="Doc 001")
    led.order("O4", where="", statement="", ours_a=[138.0, 170.0], ours_b=[106.0, 138.0],
              paper_a=[1116, 1247], paper_b=[867, 1116], labels=("K", "K before"),
              dataset="d", data_kind="real")  # fmt: skip
    led.write(tmp_path / "demo" / "claims.csv")
    df = read_claims(tmp_path / "demo" / "claims.csv").set_index("claim_id")
    assert df.loc["O4", "paper_value"] == "K 1116/1247 > K before 867/1116"
    (p,) = pv.prove_ledger(tmp_path / "demo" / "claims.csv")
    assert p.proven and (p.can_fail, p.can_pass) == ("swapped", "paper")


def test_legacy_rows_read_from_the_tolerance_column():
    row = {"claim_id": "C", "verdict": "reproduced", "data_kind": "real", "rule": "",
           "paper_value": "0", "our_value": "0.04", "tolerance": "ge 0"}  # fmt: skip
    p = pv.prove_row("x", row)
    assert (p.path, p.can_fail, p.can_pass) == ("legacy", "negated", "own")
    row.update(paper_value="0.2", our_value="0.21", tolerance="abs 0.03")
    p = pv.prove_row("x", row)
    assert p.path == "legacy" and not p.proven and not p.broken
    row.update(tolerance="abs 0.01", verdict="reproduced", our_value="0.5")
    assert "the rule gives not_reproduced" in pv.prove_row("x", row).problems[0]


def test_cli_prove_exits_nonzero_on_unproven(tmp_path, capsys):
    _ledger().write(tmp_path / "demo" / "claims.csv")
    assert main(["claims", "prove", str(tmp_path), "--list"]) == 1
    out = capsys.readouterr().out
    assert "BROKEN demo O2" in out and "missing demo V3" in out
    led = Ledger("ok", document="D")
    led.order("O1", where="", statement="", ours_a=2.0, ours_b=1.0, margin=0.1, paper_a=3.0,
              paper_b=1.0, dataset="d", data_kind="real")  # fmt: skip
    led.write(tmp_path / "ok2" / "ok" / "claims.csv")
    assert main(["claims", "prove", str(tmp_path / "ok2")]) == 0


@pytest.mark.parametrize("run", ["published/real", "tests/golden/smoke"])
def test_committed_ledgers_are_proven_both_ways(run):
    """Every judged row of the committed ledgers can fail and can pass (issue 21): none is
    broken (its rule shown unable to fail or to pass) and none is missing a proof (no rule,
    or a bare boolean without a counter-example)."""
    proofs = pv.prove_dir(REPO / run)
    s = pv.summary(proofs)
    print(f"\n{run}\n{s.set_index('study').T.to_string()}")
    for p in proofs:
        if not p.proven:
            print(f"{'BROKEN' if p.broken else 'missing'} {p.study} {p.claim_id} "
                  f"[{p.dataset}] ({p.path}): {'; '.join(p.problems)}")  # fmt: skip
    broken = [(p.study, p.claim_id, p.dataset, p.problems) for p in proofs if p.broken]
    assert not broken, broken
    missing = [(p.study, p.claim_id, p.dataset, p.problems) for p in proofs if not p.proven]
    assert not missing, missing
