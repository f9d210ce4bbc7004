"""Study ``iwtm`` (seed 003, Waters PhD 2014, chs. 3-5): the study object and the
settings of its steps. Every default lives here; config sections override them."""

from __future__ import annotations

from dataclasses import dataclass, field

from latentlab.studies.shape import Study

STUDY = Study(
    "iwtm",
    document="003_c656f54f5ebd320a",
    title="Infinite-word topic models on scene images (Waters 2014, chs. 3-5)",
)


@dataclass(frozen=True)
class SynCfg:
    """SYN-IWTM generator (digest Sec. 9.2); seed = base_seed + seed_offset."""

    n_classes: int = 13
    docs_per_class: int = 250
    dim: int = 16
    n_clusters: int = 150
    n_topics: int = 20
    signature: int = 3
    within_sd: float = 0.35
    cluster_gem: float = 30.0
    alpha0: float = 5.0
    mean_len: float = 150.0
    min_len: int = 50
    seed_offset: int = 0


@dataclass(frozen=True)
class SceneCfg:
    """15-Scene subsets with dense SIFT (Sec. 4.5.1): grid ``step`` px, ``patch`` px
    keypoints; ``size`` = shorter side after resizing (null = original size);
    ``max_desc`` = descriptors kept per image (null = all; a seeded subsample is a
    recorded reduction); ``standardise``: z-score with the training pool's mean/sd."""

    descriptor: str = "dsift"
    step: int = 10
    patch: int = 16
    size: int | None = None
    max_desc: int | None = None
    standardise: bool = True
    max_images_per_class: int | None = None  # null = every image (a reduction otherwise)


@dataclass(frozen=True)
class SplitCfg:
    """Fixed test set = every document outside a seeded ``train_pool``-per-class pool;
    the n_train sets are the first n of each class's pool order."""

    train_pool: int = 100
    seed_offset: int = 10


@dataclass(frozen=True)
class DataSettings:
    syn_iwtm: SynCfg = field(default_factory=SynCfg)
    scene: SceneCfg = field(default_factory=SceneCfg)
    split: SplitCfg = field(default_factory=SplitCfg)


@dataclass(frozen=True)
class GibbsCfg:
    """Ch. 4: 500 sweeps, hyperparameters every 10 after 100, 50 test sweeps; alpha0 = 50,
    gamma = 1 initially; E[lambda] = precision(x), shape ``a`` (vague), beta0 = 1."""

    T: list[int] = field(default_factory=lambda: [25, 50])
    n_iter: int = 500
    burn_in: int = 100
    hyper_every: int = 10
    test_iter: int = 50
    alpha0: float = 50.0
    gamma: float = 1.0
    alpha_init: float = 1.0
    shape_a: float = 1.0
    beta0: float = 1.0
    dish_cap: int = 4000
    seeds: int = 1
    seed_offset: int = 100


@dataclass(frozen=True)
class SldaCfg:
    """Supervised LDA on K-means visual words (Fei-Fei & Perona Theme Model 1), Gibbs with
    the same schedule; beta = 1 initially (then optimised), alpha_y by (4.17)."""

    K: list[int] = field(default_factory=lambda: [25, 50, 100, 200, 500, 1000, 2000])
    beta_init: float = 1.0
    kmeans_iter: int = 20
    kmeans_points: int | None = None  # training descriptors K-means sees (null = all)


@dataclass(frozen=True)
class CaviCfg:
    """Ch. 5: alpha0 = 1, gamma = 10, chi1 = 32 dim, chi1 chi2 = precision(x), beta0 = 1,
    alpha = 1/T; 50 iterations; C = 4000, K = 8000."""

    T: list[int] = field(default_factory=lambda: [25, 50])
    C: int = 4000
    K: int = 8000
    n_iter: int = 50
    alpha0: float = 1.0
    gamma: float = 10.0
    chi1_per_dim: float = 32.0
    beta0: float = 1.0
    c_top: int = 10
    map_top: int = 8
    mapping_mode: str = "tied"
    max_local: int = 100
    local_tol: float = 1e-3
    seeds: int = 1
    seed_offset: int = 200


