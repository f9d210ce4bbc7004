"""Study ``hdp_pcvb0`` and the settings of its steps (the only home of their defaults).

Each dataclass's fields are top-level keys of the ``hdp_pcvb0:`` config section; a rule
passes a step only the keys its settings declare (``step_params``), so a change to one
claim tolerance reruns only the claims. The model's own settings are
:class:`~latentlab.models.hdp.HDPOptions` (config key ``options``, overlaid by a task's
``options``); errors of the model name its parameters and are mapped here to config keys.

Notes
-----
``bench_targets.csv`` (beside ``bench.csv``, built last): the time each of the
study's jobs took, from their Snakemake benchmark files (:mod:`latentlab.bench_targets`).

The evidence files of the causes and of ``published/real/REVERSALS.md`` case 1
(``evidence/runs.csv``, ``evidence/keff_ladder.csv``, ``evidence/traces.csv``, each with its
``.meta.json``; settings ``evidence``) are built by ``snakemake hdp_pcvb0_evidence``, not by
the study's target: every perplexity fit of the run beside the unigram perplexity of its
split, PCVB0's effective topics against T, and per-iteration traces at one T.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from latentlab.errors import ConfigError
from latentlab.models.hdp import CONFIGS, HDPOptions
from latentlab.settings import Invalid, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "hdp_pcvb0",
    document="Sato, Kurihara & Nakagawa, KDD 2012 (seed 001)",
    title="PCVB0 for HDP-LDA",
    modules=("runs", "figures", "claims", "bench", "evidence"),
    source=Source(
        "001",
        "Sato, Kurihara & Nakagawa (KDD 2012): practical CVB0 for HDP-LDA",
        "Sato et al. 2012",
    ),
    data={
        "kos": "the document's corpus",
        "newsgroups": "20news (a different packaging of the document's corpus)",
        "ap": "stands in for WSJ",
        "cora": "stands in for 7conf",
        "snap_astroph": "AstroPh, the document's network (Fig 5)",
        "snap_enron": "EnronNet, the document's network (Fig 5)",
        "uci_enron": "the document's Enron text corpus, paper run",
    },
)

_OPTION_KEYS = {f.name for f in dataclasses.fields(HDPOptions)}


def model_options(base: HDPOptions, overlay: dict[str, Any], where: str) -> HDPOptions:
    """The global ``options`` with a task's ``options`` overlaid; an unknown or mistyped key
    is reported as the config key ``where.<key>``."""
    from latentlab.settings import parse_settings

    merged = {**dataclasses.asdict(base), **overlay}
    try:
        return parse_settings(HDPOptions, merged, where)
    except ConfigError:
        raise
    except (TypeError, ValueError) as e:  # pragma: no cover - parse_settings names keys
        raise ConfigError(where, str(e)) from e


def _check_overlay(overlay: dict, where: str) -> None:
    bad = sorted(set(overlay) - _OPTION_KEYS)
    if bad:
        raise ConfigError(
            f"{where}.{bad[0]}", f"unknown option; HDPOptions has {sorted(_OPTION_KEYS)}"
        )
    model_options(HDPOptions(), overlay, where)


@dataclass(frozen=True)
class DatasetSpec:
    """One dataset: a synthetic draw (``source: synthetic``) or a canonical dataset of the
    data layer (``source: <registry name>``), optionally subsampled.

    ``generator`` (synthetic): ``hdp`` (HDP-LDA with a known π), ``labelled`` (Fig 4
    analogue) or ``graph`` (bag-of-links graph, Fig 5). The generator parameters left
    unset take the generator's own defaults (:mod:`latentlab.data.synthetic`).
    ``n_docs``: seeded subsample ("randomly chose N = 10,000", Sec 6.2); ``vocab_top``:
    keep the most frequent words (20news: V = 13,178). ``seed``: offset of the draw's seed
    from ``base_seed``. ``paper``: the document's corpus this one stands for (claims C4b,
    C11d, C12d compare with its figures); ``data_kind``: real, substitute or synthetic.
    """

    source: str = "synthetic"  # `synthetic` (drawn by `generator`) or a data-layer dataset name
    generator: Literal["hdp", "labelled", "graph"] = "hdp"
    # how a data-layer `source` is read: corpus or graph (a synthetic one: by `generator`)
    kind: Literal["corpus", "graph"] = "corpus"
    data_kind: Literal["real", "substitute", "synthetic"] = "synthetic"
    paper: str = ""
    seed: int = 0
    n_docs: int | None = None
    vocab_top: int | None = None
    # generator parameters (hdp / labelled / graph)
    N: int | None = None  # hdp / labelled: number of documents
    V: int | None = None  # hdp / labelled: vocabulary size
    T_true: int | None = None  # hdp / labelled: number of true topics (truncation of π)
    gamma0: float | None = None  # hdp / labelled: γ0 of the true π ~ TSBP(γ0)
    alpha0: float | None = None  # hdp / labelled: α0 of the documents' θ_d ~ Dir(α0π)
    beta: float | None = None  # hdp / labelled: topics φ_k ~ Dir(β·V·τ*)
    mean_len: float | None = None  # hdp / labelled: Poisson mean document length (tokens)
    # hdp: base word distribution τ* of the topics, uniform (1/V) or a shuffled Zipf (1/rank)
    tau: Literal["uniform", "zipf"] | None = None
    n_classes: int | None = None  # labelled: number of document classes (labels)
    boost: float | None = None  # labelled: factor on π over class c's topics (k ≡ c mod n_classes)
    n_nodes: int | None = None  # graph: number of nodes (required for a synthetic graph)
    n_comm: int | None = None  # graph: number of communities
    alpha: float | None = None  # graph: Dirichlet concentration of each node's memberships
    # graph: expected degree of a node, before self-loops and duplicate links are dropped
    mean_degree: float | None = None

    def __post_init__(self):
        if self.source != "synthetic":
            return
        if self.generator == "graph" and self.n_nodes is None:
            raise Invalid("n_nodes", "a synthetic graph needs n_nodes")
        if (self.generator == "graph") != (self.kind == "graph"):
            raise Invalid("kind", "must be 'graph' exactly when generator is 'graph'")

    def generator_kwargs(self) -> dict:
        names = ("N", "V", "T_true", "gamma0", "alpha0", "beta", "mean_len", "tau",
                 "n_classes", "boost", "n_nodes", "n_comm", "alpha", "mean_degree")  # fmt: skip
        return {k: getattr(self, k) for k in names if getattr(self, k) is not None}


@dataclass(frozen=True)
class SplitSettings:
    """The 80/20 within-document split of Sec 6.3 (shared by Fig 3, C2, Gibbs, bench)."""

    train_frac: float = 0.8  # share of each document's tokens used for training (Sec 6.3: 80 %)
    # documents with fewer than 2 tokens (no split possible): `drop` them (counted) or `error`
    short_docs: Literal["drop", "error"] = "drop"
    # test tokens of words unseen in training: `drop` them (counted), `keep` them or `error`
    oov_rule: Literal["drop", "keep", "error"] = "drop"
    split_seed: int = 1  # offset from base_seed

    def __post_init__(self):
        if not 0 < self.train_frac < 1:
            raise ConfigError(
                "hdp_pcvb0.perplexity.train_frac", f"must be in (0, 1), got {self.train_frac}"
            )


@dataclass(frozen=True)
class PerplexityGrid:
    """A dataset's own T grid (``per_dataset``): its ``T``, ``trace_T`` and ``runs``; at its
    largest T only ``max_T_configs`` run (all when unset), ``max_T_runs`` times (``runs``
    when unset). A budget choice: the document's T = 300 for the configurations its Figs 2
    and 3-right draw, recorded in the run JSONs."""

    T: list[int] = field(default_factory=list)
    trace_T: int | None = None
    runs: int | None = None
    max_T_runs: int | None = None
    max_T_configs: list[str] | None = None

    def __post_init__(self):
        if self.max_T_configs is not None:
            _check_configs(self.max_T_configs, "hdp_pcvb0.perplexity.per_dataset.max_T_configs")


@dataclass(frozen=True)
class PerplexityTask(SplitSettings):
    """Figs 2 and 3: every T, ``runs`` runs (seeds base_seed + r); trace at ``trace_T``
    (default: the largest T); ``per_dataset`` overrides the grid of named datasets."""

    # names in `datasets` fitted for Figs 2 and 3 (the first one also for Fig 1's perplexity)
    datasets: list[str] = field(default_factory=list)
    # truncation levels T (topics) of every fit (Sec 6.3, Fig 3 left: T = 100, 200, 300)
    T: list[int] = field(default_factory=lambda: [100, 200, 300])
    trace_T: int | None = None
    runs: int = 5
    iterations: int = 100  # iterations of each fit (Sec 6: 100)
    # overrides of `options` keys for these fits and for the init (C2) fits
    options: dict[str, Any] = field(default_factory=dict)
    per_dataset: dict[str, PerplexityGrid] = field(default_factory=dict)

    def __post_init__(self):
        super().__post_init__()
        _check_overlay(self.options, "hdp_pcvb0.perplexity.options")
        bad = sorted(set(self.per_dataset) - set(self.datasets))
        if bad:
            raise ConfigError(
                "hdp_pcvb0.perplexity.per_dataset", f"{bad[0]!r} is not in perplexity.datasets"
            )

    def grid(self, dataset: str, config: str) -> tuple[list[tuple[int, int]], int | None]:
        """``[(T, runs)]`` of ``config`` on ``dataset`` and the trace T (None: this
        configuration does not run it)."""
        g = self.per_dataset.get(dataset)
        Ts = list(g.T) if g is not None and g.T else list(self.T)
        tT = g.trace_T if g is not None and g.trace_T is not None else self.trace_T
        tT = max(Ts) if tT is None else tT
        if tT not in Ts:
            Ts.append(tT)
        Tmax = max(Ts)
        out = []
        for T in Ts:
            runs = g.runs if g is not None and g.runs else self.runs
            if g is not None and T == Tmax:
                if g.max_T_configs is not None and config not in g.max_T_configs:
                    continue
                runs = g.max_T_runs or runs
            out.append((T, runs))
        return out, (tT if any(T == tT for T, _ in out) else None)


@dataclass(frozen=True)
class KnnTask:
    """Fig 4: 90/10 document split, fold-in with the global statistics frozen (seed
    base_seed + fold_in_seed + r), Hellinger k-NN (Sec 6.4)."""

    # labelled corpora (names in `datasets`) of Fig 4 (Sec 6.4: 7conf and 20news)
    datasets: list[str] = field(default_factory=list)
    # truncation levels T (topics) of the fits (Fig 4's x axis: T = 100, 200, 300)
    T: list[int] = field(default_factory=lambda: [100, 200, 300])
    runs: int = 5  # fits per T, seeds base_seed + r (Sec 6: averages of five runs)
    iterations: int = 100  # iterations of each fit on the training documents (Sec 6: 100)
    fold_in_iters: int = 50  # sweeps over each test document's tokens in the fold-in (ours)
    fold_in_seed: int = 7919  # offset of the fold-in's seed from base_seed (plus r)
    test_frac: float = 0.1  # share of the documents held out as test documents (Sec 6.4: 10 %)
    # numbers of neighbours of the Hellinger k-NN vote; Fig 4 and the claims use 7 (its caption)
    k: list[int] = field(default_factory=lambda: [7, 1])
    split_seed: int = 2  # offset from base_seed of the seed of the 90/10 document split
    options: dict[str, Any] = field(default_factory=dict)  # `options` overrides for these fits

    def __post_init__(self):
        _check_overlay(self.options, "hdp_pcvb0.knn.options")


@dataclass(frozen=True)
class LinksTask:
    """Fig 5: nodes as bags of links, MAP over query nodes with more than ``min_links``
    links, ``test_frac`` of each query's links held out (Sec 6.5)."""

    # graphs (names in `datasets`) of Fig 5 (Sec 6.5: AstroPh and EnronNet)
    datasets: list[str] = field(default_factory=list)
    # truncation levels T (topics) of the fits (Fig 5's x axis: T = 100, 200, 300)
    T: list[int] = field(default_factory=lambda: [100, 200, 300])
    runs: int = 5  # fits per T, seeds base_seed + r (Sec 6: averages of five runs)
    iterations: int = 100  # iterations of each fit (Sec 6: 100)
    min_links: int = 20
    test_frac: float = 0.2
    split_seed: int = 3  # offset from base_seed of the seed of the held-out links and negatives
    options: dict[str, Any] = field(default_factory=dict)  # `options` overrides for these fits

    def __post_init__(self):
        _check_overlay(self.options, "hdp_pcvb0.links.options")


