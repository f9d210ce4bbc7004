"""Study ``nonconjugate_vi``: Wang & Blei (JMLR 2013), Laplace and delta-method VI (seed 002).

Skeleton: ``study.py`` (settings), ``runs.py`` (raw results; computations in ``ctm.py`` and
``blr.py``, inputs in ``data.py``), ``figures.py``, ``tables.py``, ``claims.py``, ``cli.py``.
"""
