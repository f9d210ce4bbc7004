# Reduction ladders (issue 24; docs/runs.md "Ladders"; latentlab.ladder):
#   snakemake --cores 2 --configfile=config/ladder.yaml <study>_ladder
# re-measures a study's key claims at each rung of config/ladder.yaml. A rung is the study's
# ordinary rules run with the rung's complete config: one Snakemake module per rung
# (rules/ladder_rung.smk), its rules named ladder_<study>_<rung>_<rule>, its outputs under
# results/<run>/<study>/<rung>/<study>/. Every rung's jobs are ordinary jobs of one DAG: an
# interrupted ladder resumes where it stopped, and the SLURM profile submits each one.
# A rung's ledger is the study's own claims step given only the outputs the rung builds
# (`partial`: the claims needing other outputs are not_run rows; rules/sweep.smk).

from latentlab import ladder as _ladder
from latentlab.provenance import config_sha256

LADDERS = _ladder.ladder_rungs(config, workflow.basedir, _CONFIGFILES)
LADDER_ALL = bool(config["ladder"]["all_rungs"])
LADDER_TARGETS = []


for _study, _rungs in LADDERS.items():
    _spec = config["ladder"]["studies"][_study]
    _params = _ladder.step_params(_study, _rungs, _spec["claims"], RUN, LADDER_ALL)
    _lout = f"{OUT}/{_study}"
    _ledgers, _built = {}, []
    for _r in _rungs:
        # the ladder's targets, then the rung's own (config/ladder.yaml `targets` of a rung)
        _targets = [_r.out(t) for t in [*_spec["targets"], *_r.targets]]
        sweep_module(_r, _study, _targets)

        # the rung alone: `snakemake ladder_<study>_<rung>` (resolves for every rung)
        rule:
            name:
                _r.module
            input:
                _targets,
                _r.out("claims.csv"),

        if _r.fits_here or LADDER_ALL:
            _ledgers[_r.name] = _r.out("claims.csv")
            _built += [*_targets, _r.out("claims.csv")]

    rule:
        name:
            f"{_study}_ladder_collect"
        input:
            **_ledgers,
        output:
            csv=f"{_lout}/ladder.csv",
            png=report(
                f"{_lout}/ladder.png",
                caption="../report/ladder.rst",
                category="ladders",
            ),
        log:
            f"{LOGS}/{_study}/ladder.log",
        benchmark:
            f"{BENCH}/{_study}/ladder.tsv"
        threads: 1
        resources:
            mem_mb=1000,
            runtime=5,
        params:
            json=json.dumps(_params, sort_keys=True),
            ledgers=" ".join(f"{k}={v}" for k, v in _ledgers.items()),
        shell:
            "python -m latentlab ladder collect --params {params.json:q} "
            "--ledger {params.ledgers} --csv {output.csv} --png {output.png} > {log} 2>&1"

    # the time of each rung, once all of them are built (their benchmark files)
    rule:
        name:
            f"{_study}_ladder_bench"
        input:
            _built,
        output:
            csv=f"{_lout}/bench_targets.csv",
        log:
            f"{LOGS}/{_study}/ladder_bench.log",
        benchmark:
            f"{BENCH}/{_study}/ladder_bench.tsv"
        threads: 1
        resources:
            mem_mb=500,
            runtime=2,
        params:
            json=json.dumps(_params, sort_keys=True),
        shell:
            "python -m latentlab ladder bench --params {params.json:q} --csv {output.csv} "
            "> {log} 2>&1"

    rule:
        name:
            f"{_study}_ladder"
        input:
            f"{_lout}/ladder.csv",
            f"{_lout}/ladder.png",
            f"{_lout}/bench_targets.csv",

    LADDER_TARGETS += [f"{_lout}/ladder.csv", f"{_lout}/bench_targets.csv"]


# Provenance: every job records the hash of the ladder's config (which fixes every rung);
# each rung's rules/common.smk set it to its own while the modules were read.
os.environ[CONFIG_ENV] = config_sha256(config)
