"""Study drift: the monthly sociomatrices and their bad-input rules, steps on tiny inputs,
and the claims tolerances being the only thing a tolerance change reruns."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from latentlab.bench import bench_wide
from latentlab.data.graph import TemporalGraph
from latentlab.errors import ConfigError, DataError
from latentlab.studies.drift.claims import CLAIMS as C_SPECS
from latentlab.studies.drift.networks import monthly_networks
from latentlab.studies.shape import load_study

ROOT = Path(__file__).resolve().parents[2]
JAN, FEB, MAR, APR = 915148800, 917827200, 920246400, 922924800  # 1999-01..04, UTC


def _graph(times, senders, receivers):
    ptr = np.concatenate([[0], np.cumsum([len(r) for r in receivers])])
    return TemporalGraph(
        4, senders, times, ptr, np.concatenate(receivers), actor_attrs={"name": list("abcd")}
    ).validate("toy")


def test_monthly_networks_counts_and_symmetry():
    g = _graph([JAN, JAN, FEB, MAR, APR], [0, 1, 2, 0, 3], [[1], [0, 2], [1], [0, 1], [0]])
    Y, labels, top, names, s = monthly_networks(g, 3, "1999-01", "1999-03")
    assert labels == ["1999-01", "1999-02", "1999-03"] and Y.shape == (3, 3, 3)
    assert np.array_equal(Y, Y.transpose(0, 2, 1)) and not Y[:, [0, 1, 2], [0, 1, 2]].any()
    assert s["events_outside_window_dropped"] == 1  # the April message
    assert s["self_messages_dropped"] == 1  # 0 -> 0 in March
    assert list(top) == [0, 1, 2]  # most emails sent + received inside the window
    assert Y[0, 0, 1] == 1 and Y[0, 1, 2] == 1 and Y[2, 0, 1] == 1


def test_monthly_networks_bad_input_is_named():
    g = _graph([JAN, FEB, APR], [0, 1, 0], [[1], [0], [1]])
    with pytest.raises(DataError, match="outside 1999-01..1999-03"):
        monthly_networks(g, 2, "1999-01", "1999-03", outside_window="error")
    with pytest.raises(DataError, match="month 1999-03 has no edge"):
        monthly_networks(g, 2, "1999-01", "1999-03")
    _, _, _, _, s = monthly_networks(g, 2, "1999-01", "1999-03", empty_month="keep")
    assert s["empty_months"] == ["1999-03"]
    with pytest.raises(ConfigError, match="n_actors"):
        monthly_networks(g, 9, "1999-01", "1999-03")
    # the month format and window are the settings' (checked at start-up)
    st = load_study("drift")
    with pytest.raises(ConfigError, match=r"drift\.network\.first_month: expected YYYY-MM"):
        st.settings("network", {"network": {"first_month": "1999/01"}})
    with pytest.raises(ConfigError, match=r"drift\.network\.last_month: .*< 2 months"):
        st.settings("network", {"network": {"first_month": "1999-03", "last_month": "1999-03"}})


def test_heldout_fraction_outside_unit_interval_is_refused(tmp_path):
    st = load_study("drift")
    net = tmp_path / "n.npz"
    Y = np.zeros((4, 3, 3), np.int8)
    np.savez(net, Y=Y, months=np.array(list("abcd")), names=np.array(list("xyz")))
    params = {"run": "t", "base_seed": 1, "threads": 1, "monthly_fit": {"heldout_frac": 1.0}}
    outs = {k: tmp_path / f"{k}.x" for k in ("forecast", "missing", "matrices", "trace", "timing")}
    with pytest.raises(ConfigError, match=r"monthly_fit\.heldout_frac"):
        st.execute("monthly_fit", params, {"networks": [net]}, outs)


def test_steps_on_tiny_inputs(tmp_path):
    st = load_study("drift")
    p = {"run": "t", "base_seed": 3, "threads": 1}
    net = tmp_path / "net.npz"
    summ = tmp_path / "net.json"
    e = {"N": 6, "T": 5, "K": 2, "t_sparse": 4, "n_persistent": 2}
    st.execute(
        "network",
        {**p, "network": {"source": "synthetic", "synthetic": e}},
        {},
        {"networks": net, "summary": summ},
    )
    assert np.load(net)["Y"].shape == (5, 6, 6)
    fit = {
        "chains": 1,
        "burnin": 2,
        "samples": 1,
        "forecast_draws": 2,
        "first_t": 4,
        "missing_chains": 1,
        "missing_burnin": 2,
        "missing_splits": 2,
        "processes": 1,
    }
    outs = {k: tmp_path / f"m_{k}" for k in ("forecast", "missing", "timing")}
    outs["forecast"] = tmp_path / "f.csv"
    outs["missing"] = tmp_path / "m.csv"
    outs["matrices"] = tmp_path / "m.npz"
    outs["trace"] = tmp_path / "trace.csv"
    st.execute("monthly_fit", {**p, "monthly_fit": fit}, {"networks": [net]}, outs)
    f = pd.read_csv(outs["forecast"])
    assert set(f.method) == {"Naive", "Baseline", "LFRM_last", "LFRM_all", "DRIFT"}
    assert sorted(f.t.unique()) == [4, 5] and np.isfinite(f.ll).all()
    m = pd.read_csv(outs["missing"])  # 2 held-out splits x 5 methods, each its own mask
    assert (m.ll < 0).all() and len(m) == 10 and sorted(m.split.unique()) == [0, 1]
    assert (
        not m[m.split == 0]
        .ll.reset_index(drop=True)
        .equals(m[m.split == 1].ll.reset_index(drop=True))
    )
    z = np.load(outs["matrices"])
    assert len(z["labels"]) == len(z["score_DRIFT"]) and "score_DRIFT_s1" in z
    assert not np.array_equal(z["heldout"], np.zeros_like(z["heldout"]))
    # DRIFT traces: 2 forecast months + 2 missing-data fits, 3 iterations each
    tr = pd.read_csv(outs["trace"])
    assert len(tr) == 4 * 3 and set(tr.task) == {"forecast", "missing", "missing_s1"}
    assert (tr.K >= 0).all() and (tr.alpha > 0).all() and set(tr.iteration) == {0, 1, 2}
    st.execute(
        "fig2_7",
        {**p},
        {"matrices": [outs["matrices"]], "network_summary": [summ]},
        {"png": tmp_path / "fig2_7.png"},
    )
    assert (tmp_path / "fig2_7.csv").exists()


def _dry_run_commands(drift_section, tmp_path):
    extra = tmp_path / f"extra{len(list(tmp_path.iterdir()))}.yaml"
    extra.write_text(yaml.safe_dump({"drift": drift_section}))
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "drift",
        "-n",
        "-p",
        "--forceall",
        # a run given with --configfile stands alone: give the default and the override
        "--configfile",
        "config/config.yaml",
        str(extra),
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return {ln for ln in out.stdout.splitlines() if "python -m latentlab drift" in ln}


def test_claims_tolerance_change_reruns_only_the_claims(tmp_path):
    section = yaml.safe_load((ROOT / "config/config.yaml").read_text())["drift"]
    before = _dry_run_commands(section, tmp_path)
    changed = json.loads(json.dumps(section))
    changed["claims"]["recovery_corr"] = 0.5
    after = _dry_run_commands(changed, tmp_path)
    differ = {re.search(r"latentlab drift (\S+)", c).group(1) for c in before ^ after}
    assert differ == {"claims"}, differ


TEXT_P = {"run": "t", "base_seed": 5, "threads": 1}


def tiny_text_data(tmp_path, n_datasets: int) -> tuple:
    """The three synthetic text kinds at toy size (text_data): the study, the paths by
    kind and the text_data settings."""
    st = load_study("drift")
    small = {"N": 8, "K": 2, "V": 30, "edge_len": 5, "node_len": 10}
    td = {
        "n_datasets": n_datasets,
        "enron_text": small,
        "twitter_text": {**small, "link": "logistic", "node_docs": True, "edge_docs": False},
        "bmf_text": {**small, "model": "bmf_lda", "link": "gaussian", "M": 6, "K2": 2},
    }
    data = {k: tmp_path / f"{k}.npz" for k in ("enron_text", "twitter_text", "bmf_text")}
    st.execute("text_data", {**TEXT_P, "text_data": td}, {}, data)
    return st, data, td


def test_text_steps_on_tiny_inputs(tmp_path):
    """LFRM_LDA steps: data -> fit (wildcard tds) -> Table 2.3 / 2.4 / Fig 2.8."""
    st, data, td = tiny_text_data(tmp_path, 1)
    p = TEXT_P
    outs = {k: tmp_path / f"fit_{k}" for k in ("fit", "recovery", "trace", "timing")}
    outs["fit"], outs["recovery"] = tmp_path / "fit.npz", tmp_path / "rec.csv"
    fit = {"burnin": 3, "samples": 2}
    for kind in ("twitter_text", "enron_text"):  # enron last: its outputs feed the table
        st.execute("text_fit", {**p, "text_fit": fit}, {"data": [data[kind]]}, outs,
                   {"tds": kind})  # fmt: skip
    rec = pd.read_csv(outs["recovery"])
    assert len(rec) == 2 and rec.acc_topic.between(0, 1).all()
    ins = {"data": [data["enron_text"]], "fit": [outs["fit"]], "recovery": [outs["recovery"]]}
    st.execute("table2_3", p, ins, {"csv": tmp_path / "t3.csv", "md": tmp_path / "t3.md"})
    t = pd.read_csv(tmp_path / "t3.csv")
    assert (t.source.str.startswith("paper")).sum() == 5 and len(t) == 7
    st.execute("fig2_8", p, ins, {"png": tmp_path / "f8.png"})
    assert (tmp_path / "f8.csv").exists()
    bad = {**td, "bmf_text": {**td["bmf_text"], "K2": 0}}
    with pytest.raises(ConfigError, match="bmf_text"):
        st.execute("text_data", {**p, "text_data": bad}, {}, data)


def test_split_rhat_exact_cases():
    from latentlab.studies.drift.claims import split_rhat

    rng = np.random.default_rng(0)
    assert abs(split_rhat(rng.normal(size=(4, 2000))) - 1.0) < 0.01
    shifted = rng.normal(size=(2, 200)) + np.array([[0.0], [3.0]])
    assert split_rhat(shifted) > 1.5  # chains disagree
    trend = np.tile(np.linspace(0, 5, 200), (3, 1)) + rng.normal(size=(3, 200))
    assert split_rhat(trend) > 1.5  # one chain drifting: caught by the split
    assert split_rhat(np.full((2, 10), 3.0)) == 1.0
    assert split_rhat(np.array([[3.0] * 10, [4.0] * 10])) == float("inf")
    # by hand: halves [0, 1], [2, 3]: W = 0.5, B = 2 var([0.5, 2.5]) = 4,
    # R² = (W / 2 + B / 2) / W = 4.5
    assert split_rhat(np.array([[0.0, 1.0, 2.0, 3.0]])) == pytest.approx(np.sqrt(4.5))


def test_alpha_check_passes_on_conditional_draws_and_fails_on_a_wrong_rate():
    from latentlab.studies.drift.claims import trace_stats

    rng = np.random.default_rng(1)
    N, T, a, b = 5, 4, 3.0, 1.0
    rate = np.sum(1.0 / np.arange(1, N * T + 1)) + b
    K = rng.integers(0, 6, size=(3, 40))
    rows = lambda A: pd.DataFrame(  # noqa: E731
        [
            {"dataset": 0, "task": "f", "burnin": 20, "N": N, "T": T, "chain": c,
             "iteration": i, "K": int(K[c, i]), "alpha": float(A[c, i])}
            for c in range(3)
            for i in range(40)
        ]
    )  # fmt: skip
    _, z = trace_stats(rows(rng.gamma(K + a, 1.0 / rate)), ["dataset", "task"], a, b)
    assert abs(z) < 3
    _, z = trace_stats(rows(rng.gamma(K + a, 1.0 / (rate - 1.0))), ["dataset", "task"], a, b)
    assert z > 3  # H_NT without α_b: α too large


def test_enron_subject_line_documents(tmp_path):
    """Edge documents from subject lines: one per directed pair, a message counted once per
    recipient, reply markers and stop words dropped, words seen once dropped."""
    from latentlab.studies.drift import enron_text as et

    msgs = tmp_path / "messages.tsv"
    msgs.write_text(
        "1\tf\t915148800\tRe: gas storage\t1\n"
        "2\tf\t917827200\tFW: gas storage deal\t1\n"
        "3\tf\t920246400\tthe power meeting\t2\n"
        "4\tf\t922924800\tgas outside window\t1\n"
    )
    subjects = et.read_subjects(msgs)
    assert subjects[2] == "FW: gas storage deal"
    g = TemporalGraph(4, [0, 0, 1, 0], [JAN, FEB, MAR, APR], [0, 2, 3, 4, 5],
                      np.array([1, 2, 1, 0, 1]), event_ids=np.array([1, 2, 3, 4]),
                      actor_attrs={"name": list("abcd")}).validate("toy")  # fmt: skip
    Y, texts, rows = et.edge_texts(g, subjects, np.array([0, 1, 2]), "1999-01", "1999-03")
    assert rows == 4 and Y[0, 1] == 2 and Y[0, 2] == 1 and Y[1, 0] == 1 and Y.sum() == 4
    pairs, corpus, summ = et.tokenise(texts, ["re", "fw", "fwd"], 2, 100)
    assert corpus.vocab == ["gas", "storage"]  # 'deal', 'power', 'meeting' occur once
    data, d = et.text_network(Y, pairs, corpus, 3)
    assert d == {"edge_documents": 2, "pairs_without_words": 1, "tokens": 6}
    assert list(zip(data.snd, data.rcv, strict=True)) == [(0, 1), (0, 2)]
    bad = tmp_path / "bad.tsv"
    bad.write_text("x\tf\t1\tsubject\t1\n")
    with pytest.raises(DataError, match="line 1"):
        et.read_subjects(bad)


def test_bench_times_independent_chains_on_one_and_two_processes(tmp_path):
    st = load_study("drift")
    b = {"N": [4], "T": [3], "K": [2], "sweeps": [2], "text_N": [6], "text_K": [2],
         "par_N": [4], "par_T": [5], "par_sweeps": [6], "par_chains": [2]}  # fmt: skip
    out = tmp_path / "bench.csv"
    st.execute("bench", {"run": "t", "base_seed": 5, "threads": 1, "bench": b}, {}, {"csv": out})
    df = bench_wide(out).set_index("bench")
    one, two = df.loc["chains_1_process"], df.loc["chains_2_processes"]
    assert one.speedup == 1.0 and two.speedup == pytest.approx(one.seconds / two.seconds)
    assert (one.sweeps, one.chains, one["T"]) == (7, 2, 5)
    # the 2-process run's CPU seconds include its workers' (waited-for children)
    assert one.cpu_seconds > 0 and two.cpu_seconds > 0
    assert np.isfinite(df.load_avg_1m).all()


def test_synth_fit_datasets_and_recorded_reductions(tmp_path):
    """Table 2.1's fits use the first ``synthetic_fit.datasets`` data sets, the Fig 2.2
    recovery its own count; a figure built from the fits records the run's reductions."""
    st = load_study("drift")
    p = {"run": "t", "base_seed": 2, "threads": 1}
    net = tmp_path / "synth.npz"
    spec = {"n_datasets": 3, "N": 4, "T": 6}
    st.execute("synth_data", {**p, "synthetic": spec}, {}, {"networks": net})
    fit = {"chains": 2, "burnin": 4, "datasets": 2, "recovery_datasets": 3, "processes": 1,
           "forecast_draws": 2}  # fmt: skip
    outs = {k: tmp_path / f"s_{k}.{e}" for k, e in (("scores", "csv"), ("trace", "csv"),
            ("recovery", "csv"), ("matrices", "npz"), ("timing", "json"))}  # fmt: skip
    st.execute("synth_fit", {**p, "synthetic_fit": fit}, {"networks": [net]}, outs)
    assert sorted(pd.read_csv(outs["scores"]).dataset.unique()) == [0, 1]
    assert sorted(pd.read_csv(outs["trace"]).dataset.unique()) == [0, 1]
    assert sorted(pd.read_csv(outs["recovery"]).dataset.unique()) == [0, 1, 2]
    red = ["Table 2.1 on 2 of 3 data sets"]
    png = tmp_path / "fig2_2.png"
    st.execute("fig2_2", {**p, "reductions": red}, {"matrices": [outs["matrices"]]}, {"png": png})
    assert json.loads((tmp_path / "fig2_2.meta.json").read_text())["settings"]["reductions"] == red
    with pytest.raises(ConfigError, match=r"synthetic_fit\.datasets"):
        st.execute("synth_fit", {**p, "synthetic_fit": {**fit, "datasets": 0}},
                   {"networks": [net]}, outs)  # fmt: skip


