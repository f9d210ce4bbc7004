"""``python -m latentlab compare <step>`` (generated from the study's registry)."""

from .study import STUDY

register = STUDY.register
