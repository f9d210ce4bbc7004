"""Study ``scvb0``: Foulds (2014) chapter 4, SCVB0 vs SVB.

The document: James R. Foulds (2014), *Latent Variable Modeling for Networks and Text:
Algorithms, Models and Evaluation Techniques*, PhD dissertation, University of California,
Irvine (seed 004). Sections, equations, figures and tables cited in this package are its
own (chapter 4: Sec. 4.2-4.6, Algorithm 7, Figs 4.1-4.10, Tables 4.4-4.5).

The settings of every step: the fields are the keys of the ``scvb0`` config section the
step reads, the defaults here are the only defaults. Seeds: ``ctx.seed(offset, r)`` with
the named offsets below.

Notes
-----
The real run adds large synthetic LDA corpora (up to 200,000 documents, config
``scvb0.datasets``) for the scale trend of Figs 4.4, 4.5 and 4.7. ``fig4_3_<dataset>`` is
Fig 4.3 drawn again on each corpus of ``curves.extra_datasets``. The readings sweeps
``phi_clock`` (what t of rho_phi counts) and ``scvb0_init`` (the scale of SCVB0's random
start) rerun the curves of the synthetic corpora under every option (``scvb0_readings``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from latentlab.settings import require_by_kind, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "scvb0",
    document="004_1d0e5f2e58b54e45",
    title="SCVB0 vs SVB",
    modules=("runs", "figures", "tables", "claims", "bench"),
    source=Source(
        "004", "Foulds (PhD 2014): DRIFT, TIR, SCVB0, AIS evaluation", "Foulds 2014", "ch. 4"
    ),
    data={
        "newsgroups": "stands in for PubMed, NYT and Wikipedia in the real run",
        "kos": "stands in for NIPS in the real run",
        "ap": "a further corpus of Fig 4.3 in the real run (`fig4_3_ap`)",
        "cora": "a further corpus of Fig 4.3 in the real run (`fig4_3_cora`)",
        "uci_pubmed": "PubMed, paper run",
        "uci_nytimes": "NYT, paper run (it stands in for Wikipedia in Fig 4.5)",
        "uci_nips": "NIPS, paper run",
    },
)

# seed = base_seed + offset (+ run r)
SEED_SPLIT = 1  # held-out documents
SEED_HALVES = 2  # observed / scored halves of the held-out documents
SEED_MODEL = 10  # SCVB0 / SVB of the curves
SEED_SUBSETS = 20  # Fig 4.7 subsets
SEED_BATCH_VB = 30  # Fig 4.7 batch VB
SEED_TOPICS = 99  # Tables 4.4/4.5: which topics are listed


@dataclass(frozen=True)
class Schedule:
    """rho_t = s/(tau + t)^kappa (Sec. 4.3); Thm 4.6.1 needs 0 < rho_t <= 1, kappa in (0, 1]."""

    s: float = setting(gt=0)  # scale s (Sec. 4.3.1: 10 for rho_phi, 1 for rho_theta)
    tau: float = setting(ge=0)  # delay tau (Sec. 4.3.1: 1000 for rho_phi, 10 for rho_theta)
    kappa: float = setting(gt=0, le=1)  # decay exponent kappa (Sec. 4.3.1: 0.9 for both)


@dataclass(frozen=True)
class SVBVariant:
    """SVB-Bx-Oy (Sec. 4.3.1): B local passes, hyperparameter offset O."""

    B: int = setting(ge=1)  # local passes per document of a minibatch (Sec. 4.3.1: 1 or 5)
    # offset added to alpha and beta for SVB's training (Sec. 4.3.1: 0 or 0.5)
    O: float = setting(ge=0)  # noqa: E741


@dataclass(frozen=True)
class Dataset:
    """A corpus: synthetic LDA (generated from base_seed + seed_offset) or a data-layer
    dataset by ``name`` (kos, newsgroups, ap, cora, uci_nytimes, uci_pubmed)."""

    # synthetic: LDA corpus made by the corpus step; real: the data-layer dataset `name`
    kind: Literal["synthetic", "real"]
    name: str | None = None
    D: int | None = None  # synthetic: number of documents
    W: int | None = None  # synthetic: vocabulary size (words)
    K: int | None = None  # synthetic: number of topics of the generating LDA
    doc_len: float | None = None  # synthetic: mean document length, tokens (Poisson, >= 1)
    alpha: float = 0.1  # synthetic: Dirichlet prior of each document's topic proportions
    beta: float = 0.01  # synthetic: Dirichlet prior of each topic's word distribution
    seed_offset: int = 0  # synthetic: the corpus is drawn with seed base_seed + seed_offset

    def __post_init__(self):
        require_by_kind(self, {"synthetic": ("D", "W", "K", "doc_len"), "real": ("name",)})


@dataclass(frozen=True, kw_only=True)
class Model:
    """The SCVB0 / SVB settings (Sec. 4.3.1)."""

    alpha: float = setting(gt=0)  # document prior (0.1)
    beta: float = setting(gt=0)  # topic prior (0.01)
    minibatch: int = setting(ge=1)  # documents per minibatch (100)
    rho_phi: Schedule  # topic step (s=10, tau=1000, kappa=0.9), also SVB's
    rho_theta: Schedule  # document step (s=1, tau=10, kappa=0.9)
    n_burn: int = setting(ge=0)  # SCVB0 burn-in passes per document (1)
    svb_variants: list[SVBVariant]
    # t of rho_phi: left open (readings.py)
    phi_clock: Literal["minibatch", "documents"] = "minibatch"
    clumping: bool = True  # Eq. 4.49 (clock per distinct word: left open)
    # N^Phi's start, left open (readings.py): Gamma(100, 1/100) scaled to C (corpus) or
    # Hoffman's lambda
    scvb0_init: Literal["corpus", "hoffman"] = "corpus"


def svb_name(B: int, O: float) -> str:  # noqa: E741
    return f"SVB-B{int(B)}-O{O:g}"


def method_names(s: Model) -> list[str]:
    """The methods of the curves: SCVB0, then one SVB-Bx-Oy per variant (methods.py builds
    them; the claims name them without importing the models)."""
    return ["SCVB0"] + [svb_name(v.B, v.O) for v in s.svb_variants]


@dataclass(frozen=True, kw_only=True)
class Heldout:
    """Document completion: held-out fraction, cap, theta fixed-point iterations (not given in
    the thesis; ours)."""

    # fraction of the non-empty documents held out (Sec. 4.3.1 held out 10,000 documents)
    heldout_frac: float = setting(gt=0, lt=1)
    # max fixed-point iterations of a held-out document's theta (not given in the thesis)
    heldout_theta_iters: int = setting(ge=1)
    # at most this many held-out documents in the curves and Fig 4.7 (rest train; null: all)
    heldout_max_docs: int | None = setting(None, ge=1)


@dataclass(frozen=True)
class Curves:
    """Figs 4.3-4.6: dataset per figure, K, passes, checkpoints (documents, geometric)."""

    K: int = setting(ge=1)  # topics (Sec. 4.3.1: 200)
    n_epochs: float = setting(gt=0)  # passes over the training documents per method and seed
    # held-out evaluations, geometric in documents processed (multiples of the minibatch)
    n_checkpoints: int = setting(ge=1)
    fig4_3: str  # dataset of Fig 4.3 (a key of datasets; the thesis: PubMed Central)
    fig4_4: str  # dataset of Fig 4.4 (the thesis: New York Times)
    fig4_5: str  # dataset of Fig 4.5 (the thesis: Wikipedia; C4.6b: more documents than fig4_4's)
    fig4_6: str  # dataset of Fig 4.6, LL vs documents processed (the thesis: PubMed Central)
    extra_datasets: list[str] = field(default_factory=list)  # Fig 4.3 repeated: fig4_3_<d>
    # runs per method (model seed base_seed + SEED_MODEL + r; the held-out split is shared):
    # the C4.4/C4.6 orderings are judged in every seed
    seeds: int = setting(1, ge=1)


@dataclass(frozen=True)
class Fig47:
    """Fig 4.7: SCVB0 on all documents vs batch VB on subsets of N documents (the thesis does not
    give N)."""

    dataset: str  # corpus (a key of datasets; the thesis: Wikipedia, Sec. 4.3.1)
    K: int  # topics (Sec. 4.3.1: 200)
    scvb0_epochs: float  # SCVB0's passes over all the training documents
    subsets: list[int]  # N: documents per batch-VB subset, random (the thesis gives none)
    vb_iters: int  # batch-VB iterations per subset (E-step on all its documents), each scored
    n_checkpoints: int = 15  # SCVB0's held-out evaluations, geometric in documents processed
    max_local: int = 100  # batch VB: at most this many E-step passes per document per iteration
    # batch VB: a document's E-step stops when the mean absolute change of its gamma < this
    local_tol: float = 1e-3


@dataclass(frozen=True)
class Demos:
    """Figs 4.1-4.2 (rho_t = step_a/t and w0; the thesis gives neither, ours) and 4.8-4.9
    (gamma ~ Beta(0.1, 0.1))."""

    n_iter: int  # iterations of the Robbins-Monro and gradient-ascent demos (Figs 4.1/4.2)
    w0_rm: float  # initial w of Robbins-Monro, Fig 4.1 (Sec. 4.1.4 does not give it)
    w0_sgd: float  # initial w of gradient ascent, Fig 4.2 (Sec. 4.1.4 does not give it)
    step_a: float  # a of rho_t = a/t in Figs 4.1/4.2 (Sec. 4.1.4 gives no schedule)
    n_words: int  # Figs 4.8/4.9: numbers of words 1 .. n_words on the x-axis (Sec. 4.4.1)
    repeats: int  # Figs 4.8/4.9: draws of gamma, averaged in *_avg (the thesis: one draw)


@dataclass(frozen=True)
class Fig410:
    """Fig 4.10: alpha = 0.01, 1000 repeats, 10^4 Monte Carlo draws in the thesis."""

    alpha: float  # alpha of E[log(n + alpha)] (Sec. 4.4.1: 0.01)
    max_words: int  # largest number of words i on the x-axis
    n_points: int  # count of log-spaced numbers of words 1..max_words (fewer after rounding)
    repeats: int  # draws of gamma averaged at each number of words (Sec. 4.4.1: 1,000)
    mc_draws: int  # Monte Carlo draws of n per repeat, the thesis's truth (Sec. 4.4.1: 10,000)


@dataclass(frozen=True)
class Budget:
    """Tables 4.4/4.5: topics after a fixed training-time budget (5 s NIPS, 60 s NYT)."""

    dataset: str  # corpus (a key of datasets; Sec. 4.3.2: NIPS for Table 4.4, NYT for 4.5)
    K: int  # topics (Sec. 4.3.2: 20 on NIPS, 50 on NYT)
    seconds: float  # training time per run and method, seconds (Sec. 4.3.2: 5 NIPS, 60 NYT)
    runs: int  # runs per method (Sec. 4.3.2: 10 on NIPS); the topics listed are run 0's
    n_show: int  # randomly chosen topics listed per method (Tables 4.4/4.5 show 3)
    svb: SVBVariant = SVBVariant(1, 0.0)  # the thesis does not say which SVB


@dataclass(frozen=True)
class Compare:
    """Time to reach scikit-learn's held-out LL; CGS tokens/s vs tomotopy."""

    dataset: str  # corpus of the comparison (a key of datasets)
    K: int  # topics of the comparison
    # passes of scikit-learn's online LDA, whose final held-out LL is the target; gensim's cap
    sklearn_iters: int
    cgs_iters: int  # CGS sweeps timed for tokens/s, ours and tomotopy's in turn
    scvb0_max_epochs: float | None = None  # None: sklearn_iters
    cgs_warm: int = 1  # untimed CGS sweeps (after initialisation) before the timed ones
    extra_schedules: list[Schedule] = field(default_factory=list)


