"""Study ``nonconjugate_vi`` (Wang & Blei, JMLR 2013, seed 002) and its step settings.

The document: Chong Wang and David M. Blei (2013), "Variational Inference in Nonconjugate
Models", Journal of Machine Learning Research 14, 1005-1031 (arXiv 1209.4360). Sections,
equations, figures and tables cited in this package are its own.

The dataclasses are the only home of the defaults (among them the thresholds and settings the
document does not give); a rule
passes a step only the top-level keys its settings declare. Seeds: ``ctx.seed(offset, r)``
with the offsets named here.

Notes
-----
``bench_targets.csv`` (beside ``bench.csv``, built last): the time each of the
study's jobs took, from their Snakemake benchmark files (:mod:`latentlab.bench_targets`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from latentlab.settings import Invalid, require_by_kind, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "nonconjugate_vi",
    document="Wang & Blei (JMLR 2013), Variational inference in nonconjugate models (seed 002)",
    title="Laplace / delta-method VI",
    modules=("runs", "figures", "tables", "claims", "evidence"),
    source=Source(
        "002",
        "Wang & Blei (JMLR 2013): Laplace and delta-method VI for nonconjugate models",
        "Wang & Blei 2013",
    ),
    data={
        "ap": "the document's corpus (Figs 2, 5)",
        "newsgroups": "stands in for NYT (not public)",
        "yeast": "Table 1",
        "scene_mulan": "Table 1 (Scene)",
        "school": "Table 2 (ILEA School)",
    },
)

CTM_METHODS = ("laplace", "delta", "bl")


@dataclass(frozen=True)
class CorpusSpec:
    """A CTM corpus: synthetic (``n_docs, n_vocab, K_true, mean_len``) or a canonical real
    corpus (``dataset``; the rule gives its path), optionally subsampled to ``max_docs``
    documents with at least ``min_doc_len`` tokens and pruned to the ``vocab_max`` most
    frequent terms (a recorded choice of ours)."""

    name: str  # the corpus's name (fig2.corpus, fig6.corpus and bench.corpus name one)
    # synthetic: generated from the CTM of Sec. 4.1; real: the canonical corpus `dataset`
    kind: Literal["synthetic", "real"] = "synthetic"
    n_docs: int | None = setting(None, ge=1)  # synthetic: documents
    n_vocab: int | None = setting(None, ge=1)  # synthetic: vocabulary size
    K_true: int | None = setting(None, ge=1)  # synthetic: topics of the generating CTM
    # synthetic: mean document length (Poisson, at least 2 tokens)
    mean_len: float | None = setting(None, gt=0)
    dataset: str | None = None  # real: the dataset's name (the rule gives its file)
    # real: the ledger's data kind (substitute: a stand-in for the document's corpus)
    data_kind: Literal["real", "substitute"] = "real"
    stands_in_for: str | None = None  # the document's corpus it stands in for (recorded)
    # real: a seeded subset of at most max_docs documents (null: all of them)
    max_docs: int | None = setting(None, ge=1)
    min_doc_len: int = setting(2, ge=0)  # real: documents with fewer tokens are left out
    # real: the vocab_max most frequent terms are kept (null: all of them)
    vocab_max: int | None = setting(None, ge=1)

    def __post_init__(self):
        require_by_kind(
            self, {"synthetic": ("n_docs", "n_vocab", "K_true", "mean_len"), "real": ("dataset",)}
        )


@dataclass(frozen=True)
class CtmSettings:
    """CTM protocol (Sec. 5.1): 80/20 documents (seed offset ``split_seed``), halves of
    the test documents (``halves_seed``), fits seeded ``base_seed + K + seed_stride·r``.

    Variational EM (Sec. 5.1) runs until the relative change of the bound is below ``em_tol``
    (the document gives no budget). The sweep (Fig. 5) may cut it: after ``em_max_iter``
    iterations, after ``em_time_budget_s`` seconds (wall clock: which fits converge depends
    on the machine), or after ``em_iter_budget[corpus][K][method]`` iterations (the same on
    every machine; a mapping corpus -> K -> method -> iterations that must cover every
    corpus, K of ``K_grid`` and method of the sweep, checked at start-up).
    The ``evidence_em_iter_budget`` step derives it from timed sweep CSVs: floor(S / t) + 1
    iterations, with t the measured seconds per EM iteration of that (corpus, K, method),
    is what a time budget of S seconds gives on the machine that measured t
    (``evidence/em_iter_budget.csv``). Each fit records why EM stopped (``em_stop`` in the
    sweep CSV)."""

    corpora: list[CorpusSpec] = field(default_factory=list)
    # held-out fraction of the documents (Sec. 5.1: 20%)
    test_frac: float = setting(0.2, gt=0, lt=1)
    # the first max_test_docs test documents are scored (null: all)
    max_test_docs: int | None = setting(None, ge=1)
    K_grid: list[int] = setting(factory=lambda: [5, 10, 20], ge=2)  # the sweep's K (Fig. 5)
    seeds: int = setting(3, ge=1)  # fits per (K, method): r = 0..seeds-1
    # per-document inference of the sweep: Laplace, delta method, Blei & Lafferty's (bl)
    methods: list[Literal["laplace", "delta", "bl"]] = field(
        default_factory=lambda: list(CTM_METHODS)
    )
    em_max_iter: int = setting(10, ge=1)
    em_tol: float = setting(1e-3, ge=0)
    em_time_budget_s: float | None = setting(None, gt=0)
    # EM iterations of each sweep fit: corpus -> K -> method -> iterations (null: none)
    em_iter_budget: dict[str, dict[str, dict[str, int]]] | None = setting(None, ge=1)
    # per-document inference (Laplace, delta): its tolerance (ours)
    estep_tol: float = setting(1e-4, gt=0)
    # per-document inference (Laplace, delta): its iteration cap (ours)
    estep_max_iter: int = setting(100, ge=1)
    bl_tol: float = setting(1e-6, gt=0)  # per-document inference (BL): its tolerance (ours)
    bl_max_iter: int = setting(20, ge=1)  # per-document inference (BL): its iteration cap
    # held-out predictive: plug-in mean of the topic proportions, or Monte Carlo (n_mc)
    predictive: Literal["plugin", "mc"] = "plugin"
    n_mc: int = setting(1000, ge=1)  # samples of the mc predictive
    pseudo_count: float = setting(1e-10, ge=0)  # M-step: topics ∝ expected counts + this
    # ridge of an ill-conditioned Sigma0: ridge_rel x tr(Sigma0)/K, x10 until well
    # conditioned (ours)
    ridge_rel: float = setting(1e-6, gt=0)
    split_seed: int = 1
    halves_seed: int = 2
    seed_stride: int = 1000  # the fit of seed r: base_seed + K + seed_stride·r

    def __post_init__(self):
        from latentlab.errors import ConfigError

        if self.em_iter_budget is None:
            return
        # keys as strings, as the config parser gives them (YAML reads the K keys as ints)
        budget = {str(c): {str(K): dict(by_m) for K, by_m in by_K.items()}
                  for c, by_K in self.em_iter_budget.items()}  # fmt: skip
        object.__setattr__(self, "em_iter_budget", budget)
        for spec in self.corpora:
            for K in self.K_grid:
                for method in self.methods:
                    key = f"nonconjugate_vi.ctm.em_iter_budget.{spec.name}.{K}.{method}"
                    n = self.em_iter_budget.get(spec.name, {}).get(str(K), {}).get(method)
                    if n is None:
                        raise ConfigError(
                            key,
                            "missing: em_iter_budget gives the EM iterations of every "
                            "(corpus, K, method) the sweep fits (corpus -> K -> method -> "
                            "iterations), or is null (evidence/em_iter_budget.csv)",
                        )
                    if n < 1:
                        raise ConfigError(key, f"must be an integer >= 1, got {n!r}")

    def iter_budget(self, corpus: str, K: int, method: str) -> int | None:
        """The EM iteration budget of one sweep fit (None: no iteration budget)."""
        if self.em_iter_budget is None:
            return None
        return self.em_iter_budget[corpus][str(K)][method]

    def corpus(self, name: str) -> CorpusSpec:
        from latentlab.errors import ConfigError

        for c in self.corpora:
            if c.name == name:
                return c
        raise ConfigError("nonconjugate_vi.ctm.corpora", f"no corpus named {name!r}")


def _names_a_corpus(ctm: CtmSettings, key: str, name: str) -> None:
    """A step's ``corpus`` names one of ``ctm.corpora`` (at start-up, not when the rule's
    input function looks it up)."""
    names = [c.name for c in ctm.corpora]
    if name not in names:
        raise Invalid(key, f"{name!r} is not a corpus of ctm.corpora {names}")


@dataclass(frozen=True)
class Fig2Task:
    """Fig 2 choices of ours (the document does not give them): corpus and K; topics from
    ``em_iters`` Laplace EM iterations; two documents drawn with seed offset ``pick_seed``;
    monotonicity over ``n_check_docs`` test documents (claim C7)."""

    corpus: str  # a corpus of ctm.corpora (its name)
    K: int = setting(10, ge=2)  # topics
    em_iters: int = setting(5, ge=1)
    n_check_docs: int = setting(200, ge=1)
    tol: float = setting(1e-8, gt=0)  # per-document inference (Laplace, delta): tolerance
    # per-document inference: iteration cap (Laplace, delta and Ahmed-Xing's)
    max_iter: int = setting(200, ge=1)
    pick_seed: int = 7


@dataclass(frozen=True)
class Fig6Task:
    """Fig 6: bound and held-out likelihood against wall-clock time; ``seeds`` runs with
    initial topics seeded like the sweep's (``base_seed + K + seed_stride·r``), run one after
    another so each has the machine alike (claims C11 hold in every seed)."""

    corpus: str  # a corpus of ctm.corpora (its name)
    K: int = setting(10, ge=2)  # topics
    # EM iterations of every run (no tolerance: all of them run)
    em_max_iter: int = setting(10, ge=1)
    seeds: int = setting(1, ge=1)
    methods: list[Literal["laplace", "delta", "bl"]] = field(  # the methods compared
        default_factory=lambda: ["laplace", "delta"]
    )


@dataclass(frozen=True)
class Fig5Task:
    """Figs 5a/5b: one panel per corpus of ``corpora`` (names of ctm.corpora; null: every
    one), each drawn from that corpus's sweep. A run that sweeps one corpus at the
    document's K names it here, so the figure needs no other sweep (the nonconjugate_vi
    ladder's K100_doc rung: AP only)."""

    corpora: list[str] | None = None  # the corpora drawn (names in ctm.corpora; null: all)


