"""``python -m latentlab ais_eval <step>``: generated from the study's registries."""

from .study import STUDY

register = STUDY.register
