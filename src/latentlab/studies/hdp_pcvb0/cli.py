"""``python -m latentlab hdp_pcvb0 <step>``: the steps the rules in rules/hdp_pcvb0.smk call."""

from __future__ import annotations

from latentlab.cliutil import add_params_arg


def _meta(params: dict, **extra) -> dict:
    keep = {
        k: params.get(k)
        for k in ("run", "base_seed", "options", "perplexity", "knn", "links", "bench", "claims")
    }
    return {"study": "hdp_pcvb0", "document": "seed 001", **keep, **extra}


def _prepare(a):
    from latentlab.studies.hdp_pcvb0.experiments import prepare

    prepare(a.params, a.dataset, a.input, a.out)


def _perplexity(a):
    from latentlab.studies.hdp_pcvb0.experiments import run_perplexity

    run_perplexity(a.params, a.dataset, a.config, a.input, a.out)


def _knn(a):
    from latentlab.studies.hdp_pcvb0.experiments import run_knn

    run_knn(a.params, a.dataset, a.config, a.input, a.out)


def _links(a):
    from latentlab.studies.hdp_pcvb0.experiments import run_links

    run_links(a.params, a.dataset, a.config, a.input, a.out)


def _init(a):
    from latentlab.studies.hdp_pcvb0.experiments import run_init_sensitivity

    run_init_sensitivity(a.params, a.dataset, a.input, a.out)


def _gibbs(a):
    from latentlab.studies.hdp_pcvb0.experiments import run_gibbs

    run_gibbs(a.params, a.dataset, a.input, a.out)


def _bench(a):
    from latentlab.studies.hdp_pcvb0.bench import run_bench

    run_bench(a.params, a.input, a.out)


def _figure(a):
    from latentlab.studies.hdp_pcvb0 import figures

    meta = _meta(a.params, figure=a.figure, inputs=a.inputs)
    if a.figure in ("fig2", "fig3"):
        fn = getattr(figures, a.figure)
        fn(figures.load_runs(a.inputs), a.png, a.csv, meta)
    elif a.figure == "fig4":
        figures.fig4(figures.load_runs(a.inputs), a.png, a.csv, meta)
    elif a.figure == "fig5":
        figures.fig5(figures.load_runs(a.inputs), a.png, a.csv, meta)
    elif a.figure == "fig1":
        ppl = figures.perplexity_table(figures.load_runs(a.inputs))
        figures.fig1(a.bench, ppl, a.png, a.csv, meta)


def _claims(a):
    from latentlab.studies.hdp_pcvb0.claims import build

    build(a.params, a.perplexity, a.knn, a.links, a.init, a.gibbs, a.bench, a.out)


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "hdp_pcvb0",
        help="Sato, Kurihara & Nakagawa 2012: PCVB0 for HDP-LDA (seed 001)",
        description="Steps of the hdp_pcvb0 study (rules/hdp_pcvb0.smk).",
    )
    sub = p.add_subparsers(dest="step", metavar="STEP", required=True)

    def leaf(name, func, help_, dataset=True, config=False, inp=True):
        q = sub.add_parser(name, help=help_)
        add_params_arg(q)
        if dataset:
            q.add_argument("--dataset", required=True)
        if config:
            q.add_argument("--config", required=True, help="method_prior, e.g. pcvb0_AA")
        if inp:
            q.add_argument("--input", default=None)
        q.add_argument("--out", required=True)
        q.set_defaults(func=func)
        return q

    leaf("prepare", _prepare, "write a dataset (synthetic draw or subsample of canonical data)")
    leaf("perplexity", _perplexity, "Fig 2/3 runs of one configuration", config=True)
    leaf("knn", _knn, "Fig 4 runs of one configuration", config=True)
    leaf("links", _links, "Fig 5 runs of one configuration", config=True)
    leaf("init", _init, "claim C2: PCVB0 from scaled initial hyperparameters")
    leaf("gibbs", _gibbs, "collapsed Gibbs cross-check and claim C14")
    leaf("bench", _bench, "bench.csv: time, memory, LOC, libraries", dataset=False)
    q = sub.add_parser("figure", help="draw one figure from run results")
    add_params_arg(q)
    q.add_argument("--figure", required=True, choices=["fig1", "fig2", "fig3", "fig4", "fig5"])
    q.add_argument("--inputs", nargs="+", required=True)
    q.add_argument("--bench", default=None)
    q.add_argument("--png", required=True)
    q.add_argument("--csv", required=True)
    q.set_defaults(func=_figure)
    q = sub.add_parser("claims", help="claims.csv (C1–C16)")
    add_params_arg(q)
    for name in ("perplexity", "knn", "links"):
        q.add_argument(f"--{name}", nargs="+", required=True)
    q.add_argument("--init", required=True)
    q.add_argument("--gibbs", required=True)
    q.add_argument("--bench", required=True)
    q.add_argument("--out", required=True)
    q.set_defaults(func=_claims)
