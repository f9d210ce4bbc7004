# Study iwtm (seed 003, Waters PhD 2014, chs. 3-7): infinite-word topic models.
# Logic: latentlab.studies.iwtm (python -m latentlab iwtm --help).
# (imported here, not taken from rules/data.smk: a ladder rung includes this file alone)
from latentlab.data import registry as iwtm_registry
from latentlab.studies.iwtm import parts as iwtm_parts

IWTM = f"{OUT}/iwtm"
IWTM_CFG = config["iwtm"]
# ch4/ch5/semi are single-threaded (numba kernels, one BLAS call at a time matters
# less than running the jobs side by side): threads 1 lets two of them share 2 cores.
# bench has threads 2: it reports the CAVI iteration with 1 and with 2 threads.
# the registry's parsed settings (latentlab.studies.iwtm.study), so no default is repeated here
IWTM_STUDY = _study_shape("iwtm")
IWTM_DS = list(IWTM_STUDY.settings("claims", IWTM_CFG).datasets)
# cluster resources (mem_mb, runtime minutes) per step: iwtm.resources (study.Resources);
# the figure, table and claims jobs read CSVs: 1000 MB, 10 minutes
IWTM_RES = IWTM_STUDY.settings("rules", IWTM_CFG).resources
IWTM_FIGS = [
    "fig4_1",
    "fig4_2",
    "fig4_3",
    "fig5_1",
    "fig5_2",
    "fig5_3",
    "fig5_4",
    "fig6_1",
    "fig6_2",
    "fig6_3",
    "fig7_1",
    "fig7_3",
    "fig7_4",
    "fig7_5",
    "fig7_6",
]
IWTM_TABLES = ["table4_1", "sec5_6_1", "table7_1"]

STUDY_FIGURES["iwtm"] = [f"{IWTM}/{f}.png" for f in IWTM_FIGS]


def iwtm_part_files(step, ds):
    """The part files of ``step`` on dataset ``ds`` (latentlab.studies.iwtm.parts): one
    ``iwtm_part`` job each, collected by the step's own rule."""
    names = iwtm_parts.NAMES[step](IWTM_STUDY.settings(step, IWTM_CFG))
    return [f"{IWTM}/parts/{step}_{ds}/{n}.npz" for n in names]


def iwtm_part_key(w):
    """The part's resource key (latentlab.studies.iwtm.parts.resource_key)."""
    s = IWTM_STUDY.settings(w.step, IWTM_CFG)
    return iwtm_parts.resource_key(w.step, w.part, s)


def iwtm_res(key):
    """(mem_mb, runtime) of resource key ``key``: the run's cost table (config `costs`),
    else iwtm.resources.<key>."""
    return cost_resources("iwtm", key, getattr(IWTM_RES, key))


def iwtm_part_needs(w):
    return iwtm_parts.needs(w.step, w.part, IWTM_STUDY.settings(w.step, IWTM_CFG))


def iwtm_part_input(w):
    """A part reads its dataset (the iwtm data, or the SUN set of the sun step) and, for a
    fold-in, the state its fit wrote."""
    if w.step == "sun" and w.dataset != "syn_iwtm":
        out = {"data": f"{IWTM}/sun/{w.dataset}.npz"}
    else:
        out = {"data": f"{IWTM}/data/{w.dataset}.npz"}
    for name, ps in iwtm_part_needs(w).items():
        out[name] = [f"{IWTM}/parts/{w.step}_{w.dataset}/{p}.npz" for p in ps]
    return out


def iwtm_data_inputs(w):
    """A 15-Scene subset reads the images its manifest lists (fetch_scene15's output)."""
    if w.dataset == "syn_iwtm":
        return {}
    return {"manifest": f"{RESOURCES}/{iwtm_registry.get('scene15').files[0].path}"}


rule iwtm:
    input:
        [f"{IWTM}/{f}.png" for f in IWTM_FIGS],
        [f"{IWTM}/{t}.csv" for t in IWTM_TABLES],
        f"{IWTM}/claims.csv",
        f"{IWTM}/bench.csv",


