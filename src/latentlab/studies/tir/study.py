"""Study ``tir`` (Foulds 2014, ch. 3): the study object and the settings of its steps.

The document: James R. Foulds (2014), *Latent Variable Modeling for Networks and Text: Algorithms,
Models and Evaluation Techniques*, PhD dissertation, University of California, Irvine
(seed 004). Sections, equations, figures and tables cited in this package are its
own (chapter 3).

Every default below is the document's value where it gives one (alpha = beta = 0.1,
sigma = 1, 250 burn-in + 1000 iterations, regression every 10 iterations, AIS on every
100th sample, 500 burn-in for the exploratory runs); the rest are recorded choices
(K, AIS temperatures and samples, initial l, the citation direction of Cora), and the
budget of TIR's regression step is a reading (``readings.py``: regression_budget).

Notes
-----
``table3_2`` is the Cora analogue of Tables 3.2/3.3 and ``table3_4`` of 3.4/3.5;
``fig3_4`` and ``fig_l_recovery`` are drawn on synthetic TIR corpora with known influence.
Table 3.1's fits and the exploratory fits run ``predict.reps`` / ``explore.reps`` times
(the claims' replicates; the tables show run 0). The readings sweep ``regression_budget``
reruns the l recovery and the benchmark under every option (``tir_readings``);
``evidence/recovery_by_citers.csv`` is the evidence of REVERSALS.md case 3.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from latentlab.settings import Invalid, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "tir",
    document="004_1d0e5f2e58b54e45",
    title="Topical influence regression",
    modules=("runs", "figures", "tables", "claims", "bench"),
    source=Source(
        "004", "Foulds (PhD 2014): DRIFT, TIR, SCVB0, AIS evaluation", "Foulds 2014", "ch. 3"
    ),
    data={
        "cora": (
            "stands in for ACL and NIPS in the real run (cycles broken by a seeded rule, counted "
            "in `prep/cora/summary.json`)"
        ),
        "aan": (
            "the ACL Anthology Network (release 2013), paper run; no published checksum: verified"
            " by its published counts after parsing"
        ),
        "nips_cite": (
            "Heinrich's NIPS 0-12 with citations (set `tir.corpora.predict`); no published "
            "checksum: verified by its published counts after parsing"
        ),
    },
)


@dataclass(frozen=True)
class SynthCorpus:
    """A TIR/TIRE corpus on a random citation DAG (Algorithms 4-5)."""

    n_docs: int = setting(ge=1)  # documents, in order: each cites only earlier ones (a DAG)
    n_vocab: int = setting(ge=1)  # vocabulary size
    K: int = setting(ge=1)  # topics
    doc_length: int = setting(ge=1)  # mean document length (Poisson, at least 10 tokens)
    # each document cites a uniform 0..max_cites earlier documents (at most all of them),
    # drawn with probability proportional to their in-degree + 1
    max_cites: int = setting(ge=0)
    rate: float = setting(gt=0)  # l ~ Exponential(rate)
    alpha: float = setting(0.1, gt=0)  # base Dirichlet prior of every document (Eq 3.1)
    beta: float = setting(0.1, gt=0)  # Dirichlet prior of the topics
    # tir: an edge weighs l^(c) of the cited document; tire: a truncated-Gaussian edge
    # weight around it (sd sigma)
    kind: Literal["tir", "tire"] = "tir"
    sigma: float = setting(1.0, gt=0)  # tire: sd of the edge weights around l^(c)
    # planted "self-citation" edges (Fig 3.4 stand-in)
    self_frac: float = setting(0.0, ge=0, le=1)
    # tire: a self-citation edge's weight is drawn around l^(c) + self_boost
    self_boost: float = setting(0.0, ge=0)
    seed_offset: int = 0  # the corpus's seed: base_seed + this


@dataclass(frozen=True)
class SynthSettings:
    synthetic: dict[str, SynthCorpus] = field(default_factory=dict)


@dataclass(frozen=True)
class GraphCfg:
    """The citation graph's cleaning (models.tir.graph): link direction and cycles."""

    # Cora's cites list: row i lists what i cites (recorded choice; the lda package does
    # not document the direction).
    cites_direction: Literal["row_cites_col", "col_cites_row"] = "row_cites_col"
    # a citation cycle: break it by deleting a seeded random edge of it (as the document,
    # Sec 3.5), or stop with an error naming a document
    on_cycle: Literal["break", "error"] = "break"
    seed_offset: int = 100  # the cycle-breaking edges' seed: base_seed + this


@dataclass(frozen=True)
class SplitCfg:
    """Table 3.1's split (Sec 3.5.2): test documents among the citing ones, and the
    held-out tokens of each."""

    test_frac: float = setting(0.1, gt=0, le=1)  # of the citing documents (Sec 3.5.2)
    heldout_frac: float = setting(0.5, gt=0, lt=1)  # of each test document's tokens
    seed_offset: int = 200  # the split's seed: base_seed + this


