"""The figure check on hand-made figures: each broken one fails for its reason, a
well-made one passes, and write_figure refuses a broken figure."""

import json

import matplotlib.pyplot
import numpy as np
import pandas as pd
import pytest

from latentlab.outputs import write_figure
from latentlab.plotting import figure
from latentlab.plotting.check import (
    RULES,
    FigureCheckError,
    check_figure,
    declare_shared,
    figure_problems,
    name_dataset,
)

# the first rules (text, labels, data): the tests written for them judge those alone
TEXT_RULES = ("overlap", "label", "empty")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    matplotlib.pyplot.close("all")


def _good():
    fig, axes = figure(1, 2, layout="constrained")
    for i, ax in enumerate(axes):
        ax.plot([1, 2, 3], [i, 2, 1], "o-", label="CVB0")
        ax.set_title(f"panel {i}")
        ax.set_xlabel("iteration")
        ax.set_ylabel("perplexity (nats)")
        ax.legend()
    fig.suptitle("a good figure of KOS")
    name_dataset(fig, "KOS")
    return fig


def _kinds(problems):
    return sorted({p.split(":")[0] for p in problems})


def test_good_figure_passes():
    fig = _good()
    assert figure_problems(fig) == []
    check_figure(fig)


def test_overlapping_titles_fail():
    # two rows without a layout engine: the lower panel's title sits on the upper
    # panel's x label and tick labels (hdp_pcvb0 fig3's fault)
    fig, axes = figure(2, 1, height=3.0, layout="none")  # no layout engine
    for ax in axes:
        ax.plot([0, 1], [0, 1])
        ax.set_xlabel("time (s)")
        ax.set_ylabel("y")
        ax.set_title("a title long enough to be seen", fontsize=14)
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert _kinds(problems) == ["overlap"]
    assert any("title 'a title" in p and "x label 'time (s)'" in p for p in problems), problems
    with pytest.raises(FigureCheckError, match="overlap"):
        check_figure(fig, "hand-made")


def test_overlap_across_axes_and_annotations():
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    ax.text(0.5, 0.5, "first note")
    ax.text(0.5, 0.5, "second note")
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert len(problems) == 1 and "first note" in problems[0] and "second note" in problems[0]


def test_legend_over_text_fails():
    fig, ax = figure()
    ax.plot([0, 1], [0, 1], label="a long legend entry")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    leg = ax.legend(loc="upper left")
    fig.canvas.draw()
    x0, y0 = ax.transAxes.inverted().transform(leg.get_window_extent().p0)
    ax.text(x0 + 0.02, y0 + 0.02, "note under the legend", transform=ax.transAxes)
    assert any("legend" in p and "note under" in p for p in figure_problems(fig, rules=TEXT_RULES))


def test_missing_label_fails():
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    ax.set_xlabel("iteration")
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert problems == ["label: axes 0 has y tick labels but no y label"]


def test_shared_axes_and_suplabels_count():
    fig, axes = figure(2, 2, sharex=True, sharey=True, layout="constrained")
    for ax in axes.flat:
        ax.plot([0, 1], [0, 1])
        ax.label_outer()
    axes[1, 0].set_xlabel("x (s)")  # one x label for the shared column group
    assert _kinds(figure_problems(fig, rules=TEXT_RULES)) == ["label"]  # y is still unlabelled
    fig.supylabel("y (nats)")
    assert figure_problems(fig, rules=TEXT_RULES) == []


def test_unlabelled_colorbar_fails_and_hidden_ticks_need_no_label():
    fig, ax = figure()
    im = ax.imshow(np.arange(9.0).reshape(3, 3))
    ax.set_xticks([])
    ax.set_yticks([])
    cb = fig.colorbar(im, ax=ax)
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert len(problems) == 1 and "colorbar" in problems[0] and problems[0].startswith("label")
    cb.set_label("count")
    assert figure_problems(fig, rules=TEXT_RULES) == []


def test_empty_panel_fails_but_unused_slot_does_not():
    fig, axes = figure(1, 3, layout="constrained")
    axes[0].plot([0, 1], [0, 1])
    axes[1].plot([], [])  # a line with no points is no data
    for ax in axes[:2]:
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    axes[2].axis("off")  # an unused grid slot
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert problems == ["empty: axes 1 has no data (no lines, collections, images, bars)"]