@dataclass(frozen=True)
class InitTask:
    """Claim C2: PCVB0 from initial α0, β0, γ0 scaled by each factor."""

    dataset: str = ""  # name in `datasets` of the C2 fits (on the `perplexity` 80/20 split)
    T: int = 100  # truncation level T (topics) of the C2 fits
    # factors on alpha0_init, beta_init_value, gamma0_init: one fit per factor and config
    factors: list[float] = field(default_factory=lambda: [0.1, 1.0, 10.0])
    iterations: int = 100  # iterations of each C2 fit
    # configurations fitted for claim C2, each once per factor
    configs: list[str] = field(default_factory=lambda: ["pcvb0_AS", "pcvb0_AA"])


@dataclass(frozen=True)
class GibbsTask:
    """Collapsed Gibbs cross-check (Eqs 13–16) and claim C14."""

    dataset: str = ""  # name in `datasets` of the Gibbs run (on the `perplexity` 80/20 split)
    T: int = 100  # truncation level T (topics) of the collapsed Gibbs sampler
    iterations: int = 200  # Gibbs sweeps (C14 checks the table-count bound after each)


@dataclass(frozen=True)
class BenchTask:
    """bench.csv: time/memory per configuration at each T, the PCVB0 sweep at ``sweep_T``,
    and tomotopy / gensim against PCVB0 at the same wall time."""

    dataset: str = ""  # name in `datasets` that bench.csv measures (the `perplexity` split)
    # truncation levels T at which each configuration's time and memory are measured
    T: list[int] = field(default_factory=lambda: [100, 300])
    iterations: int = 3  # measured iterations per (configuration, T); time: their median
    # configurations measured, each (configuration, T) in a fresh process
    configs: list[str] = field(default_factory=lambda: list(CONFIGS))
    sweep_T: list[int] = field(default_factory=list)
    library_T: int | None = None  # default: the largest T
    library_seconds: float = 60.0  # wall-time budget (seconds) of each library and of PCVB0
    # libraries fitted against PCVB0 on the same split (skipped when not installed)
    libraries: list[Literal["tomotopy", "gensim"]] = field(
        default_factory=lambda: ["tomotopy", "gensim"]
    )
    library_prior: Literal["AS", "AA"] = "AS"  # φ-prior of PCVB0 in the library comparison


