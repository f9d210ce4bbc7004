# One rung of a reduction ladder: rules/ladder.smk imports this file once per rung as a
# Snakemake module whose config is the rung's complete config (run <run>/<study>/<rung>,
# studies [<study>], data.run the ladder's). It holds the study's ordinary rules and nothing
# else: the datasets are prepared once, by the ladder's own rules/data.smk.


include: "common.smk"


# rules/data.smk's folder of fetch records, which some study rules name as inputs (drift's
# Enron text fit, iwtm); a module does not see the ladder's own globals, and the records are
# the ladder's jobs (same config, same paths)
RESOURCES = config["data"]["resources"]


for _study in STUDIES:

    include: f"{_study}.smk"
