# Data layer: fetch (checksummed, from data.mirror or upstream) -> prepare (canonical type +
# summary.json with the published counts checked exactly); synthetic corpora. Splits are
# drawn by the steps that use them (latentlab.data.splits, seeded through ctx.seed).
# Logic lives in latentlab.data (`python -m latentlab data --help`).
import os.path

from latentlab.data import registry as _registry

DATA = config["data"]
RESOURCES = DATA["resources"]
MIRROR = DATA["mirror"]
DATASETS = list(DATA["datasets"])
SYNTHETIC = config["synthetic"]

# summary.json of every dataset in data.datasets: the `all` rule builds them.
DATA_SUMMARIES = [f"{DATA_OUT}/{n}/summary.json" for n in DATASETS]

for _name in _registry.external_names():

    rule:
        name:
            f"fetch_{_name}"
        output:
            stamp=f"{RESOURCES}/.fetched/{_name}.json",
            # every file the fetch writes (a tree's manifest), so a job that reads one
            # declares it as an input
            files=[f"{RESOURCES}/{f.path}" for f in _registry.get(_name).files],
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
            resources=lambda w, output: os.path.dirname(os.path.dirname(output.stamp)),
            mirror=f"--mirror {MIRROR}" if MIRROR else "",
        shell:
            "python -m latentlab data fetch {params.name} --resources {params.resources} "
            "{params.mirror} > {log} 2>&1"


# a dataset with a canonical form (every one but sun397, which a study reads as fetched)
for _name in _registry.prepared_names():
    _mem, _rt = _registry.prepare_resources(_name)

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
            options=json.dumps(DATA["scene15"] if _name == "scene15" else {}),
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
            seed=_registry.synthetic_params(SYNTHETIC, _name, config["base_seed"])[0],
            p=json.dumps(
                _registry.synthetic_params(SYNTHETIC, _name, config["base_seed"])[1],
                sort_keys=True,
            ),
        shell:
            "python -m latentlab data synth {params.name} --seed {params.seed} "
            "--out-dir {params.outdir} --params {params.p:q} > {log} 2>&1"
