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
from typing import Any

from latentlab.studies.shape import Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "compare",
    document="seeds 001, 002, 004",
    title="Every method on one corpus",
    modules=("runs", "figures", "tables"),
)

METHODS = ("scvb0", "svb", "cvb0", "cgs", "hdp", "ctm")
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
    """rho_t = s / (tau + t)^kappa."""

    s: float
    tau: float
    kappa: float


@dataclass(frozen=True)
class SCVB0Settings:
    alpha: float = 0.1
    beta: float = 0.01
    minibatch: int = 100
    rho_phi: Schedule = Schedule(10.0, 1000.0, 0.9)
    rho_theta: Schedule = Schedule(1.0, 10.0, 0.9)
    n_burn: int = 1
    epochs: float = 5.0


@dataclass(frozen=True)
class SVBSettings:
    alpha: float = 0.1
    beta: float = 0.01
    minibatch: int = 100
    n_local: int = 1
    offset: float = 0.0
    rho: Schedule = Schedule(10.0, 1000.0, 0.9)
    epochs: float = 5.0


@dataclass(frozen=True)
class CVB0Settings:
    alpha: float = 0.1
    beta: float = 0.01
    n_iter: int = 100


@dataclass(frozen=True)
class CGSSettings:
    alpha: float = 0.1
    beta: float = 0.01
    n_iter: int = 500
    optimize_interval: int = 100
    burn_in: int = 200


@dataclass(frozen=True)
class HDPSettings:
    method: str = "pcvb0"
    prior: str = "AS"
    n_iter: int = 100
    options: dict[str, Any] = field(default_factory=dict)  # HDPOptions overrides


@dataclass(frozen=True)
class CTMSettings:
    em_max_iter: int = 20
    em_tol: float = 1e-3
    estep_tol: float = 1e-4
    estep_max_iter: int = 100
    pseudo_count: float = 1e-10
    ridge_rel: float = 1e-6


@dataclass(frozen=True)
class EvalSettings:
    theta_iters: int = 100  # fixed-point passes of the document-completion theta
    n_checkpoints: int = 10  # held-out evaluations along each fit (the time curves)
    lr_particles: int = 20  # R of the left-to-right estimator
    lr_max_docs: int = 100  # held-out documents it scores (0 = skip it)


@dataclass(frozen=True)
class SplitSettings:
    dataset: str
    test_frac: float = 0.1
    max_test_docs: int | None = 1000
    observed_frac: float = 0.5
    split_seed_offset: int = 0


def _fit_settings(method: str, cls: type) -> type:
    """Settings of the fit step of one method: its own section and the evaluation."""
    ns = {
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
    dataset: str
    K: list[int]
    methods: list[str] = field(default_factory=lambda: list(METHODS))
    n_top_words: int = 10


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


def check_methods(section: dict) -> None:
    from latentlab.errors import ConfigError

    s = section or {}
    for m in s.get("methods", []):
        if m not in METHODS:
            raise ConfigError("compare.methods", f"{m!r} is not one of {list(METHODS)}")
    for k in s.get("K", []):
        if isinstance(k, bool) or not isinstance(k, int) or k < 2:
            raise ConfigError("compare.K", f"every K must be an integer >= 2, got {k!r}")
