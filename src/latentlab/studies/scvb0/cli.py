"""``python -m latentlab scvb0 <step>``: the drivers behind rules/scvb0.smk (Foulds 2014,
chapter 4). Every step takes ``--params`` (the config section + run, base_seed,
threads) and writes the outputs it is given."""

from __future__ import annotations

import logging
from pathlib import Path

from latentlab.cliutil import add_params_arg

log = logging.getLogger("latentlab.scvb0")

CAPTIONS = {
    "fig4_1": "Robbins-Monro on h(w)=sin(w)+N(0,1): w converges to the root pi",
    "fig4_2": "Stochastic gradient ascent on sin(w): w converges to the maximum pi/2",
    "fig4_8": "Mean and variance of a CVB count variable, gamma ~ Beta(0.1, 0.1)",
    "fig4_9": "Chebyshev bound Var[n]/(0.1 E[n])^2 on a 10% deviation",
    "fig4_10": "L1 error of the CVB0 and CVB approximations to E[log(n+alpha)]",
}


def _meta(p, **kw):
    return {"params": p, **kw}


def _csv(png: str) -> Path:
    return Path(png).with_suffix(".csv")


def _seed(p) -> int:
    return int(p["base_seed"])


# ---------------------------------------------------------------- demos
def cmd_demo(args):
    from latentlab.outputs import write_figure
    from latentlab.plotting import figure

    from . import demos

    p, fig, out = args.params, args.fig, args.out
    q = p["demos"]
    seed = _seed(p)
    if fig in ("fig4_1", "fig4_2"):
        if fig == "fig4_1":
            df = demos.robbins_monro(int(q["n_iter"]), float(q["w0_rm"]), seed, q["step_a"])
            target, col, lab = 3.141592653589793, "h_w", "h(w) = sin(w)"
        else:
            df = demos.stochastic_gradient_ascent(
                int(q["n_iter"]), float(q["w0_sgd"]), seed, q["step_a"]
            )
            target, col, lab = 3.141592653589793 / 2, "f_w", "f(w) = sin(w)"
        f, ax = figure(3, 1, width=5, height=2.2)
        import numpy as np

        x = np.linspace(0, 2 * np.pi, 200)
        ax[0].plot(x, np.sin(x))
        ax[0].axvline(target, ls="--", c="k")
        ax[0].set(xlabel="w", ylabel="sin(w)")
        ax[1].plot(df.iteration, df.w)
        ax[1].axhline(target, ls="--", c="k")
        ax[1].set(xlabel="iteration", ylabel="w")
        ax[2].plot(df.iteration, df[col])
        ax[2].set(xlabel="iteration", ylabel=lab)
        write_figure(f, out, df, _csv(out), _meta(p, caption=CAPTIONS[fig], rho="a/t"))
    elif fig in ("fig4_8", "fig4_9"):
        df = demos.count_moments(int(q["n_words"]), int(q["repeats"]), seed)
        f, ax = figure()
        if fig == "fig4_8":
            ax.plot(df.n_words, df["mean"], label="mean E[n]")
            ax.plot(df.n_words, df.variance, label="variance Var[n]")
            ax.set(xlabel="number of words", ylabel="value")
            keep = df[
                ["n_words", "mean", "variance", "mean_minus_variance", "mean_avg", "variance_avg"]
            ]
        else:
            ax.plot(df.n_words, df.chebyshev_bound, label="one draw (as the thesis)")
            ax.plot(df.n_words, df.chebyshev_bound_avg, label=f"mean of {q['repeats']} draws")
            ax.set(xlabel="number of words", ylabel="Var/(0.1 E)^2", yscale="log")
            keep = df[["n_words", "chebyshev_bound", "chebyshev_bound_avg"]].dropna()
        ax.legend()
        write_figure(f, out, keep, _csv(out), _meta(p, caption=CAPTIONS[fig]))
    elif fig == "fig4_10":
        import numpy as np

        r = p["fig4_10"]
        counts = np.unique(np.round(np.geomspace(1, int(r["max_words"]), int(r["n_points"]))))
        df = demos.approximation_errors(
            counts.astype(int), int(r["repeats"]), int(r["mc_draws"]), float(r["alpha"]), seed
        )
        f, ax = figure(1, 2)
        for a, ys in zip(ax, ("semilogx", "loglog"), strict=True):
            for c, lab in (
                ("cvb0_err_mc", "CVB0 vs MC"),
                ("cvb_err_mc", "CVB vs MC"),
                ("cvb0_err_exact", "CVB0 vs exact"),
                ("cvb_err_exact", "CVB vs exact"),
            ):
                getattr(a, ys)(df.n_words, df[c], label=lab, ls="-" if "mc" in c else "--")
            a.set(xlabel="number of words", ylabel="mean L1 error")
        ax[0].legend()
        write_figure(f, out, df, _csv(out), _meta(p, caption=CAPTIONS[fig]))


