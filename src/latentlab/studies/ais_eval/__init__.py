"""Study ``ais_eval``: likelihood estimators for topic models (Foulds 2014, ch. 5).

Drivers in :mod:`.core`, tables/figures in :mod:`.report`, the ledger in :mod:`.claims`,
kernel throughput in :mod:`.bench`, the smoke corpora in :mod:`.synth`; the estimators
themselves live in :mod:`latentlab.evaluation.ais`.
"""