@dataclass(frozen=True)
class Fig5ConvergedTask:
    """Evidence for Fig 5 (published/real/REVERSALS.md case 5): fits of ``corpus`` at ``K``
    for seeds r = 0..``seeds``-1 (the sweep's initial topics) run to the EM tolerance, at
    most ``em_max_iter`` iterations, the held-out likelihood after every one."""

    corpus: str | None = None  # a corpus of ctm.corpora (its name; null: the first one)
    K: list[int] = setting(factory=lambda: [5, 10], ge=2)  # topics
    seeds: int = setting(1, ge=1)  # fits per (K, method)
    methods: list[Literal["laplace", "delta", "bl"]] = field(  # the methods fitted
        default_factory=lambda: list(CTM_METHODS)
    )
    em_max_iter: int = setting(100, ge=1)  # EM iterations at most (to the tolerance)


@dataclass(frozen=True)
class BenchTask:
    """bench.csv: CTM E-step and EM-iteration times, tomotopy's CTModel against our
    Laplace VI, BLR fit times."""

    corpus: str  # the CTM timings' corpus, one of ctm.corpora (its name)
    K: list[int] = setting(factory=lambda: [10, 50], ge=2)  # topics of the CTM timings
    n_docs: int = setting(200, ge=1)  # the first n_docs training documents are timed
    em_iters: int = setting(2, ge=1)  # EM iterations per CTM timing
    # each CTM timing this many times, the methods interleaved (the timing claims' replicates)
    repeats: int = setting(3, ge=1)
    blr_problems: int = setting(3, ge=1)  # Table 1 problems timed per data set (at most all)
    # topics of tomotopy's CTModel and our Laplace VI, side by side (null: no comparison)
    tomotopy_K: int | None = setting(None, ge=2)
    tomotopy_iters: int = setting(200, ge=1)  # tomotopy's training iterations
    # tomotopy's inference iterations per held-out document
    tomotopy_infer_iters: int = setting(100, ge=1)
    laplace_em_iters: int = setting(10, ge=1)  # EM iterations of our Laplace VI there


