"""DRIFT and LFRM (Foulds 2014, ch. 2): latent feature relational models for networks.

``kernels`` (numba hot loops), ``reference`` (numpy oracles, tests only), ``sampler``
(the MCMC of Sec. 2.5), ``predict`` (Eq. 2.29, missing data, baselines), ``synthetic``.
"""