def test_topic_match_needs_half_the_words_and_beats_shuffled_topics():
    """C2.11: a topic is found only with >= 5 of the ten words and more than topics dealt
    from the same words at random share; common words spread over topics do not count."""
    from latentlab.studies.drift.claims import topic_match

    paper = "a b c d e f g h i j"
    filler = [[f"x{t}{i}" for i in range(10)] for t in range(6)]
    rng = np.random.default_rng(0)
    # one of our topics holds 7 of the ten words: found
    ours = filler + [["a", "b", "c", "d", "e", "f", "g", "y1", "y2", "y3"]]
    k, shared, bar, q = topic_match(paper, ours, 5, 200, rng)
    assert k == 6 and len(shared) == 7 and len(shared) > bar and bar == 4.0
    # the same words spread one per topic: 1 shared, and the bar stays at 4
    spread = [[w, *f[1:]] for w, f in zip("abcdefg", filler + [filler[0]], strict=True)]
    k, shared, bar, q = topic_match(paper, spread, 5, 200, rng)
    assert len(shared) == 1 and not len(shared) > bar
    # a corpus whose topics are all made of the document's words: chance overlap is high,
    # so the bar rises above half (shuffled q95) and 6 of 10 is not enough
    dense = [list("abcdefghij") for _ in range(4)] + [["a", "b", "c", "d", "e", "f", "z1", "z2",
                                                        "z3", "z4"]]  # fmt: skip
    k, shared, bar, q = topic_match(paper, dense, 5, 200, rng)
    assert q >= 9 and bar == q