@dataclass(frozen=True)
class MultilabelSpec:
    """Table 1 data: synthetic with the Mulan shapes, or a canonical multilabel task set
    (``dataset``; its own train/test split)."""

    name: str  # the data set's name in Table 1 (a real one: its rule input)
    # synthetic: generated with the Mulan shapes; real: the canonical task set `dataset`
    kind: Literal["synthetic", "real"] = "synthetic"
    dataset: str | None = None  # real: the task set's name
    n_train: int | None = setting(None, ge=1)  # synthetic: training examples
    n_test: int | None = setting(None, ge=1)  # synthetic: test examples
    d: int | None = setting(None, ge=1)  # synthetic: features
    n_labels: int | None = setting(None, ge=1)  # synthetic: labels, one problem each

    def __post_init__(self):
        require_by_kind(
            self, {"synthetic": ("n_train", "n_test", "d", "n_labels"), "real": ("dataset",)}
        )


@dataclass(frozen=True)
class Hyper:
    """The normal-inverse-Wishart hyperprior of hierarchical BLR (Table 2; our
    reconstruction, latentlab.models.logreg.hierarchical)."""

    kappa_h: float = setting(1.0, gt=0)  # mu | Sigma ~ N(mu_h, Sigma / kappa_h)
    # Sigma ~ IW(nu_h, Psi_h), nu_h = d + nu_offset (an inverse-Wishart needs nu_h > d - 1)
    nu_offset: float = setting(2.0, gt=-1)
    psi_scale: float = setting(1.0, gt=0)  # Psi_h = psi_scale I


