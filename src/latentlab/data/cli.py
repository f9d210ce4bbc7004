"""``latentlab data ...``: the data-layer commands the rules in ``rules/data.smk`` call."""

from __future__ import annotations

import argparse
import json
import logging
import sys

from latentlab.cliutil import add_params_arg

log = logging.getLogger("latentlab.data")


def _fetch(args) -> int:
    from latentlab.data.fetch import fetch

    fetch(args.name, args.resources, args.mirror)
    return 0


def _prepare(args) -> int:
    from latentlab.data.fetch import stamp_path
    from latentlab.data.prepare import prepare
    from latentlab.errors import DataError

    if not stamp_path(args.resources, args.name).exists() and not args.no_stamp:
        raise DataError(
            stamp_path(args.resources, args.name),
            f"{args.name} has not been fetched: run `latentlab data fetch {args.name}` first",
        )
    prepare(args.name, args.resources, args.out_dir, args.params)
    return 0


def _split(args) -> int:
    from latentlab.data.splits import make_split

    info = make_split(args.dataset, args.kind, args.pct, args.seed, args.out, args.repeats)
    log.info("split %s%d seed %d: %s", args.kind, args.pct, args.seed, info)
    return 0


def _local(args) -> int:
    from latentlab.data.local import prepare_local

    s = prepare_local(args.name, args.params, args.out_dir)
    log.info("local %s: %s", args.name, {k: v for k, v in s.items() if k.startswith("n_")})
    return 0


def _synth(args) -> int:
    from latentlab.data.synthetic import synth
    from latentlab.errors import ConfigError

    section = args.params.get("synthetic", args.params)
    if args.name in section:
        section = section[args.name]
    if not section:
        raise ConfigError(f"synthetic.{args.name}", "no parameters given")
    seed = args.seed if args.seed is not None else int(args.params.get("base_seed", 0))
    synth(args.name, section, seed, args.out_dir)
    return 0


def _summary(args) -> int:
    from latentlab.data.prepare import load_dataset, summarize

    for path in args.paths:
        if str(path).endswith(".json"):
            with open(path) as f:
                s = json.load(f)
        else:
            s = summarize(load_dataset(path))
        keep = {k: v for k, v in s.items() if k.startswith("n_") or k in ("kind", "name")}
        print(f"{path}: {json.dumps(keep, sort_keys=True)}")
    return 0


def _list(args) -> int:
    from latentlab.data import registry

    for name in registry.external_names():
        ds = registry.REGISTRY[name]
        print(f"{name:14s} {ds.kind:15s} {ds.title}")
    for name in registry.SYNTHETIC:
        print(f"{name:14s} {'synthetic':15s} generated (config `synthetic:` section)")
    return 0


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "data",
        help="fetch, parse, split and generate datasets",
        description="Data layer: fetch a registered dataset (checksummed, from the mirror or "
        "upstream), prepare its canonical form and summary.json, make seeded splits, "
        "generate synthetic corpora. `latentlab data list` shows the datasets.",
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    f = sub.add_parser(
        "fetch",
        help="copy (mirror) or download a dataset's files into the resources folder, verified",
        description="Fetch every file of a registered dataset into RESOURCES. With --mirror, "
        "copy from that folder; else download from upstream. Pinned sha256s are verified; a "
        "mismatch stops with the file, the expected and the actual hash. Writes "
        "RESOURCES/.fetched/NAME.json when done.",
    )
    f.add_argument("name", help="dataset name (see `latentlab data list`)")
    f.add_argument("--resources", default="resources", help="download cache (default resources)")
    f.add_argument("--mirror", default=None, help="folder holding the same relative paths")
    f.set_defaults(func=_fetch)

    r = sub.add_parser(
        "prepare",
        help="parse a fetched dataset into its canonical type + summary.json",
        description="Parse a fetched dataset, check its pinned content hash and published "
        "counts exactly, and write OUT_DIR/dataset.npz and OUT_DIR/summary.json.",
    )
    r.add_argument("name")
    r.add_argument("--resources", default="resources")
    r.add_argument("--out-dir", required=True)
    r.add_argument("--no-stamp", action="store_true", help="do not require the fetch stamp")
    add_params_arg(r)
    r.set_defaults(func=_prepare)

    s = sub.add_parser(
        "split",
        help="seeded train/test split of a canonical dataset",
        description="kind tokens: within-document token split (pct 80 = document "
        "completion, 50 = halves); docs: document/row-level split; tasks: per-task splits "
        "repeated --repeats times with seeds SEED + r. See latentlab.data.splits.",
    )
    s.add_argument("dataset", help="canonical dataset file (dataset.npz)")
    s.add_argument("--kind", required=True, choices=["tokens", "docs", "tasks"])
    s.add_argument("--pct", type=int, required=True, help="training share in percent")
    s.add_argument("--seed", type=int, required=True)
    s.add_argument("--repeats", type=int, default=10, help="tasks only: number of splits")
    s.add_argument("--out", required=True)
    s.set_defaults(func=_split)

    lo = sub.add_parser(
        "local",
        help="parse a user's corpus (data.local) into the canonical form + summary.json",
        description="Parse the corpus described by --params (one data.local entry: format "
        "uci|ldac|mm|text, path, vocab, ...) into OUT_DIR/dataset.npz and "
        "OUT_DIR/summary.json (counts, content hash, settings). See latentlab.data.local.",
    )
    lo.add_argument("name")
    lo.add_argument("--out-dir", required=True)
    add_params_arg(lo)
    lo.set_defaults(func=_local)

    y = sub.add_parser(
        "synth",
        help="generate a synthetic corpus with known truth",
        description="Generate synth_lda or synth_hdp from --params (the config's "
        "`synthetic:` section, or the generator's own parameters) into OUT_DIR "
        "(dataset.npz, truth.npz, summary.json).",
    )
    y.add_argument("name", choices=["synth_lda", "synth_hdp"])
    y.add_argument("--out-dir", required=True)
    y.add_argument("--seed", type=int, default=None, help="default: params base_seed")
    add_params_arg(y)
    y.set_defaults(func=_synth)

    m = sub.add_parser(
        "summary",
        help="print the counts of summary.json files or canonical datasets",
        description="Print the counts (n_*) of each summary.json or dataset.npz given.",
    )
    m.add_argument("paths", nargs="+")
    m.set_defaults(func=_summary)

    ls = sub.add_parser("list", help="list the registered datasets")
    ls.set_defaults(func=_list)

    p.set_defaults(func=lambda a: p.print_help(sys.stdout) or 2)


__all__ = ["register", "argparse"]