def test_bars_images_and_tables_are_data():
    fig, axes = figure(1, 3, layout="constrained")
    axes[0].bar(["a", "b"], [1, 2])
    axes[1].imshow(np.eye(3))
    axes[2].axis("off")
    axes[2].table(cellText=[["1", "2"]], loc="center")
    for ax in axes[:2]:
        ax.set_xlabel("x")
        ax.set_ylabel("y")
    assert figure_problems(fig, rules=TEXT_RULES) == []


def test_crowded_log_minor_ticks_fail():
    # iwtm fig4_1 / fig5_2: a log axis spanning less than a decade labels its minor
    # ticks ("3x10^1 4x10^1 6x10^1"), which run into each other on a narrow panel
    fig, ax = figure(width=2.0)
    ax.semilogx([25, 50, 100, 200], [0.5, 0.6, 0.62, 0.65])
    ax.set_xlabel("K (visual words)")
    ax.set_ylabel("accuracy")
    problems = figure_problems(fig, rules=TEXT_RULES)
    assert problems and _kinds(problems) == ["overlap"]
    assert all("x tick label" in p for p in problems)
    # the fix: label the values plotted, no minor labels
    from matplotlib.ticker import NullFormatter

    ax.set_xticks([25, 50, 100, 200], ["25", "50", "100", "200"])
    ax.xaxis.set_minor_formatter(NullFormatter())
    assert figure_problems(fig, rules=TEXT_RULES) == []


def test_write_figure_refuses_a_broken_figure(tmp_path, monkeypatch):
    df = pd.DataFrame({"x": [0, 1]})
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    monkeypatch.delenv("LATENTLAB_FIGCHECK", raising=False)
    with pytest.raises(FigureCheckError, match=r"(?s)f\.png.*no x label"):
        write_figure(fig, tmp_path / "f.png", df, tmp_path / "f.csv", meta={})
    assert not (tmp_path / "f.png").exists()

    monkeypatch.setenv("LATENTLAB_FIGCHECK", "warn")
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    write_figure(fig, tmp_path / "f.png", df, tmp_path / "f.csv", meta={})
    meta = json.loads((tmp_path / "f.meta.json").read_text())
    assert meta["figure_check"]["mode"] == "warn"
    assert _kinds(meta["figure_check"]["problems"]) == ["dataset", "label"]

    monkeypatch.setenv("LATENTLAB_FIGCHECK", "sometimes")
    with pytest.raises(FigureCheckError, match="LATENTLAB_FIGCHECK"):
        write_figure(_good(), tmp_path / "g.png", df, tmp_path / "g.csv")


def test_write_figure_records_a_passing_check(tmp_path, monkeypatch):
    monkeypatch.delenv("LATENTLAB_FIGCHECK", raising=False)
    df = pd.DataFrame({"x": [0, 1]})
    write_figure(_good(), tmp_path / "g.png", df, tmp_path / "g.csv", meta={"a": 1})
    meta = json.loads((tmp_path / "g.meta.json").read_text())
    assert meta["figure_check"] == {
        "mode": "error",
        "problems": [],
        "rules": list(RULES),
        "datasets": ["KOS"],
    }


def test_figures_check_command(tmp_path, monkeypatch, capsys):
    from latentlab.cli import main

    df = pd.DataFrame({"x": [0, 1]})
    run = tmp_path / "run" / "study"
    monkeypatch.delenv("LATENTLAB_FIGCHECK", raising=False)
    write_figure(_good(), run / "fig1.png", df, run / "fig1.csv", meta={})
    assert main(["figures", "check", str(tmp_path / "run")]) == 0
    assert "1 figures, 1 passed" in capsys.readouterr().out

    monkeypatch.setenv("LATENTLAB_FIGCHECK", "warn")
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    write_figure(fig, run / "fig2.png", df, run / "fig2.csv", meta={})
    monkeypatch.setenv("LATENTLAB_FIGCHECK", "off")
    write_figure(_good(), run / "fig3.png", df, run / "fig3.csv", meta={})
    (run / "fig4.png").write_bytes(b"")  # not written by write_figure
    assert main(["figures", "check", str(tmp_path / "run")]) == 1
    out = capsys.readouterr().out
    assert "fig2.png: 3 problem(s): label" in out
    assert "fig3.png: written with LATENTLAB_FIGCHECK=off" in out
    assert "fig4.png: no fig4.meta.json" in out
    assert "4 figures, 1 passed the figure check, 3 did not" in out
    assert main(["figures", "check", str(tmp_path / "nowhere")]) == 1


