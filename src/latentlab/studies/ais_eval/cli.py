"""``python -m latentlab ais_eval <step>``: the steps of the ais_eval study (Foulds 2014,
ch. 5), one per rule of ``rules/ais_eval.smk``. Every step takes ``--params`` (the
study's config section plus run, base_seed, threads) and explicit input/output paths.

Corpus arguments are ``ROLE:DATASET:PATH`` where ROLE is the document's corpus the dataset
stands in for (``nips`` or ``acl``).
"""

from __future__ import annotations

import argparse
import logging
import zlib
from pathlib import Path

from latentlab.cliutil import add_params_arg

log = logging.getLogger("latentlab.ais_eval")

DOCUMENT = "Foulds 2014 (seed 004), ch. 5"


def _seed(p: dict, *tags) -> int:
    s = int(p.get("base_seed", 0))
    for t in tags:
        s += zlib.crc32(str(t).encode()) % 100_003
    return s


def _triples(items):
    out = []
    for it in items or []:
        role, ds, path = it.split(":", 2)
        out.append((role, ds, path))
    return out


def _meta(p, **extra):
    return {"document": DOCUMENT, "run": p.get("run"), "base_seed": p.get("base_seed"), **extra}


def _kind(p, ds):
    spec = next((c for c in p.get("corpora", {}).values() if c.get("dataset") == ds), {})
    return "synthetic" if spec.get("kind") == "synthetic" else "substitute"


# ----------------------------------------------------------------------------- handlers


def cmd_synth(a):
    from latentlab.studies.ais_eval.synth import lda_corpus

    p = a.params
    spec = p["corpora"][a.role]
    corpus, truth = lda_corpus(spec["synthetic"], _seed(p, "synth", a.role))
    corpus.save(a.out)
    log.info("synthetic corpus %s: %s", spec["dataset"], corpus.summary())


def cmd_train(a):
    import numpy as np

    from latentlab.data.corpus import BowCorpus
    from latentlab.studies.ais_eval import core

    p = a.params
    corpus = BowCorpus.load(a.corpus).validate(a.corpus)
    arrays = core.train(corpus, p, _seed(p, "train", a.role))
    tmp = Path(a.out).with_name(Path(a.out).name + ".tmp.npz")
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(tmp, **arrays)
    tmp.replace(a.out)


def _experiment(a, fn_name):
    from latentlab.outputs import write_csv, write_json
    from latentlab.studies.ais_eval import core

    p = a.params
    models = core.load_models(a.models)
    df = getattr(core, fn_name)(models, p, _seed(p, fn_name, a.role), int(p.get("threads", 1)))
    write_csv(df, a.out)
    write_json(
        _meta(p, step=fn_name, settings=p.get(fn_name), models=models["info"], role=a.role),
        Path(a.out).with_suffix(".meta.json"),
    )


def cmd_perturbed(a):
    _experiment(a, "perturbed")


def cmd_symasym(a):
    _experiment(a, "symasym")


def cmd_iteration(a):
    _experiment(a, "iteration")


def cmd_ntemps(a):
    import pandas as pd

    from latentlab.outputs import write_csv
    from latentlab.studies.ais_eval import core, report

    p = a.params
    models = core.load_models(a.models)
    df = core.ntemps(models, p, _seed(p, "ntemps", a.role), int(p.get("threads", 1)))
    write_csv(df, a.raw)
    report.fig5_6(
        pd.read_csv(a.raw),
        a.png,
        a.csv,
        _meta(p, figure="5.6", settings=p["ntemps"], role=a.role, models=models["info"]),
    )


def _load_raws(items):
    import pandas as pd

    return {(r, ds): pd.read_csv(path) for r, ds, path in _triples(items)}


def cmd_table(a):
    from latentlab.studies.ais_eval import report

    p = a.params
    raws = _load_raws(a.raw)
    fn = {"5.1": report.table5_1, "5.2": report.table5_2, "5.3": report.table5_3}[a.table]
    step = "symasym" if a.table == "5.3" else "perturbed"
    fn(raws, a.csv, a.md, _meta(p, table=a.table, settings=p.get(step)))


def cmd_scatter(a):
    import pandas as pd

    from latentlab.studies.ais_eval import report

    p = a.params
    (role, ds, path) = _triples([a.raw])[0]
    report.fig_scatter(
        pd.read_csv(path),
        f"Fig {a.figure}: {role.upper()} stand-in {ds}, perplexity ratio learned/perturbed",
        a.png,
        a.csv,
        _meta(p, figure=a.figure, settings=p.get("perturbed"), dataset=ds),
    )


def cmd_iterfig(a):
    import pandas as pd

    from latentlab.studies.ais_eval import report

    p = a.params
    (role, ds, path) = _triples([a.raw])[0]
    what = "held-out log-likelihood" if a.kind == "ll" else "run-to-run variance"
    report.fig_iteration(
        pd.read_csv(path),
        a.kind,
        f"Fig {a.figure}: {what} per training iteration, {role.upper()} stand-in {ds}",
        a.png,
        a.csv,
        _meta(p, figure=a.figure, settings=p.get("iteration"), dataset=ds),
    )


def cmd_fig5_11(a):
    from latentlab.studies.ais_eval import core, report

    p = a.params
    (role, ds, path) = _triples([a.models])[0]
    m = core.load_models(path)
    report.fig5_11(
        m["stats"],
        f"Fig 5.11: topics per CGS iteration, {role.upper()} stand-in {ds}",
        a.png,
        a.csv,
        _meta(p, figure="5.11", settings=p.get("train"), dataset=ds, models=m["info"]),
    )


