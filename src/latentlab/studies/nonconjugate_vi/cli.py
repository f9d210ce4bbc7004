"""``python -m latentlab nonconjugate_vi <step>``: generated from the study's registries."""

from latentlab.studies.shape import load_study

register = load_study("nonconjugate_vi").register
