import math

import pandas as pd
import pytest

from latentlab.claims import COLUMNS, Ledger, judge, read_claims
from latentlab.claims.report import build_report


@pytest.mark.parametrize(
    "paper, ours, how, tol, verdict",
    [
        (1.0, 1.04, "abs", 0.05, "reproduced"),
        (1.0, 1.06, "abs", 0.05, "not_reproduced"),
        (100.0, 109.0, "rel", 0.1, "reproduced"),
        (100.0, 111.0, "rel", 0.1, "not_reproduced"),
        (5.0, 5.5, "ge", 0.0, "reproduced"),
        (5.0, 4.9, "ge", 0.0, "not_reproduced"),
        (5.0, 4.9, "ge", 0.2, "reproduced"),
        (0.1, 0.05, "le", 0.0, "reproduced"),
        (0.1, 0.2, "le", 0.0, "not_reproduced"),
        ("A < B", True, "true", 0, "reproduced"),
        ("A < B", False, "true", 0, "not_reproduced"),
    ],
)
def test_judge(paper, ours, how, tol, verdict):
    assert judge(paper, ours, how, tol)[0] == verdict


@pytest.mark.parametrize("bad", [math.nan, math.inf, "n/a", None])
def test_non_finite_or_missing_is_not_reproduced(bad):
    verdict, why = judge(1.0, bad, "abs", 10.0)
    assert verdict == "not_reproduced"
    assert why


def test_unknown_comparison_rejected():
    with pytest.raises(ValueError, match="unknown comparison"):
        judge(1, 1, "approx")


def test_ledger_roundtrip_and_checks(tmp_path):
    led = Ledger("demo", document="Doc 001")
    led.compare(
        "C1",
        where="Fig 1",
        statement="x ~ 1",
        paper_value=1.0,
        our_value=[1.01, 1.0, 1.02],
        how="abs",
        tolerance=0.05,
        dataset="synth",
        data_kind="synthetic",
    )
    led.compare(
        "C2",
        where="Sec 2",
        statement="A beats B",
        paper_value="A > B",
        our_value=[False, False, False],
        how="true",
        dataset="kos",
        data_kind="real",
        note="A=3, B=4",
    )
    led.not_testable(
        "C3", where="Table 4", statement="humans prefer A", paper_value="62%", reason="human study"
    )
    with pytest.raises(ValueError, match="declared twice"):
        led.compare(
            "C1",
            where="",
            statement="",
            paper_value=1,
            our_value=1,
            how="abs",
            dataset="synth",
            data_kind="synthetic",
        )
    with pytest.raises(ValueError, match="needs a reason"):
        led.not_testable("C4", where="", statement="", paper_value="", reason="")
    with pytest.raises(ValueError, match="data_kind"):
        led.compare(
            "C5",
            where="",
            statement="",
            paper_value=1,
            our_value=1,
            how="abs",
            dataset="x",
            data_kind="made-up",
        )
    path = tmp_path / "demo" / "claims.csv"
    led.write(path)
    df = read_claims(path)
    assert list(df.columns) == COLUMNS
    assert list(df["verdict"]) == ["reproduced", "not_reproduced", "not_testable"]
    assert df.loc[1, "note"] == "A=3, B=4"
    assert df.loc[0, "tolerance"] == "abs 0.05"
    assert (df.loc[0, "our_value"], df.loc[0, "n_rep"], df.loc[0, "spread"]) == (
        "1.01",
        "3",
        "0.01",
    )
    assert (df.loc[1, "our_value"], df.loc[1, "n_rep"]) == ("0 of 3", "3")
    assert df.loc[2, "n_rep"] == df.loc[2, "spread"] == ""


def test_read_claims_rejects_bad_files(tmp_path):
    p = tmp_path / "claims.csv"
    pd.DataFrame({"claim_id": ["C1"]}).to_csv(p, index=False)
    with pytest.raises(ValueError, match="lacks columns"):
        read_claims(p)
    row = dict.fromkeys(COLUMNS, "x")
    row["verdict"], row["cause"] = "maybe", ""
    pd.DataFrame([row]).to_csv(p, index=False)
    with pytest.raises(ValueError, match="unknown verdicts"):
        read_claims(p)
    row["verdict"], row["note"] = "not_testable", ""
    pd.DataFrame([row]).to_csv(p, index=False)
    with pytest.raises(ValueError, match="without a reason"):
        read_claims(p)


def test_report_gathers_claims_and_figures(tmp_path):
    led = Ledger("demo", document="Doc 001")
    led.compare(
        "C1",
        where="Fig 1",
        statement="x | y",
        paper_value=1.0,
        our_value=2.0,
        how="abs",
        tolerance=0.5,
        dataset="synth",
        data_kind="synthetic",
        deterministic=True,
    )
    out = tmp_path / "results" / "smoke"
    led.write(out / "demo" / "claims.csv")
    for name in ("fig4_10.png", "fig4_2.png"):
        (out / "demo" / name).write_bytes(b"png")
    (out / "demo" / "table1.md").write_text("| a |\n|---|\n| 1 |\n")
    (out / "data" / "synth").mkdir(parents=True)
    (out / "data" / "synth" / "summary.json").write_text('{"n_docs": 3, "kind": "bow"}')
    text = build_report(
        "smoke",
        out / "REPORT.md",
        [out / "demo" / "claims.csv"],
        [out / "demo" / "fig4_10.png", out / "demo" / "fig4_2.png"],
        [out / "data" / "synth" / "summary.json"],
    )
    assert "## Study `demo`" in text
    assert "Document: Doc 001." in text
    assert "0 reproduced, 1 not_reproduced, 0 inconclusive, 0 not_testable" in text
    assert "x \\| y" in text  # pipes escaped inside Markdown tables
    assert "![fig4_2](demo/fig4_2.png)" in text and "demo/fig4_2.csv" in text
    assert text.index("### fig4_2") < text.index("### fig4_10")  # natural order
    assert "### table1\n\n| a |" in text
    assert "| synth | 3 | bow |" in text
    assert (out / "REPORT.md").read_text() == text