def test_chain_match_share_counts_topics_found_again_by_another_chain():
    """C2.13 across independent chains: a permuted copy matches every topic; a chain that
    merged two topics into one loses them."""
    from latentlab.studies.drift.enron_text import chain_match_share

    phi = np.eye(4)[:, :4] * 0.7 + 0.075  # four distinct topics (rows sum to 1)
    assert chain_match_share(phi, phi[[2, 0, 3, 1]], 0.4) == 1.0
    merged = phi.copy()
    merged[0] = merged[1] = (phi[0] + phi[1]) / 2
    assert chain_match_share(phi, merged, 0.4) == 0.5  # partner 0.7 away, nearest other 1.4


def test_fig2_4_late_months_pair_drift_with_each_method():
    """C2.9b: DRIFT against each other method of Fig 2.4 over the months t >= 12, paired by
    month; DRIFT above in most late months passes the one-sided t-test, below fails it."""
    from latentlab.claims.ledger import judge_order
    from latentlab.studies.drift.claims import late_months

    t = np.arange(3, 20)
    gap = np.where(t >= 12, 5.0 + (t % 3), -4.0)  # DRIFT worse early, better late
    f = pd.concat([
        pd.DataFrame({"t": t, "method": "LFRM_all", "ll": -100.0}),
        pd.DataFrame({"t": t, "method": "DRIFT", "ll": -100.0 + gap}),
    ])  # fmt: skip
    a, b, months = late_months(f, "LFRM_all", 12)
    assert months == list(range(12, 20)) and len(a) == len(b) == 8
    assert judge_order(a, b, ">", 0.0, "t0.05")[0] == "reproduced"
    assert judge_order(b, a, ">", 0.0, "t0.05")[0] == "not_reproduced"  # the counter input
    # the early months (DRIFT below) are not part of the row
    assert judge_order(*late_months(f, "LFRM_all", 3)[:2], ">", 0.0, "t0.05")[0] == (
        "not_reproduced"
    )


