"""Study ``drift`` (document 004, ch. 2): its registry and the settings of its steps.

The document: James R. Foulds (2014), *Latent Variable Modeling for Networks and Text: Algorithms,
Models and Evaluation Techniques*, PhD dissertation, University of California, Irvine
(seed 004). Sections, equations, figures and tables cited in this package are its
own (chapter 2 and Appendix A).

Notes
-----
Synthetic data: DRIFT networks with known features (Sec. 2.6.1; the smoke run's
network is an Enron-like synthetic one), and LFRM_LDA / BMF_LDA text networks with planted
feature-topic associations: Tables 2.3/2.4 and Fig 2.8 are synthetic analogues (the
document's Twitter data are private); Table 2.3 adds the Enron subject-line rows in
``real``. The DRIFT fits' per-iteration K⁺, α, ε traces are ``synth_trace.csv`` /
``monthly_trace.csv`` (claims C2.6, C2.6b; not published: their per-fit summary, K⁺ and
split-R̂, is the evidence target ``evidence/traces.csv``, and the synthetic networks' oracle
forecast ``evidence/synthetic_signal.csv``, both under ``published/real/drift/evidence/``;
``snakemake drift_evidence``). C2.13's settling run, each text fit's chain continued to 3x
its burn-in beside 2 independent chains (``evidence/text_chains.csv``,
``evidence/enron_chains.csv``; ~6,400 CPU-s at the real settings, the Enron part needs the
data mirror), is built on demand: ``snakemake drift_evidence_chains``. The Enron monthly
rows are ``substitute``: the mirror's Perry &
Wolfe coding (156 employees, 21,635 messages), not the document's cleaning (151 people,
34,182 emails). The missing-data task runs on ``monthly_fit.missing_splits`` held-out sets
(the rows' replicates); the readings the document leaves open are ``readings.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from latentlab.settings import Invalid, setting
from latentlab.studies.shape import Source, Study

# the modules that register this study's steps (shape.load_study imports them all, a job
# only its step's): listed, never imported for their side effect
STUDY = Study(
    "drift",
    document="004_1d0e5f2e58b54e45",
    title="DRIFT: dynamic relational infinite feature model",
    modules=("runs", "enron_text", "text", "figures", "tables", "claims", "bench", "evidence"),
    source=Source(
        "004", "Foulds (PhD 2014): DRIFT, TIR, SCVB0, AIS evaluation", "Foulds 2014", "ch. 2"
    ),
    data={
        "enron_email": (
            "the Enron email network (top 50 actors, monthly); in `real` and `paper` also "
            "LFRM_LDA on it with the messages' subject lines as edge documents (a substitute for "
            "the email bodies, not in the mirror: `enron_text_*`, Table 2.3's `ours (Enron "
            "subject lines, substitute)` rows, C2.11)"
        ),
    },
)

# The method grid of Table 2.1 (forecasting, missing data): fitting.py fits them, the tables
# and figures name them
METHODS = ["Naive", "Baseline", "LFRM_last", "LFRM_all", "DRIFT"]
MISSING_METHODS = ["Naive", "Baseline", "LFRM_current", "LFRM_all", "DRIFT"]


@dataclass(frozen=True)
class HyperSettings:
    """Sampler hyperparameters (Sec. 2.6; σ_ε and the ε proposal are not given)."""

    alpha_a: float = 3.0  # Gamma shape of the IBP α's hyperprior (Sec. 2.5; α_a = 3, Sec. 2.6)
    alpha_b: float = 1.0  # Gamma rate (inverse scale) of that hyperprior (α_b = 1, Sec. 2.6)
    gamma: float = 3.0  # persistence prior b_k ~ Beta(γ, δ) (Sec. 2.4.1; γ = 3, Sec. 2.6)
    delta: float = 1.0  # δ of b_k ~ Beta(γ, δ) (δ = 1, Sec. 2.6)
    sigma_w: float = 0.1  # prior s.d. of each w_kk' (σ_W = .1, Sec. 2.6; read as an s.d.)
    sigma_w_prop: float = 0.1  # s.d. of the random-walk MH proposal for w_kk' (Eq. 2.28: σ_w)
    sigma_eps: float = 1.0  # prior s.d. of the intercept ε (not given by the document)
    sigma_eps_prop: float = 0.1  # s.d. of the random-walk MH proposal for ε (not given)
    # the FFBS of Z keeps the slice variable's 1/a*(Z) factor (Eq. 2.25; ours, not in Sec. 2.5)
    slice_factor: bool = True


@dataclass(frozen=True)
class SynthSpec:
    """Synthetic DRIFT data (Sec. 2.6.1): N actors, T + 1 steps (the last one forecast)."""

    n_datasets: int = setting(10, ge=1)  # data sets generated, each with its own Z (Sec. 2.6.1: 10)
    N: int = setting(10, ge=2)  # actors (Sec. 2.6.1: 10)
    T: int = setting(100, ge=1)  # training time steps (Sec. 2.6.1: 100); step T + 1 is forecast
    # K x K feature interactions, K = len(W) (Sec. 2.6.1: 3 "identifiable" features; values ours)
    W: list[list[float]] = field(
        default_factory=lambda: [[3.0, -1.0, -1.0], [-1.0, 3.0, -1.0], [-1.0, -1.0, 3.0]]
    )
    eps: float = -2.0  # intercept ε of the edge logit (Eq. 2.18; not given, ours)
    alpha: float = 3.0  # a_k ~ Beta(alpha/K, 1) when ``a`` is None
    gamma: float = 3.0  # b_k ~ Beta(gamma, delta) when ``b`` is None
    delta: float = 1.0  # b_k ~ Beta(gamma, delta) when ``b`` is None
    # Fixed birth / persistence of every feature (Eq. 2.19, Pr(Z | a, b)); None draws them
    # from the finite prior above. The document does not give the values of its synthetic
    # data (issue 22, case 2): the finite prior with K = 3 gives a_k ~ U(0, 1), b_k ~ Beta(3, 1),
    # chains with lag-1 correlation b − a ≈ 0 and networks that do not predict the next one.
    a: float | None = None
    b: float | None = None  # fixed persistence of every feature; None: b_k ~ Beta(gamma, delta)
    seed_offset: int = 0  # data set d's seed: base_seed + seed_offset + d


@dataclass(frozen=True)
class SynthDataSettings:
    synthetic: SynthSpec = field(default_factory=SynthSpec)


@dataclass(frozen=True)
class SynthFit:
    """DRIFT / LFRM fits on the synthetic data (Sec. 2.6.1): Table 2.1 (top), Figs 2.2, 2.3."""

    # independent chains per fit, each giving its last state (Sec. 2.6.1: 20 samples, 20 chains)
    chains: int = setting(20, ge=1)
    burnin: int = setting(100, ge=0)  # burn-in iterations per chain (Sec. 2.6.1: 100)
    # the first ``datasets`` data sets get Table 2.1's fits (document: 10)
    datasets: int = setting(10, ge=1)
    # draws of Z^(T+1) per DRIFT sample, advancing its chains one step (Eq. 2.29)
    forecast_draws: int = setting(10, ge=1)
    # missing data: each pair i < j at each step held out with this probability (Sec. 2.6: 20%)
    heldout_frac: float = setting(0.2, gt=0, lt=1)
    recovery_K: int = setting(3, ge=1)  # K fixed in Fig 2.2's recovery fits (Sec. 2.6.1: 3)
    recovery_datasets: int = setting(10, ge=0)  # the first n data sets get Fig 2.2's fits (0: none)
    baseline_c: float = setting(0.2, gt=0)  # urn concentration = (training steps) * 0.2 = T/5
    # urn to probabilities (open in Sec. 2.6): density: mean edges per step; beta: (n+c)/(n_obs+2c)
    baseline_norm: Literal["density", "beta"] = "density"
    processes: int = setting(2, ge=1)  # worker processes running the chains (1: in-process)
    seed_offset: int = 100  # data set d's fits: base_seed + seed_offset + d (+ a shift per task)


@dataclass(frozen=True)
class SynthFitSettings:
    synthetic_fit: SynthFit = field(default_factory=SynthFit)
    hyper: HyperSettings = field(default_factory=HyperSettings)


@dataclass(frozen=True)
class EnronLike:
    """The 'Enron-like' synthetic network of the smoke run (ours, not in the document: a
    stand-in for the Enron data of Sec. 2.6.2)."""

    N: int = 50  # actors (Sec. 2.6.2 keeps the 50 with the most emails)
    T: int = 37  # months (Sec. 2.6.2 forecasts t = 3..37)
    K: int = 6  # planted features
    w_diag: float = 2.5  # diagonal of W: logit added per feature two actors share
    w_off: float = -0.5  # off-diagonal entries w_kk' (k != k') of W
    eps: float = -3.5  # intercept ε of the edge logit (Eq. 2.18)
    a: float = 0.05  # birth probability of every feature in the first t_sparse months
    b: float = 0.9  # persistence probability of every feature in the first t_sparse months
    t_sparse: int = 30  # the first t_sparse months use a, b; later ones a_late, b_late (sparser)
    a_late: float = 0.01  # birth probability from month t_sparse + 1 on
    b_late: float = 0.6  # persistence probability from month t_sparse + 1 on (features die out)
    n_persistent: int = 15  # random actor pairs given persistent_logit (an edge almost every month)
    persistent_logit: float = 4.0  # logit added to those pairs' edge logit


@dataclass(frozen=True)
class NetworkSpec:
    """Monthly binary symmetric sociomatrices (Sec. 2.6.2)."""

    # enron_email: the data mirror's Enron network; synthetic: the Enron-like one (ours)
    source: Literal["enron_email", "synthetic"] = "enron_email"
    n_actors: int = setting(50, ge=2)  # the top actors by messages (at most all of them)
    first_month: str = "1999-06"  # YYYY-MM, the first month of the window
    last_month: str = "2002-06"  # YYYY-MM, the last month (the window holds >= 2 months)
    # a message outside first_month..last_month: dropped (counted in the summary) or an error
    outside_window: Literal["drop", "error"] = "drop"
    # a month with no edge among the top actors: an error, or kept as an empty network
    empty_month: Literal["error", "keep"] = "error"
    synthetic: EnronLike = field(default_factory=EnronLike)
    seed_offset: int = 200  # seed of the synthetic network: base_seed + seed_offset

    def __post_init__(self):
        months = []
        for name in ("first_month", "last_month"):
            y, sep, m = getattr(self, name).partition("-")
            if not (sep and y.isdigit() and m.isdigit() and 1 <= int(m) <= 12):
                raise Invalid(name, f"expected YYYY-MM, got {getattr(self, name)!r}")
            months.append(int(y) * 12 + int(m))
        if months[1] - months[0] + 1 < 2:
            raise Invalid(
                "last_month", f"window {self.first_month}..{self.last_month} has < 2 months"
            )


@dataclass(frozen=True)
class NetworkSettings:
    network: NetworkSpec = field(default_factory=NetworkSpec)


@dataclass(frozen=True)
class MonthlyFit:
    """DRIFT / LFRM fits on the monthly networks (Sec. 2.6.2): Table 2.1 (bottom), Figs 2.4-2.7
    and Table 2.2."""

    chains: int = setting(3, ge=1)  # chains per month's forecast fit (Sec. 2.6.2: 3)
    burnin: int = setting(100, ge=0)  # burn-in iterations per forecast chain (Sec. 2.6.2: 100)
    samples: int = setting(10, ge=1)  # samples recorded per forecast chain (Sec. 2.6.2: 10)
    thin: int = setting(1, ge=1)  # iterations between recorded samples (not given; 1)
    # draws of Z^t per DRIFT sample, advancing its chains one step (Sec. 2.6.2: 10)
    forecast_draws: int = setting(10, ge=1)
    # forecast months first_t..T (1-based), as in the document (at most T: the data's)
    first_t: int = setting(3, ge=2)
    # forecast every month (document); > 1 skips months (recorded)
    forecast_every: int = setting(1, ge=1)
    # chains of each missing-data fit, the last state of each kept (Sec. 2.6.2: 30)
    missing_chains: int = setting(30, ge=1)
    missing_burnin: int = setting(300, ge=0)  # burn-in per missing-data chain (Sec. 2.6.2: 300)
    # held-out masks of the missing-data task, each its own draw of the 20 % and its own
    # fits (the document: one; more give the missing-data rows their replicates, issue 38)
    missing_splits: int = setting(1, ge=1)
    # missing data: each pair i < j in each month held out with this probability (Sec. 2.6: 20%)
    heldout_frac: float = setting(0.2, gt=0, lt=1)
    baseline_c: float = setting(0.2, gt=0)  # urn concentration = (training months) * 0.2 = T/5
    # urn to probabilities (open in Sec. 2.6): density: mean edges per month; beta: (n+c)/(n_obs+2c)
    baseline_norm: Literal["density", "beta"] = "density"
    processes: int = setting(2, ge=1)  # worker processes running the chains (1: in-process)
    seed_offset: int = 300  # month t's fits: base_seed + seed_offset + t (missing data: + 20,000)


@dataclass(frozen=True)
class MonthlyFitSettings:
    monthly_fit: MonthlyFit = field(default_factory=MonthlyFit)
    hyper: HyperSettings = field(default_factory=HyperSettings)


TOPK = (10, 20, 50, 100, 500, 1000)  # Table 2.2's k (the document's)


@dataclass(frozen=True)
class FigureSettings:
    # Fig 2.5's months t, dense then sparse (document: 30, 36); if none was forecast: T - 6, T
    fig_months: list[int] = field(default_factory=lambda: [30, 36])
    # Fig 2.6: the most frequent actor pairs plotted (document: four hand-picked pairs)
    fig_pairs: int = 4
    # Table 2.2's k: true positives among the top k held-out pairs by edge probability
    topk: list[int] = field(default_factory=lambda: list(TOPK))
    # the run's departures from the document's protocol, recorded in every output built
    # from the DRIFT / LFRM fits (a run at the document's settings lists none)
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ReductionSettings:
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SynthFigureSettings:
    """Figs 2.2 / 2.3 record the synthetic generator's settings in their metadata."""

    synthetic: SynthSpec = field(default_factory=SynthSpec)
    # the run's departures from the document's protocol, recorded in the outputs' metadata
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProtocolSettings:
    """Table 2.1 records the fits' protocol (chains, burn-ins, data sets) and the synthetic
    generator in its metadata."""

    synthetic_fit: SynthFit = field(default_factory=SynthFit)
    monthly_fit: MonthlyFit = field(default_factory=MonthlyFit)
    synthetic: SynthSpec = field(default_factory=SynthSpec)
    reductions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ClaimTolerances:
    """Thresholds of the study's claims (claims.py); ours where the document gives no number."""

    # C2.1 / C2.2: DRIFT must beat the best other method by more than this share of the
    # document's own gap in that cell of Table 2.1 (at most half: CONTRIBUTING)
    gap_share: float = setting(0.5, ge=0, le=0.5)
    # C2.3 threshold: every feature's correlation per data set (ours; Fig. 2.2 shows images)
    recovery_corr: float = 0.9
    early_t: int = 12  # "no model beats the baseline for t < 12"
    # C2.7 (LFRM_LDA): the document gives no number. A fit recovers the planted
    # associations when, for every planted feature, the topic matched to its planted topic
    # sits on the feature matched to its actors, Z under that matching has accuracy >=
    # text_acc (the 0.9 of C2.3), and the matched topic is closer to its planted
    # topic than text_l1_ratio x the distance to the nearest other planted topic.
    text_acc: float = 0.9
    text_l1_ratio: float = 0.5  # C2.7: matched topic's L1 < this x L1 to the nearest other one
    text_share: float = 0.8  # share of data sets that must pass (C2.3's share)
    # C2.6 (the document: "a burn in length of 100, which we found to be sufficient"):
    # a DRIFT fit is stationary after its burn-in when the split-R̂ (Gelman et al., BDA3)
    # of K⁺ and of α over iterations >= burnin/2 of all its chains is below trace_rhat
    # (BDA3's conventional 1.1); the fits are the row's replicates. α | K⁺ ~ Gamma(K⁺ +
    # α_a, H_NT + α_b): the pooled z of α minus its conditional mean must be within alpha_z.
    trace_rhat: float = 1.1
    alpha_z: float = 3.0  # C2.6b: the pooled z of α minus its conditional mean stays within ±this
    # C2.11 on the Enron subject lines (substitute): a topic of Table 2.3 is found when a
    # fitted topic holds >= enron_topic_words of its ten words (at least half) among its
    # ten most probable AND more than topics dealt from our words shuffled share (their
    # 95th percentile over enron_shuffles shuffles); the mean number of active features per
    # person matches 4.5 within enron_features_rel (relative); the 'meetings' statistic
    # (81 of 140 actors): the feature matched to 'Meetings' is held by a majority.
    enron_topic_words: int = 5
    enron_shuffles: int = 1000  # C2.11: word shuffles giving the shuffled-topic 95th percentile
    enron_features_rel: float = 0.25  # C2.11: relative tolerance on 4.5 features per person
    # order rows over months (C2.9b: DRIFT against each other method for t >= early_t) and
    # over actor pairs (C2.15: Fig 2.6's probabilities follow the edges): one-sided paired
    # t-test at this level (margin 0: the figures give no values)
    order_alpha: float = 0.05
    # Fig 2.6: the document picks its pairs "from the fifty most frequent pairs"; a pair is
    # underfit (C2.15b) when DRIFT's edge probability stays below underfit_p at every month
    fig26_pairs: int = 50
    underfit_p: float = 0.5  # C2.15b: a pair is underfit when DRIFT stays below this every month