def test_figures_redraw_from_csv(tmp_path, monkeypatch, capsys):
    """A figure with a redraw function is drawn again from its CSV and metadata (the PNG
    and the check record are replaced, the CSV is not touched); one without says so."""
    from latentlab.cli import main

    monkeypatch.delenv("LATENTLAB_FIGCHECK", raising=False)
    df = pd.DataFrame(
        {
            "dataset": ["astroph"] * 4,
            "config": ["cvb_AS", "cvb_AS", "pcvb0_AA", "pcvb0_AA"],
            "k": [float("nan")] * 4,
            "T": [50, 100, 50, 100],
            "mean": [0.88, 0.89, 0.90, 0.91],
            "std": [0.0, 0.01, 0.0, 0.01],
            "count": [2] * 4,
        }
    )
    csv = tmp_path / "fig5.csv"
    df.to_csv(csv, index=False)
    before = csv.read_bytes()
    meta = {"study": "hdp_pcvb0", "step": "fig5", "run": "real", "settings": {}}
    (tmp_path / "fig5.meta.json").write_text(json.dumps(meta))
    assert main(["figures", "redraw", str(tmp_path / "fig5.png")]) == 0
    assert (tmp_path / "fig5.png").stat().st_size > 0 and csv.read_bytes() == before
    rec = json.loads((tmp_path / "fig5.meta.json").read_text())["figure_check"]
    assert rec == {"mode": "error", "problems": [], "rules": list(RULES), "datasets": ["astroph"]}

    df.to_csv(tmp_path / "fig4_2.csv", index=False)
    meta = {"study": "iwtm", "step": "fig4_2", "run": "real", "settings": {}}
    (tmp_path / "fig4_2.meta.json").write_text(json.dumps(meta))
    capsys.readouterr()
    assert main(["figures", "redraw", str(tmp_path / "fig4_2.png")]) == 1
    assert "no redraw function" in capsys.readouterr().out


def test_log_axis_labels_a_short_log_axis_without_overlap():
    from latentlab.plotting import log_axis

    for hi in (45, 400, 1e5):  # under a decade, about one, several
        fig, ax = figure(width=2.5)
        ax.semilogx([25, hi], [0.5, 0.6])
        ax.set_xlabel("documents processed")
        ax.set_ylabel("held-out log-likelihood per token")
        log_axis(ax)
        assert figure_problems(fig, rules=TEXT_RULES) == [], hi


@pytest.mark.parametrize("axis", ["x", "y"])
def test_log_axis_has_no_overlap_whatever_the_data_span(axis):
    """The compare study's time axis spans whatever the fits took: without `log_axis`,
    3 of 300 random spans printed colliding minor labels ("3x10^0 4x10^0"), which failed
    CI once (stop 33). Those three spans, then 40 from a factor 1.3 to 3 decades."""
    from latentlab.plotting import log_axis

    rng = np.random.default_rng(0)
    names = ["SCVB0", "SVB", "CVB0", "CGS", "HDP-PCVB0", "CTM-Laplace"]
    spans = [(1.371, 74.46), (0.01408, 0.7764), (12.82, 759.6)]  # collided before the fix
    spans += [(lo, lo * 10 ** rng.uniform(0.1, 3)) for lo in 10 ** rng.uniform(-2, 1, 40)]
    for trial, (lo, hi) in enumerate(spans):
        v = np.geomspace(lo, hi, 6)
        fig, (ax, other) = figure(1, 2, width=4.6, height=3.4)  # the compare figure's layout
        other.bar(np.arange(6), rng.uniform(100, 300, 6), 0.8, label="K = 3")
        other.legend(bbox_to_anchor=(1.02, 1.0), loc="upper left")
        for a in (ax, other):
            a.set_xlabel("x")
            a.set_ylabel("y")
            a.set_title("t")
        if axis == "y":
            ax.bar(np.arange(6), v, 0.8)
            ax.set_yscale("log")
        else:
            ax.plot(np.sort(v), np.arange(6), marker="o")
            ax.set_xscale("log")
        if axis == "y":  # the method names upright under the bars
            for a in (ax, other):
                a.set_xticks(np.arange(6), names, rotation=90)
        log_axis(ax, axis)
        assert figure_problems(fig, rules=TEXT_RULES) == [], (trial, v.min(), v.max())
        matplotlib.pyplot.close(fig)