def test_fig2_3_best_other_leaves_out_the_naive_auc():
    from latentlab.studies.drift.claims import best_other

    s = pd.DataFrame({"method": ["Naive", "Baseline", "LFRM_last", "LFRM_all", "DRIFT"],
                      "ll": [-27.2, -27.3, -25.0, -26.0, -20.0],
                      "auc": [np.nan, 0.52, 0.70, 0.60, 0.90]})  # fmt: skip
    assert best_other(s, "ll") == (-20.0, "LFRM_last", -25.0)
    assert best_other(s, "auc") == (0.90, "LFRM_last", 0.70)


def test_fig2_6_pairs_tracking_and_underfit():
    """C2.15 / C2.15b: the pool is the most frequent pairs; a pair tracks its edges when its
    probability is higher in the months with an edge; a pair is underfit when its
    probability stays below the threshold at every month."""
    from latentlab.claims.ledger import judge, judge_order
    from latentlab.studies.drift.claims import pair_traces, tracks_edges, underfit_share
    from latentlab.studies.drift.networks import frequent_pairs

    rng = np.random.default_rng(0)
    T, N = 20, 5
    Y = np.zeros((T, N, N), np.int8)
    for i, j, rate in ((0, 1, 0.8), (0, 2, 0.6), (1, 3, 0.5), (2, 4, 0.4), (3, 4, 0.05)):
        e = rng.random(T) < rate
        Y[:, i, j] = Y[:, j, i] = e
    i, j = frequent_pairs(Y, 4)
    freq = Y[:, i, j].sum(0)
    assert list(freq) == sorted(freq, reverse=True) and (3, 4) not in set(zip(i, j, strict=True))
    good = np.where(Y == 1, 0.8, 0.1)  # follows the edges
    p, y = pair_traces(Y, good, 4)
    on, off = tracks_edges(p, y)
    assert judge_order(on, off, ">", 0.0, "t0.05")[0] == "reproduced"
    assert underfit_share(p, y, 0.5) == (0.0, 4)
    flat = np.where(Y == 1, 0.2, 0.3)  # below 0.5 everywhere, and higher without an edge
    p, y = pair_traces(Y, flat, 4)
    on, off = tracks_edges(p, y)
    assert judge_order(on, off, ">", 0.0, "t0.05")[0] == "not_reproduced"
    share, n = underfit_share(p, y, 0.5)
    assert share == 1.0 and judge(0.25, share, "le", 0.0)[0] == "not_reproduced"
    # one underfit pair of four: the document's own picture passes (1/4), half fails
    one = good.copy()
    a, b = i[0], j[0]
    one[:, a, b] = one[:, b, a] = 0.2
    share, _ = underfit_share(*pair_traces(Y, one, 4), 0.5)
    assert share == 0.25 and judge(0.25, share, "le", 0.0)[0] == "reproduced"
    assert judge(0.25, 0.5, "le", 0.0)[0] == "not_reproduced"


