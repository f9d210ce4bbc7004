"""``python -m latentlab compare <step>`` (generated from the study's registry)."""

from latentlab.studies.shape import load_study

STUDY = load_study("compare")
register = STUDY.register
