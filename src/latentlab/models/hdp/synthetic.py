"""Synthetic data for the smoke run of seed 001 (digest §5.2).

* :func:`hdp_corpus` samples the truncated stick-breaking HDP-LDA itself, so the true π
  is known (Fig 2: all α0π_k < 1; C13: effective topics vs the truth).
* :func:`labelled_hdp_corpus` gives each of C classes its own top-level weights π^(c)
  (π boosted on a class-specific subset of topics): the 7conf / 20news analogue of Fig 4.
* :func:`mixed_membership_graph` is a "bag of links" graph (Fig 5): nodes have
  Dirichlet memberships over communities and each link end is drawn from the community's
  node distribution; the result is symmetrised.
"""

from __future__ import annotations

import numpy as np

from latentlab.data.corpus import BowCorpus


def stick_weights(rng, T: int, gamma0: float) -> np.ndarray:
    """π ~ TSBP(γ0) with truncation T (Eqs 10–12)."""
    pit = np.concatenate([rng.beta(1.0, gamma0, T - 1), [1.0]])
    return pit * np.concatenate([[1.0], np.cumprod(1.0 - pit[:-1])])


def _topics(rng, T, V, beta, tau):
    if tau == "zipf":
        base = 1.0 / np.arange(1, V + 1)
        base = rng.permutation(base / base.sum())
    else:
        base = np.full(V, 1.0 / V)
    return rng.dirichlet(beta * V * base + 1e-12, T)


def _docs(rng, weights_per_doc, phi, lengths):
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


def hdp_corpus(
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
    phi = _topics(rng, T_true, V, beta, tau)
    lengths = np.maximum(rng.poisson(mean_len, N), 2)
    d, w, c = _docs(rng, np.tile(alpha0 * pi, (N, 1)), phi, lengths)
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
    phi = _topics(rng, T_true, V, beta, "uniform")
    labels = rng.integers(0, n_classes, N)
    pic = np.empty((n_classes, T_true))
    for c in range(n_classes):
        w = pi * np.where(np.arange(T_true) % n_classes == c, boost, 1.0)
        pic[c] = w / w.sum()
    lengths = np.maximum(rng.poisson(mean_len, N), 2)
    d, w, cnt = _docs(rng, alpha0 * pic[labels], phi, lengths)
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