def test_report_shows_every_table_in_document_order_but_the_benchmark(tmp_path):
    """iwtm's sec5_6_1 and tir's fig3_3_signtest are tables not named table* (issue 40:
    REPORT.md left them out); bench.md (timings) stays out."""
    from latentlab.claims.report import study_tables

    d = tmp_path / "tir"
    for stem in ("table3_4", "fig3_3_signtest", "table3_1", "sec5_6_1", "bench", "table3_2"):
        (d / f"{stem}.md").parent.mkdir(parents=True, exist_ok=True)
        (d / f"{stem}.md").write_text(f"| {stem} |\n|---|\n")
    (d / "fig3_4.md").write_text("not a table: a figure's")
    (d / "fig3_4.png").write_bytes(b"png")
    got = [t.stem for t in study_tables(d)]
    assert got == ["table3_1", "table3_2", "fig3_3_signtest", "table3_4", "sec5_6_1"]


def test_report_shows_what_each_reading_gives(tmp_path):
    """Issue 37: REPORT.md says per readings sweep which rows change verdict with the
    reading (as published and under each other option) and which miss under every one."""
    import pandas as pd

    from latentlab.claims.report import _readings_lines

    base = tmp_path / "real"
    (base / "hdp" / "readings").mkdir(parents=True)
    rows = [
        ("as_written", True, "C5", "kos", "not_reproduced", "0"),
        ("after5", False, "C5", "kos", "reproduced", "1"),
        ("as_written", True, "C13", "kos", "not_reproduced", "1"),
        ("after5", False, "C13", "kos", "not_reproduced", "1"),
        ("as_written", True, "C7", "kos", "inconclusive", "0.3"),
        ("after5", False, "C7", "kos", "inconclusive", "0.1"),
    ]
    pd.DataFrame(
        rows, columns=["option", "published", "claim_id", "dataset", "verdict", "our_value"]
    ).assign(reading="hyper_start").to_csv(base / "hdp" / "readings" / "hyper_start.csv")
    text = "\n".join(_readings_lines(base, base / "hdp"))
    assert "(published: `as_written`)" in text
    assert "| C5 | kos | not_reproduced (0) | reproduced (1) |" in text
    assert "| C13 |" not in text and "| C7 |" not in text  # no change with the reading
    assert "Not reproduced under every option: C13 (kos)." in text
    assert "Numbers: [hdp/readings/hyper_start.csv](hdp/readings/hyper_start.csv)" in text
    assert _readings_lines(base, base / "other") == []


def test_report_overview_splits_verdicts_by_data_kind():
    from latentlab.claims.report import overview

    df = pd.DataFrame(
        {
            "study": ["a", "a", "a", "b"],
            "data_kind": ["identity", "real", "none", "synthetic"],
            "verdict": ["reproduced", "not_reproduced", "not_testable", "not_run"],
        }
    )
    ov = overview(df)
    assert list(ov.columns) == [
        "study",
        "data_kind",
        "reproduced",
        "not_reproduced",
        "inconclusive",
        "not_testable",
        "not_run",
    ]
    assert list(ov.data_kind) == ["real", "identity", "none", "synthetic"]
    assert ov.set_index("data_kind").loc["real", "not_reproduced"] == 1
    assert ov.set_index("data_kind").loc["synthetic", "not_run"] == 1


def test_causes_explain_misses_only(tmp_path):
    """A cause lands on not_reproduced rows only (first matching pattern wins); a miss with
    no declared cause is ``open``; a cause needs evidence and a known name."""
    from latentlab.claims.ledger import CAUSES
    from latentlab.claims.spec import Cause

    led = Ledger("s", document="d")
    kw = dict(where="w", statement="s", how="abs", tolerance=0.1, data_kind="real",
              deterministic=True)  # fmt: skip
    led.compare("T2-a", paper_value=1.0, our_value=2.0, dataset="x", **kw)  # miss
    led.compare("T2-b", paper_value=1.0, our_value=1.0, dataset="x", **kw)  # pass
    led.compare("C1", paper_value=1.0, our_value=2.0, dataset="y", **kw)  # miss, no cause
    led.compare("C2", paper_value=1.0, our_value=2.0, dataset="z", **kw)  # miss, other ds
    led.assign_causes([
        Cause("T2-*", "substitute", "published/real/REVERSALS.md"),
        Cause("C2", "reduction", "ladder.csv", dataset="q*"),
    ])  # fmt: skip
    got = {r.claim_id: (r.cause, r.evidence) for r in led.rows}
    assert got == {"T2-a": ("substitute", "published/real/REVERSALS.md"), "T2-b": ("", ""),
                   "C1": ("open", ""), "C2": ("open", "")}  # fmt: skip
    led.write(tmp_path / "claims.csv")
    df = read_claims(tmp_path / "claims.csv")
    assert set(df.cause) <= {"", *CAUSES}
    with pytest.raises(ValueError, match="not in"):
        led.assign_causes([Cause("C1", "noise", "x")])
    with pytest.raises(ValueError, match="needs its evidence"):
        led.assign_causes([Cause("C1", "genuine", "")])
    bad = df.assign(cause=["noise", "", "open", "open"])
    bad.to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(ValueError, match="unknown causes"):
        read_claims(tmp_path / "bad.csv")