@dataclass(frozen=True)
class Tolerances:
    """Tolerances of the claims (the document gives orderings, not numbers)."""

    # "similar" perplexities (relative) / accuracies and MAPs (absolute difference of means);
    # each row caps it at half the zero- vs second-order gap it measures (issue 21)
    similar_rel: float = 0.03
    similar_abs: float = 0.03  # C11b/c, C12b/c: max absolute difference of mean 7-NN accuracy / MAP
    init_rel: float = 0.02  # C2: spread of final perplexity over initialisations
    converge_rel: float = 0.01  # C8: within 1% of the final perplexity
    fig2_rel: float = 0.5  # C4b: capped at half the gap to the nearest other quoted maximum
    entropy_iteration: int = 5  # C10: compare mean entropy of q at this iteration


def _check_configs(configs, where):
    bad = [c for c in configs if c not in CONFIGS]
    if bad:
        raise ConfigError(where, f"{bad[0]!r} not in {list(CONFIGS)}")


# ------------------------------------------------------------------ step settings
@dataclass(frozen=True)
class PrepareSettings:
    datasets: dict[str, DatasetSpec] = field(default_factory=dict)


@dataclass(frozen=True)
class ConfigsSettings:
    """``configs``: method x φ-prior (Sec 6.1, 6.3): CVB (Eq 18), CVB0 (Eq 19), PCVB
    (Eq 34), PCVB0 (Eq 35) x AS (τ = 1/V) / AA (learned τ, Eqs 31–32)."""

    configs: list[str] = field(default_factory=lambda: list(CONFIGS))
    options: HDPOptions = field(default_factory=HDPOptions)

    def __post_init__(self):
        _check_configs(self.configs, "hdp_pcvb0.configs")


