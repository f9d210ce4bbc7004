"""Truncated HDP-LDA by collapsed variational Bayes (Sato, Kurihara & Nakagawa, KDD 2012).

* :mod:`.model`     — :class:`HDPLDA`: CVB, CVB0, PCVB, PCVB0 × {AS, AA} (Eqs 18–35)
* :mod:`.updates`   — global updates: q(π̃), α0, γ0, β0, τ (Eqs 24–33) and the [24] machinery
* :mod:`.kernels`   — numba sweeps, log-zero statistics, predictive (word-major V x T)
* :mod:`.reference` — plain-numpy versions of the kernels (the tests' oracle)
* :mod:`.gibbs`     — collapsed Gibbs sampler for the same truncated model (Eqs 13–16)
* :mod:`.data`      — token streams and the 80/20 within-document split (Eqs 36–37)
* :mod:`.synthetic` — HDP corpora with known π, a labelled variant, a bag-of-links graph
"""

from latentlab.models.hdp.model import CONFIGS, HDPLDA, METHODS, PRIORS, HDPOptions

__all__ = ["CONFIGS", "METHODS", "PRIORS", "HDPLDA", "HDPOptions"]