@dataclass(frozen=True)
class PrepareSettings:
    graph: GraphCfg = GraphCfg()
    split: SplitCfg = SplitCfg()


@dataclass(frozen=True)
class FitCfg:
    """The models' Gibbs sampler and regression step (Secs 3.3-3.5.2)."""

    # not stated by the document (Sec. 3.5); ours, ch. 5's K on the same corpora
    K: int = setting(50, ge=1)
    # base Dirichlet prior of every document (Eq 3.1; document: 0.1)
    alpha: float = setting(0.1, gt=0)
    beta: float = setting(0.1, gt=0)  # Dirichlet prior of the topics (document: 0.1)
    # TIRE's MAP edge weights: sd of the truncated-Gaussian term around l^(c) (Alg 5;
    # document: 1)
    sigma: float = setting(1.0, gt=0)
    burn_in: int = setting(250, ge=0)  # Gibbs sweeps before the samples (document: 250)
    n_iter: int = setting(1000, ge=1)  # Gibbs sweeps after the burn-in (document: 1000)
    # a regression step after every interval-th sweep (document: every 10 iterations)
    interval: int = setting(10, ge=1)
    # Table 3.1: every sample_every-th sweep after the burn-in scores the held-out halves
    # by AIS (document: every 100th sample)
    sample_every: int = setting(100, ge=1)
    # l by stochastic-EM ML, MAP (Exponential prior), or sampled by MH or slice sampling
    # (Sec 3.4's alternatives; TIR only)
    estimator: Literal["ml", "map", "mh", "slice"] = "ml"
    # Exponential rate of the MAP variant and of the samplers' prior
    rate: float = setting(1.0, gt=0)
    # Sec 3.4's alternatives (MH, slice sampling on l): neither step size is stated
    # sd of the Gaussian random-walk proposal on l^(c) (words)
    mh_step: float = setting(1.0, gt=0)
    slice_width: float = setting(1.0, gt=0)  # slice sampler's step-out width w (Neal 2003)
    l_init: float = setting(1.0, ge=0)  # initial l of every document (ours)
    # when a document's prior is recomputed from its cited documents' counts: at its visit
    # or once per sweep (ours: the document does not say)
    refresh: Literal["visit", "sweep"] = "visit"
    # TIR's regression step on l (Sec 3.4: "maximum likelihood updates on l, obtained via
    # stochastic EM using gradient ascent"; Sec 3.5: "regression steps every 10 Gibbs
    # iterations"; no step size, number of steps or stopping rule is given: reading
    # regression_budget, readings.py): L-BFGS-B under l >= 0 for at most lbfgs_iter
    # iterations, or grad_iter projected gradient-ascent steps of size grad_step
    optimizer: Literal["lbfgs", "gradient"] = "lbfgs"
    # TIR: L-BFGS-B iterations at most per regression step (default 1: one projected
    # steepest-ascent step with a line search, the literal reading; 1000: the M-step to
    # L-BFGS-B's convergence test where it comes, on the synthetic recovery corpora)
    lbfgs_iter: int = setting(1, ge=1)
    grad_iter: int = setting(1, ge=1)  # TIR, optimizer gradient: steps per regression step
    # TIR, optimizer gradient: the step size (words of l per nat of log-likelihood gradient)
    grad_step: float = setting(0.1, gt=0)
    # TIRE's edge weights and DMR's lambda: L-BFGS-B iterations at most per regression step
    # (ours, not the reading above, which concerns TIR's l)
    lbfgs_iter_other: int = setting(50, ge=1)
    seed_offset: int = 300  # the fit's seed: base_seed + this

    def __post_init__(self):
        if self.sample_every > self.n_iter:
            raise Invalid(
                "sample_every",
                f"{self.sample_every} > n_iter {self.n_iter}: Table 3.1 would score no "
                "posterior sample",
            )


@dataclass(frozen=True)
class AisCfg:
    """Table 3.1's held-out scores: standard AIS on the held-out half of every test
    document (Sec 3.5.2; temperatures and samples are ours)."""

    n_temps: int = setting(1000, ge=1)  # AIS temperatures per held-out half
    S: int = setting(10, ge=1)  # importance samples per document (log-mean-exp of them)
    seed_offset: int = 400  # the AIS seed: base_seed + this


@dataclass(frozen=True)
class PredictCfg:
    """Table 3.1's fits: runs of every model (the document reports one run)."""

    # runs per model, seeds base_seed + fit.seed_offset + r (r = 0: the run the published
    # Table 3.1 had); the claims read every run as a replicate
    reps: int = setting(1, ge=1)


