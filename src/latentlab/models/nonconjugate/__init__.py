"""Generic Laplace and delta-method variational inference (Wang & Blei 2013, Secs. 2-3).

The model class: p(theta, z, x) = p(x|z) p(z|theta) p(theta) (Eq. 1) with a real
nonconjugate theta, q(theta) = N(m, V) and an exact conjugate update of q(z) (Eq. 18).
"""

from latentlab.models.nonconjugate.core import (
    GaussianQ,
    chol_logdet,
    delta_objective,
    gaussian_entropy,
    laplace_update,
    newton_maximize,
    psd_inverse,
)

__all__ = [
    "GaussianQ",
    "chol_logdet",
    "delta_objective",
    "gaussian_entropy",
    "laplace_update",
    "newton_maximize",
    "psd_inverse",
]