@dataclass(frozen=True)
class Bench:
    """bench.csv: throughput of every LDA algorithm (ours; the thesis has no benchmark),
    and the comparison with scikit-learn, gensim and tomotopy."""

    datasets: list[str]  # corpora timed (keys of datasets)
    K: list[int]  # numbers of topics; every algorithm is timed at each
    seconds: float  # training time per algorithm, K and corpus, seconds (batch: >= 1 sweep)
    max_threads: int = 2  # >= 2: SCVB0, the first SVB variant and BatchVB also on 2 threads
    max_state_mb: float = 1500.0  # CVB0 / CVB skipped when their gammas would exceed this, MB
    compare: Compare | None = None


@dataclass(frozen=True)
class Tolerances:
    """Tolerances of the checks of claims.csv (ours, unless a field cites the thesis)."""

    similar_ll_tol: float  # C4.5: |LL gap| (nats/token) counted as similar (ours)
    # C4.4: "early in training" = this fraction of the common training time of the run
    # (the time every method's curve reaches). The document: on PubMed "all algorithms
    # perform similarly after about an hour, but prior to that SCVB0 is better" (Sec. 4.3.1)
    # in runs of several hours (the Wikipedia run trained in under 12 h); 0.1 is ours.
    early_fraction: float = 0.1
    throughout_points: int = 20  # C4.4b: log-spaced times at which the curves are compared
    decay_slope_tol: float = 0.1  # C4.2: log-log slope of the bound <= -1 + this
    speedup_abs: float = 0.5  # C4.8: ratio of documents processed >= 5.5 - this
    root_abs: float = 0.2  # F4.1/F4.2: distance of the final iterate to the root/maximum
    em_equal_abs: float = 1e-8  # C4.10
    mass_rel: float = 1e-9  # C4.11
    clumped_equal_abs: float = 1e-10  # C4.12
    monotone_rel: float = 1e-12  # C4.13


