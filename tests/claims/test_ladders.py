"""Each row shows the verdict at the highest ladder rung that measured it (issue 40)."""

import pandas as pd

from latentlab.claims.ladders import apply, rung_settings
from latentlab.claims.ledger import Ledger


def _ladder(path):
    rows = [
        # rung, index, setting, claim, dataset, our value, verdict
        ("real", 0, "[50]", "C9", "kos", "-914", "not_reproduced"),
        ("kos_Tdoc", 1, "[100, 200, 300]", "C9", "kos", "-285", "not_reproduced"),
        ("kos_doc", 2, "[100, 200, 300]", "C9", "kos", "12.5", "inconclusive"),
        ("doc", 3, "[100, 200, 300]", "C9", "kos", "", "not_run_here"),
        ("real", 0, "[50]", "C6a", "news20", "0.06", "not_reproduced"),
    ]
    df = pd.DataFrame(rows, columns=["rung", "rung_index", "x.kos.T", "claim_id", "dataset",
                                     "our_value", "verdict"])  # fmt: skip
    df.insert(df.columns.get_loc("claim_id") + 1, "where", "Sec 6")
    df.to_csv(path, index=False)
    return path


def test_the_highest_judged_rung_is_shown(tmp_path):
    path = _ladder(tmp_path / "ladder.csv")
    led = Ledger("hdp", "D")
    kw = dict(where="Sec 6", statement="s", data_kind="real")
    led.order("C9", ours_a=[1.0] * 3, ours_b=[2.0] * 3, dataset="kos", **kw)
    led.order("C9", ours_a=[1.0] * 3, ours_b=[2.0] * 3, dataset="ap", **kw)
    led.compare("C6a", paper_value=0, our_value=[0.06] * 3, how="abs", tolerance=0.03,
                dataset="news20", **kw)  # fmt: skip
    apply(led, [path])
    kos, ap, news = led.rows
    assert kos.ladder_rung == "kos_doc (kos.T=[100, 200, 300])"  # not the rung not run here
    assert (kos.ladder_value, kos.ladder_verdict) == ("12.5", "inconclusive")
    assert kos.verdict == "not_reproduced"  # the run's own verdict stays
    assert (ap.ladder_rung, ap.ladder_verdict) == ("", "")  # no rung measured it
    assert (news.ladder_rung, news.ladder_verdict) == ("real", "not_reproduced")


def test_rung_settings_name_what_changes(tmp_path):
    df = pd.read_csv(_ladder(tmp_path / "l.csv"))
    assert rung_settings(df, "real") == ""
    assert rung_settings(df, "kos_Tdoc") == "kos.T=[100, 200, 300]"


def test_a_written_ledger_gets_the_same_columns_and_keeps_everything_else(tmp_path):
    """latentlab claims ladder: a published ledger filled without its claims step."""
    from latentlab.claims.ladders import apply_published
    from latentlab.claims.ledger import read_claims

    path = _ladder(tmp_path / "ladder.csv")
    led = Ledger("hdp", "D")
    kw = dict(where="Sec 6", statement="s", data_kind="real")
    led.order("C9", ours_a=[1.0] * 3, ours_b=[2.0] * 3, dataset="kos", **kw)
    led.order("C9", ours_a=[1.0] * 3, ours_b=[2.0] * 3, dataset="ap", **kw)
    csv = tmp_path / "hdp" / "claims.csv"
    csv.parent.mkdir()
    led.write(csv)
    before = read_claims(csv)
    assert apply_published(csv, path) == 1
    after = read_claims(csv)
    cols = ["ladder_rung", "ladder_value", "ladder_verdict"]
    assert list(after.loc[0, cols]) == ["kos_doc (kos.T=[100, 200, 300])", "12.5",
                                        "inconclusive"]  # fmt: skip
    assert list(after.loc[1, cols]) == ["", "", ""]
    rest = [c for c in before.columns if c not in cols]
    pd.testing.assert_frame_equal(after[rest], before[rest])
