# compare: the replicated methods side by side on one corpus (data.local or any prepared
# dataset). `snakemake --cores 2 compare --config compare='{dataset: NAME, K: [20]}'`.
# Thin rules: all logic is in src/latentlab/studies/compare/ (python -m latentlab compare ...).
from latentlab.data.local import vocab_size_hint as _vocab_hint
from latentlab.errors import ConfigError as _CmpConfigError
from latentlab.settings import parse_settings as _parse_settings
from latentlab.studies.compare.study import (
    ReportSettings as _CmpReport,
    coerce_cli as _cmp_coerce,
)

CMP_OUT = f"{OUT}/compare"
CMP_LOG = f"{LOGS}/compare"
CMP_BENCH = f"{BENCH}/compare"
CMP_SPLIT = ("train", "test", "observed", "scored")


def _cmp_settings():
    """The compare section (values from --config re-read as YAML), checked at start-up;
    None when the config has no compare section."""
    if not config.get("compare"):
        return None
    config["compare"] = _cmp_coerce(config["compare"])
    # every step's settings: ranges and allowed values (methods, K >= 2) included
    _study_shape("compare").check_config(config["compare"])
    keys = [
        k
        for k in _study_shape("compare").config_keys("table")
        if k in config["compare"]
    ]
    s = _parse_settings(_CmpReport, {k: config["compare"][k] for k in keys}, "compare")
    _cmp_check_K(s)
    return s


def _cmp_check_K(s):
    """K larger than the vocabulary stops the run before any job, when the vocabulary
    size is known without parsing (a vocabulary file, or a summary.json already built).
    """
    W = None
    summary = data_path(s.dataset, "summary.json")
    if os.path.exists(summary):
        with open(summary) as f:
            W = json.load(f)["n_vocab"]
    elif s.dataset in LOCAL and ("{mirror}" not in str(LOCAL[s.dataset]) or MIRROR):
        # (a {mirror} path with no mirror set is refused when a job needs the corpus)
        W = _vocab_hint(local_spec(s.dataset))
    if W is not None and max(s.K) > W:
        raise _CmpConfigError(
            "compare.K",
            f"K = {max(s.K)} is larger than the vocabulary of {s.dataset} (W = {W})",
        )


with runconfig.documented("compare"):
    CMP = _cmp_settings()


def cmp_fits(dataset, ext):
    if CMP is None:
        raise _CmpConfigError("compare", "no compare section in the config")
    return expand(
        f"{CMP_OUT}/{dataset}/fits/{{method}}_K{{K}}.{ext}", method=CMP.methods, K=CMP.K
    )


def cmp_outputs(dataset):
    d = f"{CMP_OUT}/{dataset}"
    return [f"{d}/{t}.{e}" for t in ("table", "topwords") for e in ("csv", "md")] + [
        f"{d}/{f}.{e}" for f in ("heldout_time", "time_memory") for e in ("png", "csv")
    ]


rule compare:
    input:
        lambda w: cmp_outputs(CMP.dataset) if CMP else cmp_fits(None, None),


rule compare_split:
    input:
        dataset=data_path("{dataset}"),
        summary=data_path("{dataset}", "summary.json"),
    output:
        **{p: f"{CMP_OUT}/{{dataset}}/split/{p}.npz" for p in CMP_SPLIT},
        info=f"{CMP_OUT}/{{dataset}}/split/info.json",
    log:
        f"{CMP_LOG}/{{dataset}}/split.log",
    benchmark:
        f"{CMP_BENCH}/{{dataset}}/split.tsv"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        json=step_params("compare", "split"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab compare split --params {params.json:q} {params.io} > {log} 2>&1"


rule compare_fit:
    input:
        **{p: f"{CMP_OUT}/{{dataset}}/split/{p}.npz" for p in CMP_SPLIT},
        info=f"{CMP_OUT}/{{dataset}}/split/info.json",
    output:
        json=f"{CMP_OUT}/{{dataset}}/fits/{{method}}_K{{K}}.json",
        npz=f"{CMP_OUT}/{{dataset}}/fits/{{method}}_K{{K}}.npz",
    log:
        f"{CMP_LOG}/{{dataset}}/fit_{{method}}_K{{K}}.log",
    benchmark:
        f"{CMP_BENCH}/{{dataset}}/fit_{{method}}_K{{K}}.tsv"
    wildcard_constraints:
        method="scvb0|svb|cvb0|cgs|hdp|ctm",
        K=r"\d+",
    threads: 1
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        json=lambda w: step_params("compare", f"fit_{w.method}"),
        io=lambda w, input, output: io_args(input, output, {"K": w.K}),
    shell:
        "python -m latentlab compare fit_{wildcards.method} --params {params.json:q} "
        "{params.io} > {log} 2>&1"


rule compare_report:
    input:
        fits=lambda w: cmp_fits(w.dataset, "json"),
        npz=lambda w: cmp_fits(w.dataset, "npz"),
        info=f"{CMP_OUT}/{{dataset}}/split/info.json",
        train=f"{CMP_OUT}/{{dataset}}/split/train.npz",
    output:
        csv=f"{CMP_OUT}/{{dataset}}/{{step}}.csv",
        md=f"{CMP_OUT}/{{dataset}}/{{step}}.md",
    log:
        f"{CMP_LOG}/{{dataset}}/{{step}}.log",
    benchmark:
        f"{CMP_BENCH}/{{dataset}}/{{step}}.tsv"
    wildcard_constraints:
        step="table|topwords",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: step_params("compare", w.step),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab compare {wildcards.step} --params {params.json:q} {params.io} "
        "> {log} 2>&1"


rule compare_figure:
    input:
        fits=lambda w: cmp_fits(w.dataset, "json"),
        info=f"{CMP_OUT}/{{dataset}}/split/info.json",
    output:
        png=f"{CMP_OUT}/{{dataset}}/{{fig}}.png",
        csv=f"{CMP_OUT}/{{dataset}}/{{fig}}.csv",
    log:
        f"{CMP_LOG}/{{dataset}}/{{fig}}.log",
    benchmark:
        f"{CMP_BENCH}/{{dataset}}/{{fig}}.tsv"
    wildcard_constraints:
        fig="heldout_time|time_memory",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: step_params("compare", w.fig),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab compare {wildcards.fig} --params {params.json:q} {params.io} "
        "> {log} 2>&1"
