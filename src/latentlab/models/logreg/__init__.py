"""Bayesian and hierarchical Bayesian logistic regression (Wang & Blei 2013 Sec. 4.2)."""