@dataclass(frozen=True)
class ClaimsSettings:
    claims: ClaimTolerances = field(default_factory=ClaimTolerances)
    hyper: HyperSettings = field(default_factory=HyperSettings)
    # Table 2.2's k: true positives among the top k held-out pairs by edge probability (C2.4
    # judges k = 10 and every k >= 50 of them, per held-out split)
    topk: list[int] = field(default_factory=lambda: list(TOPK))


@dataclass(frozen=True)
class EvidenceSpec:
    """The evidence steps (``evidence.py``): the oracle forecast of the synthetic networks."""

    oracle_draws: int = setting(2000, ge=1)  # draws of Z^(T+1) per data set (oracle forecast)
    seed_offset: int = 700  # the oracle's draws for data set d: base_seed + seed_offset, r = d


@dataclass(frozen=True)
class EvidenceSignalSettings:
    synthetic: SynthSpec = field(default_factory=SynthSpec)
    evidence: EvidenceSpec = field(default_factory=EvidenceSpec)


@dataclass(frozen=True)
class EvidenceTraceSettings:
    hyper: HyperSettings = field(default_factory=HyperSettings)


@dataclass(frozen=True)
class BenchSettings:
    # bench.csv (ours): DRIFT sweeps/s over N, T, K; chains on 1 vs 2 processes; LFRM_LDA sweeps/s
    bench: dict[str, list[int]] = field(
        default_factory=lambda: {
            "N": [10, 20],
            "T": [20, 40],
            "K": [2, 4],
            "sweeps": [5],
            "text_N": [20, 140],  # LFRM_LDA: a small case and the document's Enron size
            "text_K": [4, 20],
            # independent chains on 1 vs 2 processes: the synthetic protocol's fit
            # (Sec. 2.6.1: 10 actors, 100 steps, K⁺ free, 100 burn-in sweeps), 2 chains
            "par_N": [10],
            "par_T": [100],
            "par_sweeps": [100],
            "par_chains": [2],
        }
    )
    hyper: HyperSettings = field(default_factory=HyperSettings)


