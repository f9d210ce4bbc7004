"""Truncated HDP-LDA by collapsed variational Bayes (Sato, Kurihara & Nakagawa, KDD 2012).

* :mod:`.model`     — :class:`HDPLDA`: CVB, CVB0, PCVB, PCVB0 × {AS, AA} (Eqs 18–35)
* :mod:`.options`   — the eight configurations and :class:`HDPOptions` (the paper's open choices)
* :mod:`.updates`   — global updates: q(π̃), α0, γ0, β0, τ (Eqs 24–33) and the [24] machinery
* :mod:`.kernels`   — numba sweeps, log-zero statistics, predictive (word-major V x T)
* :mod:`.reference` — plain-numpy versions of the kernels (the tests' oracle)
* :mod:`.gibbs`     — collapsed Gibbs sampler for the same truncated model (Eqs 13–16)

Models take a :class:`~latentlab.data.corpus.BowCorpus` (or a token stream,
:mod:`latentlab.data.tokens`); the 80/20 within-document split is
:func:`latentlab.data.splits.split_within_documents`; the synthetic corpora are in
:mod:`latentlab.data.synthetic`. Errors name the models' own parameters (``HDPLDA.T``,
``HDPOptions.beta_init``); the study maps them to its config keys.
"""

from latentlab.models.hdp.options import CONFIGS, METHODS, PRIORS, HDPOptions

__all__ = ["CONFIGS", "METHODS", "PRIORS", "HDPLDA", "HDPOptions"]


def __getattr__(name: str):
    """``HDPLDA`` on first use: the model imports numba and scipy, the options do not."""
    if name == "HDPLDA":
        from latentlab.models.hdp.model import HDPLDA

        return HDPLDA
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
