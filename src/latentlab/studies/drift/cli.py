"""CLI of the drift study, generated from its registry (steps of runs, figures, tables,
claims and bench)."""

from latentlab.studies.shape import load_study

STUDY = load_study("drift")
register = STUDY.register