@dataclass(frozen=True)
class BlrSettings:
    """Bayesian logistic regression (Sec 5.2): prior N(0, prior_var I), plug-in predictive,
    convergence settings per method (ours; the document gives none)."""

    table1: list[MultilabelSpec] = field(default_factory=list)
    # Jaakkola-Jordan (batch, or sequential: jj_seq), Laplace and delta-method VI
    methods: list[Literal["jj", "laplace", "delta", "jj_seq"]] = field(
        default_factory=lambda: ["jj", "laplace", "delta"]
    )
    prior_var: float = setting(1.0, gt=0)  # prior N(0, prior_var I) of the coefficients
    # the predictive probability of Tables 1 and 2: plug-in mean (Sec. 5.2), or Monte Carlo
    # over q (1,000 samples)
    predictive: Literal["plugin", "mc"] = "plugin"
    # Jaakkola-Jordan's log predictive likelihood: the predictive above (same), or its own
    # variational bound integrated over q (bound; Jaakkola & Jordan 2000)
    jj_predictive: Literal["same", "bound"] = "same"
    # the Jaakkola-Jordan rows (method jj): the batch bound, or the sequential one (JJ 2000)
    jj_form: Literal["batch", "sequential"] = "batch"
    # Table 1's noise: this many seeded re-splits of train + test at the document's sizes
    # (1,500/917, 1,211/1,196) beside its standard split (0: none)
    resplits: int = setting(0, ge=0)
    resplit_seed: int = 60  # the re-splits' seeds: base_seed + resplit_seed + r
    # Table 1's value: the standard split's (standard), or the mean over it and the re-splits
    table1_estimate: Literal["standard", "resplit_mean"] = "standard"
    jj_tol: float = setting(1e-8, gt=0)  # batch Jaakkola-Jordan: convergence tolerance
    delta_tol: float = setting(1e-6, gt=0)  # delta method: convergence tolerance
    hyper: Hyper = field(default_factory=Hyper)
    hier_max_iter: int = setting(30, ge=1)  # hierarchical BLR (Table 2): EM iterations at most
    # hierarchical BLR: EM stops when the relative change of (mu, Sigma) is below this
    hier_tol: float = setting(1e-4, gt=0)