def test_readings_are_declared_and_consistent():
    """Issue 37: the readings parse as overrides of the study's section, each option differs,
    and the real config's settings are the published options."""
    from latentlab import readings
    from latentlab.studies.drift.readings import READINGS

    readings.check("drift")
    names = {r.name for r in READINGS}
    assert {"sample_thin", "sigma_w", "baseline_norm", "synth_ab"} <= names
    real = yaml.safe_load((ROOT / "config/real.yaml").read_text())["drift"]
    used = readings.labels("drift", real)
    assert used == {r.name: r.published for r in READINGS}
    # a changed setting is named by its option
    thin10 = json.loads(json.dumps(real))
    thin10["monthly_fit"]["thin"] = 10
    assert readings.labels("drift", thin10)["sample_thin"] == "every10"
    for r in READINGS:
        assert all(any(c.id == p.split("-")[0] or p.startswith(c.id) for c in C_SPECS)
                   for p in r.rows), r.name  # fmt: skip


def test_evidence_steps_on_tiny_inputs(tmp_path):
    """The evidence targets: the oracle forecast on tiny synthetic networks (the former
    generator given too) and the trace summary of two toy fits."""
    from latentlab.studies.drift.claims import synthetic_traces
    from latentlab.studies.drift.evidence import oracle_forecast

    st = load_study("drift")
    p = {"run": "t", "base_seed": 3, "threads": 1}
    syn = {"n_datasets": 2, "N": 6, "T": 12, "a": 0.04, "b": 0.96}
    net = tmp_path / "syn.npz"
    st.execute("synth_data", {**p, "synthetic": syn}, {}, {"networks": net})
    out = tmp_path / "evidence" / "synthetic_signal.csv"
    out.parent.mkdir()
    ev = {"oracle_draws": 50}
    st.execute("evidence_synthetic_signal", {**p, "synthetic": syn, "evidence": ev},
               {"networks": [net]}, {"csv": out})  # fmt: skip
    df = pd.read_csv(out)
    assert list(df.generator) == ["config"] * 2 + ["prior"] * 2
    assert ((df.oracle_auc >= 0) & (df.oracle_auc <= 1)).all() and (df.oracle_ll < 0).all()
    assert json.loads(out.with_suffix(".meta.json").read_text())["step"] == (
        "evidence_synthetic_signal"
    )
    # the oracle on a network it generates with certainty: W large on shared features
    Z = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    y = np.array([[0, 1, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 1, 0]])
    W = np.array([[20.0, -20.0], [-20.0, 20.0]])
    auc, ll = oracle_forecast(Z, [0.0, 0.0], [1.0, 1.0], W, -10.0, y, np.random.default_rng(0), 5)
    assert auc == 1.0 and ll > -1e-3
    tr = synthetic_traces(0.0, fits=2, chains=3, burnin=20)
    mt = synthetic_traces(10.0, fits=2, chains=3, burnin=20, seed=1).rename(
        columns={"dataset": "t"}
    )
    fs, fm = tmp_path / "s.csv", tmp_path / "m.csv"
    tr.to_csv(fs, index=False), mt.to_csv(fm, index=False)
    out = tmp_path / "evidence" / "traces.csv"
    st.execute("evidence_traces", {**p}, {"synth_trace": [fs], "monthly_trace": [fm]},
               {"csv": out})  # fmt: skip
    ev = pd.read_csv(out)
    assert list(ev.source) == ["synthetic"] * 2 + ["monthly"] * 2
    assert (ev.chains == 3).all() and (ev.iterations == 40).all()
    # K+ climbs by 10 features over the burn-in in the monthly toy fits, not in the others
    syn_, mon = ev[ev.source == "synthetic"], ev[ev.source == "monthly"]
    assert (mon.K_last - mon.K_first > 10).all() and (syn_.K_last - syn_.K_first).abs().max() < 5
    assert (mon.rhat_K > syn_.rhat_K.max()).all()


