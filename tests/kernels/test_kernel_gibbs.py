"""The shared collapsed Gibbs token update (latentlab.kernels.gibbs.gibbs_doc) against a
plain-Python loop doing the same float operations in the same order: the same draws, the
same counts."""

from __future__ import annotations

import numpy as np

from latentlab.kernels.gibbs import gibbs_doc


def _python_doc(d, ptr, w, z, ndk, nwk, nk, a, beta, beta_sum, u):
    K = len(nk)
    for i in range(ptr[d], ptr[d + 1]):
        wi, k = w[i], z[i]
        ndk[d, k] -= 1
        nwk[wi, k] -= 1
        nk[k] -= 1
        c, tot = [], 0.0
        for j in range(K):
            tot += (
                (float(ndk[d, j]) + a[j]) * (float(nwk[wi, j]) + beta) / (float(nk[j]) + beta_sum)
            )
            c.append(tot)
        r = u[i] * tot
        k = next((j for j in range(K - 1) if c[j] > r), K - 1)
        z[i] = k
        ndk[d, k] += 1
        nwk[wi, k] += 1
        nk[k] += 1


def _state(seed, D=5, K=4, W=7):
    rng = np.random.default_rng(seed)
    lens = rng.integers(0, 9, D)
    ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
    w = rng.integers(0, W, ptr[-1]).astype(np.int64)
    z = rng.integers(0, K, ptr[-1]).astype(np.int64)
    ndk = np.zeros((D, K), np.int64)
    nwk = np.zeros((W, K), np.int64)
    for d in range(D):
        for i in range(ptr[d], ptr[d + 1]):
            ndk[d, z[i]] += 1
            nwk[w[i], z[i]] += 1
    alpha = rng.gamma(1.0, 0.5, (D, K)) + 0.01
    u = rng.random(ptr[-1])
    u[:2] = 0.0  # the edge case u = 0
    return ptr, w, z, ndk, nwk, nwk.sum(0), alpha, u


def test_gibbs_doc_equals_the_plain_loop_draw_for_draw():
    beta, W = 0.1, 7
    for seed in range(10):
        ptr, w, z, ndk, nwk, nk, alpha, u = _state(seed)
        py = [x.copy() for x in (z, ndk, nwk, nk)]
        p = np.empty(nk.shape[0])
        for sweep in range(3):
            uu = np.roll(u, sweep)
            for d in range(len(ptr) - 1):
                gibbs_doc(d, ptr, w, z, ndk, nwk, nk, alpha[d], beta, W * beta, uu, p)
                _python_doc(d, ptr, w, *py, alpha[d], beta, W * beta, uu)
            for got, want in zip((z, ndk, nwk, nk), py, strict=True):
                np.testing.assert_array_equal(got, want)
        assert nk.sum() == ptr[-1] and (ndk >= 0).all() and (nwk >= 0).all()
