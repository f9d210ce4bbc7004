"""iwtm ledger, issue 21 ("every verdict can fail and can pass"): each claim that was a bare
boolean is an order row, a value row, or carries a counter-example built on its own decision
function; the order and value rows are proven from tiny frames through the claim functions."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from latentlab.claims import prove as pv
from latentlab.claims.spec import evaluate_claims
from latentlab.studies.iwtm import claims as C
from latentlab.studies.iwtm.study import STUDY, ClaimsSettings
from latentlab.studies.shape import StepContext

LISTED = ["E1", "E3", "E6", "E9", "E10", "E11", "E12", "E14", "FF65", "E15", "E16", "E17",
          "E19", "E20", "E21", "E23", "E26", "E27", "E28", "E29", "E32"]  # fmt: skip
ORDER = ["E6", "E11", "E19", "E26", "E28"]
VALUE = ["E12"]
SPECS = {c.id: c for c in C.CLAIMS}
COUNTERS = {cid: fn for (study, cid), fn in pv.COUNTER_EXAMPLES.items() if study == "iwtm"}


@pytest.mark.parametrize("cid", LISTED)
def test_every_listed_claim_is_provable(cid):
    how = SPECS[cid].how
    assert how != "true" or cid in COUNTERS, f"{cid}: a bare boolean without a counter-example"
    assert (how == "order") == (cid in ORDER) and (how == "abs") == (cid in VALUE)
    if how == "true":  # a hand-written counter-example, not the order rows' constructed pass
        assert COUNTERS[cid] is not pv.direction_passes


@pytest.mark.parametrize(
    "cid", sorted(k for k, f in COUNTERS.items() if f is not pv.direction_passes)
)
def test_counter_example_fails_and_passes(cid):
    out = COUNTERS[cid]({"claim_id": cid})
    assert out == {"fails": "not_reproduced", "passes": "reproduced"}, out
    assert COUNTERS[cid].__doc__  # says which input fails and which passes


def test_e12_value_row_refuses_equal_speed():
    c = SPECS["E12"]
    assert (c.paper_value, c.tolerance, c.reject) == (0.35, 0.15, [1.0])
    rule = '{"how":"abs","paper":0.35,"ours":0.14,"tol":0.15,"reject":[1.0]}'
    row = {"claim_id": "E12", "verdict": "not_reproduced", "data_kind": "real", "rule": rule}
    p = pv.prove_row("iwtm", row)
    assert p.proven and (p.can_fail, p.can_pass) == ("own", "paper")


def _frames(tmp_path, good: bool) -> dict:
    """Tiny run outputs for E6, E11, E12, E19, E26, E28: the claims hold (good) or not."""
    s = 1 if good else -1
    ch4 = pd.DataFrame([dict(dataset="scene13", model="IWTM", T=25, n_train=n, K=130 + s * 30 * i,
                             seed=0, acc=0.5 + 0.05 * i - 0.01 * s * (n == 100))
                        for i, n in enumerate((25, 50, 100))])  # fmt: skip
    ch5 = pd.DataFrame([dict(dataset="scene13", model="IWTM_CAVI", T=25, n_train=100, K=300,
                             seed=0, acc=0.6, seconds=100.0)]
                       + [dict(dataset="scene13", model="LDA_KMEANS", T=25, n_train=100, K=K,
                               seed=0, acc=0.55, seconds=(35.0 if good else 100.0) + d)
                          for K, d in ((250, -5.0), (500, 0.0), (1000, 5.0))])  # fmt: skip
    sun = pd.DataFrame([dict(seed=r, method=m, acc=a + (0.01 * r), dataset="scene15",
                             data_kind="substitute", labels_used=10, coherence_lift=0.1)
                        for r in (0, 1)
                        for m, a in (("visual_words", 0.117 if good else 0.071),
                                     ("iwtm_topics", 0.071 if good else 0.117))])  # fmt: skip
    cls = pd.DataFrame([dict(seed=0, class_id=k, acc_vw=0.2, acc_topic=0.1) for k in range(3)])
    act = []
    for r in (0, 1):
        for i, n in enumerate((65, 130, 195)):
            lift = 0.02 * s * (i > 0)
            act += [dict(dataset="scene13", model="IWTM", method="active", seed=r, n_labelled=n,
                         acc=0.4 + 0.05 * i + lift),
                    dict(dataset="scene13", model="IWTM", method="random", seed=r, n_labelled=n,
                         acc=0.4 + 0.05 * i)]  # fmt: skip
            for K, a in ((62, 0.38 + 0.03 * i), (500, 0.33 + (0.06 if good else 0.01) * i)):
                act.append(dict(dataset="scene13", model="LDA_KMEANS", method="active", seed=r,
                                n_labelled=n, K=K, acc=a))  # fmt: skip
    out = {}
    for name, df in dict(
        ch4=ch4, ch5=ch5, sun=sun, sun_class=cls, active=pd.DataFrame(act)
    ).items():
        out[name] = [tmp_path / f"{name}.csv"]
        df.to_csv(out[name][0], index=False)
    return out


@pytest.mark.parametrize("good", [True, False])
def test_order_and_value_rows_are_proven_both_ways(tmp_path, good):
    ids = ORDER + VALUE
    study = SimpleNamespace(name="iwtm", document=STUDY.document, claim_fns=STUDY.claim_fns,
                            claim_specs=[SPECS[i] for i in ids])  # fmt: skip
    ctx = StepContext("iwtm", "claims", ClaimsSettings(), "test", 0, 1, _frames(tmp_path, good), {})
    path = tmp_path / "iwtm" / "claims.csv"
    evaluate_claims(study, ctx).write(path)
    df = pd.read_csv(path)
    judged = df[df.verdict.isin(["reproduced", "not_reproduced"])]
    assert sorted(judged.claim_id) == sorted(ids)
    want = "reproduced" if good else "not_reproduced"
    assert (judged.verdict == want).all(), judged[["claim_id", "verdict", "our_value"]]
    proofs = [p for p in pv.prove_ledger(path) if p.kind == "judged"]
    assert all(p.proven for p in proofs), [(p.claim_id, p.problems) for p in proofs]
    e6 = judged.set_index("claim_id").loc["E6", "paper_value"]
    assert "1116/1247" in e6 and "867/1116" in e6
