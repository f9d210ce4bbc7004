"""Study ``ais_eval``: Foulds (2014) chapter 5, likelihood estimators for topic models.

The document: James R. Foulds (2014), *Latent Variable Modeling for Networks and Text:
Algorithms, Models and Evaluation Techniques*, PhD dissertation, University of California,
Irvine (seed 004). Sections, equations, figures and tables cited in this package are its
own (chapter 5: Sec. 5.1-5.3, Algorithm 8, Figs 5.4-5.11, Tables 5.1-5.3).

The settings of every step: the fields are the keys of the ``ais_eval`` config section
the step reads, the defaults here are the only defaults. Corpora have roles named after
the document's corpus they stand in for (``nips``, ``acl``; Sec. 5.3).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Literal

from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "ais_eval",
    document="Foulds 2014 (seed 004), ch. 5",
    title="AIS and other likelihood estimators for topic models",
    modules=("runs", "figures", "tables", "claims", "bench"),
    source=Source(
        "004", "Foulds (PhD 2014): DRIFT, TIR, SCVB0, AIS evaluation", "Foulds 2014", "ch. 5"
    ),
    data={
        "kos": "stands in for NIPS in the real run",
        "uci_nips": "NIPS, paper run",
        "cora": "stands in for ACL (the AAN is not downloadable here)",
    },
)

# Figures drawn from one corpus role: figure id -> role (and, for Figs 5.7-5.10, the panel)
SCATTER_ROLES = {"fig5_4": "acl", "fig5_5": "nips"}
ITERATION_FIGS = {
    "fig5_7": ("acl", "ll"),
    "fig5_8": ("nips", "ll"),
    "fig5_9": ("acl", "var"),
    "fig5_10": ("nips", "var"),
}
NTEMPS_ROLE = "nips"  # Fig 5.6
ENTROPY_ROLE = "acl"  # Fig 5.11


def tag_offset(*tags: str) -> int:
    """Seed offset of a named step (and role): sum of crc32(tag) mod 100003; the seed is
    ``ctx.seed(tag_offset(...))``."""
    return sum(zlib.crc32(str(t).encode()) % 100_003 for t in tags)


@dataclass(frozen=True)
class Synthetic:
    """LDA with alpha_k ∝ alpha_decay^k (total alpha_sum), so an asymmetric-alpha model has
    a visible advantage (Table 5.3); data/synthetic.lda_corpus_decaying_alpha."""

    n_docs: int = 400
    n_vocab: int = 500
    n_topics: int = 10
    doc_length: float = 80
    min_length: int = 10
    alpha_sum: float = 1.0
    alpha_decay: float = 0.6
    beta: float = 0.05


@dataclass(frozen=True)
class Corpus:
    """A role's corpus: synthetic (generated here) or a data-layer dataset by name."""

    kind: Literal["synthetic", "real"]
    dataset: str
    synthetic: Synthetic | None = None


@dataclass(frozen=True)
class Train:
    """CGS with Minka alpha/beta on the MALLET schedule (Sec. 5.3; the schedule is inferred
    from Figs 5.7 and 5.11); snapshots for Figs 5.7-5.10; ~test_frac held out; perturbed
    topics for Table 5.1 (Sec. 5.3.1)."""

    K: int
    n_iter: int
    alpha_sum: float  # initial alpha sum (MALLET default 5.0)
    beta: float
    optimize_interval: int
    optimize_burn_in: int
    snapshot_every: int
    test_frac: float
    perturb_frac: float
    perturb_mode: Literal["topic", "cell"]
    stats_every: int = 1
    max_test_docs: int | None = None  # budget cap on evaluated test documents


@dataclass(frozen=True)
class Compare:
    """Estimator comparison (Tables 5.1-5.3): temperatures of the cheap/expensive regimes,
    runs per document, burn = r_{n-1} burn-in sweeps (Sec. 5.2.1; their number the document
    leaves open), S importance samples."""

    cheap_temps: int
    expensive_temps: int
    runs: int
    burn: int
    S: int
    n_docs: int | None = None
    lr_long_temps: int | None = None  # Table 5.3: budget of the long LR reference run


@dataclass(frozen=True)
class Iteration:
    """Iteration-AIS (Sec. 5.2.2, Figs 5.7-5.10): n_temps and factor x n_temps per
    snapshot, extra temperatures on the prior -> first snapshot link, runs per document."""

    n_docs: int
    n_temps: int
    factor: int
    extra: int
    runs: int


@dataclass(frozen=True)
class NTemps:
    """Fig 5.6: grid of temperature counts (not given in the document; ours), S samples,
    burn-in, max doc length."""

    grid: list[int]
    S: int
    burn: int
    max_len: int


@dataclass(frozen=True)
class Exact:
    """Exact-DP checks of the estimators (C5.1, C5.11-C5.13) on tiny synthetic documents:
    ``n_temps`` temperatures and ``S`` samples for C5.1 and C5.13 (ours); ``long_temps``
    temperatures for the additivity check (C5.12) and for the S=1 against ``S_many``
    samples comparison (C5.11): the document's 10,000 temperatures and S = 100 ("S = 1
    gave essentially exactly the same answer as S = 100 importance samples for ratio-AIS
    with 10,000 temperatures", Sec. 5.3)."""

    n_temps: int = 5000
    S: int = 20
    long_temps: int = 10000
    S_many: int = 100


@dataclass(frozen=True)
class Bench:
    K: int = 50
    doc_len: int = 200
    n_temps: int = 400


@dataclass(frozen=True)
class Tolerances:
    exact_abs: float = 0.1  # C5.1, C5.12, C5.13: |estimate - exact DP|
    s1_vs_s100_abs: float = 0.05  # C5.11
    path_spread_abs: float = 1e-3  # C5.6: spread of the four expensive corpus ratios
    # C5.5a/b, C5.4b (ours: the document gives no number): a difference counts as
    # "agreement" when its 95% interval lies within this fraction of the effect measured
    # (the converged log-likelihood difference), so the tolerance scales with the effect,
    # not with the estimator's noise
    effect_rel: float = 0.1
    pct_similar: float = 5.0  # T5.1 ACL expensive: "similar" % of documents (ours; doc: 0.4)


# ------------------------------------------------------------------ step settings
@dataclass(frozen=True)
class SynthSettings:
    corpora: dict[str, Corpus]


@dataclass(frozen=True)
class TrainSettings:
    train: Train


@dataclass(frozen=True)
class PerturbedSettings:
    perturbed: Compare


@dataclass(frozen=True)
class SymasymSettings:
    symasym: Compare


@dataclass(frozen=True)
class IterationSettings:
    iteration: Iteration


@dataclass(frozen=True)
class NTempsSettings:
    ntemps: NTemps


@dataclass(frozen=True)
class CorporaSettings:
    """Tables and figures label corpora by role and dataset."""

    corpora: dict[str, Corpus]


@dataclass(frozen=True)
class BenchSettings:
    bench: Bench = field(default_factory=Bench)


@dataclass(frozen=True)
class ClaimsSettings:
    corpora: dict[str, Corpus]
    train: Train
    exact: Exact = field(default_factory=Exact)
    claims: Tolerances = field(default_factory=Tolerances)


def data_kind(corpora: dict[str, Corpus], role: str) -> str:
    return "synthetic" if corpora[role].kind == "synthetic" else "substitute"
