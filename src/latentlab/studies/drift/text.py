"""LFRM_LDA / BMF_LDA steps (Sec. 2.7, Appendix A): synthetic text networks and the fits
(Tables 2.3 / 2.4 in tables.py and Fig 2.8 in figures.py draw them: synthetic analogues of
the Enron / Twitter EDA)."""

from __future__ import annotations

import json
import time
from dataclasses import asdict

import numpy as np
import pandas as pd

from latentlab.models.drift import lfrm_lda as lm
from latentlab.models.drift.synthetic import bmf_lda_dataset, lfrm_lda_dataset

from .study import STUDY, TEXT_DATA_KINDS, TextDataSettings, TextFitSettings
from .tables import text_arrays

KINDS = TEXT_DATA_KINDS


def _spec(settings, kind):
    return getattr(settings.text_data, kind)


def _generate(spec, rng):
    # (M, K2 >= 1 for bmf_lda, node or edge documents for lfrm_lda: TextSpec, at start-up)
    if spec.model == "bmf_lda":
        return bmf_lda_dataset(
            spec.N, spec.M, spec.K, spec.K2, spec.V, spec.link, spec.w_diag, spec.w_off,
            spec.eps, spec.p_feature, spec.obs_frac, spec.node_docs, spec.edge_len,
            spec.node_len, spec.gamma, spec.lam, spec.alpha_plus, spec.beta_gen,
            spec.gauss_sd, rng,
        )  # fmt: skip
    return lfrm_lda_dataset(
        spec.N, spec.K, spec.V, spec.link, spec.w_diag, spec.w_off, spec.eps, spec.p_feature,
        spec.node_docs, spec.edge_docs, spec.node_len, spec.edge_len, spec.gamma, spec.lam,
        spec.alpha_plus, spec.beta_gen, spec.gauss_sd, rng,
    )  # fmt: skip


@STUDY.run("text_data", settings=TextDataSettings)
def text_data(ctx):
    """Synthetic LFRM_LDA / BMF_LDA data with planted feature↔topic associations."""
    s = ctx.settings.text_data
    for ki, kind in enumerate(KINDS):
        spec = _spec(ctx.settings, kind)
        arrays = {}
        for r in range(s.n_datasets):
            d = _generate(spec, np.random.default_rng(ctx.seed(s.seed_offset, 100 * ki + r)))
            arrays.update({f"r{r}_{k}": np.asarray(v) for k, v in d.items()})
        np.savez_compressed(
            ctx.output(kind), n_datasets=s.n_datasets, spec=json.dumps(asdict(spec)), **arrays
        )


def load_dataset(z, r):
    g = text_arrays(z, r)
    data = lm.TextNetwork(
        g["Y"], g["O"], g["ptr"], g["w"], g["snd"], g["rcv"], int(g["V"]), g["allowed"]
    )
    return data, g


def text_hyper(s, **model) -> lm.TextHyper:
    """A text fit's sampler settings: the model's link, W prior and W shape (``model``:
    ``link``, ``w_prior``, ``w_diagonal``, optionally ``gauss_sd``), the rest from ``s``
    (:class:`~.study.TextFit`). The synthetic fits take ``model`` from their data set's spec,
    the Enron fit its own (``enron_text.enron_hyper``)."""
    return lm.TextHyper(
        **model, sigma_w=s.sigma_w, sigma_w_prop=s.sigma_w_prop, sigma_eps=s.sigma_eps,
        sigma_eps_prop=s.sigma_eps_prop, ibp_alpha=s.ibp_alpha, beta=s.beta,
        alpha_plus_init=s.alpha_plus_init, gamma_init=s.gamma_init, lambda_init=s.lambda_init,
        eb_steps=s.eb_steps, eb_step_size=s.eb_step_size, minka_iters=s.minka_iters,
        realign=s.realign,
    )  # fmt: skip


def spec_hyper(s, spec: dict) -> lm.TextHyper:
    """:func:`text_hyper` for a synthetic data set of ``spec`` (text_data's)."""
    return text_hyper(s, link=spec["link"], w_prior=spec["w_prior"],
                      w_diagonal=spec["w_diagonal"], gauss_sd=spec["gauss_sd"])  # fmt: skip


def swapped_samples(zp, phis, g, matched) -> list[bool]:
    """Feature swapping after burn-in (C2.13): per recorded Φ, whether its matching to the
    planted topics differs from ``matched``, the posterior mean's (``recovery``'s
    ``topic_match``)."""
    return [
        not np.array_equal(
            lm.recovery(zp, p, g["Z_true"], g["Phi_true"], g["allowed"])["topic_match"], matched
        )
        for p in phis
    ]


@STUDY.run("text_fit", settings=TextFitSettings)
def text_fit(ctx):
    """LFRM_LDA (or BMF_LDA) on each data set of one kind (wildcard ``tds``): Z
    probabilities over the recorded samples, Φ, per-sample Φ, trace, recovery."""
    s = ctx.settings.text_fit
    kind = ctx.wildcards.get("tds", "")
    z = np.load(ctx.input("data"))
    spec = json.loads(str(z["spec"]))
    hyper = spec_hyper(s, spec)
    out, rec_rows, trace_rows, times = {}, [], [], []
    for r in range(int(z["n_datasets"])):
        data, g = load_dataset(z, r)
        t0 = time.perf_counter()
        zp, ph, phis, trace, st = lm.run_chain(
            data, hyper, ctx.seed(s.seed_offset, r), s.burnin, s.samples, s.thin
        )
        times.append(time.perf_counter() - t0)
        rec = lm.recovery(zp, ph, g["Z_true"], g["Phi_true"], g["allowed"])
        swaps = swapped_samples(zp, phis, g, rec["topic_match"])
        for k in range(len(rec["l1"])):
            rec_rows.append(
                {
                    "dataset": r,
                    "feature": k,
                    "model_feature": int(rec["topic_match"][k]),
                    "z_matched_feature": int(rec["feature_match"][k]),
                    "l1": rec["l1"][k],
                    "l1_ratio": rec["l1_ratio"][k],
                    "acc_topic": rec["acc_topic"][k],
                    "acc_feature": rec["acc_feature"][k],
                    "association": rec["association"],
                    "swap_share": float(np.mean(swaps)),
                    "owners_true": int(g["Z_true"][:, k].sum()),
                    "owners_model": int((zp[:, rec["topic_match"][k]] > 0.5).sum()),
                }
            )
        trace_rows += [{"dataset": r, **t} for t in trace]
        out.update({f"r{r}_zprob": zp, f"r{r}_phi": ph})
    np.savez_compressed(ctx.output("fit"), n_datasets=int(z["n_datasets"]), **out)
    pd.DataFrame(rec_rows).to_csv(ctx.output("recovery"), index=False)
    tr = pd.DataFrame(trace_rows)
    tr["kind"] = kind
    tr.to_csv(ctx.output("trace"), index=False)
    ctx.output("timing").write_text(
        json.dumps({"seconds_per_dataset": times, "hyper": asdict(hyper), "spec": spec})
    )
