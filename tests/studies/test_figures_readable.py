"""The figures of issue 40 on small frames shaped like their CSVs: each passes the figure
check and shows what a reviewer reads beside the document's caption (the legend tells AS
from AA, the shared bounds, the one-sided p, the note on a last sparse checkpoint)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from latentlab.plotting.check import declared_datasets, figure_problems


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _texts(fig) -> str:
    from latentlab.plotting.check import _figure_texts

    fig.canvas.draw()
    return "\n".join(_figure_texts(fig))


def test_hdp_fig3_legend_tells_as_from_aa_and_says_the_error_bars():
    from latentlab.studies.hdp_pcvb0.figures import _style, draw_fig3

    aa, as_ = _style("cvb_AA"), _style("cvb_AS")
    assert aa["color"] == as_["color"] and aa["marker"] == as_["marker"]
    assert (aa["ls"], aa["mfc"]) == ("-", aa["color"]) and (as_["ls"], as_["mfc"]) == (
        "--",
        "white",
    )
    rows = []
    for cfg in ("cvb_AS", "cvb_AA", "pcvb0_AS", "pcvb0_AA"):
        for T in (10, 25):
            rows.append(dict(panel="vs_T", dataset="synth_kos", config=cfg, T=T, iteration=5,
                             mean=140.0 + T, std=1.0, min=139.0, max=141.0, count=2))  # fmt: skip
        for it in range(1, 6):
            rows.append(dict(panel="vs_iteration", dataset="synth_kos", config=cfg, T=25,
                             iteration=it, mean=150.0 - it, std=1.0, min=148.0 - it,
                             max=150.0 - it, count=2))  # fmt: skip
    fig = draw_fig3(pd.DataFrame(rows))
    assert figure_problems(fig) == []
    text = _texts(fig)
    assert "* the document's own inferences" in text and "*PCVB0 AS" in text
    assert "error bars sd over runs" in text and "over 2 runs" in text
    assert declared_datasets(fig) == ["synth_kos"]


def test_ais_scatter_rows_share_bounds_tight_around_all_but_standard_ais():
    from latentlab.studies.ais_eval.figures import PAIRS, draw_scatter

    rng = np.random.default_rng(0)
    rows = []
    for regime, n in (("cheap", 100), ("expensive", 10000)):
        for name, *_ in PAIRS:
            spread = 0.5 if name == "Std AIS" else 0.02
            for d in range(30):
                x, y = 1 + spread * rng.standard_normal(2)
                rows.append(dict(regime=regime, n_temps=n, panel=name, doc=d, x=x, y=y))
    out = pd.DataFrame(rows)
    fig = draw_scatter(out, "Fig 5.4: ACL stand-in cora", "cora")
    assert figure_problems(fig) == []
    axes = np.array(fig.axes).reshape(2, 4)
    for i, regime in enumerate(("cheap", "expensive")):
        lims = {ax.get_ylim() for ax in axes[i]} | {ax.get_xlim() for ax in axes[i]}
        assert len(lims) == 1  # one bound for x and y of every panel of the row
        lo, hi = lims.pop()
        ref = out[(out.regime == regime) & (out.panel != "Std AIS")]
        assert lo < min(ref.x.min(), ref.y.min()) and hi > max(ref.x.max(), ref.y.max())
        std = out[(out.regime == regime) & (out.panel == "Std AIS")]
        off = int(((std.x < lo) | (std.x > hi) | (std.y < lo) | (std.y > hi)).sum())
        assert off > 0 and f"{off} of 30 points outside the bounds" in axes[i, 1].get_title()


def test_ncvi_fig5a_names_the_true_bound_apart_from_the_approximation():
    from latentlab.studies.nonconjugate_vi.figures import draw_fig5

    rows = [dict(corpus="ap", method=m, K=K, bound_mean=-8.0 + 0.01 * K, bound_sd=0.01,
                 n_seeds=3, n_fits=3, n_converged=3 if K < 20 else 2)
            for m in ("bl", "delta", "laplace") for K in (5, 10, 20)]  # fmt: skip
    fig = draw_fig5(pd.DataFrame(rows), "fig5a")
    assert figure_problems(fig) == []
    text = _texts(fig)
    assert "Blei–Lafferty (true lower bound)" in text and "Laplace (approximate, Eq. 21)" in text
    assert "approximate bound" not in fig.axes[0].get_ylabel()
    assert "error bars: sd over seeds" in text and "mean over 3 seeds" in text


def test_tir_fig3_4_title_gives_the_one_sided_p_of_ledger_c35():
    from scipy.stats import ttest_ind

    from latentlab.studies.tir.figures import draw_fig3_4

    rng = np.random.default_rng(2)
    e = pd.DataFrame({"l_edge": np.r_[rng.exponential(2, 60), rng.exponential(3, 20)],
                      "is_self": [False] * 60 + [True] * 20})  # fmt: skip
    fig = draw_fig3_4(e)
    assert figure_problems(fig) == []
    s, n = e.l_edge[e.is_self], e.l_edge[~e.is_self]
    one = ttest_ind(s, n, equal_var=False, alternative="greater").pvalue
    two = ttest_ind(s, n, equal_var=False).pvalue
    title = fig.axes[0].get_title()
    assert f"p = {one:.2g}" in title and "one-sided" in title and f"{two:.2g}" not in title


def test_scvb0_last_jumps_finds_a_rise_resting_on_the_last_checkpoint():
    from latentlab.studies.scvb0.figures import draw_curves, last_jumps

    cps = [100, 200, 400, 800, 1600]
    rows = []
    for seed in (0, 1):
        for i, c in enumerate(cps):
            # SCVB0 flat (steps 0.01) then +0.4 at the last checkpoint; SVB rises steadily
            scvb0 = -8.0 + 0.01 * i + (0.4 if c == cps[-1] else 0.0) + 0.001 * seed
            rows.append(dict(method="SCVB0", seed=seed, docs_seen=c, train_seconds=0.01 * c,
                             heldout_ll=scvb0))  # fmt: skip
            rows.append(dict(method="SVB", seed=seed, docs_seen=c, train_seconds=0.02 * c,
                             heldout_ll=-8.5 + 0.1 * i))  # fmt: skip
    df = pd.DataFrame(rows)
    jumps = last_jumps(df)
    assert list(jumps) == ["SCVB0"] and jumps["SCVB0"] == pytest.approx(0.41, abs=1e-9)
    info = {"dataset": "synth_50k", "K": 10, "data_kind": "synthetic"}
    fig, _ = draw_curves(df, info, "fig4_4")
    assert figure_problems(fig) == []
    text = _texts(fig)
    assert "(800 and 1,600 documents)" in text and "SCVB0 +0.41" in text and "SVB +" not in text
    assert "markers: the checkpoints" in text and "min–max range of 2 seeds" in text


def test_iwtm_acc_vs_k_legend_in_words_below_the_panels():
    from latentlab.studies.iwtm.figures import MODEL_NAMES, draw_acc_vs_k

    rows = []
    for n in (25, 50):
        for K in (25, 100, 400):
            for seed in (0, 1):
                rows.append(dict(dataset="scene13", model="sLDA_BOW", T=25, n_train=n, K=K,
                                 seed=seed, acc=0.4 + 0.01 * seed + K / 1e4))  # fmt: skip
        rows.append(dict(dataset="scene13", model="IWTM", T=25, n_train=n, K=120, seed=0,
                         acc=0.45))  # fmt: skip
        rows.append(dict(dataset="scene13", model="LDA_on_IWTM_clusters", T=25, n_train=n,
                         K=120, seed=0, acc=0.46))  # fmt: skip
    fig = draw_acc_vs_k(pd.DataFrame(rows), "fig4_1")
    assert figure_problems(fig) == []
    text = _texts(fig)
    for code in ("sLDA_BOW", "IWTM", "LDA_on_IWTM_clusters"):
        assert MODEL_NAMES[code] in text
    assert "sLDA_BOW" not in text and "LDA_on_IWTM_clusters" not in text
    assert fig.legends and all(ax.get_legend() is None for ax in fig.axes)
    assert "mean over 2 runs per K, error bars: sd over runs" in text


def test_drift_redraw_names_the_network_of_a_published_figure():
    from latentlab.studies.drift.figures import _meta_network, draw_fig2_4

    assert _meta_network({"data_kind": "real"}) == "Enron email"
    assert _meta_network({"data_kind": "synthetic"}) == "synthetic (Enron-like)"
    assert _meta_network({"data_kind": "real", "network": "x"}) == "x"
    df = pd.DataFrame([dict(t=t, method=m, ll_minus_baseline=0.1 * t - i)
                       for i, m in enumerate(("Naive", "LFRM_last", "LFRM_all", "DRIFT"))
                       for t in range(3, 8)])  # fmt: skip
    fig = draw_fig2_4(df, "Enron email")
    assert figure_problems(fig) == [] and declared_datasets(fig) == ["Enron email"]