def test_measured_axis_has_no_overlap_whatever_the_time_span():
    """nonconjugate_vi's Fig 6a plots against the fits' wall-clock seconds: on an idle
    machine the smoke fits took 0.005-0.02 s and matplotlib's "0.0050 0.0075 ... 0.0200"
    collided (CI on 7758b3c). That span, which collides without `measured_axis`, then 40
    from 1e-4 s to 1e4 s."""
    from latentlab.plotting import measured_axis

    def draw(lo, hi, fix):
        fig, ax = figure()  # draw_fig6's layout
        for seed in range(2):
            t = np.linspace(lo, hi, 8) * (1 + 0.05 * seed)
            ax.plot(t, -7 + 0.1 * np.log1p(np.arange(8)), marker="o", ms=3, label=f"m{seed}")
        ax.set_xlabel("wall-clock time (s)")
        ax.set_ylabel("per-word approximate bound")
        ax.set_title("ncvi, K=3 (2 seeds)")
        ax.legend()
        if fix:
            measured_axis(ax)
        problems = figure_problems(fig, rules=TEXT_RULES)
        matplotlib.pyplot.close(fig)
        return problems

    assert draw(0.0042, 0.0199, fix=False) != []  # the collision the fix removes
    rng = np.random.default_rng(1)
    spans = [(0.0042, 0.0199)]
    spans += [(lo, lo * 10 ** rng.uniform(0.05, 2)) for lo in 10 ** rng.uniform(-4, 3, 40)]
    for lo, hi in spans:
        assert draw(lo, hi, fix=True) == [], (lo, hi)


# ------------------------------------------------------------------ the rules of issue 40
def _panel(ax, title="KOS"):
    ax.set_xlabel("iteration")
    ax.set_ylabel("perplexity")
    ax.set_title(title)


def _only(fig, rule):
    return figure_problems(fig, rules=(rule,))


def test_rules_are_all_known_and_an_unknown_one_is_refused():
    assert set(RULES) >= {"overlap", "label", "empty", "legend", "covers", "dataset"}
    with pytest.raises(ValueError, match="unknown rule"):
        figure_problems(_good(), rules=("overlap", "colour"))


def test_legend_entries_alike_fail_and_distinct_ones_pass():
    x = np.arange(5.0)
    fig, ax = figure()
    ax.plot(x, x, color="tab:red", label="CVB AS")
    ax.plot(x, x + 1, color="tab:red", label="CVB AA")
    _panel(ax)
    ax.legend(loc="upper left")
    probs = _only(fig, "legend")
    assert len(probs) == 1 and "'CVB AS' and 'CVB AA' look alike" in probs[0]
    for kw in ({"ls": "--"}, {"marker": "o"}, {"color": "tab:blue"}):  # each one is enough
        fig, ax = figure()
        ax.plot(x, x, color="tab:red", label="CVB AS")
        ax.plot(x, x + 1, **{"color": "tab:red", **kw}, label="CVB AA")
        _panel(ax)
        ax.legend(loc="upper left")
        assert _only(fig, "legend") == [], kw


def test_legend_hollow_marker_distinguishes_but_a_near_colour_does_not():
    x = np.arange(5.0)
    fig, ax = figure()
    ax.plot(x, x, "o-", color="tab:green", label="filled")
    ax.plot(x, x + 1, "o-", color="tab:green", mfc="none", label="hollow")
    ax.plot(x, x + 2, "o-", color=(0.17, 0.63, 0.18), label="almost tab:green")
    _panel(ax)
    ax.legend(loc="upper left")
    probs = _only(fig, "legend")
    assert probs == [
        "legend: axes 0 ('KOS') legend entries 'filled' and 'almost tab:green' look alike "
        "(same colour, marker and line style)"
    ]