@dataclass(frozen=True)
class PerplexitySettings(ConfigsSettings):
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)


@dataclass(frozen=True)
class KnnSettings(ConfigsSettings):
    knn: KnnTask = field(default_factory=KnnTask)


@dataclass(frozen=True)
class LinksSettings(ConfigsSettings):
    links: LinksTask = field(default_factory=LinksTask)


@dataclass(frozen=True)
class InitSettings:
    options: HDPOptions = field(default_factory=HDPOptions)
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)
    init_sensitivity: InitTask = field(default_factory=InitTask)

    def __post_init__(self):
        _check_configs(self.init_sensitivity.configs, "hdp_pcvb0.init_sensitivity.configs")


@dataclass(frozen=True)
class GibbsSettings:
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)
    gibbs: GibbsTask = field(default_factory=GibbsTask)


@dataclass(frozen=True)
class BenchSettings:
    options: HDPOptions = field(default_factory=HDPOptions)
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)
    bench: BenchTask = field(default_factory=BenchTask)

    def __post_init__(self):
        _check_configs(self.bench.configs, "hdp_pcvb0.bench.configs")


@dataclass(frozen=True)
class Fig3Task:
    """Fig 3: one row of panels per perplexity corpus in ``datasets`` (names in
    ``perplexity.datasets``; null: every one). A run that fits one corpus at the document's
    T grid names it here, so the figure needs no other corpus's fits (the hdp_pcvb0
    ladder's kos_doc rung: KOS only)."""

    datasets: list[str] | None = None  # the corpora drawn (names in perplexity.datasets; null: all)


