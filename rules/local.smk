# A user's own corpora (config data.local): parsed into the canonical form + summary.json
# under results/{run}/data/NAME/, like a registry dataset, so data_path(NAME) works.
# Logic: latentlab.data.local (`python -m latentlab data local --help`).
from latentlab.data import registry as _reg
from latentlab.data.local import check_spec as _check_local, input_files as _local_files
from latentlab.errors import ConfigError as _ConfigError


def local_spec(name):
    """data.local.NAME with "{mirror}" in its paths replaced by the data mirror."""
    spec = dict(LOCAL[name])
    for key in ("path", "vocab"):
        if key in spec and "{mirror}" in spec[key]:
            if not MIRROR:
                raise _ConfigError(
                    f"data.local.{name}.{key}",
                    "uses {mirror} but no mirror is set (LATENTLAB_MIRROR or data.mirror)",
                )
            spec[key] = spec[key].replace("{mirror}", str(MIRROR))
    return spec


LOCAL = DATA["local"]
for _name in LOCAL:
    if _name in _reg.REGISTRY or _name in _reg.SYNTHETIC:
        raise _ConfigError(
            f"data.local.{_name}", "this name is a registered dataset; choose another"
        )
    _check_local(_name, LOCAL[_name])

for _name in LOCAL:

    rule:
        name:
            f"local_{_name}"
        input:
            # input functions: a {mirror} path is resolved (or refused) only when a
            # target needs this corpus, so runs that do not use it need no mirror
            lambda w, n=_name: _local_files(local_spec(n)),
        output:
            dataset=f"{DATA_OUT}/{_name}/dataset.npz",
            summary=f"{DATA_OUT}/{_name}/summary.json",
        log:
            f"{LOGS}/data/local_{_name}.log",
        benchmark:
            f"{BENCH}/data/local_{_name}.tsv"
        threads: 1
        resources:
            mem_mb=4000,
            runtime=30,
        params:
            name=_name,
            outdir=lambda w, output: os.path.dirname(output.summary),
            spec=lambda w, n=_name: json.dumps(local_spec(n), sort_keys=True),
        shell:
            "python -m latentlab data local {params.name} --out-dir {params.outdir} "
            "--params {params.spec:q} > {log} 2>&1"
