"""Study hdp_pcvb0: evaluation protocols (Eq 38 k-NN, Eq 39 MAP) and a tiny end-to-end run of
every driver, figure and the claims ledger."""

import json

import numpy as np
import pandas as pd
import pytest

from latentlab.claims.ledger import read_claims
from latentlab.errors import DataError
from latentlab.models.hdp import CONFIGS
from latentlab.studies.hdp_pcvb0 import evaluate as ev


def test_hellinger_matches_definition():
    rng = np.random.default_rng(0)
    a, b = rng.dirichlet(np.ones(5), 3), rng.dirichlet(np.ones(5), 4)
    d = ev.hellinger_sq(a, b)
    brute = ((np.sqrt(a)[:, None] - np.sqrt(b)[None]) ** 2).sum(2)
    np.testing.assert_allclose(d, brute, atol=1e-12)


def test_knn_vote_and_tie_break():
    dist = np.array([[0.1, 0.2, 0.3, 0.4]])
    labels = np.array([1, 0, 0, 1])
    assert ev.knn_predict(dist, labels, 1)[0] == 1
    assert ev.knn_predict(dist, labels, 3)[0] == 0
    # k = 4: a 2-2 vote; class 1 has the smaller total distance (0.5 < 0.55)
    assert ev.knn_predict(np.array([[0.1, 0.2, 0.35, 0.4]]), labels, 4)[0] == 1
    with pytest.raises(DataError):
        ev.knn_predict(dist, labels, 0)


def test_average_precision():
    assert ev.average_precision(np.array([3.0, 2.0, 1.0]), np.array([1, 0, 1], bool)) == (
        pytest.approx((1 + 2 / 3) / 2)
    )
    # ties are pessimistic
    assert ev.average_precision(np.array([1.0, 1.0]), np.array([1, 0], bool)) == 0.5


def test_link_task_protocol():
    from latentlab.models.hdp.synthetic import mixed_membership_graph

    e = mixed_membership_graph(n_nodes=300, n_comm=5, mean_degree=30, seed=1)
    t = ev.link_task(e, 300, min_links=20, test_frac=0.2, seed=3)
    deg = np.bincount(e.ravel(), minlength=300)
    assert np.all(deg[t.queries] > 20) and len(t.queries) == (deg > 20).sum()
    bags = t.corpus
    nb = {(int(a), int(b)) for a, b in e} | {(int(b), int(a)) for a, b in e}
    for j, pos, neg in zip(t.queries, t.positives, t.negatives, strict=True):
        words, _ = bags.doc(j)
        assert not set(pos) & set(words)  # held-out links removed from the bag
        assert all((j, int(p)) in nb for p in pos)
        assert all((j, int(x)) not in nb and x != j for x in neg)
        assert len(neg) == len(words)
        for p in pos:  # reverse direction removed as well
            assert j not in set(bags.doc(int(p))[0])
    with pytest.raises(DataError, match="no node has more than"):
        ev.link_task(e, 300, min_links=10_000)


@pytest.fixture(scope="module")
def params():
    return {
        "run": "test",
        "base_seed": 5,
        "threads": 1,
        "configs": list(CONFIGS),
        "options": {"fp_max_iter": 50},
        "datasets": {
            "toy": {"source": "synthetic", "generator": "hdp", "N": 40, "V": 60, "T_true": 8,
                    "mean_len": 30, "seed": 1},
            "lab": {"source": "synthetic", "generator": "labelled", "N": 60, "V": 60,
                    "T_true": 8, "n_classes": 3, "mean_len": 30, "seed": 2},
            "g": {"source": "synthetic", "generator": "graph", "kind": "graph", "n_nodes": 120,
                  "n_comm": 4, "mean_degree": 30, "seed": 3},
        },
        "perplexity": {"datasets": ["toy"], "T": [3, 5], "trace_T": 5, "runs": 2,
                       "iterations": 6},
        "knn": {"datasets": ["lab"], "T": [4], "runs": 1, "iterations": 4, "fold_in_iters": 3,
                "k": [7, 1]},
        "links": {"datasets": ["g"], "T": [4], "runs": 1, "iterations": 4},
        "init_sensitivity": {"dataset": "toy", "T": 4, "iterations": 4},
        "gibbs": {"dataset": "toy", "T": 4, "iterations": 5},
        "bench": {"dataset": "toy", "T": [4], "iterations": 2, "libraries": [],
                  "library_seconds": 0.2},
    }  # fmt: skip