@dataclass(frozen=True)
class Fig3Settings:
    fig3: Fig3Task = field(default_factory=Fig3Task)


@dataclass(frozen=True)
class KeffLadderEvidence:
    """evidence/keff_ladder.csv (claim C13's causes): effective topics against the truncation
    T. Each corpus named in ``T`` (a name in ``datasets``) is fitted at each of its levels,
    with each of ``configs``, runs r < ``runs`` (seeds base_seed + r), ``iterations``
    iterations, on the perplexity step's 80/20 split with its options. The defaults are
    the published run's (real: Cora at T = 50, 100, 300, AP and 20news at T = 100)."""

    # corpus (name in `datasets`) -> its truncation levels T, fitted in this order
    T: dict[str, list[int]] = setting(
        factory=lambda: {"cora": [50, 100, 300], "ap": [100], "news20": [100]}, ge=1
    )
    # configurations fitted at every (corpus, T)
    configs: list[str] = field(default_factory=lambda: ["pcvb0_AS", "pcvb0_AA"])
    runs: int = setting(1, ge=1)  # fits per (corpus, T, configuration), seeds base_seed + r
    iterations: int = setting(100, ge=1)  # iterations of each fit (Sec 6: 100)

    def __post_init__(self):
        _check_configs(self.configs, "hdp_pcvb0.evidence.keff_ladder.configs")


@dataclass(frozen=True)
class TraceFit:
    """One traced fit: a configuration from one reading of the initial β0τ_v
    (``HDPOptions.beta_init``), for ``iterations`` iterations."""

    config: str = "pcvb0_AA"  # the configuration fitted (method_prior)
    # the reading of "β0τ_v = 0.1/T" the fit starts from (HDPOptions.beta_init)
    beta_init: Literal["literal", "per_V", "unnormalised"] = "literal"
    iterations: int = setting(30, ge=1)  # iterations traced

    def __post_init__(self):
        _check_configs([self.config], "hdp_pcvb0.evidence.traces.fits.config")


