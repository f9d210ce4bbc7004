# Data layer: fetch (checksummed, from data.mirror or upstream) -> prepare (canonical type +
# summary.json with the published counts checked exactly) -> seeded splits; synthetic corpora.
# Logic lives in latentlab.data (`python -m latentlab data --help`).
import os.path

from latentlab.data import registry as _registry

DATA = config["data"]
RESOURCES = DATA.get("resources", "resources")
MIRROR = DATA.get("mirror")
DATASETS = list(DATA.get("datasets", []))
SYNTHETIC = config.get("synthetic", {})

# summary.json of every dataset in data.datasets: the `all` rule builds them.
DATA_SUMMARIES = [f"{DATA_OUT}/{n}/summary.json" for n in DATASETS]

# Memory (MB) and runtime (min) of the prepare step, by dataset (default 2000 MB, 10 min).
_PREPARE_RES = {
    "newsgroups": (4000, 15),
    "scene15": (3000, 20),
    "uci_enron": (8000, 30),
    "uci_nytimes": (32000, 120),
    "uci_pubmed": (128000, 600),
}


for _name in _registry.external_names():
    _mem, _rt = _PREPARE_RES.get(_name, (2000, 10))

    rule:
        name:
            f"fetch_{_name}"
        output:
            f"{RESOURCES}/.fetched/{_name}.json",
        log:
            f"{LOGS}/data/fetch_{_name}.log",
        benchmark:
            f"{BENCH}/data/fetch_{_name}.tsv"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=120,
        params:
            name=_name,
            resources=lambda w, output: os.path.dirname(os.path.dirname(output[0])),
            mirror=f"--mirror {MIRROR}" if MIRROR else "",
        shell:
            "python -m latentlab data fetch {params.name} --resources {params.resources} "
            "{params.mirror} > {log} 2>&1"

    rule:
        name:
            f"prepare_{_name}"
        input:
            f"{RESOURCES}/.fetched/{_name}.json",
        output:
            dataset=f"{DATA_OUT}/{_name}/dataset.npz",
            summary=f"{DATA_OUT}/{_name}/summary.json",
        log:
            f"{LOGS}/data/prepare_{_name}.log",
        benchmark:
            f"{BENCH}/data/prepare_{_name}.tsv"
        threads: 1
        resources:
            mem_mb=_mem,
            runtime=_rt,
        params:
            name=_name,
            resources=lambda w, input: os.path.dirname(os.path.dirname(input[0])),
            outdir=lambda w, output: os.path.dirname(output.summary),
            options=json.dumps(DATA.get(_name, {}) if _name == "scene15" else {}),
        shell:
            "python -m latentlab data prepare {params.name} --resources {params.resources} "
            "--out-dir {params.outdir} --params {params.options:q} > {log} 2>&1"


for _name in _registry.SYNTHETIC:

    rule:
        name:
            f"data_{_name}"
        output:
            dataset=f"{DATA_OUT}/{_name}/dataset.npz",
            truth=f"{DATA_OUT}/{_name}/truth.npz",
            summary=f"{DATA_OUT}/{_name}/summary.json",
        log:
            f"{LOGS}/data/{_name}.log",
        benchmark:
            f"{BENCH}/data/{_name}.tsv"
        threads: 1
        resources:
            mem_mb=2000,
            runtime=30,
        params:
            name=_name,
            outdir=lambda w, output: os.path.dirname(output.summary),
            seed=config["base_seed"]
            + int(SYNTHETIC.get(_name, {}).get("seed_offset", 0)),
            p=json.dumps(SYNTHETIC.get(_name, {}), sort_keys=True),
        shell:
            "python -m latentlab data synth {params.name} --seed {params.seed} "
            "--out-dir {params.outdir} --params {params.p:q} > {log} 2>&1"
