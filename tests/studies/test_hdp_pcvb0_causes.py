"""hdp_pcvb0's causes (issue 24), beyond the checks every study gets (test_causes.py): how
many misses the published ledger has, and that the numbers the genuine and substitute causes
quote are those of the files they name."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from latentlab.claims.ledger import read_claims

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "published" / "real" / "hdp_pcvb0" / "claims.csv"
RUNS = ROOT / "published" / "real" / "hdp_pcvb0" / "evidence" / "runs.csv"


def misses() -> pd.DataFrame:
    df = read_claims(LEDGER)
    return df[df.verdict == "not_reproduced"]


def test_the_published_miss_count():
    """The shared checks (test_causes.py) match every miss to a cause; this pins how many."""
    assert len(misses()) == 3


@pytest.fixture(scope="module")
def runs() -> pd.DataFrame:
    return pd.read_csv(RUNS)


def _fits(runs, dataset, config, T=50):
    return runs[(runs.dataset == dataset) & (runs.config == config) & (runs["T"] == T)]


def test_the_runs_file_is_the_published_fig3(runs):
    """Every run-mean of Fig 3's left panel is the mean of the runs file's fits."""
    fig3 = pd.read_csv(ROOT / "published/real/hdp_pcvb0/fig3.csv")
    left = fig3[fig3.panel == "vs_T"]
    means = runs.groupby(["dataset", "config", "T"]).final_perplexity.mean()
    assert len(left) == len(means) == 35
    for r in left.itertuples():
        assert means[(r.dataset, r.config, r.T)] == pytest.approx(r.mean, rel=1e-5)


def test_the_stalled_fits_are_the_unigram_state(runs):
    """Genuine causes: CVB0 AA at T = 300 on KOS and at T = 50 on Cora (every run) end at
    the unigram perplexity of the split; PCVB0 AA at T = 300 on KOS near it, with every
    topic in use."""
    kos = _fits(runs, "kos", "cvb0_AA", 300)
    assert kos.final_over_unigram.item() == pytest.approx(1.0, abs=2e-4)
    assert kos.unigram_perplexity.item() == pytest.approx(2653.08, abs=0.01)
    cora = _fits(runs, "cora", "cvb0_AA")
    assert len(cora) == 3 and cora.final_over_unigram.between(0.999, 1.0).all()
    assert cora.alpha0.between(231, 243).all()
    assert _fits(runs, "cora", "cvb0_AS").alpha0.between(4.1, 4.3).all()
    assert cora.perplexity_it1.between(1366.2, 1366.3).all()
    p = _fits(runs, "kos", "pcvb0_AA", 300)
    assert p.final_over_unigram.item() == pytest.approx(0.90, abs=0.005)
    assert p.alpha0.item() == pytest.approx(171.6, abs=0.05)
    assert p.effective_topics.item() == p.effective_topics_0p1pct.item() == 300
    # the fits that do not stall are far below the unigram
    ok = runs[~((runs.config == "cvb0_AA") & runs.dataset.isin(["cora"]))
              & ~((runs["T"] == 300) & runs.config.isin(["cvb0_AA", "pcvb0_AA"]))]  # fmt: skip
    assert ok.final_over_unigram.max() < 0.88


@pytest.mark.parametrize(
    "dataset, unigram, zero, second",
    [("news20", 1304, (0.62, 0.64), (0.79, 0.85)), ("ap", 4363, (0.47, 0.50), (0.62, 0.67)),
     ("cora", 1367, (0.61, 0.64), (0.79, 0.88)), ("kos", 2653, (0.52, 0.62), (0.65, 0.71))],
)  # fmt: skip
def test_substitute_levels_are_the_splits_unigram(runs, dataset, unigram, zero, second):
    """Substitute causes of the Fig 3 axis rows: each stand-in split's unigram perplexity
    sets the level, and the fits improve on it by similar factors on every corpus."""
    g = runs[(runs.dataset == dataset) & (runs["T"] == 50)]
    assert g.unigram_perplexity.iloc[0] == pytest.approx(unigram, abs=0.5)
    stalled = (g.dataset == "cora") & (g.config == "cvb0_AA")
    z = g[g.config.str.contains("0_") & ~stalled].final_over_unigram
    s = g[~g.config.str.contains("0_")].final_over_unigram
    assert zero[0] <= z.min() and z.max() <= zero[1]
    assert second[0] <= s.min() and s.max() <= second[1]


def test_the_keff_ladder_backs_the_c13_causes(runs):
    """C13: Cora's AA fits stall at the document's T (genuine); on AP at T = 100 the two
    effective-topic metrics disagree on the AA fit (ambiguity); 20news uses every topic at
    T = 100 by both (open). The ladder's T = 50 fits are the published ones."""
    lad = pd.read_csv(ROOT / "published/real/hdp_pcvb0/evidence/keff_ladder.csv")
    key = ["dataset", "config", "T"]
    at = lad.set_index(key)
    for (ds, cfg, T), r in at[at.index.get_level_values("T") == 50].iterrows():
        pub = _fits(runs, ds, cfg, T)
        assert r.final_perplexity == pytest.approx(pub.final_perplexity.iloc[0], abs=1e-3)
    for T, eff in ((100, (65, 39)), (300, (92, 35))):
        a = at.loc[("cora", "pcvb0_AS", T)]
        assert (a.effective_topics, a.effective_topics_0p1pct) == eff
        s = at.loc[("cora", "pcvb0_AA", T)]
        assert s.effective_topics == s.effective_topics_0p1pct == T
        assert s.final_perplexity / s.unigram_perplexity == pytest.approx(1.0, abs=0.012)
    ap_as, ap_aa = at.loc[("ap", "pcvb0_AS", 100)], at.loc[("ap", "pcvb0_AA", 100)]
    assert (ap_as.effective_topics, ap_as.effective_topics_0p1pct) == (63, 63)
    assert (ap_aa.effective_topics, ap_aa.effective_topics_0p1pct) == (100, 46)
    for cfg in ("pcvb0_AS", "pcvb0_AA"):
        n = at.loc[("news20", cfg, 100)]
        assert n.effective_topics == n.effective_topics_0p1pct == 100
    t50 = runs[(runs["T"] == 50) & runs.config.str.startswith("pcvb0")]
    assert (t50.effective_topics == 50).all() and (t50.effective_topics_0p1pct == 50).all()