def _published_trace_fits() -> list[TraceFit]:
    return [TraceFit(c, b, n) for c, b, n in (
        ("cvb0_AA", "literal", 30), ("pcvb0_AA", "literal", 30), ("pcvb0_AA", "per_V", 20),
        ("pcvb0_AA", "unnormalised", 8), ("cvb0_AA", "per_V", 2), ("pcvb0_AS", "literal", 15),
    )]  # fmt: skip


@dataclass(frozen=True)
class TracesEvidence:
    """evidence/traces.csv (published/real/REVERSALS.md case 1): per-iteration traces of
    each fit in ``fits`` on ``dataset`` at truncation ``T``, on the perplexity step's 80/20
    split with its options (``beta_init`` as the fit says) and model seed base_seed: test
    perplexity, α0, γ0, β0, τ statistics, topics with E[n_k] >= 1, the largest topic's
    share, max α0π_k, and the last Eq 29/30 fixed-point diagnostics. The defaults are the
    published run's (KOS at T = 300)."""

    dataset: str = "kos"  # name in `datasets` of the traced corpus
    T: int = setting(300, ge=1)  # truncation level T (topics) of every traced fit
    # the traced fits, in this order
    fits: list[TraceFit] = field(default_factory=_published_trace_fits)


@dataclass(frozen=True)
class Evidence:
    """The evidence files the causes and REVERSALS.md case 1 cite, built by their rules.

    Issue 37: targets, not scripts (``snakemake hdp_pcvb0_evidence``, not in the study's
    target)."""

    keff_ladder: KeffLadderEvidence = field(default_factory=KeffLadderEvidence)
    traces: TracesEvidence = field(default_factory=TracesEvidence)


@dataclass(frozen=True)
class RunsEvidenceSettings:
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)


@dataclass(frozen=True)
class EvidenceFitSettings:
    options: HDPOptions = field(default_factory=HDPOptions)
    perplexity: PerplexityTask = field(default_factory=PerplexityTask)
    evidence: Evidence = field(default_factory=Evidence)


@dataclass(frozen=True)
class ClaimsSettings:
    datasets: dict[str, DatasetSpec] = field(default_factory=dict)
    bench: BenchTask = field(default_factory=BenchTask)
    claims: Tolerances = field(default_factory=Tolerances)


@dataclass(frozen=True)
class StepResources:
    """Cluster resources of one step's jobs: memory (MB) and time limit (minutes; a batched
    fit job gets it once per configuration)."""

    mem_mb: int = 2000  # memory of each job (MB)
    runtime: int = 30  # time limit of each job (minutes; batched fit: times the configurations)


@dataclass(frozen=True)
class PrepareResources(StepResources):
    runtime: int = 10  # time limit of each prepare job (minutes)


@dataclass(frozen=True)
class BenchResources(StepResources):
    mem_mb: int = 4000  # memory of the bench job (MB)


@dataclass(frozen=True)
class Resources:
    """Per step: ``prepare``; the fits of ``perplexity`` (also init and Gibbs), ``knn`` and
    ``links``; ``bench``."""

    prepare: PrepareResources = field(default_factory=PrepareResources)
    perplexity: StepResources = field(default_factory=StepResources)
    knn: StepResources = field(default_factory=StepResources)
    links: StepResources = field(default_factory=StepResources)
    bench: BenchResources = field(default_factory=BenchResources)


@dataclass(frozen=True)
class RuleSettings:
    """Read by rules/hdp_pcvb0.smk only: cluster resources per step
    (:class:`Resources`); ``batch_configs``: one perplexity / knn / links job per
    dataset running every configuration in turn (the smoke run: its fits take less CPU
    than a job's start-up), instead of one job per (dataset, configuration). The results
    are the same either way (each configuration's seeds do not depend on the others)."""

    resources: Resources = field(default_factory=Resources)
    batch_configs: bool = False


STUDY.rules(RuleSettings)


def bench_table(wide):
    """The bench rows of :func:`latentlab.bench.bench_wide` under this study's own names:
    ``kind`` (method, sweep, library), ``config`` (``pcvb0_AS``), ``method`` (``pcvb0``),
    ``prior``, ``T``, ``status`` and the metrics."""
    return wide.rename(columns={"method": "config"}).rename(
        columns={"bench": "kind", "family": "method", "note": "status"}
    )
