"""Study ``ais_eval``: Foulds (2014) chapter 5, likelihood estimators for topic models.

The document: James R. Foulds (2014), *Latent Variable Modeling for Networks and Text:
Algorithms, Models and Evaluation Techniques*, PhD dissertation, University of California,
Irvine (seed 004). Sections, equations, figures and tables cited in this package are its
own (chapter 5: Sec. 5.1-5.3, Algorithm 8, Figs 5.4-5.11, Tables 5.1-5.3).

The settings of every step: the fields are the keys of the ``ais_eval`` config section
the step reads, the defaults here are the only defaults. Corpora have roles named after
the document's corpus they stand in for (``nips``, ``acl``; Sec. 5.3).

Notes
-----
Readings (``readings.py``, issue 37): ``first_snapshot``, where the iteration-AIS path of
Figs 5.7-5.10 starts (the document's Φ(1), ``train.first_snapshot: 1``, or the
iteration-10 snapshot of the run before), and ``perturbation``, what Sec. 5.3.1's
perturbation moves (``train.perturb_mode``), and ``lr_reference``, the left-to-right run
Table 5.3's correlations are taken against (the table's "Long LR Run",
``symasym.reference: long``, a separate run of ``symasym.lr_long_temps``, or its caption's
"a run of left-to-right in the expensive regime", ``expensive``, the expensive regime's
second run); ``snakemake ais_eval_readings`` sweeps the first two on smoke, all three on
real.
The evidence files of the causes and REVERSALS.md case 4 (``evidence/doc_length.csv``,
``evidence/iteration_jensen.csv``, ``evidence/first_snapshot_synthetic.csv``) are built by
``snakemake ais_eval_evidence``, not by the study's target. The table and figure rows take
their noise from a bootstrap over the test documents (``claims.py``).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Literal

from latentlab.settings import Invalid, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "ais_eval",
    document="Foulds 2014 (seed 004), ch. 5",
    title="AIS and other likelihood estimators for topic models",
    modules=("runs", "figures", "tables", "claims", "bench", "evidence"),
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
    """Seed offset of a named step (and role): sum of crc32(tag) mod 100003. A step's seed
    is ``ctx.seed(tag_offset(step, role))`` and a seed a function derives from it is
    ``shape.derive_seed(seed, r=...)``, the policy of every study; the offset is the
    names' hash, not a setting, so that each (step, role) pair has its own seed whatever
    roles a config declares (and the published runs' seeds stay as they were)."""
    return sum(zlib.crc32(str(t).encode()) % 100_003 for t in tags)


@dataclass(frozen=True)
class Synthetic:
    """LDA with alpha_k ∝ alpha_decay^k (total alpha_sum), so an asymmetric-alpha model has
    a visible advantage (Table 5.3); data/synthetic.lda_corpus_decaying_alpha."""

    n_docs: int = setting(400, ge=1)  # documents
    n_vocab: int = setting(500, ge=1)  # vocabulary size
    n_topics: int = setting(10, ge=1)  # topics of the generating LDA
    doc_length: float = setting(80, ge=1)  # mean document length (Poisson)
    min_length: int = setting(10, ge=0)  # shortest document (tokens)
    alpha_sum: float = setting(1.0, gt=0)  # total of the generating alpha
    alpha_decay: float = setting(0.6, gt=0, le=1)  # alpha_k ∝ alpha_decay^k
    beta: float = setting(0.05, gt=0)  # Dirichlet prior of the generating topics


@dataclass(frozen=True)
class Corpus:
    """A role's corpus: synthetic (generated here) or a data-layer dataset by name."""

    # synthetic: generated here (settings: synthetic); real: the data-layer dataset `dataset`
    kind: Literal["synthetic", "real"]
    dataset: str  # the dataset's name (a synthetic corpus: its label in tables and figures)
    synthetic: Synthetic | None = None


@dataclass(frozen=True)
class Train:
    """CGS with Minka alpha/beta on the MALLET schedule (Sec. 5.3; the schedule is inferred
    from Figs 5.7 and 5.11); snapshots for Figs 5.7-5.10; ~test_frac held out; perturbed
    topics for Table 5.1 (Sec. 5.3.1)."""

    K: int = setting(ge=1)  # topics
    n_iter: int = setting(ge=1)  # Gibbs iterations
    alpha_sum: float = setting(gt=0)  # initial alpha sum (MALLET default 5.0)
    beta: float = setting(gt=0)  # initial topic prior (learned with alpha on its schedule)
    # alpha (and beta) re-optimised every optimize_interval iterations after
    # optimize_burn_in (MALLET --optimize-interval; 0 disables)
    optimize_interval: int = setting(ge=0)
    optimize_burn_in: int = setting(ge=0)  # MALLET --optimize-burn-in
    # the topics are kept every snapshot_every iterations (Figs 5.7-5.10)
    snapshot_every: int = setting(ge=1)
    test_frac: float = setting(gt=0, lt=1)  # held-out fraction of the documents
    # Table 5.1: the fraction of the token assignments moved (the document: 5%, Sec. 5.3.1)
    perturb_frac: float = setting(ge=0, le=1)
    # a moved token gets a random topic and keeps its word (topic) or goes to a random
    # (word, topic) cell (cell)
    perturb_mode: Literal["topic", "cell"]
    # topic entropy and log prior recorded every stats_every iterations (Fig. 5.11)
    stats_every: int = setting(1, ge=1)
    # the iteration of the first snapshot, the first model of the iteration-AIS path after
    # the prior (then every multiple of snapshot_every after it). 1: the document's Φ(1)
    # ("At the first learning iteration Φ(1)", Sec. 5.3.3; Fig 5.3's "Prior ⇒ Model at
    # iteration 1"); snapshot_every: the grid alone (our run before issue 37). A reading:
    # studies/ais_eval/readings.py (first_snapshot)
    first_snapshot: int = setting(1, ge=1)
    max_test_docs: int | None = setting(None, ge=1)  # budget cap on evaluated test documents

    def __post_init__(self):
        if self.snapshot_every > self.n_iter:
            raise Invalid(
                "snapshot_every", f"{self.snapshot_every} > n_iter {self.n_iter}: no snapshot"
            )
        if self.first_snapshot > self.n_iter:
            raise Invalid(
                "first_snapshot", f"{self.first_snapshot} > n_iter {self.n_iter}: no snapshot"
            )


@dataclass(frozen=True)
class Compare:
    """Estimator comparison (Tables 5.1-5.3): temperatures of the cheap/expensive regimes,
    runs per document, burn = r_{n-1} burn-in sweeps (Sec. 5.2.1; their number the document
    leaves open), S importance samples."""

    cheap_temps: int = setting(ge=1)  # temperatures per document, cheap regime
    expensive_temps: int = setting(ge=1)  # temperatures per document, expensive regime
    runs: int = setting(ge=1)  # runs per document (their random streams differ)
    burn: int = setting(ge=0)  # ratio-AIS burn-in sweeps at model 2, r_{n-1} (Sec. 5.2.1)
    S: int = setting(ge=1)  # importance samples per document
    n_docs: int | None = setting(None, ge=1)  # the first n_docs test documents (null: all)
    # Table 5.3: budget of the long LR reference run
    lr_long_temps: int | None = setting(None, ge=1)


@dataclass(frozen=True)
class Iteration:
    """Iteration-AIS (Sec. 5.2.2, Figs 5.7-5.10): n_temps and factor x n_temps per
    snapshot, extra temperatures on the prior -> first snapshot link, runs per document."""

    n_docs: int = setting(ge=1)  # the first n_docs test documents
    n_temps: int = setting(ge=1)  # temperatures per snapshot (the first budget)
    factor: int = setting(ge=1)  # the second budget: factor x n_temps
    extra: int = setting(ge=0)  # extra temperatures on the prior -> first snapshot link
    runs: int = setting(ge=1)  # runs per document


@dataclass(frozen=True)
class NTemps:
    """Fig 5.6: grid of temperature counts (not given in the document; ours), S samples,
    burn-in, max doc length."""

    grid: list[int] = setting(ge=1)  # temperature counts (ours)
    S: int = setting(ge=1)  # importance samples, each its own S = 1 estimate
    burn: int = setting(ge=0)  # ratio-AIS burn-in sweeps
    max_len: int = setting(ge=1)  # the document: the longest test one with <= max_len tokens


@dataclass(frozen=True)
class Exact:
    """Exact-DP checks of the estimators (C5.1, C5.11-C5.13) on tiny synthetic documents:
    ``n_temps`` temperatures and ``S`` samples for C5.1 and C5.13 (ours); ``long_temps``
    temperatures for the additivity check (C5.12) and for the S=1 against ``S_many``
    samples comparison (C5.11): the document's 10,000 temperatures and S = 100 ("S = 1
    gave essentially exactly the same answer as S = 100 importance samples for ratio-AIS
    with 10,000 temperatures", Sec. 5.3)."""

    n_temps: int = setting(5000, ge=1)
    S: int = setting(20, ge=1)
    long_temps: int = setting(10000, ge=1)
    S_many: int = setting(100, ge=1)
    # tiny problems (seeds) each check is run on: the rows' replicates (issue 38)
    replicates: int = setting(3, ge=1)


@dataclass(frozen=True)
class Bench:
    """Throughput of the annealing kernels on random models and documents (bench.csv)."""

    K: int = setting(50, ge=1)  # topics
    doc_len: int = setting(200, ge=1)  # tokens per document
    n_temps: int = setting(400, ge=1)  # temperatures per estimate


@dataclass(frozen=True)
class JensenEvidence:
    """evidence/iteration_jensen.csv (issue 22 case 4; issue 37 lead 3): iteration-AIS on the
    study's own snapshots with ``chains`` independent chains per document at the iteration
    step's n and extra (iteration.n_temps, iteration.extra), along each path its models
    hold (from train.first_snapshot, and from the first snapshot of the grid: the reading
    first_snapshot), on the first ``n_docs`` test documents and on the ``n_docs`` longest
    (``doc_sets``); left-to-right at n and factor x n (one run) at every snapshot beside it."""

    chains: int = setting(8, ge=2)  # independent chains per document (S)
    n_docs: int = setting(5, ge=1)  # documents per set
    # first: the iteration step's documents; longest: the longest evaluated test documents
    doc_sets: list[Literal["first", "longest"]] = setting(factory=lambda: ["first", "longest"])


@dataclass(frozen=True)
class SyntheticPathEvidence:
    """evidence/first_snapshot_synthetic.csv (issue 37 lead 3's synthetic check): a
    synthetic LDA corpus (``corpus``), CGS with ``K`` topics for ``n_iter`` iterations, the
    snapshots at iteration 1 and every ``snapshot_every``; on ``n_test`` held-out documents,
    iteration-AIS with ``n_temps`` temperatures per link (+ ``extra`` on the first), ``runs``
    independent chains, from the iteration-1 snapshot and from the first grid snapshot, and
    left-to-right with ``lr_particles`` particles at every snapshot: the deficit of each path
    against it."""

    corpus: Synthetic = field(
        default_factory=lambda: Synthetic(n_docs=200, n_vocab=1000, n_topics=20, doc_length=600,
                                          min_length=400, alpha_sum=2.0, alpha_decay=1.0)
    )  # fmt: skip
    K: int = setting(20, ge=1)  # topics of the trained model
    n_iter: int = setting(100, ge=1)  # CGS iterations
    snapshot_every: int = setting(10, ge=1)  # the grid of snapshots after iteration 1
    test_frac: float = setting(0.05, gt=0, lt=1)  # held-out fraction of the documents
    n_test: int = setting(3, ge=1)  # held-out documents scored
    n_temps: int = setting(1000, ge=1)  # temperatures per link
    extra: int = setting(1000, ge=0)  # extra temperatures on the prior -> first model link
    runs: int = setting(4, ge=2)  # independent chains per document
    lr_particles: int = setting(12, ge=1)  # the left-to-right reference's particles

    def __post_init__(self):
        if self.snapshot_every >= self.n_iter:
            raise Invalid("snapshot_every", f"{self.snapshot_every} >= n_iter {self.n_iter}")


@dataclass(frozen=True)
class Evidence:
    """The evidence files the causes and REVERSALS.md cite (issue 37: targets, not scripts;
    ``snakemake ais_eval_evidence``)."""

    jensen: JensenEvidence = field(default_factory=JensenEvidence)
    synthetic: SyntheticPathEvidence = field(default_factory=SyntheticPathEvidence)


@dataclass(frozen=True)
class Tolerances:
    """Tolerances of the claims."""

    exact_abs: float = setting(0.1, ge=0)  # C5.1, C5.12, C5.13: |estimate - exact DP|
    s1_vs_s100_abs: float = setting(0.05, ge=0)  # C5.11
    # C5.6: spread of the four expensive corpus ratios
    path_spread_abs: float = setting(1e-3, ge=0)
    # C5.5a/b (ours: the document gives no number): Fig 5.6's margin and agreement band,
    # this fraction of the effect measured (the converged log-likelihood difference), so it
    # scales with the effect, not with the estimator's noise
    effect_rel: float = setting(0.1, ge=0)


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
class SymasymCompare(Compare):
    """Table 5.3's comparison, and its correlation reference (the reading lr_reference):
    ``long``, a separate left-to-right run of ``lr_long_temps`` temperatures (the table's
    'Correlation with Long LR Run'); ``expensive``, the expensive regime's second
    left-to-right run (the caption's 'a run of left-to-right in the expensive regime';
    each estimator's first run is correlated with it)."""

    # Table 5.3's correlation reference: long (a separate lr_long_temps run) or expensive
    reference: Literal["long", "expensive"] = "long"


@dataclass(frozen=True)
class SymasymSettings:
    symasym: SymasymCompare

    def __post_init__(self):
        e = self.symasym
        if e.reference == "long" and e.lr_long_temps is None:
            raise Invalid("symasym.lr_long_temps", "required (Table 5.3's long LR reference)")
        if e.reference == "expensive" and e.runs < 2:
            raise Invalid("symasym.runs", "the expensive reference is the second run: runs >= 2")


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
class JensenSettings:
    corpora: dict[str, Corpus]
    iteration: Iteration
    evidence: Evidence = field(default_factory=Evidence)


@dataclass(frozen=True)
class SyntheticPathSettings:
    evidence: Evidence = field(default_factory=Evidence)


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
