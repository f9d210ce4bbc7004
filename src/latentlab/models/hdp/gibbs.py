"""Collapsed Gibbs sampler for the truncated HDP-LDA (seed 001, Eqs 13–16).

A cross-check of the variational perplexities and of claim C14 (Σ_d I(n_dk ≥ 1) ≤ m_·k);
not a figure of the document. Stages per iteration (Sec 3 of the paper):

1. z by Eq 13 (integer counts, sequential);
2. table counts m_dk by Eq 14, drawn as Σ_{j=1..n_dk} Bernoulli(α0π_k/(α0π_k + j − 1));
3. π̃_k ~ Beta(1 + m_·k, γ0 + Σ_{l>k} m_·l), π̃_T = 1 (Eqs 15–16); α0 by the auxiliary
   variables of Escobar–West / Teh et al. 2006 under Gamma(a_α, b_α); γ0 from
   Gamma(a_γ + T − 1, b_γ − Σ_{k<T} log(1 − π̃_k)).

β0 and τ stay at their initial values (AS, β0 = beta0).
"""

from __future__ import annotations

import numpy as np

from latentlab.data.tokens import HeldOut, as_tokens
from latentlab.errors import ConfigError
from latentlab.models.hdp import kernels
from latentlab.models.hdp.model import perplexity
from latentlab.models.hdp.updates import Hyperprior


class GibbsHDP:
    def __init__(
        self,
        T: int,
        alpha0: float = 1.0,
        gamma0: float = 1.0,
        beta0: float | None = None,
        hyperprior: Hyperprior | None = None,
        seed: int = 0,
    ):
        if int(T) != T or T < 2:
            raise ConfigError("GibbsHDP.T", f"truncation level T must be an integer >= 2, got {T}")
        self.T = int(T)
        self.alpha0 = float(alpha0)
        self.gamma0 = float(gamma0)
        self.beta0_init = beta0
        self.hp = hyperprior or Hyperprior()
        self.rng = np.random.default_rng(seed)

    def fit(self, corpus, n_iter: int = 100, callback=None) -> GibbsHDP:
        """``n_iter`` sweeps on ``corpus`` (BowCorpus or TokenCorpus); ``callback(model,
        info)`` after each stops the run when it returns True (``info``: iteration)."""
        data = as_tokens(corpus)
        T, V, N = self.T, data.V, data.n_docs
        rng = self.rng
        self.data = data
        self.beta0 = 0.1 * V / T if self.beta0_init is None else float(self.beta0_init)
        self.beta_v = np.full(V, self.beta0 / V)
        self.pit = np.concatenate([rng.beta(1.0, self.gamma0, T - 1), [1.0]])
        self.pi = self._pi(self.pit)
        self.z = rng.integers(0, T, data.n_tokens).astype(np.int64)
        d_of = np.repeat(np.arange(N), data.doc_lengths())
        self.ndk = np.zeros((N, T), dtype=np.int64)
        self.nkv = np.zeros((V, T), dtype=np.int64)
        np.add.at(self.ndk, (d_of, self.z), 1)
        np.add.at(self.nkv, (data.words, self.z), 1)
        self.nk = self.nkv.sum(0)
        n_d = data.doc_lengths().astype(np.float64)
        for it in range(1, n_iter + 1):
            u = rng.random(data.n_tokens)
            kernels.gibbs_sweep(
                data.doc_ptr, data.words, self.z, self.ndk, self.nkv, self.nk,
                self.alpha0 * self.pi, self.beta_v, self.beta0, u,
            )  # fmt: skip
            self.m = kernels.gibbs_tables(
                self.ndk, self.alpha0 * self.pi, rng.random(int(self.ndk.sum()))
            )
            mk = self.m.sum(0).astype(np.float64)
            tail = np.cumsum(mk[::-1])[::-1]
            self.pit = np.concatenate([rng.beta(1.0 + mk[:-1], self.gamma0 + tail[1:]), [1.0]])
            self.pit[:-1] = np.clip(self.pit[:-1], 1e-300, 1 - 1e-16)
            self.pi = self._pi(self.pit)
            # α0 | m (auxiliary variables, Teh et al. 2006 App. A)
            pos = n_d > 0
            w = rng.beta(self.alpha0 + 1.0, n_d[pos])
            s = rng.random(pos.sum()) < n_d[pos] / (n_d[pos] + self.alpha0)
            self.alpha0 = rng.gamma(
                self.hp.a_alpha + mk.sum() - s.sum(), 1.0 / (self.hp.b_alpha - np.log(w).sum())
            )
            rate = self.hp.b_gamma - np.log1p(-self.pit[:-1]).sum()
            self.gamma0 = rng.gamma(self.hp.a_gamma + T - 1, 1.0 / rate)
            if callback is not None and callback(self, {"iteration": it}):
                break
        return self

    @staticmethod
    def _pi(pit: np.ndarray) -> np.ndarray:
        """Eq 16: π_k = π̃_k Π_{l<k}(1 − π̃_l)."""
        return pit * np.concatenate([[1.0], np.cumprod(1.0 - pit[:-1])])

    def theta(self) -> np.ndarray:
        th = self.ndk + self.alpha0 * self.pi[None, :]
        return th / th.sum(1, keepdims=True)

    def phi(self) -> np.ndarray:
        """Topic-word point estimate, T x W."""
        return self.phi_vk().T

    def phi_vk(self) -> np.ndarray:
        return (self.nkv + self.beta_v[:, None]) / (self.nk + self.beta0)[None, :]

    def perplexity(self, test: HeldOut) -> float:
        """Eqs 36–37 at the current sample's point estimates."""
        return perplexity(self.theta(), self.phi_vk(), test)

    def table_bound_holds(self) -> bool:
        """Claim C14: Σ_d I(n_dk ≥ 1) ≤ m_·k for every topic k."""
        return bool(np.all((self.ndk >= 1).sum(0) <= self.m.sum(0)))