# ------------------------------------------------ LFRM_LDA / BMF_LDA (Sec. 2.7, App. A)
@dataclass(frozen=True)
class TextSpec:
    """One synthetic text network (the Enron text and the Twitter data are not available).
    ``model``/``link``/``w_prior``/``w_diagonal`` are both the generator's and the fitted
    model's (the document's model for that kind of data). BMF: ``N`` rows x ``M``
    columns with ``K`` + ``K2`` features; LFRM: ``N`` nodes, ``K`` features = topics."""

    model: Literal["lfrm_lda", "bmf_lda"] = "lfrm_lda"
    link: Literal["logistic", "poisson", "gaussian"] = "poisson"
    w_prior: Literal["normal", "exponential"] = "normal"
    w_diagonal: bool = False
    N: int = setting(40, ge=1)
    M: int = setting(0, ge=0)
    K: int = setting(5, ge=1)
    K2: int = setting(0, ge=0)
    V: int = setting(500, ge=1)  # vocabulary size (word types) of the generated documents
    w_diag: float = 1.5  # diagonal of the planted W (BMF: of its K x K2 block)
    w_off: float = -0.5  # off-diagonal entries of the planted W
    eps: float = -1.5  # intercept ε of the planted η_ij = z_i W z_jᵀ + ε (Eq. A.3)
    # z_ik ~ Bern(p_feature); a row without a feature gets one, each feature >= 2 owners
    p_feature: float = setting(0.3, ge=0, le=1)
    obs_frac: float = setting(1.0, gt=0, le=1)  # BMF_LDA: share of the N x M cells rated
    node_docs: bool = False  # a document on every node (BMF: every row and column entity)
    edge_docs: bool = True  # LFRM_LDA: a document on each pair with y_ij > 0 (BMF: each rated cell)
    node_len: int = setting(50, ge=0)  # node document length: 1 + Poisson(node_len) tokens
    edge_len: int = setting(30, ge=0)  # edge document length: 1 + Poisson(edge_len) tokens
    # γ of Eqs. 2.30/2.31: share of the prior mass on the actors' features (the fit learns it)
    gamma: float = setting(0.8, ge=0, le=1)
    lam: float = setting(0.6, ge=0, le=1)  # λ of Eq. 2.30: the sender's part of γ (edge docs)
    # α⁺ of Eqs. 2.30/2.31: every document's total prior concentration (the fit learns it)
    alpha_plus: float = setting(2.0, gt=0)
    beta_gen: float = setting(0.05, gt=0)  # planted topics Φ_k ~ Dir(beta_gen) over the V words
    # s.d. of the Gaussian link (ratings, App. A.1.1 example 2): generator and fit
    gauss_sd: float = setting(1.0, gt=0)

    def __post_init__(self):
        if self.model == "bmf_lda" and (self.M < 1 or self.K2 < 1):
            raise Invalid("M" if self.M < 1 else "K2", "bmf_lda needs M >= 1 and K2 >= 1")
        if self.model == "lfrm_lda" and not (self.node_docs or self.edge_docs):
            raise Invalid("edge_docs", "a text network needs node or edge documents")