@dataclass(frozen=True)
class FitSettings:
    fit: FitCfg = FitCfg()
    ais: AisCfg = AisCfg()
    predict: PredictCfg = PredictCfg()


@dataclass(frozen=True)
class ExploreCfg:
    """The exploratory TIR and TIRE fits on the whole corpus (Tables 3.2-3.5, Fig 3.4)."""

    burn_in: int = setting(500, ge=0)  # "500 burn-in iterations" (Sec 3.5)
    seed_offset: int = 500  # the exploratory fits' seed: base_seed + this + r
    # runs of every exploratory fit (r = 0: the one Tables 3.2-3.5 and Fig 3.4 show); the
    # claims read every run as a replicate
    reps: int = setting(1, ge=1)


@dataclass(frozen=True)
class ExploreSettings:
    fit: FitCfg = FitCfg()
    explore: ExploreCfg = ExploreCfg()


@dataclass(frozen=True)
class RecoveryCfg:
    """l recovery on a synthetic TIR corpus (Sec 3.4): each variant's L1 error from the
    true l."""

    n_iter: int = setting(200, ge=1)  # Gibbs sweeps of every variant (the same for all)
    reps: int = setting(3, ge=1)  # runs of every variant (seeds base_seed + seed_offset + rep)
    exact: bool = True  # also run the exact sampler of Eq 3.4 (claim C3.6)
    # also sample l by MH and by slice sampling (Sec 3.4, claim C3.3); their estimate of l
    # is the posterior mean of the samples after the first average_frac of the sweeps
    samplers: bool = True
    # the samplers' l: the mean of the samples after this fraction of the n_iter sweeps
    average_frac: float = setting(0.5, ge=0, lt=1)
    seed_offset: int = 600  # the fits' seed: base_seed + this + rep


@dataclass(frozen=True)
class RecoverySettings:
    fit: FitCfg = FitCfg()
    recovery: RecoveryCfg = RecoveryCfg()


@dataclass(frozen=True)
class EvidenceSettings:
    """evidence_recovery_by_citers: the recovery fits' estimates of l by the cited
    document's number of citers, beside ML and MAP given the true topic assignments."""

    corpora: dict[str, str] = field(default_factory=dict)  # the recovery corpus
    synthetic: dict[str, SynthCorpus] = field(default_factory=dict)  # its generator's rate
    fit: FitCfg = FitCfg()  # the alpha of the regression given the true z


@dataclass(frozen=True)
class TableCfg:
    top: int = setting(5, ge=1)  # Table 3.2: documents per ranking (citations, l, T)
    # Table 3.4: the most cited documents whose extreme edges are listed (the document: 3)
    edge_docs: int = setting(3, ge=1)


@dataclass(frozen=True)
class TableSettings:
    tables: TableCfg = TableCfg()


@dataclass(frozen=True)
class BenchCfg:
    """bench.csv: Gibbs throughput of TIR, TIRE, DMR and LDA at fit.K, the time of a
    regression step, and tomotopy's DMRModel."""

    sweeps: int = setting(5, ge=1)  # Gibbs sweeps per timing
    repeats: int = setting(3, ge=1)  # timings per sampler (the fastest is kept)
    tomotopy: bool = True  # also time tomotopy's DMRModel (when installed)


@dataclass(frozen=True)
class BenchSettings:
    fit: FitCfg = FitCfg()
    bench: BenchCfg = BenchCfg()


@dataclass(frozen=True)
class ClaimTolerances:
    """Tolerances of the claims."""

    l1_ratio: float = 0.0  # ML error / baseline error <= 1 + this
    approx_rel: float = 0.25  # approximate / exact sampler L1 error <= 1 + this
    sign_p_rel: float = setting(0.1, ge=0)  # document's p vs the exact binomial p
    speed_ratio: float = 0.5  # TIR tokens/s >= (1 - this) x LDA's
    # "most test documents": a one-sided sign test at this level
    sign_alpha: float = setting(0.05, gt=0, lt=1)


@dataclass(frozen=True)
class ClaimsSettings:
    claims: ClaimTolerances = ClaimTolerances()
    # the corpus of each role: predict (Table 3.1), explore (Tables 3.2-3.5), selfcite
    # (Fig 3.4), recovery (l recovery); a synthetic one is a key of tir.synthetic
    corpora: dict[str, str] = field(default_factory=dict)
    fit: FitCfg = FitCfg()  # C3.9 charges one regression step per fit.interval sweeps
    tables: TableCfg = TableCfg()  # C3.10 notes Table 3.4's documents (tables.edge_docs)


def first_run(df):
    """The rows of run 0 of an exploratory fit's CSV (the run Tables 3.2-3.5 and Fig 3.4
    show), without its ``rep`` column."""
    if "rep" not in df:
        return df
    return df[df["rep"] == 0].drop(columns="rep").reset_index(drop=True)
