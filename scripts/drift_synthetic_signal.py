"""Issue 22, case 2: how much temporal signal the synthetic DRIFT networks carry.

For the former generator (a_k ~ Beta(alpha/K, 1), b_k ~ Beta(gamma, delta)) and the current
one (a_k = 0.04, b_k = 0.96), on the study's data sets (base seed of config/real.yaml,
seed offset 0): the lag-1 edge autocorrelation and the oracle forecast AUC of t = T + 1
(the generating model with the true Z^(T), a, b, W, eps, 2000 draws of Z^(T+1)).

    PYTHONPATH=src nice -n 19 python scripts/drift_synthetic_signal.py
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

from latentlab.models.drift.predict import auc
from latentlab.models.drift.synthetic import drift_dataset, edge_autocorrelation
from latentlab.studies.shape import derive_seed

W = np.array([[3.0, -1.0, -1.0], [-1.0, 3.0, -1.0], [-1.0, -1.0, 3.0]])
EPS, BASE = -2.0, 20261122


def oracle_auc(Z_last, a, b, y, rng, draws=2000):
    p = np.where(Z_last == 1, b, a)
    zz = (rng.random((draws, *Z_last.shape)) < p).astype(float)
    P = expit(np.einsum("sia,ab,sjb->sij", zz, W, zz) + EPS).mean(0)
    iu = np.triu_indices(Z_last.shape[0], 1)
    return auc(P[iu], y[iu])


def main():
    for name, T, n, ab in [
        ("real/paper, former (prior draw)", 100, 10, (None, None)),
        ("real/paper, current (0.04, 0.96)", 100, 10, (0.04, 0.96)),
        ("smoke, former", 20, 2, (None, None)),
        ("smoke, current", 20, 2, (0.04, 0.96)),
    ]:
        ac, orc = [], []
        for d in range(n):
            rng = np.random.default_rng(derive_seed(BASE, 0, d))
            Z, Y, a, b = drift_dataset(10, T + 1, W, EPS, 3.0, 3.0, 1.0, rng, a=ab[0], b=ab[1])
            ac.append(edge_autocorrelation(Y[:-1]))
            orc.append(oracle_auc(Z[-2], a, b, Y[-1], np.random.default_rng(d)))
        print(
            f"{name}: edge autocorrelation {np.round(ac, 3).tolist()} (mean {np.mean(ac):.3f}); "
            f"oracle AUC {np.round(orc, 3).tolist()} (mean {np.nanmean(orc):.3f})"
        )


if __name__ == "__main__":
    main()