def test_legend_dashes_hidden_under_the_marker_count_as_solid():
    """hdp_pcvb0 Fig 3: error-bar handles two em long at 7 pt, '--' (AS) and '-' (AA):
    the one gap of the dashed handle sits under its marker, so both read as solid."""
    x = np.arange(3.0)
    fig, ax = figure()
    for ls, lab in (("--", "CVB AS"), ("-", "CVB AA")):
        ax.errorbar(x, x, yerr=0.1, color="tab:red", marker="o", ls=ls, label=lab)
    _panel(ax)
    leg = ax.legend(fontsize=7, loc="upper left")
    assert len(_only(fig, "legend")) == 1
    leg.remove()
    ax.legend(fontsize=7, loc="upper left", handlelength=4)  # long enough to show a gap
    assert _only(fig, "legend") == []


def test_legend_over_points_fails_and_off_the_points_passes():
    x = np.linspace(0, 1, 50)
    fig, ax = figure()
    ax.plot(x, np.full_like(x, 0.95), label="near the top")
    ax.plot(x, np.full_like(x, 0.05), label="near the bottom")
    ax.set_ylim(0, 1)
    _panel(ax)
    ax.legend(loc="upper center")
    probs = _only(fig, "covers")
    assert len(probs) == 1 and probs[0].startswith("covers: axes 0 ('KOS') legend covers")
    ax.get_legend().remove()
    ax.legend(loc="center")  # the empty middle of the panel
    assert _only(fig, "covers") == []


def test_legend_covers_scatter_points_and_a_figure_legend_outside_covers_nothing():
    rng = np.random.default_rng(0)
    fig, axes = figure(1, 2)
    for ax in axes:
        ax.scatter(rng.uniform(size=200), rng.uniform(size=200), s=4, label="documents")
        _panel(ax)
    axes[0].legend(loc="upper right")
    probs = _only(fig, "covers")
    assert len(probs) == 1 and "axes 0" in probs[0]
    axes[0].get_legend().remove()
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center")
    assert _only(fig, "covers") == []


def test_a_point_in_the_legend_padding_covers_nothing():
    """The tolerance: a point within the legend's border padding (no handle or text is
    drawn there) is not covered; one a little further in is."""
    fig, ax = figure()
    ax.plot([0, 1], [0, 1], "o", label="series")
    ax.set_xlim(-1, 2)
    ax.set_ylim(-1, 2)
    _panel(ax)
    leg = ax.legend(loc="center")
    fig.canvas.draw()
    bb = leg.get_window_extent()
    pad = leg.borderpad * leg.prop.get_size_in_points() * fig.dpi / 72
    inv = ax.transData.inverted()
    (xe, ye), (xi, yi) = inv.transform([(bb.x0 + pad / 2, bb.y0 + bb.height / 2),
                                        (bb.x0 + pad * 2, bb.y0 + bb.height / 2)])  # fmt: skip
    line = ax.plot([xe], [ye], "s", color="k")[0]
    assert _only(fig, "covers") == []
    line.set_data([xi], [yi])
    assert len(_only(fig, "covers")) == 1


def test_dataset_must_be_declared_and_written():
    fig, ax = figure()
    ax.plot([0, 1], [0, 1])
    _panel(ax, title="perplexity per iteration")
    assert _only(fig, "dataset") and "declares no dataset" in _only(fig, "dataset")[0]
    name_dataset(fig, "KOS")
    assert _only(fig, "dataset") == [
        "dataset: 'KOS' is declared but no title, label, legend entry or note names it"
    ]
    fig.suptitle("KOS (3,430 documents)")
    assert _only(fig, "dataset") == []
    name_dataset(fig, "20 Newsgroups")  # a second corpus, named in a legend entry
    ax.plot([0, 1], [1, 0], label="20 newsgroups")
    ax.legend(loc="center")
    assert _only(fig, "dataset") == []
    with pytest.raises(ValueError, match="non-empty"):
        name_dataset(fig, " ")


