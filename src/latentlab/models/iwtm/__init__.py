"""Infinite-word topic models (Waters, PhD 2014, chs. 3-7): topics are dependent DPs over
spherical-Gaussian clusters with a Normal-Gamma base measure.

``normal_gamma``  collapsed cluster marginal (4.11), Student-t predictive, CAVI cluster
                  posterior (5.13-5.16)
``sticks``        stick-breaking expectations with simulated reordering (5.18-5.27)
``gibbs``         supervised collapsed Gibbs over the Chinese restaurant franchise (ch. 4)
``cavi``          mean-field CAVI with sparse top-C responsibilities and the ELBO (ch. 5)
``svi``           stochastic VI: natural-parameter steps on minibatches, MAP topics (ch. 6)
``ivi``           incremental VI: pruning, EXTEND with Hungarian topic matching (ch. 7)
``slda``          supervised LDA on visual words (class-specific Dirichlet, Gibbs; ch. 4)
``reference``     plain-numpy oracles for the tests
"""
