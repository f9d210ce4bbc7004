"""The inference methods compared in the scvb0 study, built from its model settings."""

from __future__ import annotations

from dataclasses import asdict

from latentlab.models.lda import SCVB0, SVB

from .study import Model


def svb_name(B: int, O: float) -> str:  # noqa: E741
    return f"SVB-B{int(B)}-O{O:g}"


def method_names(s: Model) -> list[str]:
    return ["SCVB0"] + [svb_name(v.B, v.O) for v in s.svb_variants]


def make_method(name: str, s: Model, K: int, seed: int, minibatch: int | None = None):
    """SCVB0 (Alg. 7, digest 4.3) or SVB-Bx-Oy (digest 4.2), with the study's settings."""
    common = dict(K=K, alpha=s.alpha, beta=s.beta, minibatch=minibatch or s.minibatch, seed=seed)
    if name == "SCVB0":
        return SCVB0(
            **common,
            rho_phi=asdict(s.rho_phi),
            rho_theta=asdict(s.rho_theta),
            n_burn=s.n_burn,
            clumping=s.clumping,
            phi_clock=s.phi_clock,
            init=s.scvb0_init,
        )
    for v in s.svb_variants:
        if name == svb_name(v.B, v.O):
            return SVB(**common, offset=v.O, n_local=v.B, rho=asdict(s.rho_phi))
    raise KeyError(name)


def warm_up(s: Model) -> None:
    """Compile (or load cached) numba kernels before anything is timed."""
    from latentlab.data.synthetic import lda_corpus_vectorised

    c, _ = lda_corpus_vectorised(20, 30, 2, 10, 0.5, 0.5, 0)
    for name in method_names(s):
        make_method(name, s, 2, 0, minibatch=5).fit(c, n_iter=1)
