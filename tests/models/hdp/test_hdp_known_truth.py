"""Issue 22, case 1: the eight configurations at the document's T = 300 on a corpus drawn
from truncated HDP-LDA with known topics (seed 001, Eqs 10-12).

The target is the generating model's held-out perplexity ("oracle"): the true φ and α0π,
with θ_d inferred from the document's own training tokens (Eq 37 with the true global
parameters). The no-topics reference is the training unigram. Margin: a fit must close at
least half of the log-perplexity gap between the unigram and the oracle,
log(ppl) ≤ ½(log oracle + log unigram). Why half: finite data (≈ 24k training tokens
for 15 × 400 topic-word parameters) keeps any fit above the oracle, while a fit with no
topic structure sits at the unigram; halfway separates the two without being fitted to
our own numbers (the same rule as issue 21's "at most half the document's gap").

Outcome (published/real/REVERSALS.md): from the document's initialisation
(Sec 6: α0π_k = β0τ_v = 0.1/T, q ∝ 0.1 + u) six configurations recover the model at
T = 300; CVB0 AA and PCVB0 AA stay at the symmetric state (unigram-level perplexity):
estimated from the near-uniform q of the first sweep, β0 is large, and the learned τ
(Eq 31 τ_v ∝ Σ_k E[I(n_kv ≥ 1)]; [24]'s q(τ)) grows with the word's count, so the prior
β0τ_v is largest on the frequent words, the ones whose per-topic counts E[n_kv] ≈ c_v/T
separate topics (AS keeps β_v = β0/V for every word). Measured, not derived: the AS/AA
contrast is the evidence. The controls show the same code recovers the model
at T = 50 and at T = 300 when the hyperparameters are held for the first sweeps. Slow
(the second-order fits at T = 300 dominate; not timed on an idle machine): run by .ci/run.
"""

import numpy as np
import pytest

from latentlab.data.corpus import BowCorpus
from latentlab.data.splits import split_within_documents
from latentlab.models.hdp import CONFIGS, HDPLDA

pytestmark = pytest.mark.slow

T = 300
ITERS = 50
STALLS = ("cvb0_AA", "pcvb0_AA")  # zero order with the learned τ (AA): see the module doc


def _generate(seed=0, N=300, V=400, K=15, gamma0=5.0, alpha0=2.0, beta=0.05, L=100):
    """TSB HDP-LDA corpus (Eqs 10-12) keeping π, φ and α0 (not returned by the library)."""
    rng = np.random.default_rng(seed)
    pit = np.concatenate([rng.beta(1.0, gamma0, K - 1), [1.0]])
    pi = pit * np.concatenate([[1.0], np.cumprod(1.0 - pit[:-1])])
    phi = rng.dirichlet(np.full(V, beta), K)
    theta = rng.dirichlet(np.maximum(alpha0 * pi, 1e-10), N)
    lens = np.maximum(rng.poisson(L, N), 2)
    rows, cols, vals = [], [], []
    for d in range(N):
        p = theta[d] @ phi
        c = rng.multinomial(lens[d], p / p.sum())
        nz = np.flatnonzero(c)
        rows.append(np.full(len(nz), d))
        cols.append(nz)
        vals.append(c[nz])
    corpus = BowCorpus.from_triplets(
        np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), N,
        [f"w{v}" for v in range(V)],
    )  # fmt: skip
    return corpus, alpha0 * pi, phi


def _perplexity(theta, phi, test):
    p = np.einsum("ek,ke->e", theta[test.doc], phi[:, test.word])
    return float(np.exp(-np.sum(test.count * np.log(p)) / test.n_tokens))


def _oracle(train, test, alpha_pi, phi, iters=50):
    """Eq 37 with the true φ, α0π; θ_d from the document's training tokens (CVB0 fold-in)."""
    th = np.zeros((train.n_docs, len(alpha_pi)))
    for d in range(train.n_docs):
        w = train.words[train.doc_ptr[d] : train.doc_ptr[d + 1]]
        q = np.full((len(w), len(alpha_pi)), 1.0 / len(alpha_pi))
        for _ in range(iters):
            q = phi[:, w].T * (q.sum(0)[None, :] - q + alpha_pi[None, :])
            q /= q.sum(1, keepdims=True)
        th[d] = q.sum(0) + alpha_pi
        th[d] /= th[d].sum()
    return _perplexity(th, phi, test)


@pytest.fixture(scope="module")
def truth():
    corpus, alpha_pi, phi = _generate()
    sp = split_within_documents(corpus, frac=0.8, seed=1)
    c = np.bincount(sp.train.words, minlength=sp.train.V).astype(float)
    unigram = float(np.exp(-np.sum(sp.test.count * np.log(c[sp.test.word] / c.sum()))
                           / sp.test.n_tokens))  # fmt: skip
    oracle = _oracle(sp.train, sp.test, alpha_pi, phi)
    # the data can tell topics from none: the oracle is far below the unigram
    assert oracle < 0.7 * unigram
    return {"split": sp, "oracle": oracle, "unigram": unigram,
            "bound": float(np.sqrt(oracle * unigram))}  # fmt: skip


_FITS: dict = {}


def _fit(truth, config, T=T, **options):
    """Held-out perplexity after ITERS iterations (cached: two tests read the same fit)."""
    key = (config, T, tuple(sorted(options.items())))
    if key not in _FITS:
        method, prior = config.split("_")
        m = HDPLDA(T, method, prior, options=options, seed=0)
        _FITS[key] = m.fit(truth["split"].train, ITERS).perplexity(truth["split"].test)
    return _FITS[key]


@pytest.mark.parametrize(
    "config",
    [
        pytest.param(
            c,
            marks=pytest.mark.xfail(
                strict=True,
                reason="stands (issue 22 case 1): from the document's init CVB0 AA and "
                "PCVB0 AA stay at the symmetric state at T = 300; see the controls below",
            ),
        )
        if c in STALLS
        else c
        for c in CONFIGS
    ],
)
def test_recovers_generating_model_at_T300(truth, config):
    ppl = _fit(truth, config)
    print(f"{config} T={T}: perplexity {ppl:.2f} (bound {truth['bound']:.2f})")
    assert ppl <= truth["bound"], (
        f"{config} T={T}: perplexity {ppl:.1f}, oracle {truth['oracle']:.1f}, "
        f"unigram {truth['unigram']:.1f}, bound {truth['bound']:.1f}"
    )


@pytest.mark.parametrize("config", ["cvb0_AA", "pcvb0_AA"])
def test_zero_order_stall_is_the_symmetric_state(truth, config):
    """The failure above is the no-topics state, not a divergence: perplexity within 3 % of
    the training unigram's (KOS: CVB0 AA 2652.8 against the unigram's 2653.1)."""
    ppl = _fit(truth, config)
    assert abs(ppl / truth["unigram"] - 1.0) < 0.03


@pytest.mark.parametrize("config", ["cvb0_AA", "pcvb0_AA"])
def test_zero_order_recovers_at_T50(truth, config):
    """Control: the same code and initialisation recover the model at T = 50."""
    assert _fit(truth, config, T=50) <= truth["bound"]


@pytest.mark.parametrize("config", ["cvb0_AA", "pcvb0_AA"])
def test_zero_order_recovers_at_T300_with_hyperparameters_held(truth, config):
    """Control (a diagnostic, not the document's algorithm): with α0, β0, γ0, τ held at
    their initial values for the first 10 sweeps (HDPOptions.hyper_burnin), the topics
    separate before Eqs 29/30 see the near-uniform q, and T = 300 recovers the model."""
    assert _fit(truth, config, hyper_burnin=10) <= truth["bound"]
