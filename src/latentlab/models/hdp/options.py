"""The configurations of :class:`~latentlab.models.hdp.model.HDPLDA` and their options
(seed 001; Sec. 4 and the choices the paper leaves open), without the model: the study's
settings read these, and a job
that only draws a figure then imports neither numba nor scipy (issue 23)."""

from __future__ import annotations

from dataclasses import dataclass, field

from latentlab.errors import ConfigError

METHODS = ("cvb", "cvb0", "pcvb", "pcvb0")
PRIORS = ("AS", "AA")
CONFIGS = tuple(f"{m}_{p}" for m in METHODS for p in PRIORS)


@dataclass
class Hyperprior:
    """Gamma hyperpriors of CVB/CVB0 (not reported in the paper; infpy's midpoints of
    [24]'s ranges by default)."""

    a_alpha: float = 4.0  # CVB/CVB0: shape of the Gamma hyperprior on α0 (ref [24])
    b_alpha: float = 4.0  # CVB/CVB0: rate of the Gamma hyperprior on α0
    a_beta: float = 4.0  # CVB/CVB0: shape of the Gamma hyperprior on β0
    b_beta: float = 4.0  # CVB/CVB0: rate of the Gamma hyperprior on β0
    a_gamma: float = 7.5  # CVB/CVB0: shape of the Gamma hyperprior on γ0
    b_gamma: float = 7.5  # CVB/CVB0: rate of the Gamma hyperprior on γ0
    a_tau: float = 1.0  # CVB/CVB0 AA: parameter of the symmetric Dirichlet(a_tau) prior on τ


@dataclass
class HDPOptions:
    """Choices seed 001 leaves open, with our defaults.

    alpha0_init, gamma0_init:   Sec. 6: α0π_k = 0.1/T read as α0 = 0.1, E[π_k] = 1/T
                                (q(π̃_k) = Beta(1, T − k)); initial γ0 = 1 (not given).
    beta_init:                  Sec. 6 "β0τ_v = 0.1/T": ``literal`` (β0 = 0.1·V/T, τ = 1/V),
                                ``per_V`` (β0 = 0.1, i.e. a typo for 0.1/V), ``unnormalised``
                                (β0 = 0.1 and β_v = 0.1/T in the first sweep only).
    fp_max_iter, fp_tol:        inner Minka iterations for α0 (Eq 29) and β0 (Eq 30).
    fp_strict:                  raise :class:`FixedPointError` when a fixed point fails
                                (otherwise it is logged and counted in ``diagnostics``).
    sort_topics:                reorder topics by decreasing Σ_d E[I(n_dk ≥ 1)] (PCVB) or
                                Σ_d E[s_dk] (CVB) before the stick update; the paper does not.
    tau_floor:                  0 = the paper's rule (τ_v = 0 for words unseen in training,
                                Eq 31); > 0 floors τ at tau_floor/V and renormalises (ours).
    cvb_denominator:            "G" (paper, Eq 18) or "E" (infpy) for β0 in the denominator.
    cvb_predictive:             "E" or "G" values of α0π_k, β0τ_v in the CVB predictive
                                (Eq 37; the paper leaves this open).
    recount_every:              recompute E/V counts from q every n sweeps (drift; ours).
    hyper_burnin:               sweeps before the first global update (0 = Algorithm 1: every
                                iteration). Not in the document; a diagnostic for the
                                symmetric fixed point the zero-order methods can stay in.
    q_dtype:                    "float64" or "float32" storage of q (counts stay float64).
    """

    alpha0_init: float = 0.1  # initial α0, with E[π_k] = 1/T: α0π_k = 0.1/T (Sec. 6)
    gamma0_init: float = 1.0  # initial γ0 (not given in the document)
    # Sec. 6's β0τ_v = 0.1/T read as `literal` (β0 = 0.1·V/T), `per_V` or `unnormalised` (β0 = 0.1)
    beta_init: str = "literal"
    beta_init_value: float = 0.1  # the 0.1 of Sec. 6's β0τ_v = 0.1/T, as `beta_init` reads it
    # PCVB/PCVB0 fixed points: at most this many inner iterations for α0 (Eq 29) and β0 (Eq 30)
    fp_max_iter: int = 100
    fp_tol: float = 1e-8  # relative tolerance of the α0, β0 fixed points: a step <= fp_tol·x
    fp_strict: bool = False  # a failed fixed point raises FixedPointError (else logged, counted)
    sort_topics: bool = False  # reorder topics by decreasing use before the stick update (ours)
    # PCVB/PCVB0 AA: 0 = Eq 31 (τ_v = 0 for words unseen in training); > 0 floors τ at tau_floor/V
    tau_floor: float = 0.0
    cvb_denominator: str = "G"  # CVB/CVB0: β0 in the token update's denominator, G (Eq 18) or E
    cvb_predictive: str = "E"  # CVB/CVB0: E or G values of α0π_k, β0τ_v in the predictive (Eq 37)
    # recompute the counts from q every n iterations against drift (0: never; CVB0: always)
    recount_every: int = 10
    hyper_burnin: int = 0  # iterations before the first global update (0 = Algorithm 1; ours)
    q_dtype: str = "float64"  # storage precision of q, float64 or float32 (counts stay float64)
    hyperprior: Hyperprior = field(default_factory=Hyperprior)

    @classmethod
    def from_dict(cls, d: dict | None) -> HDPOptions:
        d = dict(d or {})
        hp = Hyperprior(**d.pop("hyperprior", {}) or {})
        known = {f for f in cls.__dataclass_fields__}
        bad = sorted(set(d) - known)
        if bad:
            raise ConfigError(f"HDPOptions.{bad[0]}", f"unknown option(s) {bad}")
        return cls(hyperprior=hp, **d)
