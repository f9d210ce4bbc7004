"""Ledger rows for every chapter-5 claim (digest section 8, C5.1-C5.13).

Exact claims (C5.1, C5.11-C5.13) are recomputed here against the exact DP on tiny
synthetic documents; the others read the raw per-document results of the study.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats as sps

from latentlab.claims.ledger import Ledger
from latentlab.evaluation import ais
from latentlab.studies.ais_eval.report import corpus_ratio, doc_variance, pct_prefer

DOC = "Foulds 2014 (seed 004), ch. 5"


def _tiny(seed):
    rng = np.random.default_rng(seed)
    V, K = 12, 3
    phi = rng.dirichlet(np.full(V, 0.5), size=K).T
    alpha = rng.gamma(2.0, 0.3, K) + 0.05
    return ais.TopicModel(phi, alpha)


def exact_checks(seed: int, n_temps: int = 5000, S: int = 20) -> dict:
    """Max |estimate - exact| over tiny documents for each estimator, additivity, S=1 vs
    S=100 and the completion identity (C5.1, C5.11, C5.12, C5.13)."""
    ma, mb, mc = _tiny(seed), _tiny(seed + 1), _tiny(seed + 2)
    rng = np.random.default_rng(seed + 3)
    docs = [rng.integers(0, 12, 8) for _ in range(4)]

    def E(m, ds=docs):
        return np.array([ais.exact_log_evidence(d, m.phi, m.alpha) for d in ds])

    ea, eb, ec = E(ma), E(mb), E(mc)
    out = {}
    out["std_ais"] = np.abs(ais.standard_ais(ma, docs, n_temps, S, seed).log_lik - ea).max()
    for path in ("convex", "geometric"):
        f = ais.ratio_ais(ma, mb, docs, n_temps, path, S, 100, seed, 1).log_lik
        r = -ais.ratio_ais(mb, ma, docs, n_temps, path, S, 100, seed, 2).log_lik
        out[f"ratio_{path}"] = max(np.abs(f - (ea - eb)).max(), np.abs(r - (ea - eb)).max())
    it = ais.iteration_ais(
        np.stack([mc.phi, mb.phi, ma.phi]),
        np.stack([mc.alpha, mb.alpha, ma.alpha]),
        docs,
        n_temps,
        1000,
        S,
        seed,
    ).log_lik
    out["iteration_ais"] = np.abs(it - np.stack([ec, eb, ea], 1)).max()
    out["lr"] = np.abs(ais.left_to_right(ma, docs, R=2000, seed=seed).log_lik - ea).max()
    out["lr_two_tokens"] = np.abs(
        ais.left_to_right(ma, [d[:2] for d in docs], R=20000, seed=seed).log_lik
        - E(ma, [d[:2] for d in docs])
    ).max()
    ab = ais.ratio_ais(ma, mb, docs, 10000, S=S, seed=seed, stream=5).log_lik
    bc = ais.ratio_ais(mb, mc, docs, 10000, S=S, seed=seed, stream=6).log_lik
    ac = ais.ratio_ais(ma, mc, docs, 10000, S=S, seed=seed, stream=7).log_lik
    out["additivity"] = np.abs(ab + bc - ac).max()
    mp = ais.TopicModel(0.9 * ma.phi + 0.1 * mc.phi, ma.alpha)
    one = ais.ratio_ais(ma, mp, docs, 10000, S=1, seed=seed, stream=8).log_lik
    many = ais.ratio_ais(ma, mp, docs, 10000, S=100, seed=seed, stream=9).log_lik
    out["s1_vs_s100"] = np.abs(one - many).max()
    w = docs[0]
    obs = np.arange(len(w)) < len(w) // 2
    exact = (E(ma, [w])[0] - E(ma, [w[obs]])[0]) - (E(mb, [w])[0] - E(mb, [w[obs]])[0])
    est, _ = ais.ratio_ais_completion(ma, mb, w, obs, n_temps, S=S, seed=seed)
    out["completion"] = abs(est - exact)
    return {k: float(v) for k, v in out.items()}


def build(
    ledger: Ledger,
    exact: dict,
    perturbed: dict,
    symasym: dict,
    ntemps: pd.DataFrame | None,
    iteration: dict,
    stats: dict,
    kinds: dict,
    opt_iter: int,
) -> Ledger:
    """All C5.x rows. ``perturbed``/``symasym``/``iteration``/``stats`` map dataset name
    to raw frames; ``kinds`` maps dataset name to data_kind."""
    syn = {"dataset": "tiny synthetic documents (exact DP)", "data_kind": "synthetic"}
    tol = 0.1
    for est in ("std_ais", "ratio_convex", "ratio_geometric", "iteration_ais"):
        ledger.compare(
            f"C5.1-{est}",
            where="Sec 5.2-5.3 (P5.10)",
            statement=f"{est} converges to the exact log P(w|Phi,alpha) (or log-ratio) by DP",
            paper_value=0.0,
            our_value=exact[est],
            how="abs",
            tolerance=tol,
            note="max |estimate - exact| over 4 docs of 8 tokens, K=3, 5000 temps, S=20",
            **syn,
        )
    ledger.compare(
        "C5.1-lr",
        where="Sec 5.2 (P5.10)",
        statement="left-to-right converges to the exact log P(w|Phi,alpha)",
        paper_value=0.0,
        our_value=exact["lr"],
        how="abs",
        tolerance=tol,
        note=f"R=2000 particles; Wallach's LR (one resampling sweep per position) is exact "
        f"for N<=2 (max error there {exact['lr_two_tokens']:.3g}) but not consistent in R "
        "for longer documents (Buntine 2009); the residual is a bias, not MC noise",
        **syn,
    )
    ledger.compare(
        "C5.11",
        where="Sec 5.2.1 fn 6",
        statement="S=1 and S=100 give essentially the same ratio-AIS answer at 10,000 temps",
        paper_value=0.0,
        our_value=exact["s1_vs_s100"],
        how="abs",
        tolerance=0.05,
        note="max |S=1 - S=100| log-ratio over 4 docs; models: learned vs 10% mixed topics",
        **syn,
    )
    ledger.compare(
        "C5.12",
        where="Sec 5.2.1",
        statement="ratio-AIS additivity (a-b)+(b-c) = (a-c) when converged",
        paper_value=0.0,
        our_value=exact["additivity"],
        how="abs",
        tolerance=0.1,
        note="max over 4 docs, 10,000 temps, S=20",
        **syn,
    )
    ledger.compare(
        "C5.13",
        where="Sec 5.2.3, Eq. 5.37",
        statement="completion ratio = full-document ratio x reciprocal observed-part ratio",
        paper_value=0.0,
        our_value=exact["completion"],
        how="abs",
        tolerance=0.1,
        note="|ratio-AIS completion estimate - exact DP completion ratio|, one 8-token doc",
        **syn,
    )

    for ds, df in perturbed.items():
        kw = {"dataset": ds, "data_kind": kinds[ds]}
        ch = df[df.regime == "cheap"]
        ex = df[df.regime == "expensive"]
        v = doc_variance(ch)
        base_var = min(v["lr"], v["std_ais"])
        rat_var = max(v[m] for m in ("geo", "geo_rev", "convex", "convex_rev"))
        ledger.compare(
            "C5.2",
            where="Table 5.2 (top)",
            statement="ratio-AIS per-document perplexity-ratio variance is orders of magnitude "
            "below LR and standard AIS (cheap regime)",
            paper_value=100.0,
            our_value=float(base_var / rat_var) if rat_var > 0 else float("inf"),
            how="ge",
            note=f"min(LR, Std AIS) variance / max ratio-AIS variance; LR {v['lr']:.3g}, "
            f"Std {v['std_ais']:.3g}, ratio-AIS max {rat_var:.3g}",
            **kw,
        )
        pc = pct_prefer(ch)
        ok = min(pc[m] for m in ("geo", "geo_rev", "convex", "convex_rev")) >= max(
            pc["lr"], pc["std_ais"]
        )
        ledger.compare(
            "C5.3",
            where="Table 5.1",
            statement="ratio-AIS prefers the learned topics on more documents than LR and "
            "standard AIS (cheap regime)",
            paper_value="ratio-AIS % >= LR %, Std AIS %",
            our_value=bool(ok),
            how="true",
            note="; ".join(f"{m} {pc[m]:.1f}%" for m in pc.index),
            **kw,
        )
        diffs = {}
        for name, g in (("cheap", ch), ("expensive", ex)):
            f = g[(g.method == "geo") & (g.run == 0)].sort_values("doc")["logratio"].to_numpy()
            r = g[(g.method == "geo_rev") & (g.run == 0)].sort_values("doc")["logratio"].to_numpy()
            diffs[name] = (np.mean(f - r), sps.ttest_rel(f, r).pvalue if len(f) > 2 else 1.0)
        ok = diffs["cheap"][1] < 0.05 and abs(diffs["expensive"][0]) < abs(diffs["cheap"][0])
        ledger.compare(
            "C5.4",
            where="Figs 5.4/5.5",
            statement="forward and reverse ratio-AIS disagree systematically when cheap and "
            "agree when expensive",
            paper_value="cheap: paired p < 0.05; |mean diff| expensive < cheap",
            our_value=bool(ok),
            how="true",
            note=f"geometric path, mean fwd-rev log-ratio: cheap {diffs['cheap'][0]:.4g} "
            f"(p={diffs['cheap'][1]:.2g}), expensive {diffs['expensive'][0]:.4g} "
            f"(p={diffs['expensive'][1]:.2g})",
            **kw,
        )
        cr = corpus_ratio(ex)
        four = [cr[m] for m in ("geo", "geo_rev", "convex", "convex_rev")]
        ledger.compare(
            "C5.6",
            where="Table 5.2 (bottom)",
            statement="expensive-regime corpus ratio identical across ratio-AIS paths and "
            "directions (NIPS 0.9897 in all four)",
            paper_value=0.0,
            our_value=float(max(four) - min(four)),
            how="abs",
            tolerance=1e-3,
            note="spread of the four corpus ratios: " + ", ".join(f"{x:.5f}" for x in four),
            **kw,
        )

    if ntemps is not None and len(ntemps):
        ds = ntemps.attrs.get("dataset", "nips")
        kw = {"dataset": ds, "data_kind": kinds.get(ds, "synthetic")}
        nmin, nmax = ntemps.n_temps.min(), ntemps.n_temps.max()
        lo = ntemps[ntemps.n_temps == nmin].set_index("method")["mean"]
        hi = ntemps[ntemps.n_temps == nmax].set_index("method")
        ledger.compare(
            "C5.5a",
            where="Fig 5.6",
            statement="standard AIS underestimates the model difference at few temperatures",
            paper_value="Std AIS < ratio-AIS at the smallest n",
            our_value=bool(lo["std_ais"] < min(lo["geo"], lo["geo_rev"])),
            how="true",
            note=f"n={nmin}: Std {lo['std_ais']:.4g}, geo {lo['geo']:.4g}, rev {lo['geo_rev']:.4g}",
            **kw,
        )
        spread = float(hi["mean"].max() - hi["mean"].min())
        se = float(np.sqrt((hi["sd"] ** 2 / hi["S"]).sum()))
        ledger.compare(
            "C5.5b",
            where="Fig 5.6",
            statement="at many temperatures both ratio-AIS directions and standard AIS agree",
            paper_value=0.0,
            our_value=spread,
            how="abs",
            tolerance=max(3 * se, 0.05),
            note=f"spread of the three mean estimates at n={nmax} (document: >= 20,000); "
            f"tolerance = max(3 x combined SE, 0.05)",
            **kw,
        )

    for ds, df in symasym.items():
        kw = {"dataset": ds, "data_kind": kinds[ds]}
        ch = df[df.regime == "cheap"]
        ref = df[df.regime == "lr_long"].set_index("doc")["perp_ratio"]
        corr = {}
        for m, g in ch[ch.run == 0].groupby("method"):
            x = g.set_index("doc")["perp_ratio"].reindex(ref.index)
            corr[m] = float(np.corrcoef(x, ref)[0, 1]) if x.std() > 0 and ref.std() > 0 else 0.0
        best_ratio = max(corr[m] for m in ("geo", "geo_rev", "convex", "convex_rev"))
        ledger.compare(
            "C5.7a",
            where="Table 5.3 (bottom)",
            statement="cheap ratio-AIS correlates better with a long LR run than cheap LR and "
            "standard AIS",
            paper_value="max ratio-AIS corr > LR corr, Std AIS corr",
            our_value=bool(best_ratio > max(corr["lr"], corr["std_ais"])),
            how="true",
            note="; ".join(f"{m} {c:.3f}" for m, c in corr.items()),
            **kw,
        )
        v = doc_variance(ch)
        ledger.compare(
            "C5.7b",
            where="Table 5.3 (top)",
            statement="ratio-AIS has 1-2 orders of magnitude lower variance, convex path lowest",
            paper_value="convex variance < geometric variance < LR, Std AIS",
            our_value=bool(
                min(v["convex"], v["convex_rev"]) <= min(v["geo"], v["geo_rev"])
                and max(v[m] for m in ("geo", "geo_rev", "convex", "convex_rev"))
                < min(v["lr"], v["std_ais"])
            ),
            how="true",
            note="; ".join(f"{m} {v[m]:.3g}" for m in v.index),
            **kw,
        )
        cr = corpus_ratio(ch)
        ledger.compare(
            "C5.7c",
            where="Table 5.3 (middle)",
            statement="forward direction biased towards 'no difference' (corpus ratio closer to "
            "1 than reverse); bias visible as a direction disagreement",
            paper_value="forward ratio > reverse ratio (both paths)",
            our_value=bool(cr["geo"] > cr["geo_rev"] and cr["convex"] > cr["convex_rev"]),
            how="true",
            note="; ".join(f"{m} {cr[m]:.4f}" for m in cr.index),
            **kw,
        )

    for ds, df in iteration.items():
        kw = {"dataset": ds, "data_kind": kinds[ds]}
        n_small = df.n_temps.min()
        n_big = df.n_temps.max()
        mean = df.groupby(["method", "n_temps", "iteration"])["loglik"].mean()
        iters = sorted(df.iteration.unique())
        late = iters[len(iters) // 2 :]
        it_small = mean.loc[("iteration_ais", n_small)].loc[late].mean()
        base_big = max(mean.loc[(m, n_big)].loc[late].mean() for m in ("std_ais", "lr"))
        ledger.compare(
            "C5.8a",
            where="Figs 5.7/5.8",
            statement="iteration-AIS with n temperatures gives held-out LL >= standard AIS and "
            "LR with 10n",
            paper_value=0.0,
            our_value=float(it_small - base_big),
            how="ge",
            tolerance=0.0,
            note=f"mean LL per doc over the later half of the snapshots; n={n_small}, 10n={n_big}; "
            "S=1: the per-link AIS bias adds up over the snapshot links when consecutive "
            "snapshots (single CGS samples) keep moving",
            **kw,
        )
        var = df.groupby(["method", "n_temps", "iteration", "doc"])["loglik"].var(ddof=1)
        vm = var.groupby(["method", "n_temps"]).mean()
        ledger.compare(
            "C5.8b",
            where="Figs 5.9/5.10",
            statement="iteration-AIS has lower run-to-run variance than the baselines",
            paper_value="iteration-AIS variance < Std AIS, LR (same n)",
            our_value=bool(
                all(
                    vm[("iteration_ais", n)] < min(vm[("std_ais", n)], vm[("lr", n)])
                    for n in (n_small, n_big)
                )
            ),
            how="true",
            note="; ".join(f"{m}@{n} {x:.3g}" for (m, n), x in vm.items()),
            **kw,
        )

        def dip(m, n, mean=mean):
            s = mean.loc[(m, n)]
            return float(s.max() - s.iloc[-1])

        d_it = dip("iteration_ais", n_small)
        d_base = {m: dip(m, n_small) for m in ("std_ais", "lr")}
        ledger.compare(
            "C5.9",
            where="Figs 5.7/5.8",
            statement="baselines dip at late iterations, iteration-AIS does not",
            paper_value="dip(iteration-AIS) < dip(Std AIS), dip(LR)",
            our_value=bool(d_it < min(d_base.values())),
            how="true",
            note=f"dip = max - final mean LL at n={n_small}: iteration-AIS {d_it:.3g}, "
            + ", ".join(f"{m} {x:.3g}" for m, x in d_base.items()),
            **kw,
        )

    for ds, st in stats.items():
        kw = {"dataset": ds, "data_kind": kinds[ds]}
        ent = st.set_index("iteration")["entropy"]
        d = ent.diff().abs()
        at = d.get(opt_iter, np.nan)
        typical = d[(d.index > opt_iter - 50) & (d.index < opt_iter)].median()
        jump = float(at / typical) if typical and typical > 0 else float("inf")
        ledger.compare(
            "C5.10",
            where="Fig 5.11",
            statement="topic entropy jumps at the first hyperparameter optimisation "
            f"(iteration {opt_iter} under burn-in/interval)",
            paper_value=5.0,
            our_value=jump,
            how="ge",
            note="|entropy change| at the first optimisation / median |change| in the 50 "
            "iterations before (threshold 5 is ours)",
            **kw,
        )
    return ledger