@dataclass(frozen=True)
class KmeansLdaCfg:
    """LDA+KMEANS (ch. 5): K-means codebook, batch VB LDA alpha = eta = 1/T, 50 iterations."""

    K: list[int] = field(default_factory=lambda: [125, 250, 500, 750, 1000, 1750, 3000, 8000])
    n_iter: int = 50
    kmeans_iter: int = 20
    kmeans_points: int | None = None


@dataclass(frozen=True)
class GdpmmCfg:
    """LDA+GDPMM (ch. 5): scikit-learn BayesianGaussianMixture (spherical, DP prior with
    concentration gamma) on training descriptors, hard assignment, then LDA."""

    C: int = 4000
    gamma: float = 10.0
    max_iter: int = 100
    max_points: int | None = None


@dataclass(frozen=True)
class SvmCfg:
    """One-vs-rest SVM with a histogram-intersection kernel; C by ``folds``-fold CV."""

    C_grid: list[float] = field(default_factory=lambda: [2.0**k for k in range(-5, 16, 2)])
    folds: int = 10


@dataclass(frozen=True)
class ExpSettings:
    """Settings of the experiment steps (one job per dataset)."""

    datasets: list[str] = field(default_factory=lambda: ["scene13"])
    desc_per_doc: int | None = None  # seeded subsample per document (null = all)
    n_train: list[int] = field(default_factory=lambda: [25, 50, 100])
    gibbs: GibbsCfg = field(default_factory=GibbsCfg)
    slda: SldaCfg = field(default_factory=SldaCfg)
    cavi: CaviCfg = field(default_factory=CaviCfg)
    kmeans_lda: KmeansLdaCfg = field(default_factory=KmeansLdaCfg)
    gdpmm: GdpmmCfg = field(default_factory=GdpmmCfg)
    svm: SvmCfg = field(default_factory=SvmCfg)
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SemiCfg:
    """Fig 5.4: CAVI on ``n_total`` images per class (labels unused), HIK SVM on the
    ``n_labelled`` per class among them; T = 25 as in the document (N_total 65-650)."""

    T: int = 25
    n_total: list[int] = field(default_factory=lambda: [5, 10, 20, 30, 40, 50])
    n_labelled: list[int] = field(default_factory=lambda: [5, 10, 15, 20, 25])
    reduction: str = ""  # what this run leaves out of the document's protocol (recorded)


@dataclass(frozen=True)
class SemiSettings:
    """Settings of the semi step (CAVI and SVM settings shared with ch. 5)."""

    semi: SemiCfg = field(default_factory=SemiCfg)
    desc_per_doc: int | None = None
    cavi: CaviCfg = field(default_factory=CaviCfg)
    svm: SvmCfg = field(default_factory=SvmCfg)
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FigSettings:
    datasets: list[str] = field(default_factory=lambda: ["scene13"])
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class BenchCfg:
    """``dataset``: a dataset of the run whose descriptors are used (null = N(0, 1) with
    dim D); N x C the E l GEMM and the CAVI iteration; bgm_N x bgm_C the scikit-learn
    side by side; vs_N descriptors (vs_C clusters) for Gibbs vs VI and LDA+KMEANS vs VI."""

    dataset: str | None = None
    N: int = 200_000
    C: int = 4000
    D: int = 128
    T: int = 25
    doc_len: int = 200
    gemm_reps: int = 3
    iters: int = 3
    bgm_N: int = 20_000
    bgm_C: int = 200
    vs_N: int = 4000
    vs_C: int = 200
    sift_images: int = 20


@dataclass(frozen=True)
class BenchSettings:
    bench: BenchCfg = field(default_factory=BenchCfg)


@dataclass(frozen=True)
class ClaimsCfg:
    se_margin: float = 1.0  # accuracy points treated as a tie (about one SE)
    speedup_tol: float = 12.0  # E13: Gibbs/VI >= 17 - 12 = 5x ("order of magnitude", loosely)
    vocab_rel: float = 0.5  # E8/E9: vocabulary sizes "near" = within 50 %
    c1_abs: float = 1e-6
    c8_abs: float = 1e-8


@dataclass(frozen=True)
class ClaimsSettings:
    datasets: list[str] = field(default_factory=lambda: ["scene13"])
    claims: ClaimsCfg = field(default_factory=ClaimsCfg)