# ---------------------------------------------------------------- corpora
def cmd_corpus(args):
    from .data import load_dataset

    spec = args.params["datasets"][args.dataset]
    c, _ = load_dataset(spec, None, _seed(args.params) + int(spec.get("seed_offset", 0)))
    c.metadata["dataset"] = args.dataset
    c.save(args.out)
    log.info("%s: D=%d W=%d C=%d", args.dataset, c.n_docs, c.n_vocab, c.n_tokens)


def cmd_curves(args):
    from latentlab.outputs import write_table

    from .curves import run_curves

    df, info = run_curves(args.params, args.dataset, args.corpus, _seed(args.params))
    write_table(df, args.out, meta=_meta(args.params, **info))


def cmd_plot_curves(args):
    import json

    import pandas as pd

    from latentlab.outputs import write_figure
    from latentlab.plotting import figure

    df = pd.read_csv(args.curves)
    info = json.loads(Path(args.curves).with_suffix(".meta.json").read_text())
    x = "train_seconds" if args.xaxis == "time" else "docs_seen"
    f, ax = figure(width=5, height=3.5)
    for m, s in df.groupby("method", sort=False):
        ax.plot(s[x], s.heldout_ll, marker=".", label=m)
    ax.set(
        xscale="log",
        xlabel="training time (s)" if x == "train_seconds" else "documents processed",
        ylabel="held-out log-likelihood per token",
        title=f"{info.get('dataset')} (K={info.get('K')}, {info.get('data_kind')})",
    )
    ax.legend()
    cap = (
        f"Document-completion held-out LL vs {'time' if x == 'train_seconds' else 'documents'}"
        f"; dataset {info.get('dataset')} ({info.get('data_kind')})."
    )
    write_figure(f, args.out, df, _csv(args.out), _meta(args.params, caption=cap, source=info))


def cmd_fig4_7(args):
    from latentlab.outputs import write_figure
    from latentlab.plotting import figure

    from .curves import run_fig4_7

    df, info = run_fig4_7(args.params, args.corpus, _seed(args.params))
    f, ax = figure(width=5, height=3.5)
    for m, s in df.groupby("method", sort=False):
        ax.plot(s.train_seconds, s.heldout_ll, marker=".", label=m)
    ax.set(xscale="log", xlabel="training time (s)", ylabel="held-out log-likelihood per token")
    ax.legend()
    write_figure(
        f,
        args.out,
        df,
        _csv(args.out),
        _meta(args.params, caption="SCVB0 on all documents vs batch VB on subsets", **info),
    )


def cmd_table(args):
    from latentlab.data.corpus import BowCorpus
    from latentlab.outputs import write_table

    from .data import heldout_split
    from .topics import fixed_budget_topics

    p = args.params
    q = p[args.table]
    corpus = BowCorpus.load(args.corpus)
    train, _, n_empty = heldout_split(corpus, p["heldout_frac"], None, _seed(p) + 1)
    topics, runs = fixed_budget_topics(p, q, train, _seed(p))
    g = runs.groupby("method").mean(numeric_only=True)
    for col in ("docs_processed", "docs_per_second", "umass_mean"):
        topics[col + "_avg_runs"] = topics.method.map(g[col])
    kind = p["datasets"][q["dataset"]]["kind"]
    meta = _meta(
        p,
        dataset=q["dataset"],
        data_kind=kind,
        empty_docs_skipped=n_empty,
        coherence="UMass on the training corpus (proxy for the human study)",
        note="time-budgeted: documents processed depend on the machine",
    )
    out = Path(args.out)
    write_table(topics, out, out.with_suffix(".md"), meta=meta)
    write_table(runs, out.with_name(out.stem + "_runs.csv"), meta=meta)


