"""Study ``compare``: every replicated method on one corpus, same seeded split.

Methods and the documents their default settings come from (each overridable in the
config section ``compare.<method>``):

``scvb0``  SCVB0, Foulds (2014) Algorithm 7, Sec. 4.3 (seed 004): alpha 0.1, beta 0.01,
           minibatch 100, rho_phi = 10/(1000+t)^0.9, rho_theta = 1/(10+t)^0.9, 1 burn-in pass.
``svb``    SVB-B1-O0, Hoffman et al. (2010) as run in Sec. 4.2 (seed 004): same priors,
           minibatch and rho_phi schedule; 1 local pass.
``cvb0``   batch CVB0, Asuncion et al. (2009), Eq. 4.28 (seed 004): alpha 0.1, beta 0.01.
``cgs``    collapsed Gibbs, Eq. 4.21 (seed 004) with MALLET's alpha optimisation schedule
           (optimize_interval 100, burn-in 200).
``hdp``    truncated HDP-LDA by PCVB0 with the AS prior, Sato et al. (2012) Eq. 35 and
           Sec. 3.7 initialisation (seed 001); truncation T = K.
``ctm``    CTM with Laplace variational inference, Wang & Blei (2013) Sec. 4.1 (seed 002):
           EM tolerance 1e-3, E-step tolerance 1e-4 (ctm-c's defaults).

Evaluation (the same for every method, ``evaluation`` settings): a seeded document
split (``test_frac`` of the documents held out); each held-out document's tokens split
into an observed part (``observed_frac``) and a scored part (document completion, seed 004
Sec. 4.7 / Eq. 5.26); theta from the observed part with the topics frozen (the CVB0 fixed
point of ``evaluation.heldout``; CTM: its own Laplace posterior on the observed part); and
for the LDA-family models (LDA and truncated HDP given (alpha0 pi, Phi)) the left-to-right
estimator of seed 004 Sec. 5.2 on whole held-out documents.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from latentlab.models.hdp.options import METHODS as HDP_METHODS
from latentlab.models.hdp.options import PRIORS as HDP_PRIORS
from latentlab.settings import Invalid, setting
from latentlab.studies.shape import Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "compare",
    document="seeds 001, 002, 004",
    title="Every method on one corpus",
    modules=("runs", "figures", "tables"),
)

Method = Literal["scvb0", "svb", "cvb0", "cgs", "hdp", "ctm"]
METHODS = get_args(Method)
LABELS = {
    "scvb0": "SCVB0",
    "svb": "SVB",
    "cvb0": "CVB0",
    "cgs": "CGS",
    "hdp": "HDP-PCVB0",
    "ctm": "CTM-Laplace",
}
LDA_FAMILY = ("scvb0", "svb", "cvb0", "cgs", "hdp")


@dataclass(frozen=True)
class Schedule:
    """rho_t = s / (tau + t)^kappa (0 < rho_t <= 1; kappa in (0, 1] so that the steps sum
    to infinity and go to 0)."""

    s: float = setting(gt=0)  # rho_t's scale
    tau: float = setting(ge=0)  # rho_t's delay
    kappa: float = setting(gt=0, le=1)  # rho_t's decay exponent

    def __post_init__(self):
        r1 = self.s / (self.tau + 1) ** self.kappa
        if r1 > 1:
            raise Invalid(
                "s", f"the first step s/(tau+1)^kappa = {r1:.4g} > 1 (s={self.s}, tau={self.tau})"
            )


@dataclass(frozen=True)
class SCVB0Settings:
    """SCVB0 (Foulds 2014 Algorithm 7, Sec. 4.3)."""

    alpha: float = setting(0.1, gt=0)  # document prior
    beta: float = setting(0.01, gt=0)  # topic prior
    minibatch: int = setting(100, ge=1)  # documents per minibatch
    rho_phi: Schedule = Schedule(10.0, 1000.0, 0.9)  # the topics' step sizes
    rho_theta: Schedule = Schedule(1.0, 10.0, 0.9)  # the documents' step sizes
    n_burn: int = setting(1, ge=0)  # burn-in passes per document
    # passes over the training documents: ceil(epochs x documents / minibatch) minibatches
    epochs: float = setting(5.0, gt=0)


@dataclass(frozen=True)
class SVBSettings:
    """SVB-B1-O0 (Hoffman et al. 2010) as run in Foulds (2014) Sec. 4.2."""

    alpha: float = setting(0.1, gt=0)  # document prior
    beta: float = setting(0.01, gt=0)  # topic prior
    minibatch: int = setting(100, ge=1)  # documents per minibatch
    n_local: int = setting(1, ge=1)  # local passes per minibatch (B)
    offset: float = setting(0.0, ge=0)  # hyperparameter offset O (alpha + O, beta + O)
    rho: Schedule = Schedule(10.0, 1000.0, 0.9)  # the topics' step sizes
    # passes over the training documents: ceil(epochs x documents / minibatch) minibatches
    epochs: float = setting(5.0, gt=0)


@dataclass(frozen=True)
class CVB0Settings:
    """Batch CVB0 (Asuncion et al. 2009, Foulds 2014 Eq. 4.28)."""

    alpha: float = setting(0.1, gt=0)  # document prior
    beta: float = setting(0.01, gt=0)  # topic prior
    n_iter: int = setting(100, ge=1)  # sweeps


@dataclass(frozen=True)
class CGSSettings:
    """Collapsed Gibbs, Foulds (2014) Eq. 4.21, with MALLET's alpha optimisation."""

    alpha: float = setting(0.1, gt=0)  # document prior (its initial value)
    beta: float = setting(0.01, gt=0)  # topic prior
    n_iter: int = setting(500, ge=1)  # sweeps
    # alpha is re-optimised every optimize_interval sweeps after burn_in (MALLET
    # --optimize-interval; 0: never)
    optimize_interval: int = setting(100, ge=0)
    burn_in: int = setting(200, ge=0)  # MALLET --optimize-burn-in


