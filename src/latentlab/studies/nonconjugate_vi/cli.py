"""``python -m latentlab nonconjugate_vi <step>``: generated from the study's registries."""

from .study import STUDY

register = STUDY.register
