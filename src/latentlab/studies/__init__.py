"""Experiment drivers: one subpackage per study (``latentlab.studies.<study>``).

Each has ``cli.py`` with ``register(subparsers)``; the rules in ``rules/<study>.smk``
call ``python -m latentlab <study> <step>``.
"""