def test_error_bars_must_say_what_they_are():
    fig, ax = figure()
    ax.errorbar([1, 2, 3], [1, 2, 1], yerr=0.2, marker="o", label="CVB0")
    _panel(ax)
    ax.legend(loc="lower center")
    probs = _only(fig, "errorbar")
    assert len(probs) == 1 and "axes 0 ('KOS') draw(s) error bars" in probs[0]
    for words in ("error bars: sd over 5 runs", "mean ± standard error", "95 % interval",
                  "bars: min–max over seeds", "IQR", "s.e. of the mean"):  # fmt: skip
        ax.set_title(f"KOS ({words})")
        assert _only(fig, "errorbar") == [], words
    for words in ("error bars", "80% of the documents", "range of E[a]"):
        ax.set_title(f"KOS ({words})")
        assert _only(fig, "errorbar"), words
    fig, ax = figure()  # no error bars: nothing to say
    ax.plot([1, 2, 3], [1, 2, 1])
    _panel(ax)
    assert _only(fig, "errorbar") == []


def test_declared_shared_axes_must_have_equal_limits():
    rng = np.random.default_rng(1)
    fig, axes = figure(1, 3)
    for i, ax in enumerate(axes):
        ax.scatter(rng.uniform(size=20), 1 + 0.1 * (i + 1) * rng.standard_normal(20), s=4)
        _panel(ax)
    declare_shared(axes, "y")
    probs = _only(fig, "shared")
    assert len(probs) == 1 and "declared to share y" in probs[0]
    lo = min(ax.get_ylim()[0] for ax in axes)
    hi = max(ax.get_ylim()[1] for ax in axes)
    for ax in axes:
        ax.set_ylim(lo, hi)
    assert _only(fig, "shared") == []
    axes[2].set_yscale("log")
    axes[2].set_ylim(lo, hi) if lo > 0 else axes[2].set_ylim(0.1, hi)
    assert _only(fig, "shared")  # same limits on another scale are not shared
    fig, axes = figure(1, 2, sharey=True)  # matplotlib's own sharing passes
    for ax in axes:
        ax.plot([0, 1], rng.uniform(size=2))
        _panel(ax)
    declare_shared(axes, "y")
    assert _only(fig, "shared") == []
    with pytest.raises(ValueError, match="two or more"):
        declare_shared([axes[0]], "y")
    with pytest.raises(ValueError, match="'x' or 'y'"):
        declare_shared(axes, "z")


def test_figures_check_names_a_record_from_before_a_rule(tmp_path, monkeypatch, capsys):
    """A figure checked by older rules (a published PNG drawn before issue 40) does not
    pass `figures check` on its old record: it must be redrawn or rebuilt."""
    from latentlab.cli import main

    monkeypatch.delenv("LATENTLAB_FIGCHECK", raising=False)
    run = tmp_path / "run"
    write_figure(_good(), run / "a.png", pd.DataFrame({"x": [0]}), run / "a.csv", meta={})
    rec = json.loads((run / "a.meta.json").read_text())["figure_check"]
    assert rec["rules"] == list(RULES) and rec["datasets"] == ["KOS"]
    (run / "a.meta.json").write_text(
        json.dumps({"figure_check": {"mode": "error", "problems": []}})
    )
    assert main(["figures", "check", str(run)]) == 1
    out = capsys.readouterr().out
    assert "checked before the rule(s) legend, covers, dataset, errorbar, shared existed" in out


def test_legend_over_the_end_of_a_bar_covers_it():
    fig, ax = figure()
    ax.bar([0, 1, 2, 3], [0.2, 0.3, 0.95, 0.25], label="CVB AA")
    ax.set_ylim(0, 1)
    _panel(ax)
    ax.legend(loc="upper right", borderaxespad=0.1, fontsize=12)  # over the tall bar's top
    probs = _only(fig, "covers")
    assert len(probs) == 1 and "1 data point" in probs[0]
    ax.get_legend().remove()
    ax.legend(loc="upper left")  # above the short bars
    assert _only(fig, "covers") == []