def cmd_bench(args):
    import pandas as pd

    from latentlab.data.corpus import BowCorpus
    from latentlab.evaluation.heldout import split_halves
    from latentlab.outputs import write_table

    from .bench import compare_libraries, run_bench
    from .data import heldout_split

    p = args.params
    q = p["bench"]
    corpora = {}
    for spec in args.corpus:
        name, path = spec.split("=", 1)
        kind = p["datasets"][name]["kind"]
        corpora[name] = (BowCorpus.load(path), kind)
    df, peaks = run_bench(p, corpora, _seed(p))
    comp = q.get("compare")
    if comp:
        c, kind = corpora[comp["dataset"]]
        train, test, _ = heldout_split(c, p["heldout_frac"], None, _seed(p) + 1)
        rows = compare_libraries(p, comp, train, split_halves(test, _seed(p) + 2), _seed(p))
        cmp = pd.DataFrame(rows)
        cmp.insert(0, "dataset", comp["dataset"])
        cmp.insert(1, "data_kind", kind)
        df = pd.concat([df, cmp], ignore_index=True)
    write_table(
        df, args.out, Path(args.out).with_suffix(".md"), meta=_meta(p, peaks=peaks), allow_nan=True
    )


def cmd_claims(args):
    from .claims import build

    inputs = dict(s.split("=", 1) for s in args.inputs)
    L = build(args.params, inputs, _seed(args.params))
    df = L.write(args.out)
    log.info("\n%s", df[["claim_id", "dataset", "our_value", "verdict"]].to_string())


def register(subparsers) -> None:
    parser = subparsers.add_parser("scvb0", help="Foulds 2014 ch. 4: SCVB0 vs SVB")
    sub = parser.add_subparsers(dest="step", metavar="STEP")

    def leaf(name, func, help_):
        sp = sub.add_parser(name, help=help_)
        add_params_arg(sp)
        sp.add_argument("--out", required=True)
        sp.set_defaults(func=func)
        return sp

    sp = leaf("demo", cmd_demo, "Figs 4.1, 4.2, 4.8, 4.9, 4.10")
    sp.add_argument("--fig", required=True, choices=list(CAPTIONS))
    sp = leaf("corpus", cmd_corpus, "generate a synthetic LDA corpus of the config")
    sp.add_argument("--dataset", required=True)
    sp = leaf("curves", cmd_curves, "train SCVB0 + SVB variants with held-out checkpoints")
    sp.add_argument("--dataset", required=True)
    sp.add_argument("--corpus", required=True)
    sp = leaf("plot-curves", cmd_plot_curves, "Figs 4.3-4.6 from a curves CSV")
    sp.add_argument("--curves", required=True)
    sp.add_argument("--xaxis", choices=["time", "docs"], required=True)
    sp = leaf("fig4_7", cmd_fig4_7, "Fig 4.7: SCVB0 vs batch VB on subsets")
    sp.add_argument("--corpus", required=True)
    sp = leaf("table", cmd_table, "Tables 4.4 / 4.5: topics after a fixed time budget")
    sp.add_argument("--table", required=True, choices=["table4_4", "table4_5"])
    sp.add_argument("--corpus", required=True)
    sp = leaf("bench", cmd_bench, "bench.csv")
    sp.add_argument("--corpus", nargs="+", required=True, help="name=path ...")
    sp = leaf("claims", cmd_claims, "claims.csv")
    sp.add_argument("--inputs", nargs="+", required=True, help="key=path ...")
