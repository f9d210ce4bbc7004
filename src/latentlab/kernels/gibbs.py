"""The collapsed Gibbs token update with a per-document Dirichlet prior, shared by TIR /
TIRE / DMR (Foulds 2014 Eq. 3.4 without the Polya product) and LFRM_LDA / BMF_LDA (Eq. A.9).

LDA's own sweep (:func:`latentlab.models.lda.kernels.cgs_sweep`, Eq. 4.21) computes the
same conditional with cached reciprocals 1/(n_k + W beta), which rounds differently; it
keeps its loop and shares only the draw.
"""

from __future__ import annotations

from numba import njit

from .sampling import sample_cumulative


@njit(cache=True)
def gibbs_doc(d, ptr, w, z, ndk, nwk, nk, a, beta, beta_sum, u, p):
    """Resample the tokens ptr[d]..ptr[d+1]-1 of document d in order, each with its own
    count removed (Griffiths & Steyvers 2004):

        P(z_i = k | rest) ∝ (n_dk^-i + a_k) (n_{w_i k}^-i + beta) / (n_k^-i + beta_sum),

    ``a`` = alpha^(d) (K), ``beta_sum`` = W beta; ``nwk`` is word-major (W x K); one
    uniform u[i] per token; ``p`` (K) is scratch for the cumulative weights."""
    K = nk.shape[0]
    for i in range(ptr[d], ptr[d + 1]):
        wi = w[i]
        k = z[i]
        ndk[d, k] -= 1
        nwk[wi, k] -= 1
        nk[k] -= 1
        tot = 0.0
        for j in range(K):
            tot += (ndk[d, j] + a[j]) * (nwk[wi, j] + beta) / (nk[j] + beta_sum)
            p[j] = tot
        k = sample_cumulative(p, K, u[i])
        z[i] = k
        ndk[d, k] += 1
        nwk[wi, k] += 1
        nk[k] += 1
