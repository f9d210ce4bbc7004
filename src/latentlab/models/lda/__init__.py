"""LDA inference core shared by the ``scvb0``, ``ais_eval`` and ``hdp_pcvb0`` studies.

"Thesis" in this package means J. R. Foulds (2014), *Latent Variable Modeling for Networks
and Text: Algorithms, Models and Evaluation Techniques*, PhD dissertation, UC Irvine; its
section, equation, algorithm and figure numbers are cited as "Sec. 4.3.1", "Eq. 4.21".

Conventions
-----------
* Input is a :class:`latentlab.data.corpus.BowCorpus` (CSR). Word ids must be in
  ``[0, W)`` (``DataError`` otherwise); empty documents are skipped and counted
  (``model.n_empty_docs``).
* Topic-word arrays inside the models are **word-major, W x K** (``n_wk``,
  ``phi_wk()``); ``phi()`` always returns **K x W** (rows are topics, sum to 1).
* ``alpha`` is a length-K vector (a scalar means symmetric), ``beta`` a scalar
  (symmetric topic prior, per word).
* Every stochastic algorithm takes ``seed``; runs are bit-for-bit reproducible.
  Random numbers are drawn by numpy and passed to the numba kernels.
* Bad settings raise ``ConfigError`` naming the key; a NaN/inf statistic raises
  ``DivergenceError`` naming the iteration and the statistic.

API
---
Every model has the one interface (:class:`._common.ModelInterface`, issue 9 point 6):
``fit(corpus, n_iter, callback=None)`` on a :class:`BowCorpus`, with ``callback(model,
info) -> stop`` after every iteration (True stops the fit); ``phi()`` is Phi as **K x W**
(rows sum to 1); ``theta()`` the **D x K** topic proportions of the training documents;
``transform(corpus)`` the topic proportions of new documents (the CVB0 fixed point with the
topics frozen; SVB and BatchVB: their VB local step) and ``log_predictive(split)`` the
document-completion log-likelihood per token (the protocol of :mod:`latentlab.models.base`);
the model's settings are its constructor arguments (``alpha``, ``beta``, ``seed``...), and
bad settings raise ``ConfigError`` naming the argument. ``phi_wk()`` (W x K, equal to
``phi().T``) is kept as an alias in the kernels' layout, because the held-out evaluation
and the studies take W x K topics. The batch models count ``n_iter`` in sweeps
(``info = {"iteration": i}``); the minibatch models (``SCVB0``, ``SVB``) count it in passes
(epochs, fractions allowed) and keep ``max_docs`` and ``time_budget`` as keyword budgets
(``info = {"minibatch", "docs_seen", "epoch", "train_seconds"}``); ``initialize``,
``step``/``partial_fit`` and ``resume`` remain for manual control.

``CGS(K, alpha, beta, optimize_interval=100, burn_in=200, learn_beta=False, seed=0,
sampler="sparse")``
    collapsed Gibbs (Eq. 4.21), asymmetric alpha by Minka's fixed point on count
    histograms on the MALLET schedule (first optimisation after iteration 300).
    ``sampler="sparse"``: SparseLDA buckets (fast); ``"dense"``: draw-for-draw equal to
    ``reference.cgs_sweep``. ``.z, .n_dk (D x K), .n_wk (W x K), .n_k, .alpha, .beta``;
    ``.log_joint()`` (Eq. 4.20), ``.snapshot()``.
``sample_fixed_phi(phi_wk, alpha, word_ids, n_iter, seed)``
    Gibbs over one held-out document with topics fixed.
``hyper.minka_alpha``, ``hyper.minka_beta_symmetric``, ``hyper.count_histograms``,
``hyper.log_polya``, ``hyper.log_collapsed_joint``.
``kernels.cgs_sweep``, ``kernels.cgs_sweep_sparse``, ``kernels.fixed_phi_sweep``: the raw
numba kernels (flat arrays, n_wk word-major W x K, n_dk D x K, tokens doc-major).

Variational / stochastic algorithms (see their modules): ``CVB0`` (batch CVB0 and
second-order CVB, clumped or per token), ``MapLdaU`` (batch unnormalised MAP EM,
Eq. 4.57), ``BatchVB`` (Blei et al. 2003), ``SVB`` (Hoffman et al. 2010; thesis
Alg. 6, Sec. 4.3.1), ``SCVB0`` (Algorithm 7, Sec. 4.3). Online EM for MAP_LDA_U (Appendix B /
Eqs. 4.66-4.68) exists only as the test oracle ``reference.online_em_map_lda_u`` (the
claims check that SCVB0's token stream equals it). Held-out evaluation:
:mod:`latentlab.evaluation.heldout`.

Threads: ``SCVB0``, ``SVB`` and ``BatchVB`` take ``threads=1`` (default: the serial
kernels, unchanged). With ``threads > 1`` the documents of a minibatch (E-step) are split
into ``threads`` contiguous blocks processed in parallel (``kernels.scvb0_minibatch_parallel``,
``kernels.svb_minibatch_parallel``): documents only read the topic statistics, which are
fixed during a minibatch, and accumulate into per-block buffers merged in block order, so
the iterates equal the serial ones up to the order of floating-point sums and are a
deterministic function of ``threads``. CGS and CVB0/CVB sweeps are sequential (each update
reads the counts the previous one wrote) and have no parallel variant. With numba's OpenMP
layer on an oversubscribed machine every minibatch barrier can wait for a descheduled
worker (measured ~20 ms per SCVB0 minibatch at load > 4 on 2 cores); the ``workqueue``
layer does not (``NUMBA_THREADING_LAYER=workqueue``; the scvb0 bench selects it).
"""

from ._common import StepSize
from .cgs import CGS, sample_fixed_phi
from .cvb import CVB0, MapLdaU
from .scvb0 import SCVB0
from .vb import SVB, BatchVB

__all__ = ["CGS", "CVB0", "SCVB0", "SVB", "BatchVB", "MapLdaU", "StepSize", "sample_fixed_phi"]