@dataclass(frozen=True)
class TextData:
    """Enron-like (Table 2.3, Fig 2.8: Poisson counts, text on the edges), Twitter-like
    (Table 2.4: logistic, diagonal positive W, one document per node) and a rectangular
    BMF_LDA set (App. A example 2: Gaussian ratings with a review on each rating)."""

    n_datasets: int = setting(3, ge=1)  # data sets generated of each kind
    enron_text: TextSpec = field(default_factory=TextSpec)
    twitter_text: TextSpec = field(
        default_factory=lambda: TextSpec(
            link="logistic",
            w_prior="exponential",
            w_diagonal=True,
            w_diag=3.0,
            w_off=0.0,
            eps=-2.5,
            node_docs=True,
            edge_docs=False,
            node_len=80,
        )
    )
    bmf_text: TextSpec = field(
        default_factory=lambda: TextSpec(
            model="bmf_lda",
            link="gaussian",
            N=30,
            M=40,
            K=3,
            K2=3,
            w_diag=2.0,
            w_off=0.0,
            eps=0.0,
            obs_frac=0.3,
            gauss_sd=0.5,
        )
    )
    seed_offset: int = 400  # data set r of kind i: base_seed + seed_offset + 100 i + r


@dataclass(frozen=True)
class TextDataSettings:
    text_data: TextData = field(default_factory=TextData)


