"""The inference methods compared in the scvb0 study, built from its model settings."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import asdict

from latentlab.errors import ConfigError
from latentlab.models.lda import SCVB0, SVB

from .study import Model, method_names, svb_name

# A model's own parameter name -> the scvb0 config key it comes from ("K" comes from the
# step's section, so it keeps the model's name).
CONFIG_KEY = {"init": "scvb0_init", "rho": "rho_phi", "offset": "svb_variants.O",
              "n_local": "svb_variants.B"}  # fmt: skip


@contextmanager
def config_keys():
    """Re-raise a model's ConfigError (naming its own parameter) under the scvb0 key."""
    try:
        yield
    except ConfigError as e:
        head, _, rest = e.key.partition(".")
        key = CONFIG_KEY.get(head, head) + (f".{rest}" if rest else "")
        raise ConfigError(f"scvb0.{key}", str(e).split(": ", 1)[-1]) from e


def make_method(name: str, s: Model, K: int, seed: int, minibatch: int | None = None):
    """SCVB0 (Alg. 7) or SVB-Bx-Oy (Sec. 4.3.1), with the study's settings;
    a bad setting is reported under its scvb0 config key."""
    common = dict(K=K, alpha=s.alpha, beta=s.beta, minibatch=minibatch or s.minibatch, seed=seed)
    with config_keys():
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
    """Compile (or load cached) numba kernels before anything is timed, once per process
    and settings (:func:`latentlab.kernels.warmup.warm_once`)."""
    from latentlab.kernels.warmup import warm_once

    warm_once(("scvb0", repr(s)), lambda: _toy_fits(s))


def _toy_fits(s: Model) -> None:
    from latentlab.data.synthetic import lda_corpus_vectorised

    c, _ = lda_corpus_vectorised(20, 30, 2, 10, 0.5, 0.5, 0)
    for name in method_names(s):
        make_method(name, s, 2, 0, minibatch=5).fit(c, n_iter=1)
