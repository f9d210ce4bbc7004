"""Sec. 5.1's sentences on Blei and Lafferty's method (issue 21): BL worse than delta on
held-out data (C9-delta-bl), its bound far below the approximate bound on AP (C8-bl-far)
and erratic on NYT (C8-bl-erratic, per seed); each judged on converged fits only, as
C9/C10."""

from pathlib import Path

import pandas as pd
import pytest

from latentlab.claims.ledger import judge_order
from latentlab.claims.spec import Measured, NotRun, Sides
from latentlab.studies.nonconjugate_vi import claims as C
from latentlab.studies.shape import StepContext

ROOT = Path(__file__).resolve().parents[3]
REAL = ROOT / "published/real/nonconjugate_vi"


def _ctx(tmp_path, sweeps: dict):
    paths = []
    for name, df in sweeps.items():
        paths.append(tmp_path / f"ctm_sweep_{name}.csv")
        df.to_csv(paths[-1], index=False)
    return StepContext("nonconjugate_vi", "claims", None, "test", 0, 1, {"sweeps": paths}, {})


def _sweep(corpus, rows, data_kind="synthetic"):
    cols = ["K", "seed", "method", "bound_per_word", "heldout_per_word", "em_converged"]
    return pd.DataFrame(rows, columns=cols).assign(corpus=corpus, data_kind=data_kind)


def _verdict(s: Sides, direction=">"):
    return judge_order(s.a, s.b, direction, s.margin or 0.0)[0]


def test_doc_corpus_roles():
    assert C.doc_corpus("ap", "real") == "AP"
    assert C.doc_corpus("synth_ctm_ap", "synthetic") == "AP"
    assert C.doc_corpus("newsgroups", "substitute") == "NYT"
    assert C.doc_corpus("synth_ctm_nyt", "synthetic") == "NYT"
    assert C.doc_corpus("kos", "real") is None and C.doc_corpus("capital", "real") is None


def test_delta_above_bl_on_converged_pairs_only(tmp_path):
    """BL ahead only where delta was cut by the budget: the converged pair decides."""
    df = _sweep("c", [
        (5, 1, "delta", -8.0, -8.40, True), (5, 1, "bl", -8.1, -8.42, True),
        (10, 1, "delta", -8.0, -8.60, False), (10, 1, "bl", -8.1, -8.30, True),
    ])  # fmt: skip
    (s,) = C._c9deltabl(_ctx(tmp_path, {"c": df}))
    assert isinstance(s, Sides) and s.a == [-8.40] and s.b == [-8.42]
    assert _verdict(s) == "reproduced" and "delta K=5: 1/1, K=10: 0/1" in s.note
    df.loc[2, "em_converged"] = True  # the same numbers with delta converged: BL ahead
    (s,) = C._c9deltabl(_ctx(tmp_path, {"c": df}))
    assert _verdict(s) == "not_reproduced"
    df["em_converged"] = False
    (s,) = C._c9deltabl(_ctx(tmp_path, {"c": df}))
    assert isinstance(s, NotRun) and "config/real.yaml" in s.reason


def _fig5a(bl_bounds, approx=(-7.0, -6.9, -6.8)):
    """Laplace and delta converged at K = 5, 10, 20 with bounds ``approx`` (delta 0.05
    lower); BL's converged bounds at the same K."""
    rows = []
    for k, a, b in zip((5, 10, 20), approx, bl_bounds, strict=True):
        rows += [(k, 1, "laplace", a, -8.0, True), (k, 1, "delta", a - 0.05, -8.0, True),
                 (k, 1, "bl", b, -8.1, True)]  # fmt: skip
    return _sweep("synth_ctm_ap", rows)


def test_bl_far_below_the_plotted_range():
    """Span of the approximate bounds 0.25 (-7.05 .. -6.8): BL 0.15 below the lowest is not
    far (within the panel's height), 0.5 below is; a panel from one K is not run."""
    near = C.bl_far_sides(_fig5a([-7.2, -7.2, -7.2]))
    far = C.bl_far_sides(_fig5a([-7.6, -7.7, -7.55]))
    assert near.margin == pytest.approx(0.25) and near.a == [pytest.approx(-7.05)]
    assert _verdict(near) == "not_reproduced" and _verdict(far) == "reproduced"
    one_k = _fig5a([-7.6, -7.7, -7.55])
    one_k.loc[one_k.K > 5, "em_converged"] = False
    assert isinstance(C.bl_far_sides(one_k), NotRun)