rule iwtm_data:
    input:
        unpack(iwtm_data_inputs),
    output:
        npz=f"{IWTM}/data/{{dataset}}.npz",
        meta=f"{IWTM}/data/{{dataset}}.json",
    log:
        f"{LOGS}/iwtm/data_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/data_{{dataset}}.tsv"
    threads: THREADS
    resources:
        mem_mb=iwtm_res("data")[0],
        runtime=iwtm_res("data")[1],
    params:
        json=step_params("iwtm", "data"),
        io=lambda w, input, output: io_args(input, output, w),
    shell:
        "python -m latentlab iwtm data --params {params.json:q} {params.io} > {log} 2>&1"


# One part of a fanned-out step (latentlab.studies.iwtm.parts): per (T, n_train, seed) of
# ch4, per (n_train, seed) of ch5, per seed of scene8 / ivi / pareback / sun, per
# (rho, seed) of svi, per (N_total, seed) of semi, per (seed, learner) of active. A
# long fit checkpoints beside its output (<part>.npz.ckpt): a rerun of a killed job
# continues from it.
rule iwtm_part:
    input:
        unpack(iwtm_part_input),
    output:
        part=f"{IWTM}/parts/{{step}}_{{dataset}}/{{part}}.npz",
    log:
        f"{LOGS}/iwtm/parts/{{step}}_{{dataset}}/{{part}}.log",
    benchmark:
        f"{BENCH}/iwtm/parts/{{step}}_{{dataset}}/{{part}}.tsv"
    wildcard_constraints:
        step="ch4|ch5|scene8|semi|svi|ivi|active|pareback|sun",
        dataset="syn_iwtm|scene13|scene8|sun397|scene15",
        part="[A-Za-z0-9.\-_]+",
    threads: 1
    resources:
        mem_mb=lambda w: iwtm_res(iwtm_part_key(w))[0],
        runtime=lambda w: iwtm_res(iwtm_part_key(w))[1],
    params:
        json=lambda w: step_params("iwtm", w.step),
        io=lambda w, input, output: io_args(input, output, {"part": w.part}),
    shell:
        "python -m latentlab iwtm {wildcards.step}_part --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_exp:
    input:
        parts=lambda w: iwtm_part_files(w.chapter, w.dataset),
        meta=f"{IWTM}/data/{{dataset}}.json",
    output:
        csv=f"{IWTM}/{{chapter}}_{{dataset}}.csv",
        extra=f"{IWTM}/{{chapter}}_{{dataset}}.npz",
    log:
        f"{LOGS}/iwtm/{{chapter}}_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/{{chapter}}_{{dataset}}.tsv"
    wildcard_constraints:
        chapter="ch4|ch5",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", w.chapter),
        out=lambda w, output: f"--output csv={output.csv} "
        + ("confusion" if w.chapter == "ch4" else "beta")
        + f"={output.extra}",
        parts=lambda w, input: io_args({"parts": input.parts, "meta": input.meta}, {}),
    shell:
        "python -m latentlab iwtm {wildcards.chapter} --params {params.json:q} "
        "{params.parts} {params.out} > {log} 2>&1"


