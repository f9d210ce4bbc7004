"""Synthetic corpora with known truth.

* :func:`lda_corpus`: LDA (Blei, Ng & Jordan 2003). phi_k ~ Dir(beta 1_V) for k < K;
  theta_d ~ Dir(alpha_vec); N_d ~ Poisson(doc_length), at least ``min_length``; z ~ theta_d,
  w ~ phi_z. ``alpha_vec`` is symmetric (alpha each) or, with ``asymmetric_alpha``,
  alpha_k = alpha K (1/(k+1)) / sum_j 1/(j+1) (same total mass, decaying).
* :func:`hdp_corpus`: HDP-LDA by truncated stick-breaking (Teh et al. 2006; seed 001
  Sec 3): pi ~ GEM(gamma) truncated at T (pi_T takes the remaining stick), phi_t ~
  Dir(beta 1_V), theta_d ~ Dir(alpha0 pi), then as LDA.

Truth is written beside the corpus (``truth.npz``: phi, theta, the hyperparameters, and
pi for HDP); the per-token topic assignments are not stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from latentlab.data._io import load_npz, save_npz
from latentlab.data.corpus import BowCorpus
from latentlab.errors import ConfigError

TRUTH = "latentlab.synthetic_truth"


@dataclass
class Truth:
    phi: np.ndarray
    theta: np.ndarray
    alpha: np.ndarray
    beta: float
    pi: np.ndarray | None = None
    params: dict | None = None

    def save(self, path):
        arrays = {"phi": self.phi, "theta": self.theta, "alpha": self.alpha}
        if self.pi is not None:
            arrays["pi"] = self.pi
        save_npz(path, arrays, {"format": TRUTH, "beta": self.beta, "params": self.params})

    @classmethod
    def load(cls, path):
        a, side = load_npz(path, TRUTH)
        return cls(a["phi"], a["theta"], a["alpha"], side["beta"], a.get("pi"), side["params"])


def _dirichlet(rng, conc: np.ndarray, size: int) -> np.ndarray:
    """Dirichlet draws via normalised gammas, guarded against all-zero rows (tiny conc)."""
    g = rng.gamma(np.broadcast_to(conc, (size, len(conc))))
    s = g.sum(axis=1, keepdims=True)
    bad = s[:, 0] == 0
    if bad.any():
        g[bad, rng.integers(len(conc), size=int(bad.sum()))] = 1.0
        s = g.sum(axis=1, keepdims=True)
    return g / s


def _check(p: dict, key: str, lo=0, integer=False):
    if key not in p:
        raise ConfigError(f"synthetic.{key}", "missing")
    v = p[key]
    if integer and (not isinstance(v, int) or v <= lo):
        raise ConfigError(f"synthetic.{key}", f"must be an integer > {lo}, got {v!r}")
    if not integer and not v > lo:
        raise ConfigError(f"synthetic.{key}", f"must be > {lo}, got {v!r}")
    return v


def _sample_docs(rng, theta, phi, lengths) -> BowCorpus:
    D, K = theta.shape
    V = phi.shape[1]
    docs = []
    cphi = np.cumsum(phi, axis=1)
    for d in range(D):
        z_counts = rng.multinomial(lengths[d], theta[d])
        ws = []
        for k in np.flatnonzero(z_counts):
            u = rng.random(z_counts[k])
            ws.append(np.minimum(np.searchsorted(cphi[k], u * cphi[k, -1], side="right"), V - 1))
        docs.append(np.concatenate(ws) if ws else np.zeros(0, np.int64))
    return BowCorpus.from_token_lists(docs, [f"w{v}" for v in range(V)])


def _lengths(rng, p, D):
    mean = _check(p, "doc_length")
    return np.maximum(rng.poisson(mean, size=D), int(p.get("min_length", 1)))


def lda_corpus(p: dict, seed: int) -> tuple[BowCorpus, Truth]:
    K = _check(p, "n_topics", integer=True)
    V = _check(p, "n_vocab", integer=True)
    D = _check(p, "n_docs", integer=True)
    alpha, beta = _check(p, "alpha"), _check(p, "beta")
    rng = np.random.default_rng(seed)
    if p.get("asymmetric_alpha", False):
        w = 1.0 / np.arange(1, K + 1)
        alpha_vec = alpha * K * w / w.sum()
    else:
        alpha_vec = np.full(K, float(alpha))
    phi = _dirichlet(rng, np.full(V, float(beta)), K)
    theta = _dirichlet(rng, alpha_vec, D)
    corpus = _sample_docs(rng, theta, phi, _lengths(rng, p, D))
    corpus.metadata = {"dataset": "synth_lda", "generator": "lda", "seed": seed, "params": p}
    return corpus, Truth(phi, theta, alpha_vec, float(beta), None, {**p, "seed": seed})


def stick_breaking(rng, gamma: float, T: int) -> np.ndarray:
    """Truncated GEM(gamma): v_t ~ Beta(1, gamma) for t < T, v_T = 1."""
    v = rng.beta(1.0, gamma, size=T)
    v[-1] = 1.0
    rest = np.concatenate([[1.0], np.cumprod(1.0 - v[:-1])])
    return v * rest


def hdp_corpus(p: dict, seed: int) -> tuple[BowCorpus, Truth]:
    T = _check(p, "truncation", integer=True)
    V = _check(p, "n_vocab", integer=True)
    D = _check(p, "n_docs", integer=True)
    gamma, alpha0, beta = _check(p, "gamma"), _check(p, "alpha0"), _check(p, "beta")
    rng = np.random.default_rng(seed)
    pi = stick_breaking(rng, float(gamma), T)
    phi = _dirichlet(rng, np.full(V, float(beta)), T)
    theta = _dirichlet(rng, np.maximum(alpha0 * pi, 1e-300), D)
    corpus = _sample_docs(rng, theta, phi, _lengths(rng, p, D))
    corpus.metadata = {"dataset": "synth_hdp", "generator": "hdp", "seed": seed, "params": p}
    return corpus, Truth(phi, theta, alpha0 * pi, float(beta), pi, {**p, "seed": seed})


GENERATORS = {"synth_lda": lda_corpus, "synth_hdp": hdp_corpus}


def synth(name: str, params: dict, seed: int, out_dir: str | Path) -> dict:
    """Generate ``name`` into out_dir/{dataset.npz, truth.npz, summary.json}."""
    from latentlab.outputs import write_json

    if name not in GENERATORS:
        raise ConfigError("synthetic", f"unknown generator {name!r}; known {sorted(GENERATORS)}")
    out_dir = Path(out_dir)
    corpus, truth = GENERATORS[name](params, seed)
    corpus.validate(name)
    corpus.save(out_dir / "dataset.npz")
    truth.save(out_dir / "truth.npz")
    s = corpus.summary()
    s.update(
        {
            "name": name,
            "data_kind": "synthetic",
            "seed": seed,
            "params": params,
            "n_topics_true": int(truth.phi.shape[0]),
        }
    )
    if truth.pi is not None:
        s["pi_mass_top10"] = float(np.sort(truth.pi)[::-1][:10].sum())
    write_json(s, out_dir / "summary.json")
    return s


# ------------------------------------------------------------------ study generators
# Two further LDA samplers, kept draw for draw as the studies used them (a different order
# of random draws gives a different corpus, so they are not merged into lda_corpus).


def lda_corpus_vectorised(
    D: int, W: int, K: int, doc_len: float, alpha: float, beta: float, seed: int
) -> tuple[BowCorpus, np.ndarray]:
    """LDA corpus (Algorithm 2 of Foulds 2014) for large D, with Poisson(doc_len) lengths
    (at least 1): topic assignments by inverse CDF of theta_d, words by inverse CDF of
    phi_k, counted into CSR. Returns ``(corpus, phi (K x W))`` (used by ``scvb0``)."""
    for key, v in {"D": D, "W": W, "K": K, "doc_len": doc_len}.items():
        if v is None or v < 1:
            raise ConfigError(f"synthetic.{key}", f"must be >= 1, got {v}")
    rng = np.random.default_rng(seed)
    phi = rng.dirichlet(np.full(W, beta), size=K)
    lens = np.maximum(rng.poisson(doc_len, size=D), 1)
    ptr = np.concatenate([[0], np.cumsum(lens)])
    C = int(ptr[-1])
    d_of = np.repeat(np.arange(D), lens)
    z = np.empty(C, dtype=np.int64)
    chunk = 20000
    for s in range(0, D, chunk):
        e = min(D, s + chunk)
        th = rng.gamma(alpha, 1.0, size=(e - s, K))
        th /= np.maximum(th.sum(1, keepdims=True), 1e-300)
        cdf = np.cumsum(th, axis=1)
        cdf[:, -1] = 1.0
        a, b = ptr[s], ptr[e]
        u = rng.random(b - a)
        rows = d_of[a:b] - s
        z[a:b] = np.minimum((cdf[rows] <= u[:, None]).sum(1), K - 1)
    w = np.empty(C, dtype=np.int64)
    cphi = np.cumsum(phi, axis=1)
    cphi[:, -1] = 1.0
    u = rng.random(C)
    for k in range(K):
        m = z == k
        w[m] = np.minimum(np.searchsorted(cphi[k], u[m], side="right"), W - 1)
    key = d_of * W + w
    uniq, cnt = np.unique(key, return_counts=True)
    docs = uniq // W
    indptr = np.concatenate([[0], np.cumsum(np.bincount(docs, minlength=D))])
    vocab = [f"w{i}" for i in range(W)]
    corpus = BowCorpus(indptr, (uniq % W).astype(np.int32), cnt.astype(np.int32), vocab)
    corpus.metadata = {"source": "synthetic_lda", "D": D, "W": W, "K": K, "seed": seed}
    return corpus, phi


def decaying_alpha(K: int, alpha_sum: float, decay: float) -> np.ndarray:
    """alpha_k proportional to decay^k with total ``alpha_sum``."""
    a = decay ** np.arange(K, dtype=float)
    return alpha_sum * a / a.sum()


def lda_corpus_decaying_alpha(
    n_docs: int,
    n_vocab: int,
    n_topics: int,
    doc_length: float,
    min_length: int,
    alpha_sum: float,
    alpha_decay: float,
    beta: float,
    seed: int,
) -> tuple[BowCorpus, dict]:
    """LDA corpus with a strongly asymmetric alpha_k ∝ alpha_decay^k (total ``alpha_sum``),
    so that an asymmetric-alpha model has a visible advantage over a symmetric one (Foulds
    2014 Table 5.3; used by ``ais_eval``). Lengths Poisson(doc_length), at least
    ``min_length``. Returns ``(corpus, {"phi": V x K, "alpha": K})``."""
    for key, v in {
        "n_docs": n_docs,
        "n_vocab": n_vocab,
        "n_topics": n_topics,
        "doc_length": doc_length,
    }.items():
        if int(v) < 1:
            raise ConfigError(f"synthetic.{key}", f"must be >= 1, got {v}")
    if not 0 < float(alpha_decay) <= 1:
        raise ConfigError("synthetic.alpha_decay", f"must be in (0, 1], got {alpha_decay}")
    rng = np.random.default_rng(seed)
    D, V, K = int(n_docs), int(n_vocab), int(n_topics)
    alpha = decaying_alpha(K, float(alpha_sum), float(alpha_decay))
    phi = rng.dirichlet(np.full(V, float(beta)), size=K).T  # V x K
    phi = np.maximum(phi, 1e-300)
    phi /= phi.sum(axis=0)
    docs = []
    for _ in range(D):
        n = max(int(min_length), int(rng.poisson(float(doc_length))))
        theta = rng.dirichlet(np.maximum(alpha, 1e-3))
        z = rng.choice(K, size=n, p=theta)
        cdf = np.cumsum(phi[:, z], axis=0)
        w = (rng.random(n)[None, :] * cdf[-1] > cdf).sum(axis=0)
        docs.append(np.minimum(w, V - 1))
    counts = np.zeros((D, V), dtype=np.int64)
    for d, w in enumerate(docs):
        np.add.at(counts[d], w, 1)
    vocab = [f"w{i}" for i in range(V)]
    corpus = BowCorpus.from_dense(counts, vocab, metadata={"source": "synthetic LDA"})
    return corpus, {"phi": phi, "alpha": alpha}


def syn_iwtm(p: dict, seed: int):
    """SYN-IWTM (ours, a synthetic stand-in for seed 003's scene data; not in the
    document): documents of continuous descriptors drawn
    from the supervised IWTM generative process with known clusters, topics and labels.

    Clusters mu_k ~ N(0, I_dim), lambda_k ~ Gam(20, 1/(20 sd^2)); beta* ~ GEM(cluster_gem)
    over ``n_clusters``; topics phi_t ~ Dir(alpha0 beta*); class y has ``signature``
    topics with alpha_y = 0.05 + 2 [t in sig(y)]; N_d ~ min_len + Poisson(mean_len).
    Returns (FeatureSet, truth dict of arrays)."""
    from latentlab.data.featureset import FeatureSet

    for k in ("n_classes", "docs_per_class", "dim", "n_clusters", "n_topics", "signature"):
        _check(p, k, integer=True)
    for k in ("within_sd", "cluster_gem", "alpha0", "mean_len"):
        _check(p, k)
    rng = np.random.default_rng(seed)
    C, T, Y, D = p["n_clusters"], p["n_topics"], p["n_classes"], p["dim"]
    mu = rng.normal(size=(C, D))
    lam = rng.gamma(20.0, 1.0 / (20.0 * p["within_sd"] ** 2), size=C)
    beta = stick_breaking(rng, p["cluster_gem"], C)
    phi = _dirichlet(rng, p["alpha0"] * beta + 1e-12, T)
    sig = np.array([rng.choice(T, size=p["signature"], replace=False) for _ in range(Y)])
    alpha_y = np.full((Y, T), 0.05)
    for y in range(Y):
        alpha_y[y, sig[y]] += 2.0
    xs, z_true, c_true, labels, counts = [], [], [], [], []
    for y in range(Y):
        for _ in range(p["docs_per_class"]):
            n = int(p.get("min_len", 1)) + int(rng.poisson(p["mean_len"]))
            th = _dirichlet(rng, alpha_y[y], 1)[0]
            z = rng.choice(T, size=n, p=th)
            c = np.array([rng.choice(C, p=phi[t]) for t in z], dtype=np.int64)
            xs.append(mu[c] + rng.normal(size=(n, D)) / np.sqrt(lam[c])[:, None])
            z_true.append(z)
            c_true.append(c)
            labels.append(y)
            counts.append(n)
    fs = FeatureSet(
        np.concatenate([[0], np.cumsum(counts)]),
        np.concatenate(xs).astype(np.float32),
        np.array(labels),
        [f"class{y}" for y in range(Y)],
        metadata={"dataset": "syn_iwtm", "generator": "syn_iwtm", "seed": seed, "params": p},
    )
    truth = {"mu": mu, "lam": lam, "beta": beta, "phi": phi, "alpha_y": alpha_y,
             "z": np.concatenate(z_true), "c": np.concatenate(c_true)}  # fmt: skip
    return fs, truth


# =====================================================================================
# HDP-LDA with a known π, a labelled variant and a bag-of-links graph (ours, stand-ins for
# seed 001's corpora; the hdp_pcvb0 study's smoke data). These draw π by truncated
# stick-breaking with T − 1 Beta draws and topics from Dir(β·V·τ*), so their random
# streams differ from :func:`hdp_corpus` above: both are kept so that existing outputs stay
# bit-identical.
# * :func:`hdp_tsb_corpus` samples the truncated stick-breaking HDP-LDA itself, so the
#   true π is known (Fig 2: all α0π_k < 1; C13: effective topics vs the truth).
# * :func:`labelled_hdp_corpus` gives each of C classes its own top-level weights π^(c)
#   (π boosted on a class-specific subset of topics): the 7conf / 20news analogue of Fig 4.
# * :func:`mixed_membership_graph` is a "bag of links" graph (Fig 5): nodes have Dirichlet
#   memberships over communities and each link end is drawn from the community's node
#   distribution; the result is symmetrised.
# =====================================================================================


def stick_weights(rng, T: int, gamma0: float) -> np.ndarray:
    """π ~ TSBP(γ0) with truncation T (Eqs 10–12)."""
    pit = np.concatenate([rng.beta(1.0, gamma0, T - 1), [1.0]])
    return pit * np.concatenate([[1.0], np.cumprod(1.0 - pit[:-1])])


def _hdp_topics(rng, T, V, beta, tau):
    if tau == "zipf":
        base = 1.0 / np.arange(1, V + 1)
        base = rng.permutation(base / base.sum())
    else:
        base = np.full(V, 1.0 / V)
    return rng.dirichlet(beta * V * base + 1e-12, T)


def _hdp_docs(rng, weights_per_doc, phi, lengths):
    N = len(lengths)
    V = phi.shape[1]
    rows, cols, vals = [], [], []
    for d in range(N):
        n = int(lengths[d])
        if n == 0:
            continue
        th = rng.dirichlet(np.maximum(weights_per_doc[d], 1e-10))
        zc = rng.multinomial(n, th / th.sum())
        counts = np.zeros(V, dtype=np.int64)
        for k in np.flatnonzero(zc):
            counts += rng.multinomial(zc[k], phi[k])
        nz = np.flatnonzero(counts)
        rows.append(np.full(len(nz), d))
        cols.append(nz)
        vals.append(counts[nz])
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def hdp_tsb_corpus(
    N: int = 500,
    V: int = 1000,
    T_true: int = 60,
    gamma0: float = 5.0,
    alpha0: float = 2.0,
    beta: float = 0.05,
    mean_len: float = 120.0,
    tau: str = "uniform",
    seed: int = 0,
) -> tuple[BowCorpus, dict]:
    """Corpus from TSB HDP-LDA: θ_d ~ Dir(α0π), φ_k ~ Dir(β·V·τ*), n_d ~ Poisson(λ)."""
    rng = np.random.default_rng(seed)
    pi = stick_weights(rng, T_true, gamma0)
    phi = _hdp_topics(rng, T_true, V, beta, tau)
    lengths = np.maximum(rng.poisson(mean_len, N), 2)
    d, w, c = _hdp_docs(rng, np.tile(alpha0 * pi, (N, 1)), phi, lengths)
    corpus = BowCorpus.from_triplets(
        d, w, c, N, [f"w{v}" for v in range(V)], metadata={"source": "synthetic hdp_corpus"}
    )
    truth = {"pi": pi, "alpha0": alpha0, "gamma0": gamma0, "beta": beta, "T_true": T_true}
    return corpus, truth


def labelled_hdp_corpus(
    N: int = 700,
    V: int = 1000,
    T_true: int = 60,
    n_classes: int = 7,
    gamma0: float = 5.0,
    alpha0: float = 2.0,
    beta: float = 0.05,
    mean_len: float = 100.0,
    boost: float = 20.0,
    seed: int = 0,
) -> tuple[BowCorpus, dict]:
    """Fig 4 analogue: class c has π^(c) ∝ π · (boost on topics k ≡ c mod C, else 1)."""
    rng = np.random.default_rng(seed)
    pi = stick_weights(rng, T_true, gamma0)
    phi = _hdp_topics(rng, T_true, V, beta, "uniform")
    labels = rng.integers(0, n_classes, N)
    pic = np.empty((n_classes, T_true))
    for c in range(n_classes):
        w = pi * np.where(np.arange(T_true) % n_classes == c, boost, 1.0)
        pic[c] = w / w.sum()
    lengths = np.maximum(rng.poisson(mean_len, N), 2)
    d, w, cnt = _hdp_docs(rng, alpha0 * pic[labels], phi, lengths)
    corpus = BowCorpus.from_triplets(
        d,
        w,
        cnt,
        N,
        [f"w{v}" for v in range(V)],
        labels=labels,
        label_names=[f"class{c}" for c in range(n_classes)],
        metadata={"source": "synthetic labelled_hdp_corpus"},
    )
    return corpus, {"pi": pi, "pi_class": pic}


def mixed_membership_graph(
    n_nodes: int = 1500,
    n_comm: int = 20,
    alpha: float = 0.1,
    mean_degree: float = 30.0,
    seed: int = 0,
) -> np.ndarray:
    """Undirected edge list (E x 2, i < j, unique) of a mixed-membership graph."""
    rng = np.random.default_rng(seed)
    theta = rng.dirichlet(np.full(n_comm, alpha), n_nodes)
    member = theta / theta.sum(0, keepdims=True)  # node distribution of each community
    stubs = rng.poisson(mean_degree / 2, n_nodes)
    src = np.repeat(np.arange(n_nodes), stubs)
    comm = np.array([rng.choice(n_comm, p=theta[i]) for i in src], dtype=np.int64)
    cum = np.cumsum(member, axis=0)
    u = rng.random(len(src))
    dst = np.array([np.searchsorted(cum[:, k], u[j] * cum[-1, k]) for j, k in enumerate(comm)])
    dst = np.minimum(dst, n_nodes - 1)
    e = np.stack([np.minimum(src, dst), np.maximum(src, dst)], 1)
    e = e[e[:, 0] != e[:, 1]]
    return np.unique(e, axis=0)