# ------------------------------------------------------------------ step settings
@dataclass(frozen=True)
class CorpusSettings:
    datasets: dict[str, Dataset]


@dataclass(frozen=True, kw_only=True)
class CurvesSettings(Model, Heldout):
    datasets: dict[str, Dataset]
    curves: Curves


@dataclass(frozen=True, kw_only=True)
class Fig47Settings(Model, Heldout):
    datasets: dict[str, Dataset]
    fig4_7: Fig47


@dataclass(frozen=True, kw_only=True)
class TopicsSettings(Model):
    heldout_frac: float
    datasets: dict[str, Dataset]
    table4_4: Budget
    table4_5: Budget


@dataclass(frozen=True, kw_only=True)
class BenchSettings(Model, Heldout):
    datasets: dict[str, Dataset]
    bench: Bench


@dataclass(frozen=True)
class DemoSettings:
    demos: Demos
    fig4_10: Fig410


@dataclass(frozen=True)
class ClaimsSettings:
    claims: Tolerances
    svb_variants: list[SVBVariant]
    datasets: dict[str, Dataset]
    curves: Curves
    fig4_7: Fig47
    table4_4: Budget
    table4_5: Budget


def data_kind(datasets: dict[str, Dataset], name: str) -> str:
    """The ledger's data kind of a dataset: synthetic, or substitute for a real corpus."""
    return "synthetic" if datasets[name].kind == "synthetic" else "substitute"