def test_end_to_end(tmp_path, params):
    from latentlab.studies.hdp_pcvb0 import bench, claims, experiments, figures

    d = tmp_path
    for name in ("toy", "lab", "g"):
        experiments.prepare(params, name, None, str(d / f"{name}.npz"))
    ppl, knn, links = [], [], []
    for c in CONFIGS:
        ppl.append(str(d / f"ppl_{c}.json"))
        experiments.run_perplexity(params, "toy", c, str(d / "toy.npz"), ppl[-1])
        knn.append(str(d / f"knn_{c}.json"))
        experiments.run_knn(params, "lab", c, str(d / "lab.npz"), knn[-1])
        links.append(str(d / f"links_{c}.json"))
        experiments.run_links(params, "g", c, str(d / "g.npz"), links[-1])
    r = json.loads(open(ppl[0]).read())
    assert len(r["runs"]) == 4 and all(np.isfinite(x["final_perplexity"]) for x in r["runs"])
    assert len(r["runs"][-1]["trace"]) == 6 and r["runs"][0]["trace"] == []
    experiments.run_init_sensitivity(params, "toy", str(d / "toy.npz"), str(d / "init.json"))
    experiments.run_gibbs(params, "toy", str(d / "toy.npz"), str(d / "gibbs.json"))
    # bench without child processes: fake the per-config rows, run the LOC count for real
    loc = bench.lines_of_code()
    assert loc["pcvb0"] < loc["cvb"]
    rows = [{"kind": "method", "config": c, "method": c.split("_")[0], "prior": c.split("_")[1],
             "T": 4, "state_mb": 1.0 + ("cvb" in c) + (c.startswith("pcvb_")),
             "rss_above_baseline_mb": 1.0, "sec_per_iter": 0.1, "loc": loc[c.split("_")[0]]}
            for c in CONFIGS]  # fmt: skip
    pd.DataFrame(rows).to_csv(d / "bench.csv", index=False)
    runs = figures.load_runs(ppl)
    figures.fig2(runs, str(d / "fig2.png"), str(d / "fig2.csv"), {})
    f3 = figures.fig3(runs, str(d / "fig3.png"), str(d / "fig3.csv"), {})
    assert set(f3.panel) == {"vs_T", "vs_iteration"}
    figures.fig4(figures.load_runs(knn), str(d / "fig4.png"), str(d / "fig4.csv"), {})
    figures.fig5(figures.load_runs(links), str(d / "fig5.png"), str(d / "fig5.csv"), {})
    figures.fig1(str(d / "bench.csv"), figures.perplexity_table(runs), str(d / "fig1.png"),
                 str(d / "fig1.csv"), {})  # fmt: skip
    out = d / "claims.csv"
    claims.build(params, ppl, knn, links, str(d / "init.json"), str(d / "gibbs.json"),
                 str(d / "bench.csv"), str(out))  # fmt: skip
    df = read_claims(out)
    ids = set(df.claim_id)
    for c in ("C1", "C2", "C3a", "C4a", "C5", "C6a", "C7", "C8", "C9", "C10", "C11a", "C12a",
              "C13", "C14", "C15a", "C15b", "C16"):  # fmt: skip
        assert c in ids, c
    assert set(df[df.dataset == "WSJ"].verdict) == {"not_testable"}


def test_prepare_subsample_and_vocab_cut(tmp_path):
    from latentlab.data.corpus import BowCorpus
    from latentlab.studies.hdp_pcvb0.experiments import prepare

    rng = np.random.default_rng(0)
    dense = rng.poisson(0.3, (50, 40)) * (np.arange(40) < 30)
    dense[:, 0] += 5  # the most frequent word
    c = BowCorpus.from_dense(dense, labels=np.arange(50) % 3, label_names=["a", "b", "c"])
    src = tmp_path / "src.npz"
    c.save(src)
    p = {"base_seed": 1, "datasets": {"x": {"source": "any", "n_docs": 20, "vocab_top": 10}}}
    prepare(p, "x", str(src), str(tmp_path / "x.npz"))
    out = BowCorpus.load(tmp_path / "x.npz")
    assert out.n_docs == 20 and out.n_vocab == 10 and "w0" in out.vocab
    assert out.labels is not None and len(out.labels) == 20