@dataclass(frozen=True)
class SchoolSpec:
    """Table 2 data (synthetic shape of ILEA School, or the canonical multitask set) and its
    ``n_splits`` per-school splits with ``train_pct`` % training (seeds base + split_seed + r)."""

    # synthetic: the shape of ILEA School; real: the canonical multitask set `dataset`
    kind: Literal["synthetic", "real"] = "synthetic"
    dataset: str | None = None  # real: the dataset's name
    n_schools: int | None = setting(None, ge=1)  # synthetic: schools (tasks)
    d: int | None = setting(None, ge=1)  # synthetic: features
    # synthetic: mean students per school (Poisson, at least 8)
    mean_students: float = setting(110, gt=0)
    n_splits: int = setting(10, ge=1)
    train_pct: int = setting(75, ge=1, le=99)
    split_seed: int = 50  # the splits' seeds: base_seed + split_seed + r

    def __post_init__(self):
        require_by_kind(self, {"synthetic": ("n_schools", "d"), "real": ("dataset",)})


# ------------------------------------------------------------------ step settings
@dataclass(frozen=True)
class SweepSettings:
    ctm: CtmSettings


@dataclass(frozen=True)
class Fig2Settings:
    ctm: CtmSettings
    fig2: Fig2Task

    def __post_init__(self):
        _names_a_corpus(self.ctm, "fig2.corpus", self.fig2.corpus)


@dataclass(frozen=True)
class EmBudgetEvidenceSettings:
    ctm: CtmSettings


@dataclass(frozen=True)
class Fig5ConvergedSettings:
    ctm: CtmSettings
    fig5_converged: Fig5ConvergedTask = field(default_factory=Fig5ConvergedTask)

    def __post_init__(self):
        if self.fig5_converged.corpus is not None:
            _names_a_corpus(self.ctm, "fig5_converged.corpus", self.fig5_converged.corpus)

    @property
    def corpus(self) -> str:
        """The corpus of the evidence fits: ``fig5_converged.corpus``, else the first of
        ``ctm.corpora``."""
        from latentlab.errors import ConfigError

        if self.fig5_converged.corpus is not None:
            return self.fig5_converged.corpus
        if not self.ctm.corpora:
            raise ConfigError("nonconjugate_vi.ctm.corpora", "no corpus for fig5_converged")
        return self.ctm.corpora[0].name


@dataclass(frozen=True)
class Fig2PlotSettings:
    fig2: Fig2Task


@dataclass(frozen=True)
class Fig5PlotSettings:
    fig5: Fig5Task = field(default_factory=Fig5Task)


@dataclass(frozen=True)
class Fig6Settings:
    ctm: CtmSettings
    fig6: Fig6Task

    def __post_init__(self):
        _names_a_corpus(self.ctm, "fig6.corpus", self.fig6.corpus)


