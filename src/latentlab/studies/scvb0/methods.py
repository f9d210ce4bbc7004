"""The inference methods compared in the scvb0 study, built from the config section."""

from __future__ import annotations

from latentlab.models.lda import SCVB0, SVB


def svb_name(B: int, O: float) -> str:  # noqa: E741
    return f"SVB-B{int(B)}-O{O:g}"


def method_names(p: dict) -> list[str]:
    return ["SCVB0"] + [svb_name(v["B"], v["O"]) for v in p["svb_variants"]]


def make_method(name: str, p: dict, K: int, seed: int):
    """SCVB0 (Alg. 7, digest 4.3) or SVB-Bx-Oy (digest 4.2), with the study's settings."""
    common = dict(K=K, alpha=p["alpha"], beta=p["beta"], minibatch=p["minibatch"], seed=seed)
    if name == "SCVB0":
        return SCVB0(
            **common,
            rho_phi=p["rho_phi"],
            rho_theta=p["rho_theta"],
            n_burn=p["n_burn"],
            clumping=p.get("clumping", True),
            phi_clock=p.get("phi_clock", "minibatch"),
            init=p.get("scvb0_init", "corpus"),
        )
    for v in p["svb_variants"]:
        if name == svb_name(v["B"], v["O"]):
            return SVB(**common, offset=v["O"], n_local=v["B"], rho=p["rho_phi"])
    raise KeyError(name)


def warm_up(p: dict) -> None:
    """Compile (or load cached) numba kernels before anything is timed."""
    from .data import synthetic_lda

    c, _ = synthetic_lda(20, 30, 2, 10, 0.5, 0.5, 0)
    q = dict(p, minibatch=5)
    for name in method_names(p):
        make_method(name, q, 2, 0).fit(c, n_epochs=1)