def test_zigzag_needs_a_rise_and_a_fall():
    k = [5, 10, 20, 30]
    assert C.zigzag(pd.Series([-7.3, -7.1, -7.25, -7.05], index=k)) == pytest.approx(0.15)
    assert C.zigzag(pd.Series([-7.3, -7.2, -7.1, -7.0], index=k)) == pytest.approx(-0.1)
    assert C.zigzag(pd.Series([-7.0, -7.1, -7.2, -7.3], index=k)) == pytest.approx(-0.1)
    # the order of K, not of the rows, makes the curve
    assert C.zigzag(pd.Series([-7.05, -7.3, -7.1, -7.25], index=[30, 5, 10, 20])) == (
        pytest.approx(0.15)
    )
    with pytest.raises(ValueError):
        C.zigzag(pd.Series([-7.0, -7.1], index=[5, 10]))


def test_bl_seed_curves_keep_converged_fits_of_seeds_with_three_k():
    rows = [(k, 100 + k, "bl", b, -8.0, True) for k, b in ((5, -7.0), (10, -7.2), (20, -7.1))]
    rows += [(k, 200 + k, "bl", b, -8.0, k != 20) for k, b in ((5, -7.0), (10, -7.2), (20, -7.1))]
    curves = C.bl_seed_curves(_sweep("c", rows))
    assert list(curves) == [0]  # replicate r = 1 (seeds 2xx) has two converged K only
    assert list(curves[0].index) == [5, 10, 20]
    assert list(curves[0]) == [-7.0, -7.2, -7.1]


def test_rows_go_to_the_documents_corpus(tmp_path):
    """C8-bl-far is an AP row, C8-bl-erratic an NYT row; a run without the corpus is not
    run and names the config that runs it."""
    ap = _fig5a([-7.6, -7.7, -7.55])
    nyt = _fig5a([-7.3, -7.1, -7.25]).assign(corpus="synth_ctm_nyt")
    ctx = _ctx(tmp_path, {"ap": ap, "nyt": nyt})
    (far,) = C._c8blfar(ctx)
    (err,) = C._c8blerratic(ctx)
    assert far.dataset == "synth_ctm_ap" and _verdict(far) == "reproduced"
    assert err.dataset == "synth_ctm_nyt" and isinstance(err, Measured)
    assert err.value == [pytest.approx(0.15)]  # -7.3, -7.1, -7.25: up 0.2, down 0.15
    only_ap = C._c8blerratic(_ctx(tmp_path, {"ap": ap}))
    assert isinstance(only_ap, NotRun) and "config/real.yaml" in only_ap.reason


@pytest.mark.skipif(not (REAL / "ctm_sweep_ap.csv").exists(), reason="no published sweeps")
def test_published_sweeps():
    """The published real sweeps: delta never converged on AP (C9-delta-bl not run there),
    Laplace only at K = 5 (C8-bl-far not run), BL on newsgroups at K = 5, 10 only
    (C8-bl-erratic not run)."""
    paths = [REAL / "ctm_sweep_ap.csv", REAL / "ctm_sweep_newsgroups.csv"]
    ctx = StepContext("nonconjugate_vi", "claims", None, "real", 0, 1, {"sweeps": paths}, {})
    ap, ng = C._c9deltabl(ctx)
    assert isinstance(ap, NotRun) and ap.dataset == "ap"
    assert isinstance(ng, Sides) and len(ng.a) == 1  # delta converged at K = 5 in 1 seed
    (far,) = C._c8blfar(ctx)
    assert isinstance(far, NotRun) and far.dataset == "ap"
    (err,) = C._c8blerratic(ctx)
    assert isinstance(err, NotRun) and err.dataset == "newsgroups"
