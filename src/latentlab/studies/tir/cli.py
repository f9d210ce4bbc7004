from .study import STUDY

register = STUDY.register
