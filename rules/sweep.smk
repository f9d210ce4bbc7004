# A study's rules run again under another config, as one Snakemake module: a ladder's rung
# (rules/ladder.smk) or an option of a readings sweep (rules/readings.smk). The module and
# `use rule` statements are written as the calls Snakemake compiles them to
# (workflow.module, workflow.userule), since the rungs are data: a loop over the config.


def _sweep_claims_input(rule, kwpaths, targets):
    """The named inputs of the study's claims rule that are among the rung's targets (a
    list input keeps its files that are)."""
    out = {}
    for name, v in kwpaths.items():
        if callable(v):
            raise ValueError(
                f"{rule}: input {name!r} is a function; a ladder needs the study's claims "
                "rule to name its inputs as paths"
            )
        files = [v] if isinstance(v, str) else list(v)
        kept = [str(f) for f in files if str(f) in targets]
        if kept:
            out[name] = kept[0] if isinstance(v, str) else kept
    return out


def _noop():
    pass


def sweep_module(r, study, targets):
    """Module ``r.module``: the study's rules with the rung's config (``use rule * as
    <module>_*``), and its claims rule given only ``targets`` and run in partial mode
    (claims whose inputs the rung does not build are not_run rows)."""
    workflow.module(name=r.module, snakefile="ladder_rung.smk", config=r.config)
    workflow.userule(
        rules=["*"],
        from_module=r.module,
        exclude_rules=[],
        name_modifier=f"{r.module}_*",
        lineno=1,
    )(_noop)
    claims = f"{r.module}_{study}_claims"
    info = workflow.get_rule(claims).ruleinfo
    params = json.loads(info.params[1]["json"])
    params["partial"] = True
    workflow.userule(
        rules=[f"{study}_claims"],
        from_module=r.module,
        exclude_rules=[],
        name_modifier=claims,
        lineno=2,
    )(
        workflow.input(**_sweep_claims_input(claims, info.input.kwpaths, set(targets)))(
            workflow.params(json=json.dumps(params, sort_keys=True))(
                workflow.run(_noop)
            )
        )
    )
