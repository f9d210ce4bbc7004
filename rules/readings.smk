# Readings sweeps (issue 37; docs/runs.md "Readings"; latentlab.readings): every option of a
# reading a study declares (studies/<study>/readings.py) runs as the study's own rules with
# the run's config, the sweep's `set` and the option's overrides: one Snakemake module per
# option (rules/sweep.smk), its outputs under results/<run>/readings/<study>/<reading>/<option>/,
# judged by the study's claims step in partial mode; then <reading>.csv + .png gather them
# under results/<run>/<study>/readings/. The study's claims step reads them (readings.source).
#   snakemake --cores 2 <study>_readings

from latentlab import readings as _readings

READINGS_SWEEPS = _readings.sweeps(config, workflow.basedir, _CONFIGFILES)
READINGS_TARGETS = {}

for _study, _sweeps in READINGS_SWEEPS.items():
    _declared = {r.name: r for r in _readings.readings_of(_study)}
    _spec = config["readings"]["studies"][_study]
    for _name, _opts in _sweeps.items():
        _reading = _declared[_name]
        _targets_rel = (_spec[_name] or {}).get("targets") or list(_reading.targets)
        _ledgers = {}
        for _r in _opts:
            _targets = [_r.out(t) for t in _targets_rel]
            sweep_module(_r, _study, _targets)
            _ledgers[_r.name.removeprefix(f"{_name}_")] = _r.out("claims.csv")
        _rout = f"{OUT}/{_study}/readings/{_name}"
        _params = _readings.step_params(_study, _reading, _opts, RUN)

        rule:
            name:
                f"{_study}_readings_{_name}"
            input:
                **_ledgers,
            output:
                csv=f"{_rout}.csv",
                png=report(
                    f"{_rout}.png",
                    caption="../report/readings.rst",
                    category="readings",
                ),
            log:
                f"{LOGS}/{_study}/readings_{_name}.log",
            benchmark:
                f"{BENCH}/{_study}/readings_{_name}.tsv"
            threads: 1
            resources:
                mem_mb=1000,
                runtime=5,
            params:
                json=json.dumps(_params, sort_keys=True),
                ledgers=" ".join(f"{k}={v}" for k, v in _ledgers.items()),
            shell:
                "python -m latentlab readings collect --params {params.json:q} "
                "--ledger {params.ledgers} --csv {output.csv} --png {output.png} > {log} 2>&1"

        READINGS_TARGETS.setdefault(_study, []).append(f"{_rout}.csv")

    rule:
        name:
            f"{_study}_readings"
        input:
            READINGS_TARGETS.get(_study, []),