@dataclass(frozen=True)
class Fig6PlotSettings:
    fig6: Fig6Task


@dataclass(frozen=True)
class Table1Settings:
    blr: BlrSettings


@dataclass(frozen=True)
class Table1TableSettings:
    blr: BlrSettings


@dataclass(frozen=True)
class Table2Settings:
    blr: BlrSettings
    school: SchoolSpec


@dataclass(frozen=True)
class BenchSettings:
    ctm: CtmSettings
    blr: BlrSettings
    school: SchoolSpec
    bench: BenchTask

    def __post_init__(self):
        _names_a_corpus(self.ctm, "bench.corpus", self.bench.corpus)


@dataclass(frozen=True)
class Tolerances:
    """Claims tolerances (exact identities, then the document's loose statements)."""

    c1_abs: float = setting(1e-6, ge=0)  # C1: Laplace VI for BLR vs the classical Laplace
    c2_abs: float = setting(1e-4, ge=0)  # C2: Eq. 16's maximiser vs (theta_hat, -H^-1)
    c3_abs: float = setting(1e-10, ge=0)  # C3: Ahmed-Xing's update vs one Newton step
    c4_abs: float = setting(1e-12, ge=0)  # C4: CTM q(z) of Eq. 18, Laplace vs delta
    # C5: derivatives vs finite differences (max rel. error)
    c5_abs: float = setting(1e-5, ge=0)
    c6_abs: float = setting(0.02, ge=0)  # C6: lognormal mean vs Monte Carlo (max rel. error)
    # C17: max over documents of the BL bound - (IS estimate + 3 se) <= this
    c17_le: float = 1e-3
    # "typical": >= 90% of documents monotone
    c7_monotone_fraction: float = setting(0.9, ge=0, le=1)
    p_value: float = setting(0.05, gt=0, lt=1)  # level of the one-sided t-tests (C13, C15)
    c14_acc_points: float = setting(1.0, ge=0)  # C14: |Laplace - delta| accuracy (points)
    c14_loglik: float = setting(0.01, ge=0)  # C14: |Laplace - delta| log likelihood
    # accuracy rows of Tables 1-2: a fraction of the spread of the document's column (at most
    # half, so that the row refuses the column's farthest value even at the column's centre)
    acc_spread_frac: float = setting(0.45, ge=0, le=0.5)
    # Table 1 log likelihood: gap_frac x the document's gap to the nearest other method,
    # never wider than this cap
    t1_loglik: float = setting(0.05, ge=0)
    # Table 2 log likelihood: at most half the document's gap to the nearest value it compares
    # the row with (same method in another setting, another method in the same setting),
    # never wider than this cap
    t2_loglik: float = setting(0.03, ge=0)
    # margins of order claims: this fraction of the document's gap
    gap_frac: float = setting(0.5, ge=0, le=1)


@dataclass(frozen=True)
class ClaimsSettings:
    claims: Tolerances = field(default_factory=Tolerances)


@dataclass(frozen=True)
class RuntimeLimits:
    """Cluster time limit (minutes) of each step's jobs (rules/nonconjugate_vi.smk)."""

    sweep: int = setting(30, ge=1)  # a sweep job (one corpus)
    fig2: int = setting(15, ge=1)  # the Fig 2 traces
    fig6: int = setting(20, ge=1)  # the Fig 6 histories
    table1: int = setting(20, ge=1)  # Table 1's problems
    table2: int = setting(20, ge=1)  # Table 2's splits
    bench: int = setting(15, ge=1)  # the bench
    evidence: int = setting(30, ge=1)  # the Fig 5 evidence fits (EM to its tolerance)


@dataclass(frozen=True)
class RuleSettings:
    """Read by rules/nonconjugate_vi.smk only: runtime (minutes) per step."""

    resources: RuntimeLimits = field(default_factory=RuntimeLimits)


STUDY.rules(RuleSettings)