@dataclass(frozen=True)
class TextFit:
    """MCMC of Appendix A.2. The document: 3000 burn-in iterations, 100 recorded samples,
    β_k = 0.1, γ, λ, α⁺ by empirical Bayes every iteration, Hungarian re-alignment after
    every iteration. Not given (recorded choices): σ_W (prior s.d. or exponential mean;
    the proposal s.d. is σ_W as in Eq. A.11), σ_ε, the ε proposal, the finite IBP α and
    the initial γ, λ, α⁺."""

    burnin: int = setting(3000, ge=0)  # burn-in iterations, synthetic fits (Sec. 2.7.2: 3000)
    samples: int = setting(100, ge=1)  # samples recorded, synthetic fits (Sec. 2.7.2: 100)
    thin: int = setting(1, ge=1)  # iterations between recorded samples (not given; 1)
    sigma_w: float = setting(1.0, gt=0)  # prior s.d. of w_kk' (exponential prior: its mean)
    sigma_w_prop: float = setting(1.0, gt=0)  # MH proposal s.d. for w_kk' (Eq. A.11: σ_W)
    sigma_eps: float = setting(3.0, gt=0)  # prior s.d. of the intercept ε (not given)
    sigma_eps_prop: float = setting(0.1, gt=0)  # MH proposal s.d. for ε (not given)
    ibp_alpha: float = setting(3.0, gt=0)  # finite IBP: π_k ~ Beta(ibp_alpha / K, 1) (not given)
    beta: float = setting(0.1, gt=0)  # topic-word Dirichlet β_k, fixed (App. A.2: 0.1)
    alpha_plus_init: float = setting(1.0, gt=0)  # initial α⁺ (then Minka's update, Eq. A.12)
    gamma_init: float = setting(0.5, gt=0, lt=1)  # initial γ (then empirical Bayes, App. A.2)
    lambda_init: float = setting(0.5, gt=0, lt=1)  # initial λ (then empirical Bayes, App. A.2)
    eb_steps: int = setting(5, ge=0)  # gradient-ascent steps on [logit γ, logit λ] per iteration
    # first step size of that ascent (halved until the objective does not decrease)
    eb_step_size: float = setting(0.05, gt=0)
    minka_iters: int = setting(5, ge=0)  # fixed-point steps of Eq. A.12 for α⁺ per iteration
    realign: bool = True  # Hungarian re-alignment of topics to features each iteration (App. A.2)
    seed_offset: int = 500  # data set r's chain: base_seed + seed_offset + r


