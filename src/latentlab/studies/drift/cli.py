"""CLI of the drift study, generated from its registry (steps of runs, figures, tables,
claims and bench)."""

from .study import STUDY

register = STUDY.register
