"""The numba kernel core shared by every model and estimator: one copy of each building
block, each cited to the equation it implements.

* :mod:`.sampling` — categorical draws from unnormalised weights and one uniform;
* :mod:`.special` — digamma, log-sum-exp, the Polya (Dirichlet-multinomial) log-probability;
* :mod:`.gibbs` — the collapsed Gibbs token update with a per-document prior;
* :mod:`.rng` — the splitmix64 stream the AIS kernels and their numpy twins share;
* :mod:`.ais` — standard AIS for one document (Wallach et al. 2009), used by the AIS
  estimators (:mod:`latentlab.evaluation.ais`) and TIR's held-out scores;
* :mod:`.warmup` — compile (or load from the cache) a model's kernels once per process.

Layering: this package imports nothing from latentlab; ``models`` and ``evaluation``
import it (models never import ``latentlab.evaluation``). The numpy reference twins of
the kernels stay beside their models on purpose (``reference.py``): they are the
independent statement the kernels are tested against.

Every function here keeps the floating-point operation order and the uniforms consumed
of the inline code it replaced, so results are bit-for-bit those of before (the golden
outputs and the numba/numpy draw-for-draw tests check it). numba's on-disk cache does not
notice a change in a function called from another file: after editing this package,
delete the ``__pycache__/*.nbi``/``*.nbc`` files of the kernels that call it (or set
``NUMBA_CACHE_DIR`` to an empty folder) before comparing results.
"""
