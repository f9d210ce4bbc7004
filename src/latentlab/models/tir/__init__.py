"""Topical influence regression (Foulds 2014, ch. 3; Foulds & Smyth, EMNLP 2013).

``graph``     citation DAG checks, cycle breaking, cited documents with no tokens
``kernels``   numba: Gibbs sweeps with per-document priors (approximate and exact Eq 3.4),
              Polya log-likelihood and its gradient in alpha^(d) (Eqs 3.5-3.6), sampling l;
              the token update, draw, digamma and log Polya come from
              :mod:`latentlab.kernels`, as does the held-out AIS scorer (``kernels.ais``)
``reference`` plain-numpy oracles of the kernels (tests only)
``model``     TIR / TIRE / additive DMR samplers with the stochastic-EM regression step
``synthetic`` TIR / TIRE corpora on random citation DAGs with known influence
"""