@dataclass(frozen=True)
class HDPSettings:
    """Truncated HDP-LDA (Sato et al. 2012), truncation T = K."""

    method: Literal[HDP_METHODS] = "pcvb0"  # the token and global updates (Sato et al.)
    # the topics' base measure: symmetric (AS) or learnt (AA)
    prior: Literal[HDP_PRIORS] = "AS"
    n_iter: int = setting(100, ge=1)  # iterations
    options: dict[str, Any] = field(default_factory=dict)  # HDPOptions overrides


@dataclass(frozen=True)
class CTMSettings:
    """CTM by Laplace VI, Wang & Blei (2013) Sec. 4.1."""

    em_max_iter: int = setting(20, ge=1)  # EM iterations at most
    # EM stops when the relative change of the bound is below this (0: never)
    em_tol: float = setting(1e-3, ge=0)
    estep_tol: float = setting(1e-4, gt=0)  # per-document inference: tolerance
    estep_max_iter: int = setting(100, ge=1)  # per-document inference: iteration cap
    pseudo_count: float = setting(1e-10, ge=0)  # M-step: topics ∝ expected counts + this
    # ridge of an ill-conditioned Sigma0: ridge_rel x tr(Sigma0)/K, x10 until well
    # conditioned (ours)
    ridge_rel: float = setting(1e-6, gt=0)


@dataclass(frozen=True)
class EvalSettings:
    """The evaluation of every fit: document completion and the left-to-right estimator."""

    theta_iters: int = setting(100, ge=1)  # fixed-point passes of the document-completion theta
    # held-out evaluations along each fit (the time curves)
    n_checkpoints: int = setting(10, ge=1)
    lr_particles: int = setting(20, ge=1)  # R of the left-to-right estimator
    lr_max_docs: int = setting(100, ge=0)  # held-out documents it scores (0 = skip it)


@dataclass(frozen=True)
class SplitSettings:
    dataset: str  # the corpus: a data.local entry or a prepared dataset (its name)
    test_frac: float = setting(0.1, gt=0, lt=1)  # held-out fraction of the documents
    # at most this many held-out documents (a seeded subset; null: all)
    max_test_docs: int | None = setting(1000, ge=1)
    # observed fraction of each held-out document's tokens (document completion)
    observed_frac: float = setting(0.5, gt=0, lt=1)
    split_seed_offset: int = 0  # the split's seed: base_seed + this


def _fit_settings(method: str, cls: type) -> type:
    """Settings of the fit step of one method: its own section and the evaluation."""
    ns = {
        "__doc__": (
            f"The fit of {LABELS[method]} and its evaluation. ``dataset`` names the corpus "
            "(a data.local entry or a prepared dataset). The fits' seed is base_seed + "
            "``seed_offset``."
        ),
        "__annotations__": {"dataset": str, method: cls, "evaluation": EvalSettings},
        method: field(default_factory=cls),
        "evaluation": field(default_factory=EvalSettings),
        "seed_offset": 1,
    }
    ns["__annotations__"]["seed_offset"] = int
    return dataclass(frozen=True)(type(f"Fit{cls.__name__}", (), ns))


METHOD_SETTINGS = {
    "scvb0": SCVB0Settings,
    "svb": SVBSettings,
    "cvb0": CVB0Settings,
    "cgs": CGSSettings,
    "hdp": HDPSettings,
    "ctm": CTMSettings,
}
FIT_SETTINGS = {m: _fit_settings(m, c) for m, c in METHOD_SETTINGS.items()}


@dataclass(frozen=True)
class ReportSettings:
    dataset: str  # the corpus: a data.local entry or a prepared dataset (its name)
    # topics: every method is fitted at each K (at most the vocabulary)
    K: list[int] = setting(ge=2)
    methods: list[Method] = field(default_factory=lambda: list(METHODS))  # the methods compared
    n_top_words: int = setting(10, ge=1)  # words per topic in topwords.csv


def coerce_cli(section: dict) -> dict:
    """Values of ``--config compare='{...}'`` arrive as strings (Snakemake parses them with
    YAML's BaseLoader): read every string leaf again with YAML's safe loader, except the
    dataset name."""
    import yaml

    def conv(v, key=None):
        if isinstance(v, dict):
            return {k: conv(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [conv(x) for x in v]
        if isinstance(v, str) and key != "dataset":
            try:
                return yaml.safe_load(v) if v.strip() else v
            except yaml.YAMLError:
                return v
        return v

    return conv(dict(section or {}))