@dataclass(frozen=True)
class TextFitSettings:
    text_fit: TextFit = field(default_factory=TextFit)


@dataclass(frozen=True)
class EnronText:
    """LFRM_LDA on the real Enron network, subject lines as edge documents (substitute for
    the email bodies of Sec. 2.7.2; ``enron_text`` module). ``enabled``: the rules build
    it (needs the data mirror; the smoke run has none). The document: K = 20 topics,
    3000 burn-in iterations, 100 samples, words occurring once removed; V (15,150 there)
    caps the vocabulary. ``extra_stop_words``: reply / forward markers of subject lines
    (the analogue of the document cutting the text after "forwarded")."""

    enabled: bool = False  # the rules build this fit (needs the data mirror; the smoke run: off)
    K: int = setting(20, ge=1)  # features = topics (Sec. 2.7.2: 20)
    burnin: int = setting(3000, ge=0)  # burn-in iterations per chain (Sec. 2.7.2: 3000)
    samples: int = setting(100, ge=1)  # samples recorded per chain (Sec. 2.7.2: 100)
    thin: int = setting(1, ge=1)  # iterations between recorded samples (not given; 1)
    min_count: int = setting(2, ge=1)  # a word's minimum count (Sec. 2.7.2: words seen once cut)
    # the vocabulary: at most this many words, the most frequent (Sec. 2.7.2: 15,150 words)
    vocab_max: int = setting(15150, ge=1)
    # subject lines' reply / forward markers, dropped as stop words (cf. "forwarded", Sec. 2.7.2)
    extra_stop_words: list[str] = field(default_factory=lambda: ["re", "fw", "fwd"])
    seed_offset: int = 600  # chain c's seed: base_seed + seed_offset + c (c = 0: the reported one)
    # C2.13: independent chains (seeds seed_offset, r = 1..chains-1) matched to the first;
    # a topic is stable when its partner is closer than chain_match_ratio x the distance to
    # its nearest other topic (C2.7's text_l1_ratio)
    chains: int = setting(2, ge=1)
    # C2.13: a topic is stable when its partner lies closer than this x its nearest other topic
    chain_match_ratio: float = setting(0.5, gt=0)


