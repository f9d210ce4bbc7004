"""Study ``scvb0``: Foulds (2014) chapter 4, SCVB0 vs SVB (and CVB0 accuracy).

Drivers for every figure and table of the chapter; the rules in ``rules/scvb0.smk``
call them through ``python -m latentlab scvb0 <step>``.
"""
