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

from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "nonconjugate_vi",
    document="Wang & Blei (JMLR 2013), Variational inference in nonconjugate models (seed 002)",
    title="Laplace / delta-method VI",
    modules=("runs", "figures", "tables", "claims"),
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

    name: str
    kind: Literal["synthetic", "real"] = "synthetic"
    n_docs: int | None = None
    n_vocab: int | None = None
    K_true: int | None = None
    mean_len: float | None = None
    dataset: str | None = None
    data_kind: Literal["real", "substitute"] = "real"
    stands_in_for: str | None = None
    max_docs: int | None = None
    min_doc_len: int = 2
    vocab_max: int | None = None


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
    ``scripts/ncvi_em_iter_budget.py`` derives it from a run's sweep CSVs: floor(S / t) + 1
    iterations, with t the measured seconds per EM iteration of that (corpus, K, method),
    is what a time budget of S seconds gives on the machine that measured t. Each fit
    records why EM stopped (``em_stop`` in the sweep CSV)."""

    corpora: list[CorpusSpec] = field(default_factory=list)
    test_frac: float = 0.2
    max_test_docs: int | None = None
    K_grid: list[int] = field(default_factory=lambda: [5, 10, 20])
    seeds: int = 3
    methods: list[Literal["laplace", "delta", "bl"]] = field(
        default_factory=lambda: list(CTM_METHODS)
    )
    em_max_iter: int = 10
    em_tol: float = 1e-3
    em_time_budget_s: float | None = None
    em_iter_budget: dict[str, dict[str, dict[str, int]]] | None = None
    estep_tol: float = 1e-4
    estep_max_iter: int = 100
    bl_tol: float = 1e-6
    bl_max_iter: int = 20
    predictive: Literal["plugin", "mc"] = "plugin"
    n_mc: int = 1000
    pseudo_count: float = 1e-10
    ridge_rel: float = 1e-6
    split_seed: int = 1
    halves_seed: int = 2
    seed_stride: int = 1000

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
                            "iterations), or is null (scripts/ncvi_em_iter_budget.py)",
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


@dataclass(frozen=True)
class Fig2Task:
    """Fig 2 choices of ours (the document does not give them): corpus and K; topics from
    ``em_iters`` Laplace EM iterations; two documents drawn with seed offset ``pick_seed``;
    monotonicity over ``n_check_docs`` test documents (claim C7)."""

    corpus: str
    K: int = 10
    em_iters: int = 5
    n_check_docs: int = 200
    tol: float = 1e-8
    max_iter: int = 200
    pick_seed: int = 7


@dataclass(frozen=True)
class Fig6Task:
    """Fig 6: bound and held-out likelihood against wall-clock time; ``seeds`` runs with
    initial topics seeded like the sweep's (``base_seed + K + seed_stride·r``), run one after
    another so each has the machine alike (claims C11 hold in every seed)."""

    corpus: str
    K: int = 10
    em_max_iter: int = 10
    seeds: int = 1
    methods: list[Literal["laplace", "delta", "bl"]] = field(
        default_factory=lambda: ["laplace", "delta"]
    )


@dataclass(frozen=True)
class BenchTask:
    corpus: str
    K: list[int] = field(default_factory=lambda: [10, 50])
    n_docs: int = 200
    em_iters: int = 2
    blr_problems: int = 3
    tomotopy_K: int | None = None
    tomotopy_iters: int = 200
    tomotopy_infer_iters: int = 100
    laplace_em_iters: int = 10


@dataclass(frozen=True)
class MultilabelSpec:
    """Table 1 data: synthetic with the Mulan shapes, or a canonical multilabel task set
    (``dataset``; its own train/test split)."""

    name: str
    kind: Literal["synthetic", "real"] = "synthetic"
    dataset: str | None = None
    n_train: int | None = None
    n_test: int | None = None
    d: int | None = None
    n_labels: int | None = None


@dataclass(frozen=True)
class Hyper:
    kappa_h: float = 1.0
    nu_offset: float = 2.0
    psi_scale: float = 1.0


@dataclass(frozen=True)
class BlrSettings:
    """Bayesian logistic regression (Sec 5.2): prior N(0, prior_var I), plug-in predictive,
    convergence settings per method (ours; the document gives none)."""

    table1: list[MultilabelSpec] = field(default_factory=list)
    methods: list[Literal["jj", "laplace", "delta", "jj_seq"]] = field(
        default_factory=lambda: ["jj", "laplace", "delta"]
    )
    prior_var: float = 1.0
    predictive: Literal["plugin", "mc"] = "plugin"
    jj_tol: float = 1e-8
    delta_tol: float = 1e-6
    hyper: Hyper = field(default_factory=Hyper)
    hier_max_iter: int = 30
    hier_tol: float = 1e-4


@dataclass(frozen=True)
class SchoolSpec:
    """Table 2 data (synthetic shape of ILEA School, or the canonical multitask set) and its
    ``n_splits`` per-school splits with ``train_pct`` % training (seeds base + split_seed + r)."""

    kind: Literal["synthetic", "real"] = "synthetic"
    dataset: str | None = None
    n_schools: int | None = None
    d: int | None = None
    mean_students: float = 110
    n_splits: int = 10
    train_pct: int = 75
    split_seed: int = 50


# ------------------------------------------------------------------ step settings
@dataclass(frozen=True)
class SweepSettings:
    ctm: CtmSettings


@dataclass(frozen=True)
class Fig2Settings:
    ctm: CtmSettings
    fig2: Fig2Task


@dataclass(frozen=True)
class Fig2PlotSettings:
    fig2: Fig2Task


@dataclass(frozen=True)
class Fig6Settings:
    ctm: CtmSettings
    fig6: Fig6Task


@dataclass(frozen=True)
class Fig6PlotSettings:
    fig6: Fig6Task


@dataclass(frozen=True)
class Table1Settings:
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


@dataclass(frozen=True)
class Tolerances:
    """Claims tolerances (exact identities, then the document's loose statements)."""

    c1_abs: float = 1e-6
    c2_abs: float = 1e-4
    c3_abs: float = 1e-10
    c4_abs: float = 1e-12
    c5_abs: float = 1e-5
    c6_abs: float = 0.02
    c17_le: float = 1e-3
    c7_monotone_fraction: float = 0.9  # "typical": >= 90% of documents monotone
    p_value: float = 0.05
    c14_acc_points: float = 1.0
    c14_loglik: float = 0.01
    # accuracy rows of Tables 1-2: a fraction of the spread of the document's column (at most
    # half, so that the row refuses the column's farthest value even at the column's centre)
    acc_spread_frac: float = 0.45
    t1_loglik: float = 0.05
    # Table 2 log likelihood: at most half the document's gap to the nearest value it compares
    # the row with (same method in another setting, another method in the same setting),
    # never wider than this cap
    t2_loglik: float = 0.03
    gap_frac: float = 0.5  # margins of order claims: this fraction of the document's gap


@dataclass(frozen=True)
class ClaimsSettings:
    claims: Tolerances = field(default_factory=Tolerances)


@dataclass(frozen=True)
class RuntimeLimits:
    """Cluster time limit (minutes) of each step's jobs (rules/nonconjugate_vi.smk)."""

    sweep: int = 30
    fig2: int = 15
    fig6: int = 20
    table1: int = 20
    table2: int = 20
    bench: int = 15


@dataclass(frozen=True)
class RuleSettings:
    """Read by rules/nonconjugate_vi.smk only: runtime (minutes) per step."""

    resources: RuntimeLimits = field(default_factory=RuntimeLimits)


STUDY.rules(RuleSettings)