@dataclass(frozen=True)
class EnronTextSettings:
    enron_text: EnronText = field(default_factory=EnronText)
    network: NetworkSpec = field(default_factory=NetworkSpec)
    text_fit: TextFit = field(default_factory=TextFit)


TEXT_DATA_KINDS = ("enron_text", "twitter_text", "bmf_text")  # text_data's synthetic kinds


@dataclass(frozen=True)
class TextChains:
    """C2.13's evidence (``evidence.py``: evidence_text_chains, evidence_enron_chains): each
    text fit's chain continued to ``burnin_factor`` x its burn-in, beside ``chains`` - 1
    independent chains at both burn-ins (issue 37: the settling run of the open C2.13 rows;
    the document: 3000 burn-in iterations and 100 samples, Sec. 2.7.2)."""

    burnin_factor: int = setting(3, ge=2)  # the longer burn-in: this x the fit's
    chains: int = setting(3, ge=2)  # chains per fit, the published one (chain 0) included
    # the synthetic kinds (text_data) to fit; the Enron fit is its own step
    kinds: list[str] = field(default_factory=lambda: list(TEXT_DATA_KINDS))
    # a synthetic fit's topic is found again by another chain when the partner lies closer
    # than this x its nearest other topic (the Enron fit's rule: enron_text.chain_match_ratio)
    match_ratio: float = setting(0.5, gt=0)
    # chain c >= 1 of synthetic data set r: base_seed + seed_offset + 100 c + r (chain 0 is
    # the published fit's; the Enron chains are enron_text.seed_offset's, as in its fit)
    seed_offset: int = 800

    def __post_init__(self):
        bad = sorted(set(self.kinds) - set(TEXT_DATA_KINDS))
        if bad or not self.kinds:
            raise Invalid("kinds", f"expected some of {list(TEXT_DATA_KINDS)}, got {self.kinds}")


@dataclass(frozen=True)
class EvidenceTextChainSettings:
    text_fit: TextFit = field(default_factory=TextFit)
    text_chains: TextChains = field(default_factory=TextChains)


@dataclass(frozen=True)
class EvidenceEnronChainSettings:
    enron_text: EnronText = field(default_factory=EnronText)
    network: NetworkSpec = field(default_factory=NetworkSpec)
    text_fit: TextFit = field(default_factory=TextFit)
    text_chains: TextChains = field(default_factory=TextChains)