def cmd_bench(a):
    import pandas as pd

    from latentlab.outputs import write_csv
    from latentlab.studies.ais_eval.bench import kernel_throughput, wall_times

    p = a.params
    b = p.get("bench", {})
    rows = kernel_throughput(
        K=int(b.get("K", 50)), N=int(b.get("doc_len", 200)), n_temps=int(b.get("n_temps", 400))
    )
    rows += wall_times(a.tsv or [])
    write_csv(pd.DataFrame(rows), a.out)


def cmd_claims(a):
    import pandas as pd

    from latentlab.claims.ledger import Ledger
    from latentlab.studies.ais_eval import claims, core

    p = a.params
    ex = p.get("exact", {})
    exact = claims.exact_checks(
        _seed(p, "exact"), int(ex.get("n_temps", 5000)), int(ex.get("S", 20))
    )
    log.info("exact checks: %s", exact)

    def by_ds(items):
        return {ds: pd.read_csv(path) for _, ds, path in _triples(items)}

    nt = None
    if a.ntemps:
        (_, ds, path) = _triples([a.ntemps])[0]
        nt = pd.read_csv(path)
        nt.attrs["dataset"] = ds
    stats = {}
    for _, ds, path in _triples(a.models):
        m = core.load_models(path)
        stats[ds] = pd.DataFrame(
            m["stats"],
            columns=["iteration", "entropy", "log_prior", "alpha_sum", "beta", "optimized"],
        )
    dss = {ds for _, ds, _ in _triples((a.perturbed or []) + (a.models or []))}
    tp = p["train"]
    opt_iter = (int(tp["optimize_burn_in"]) // int(tp["optimize_interval"]) + 1) * int(
        tp["optimize_interval"]
    )
    ledger = claims.build(
        Ledger("ais_eval", DOCUMENT),
        exact,
        by_ds(a.perturbed),
        by_ds(a.symasym),
        nt,
        by_ds(a.iteration),
        stats,
        {ds: _kind(p, ds) for ds in dss},
        opt_iter,
    )
    ledger.write(a.out)


# ----------------------------------------------------------------------------- parser


def register(subparsers) -> None:
    g = subparsers.add_parser("ais_eval", help="Foulds 2014 ch. 5: likelihood estimators")
    sub = g.add_subparsers(dest="command", metavar="COMMAND")

    def leaf(name, fn, help_):
        s = sub.add_parser(name, help=help_)
        add_params_arg(s)
        s.set_defaults(func=fn)
        return s

    s = leaf("synth", cmd_synth, "synthetic LDA corpus with asymmetric alpha")
    s.add_argument("--role", required=True)
    s.add_argument("--out", required=True)
    s = leaf("train", cmd_train, "train learned / perturbed / symmetric models + snapshots")
    s.add_argument("--role", required=True)
    s.add_argument("--corpus", required=True)
    s.add_argument("--out", required=True)
    for name, fn, h in (
        ("perturbed", cmd_perturbed, "learned vs perturbed topics (Tables 5.1/5.2)"),
        ("symasym", cmd_symasym, "asymmetric vs symmetric alpha (Table 5.3)"),
        ("iteration", cmd_iteration, "iteration-AIS vs baselines per snapshot (Figs 5.7-5.10)"),
    ):
        s = leaf(name, fn, h)
        s.add_argument("--role", required=True)
        s.add_argument("--models", required=True)
        s.add_argument("--out", required=True)
    s = leaf("ntemps", cmd_ntemps, "Fig 5.6: estimate vs number of temperatures")
    s.add_argument("--role", required=True)
    s.add_argument("--models", required=True)
    s.add_argument("--raw", required=True)
    s.add_argument("--png", required=True)
    s.add_argument("--csv", required=True)
    s = leaf("table", cmd_table, "Tables 5.1, 5.2, 5.3 from raw results")
    s.add_argument("--table", choices=["5.1", "5.2", "5.3"], required=True)
    s.add_argument("--raw", nargs="+", required=True, help="ROLE:DATASET:PATH ...")
    s.add_argument("--csv", required=True)
    s.add_argument("--md", required=True)
    s = leaf("scatter", cmd_scatter, "Figs 5.4/5.5")
    s.add_argument("--figure", required=True)
    s.add_argument("--raw", required=True)
    s.add_argument("--png", required=True)
    s.add_argument("--csv", required=True)
    s = leaf("iterfig", cmd_iterfig, "Figs 5.7-5.10")
    s.add_argument("--figure", required=True)
    s.add_argument("--kind", choices=["ll", "var"], required=True)
    s.add_argument("--raw", required=True)
    s.add_argument("--png", required=True)
    s.add_argument("--csv", required=True)
    s = leaf("fig5_11", cmd_fig5_11, "Fig 5.11: topic entropy / log prior per iteration")
    s.add_argument("--models", required=True)
    s.add_argument("--png", required=True)
    s.add_argument("--csv", required=True)
    s = leaf("bench", cmd_bench, "kernel throughput + rule wall times -> bench.csv")
    s.add_argument("--tsv", nargs="*", default=[])
    s.add_argument("--out", required=True)
    s = leaf("claims", cmd_claims, "claims.csv for every chapter-5 claim")
    for opt in ("perturbed", "symasym", "iteration", "models"):
        s.add_argument(f"--{opt}", nargs="*", default=[])
    s.add_argument("--ntemps", default=None)
    s.add_argument("--out", required=True)
    g.set_defaults(func=lambda a: g.print_help() or 2)
    _ = argparse  # keep the import for type readers