def test_golden_ledger_names_the_reading_of_every_touched_row():
    """Issue 37: the smoke ledger's ``reading`` column names, for every judged row a reading
    touches, the option the run's settings implement (the published one in smoke)."""
    from fnmatch import fnmatchcase

    from latentlab.studies.drift.readings import READINGS

    df = pd.read_csv(ROOT / "tests/golden/smoke/drift/claims.csv", keep_default_na=False)
    judged = df[df.verdict.isin(["reproduced", "not_reproduced", "inconclusive"])]
    for r in READINGS:
        hit = judged[judged.claim_id.map(lambda c, r=r: any(fnmatchcase(c, p) for p in r.rows))]
        assert len(hit), r.name
        assert hit.reading.str.contains(f"{r.name}={r.published}").all(), r.name


def test_chain_evidence_on_tiny_inputs(tmp_path):
    """C2.13's settling run: chain 0 at the fit's burn-in is the published fit (same seed,
    same swap share), the longer burn-in and the other chains are added, and a chain
    always finds its own topics again."""
    from latentlab.studies.drift.evidence import chain_rows

    st, data, _ = tiny_text_data(tmp_path, 2)
    p = TEXT_P
    fit = {"burnin": 4, "samples": 3}
    outs = {"fit": tmp_path / "fit.npz", "recovery": tmp_path / "rec.csv",
            "trace": tmp_path / "tr.csv", "timing": tmp_path / "t.json"}  # fmt: skip
    st.execute("text_fit", {**p, "text_fit": fit}, {"data": [data["twitter_text"]]}, outs,
               {"tds": "twitter_text"})  # fmt: skip
    published = pd.read_csv(outs["recovery"]).groupby("dataset").swap_share.first()
    out = tmp_path / "evidence" / "text_chains.csv"
    out.parent.mkdir()
    chains = {"kinds": ["twitter_text"], "chains": 2, "burnin_factor": 2}
    st.execute("evidence_text_chains", {**p, "text_fit": fit, "text_chains": chains},
               {k: [v] for k, v in data.items()}, {"csv": out})  # fmt: skip
    ev = pd.read_csv(out)
    assert len(ev) == 2 * 2 * 2 and set(ev.burnin) == {4, 8} and set(ev.source) == {"twitter_text"}
    first = ev[(ev.chain == 0) & (ev.burnin == 4)].set_index("dataset").swap_share
    pd.testing.assert_series_equal(first, published, check_names=False)
    assert ev[ev.chain == 0].match_share_vs_chain0.isna().all()
    assert ev[ev.chain == 1].matched_by_every_chain.isna().all()
    assert ev.match_share_vs_chain0.dropna().between(0, 1).all()
    with pytest.raises(ConfigError, match="kinds"):
        st.execute("evidence_text_chains", {**p, "text_chains": {"kinds": ["nope"]}},
                   {k: [v] for k, v in data.items()}, {"csv": out})  # fmt: skip
    # the rule by hand: a chain's own topics, and a permutation of them, are all found;
    # flat topics, 0.9 from each (its nearest other topic lies 1.2 away), are not
    phi = np.array([[0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1], [0.1, 0.1, 0.1, 0.7]])
    flat = np.full((3, 4), 0.25)
    fits = [(None, phi, [phi, phi]), (None, phi[[2, 0, 1]], []), (None, flat, [])]
    rows = chain_rows(fits, 0.5, lambda f: [0.0])
    assert rows[1]["match_share_vs_chain0"] == 1.0 and rows[2]["match_share_vs_chain0"] == 0.0
    assert rows[0]["matched_by_every_chain"] == 0.0 and np.isnan(rows[0]["match_share_vs_chain0"])
    assert chain_rows(fits[:2], 0.5, lambda f: [0.0])[0]["matched_by_every_chain"] == 1.0


