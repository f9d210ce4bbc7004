"""Truncated HDP-LDA by collapsed variational Bayes: CVB, CVB0, PCVB, PCVB0 × {AS, AA}.

Sato, Kurihara & Nakagawa, "Practical collapsed variational Bayes inference for HDP",
KDD 2012 (seed 001). One estimator, :class:`HDPLDA`, runs the eight configurations:

=========  =================  ====================================================
method     token update       global update (once per sweep)
=========  =================  ====================================================
``pcvb0``  Eq 35 (zero order) q(π̃) Eqs 24–26, α0 Eq 29, γ0 Eq 33, β0 Eq 30, τ Eqs 31–32
``pcvb``   Eq 34 (2nd order)  same as PCVB0; keeps variance counts for Eq 34
``cvb0``   Eq 19 (zero order) Teh, Kurihara & Welling [24] (Sec. 4): G[α0π_k], G[β0τ_v]
``cvb``    Eq 18 (2nd order)  same as CVB0
=========  =================  ====================================================

The paper does not give [24]'s computation of G[α0π_k] and G[β0τ_v] (Sec. 4 refers to
[24]); ours is reconstructed from [24] as coded in JohnReid/infpy (``infpy/dp/hdpm.py``).

``prior="AS"`` keeps τ_v = 1/V; ``"AA"`` learns τ. Algorithm 1 order: sweep, then
π̃ → α0 → γ0 → β0 (→ τ). Every choice the paper leaves open is a field of
:class:`HDPOptions` and is recorded by :meth:`HDPLDA.settings`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict

import numpy as np
from scipy.special import digamma

from latentlab.data.tokens import HeldOut, TokenCorpus, as_tokens
from latentlab.errors import ConfigError, DataError, DivergenceError
from latentlab.models.hdp import kernels, updates
from latentlab.models.hdp.options import METHODS, PRIORS, HDPOptions
from latentlab.models.hdp.updates import FixedPointError

log = logging.getLogger(__name__)


class HDPLDA:
    """Truncated stick-breaking HDP-LDA fitted by one of CVB, CVB0, PCVB, PCVB0 (AS or AA).

    A :class:`latentlab.models.base.TopicModel`: ``fit``, ``phi`` (T x W, Eq 37),
    ``theta`` (Eq 37), ``transform`` (:meth:`fold_in`), ``log_predictive``.

    Parameters
    ----------
    T : int
        Truncation level (>= 2).
    method : {"pcvb0", "pcvb", "cvb0", "cvb"}
        Token and global updates (the table above).
    prior : {"AS", "AA"}
        Symmetric (τ_v = 1/V) or learnt (Eq 31) base measure of the topics.
    options : HDPOptions or dict, optional
        The choices the paper leaves open.
    seed : int
        Seed of the initial q (Sec. 6).
    entropy_iterations : int
        Iterations whose mean entropy of q is tracked (claim C10).
    """

    def __init__(
        self,
        T: int,
        method: str = "pcvb0",
        prior: str = "AS",
        options=None,
        seed: int = 0,
        entropy_iterations: int = 10,
    ):
        if int(T) != T or T < 2:
            raise ConfigError("HDPLDA.T", f"truncation level T must be an integer >= 2, got {T}")
        if method not in METHODS:
            raise ConfigError("HDPLDA.method", f"{method!r} not in {METHODS}")
        if prior not in PRIORS:
            raise ConfigError("HDPLDA.prior", f"{prior!r} not in {PRIORS}")
        self.T = int(T)
        self.method = method
        self.prior = prior
        self.opt = options if isinstance(options, HDPOptions) else HDPOptions.from_dict(options)
        if self.opt.beta_init not in ("literal", "per_V", "unnormalised"):
            raise ConfigError("HDPOptions.beta_init", f"unknown {self.opt.beta_init!r}")
        if self.opt.cvb_denominator not in ("G", "E") or self.opt.cvb_predictive not in ("G", "E"):
            raise ConfigError("HDPOptions", "cvb_denominator/cvb_predictive: 'G' or 'E'")
        if self.opt.q_dtype not in ("float64", "float32"):
            raise ConfigError("HDPOptions.q_dtype", "float64 or float32")
        self.seed = int(seed)
        self.entropy_iterations = int(entropy_iterations)
        self.second_order = method in ("cvb", "pcvb")
        self.proposed = method.startswith("pcvb")
        self.iteration = 0
        self.diagnostics: dict = {"fp_failures": [], "fp_inner_iters": []}

    # ------------------------------------------------------------------ setup
    def settings(self) -> dict:
        return {
            "T": self.T,
            "method": self.method,
            "prior": self.prior,
            "seed": self.seed,
            **{k: v for k, v in asdict(self.opt).items()},
        }

    def _init(self, data: TokenCorpus) -> None:
        """Sec. 6: q ∝ 0.1 + U[0,1] i.i.d. per token and topic; α0 = 0.1, E[π_k] = 1/T
        (our reading of "α0π_k = 0.1/T")."""
        data.validate()
        if data.n_tokens == 0:
            raise DataError(None, "no training tokens")
        self.data = data
        T, V, N = self.T, data.V, data.n_docs
        rng = np.random.default_rng(self.seed)
        q = 0.1 + rng.random((data.n_tokens, T))
        q /= q.sum(1, keepdims=True)
        self.q = q.astype(self.opt.q_dtype)
        self.n_d = data.doc_lengths().astype(np.float64)
        self.ndk = np.zeros((N, T))
        self.nkv = np.zeros((V, T))
        self.nk = np.zeros(T)
        need_var = self.second_order or self.method == "cvb0"
        if need_var:
            self.vdk = np.zeros((N, T))
            self.vkv = np.zeros((V, T))
            self.vk = np.zeros(T)
        else:  # PCVB0: no variance counts (claim C1); dummies for the kernel signature
            self.vdk = np.zeros((1, 1))
            self.vkv = np.zeros((1, 1))
            self.vk = np.zeros(1)
        self._recount(need_var)
        self.Ldk = np.zeros((N, T))
        self.Lkv = np.zeros((V, T))
        self.Lk = np.zeros(T)
        self.doc_order = np.arange(N, dtype=np.int64)
        # hyperparameters
        o = self.opt
        self.alpha0 = o.alpha0_init
        self.gamma0 = o.gamma0_init
        self.a, self.b = updates.uniform_stick(T)
        self.Epi = updates.stick_expectation(self.a, self.b)
        self.tau = np.full(V, 1.0 / V)
        if o.beta_init == "literal":  # β0τ_v = 0.1/T with τ = 1/V
            self.beta0 = o.beta_init_value * V / T
            self.beta_v = np.full(V, o.beta_init_value / T)
        elif o.beta_init == "per_V":
            self.beta0 = o.beta_init_value
            self.beta_v = np.full(V, o.beta_init_value / V)
        else:  # unnormalised: β0 = 0.1, β_v = 0.1/T (first sweep only)
            self.beta0 = o.beta_init_value
            self.beta_v = np.full(V, o.beta_init_value / T)
        self.alpha_pi = self.alpha0 * self.Epi
        self.beta_den = self.beta0
        if not self.proposed:
            # CVB: q(α0), q(β0), q(γ0) start with means equal to the initial values; the
            # geometric expectations used by the first sweep equal them as well (ours; the
            # paper gives only the initial values, Sec. 6).
            self.E_alpha0 = self.G_alpha0 = self.alpha0
            self.E_beta0 = self.G_beta0 = self.beta0
            self.E_gamma0 = self.gamma0
            self.E_tau = self.tau.copy()
            self.G_tau = self.tau.copy()
            self.G_pi = self.Epi.copy()

    def _recount(self, with_var: bool) -> None:
        d = self.data
        kernels.counts_from_q(
            d.doc_ptr, d.words, self.q, self.ndk, self.nkv, self.nk,
            self.vdk, self.vkv, self.vk, with_var,
        )  # fmt: skip

    # -------------------------------------------------------------- iteration
    def _track_entropy(self) -> bool:
        return self.iteration < self.entropy_iterations

    def sweep(self) -> float:
        """Algorithm 1 lines 2–6 with the method's token update; returns the mean entropy of q
        during the first ``entropy_iterations`` iterations (claim C10), NaN afterwards."""
        track = self._track_entropy()
        d = self.data
        if self.second_order:
            ent = kernels.sweep_second(
                d.doc_ptr, d.words, self.q, self.ndk, self.nkv, self.nk,
                self.vdk, self.vkv, self.vk, self.alpha_pi, self.beta_v,
                float(self.beta_den), self.doc_order, True, self._track_entropy(),
            )  # fmt: skip
        else:
            ent = kernels.sweep_zero(
                d.doc_ptr, d.words, self.q, self.ndk, self.nkv, self.nk,
                self.alpha_pi, self.beta_v, float(self.beta_den), self.doc_order, True,
                self._track_entropy(),
            )  # fmt: skip
        return float(ent) / d.n_tokens if track else float("nan")

    def step(self) -> dict:
        """One iteration: a full sweep, then the global updates (Algorithm 1)."""
        t0 = time.perf_counter()
        ent = self.sweep()
        self.iteration += 1
        it = self.iteration
        if self.method == "cvb0":
            self._recount(True)  # CVB0 must keep variance counts for the [24] machinery
        elif self.opt.recount_every and it % self.opt.recount_every == 0:
            self._recount(self.second_order)
        d = self.data
        if it <= self.opt.hyper_burnin:  # hyperparameters held at their initial values
            return {"iteration": it, "entropy": ent, "seconds": time.perf_counter() - t0}
        kernels.log_zero_stats(d.doc_ptr, d.words, self.q, self.Ldk, self.Lkv, self.Lk)
        if self.proposed:
            self._global_pcvb()
        else:
            self._global_cvb()
        for name, arr in (("alpha_pi", self.alpha_pi), ("beta_v", self.beta_v)):
            if not np.all(np.isfinite(arr)):
                raise DivergenceError(name, it)
        return {"iteration": it, "entropy": ent, "seconds": time.perf_counter() - t0}

    def _fixed_point(self, name, num, n, x0):
        o = self.opt
        fp = updates.fixed_point_concentration(num, n, x0, o.fp_max_iter, o.fp_tol, name)
        self.diagnostics["fp_inner_iters"].append((self.iteration, name, fp.n_iter))
        nz = np.asarray(n, dtype=np.float64)
        nz = nz[nz > 1e-12]
        # the root exists iff lo < num < hi (derived here, not in the paper): kept for the
        # per-iteration traces
        self.diagnostics.setdefault("fp_last", {})[name] = {
            "num": float(num), "lo": float(len(nz)), "hi": float(nz.sum()),
            "n_iter": int(fp.n_iter), "converged": bool(fp.converged),
        }  # fmt: skip
        if not fp.converged:
            msg = f"iteration {self.iteration}: {fp.note} ({fp.n_iter} inner iterations)"
            self.diagnostics["fp_failures"].append(msg)
            if o.fp_strict:
                raise FixedPointError(name, fp.n_iter, fp.note)
            log.warning("%s", msg)
        return fp.value

    def _sort(self, key: np.ndarray) -> None:
        perm = np.argsort(-key, kind="stable")
        if np.all(perm == np.arange(self.T)):
            return
        self.q = np.ascontiguousarray(self.q[:, perm])
        for name in ("ndk", "nkv", "Ldk", "Lkv"):
            setattr(self, name, np.ascontiguousarray(getattr(self, name)[:, perm]))
        self.nk, self.Lk = self.nk[perm], self.Lk[perm]
        if self.vdk.shape[1] == self.T:
            self.vdk = np.ascontiguousarray(self.vdk[:, perm])
            self.vkv = np.ascontiguousarray(self.vkv[:, perm])
            self.vk = self.vk[perm]

    def _global_pcvb(self) -> None:
        """Algorithm 1 lines 7–10: Eqs 24–26, 29, 33, 30–32."""
        Idk = -np.expm1(self.Ldk)  # Eq 26, E[I(n_dk >= 1)]
        m = Idk.sum(0)
        if self.opt.sort_topics:
            self._sort(m)
            Idk = -np.expm1(self.Ldk)
            m = Idk.sum(0)
        self.a, self.b = updates.q_pi_pcvb(m, self.gamma0)  # Eqs 24-25 with the old γ0
        self.Epi = updates.stick_expectation(self.a, self.b)  # Eqs 27-28
        self.alpha0 = self._fixed_point("alpha0", float(Idk.sum()), self.n_d, self.alpha0)
        self.gamma0 = updates.gamma0_closed_form(self.a, self.b)  # Eq 33
        Ikv = -np.expm1(self.Lkv)  # Eq 32
        self.beta0 = self._fixed_point("beta0", float(Ikv.sum()), self.nk, self.beta0)
        if self.prior == "AA":
            self.tau = updates.tau_from_counts(Ikv.sum(1))  # Eq 31
            if self.opt.tau_floor > 0:
                self.tau = updates.floor_tau(self.tau, self.opt.tau_floor / self.data.V)
        self.alpha_pi = self.alpha0 * self.Epi
        self.beta_v = self.beta0 * self.tau
        self.beta_den = self.beta0

    def _global_cvb(self) -> None:
        """Teh, Kurihara & Welling [24] updates (not given in the paper, Sec. 4; reconstructed
        from [24] as coded in infpy)."""
        hp = self.opt.hyperprior
        T = self.T
        Pd, Ed, Vd = updates.positive_part(self.ndk, self.vdk, self.Ldk)
        Es = updates.expected_tables(self.alpha_pi[None, :], Pd, Ed, Vd)  # E[s_dk]
        s_k = Es.sum(0)
        if self.opt.sort_topics:
            perm_key = s_k.copy()
            self._sort(perm_key)
            Pd, Ed, Vd = updates.positive_part(self.ndk, self.vdk, self.Ldk)
            Es = updates.expected_tables(self.alpha_pi[None, :], Pd, Ed, Vd)
            s_k = Es.sum(0)
        nd = self.n_d[self.n_d > 0]
        Elog_eta = digamma(self.E_alpha0) - digamma(self.E_alpha0 + nd)
        sh_a, rt_a = hp.a_alpha + Es.sum(), hp.b_alpha - Elog_eta.sum()
        tail = np.cumsum(s_k[::-1])[::-1]
        self.a = 1.0 + s_k[:-1]
        self.b = self.E_gamma0 + tail[1:]
        sh_g = hp.a_gamma + (T - 1)
        rt_g = hp.b_gamma - np.sum(digamma(self.b) - digamma(self.a + self.b))
        Pv, Ev, Vv = updates.positive_part(self.nkv, self.vkv, self.Lkv)
        Gbt = self.G_beta0 * self.G_tau
        Et = updates.expected_tables(Gbt[:, None], Pv, Ev, Vv)  # E[t_kv], V x T
        Pk, Ek, Vk = updates.positive_part(self.nk, self.vk, self.Lk)
        eb = self.E_beta0
        Elog_xi = np.where(
            Pk > 0,
            Pk * (digamma(eb) - digamma(eb + Ek) - 0.5 * Vk * updates.psi2(eb + Ek)),
            0.0,
        )
        sh_b, rt_b = hp.a_beta + Et.sum(), hp.b_beta - Elog_xi.sum()
        self.E_alpha0, self.G_alpha0 = updates.gamma_moments(sh_a, rt_a)
        self.E_gamma0, _ = updates.gamma_moments(sh_g, rt_g)
        self.E_beta0, self.G_beta0 = updates.gamma_moments(sh_b, rt_b)
        self.Epi = updates.stick_expectation(self.a, self.b)
        self.G_pi = np.exp(updates.stick_log_geometric(self.a, self.b))
        if self.prior == "AA":
            c = hp.a_tau + Et.sum(1)
            self.E_tau = c / c.sum()
            self.G_tau = np.exp(digamma(c) - digamma(c.sum()))
        self.alpha0, self.beta0, self.gamma0 = self.E_alpha0, self.E_beta0, self.E_gamma0
        self.tau = self.E_tau
        self.alpha_pi = self.G_alpha0 * self.G_pi
        self.beta_v = self.G_beta0 * self.G_tau
        self.beta_den = self.G_beta0 if self.opt.cvb_denominator == "G" else self.E_beta0
        self.last_Es_k = s_k

    # ------------------------------------------------------------- fit / eval
    def fit(self, corpus, n_iter: int = 100, callback=None) -> HDPLDA:
        """Initialise (Sec. 6) and run ``n_iter`` iterations on ``corpus`` (a BowCorpus, or a
        TokenCorpus whose token order is kept); ``callback(model, info)`` after each
        iteration stops the fit when it returns True (``info``: iteration, entropy, seconds)."""
        if int(n_iter) != n_iter or n_iter < 0:
            raise ConfigError("n_iter", f"must be an integer >= 0, got {n_iter!r}")
        self._init(as_tokens(corpus))
        for _ in range(int(n_iter)):
            info = self.step()
            if callback is not None and callback(self, info):
                break
        return self

    def prior_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """(α0π_k, β0τ_v) used by the predictive (Eq 37; CVB: E or G values, which the paper
        leaves open)."""
        if self.proposed or self.opt.cvb_predictive == "E":
            if self.proposed:
                return self.alpha0 * self.Epi, self.beta0 * self.tau
            return self.E_alpha0 * self.Epi, self.E_beta0 * self.E_tau
        return self.G_alpha0 * self.G_pi, self.G_beta0 * self.G_tau

    def theta(self) -> np.ndarray:
        """E[θ_dk] (documents x T) = (α0π_k + E[n_dk]) / Σ_k' (·) (Sec 6.4; Eq 37 first factor)."""
        ap, _ = self.prior_weights()
        th = self.ndk + ap[None, :]
        return th / th.sum(1, keepdims=True)

    def phi(self) -> np.ndarray:
        """(β0τ_v + E[n_kv]) / (β0 + E[n_k]) as T x W (Eq 37 second factor)."""
        return self.phi_vk().T

    def phi_vk(self) -> np.ndarray:
        """:meth:`phi` word-major (V x T), the layout of the kernels."""
        _, bt = self.prior_weights()
        return (self.nkv + bt[:, None]) / (self.nk + bt.sum())[None, :]

    def new_doc_prior(self) -> np.ndarray:
        """α0π (length T), the Dirichlet prior of a new document's θ (Eq 37)."""
        return self.prior_weights()[0]

    def transform(self, corpus, n_iter: int = 100, seed: int = 0) -> np.ndarray:
        """E[θ] (n_docs x T) of new documents: :meth:`fold_in` (the method's own token
        update, Eqs 19/35 or 18/34, with the global statistics frozen)."""
        if int(n_iter) != n_iter or n_iter < 0:
            raise ConfigError("n_iter", f"must be an integer >= 0, got {n_iter!r}")
        V = getattr(corpus, "n_vocab", getattr(corpus, "V", None))
        if V != self.data.V:
            raise DataError(None, f"vocabulary {V} differs from the topics' V={self.data.V}")
        return self.fold_in(corpus, int(n_iter), seed)

    def log_predictive(self, split, n_iter: int = 100, tol: float = 1e-6) -> float:
        """Per-token held-out log-likelihood by document completion with the predictive
        Eq 37 (topics and α0π frozen; θ of the observed halves by the CVB0 fixed point
        shared with the LDA models, :func:`latentlab.models.lda.theta.document_completion`,
        so that methods differ only in their topics and prior)."""
        from latentlab.models.lda._common import completion

        return completion(self, split, n_iter, tol)

    def perplexity(self, test: HeldOut) -> float:
        """Eq 36 with the predictive Eq 37 over held-out tokens of the training documents."""
        return perplexity(self.theta(), self.phi_vk(), test)

    def effective_topics(self, threshold: float = 1.0) -> int:
        """Topics with E[n_k] ≥ threshold tokens (the paper does not define effective topics;
        ours)."""
        return int(np.sum(self.nk >= threshold))

    def state_bytes(self) -> int:
        """Bytes of the arrays the method keeps between sweeps (claims C1, C15)."""
        names = ["q", "ndk", "nkv", "nk", "Ldk", "Lkv", "Lk"]
        if self.second_order or self.method == "cvb0":
            names += ["vdk", "vkv", "vk"]
        return int(sum(getattr(self, n).nbytes for n in names))

    def fold_in(self, docs, n_iter: int = 100, seed: int = 0) -> np.ndarray:
        """E[θ] of unseen documents with the global statistics frozen (Sec 6.4; the fold-in
        procedure is not in the paper, ours).

        Runs the method's own token update over each document's tokens for ``n_iter``
        sweeps using only that document's E[n_dk] (and V[n_dk]); nkv, nk stay fixed.
        """
        T = self.T
        docs = as_tokens(docs)
        # Words with no training mass (AA: τ_v = 0 and E[n_kv] = 0, Eq 31) have zero
        # probability under every topic: they carry no information and are left out.
        known = (self.beta_v[docs.words] + self.nkv[docs.words].sum(1)) > 0
        if not known.all():
            self.diagnostics["fold_in_dropped_tokens"] = int((~known).sum())
            d_of = np.repeat(np.arange(docs.n_docs), docs.doc_lengths())
            lens = np.bincount(d_of[known], minlength=docs.n_docs)
            docs = TokenCorpus(np.concatenate([[0], np.cumsum(lens)]), docs.words[known], docs.V)
        rng = np.random.default_rng(seed)
        q = 0.1 + rng.random((docs.n_tokens, T))
        q /= q.sum(1, keepdims=True)
        N = docs.n_docs
        ndk = np.zeros((N, T))
        vdk = np.zeros((N, T))
        d_of = np.repeat(np.arange(N), docs.doc_lengths())
        np.add.at(ndk, d_of, q)
        np.add.at(vdk, d_of, q * (1 - q))
        order = np.arange(N, dtype=np.int64)
        if self.second_order:
            vkv, vk = self.vkv, self.vk
        for _ in range(n_iter):
            if self.second_order:
                kernels.sweep_second(
                    docs.doc_ptr, docs.words, q, ndk, self.nkv, self.nk, vdk, vkv, vk,
                    self.alpha_pi, self.beta_v, float(self.beta_den), order, False, False,
                )  # fmt: skip
            else:
                kernels.sweep_zero(
                    docs.doc_ptr, docs.words, q, ndk, self.nkv, self.nk,
                    self.alpha_pi, self.beta_v, float(self.beta_den), order, False, False,
                )  # fmt: skip
        ap, _ = self.prior_weights()
        th = ndk + ap[None, :]
        return th / th.sum(1, keepdims=True)


def perplexity(theta: np.ndarray, phi: np.ndarray, test: HeldOut) -> float:
    """exp(−Σ log p(w_test | w_train) / #test tokens) (Eqs 36–37); refuses p = 0."""
    if test.n_tokens == 0:
        raise DataError(None, "no held-out tokens to score")
    p = kernels.entry_probs(test.doc, test.word, theta, phi)
    bad = ~(p > 0) | ~np.isfinite(p)
    if bad.any():
        raise DataError(
            None,
            f"{int(test.count[bad].sum())} held-out tokens have zero predictive probability "
            "(τ_v = 0 for words unseen in training, Eq 31; the paper does not say how it "
            "handled them); use oov_rule: drop or "
            "tau_floor > 0",
        )
    return float(np.exp(-np.sum(test.count * np.log(p)) / test.n_tokens))
