"""Public API of the chapter-5 likelihood estimators (Foulds 2014, ch. 5).

Every estimator takes topic models as :class:`TopicModel` (Phi as V x K, columns = topics;
alpha of length K), a list of test documents (token word-id arrays, or a BowCorpus), a
seed, and returns an :class:`Estimate`: per-document log estimates, the per-sample
log-weights where there are any, and the token-level Gibbs updates each document cost.

Bad input (documented rules)
----------------------------
* Phi must be finite, non-negative, with columns summing to 1 (tolerance 1e-6) and alpha
  finite and > 0; otherwise :class:`DataError`.
* Zero topic probabilities: Phi entries are floored at ``floor`` (default 1e-12) and the
  columns renormalised ("floored topics"); the floor is recorded in the Estimate. With
  ``floor=0`` a zero entry for a word of a test document is a :class:`DataError`.
* Ratio / iteration-AIS with models of different K or vocabularies: :class:`DataError`.
* Temperature / particle / sample counts < 1: :class:`ConfigError`.
* A test document with no tokens: :class:`DataError` (use ``BowCorpus.drop_empty``).
* A non-finite estimate is never returned: :class:`DivergenceError` instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import linear_sum_assignment
from scipy.special import logsumexp

from latentlab.errors import ConfigError, DataError, DivergenceError
from latentlab.kernels.rng import doc_seeds

DEFAULT_FLOOR = 1e-12


# ----------------------------------------------------------------------------- models and documents


@dataclass
class TopicModel:
    """Topics ``phi`` (V x K, columns sum to 1) and Dirichlet ``alpha`` (K,)."""

    phi: np.ndarray
    alpha: np.ndarray
    name: str = "model"
    vocab: list[str] | None = None
    floor: float = DEFAULT_FLOOR

    def __post_init__(self):
        phi = np.asarray(self.phi, dtype=np.float64)
        alpha = np.asarray(self.alpha, dtype=np.float64).ravel()
        if phi.ndim != 2:
            raise DataError(None, f"{self.name}: Phi must be V x K, got shape {phi.shape}")
        V, K = phi.shape
        if alpha.shape != (K,):
            raise DataError(None, f"{self.name}: alpha has length {alpha.size}, Phi has K = {K}")
        if not np.isfinite(phi).all() or (phi < 0).any():
            raise DataError(None, f"{self.name}: Phi has negative or non-finite entries")
        cs = phi.sum(axis=0)
        if not np.allclose(cs, 1.0, atol=1e-6):
            bad = int(np.argmax(np.abs(cs - 1)))
            raise DataError(None, f"{self.name}: topic {bad} sums to {cs[bad]:.6g}, not 1")
        if not np.isfinite(alpha).all() or (alpha <= 0).any():
            raise DataError(None, f"{self.name}: alpha must be finite and > 0")
        if self.floor < 0:
            raise ConfigError("floor", f"must be >= 0, got {self.floor}")
        if self.floor > 0 and (phi < self.floor).any():
            phi = np.maximum(phi, self.floor)
            phi /= phi.sum(axis=0, keepdims=True)
        self.phi = np.ascontiguousarray(phi)
        self.alpha = np.ascontiguousarray(alpha)
        if self.vocab is not None and len(self.vocab) != V:
            raise DataError(
                None, f"{self.name}: vocabulary has {len(self.vocab)} words, Phi has {V}"
            )

    @property
    def K(self) -> int:
        return self.phi.shape[1]

    @property
    def V(self) -> int:
        return self.phi.shape[0]

    def permuted(self, perm: np.ndarray, name: str | None = None) -> TopicModel:
        """The same model with topics reordered: new topic k = old topic perm[k]."""
        return TopicModel(self.phi[:, perm], self.alpha[perm], name or self.name, self.vocab, 0.0)


def check_compatible(m1: TopicModel, m2: TopicModel) -> None:
    """Ratio-AIS needs the same K and the same vocabulary (DataError otherwise)."""
    if m1.K != m2.K:
        raise DataError(None, f"models {m1.name} and {m2.name} have different K ({m1.K} vs {m2.K})")
    if m1.V != m2.V:
        raise DataError(
            None,
            f"models {m1.name} and {m2.name} have different vocabulary sizes ({m1.V} vs {m2.V})",
        )
    if m1.vocab is not None and m2.vocab is not None and list(m1.vocab) != list(m2.vocab):
        raise DataError(None, f"models {m1.name} and {m2.name} have different vocabularies")


def align_topics(ref: TopicModel, other: TopicModel) -> tuple[TopicModel, np.ndarray]:
    """Hungarian alignment of ``other``'s topics to ``ref`` by L1 distance (ours: the thesis does
    not say how the two models of Sec. 5.3.2 were matched).

    alpha is permuted with Phi. Returns (aligned model, perm) with aligned topic k =
    other's topic perm[k]. Only for independently trained models (perturbed topics and
    snapshots of one chain are aligned already).
    """
    check_compatible(ref, other)
    cost = np.abs(ref.phi[:, :, None] - other.phi[:, None, :]).sum(axis=0)
    rows, cols = linear_sum_assignment(cost)
    perm = cols[np.argsort(rows)]
    return other.permuted(perm), perm


def pack_docs(docs, V: int | None = None, what: str = "test documents"):
    """(ptr int64[D+1], words int64[T]) from a list of token arrays or a BowCorpus.

    Raises DataError for an empty document or a word id outside the vocabulary.
    """
    if hasattr(docs, "to_tokens") and hasattr(docs, "indptr"):
        docs = corpus_token_lists(docs)
    lists = [np.asarray(d, dtype=np.int64).ravel() for d in docs]
    if not lists:
        raise DataError(None, f"{what}: no documents")
    for i, d in enumerate(lists):
        if d.size == 0:
            raise DataError(None, f"{what}: document {i} has no tokens; drop empty documents first")
        if (d < 0).any() or (V is not None and (d >= V).any()):
            raise DataError(None, f"{what}: document {i} has word ids outside [0, {V})")
    ptr = np.zeros(len(lists) + 1, np.int64)
    ptr[1:] = np.cumsum([len(d) for d in lists])
    return ptr, np.concatenate(lists)


def corpus_token_lists(corpus) -> list[np.ndarray]:
    """Token word-id sequences of a BowCorpus (word ids repeated by count, in id order)."""
    out = []
    for d in range(corpus.n_docs):
        a, b = corpus.indptr[d], corpus.indptr[d + 1]
        out.append(np.repeat(corpus.word_ids[a:b].astype(np.int64), corpus.counts[a:b]))
    return out


def _check_count(name: str, v: int) -> int:
    if int(v) != v or v < 1:
        raise ConfigError(name, f"must be an integer >= 1, got {v!r}")
    return int(v)


def _check_positive(model: TopicModel, words: np.ndarray) -> None:
    rows = model.phi[np.unique(words)]
    if (rows <= 0).any():
        raise DataError(
            None,
            f"{model.name}: zero topic probability for a test word (floor=0); "
            "use a positive floor (floored topics) or smooth the topics",
        )


def _set_threads(threads: int | None) -> None:
    if threads:
        import numba

        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))


# ----------------------------------------------------------------------------- results


@dataclass
class Estimate:
    """Per-document estimates on the log scale.

    ``log_lik[d]`` is the estimate (log-mean-exp of the S log-weights where the method is
    an importance sampler); ``log_weights`` is (D, S) or None; ``updates[d]`` is the number
    of token-level Gibbs updates document d cost.
    """

    method: str
    log_lik: np.ndarray
    updates: np.ndarray
    log_weights: np.ndarray | None = None
    params: dict = field(default_factory=dict)

    def __post_init__(self):
        if not np.isfinite(self.log_lik).all():
            bad = int(np.flatnonzero(~np.isfinite(self.log_lik))[0])
            raise DivergenceError(f"{self.method} log-likelihood", bad, "document index")


def _lme(lw: np.ndarray) -> np.ndarray:
    return logsumexp(lw, axis=-1) - math.log(lw.shape[-1])


# ----------------------------------------------------------------------------- estimators


def standard_ais(model, docs, n_temps, S=1, seed=0, stream=0, threads=None) -> Estimate:
    """Standard AIS (Wallach et al. 2009; Eqs. 5.19, 5.21-5.23): exact Polya start,
    uniform temperatures beta_j = 1 - j/n, S importance samples, n-1 sweeps each."""
    from latentlab.kernels.ais import batch_std_ais

    n = _check_count("n_temps", n_temps)
    S = _check_count("S", S)
    ptr, words = pack_docs(docs, model.V)
    _check_positive(model, words)
    _set_threads(threads)
    D = len(ptr) - 1
    out = np.zeros((D, S))
    upd = np.zeros(D, np.int64)
    alphas = np.ascontiguousarray(np.broadcast_to(model.alpha, (D, model.alpha.shape[0])))
    batch_std_ais(ptr, words, model.phi, alphas, n, S, doc_seeds(seed, D, stream), out, upd)
    return Estimate(
        "std_ais", _lme(out), upd, out, {"n_temps": n, "S": S, "seed": seed, "stream": stream}
    )


def prior_is(model, docs, S, seed=0, stream=0, threads=None) -> Estimate:
    """Importance sampling from the prior (Eq. 5.5): standard AIS with one temperature."""
    e = standard_ais(model, docs, 1, S, seed, stream, threads)
    e.method = "prior_is"
    return e


def ratio_ais(
    model1,
    model2,
    docs,
    n_temps,
    path="convex",
    S=1,
    burn=100,
    seed=0,
    stream=0,
    threads=None,
    align=False,
) -> Estimate:
    """Ratio-AIS (Eqs. 5.27-5.33, Algorithm 8): anneal model 2 -> model 1 and estimate
    log P(w | Phi1, a1) - log P(w | Phi2, a2) per document.

    ``path`` is "convex" (Eq. 5.32, default) or "geometric" (Eqs. 5.29-5.31). ``burn`` =
    r_{n-1}, the sweeps at model 2 before annealing (Sec. 5.2.1). ``align=True`` Hungarian-aligns
    model 2 to model 1 first (independently trained models only). The reverse
    direction is ``-ratio_ais(model2, model1, ...)``.
    """
    from latentlab.evaluation.ais import kernels

    check_compatible(model1, model2)
    if path not in ("convex", "geometric"):
        raise ConfigError("path", f"must be 'convex' or 'geometric', got {path!r}")
    n = _check_count("n_temps", n_temps)
    S = _check_count("S", S)
    if int(burn) != burn or burn < 0:
        raise ConfigError("burn", f"must be an integer >= 0, got {burn!r}")
    if align:
        model2, _ = align_topics(model1, model2)
    ptr, words = pack_docs(docs, model1.V)
    _check_positive(model1, words)
    _check_positive(model2, words)
    _set_threads(threads)
    D = len(ptr) - 1
    out = np.zeros((D, S))
    upd = np.zeros(D, np.int64)
    kernels.batch_ratio(
        ptr,
        words,
        model1.phi,
        model2.phi,
        model1.alpha,
        model2.alpha,
        n,
        int(burn),
        S,
        path == "geometric",
        doc_seeds(seed, D, stream),
        out,
        upd,
    )
    return Estimate(
        f"ratio_{path}",
        _lme(out),
        upd,
        out,
        {"n_temps": n, "S": S, "burn": int(burn), "seed": seed, "stream": stream, "align": align},
    )


def lr_particles(n_temps: int, doc_len: int) -> int:
    """Particles matching an AIS budget of n sweeps: max(1, round(2n/(N_d+1))) (Sec. 5.3)."""
    return max(1, int(round(2.0 * n_temps / (doc_len + 1))))


def left_to_right(model, docs, R=None, n_temps=None, seed=0, stream=0, threads=None) -> Estimate:
    """Left-to-right estimator (Sec. 5.1.1) with R particles, or with the particle count
    matched per document to an AIS budget of ``n_temps`` sweeps (Sec. 5.3)."""
    from latentlab.evaluation.ais import kernels

    ptr, words = pack_docs(docs, model.V)
    _check_positive(model, words)
    lens = np.diff(ptr)
    if (R is None) == (n_temps is None):
        raise ConfigError("R/n_temps", "give exactly one of R (particles) or n_temps (budget)")
    if R is not None:
        Rs = np.full(len(lens), _check_count("R", R), np.int64)
    else:
        n = _check_count("n_temps", n_temps)
        Rs = np.array([lr_particles(n, int(L)) for L in lens], np.int64)
    _set_threads(threads)
    D = len(lens)
    out = np.zeros(D)
    upd = np.zeros(D, np.int64)
    kernels.batch_lr(ptr, words, model.phi, model.alpha, Rs, doc_seeds(seed, D, stream), out, upd)
    return Estimate("lr", out, upd, None, {"R": Rs.tolist(), "n_temps": n_temps, "seed": seed})


def harmonic_mean(model, docs, S, burn=100, seed=0, stream=0, threads=None) -> Estimate:
    """Harmonic-mean estimator (Eq. 5.6, Newton & Raftery 1994): S posterior samples of z
    (fixed-topic Gibbs after ``burn`` sweeps); estimate = -logmeanexp(-log P(w | z_s, Phi)).
    Known to be unstable and to overestimate; for comparison only."""
    from latentlab.evaluation.ais import kernels

    S = _check_count("S", S)
    ptr, words = pack_docs(docs, model.V)
    _check_positive(model, words)
    _set_threads(threads)
    D = len(ptr) - 1
    out = np.zeros((D, S))
    upd = np.zeros(D, np.int64)
    kernels.batch_hm(
        ptr, words, model.phi, model.alpha, int(burn), S, doc_seeds(seed, D, stream), out, upd
    )
    return Estimate("harmonic_mean", -_lme(-out), upd, out, {"S": S, "burn": burn, "seed": seed})


def iteration_ais(
    phis, alphas, docs, n_temps, extra=1000, S=1, seed=0, stream=0, threads=None
) -> Estimate:
    """Iteration-AIS (Eqs. 5.34-5.36) along snapshots phis[0..I-1] (each V x K, already
    aligned: successive snapshots of one chain) with alphas[I, K].

    Prior -> snapshot 0 with n + extra temperatures (Wallach path), then n temperatures
    per convex link. ``log_lik`` is (D, I): the estimate at every snapshot; ``updates`` is
    (D, I), the cumulative work up to each snapshot.
    """
    from latentlab.evaluation.ais import kernels

    phis = np.ascontiguousarray(np.asarray(phis, dtype=np.float64))
    alphas = np.ascontiguousarray(np.asarray(alphas, dtype=np.float64))
    if phis.ndim != 3 or alphas.shape != (phis.shape[0], phis.shape[2]):
        raise DataError(None, f"snapshots: Phi {phis.shape} and alpha {alphas.shape} do not match")
    for i in range(phis.shape[0]):
        TopicModel(phis[i], alphas[i], f"snapshot {i}", floor=0.0)
    n = _check_count("n_temps", n_temps)
    S = _check_count("S", S)
    if int(extra) != extra or extra < 0:
        raise ConfigError("extra", f"must be an integer >= 0, got {extra!r}")
    ptr, words = pack_docs(docs, phis.shape[1])
    if (phis[:, np.unique(words)] <= 0).any():
        raise DataError(None, "snapshots: zero topic probability for a test word")
    _set_threads(threads)
    D, I = len(ptr) - 1, phis.shape[0]
    out = np.zeros((D, S, I))
    upd = np.zeros(D, np.int64)
    kernels.batch_iter_ais(
        ptr, words, phis, alphas, n, int(extra), S, doc_seeds(seed, D, stream), out, upd
    )
    lens = np.diff(ptr)
    cum = S * lens[:, None] * (n + extra - 1 + n * np.arange(I))[None, :]
    est = Estimate(
        "iteration_ais",
        _lme(np.moveaxis(out, 1, 2)),
        cum,
        out,
        {"n_temps": n, "extra": extra, "S": S},
    )
    assert np.array_equal(cum[:, -1], upd)
    return est


def ratio_ais_completion(
    model1, model2, words, observed, n_temps, path="geometric", S=1, burn=100, seed=0, stream=0
) -> tuple[float, int]:
    """Ratio-AIS for document completion (Eqs. 5.37-5.45) on one document.

    Estimates log P(w_b | w_a, 1) - log P(w_b | w_a, 2) as the full-document ratio-AIS
    log-weights (model 2 -> 1) times the reciprocal ratio on the observed part
    P(w_a | 2) / P(w_a | 1) (ratio-AIS run on w_a only, model 1 -> 2); by distributivity
    this equals the single-path estimator of Eqs. 5.43-5.44. ``observed`` is a boolean
    mask or index array into ``words``. Returns (estimate, updates).
    """
    words = np.asarray(words, dtype=np.int64)
    obs = np.zeros(len(words), bool)
    obs[np.asarray(observed)] = True
    if not obs.any() or obs.all():
        raise DataError(
            None,
            "completion: the observed part must be non-empty and not the whole document",
        )
    full = ratio_ais(model1, model2, [words], n_temps, path, S, burn, seed, 2 * stream)
    part = ratio_ais(model2, model1, [words[obs]], n_temps, path, S, burn, seed, 2 * stream + 1)
    return float(full.log_lik[0] + part.log_lik[0]), int(full.updates[0] + part.updates[0])