CHAINS = ROOT / "published/real/drift/evidence/text_chains.csv"


@pytest.mark.skipif(not CHAINS.exists(), reason="no published chain evidence")
def test_c213_synthetic_cause_quotes_the_chain_evidence():
    """Issue 37: C2.13 on the logistic text networks was open until its settling run (3x
    the burn-in, 3 chains). The published chain 0 at the fit's burn-in is the published fit
    (its swap shares are the ledger's); at 3x the swaps persist on 2 of 5 data sets, the
    other kinds never swap there, and the cause quotes these numbers."""
    from latentlab.claims.ledger import read_claims
    from latentlab.studies.drift.causes import CAUSES

    ev = pd.read_csv(CHAINS)
    first = ev[ev.chain == 0].set_index(["source", "burnin", "dataset"]).swap_share
    led = read_claims(ROOT / "published/real/drift/claims.csv")
    row = led[(led.claim_id == "C2.13") & led.dataset.str.contains("logistic")].iloc[0]
    shares = [float(x) for x in re.findall(r"\d\.\d\d", row.note.split("per data set: ")[1])[:5]]
    assert first.loc["twitter_text", 3000].tolist() == pytest.approx(shares)
    late = first.loc["twitter_text", 9000]
    assert (late > 0).sum() == 2 and late.max() == pytest.approx(0.57)
    every = ev[ev.chain == 0].set_index(["source", "burnin", "dataset"]).matched_by_every_chain
    assert sorted(every.loc["twitter_text", 9000].round(2))[:2] == [0.17, 0.67]
    for kind in ("enron_text", "bmf_text"):
        at = ev[(ev.source == kind) & (ev.burnin == 9000)]
        assert (at.swap_share == 0).all() and (at.matched_by_every_chain.dropna() == 1).all()
    [cause] = [c for c in CAUSES if c.claim == "C2.13" and c.dataset == "synthetic*"]
    assert cause.cause == "substitute" and row.cause == "substitute"
    for q in ("0.45", "0.57", "0.32", "0.40", "0.67", "0.17"):
        assert q in cause.evidence