rule iwtm_figure:
    input:
        ch4=expand(f"{IWTM}/ch4_{{ds}}.csv", ds=IWTM_DS),
        ch5=expand(f"{IWTM}/ch5_{{ds}}.csv", ds=IWTM_DS),
        confusion=expand(f"{IWTM}/ch4_{{ds}}.npz", ds=IWTM_DS),
        beta=expand(f"{IWTM}/ch5_{{ds}}.npz", ds=IWTM_DS),
        semi=expand(f"{IWTM}/semi_{{ds}}.csv", ds=IWTM_DS),
    output:
        png=report(
            f"{IWTM}/{{fig}}.png",
            caption="../report/iwtm/ch4_5.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/{{fig}}.csv",
    log:
        f"{LOGS}/iwtm/{{fig}}.log",
    benchmark:
        f"{BENCH}/iwtm/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig4_[12]|fig5_[0-9]",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", w.fig),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm {wildcards.fig} --params {params.json:q} {params.io} > {log} 2>&1"


# Fig 4.3: Gibbs IWTM on 8-scene at T = 100 (iwtm.scene8.dataset; smoke: syn_iwtm)
S8_DS = IWTM_STUDY.settings("scene8", IWTM_CFG).scene8.dataset


rule iwtm_scene8:
    input:
        parts=iwtm_part_files("scene8", S8_DS),
        meta=f"{IWTM}/data/{S8_DS}.json",
    output:
        csv=f"{IWTM}/scene8_{S8_DS}.csv",
        confusion=f"{IWTM}/scene8_{S8_DS}.npz",
    log:
        f"{LOGS}/iwtm/scene8_{S8_DS}.log",
    benchmark:
        f"{BENCH}/iwtm/scene8_{S8_DS}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "scene8"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm scene8 --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure43:
    input:
        scene8=f"{IWTM}/scene8_{S8_DS}.csv",
        confusion=f"{IWTM}/scene8_{S8_DS}.npz",
    output:
        png=report(
            f"{IWTM}/fig4_3.png",
            caption="../report/iwtm/fig4_3.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/fig4_3.csv",
    log:
        f"{LOGS}/iwtm/fig4_3.log",
    benchmark:
        f"{BENCH}/iwtm/fig4_3.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "fig4_3"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm fig4_3 --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_semi:
    input:
        parts=lambda w: iwtm_part_files("semi", w.dataset),
    output:
        csv=f"{IWTM}/semi_{{dataset}}.csv",
    log:
        f"{LOGS}/iwtm/semi_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/semi_{{dataset}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", "semi"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm semi --params {params.json:q} {params.io} > {log} 2>&1"


# chs. 6-7: SVI vs CAVI (Fig 6.1), IVI vs IVI-NO-EXTEND vs scratch (Fig 7.3, Table 7.1)
rule iwtm_svi:
    input:
        parts=lambda w: iwtm_part_files("svi", w.dataset),
    output:
        csv=f"{IWTM}/svi_{{dataset}}.csv",
    log:
        f"{LOGS}/iwtm/svi_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/svi_{{dataset}}.tsv"
    wildcard_constraints:
        dataset="[A-Za-z0-9_]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "svi"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm svi --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_ivi:
    input:
        parts=lambda w: iwtm_part_files("ivi", w.dataset),
    output:
        csv=f"{IWTM}/ivi_{{dataset}}.csv",
        trace=f"{IWTM}/ivi_{{dataset}}.trace.csv",
    log:
        f"{LOGS}/iwtm/ivi_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/ivi_{{dataset}}.tsv"
    wildcard_constraints:
        dataset="[A-Za-z0-9_]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "ivi"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm ivi --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure67:
    input:
        svi=expand(f"{IWTM}/svi_{{ds}}.csv", ds=IWTM_DS),
        ivi_trace=expand(f"{IWTM}/ivi_{{ds}}.trace.csv", ds=IWTM_DS),
    output:
        png=report(
            f"{IWTM}/{{fig}}.png",
            caption="../report/iwtm/ch6_7.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/{{fig}}.csv",
    log:
        f"{LOGS}/iwtm/{{fig}}.log",
    benchmark:
        f"{BENCH}/iwtm/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig6_1|fig7_3",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", w.fig),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm {wildcards.fig} --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure62:
    input:
        svi=expand(f"{IWTM}/svi_{{ds}}.csv", ds=IWTM_DS),
        ch5=expand(f"{IWTM}/ch5_{{ds}}.csv", ds=IWTM_DS),
    output:
        png=report(
            f"{IWTM}/fig6_2.png",
            caption="../report/iwtm/ch6_7.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/fig6_2.csv",
    log:
        f"{LOGS}/iwtm/fig6_2.log",
    benchmark:
        f"{BENCH}/iwtm/fig6_2.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "fig6_2"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm fig6_2 --params {params.json:q} {params.io} > {log} 2>&1"


# Fig 7.1 analogue: paring back in a variational Gaussian DP mixture
rule iwtm_pareback:
    input:
        parts=lambda w: iwtm_part_files("pareback", w.dataset),
    output:
        csv=f"{IWTM}/pareback_{{dataset}}.csv",
    log:
        f"{LOGS}/iwtm/pareback_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/pareback_{{dataset}}.tsv"
    wildcard_constraints:
        dataset="[A-Za-z0-9_]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "pareback"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm pareback --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure71:
    input:
        pareback=expand(f"{IWTM}/pareback_{{ds}}.csv", ds=IWTM_DS),
    output:
        png=report(
            f"{IWTM}/fig7_1.png",
            caption="../report/iwtm/ch6_7.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/fig7_1.csv",
    log:
        f"{LOGS}/iwtm/fig7_1.log",
    benchmark:
        f"{BENCH}/iwtm/fig7_1.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "fig7_1"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm fig7_1 --params {params.json:q} {params.io} > {log} 2>&1"


# ch. 7: active learning (Algorithm 2), IWTM (IVI) and LDA+KMEANS, margin vs random
rule iwtm_active:
    input:
        parts=lambda w: iwtm_part_files("active", w.dataset),
        meta=f"{IWTM}/data/{{dataset}}.json",
    output:
        csv=f"{IWTM}/active_{{dataset}}.csv",
    log:
        f"{LOGS}/iwtm/active_{{dataset}}.log",
    benchmark:
        f"{BENCH}/iwtm/active_{{dataset}}.tsv"
    wildcard_constraints:
        dataset="[A-Za-z0-9_]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "active"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm active --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure_active:
    input:
        active=expand(f"{IWTM}/active_{{ds}}.csv", ds=IWTM_DS),
    output:
        png=report(
            f"{IWTM}/{{fig}}.png",
            caption="../report/iwtm/active.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/{{fig}}.csv",
    log:
        f"{LOGS}/iwtm/{{fig}}.log",
    benchmark:
        f"{BENCH}/iwtm/{{fig}}.tsv"
    wildcard_constraints:
        fig="fig7_[4-6]",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", w.fig),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm {wildcards.fig} --params {params.json:q} {params.io} > {log} 2>&1"


# Sec. 6.5 / Fig 6.3: the SUN protocol. iwtm.sun.dataset: sun397 (data registry entry,
# paper), scene15 (the stand-in, real) or syn_iwtm (smoke).
SUN_DS = IWTM_STUDY.settings("sun", IWTM_CFG).sun.dataset


def iwtm_sun_fetched(w):
    """The fetched image tree's manifest (fetch_sun397 or fetch_scene15's output)."""
    return {"manifest": f"{RESOURCES}/{iwtm_registry.get(w.sunset).files[0].path}"}


rule iwtm_sun_data:
    input:
        unpack(iwtm_sun_fetched),
    output:
        npz=f"{IWTM}/sun/{{sunset}}.npz",
        meta=f"{IWTM}/sun/{{sunset}}.json",
    log:
        f"{LOGS}/iwtm/sun_data_{{sunset}}.log",
    benchmark:
        f"{BENCH}/iwtm/sun_data_{{sunset}}.tsv"
    wildcard_constraints:
        sunset="sun397|scene15",
    threads: THREADS
    resources:
        mem_mb=iwtm_res("sun_data")[0],
        runtime=iwtm_res("sun_data")[1],
    params:
        json=step_params("iwtm", "sun_data"),
        io=lambda w, input, output: io_args(input, output, w),
    shell:
        "python -m latentlab iwtm sun_data --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_sun:
    input:
        parts=iwtm_part_files("sun", SUN_DS),
    output:
        csv=f"{IWTM}/sun_{SUN_DS}.csv",
        metrics=f"{IWTM}/sun_{SUN_DS}.metrics.csv",
        maps=f"{IWTM}/sun_{SUN_DS}.maps.npz",
    log:
        f"{LOGS}/iwtm/sun_{SUN_DS}.log",
    benchmark:
        f"{BENCH}/iwtm/sun_{SUN_DS}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    params:
        json=step_params("iwtm", "sun"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm sun --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_figure_sun:
    input:
        sun=f"{IWTM}/sun_{SUN_DS}.csv",
        maps=f"{IWTM}/sun_{SUN_DS}.maps.npz",
    output:
        png=report(
            f"{IWTM}/fig6_3.png",
            caption="../report/iwtm/fig6_3.rst",
            category="iwtm",
        ),
        csv=f"{IWTM}/fig6_3.csv",
    log:
        f"{LOGS}/iwtm/fig6_3.log",
    benchmark:
        f"{BENCH}/iwtm/fig6_3.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "fig6_3"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm fig6_3 --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_table67:
    input:
        ivi=expand(f"{IWTM}/ivi_{{ds}}.csv", ds=IWTM_DS),
    output:
        csv=f"{IWTM}/table7_1.csv",
    log:
        f"{LOGS}/iwtm/table7_1.log",
    benchmark:
        f"{BENCH}/iwtm/table7_1.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "table7_1"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm table7_1 --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_table:
    input:
        ch4=expand(f"{IWTM}/ch4_{{ds}}.csv", ds=IWTM_DS),
        ch5=expand(f"{IWTM}/ch5_{{ds}}.csv", ds=IWTM_DS),
    output:
        csv=f"{IWTM}/{{table}}.csv",
    log:
        f"{LOGS}/iwtm/{{table}}.log",
    benchmark:
        f"{BENCH}/iwtm/{{table}}.tsv"
    wildcard_constraints:
        table="table4_1|sec5_6_1",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=lambda w: step_params("iwtm", w.table),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm {wildcards.table} --params {params.json:q} {params.io} > {log} 2>&1"


rule iwtm_claims:
    input:
        readings=readings_inputs("iwtm"),
        ladder=ladder_inputs("iwtm"),
        ch4=expand(f"{IWTM}/ch4_{{ds}}.csv", ds=IWTM_DS),
        ch5=expand(f"{IWTM}/ch5_{{ds}}.csv", ds=IWTM_DS),
        semi=expand(f"{IWTM}/semi_{{ds}}.csv", ds=IWTM_DS),
        scene8=f"{IWTM}/scene8_{S8_DS}.csv",
        pareback=expand(f"{IWTM}/pareback_{{ds}}.csv", ds=IWTM_DS),
        svi=expand(f"{IWTM}/svi_{{ds}}.csv", ds=IWTM_DS),
        ivi=expand(f"{IWTM}/ivi_{{ds}}.csv", ds=IWTM_DS),
        ivi_trace=expand(f"{IWTM}/ivi_{{ds}}.trace.csv", ds=IWTM_DS),
        active=expand(f"{IWTM}/active_{{ds}}.csv", ds=IWTM_DS),
        sun=f"{IWTM}/sun_{SUN_DS}.metrics.csv",
        sun_class=f"{IWTM}/sun_{SUN_DS}.csv",
    output:
        csv=f"{IWTM}/claims.csv",
    log:
        f"{LOGS}/iwtm/claims.log",
    benchmark:
        f"{BENCH}/iwtm/claims.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    params:
        json=step_params("iwtm", "claims"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm claims --params {params.json:q} {params.io} > {log} 2>&1"


def iwtm_bench_inputs(w):
    ds = IWTM_STUDY.settings("bench", IWTM_CFG).bench.dataset
    return {"data": f"{IWTM}/data/{ds}.npz"} if ds else {}


rule iwtm_bench:
    input:
        unpack(iwtm_bench_inputs),
    output:
        csv=f"{IWTM}/bench.csv",
    log:
        f"{LOGS}/iwtm/bench.log",
    benchmark:
        f"{BENCH}/iwtm/bench.tsv"
    threads: 2
    resources:
        mem_mb=IWTM_RES.bench.mem_mb,
        runtime=IWTM_RES.bench.runtime,
    params:
        json=step_params("iwtm", "bench"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm bench --params {params.json:q} {params.io} > {log} 2>&1"


# Evidence files of the causes and REVERSALS.md (issue 37; latentlab.studies.iwtm.evidence):
# results/{run}/iwtm/evidence/<name>.csv + .meta.json, published under
# published/real/iwtm/evidence/ (latentlab rebuild regenerates and compares them).
#   snakemake --cores 2 --configfile=config/real.yaml iwtm_evidence
EV_GDPMM_DS = IWTM_STUDY.settings(
    "evidence_gdpmm_vocab", IWTM_CFG
).evidence.gdpmm_vocab.dataset


rule iwtm_evidence:
    input:
        f"{IWTM}/evidence/gdpmm_vocab.csv",


# REVERSALS.md case 7: LDA+GDPMM's clusters in use, scikit-learn's mixture vs IWTM's
rule iwtm_evidence_gdpmm_vocab:
    input:
        data=f"{IWTM}/data/{EV_GDPMM_DS}.npz",
    output:
        csv=f"{IWTM}/evidence/gdpmm_vocab.csv",
    log:
        f"{LOGS}/iwtm/evidence_gdpmm_vocab.log",
    benchmark:
        f"{BENCH}/iwtm/evidence_gdpmm_vocab.tsv"
    threads: 1
    resources:
        mem_mb=IWTM_RES.ch5.mem_mb,
        runtime=IWTM_RES.ch5.runtime,
    params:
        json=step_params("iwtm", "evidence_gdpmm_vocab"),
        io=lambda w, input, output: io_args(input, output),
    shell:
        "python -m latentlab iwtm evidence_gdpmm_vocab --params {params.json:q} {params.io} > {log} 2>&1"
