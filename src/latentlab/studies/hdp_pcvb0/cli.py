"""``python -m latentlab hdp_pcvb0 <step>``: generated from the study's registries."""

from latentlab.studies.shape import load_study

register = load_study("hdp_pcvb0").register