@pytest.mark.skipif(not (ROOT / "published/real/drift/evidence/enron_chains.csv").exists(),
                    reason="no published chain evidence")  # fmt: skip
def test_c213_enron_cause_quotes_the_chain_evidence():
    """C2.13 on the Enron subject lines: the published fit's second chain at 3000 finds the
    ledger's 0.70 of the topics; no chain swaps within its samples at either burn-in, the
    chains still disagree at 3x the burn-in, and the cause (ambiguity: how the document
    verified it is not said) quotes these numbers."""
    from latentlab.claims.ledger import read_claims
    from latentlab.studies.drift.causes import CAUSES

    ev = pd.read_csv(ROOT / "published/real/drift/evidence/enron_chains.csv")
    led = read_claims(ROOT / "published/real/drift/claims.csv")
    row = led[(led.claim_id == "C2.13") & led.dataset.str.startswith("enron")].iloc[0]
    share = ev[(ev.burnin == 3000) & (ev.chain == 1)].match_share_vs_chain0.iloc[0]
    assert share == pytest.approx(float(row.our_value)) == pytest.approx(0.70)
    assert (ev.swap_share == 0).all() and set(ev.burnin) == {3000, 9000}
    late = ev[ev.burnin == 9000]
    assert late.matched_by_every_chain.dropna().iloc[0] == pytest.approx(0.60)
    assert sorted(late.match_share_vs_chain0.dropna()) == pytest.approx([0.65, 0.80])
    [cause] = [c for c in CAUSES if c.claim == "C2.13" and c.dataset == "enron*"]
    assert cause.cause == row.cause == "ambiguity"
    for q in ("0.70 / 0.80", "0.65 / 0.80", "0.65, 0.60"):
        assert q in cause.evidence


@pytest.mark.skipif(not (ROOT / "published/real/drift/readings/baseline_norm.csv").exists(),
                    reason="no published sweep")  # fmt: skip
def test_c28_lfrm_all_misses_under_both_baseline_readings():
    """The baseline_norm sweep on real: its published option (density) gives the ledger's
    C2.8 rows, and C2.8-LFRM_all misses under both options, so it stays open for
    sample_thin alone, and its evidence quotes the sweep."""
    from latentlab.claims.ledger import read_claims
    from latentlab.studies.drift.causes import CAUSES

    sw = pd.read_csv(ROOT / "published/real/drift/readings/baseline_norm.csv")
    led = read_claims(ROOT / "published/real/drift/claims.csv").set_index("claim_id")
    c28 = sw[sw.claim_id.str.startswith("C2.8")].set_index(["claim_id", "option"])
    for cid in ("C2.8-Naive", "C2.8-LFRM_last", "C2.8-LFRM_all", "C2.8-DRIFT"):
        assert c28.loc[(cid, "density"), "our_value"] == led.loc[cid, "our_value"]
        assert c28.loc[(cid, "density"), "verdict"] == led.loc[cid, "verdict"]
    assert set(c28.loc["C2.8-LFRM_all"].verdict) == {"not_reproduced"}
    [cause] = [c for c in CAUSES if c.claim == "C2.8-LFRM_all"]
    assert cause.cause == "open" and "baseline_norm.csv" in cause.evidence
    assert "-238.4" in cause.evidence and "Left: sample_thin" in cause.evidence
