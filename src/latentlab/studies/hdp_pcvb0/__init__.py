"""Study ``hdp_pcvb0``: Sato, Kurihara & Nakagawa (KDD 2012), practical CVB0 for HDP-LDA (seed 001).

The document: Issei Sato, Kenichi Kurihara and Hiroshi Nakagawa (2012), "Practical Collapsed
Variational Bayes Inference for Hierarchical Dirichlet Process", KDD '12, pp. 105–113.
Sections, equations and figures cited in this package ("Sec 6.3", "Eq 37", "Fig 3") are its
own; "[24]" is its reference to Teh, Kurihara & Welling (2008).

Targets (``snakemake hdp_pcvb0``; outputs under ``results/{run}/hdp_pcvb0/``):

* ``fig1``  Fig 1 as measured numbers: state memory, working-memory peak, time per iteration,
  lines of code and final perplexity per configuration (from ``bench.csv`` and the Fig 3 runs);
* ``fig2``  histogram of E[α0π_k] under CVB AA at the trace T (PCVB0 AA alongside in the CSV);
* ``fig3``  test perplexity (80/20 within-document split, Eqs 36–37) vs T and vs iteration;
* ``fig4``  7-NN (and 1-NN) Hellinger classification on E[θ], 90/10 documents, fold-in;
* ``fig5``  link-prediction MAP with nodes as bags of links;
* ``bench.csv``  time/memory per configuration, the PCVB0 sweep alone, tomotopy and gensim;
* ``claims.csv`` C1–C16 (our numbering of the paper's checkable statements), verdicts by
  :meth:`Ledger.compare`.

Choices the document leaves open (all config values, recorded in each output's metadata):
α0 = 0.1 with E[π_k] = 1/T at start; β0τ_v = 0.1/T read literally; γ0 = 1 at start; Minka
fixed points iterated to 1e-8 (≤ 100 steps); no topic sorting; test words unseen in training
are dropped for every method (counted); documents with < 2 tokens are dropped (counted);
one split shared by all methods and runs; CVB/CVB0 use the Teh et al. machinery with
infpy's Gamma hyperpriors and the E values in the predictive; k-NN test documents are folded
in with the global statistics frozen; link prediction removes held-out links in both
directions. For Fig 5 all configurations hold the hyperparameters for 10 sweeps
(``links.options.hyper_burnin``): on bags of links Algorithm 1's update after the first,
near-uniform sweep sends the zero-order methods to the symmetric fixed point q = 1/T.
"""
