"""``python -m latentlab hdp_pcvb0 <step>``: generated from the study's registries."""

from .study import STUDY

register = STUDY.register
