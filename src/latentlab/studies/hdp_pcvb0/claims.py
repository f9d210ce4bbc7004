"""Claims C1–C16 of seed 001 (digest §6) computed from the study's results.

Tolerances are config values (``hdp_pcvb0.claims``) stated in each row; verdicts come from
:meth:`Ledger.compare`. The document gives no numeric perplexities, accuracies or MAPs:
orderings are checked as orderings, axis ranges as ranges, the Fig 2 maxima as values.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import gamma as gamma_fn

from latentlab.claims.ledger import Ledger

DOCUMENT = "Sato, Kurihara & Nakagawa, KDD 2012 (seed 001)"
FIG2_MAX = {"KOS": 0.1532, "WSJ": 0.0610, "20news": 0.0309, "Enron": 0.0176, "7conf": 0.0122}
FIG4_RANGE = {"20news": (0.65, 0.85), "7conf": (0.60, 0.72)}
FIG5_RANGE = {"AstroPh": (0.85, 0.97), "EnronNet": (0.80, 0.94)}
PRIVATE = {
    "WSJ": "WSJ text is LDC-licensed and the document cites no source",
    "7conf": "the 7-conference abstracts of Deng et al. (KDD 2011) are not distributed",
    "Enron": "the UCI Enron text subset is not in the data mirror (download target only in "
    "the paper config)",
}
DEFAULT_TOL = {
    "win_fraction": 0.75,  # "basically outperformed": at least 75% of cells
    "similar_rel": 0.03,  # "similar" perplexities: relative difference of means
    "similar_abs": 0.03,  # "similar" accuracies / MAPs: absolute difference of means
    "init_rel": 0.02,  # C2: spread of final perplexity over initialisations
    "converge_rel": 0.01,  # C8: within 1% of the final perplexity
    "fig2_rel": 0.5,  # C4: maxima within a factor ~2 of the quoted ones
    "speedup": 2.0,  # C15: the target (PCVB0 >= 2x faster than CVB per iteration)
    "entropy_iteration": 5,  # C10: compare mean entropy of q at this iteration
}


def _kind(spec):
    return spec.get("data_kind", "synthetic")


def _pairs():
    return [("pcvb0", "pcvb"), ("cvb0", "cvb")]


def _iters_to(trace, rel):
    final = trace[-1]
    ok = np.flatnonzero(np.abs(np.asarray(trace) - final) <= rel * final)
    # first iteration after which it stays within the band
    last_bad = -1
    for i in range(len(trace)):
        if abs(trace[i] - final) > rel * final:
            last_bad = i
    return int(last_bad + 2) if len(ok) else len(trace)


def perplexity_claims(led: Ledger, results: list[dict], spec: dict, tol: dict) -> None:
    ds = results[0]["dataset"]
    kind = _kind(spec)
    paper = spec.get("paper", "")
    df = pd.DataFrame(
        [
            {"config": r["config"], "method": r["method"], "prior": r["prior"], **run}
            for r in results
            for run in r["runs"]
        ]
    )
    mean = df.groupby(["method", "prior", "T"])["final_perplexity"].mean()
    Ts = sorted(df["T"].unique())
    priors = sorted(df.prior.unique())
    # C5
    wins, cells = [], []
    for T in Ts:
        for p in priors:
            for z, s in _pairs():
                if (z, p, T) in mean and (s, p, T) in mean:
                    wins.append(mean[(z, p, T)] < mean[(s, p, T)])
                    cells.append(
                        f"{z}<{s} {p} T={T}: {mean[(z, p, T)]:.1f} vs {mean[(s, p, T)]:.1f}"
                    )
    led.compare(
        "C5",
        where="Fig 3 left, Sec 6.3",
        statement="CVB0 and PCVB0 give lower test perplexity than CVB and PCVB "
        f"(fraction of (T, prior, pair) cells won; reproduced if >= {tol['win_fraction']})",
        paper_value=1.0,
        our_value=float(np.mean(wins)),
        how="ge",
        tolerance=1.0 - tol["win_fraction"],
        dataset=ds,
        data_kind=kind,
        note="; ".join(cells),
    )
    # C6
    for cid, a, b in (("C6a", "pcvb", "cvb"), ("C6b", "pcvb0", "cvb0")):
        d = [
            abs(mean[(a, p, T)] - mean[(b, p, T)]) / mean[(b, p, T)]
            for T in Ts
            for p in priors
            if (a, p, T) in mean and (b, p, T) in mean
        ]
        led.compare(
            cid,
            where="Fig 3, Sec 6.3",
            statement=f"{a.upper()} ≈ {b.upper()} in perplexity (max relative difference "
            "of run means over T and prior)",
            paper_value=0.0,
            our_value=float(max(d)),
            how="abs",
            tolerance=tol["similar_rel"],
            dataset=ds,
            data_kind=kind,
        )
    # C7
    d = [
        abs(mean[(m, "AS", T)] - mean[(m, "AA", T)]) / mean[(m, "AA", T)]
        for m in ("cvb", "cvb0", "pcvb", "pcvb0")
        for T in Ts
        if (m, "AS", T) in mean and (m, "AA", T) in mean
    ]
    if d:
        led.compare(
            "C7",
            where="Sec 6.3, Sec 7",
            statement="AS ≈ AA (max relative difference of run means over method and T)",
            paper_value=0.0,
            our_value=float(max(d)),
            how="abs",
            tolerance=tol["similar_rel"],
            dataset=ds,
            data_kind=kind,
        )
    # C8, C9, C10 from the traces at trace_T
    tT = results[0]["trace_T"]
    tr = {
        (r["method"], r["prior"]): np.mean(
            [run["trace"] for run in r["runs"] if run["T"] == tT], axis=0
        )
        for r in results
    }
    en = {
        (r["method"], r["prior"]): np.mean(
            [run["entropy"] for run in r["runs"] if run["T"] == tT], axis=0
        )
        for r in results
    }
    its = {k: _iters_to(v, tol["converge_rel"]) for k, v in tr.items()}
    c8, c9, c10, notes8, notes10 = [], [], [], [], []
    e_it = min(int(tol["entropy_iteration"]), results[0]["iterations"]) - 1
    for p in priors:
        for z, s in (("cvb0", "cvb"), ("pcvb0", "pcvb")):
            if (z, p) in its and (s, p) in its:
                c8.append(its[(s, p)] < its[(z, p)])
                notes8.append(f"{s} {p}: {its[(s, p)]} it vs {z} {p}: {its[(z, p)]} it")
                c9.append(c8[-1] and tr[(s, p)][-1] > tr[(z, p)][-1])
                c10.append(en[(s, p)][e_it] < en[(z, p)][e_it])
                notes10.append(
                    f"{s} {p}: {en[(s, p)][e_it]:.3f} vs {z} {p}: {en[(z, p)][e_it]:.3f}"
                )
    led.compare(
        "C8",
        where="Fig 3 right, Sec 6.3, 6.6",
        statement="CVB and PCVB converge in fewer iterations than CVB0 and PCVB0 "
        f"(iterations to stay within {tol['converge_rel']:.0%} of the final perplexity, "
        f"T = {tT}; all pairs)",
        paper_value="second order faster",
        our_value=bool(c8) and all(c8),
        how="true",
        dataset=ds,
        data_kind=kind,
        note="; ".join(notes8),
    )
    led.compare(
        "C9",
        where="Sec 6.6",
        statement="second order converges faster to worse optima (C8 and higher final "
        "perplexity, all pairs)",
        paper_value="faster but worse",
        our_value=bool(c9) and all(c9),
        how="true",
        dataset=ds,
        data_kind=kind,
    )
    led.compare(
        "C10",
        where="Sec 6.6",
        statement=f"the exp(−V/x²) factor makes q(z) sharper early: mean entropy of q at "
        f"iteration {e_it + 1} lower for CVB/PCVB than CVB0/PCVB0 (all pairs)",
        paper_value="sharper early",
        our_value=bool(c10) and all(c10),
        how="true",
        dataset=ds,
        data_kind=kind,
        note="; ".join(notes10),
    )
    # C13
    eff = df[df.method == "pcvb0"].groupby("T")["effective_topics"].mean()
    Tmin, Tmax = min(Ts), max(Ts)
    ok = bool(eff[Tmax] < Tmax) and bool(len(Ts) == 1 or eff[Tmax] / eff[Tmin] < Tmax / Tmin)
    truth = results[0].get("truth")
    led.compare(
        "C13",
        where="Sec 5.3",
        statement="PCVB0 uses fewer effective topics (E[n_k] >= 1) than T, growing "
        "sublinearly in T",
        paper_value="K_eff < T",
        our_value=ok,
        how="true",
        dataset=ds,
        data_kind=kind,
        note=", ".join(f"T={t}: {eff[t]:.1f}" for t in eff.index)
        + (f"; true topics with π > 1e-3: {truth}" if truth else ""),
    )
    # C16
    c16 = [
        mean[("pcvb0", p, Tmax)] <= mean[("cvb0", p, Tmax)] * (1 + tol["similar_rel"])
        and mean[("pcvb0", p, Tmax)] < mean[("cvb", p, Tmax)]
        for p in priors
        if ("pcvb0", p, Tmax) in mean and ("cvb0", p, Tmax) in mean and ("cvb", p, Tmax) in mean
    ]
    led.compare(
        "C16",
        where="Abstract, Fig 1",
        statement=f"PCVB0 predicts as well as CVB0 (within {tol['similar_rel']:.0%}) and "
        f"better than CVB (T = {Tmax})",
        paper_value="PCVB0(+), CVB(−)",
        our_value=bool(c16) and all(c16),
        how="true",
        dataset=ds,
        data_kind=kind,
    )
    # C4 (Fig 2)
    cv = [
        np.max(run["alpha_pi_E"])
        for r in results
        if r["config"] == "cvb_AA"
        for run in r["runs"]
        if "alpha_pi_E" in run
    ]
    pc = [
        np.max(run["alpha_pi_E"])
        for r in results
        if r["config"] == "pcvb0_AA"
        for run in r["runs"]
        if "alpha_pi_E" in run
    ]
    if cv:
        led.compare(
            "C4a",
            where="Fig 2, Sec 5.1",
            statement=f"every E[α0π_k] under CVB AA (T = {tT}) is below 1, the premise of "
            "Eq 20 (max over k and runs)",
            paper_value=1.0,
            our_value=float(max(cv)),
            how="le",
            tolerance=0.0,
            dataset=ds,
            data_kind=kind,
            note=f"PCVB0 AA max α0E[π_k] = {max(pc):.4f}" if pc else "",
        )
        if paper in FIG2_MAX:
            led.compare(
                "C4b",
                where="Fig 2 caption",
                statement=f"maximum E[α0π_k] under CVB AA on {paper} (T = {tT}; paper: T = 300)",
                paper_value=FIG2_MAX[paper],
                our_value=float(np.mean(cv)),
                how="rel",
                tolerance=tol["fig2_rel"],
                dataset=ds,
                data_kind=kind,
                note="mean over runs of the per-run maximum",
            )


def _metric_claims(led, results, spec, tol, key, k, cid, where, what, ranges):
    ds = results[0]["dataset"]
    kind = _kind(spec)
    rows = []
    for r in results:
        m, p = r["config"].split("_")
        for run in r["runs"]:
            v = run[key][k] if k is not None else run[key]
            rows.append({"method": m, "prior": p, "T": run["T"], "v": v})
    df = pd.DataFrame(rows)
    mean = df.groupby(["method", "prior", "T"])["v"].mean()
    Ts, priors = sorted(df["T"].unique()), sorted(df.prior.unique())
    wins = [
        mean[(z, p, T)] > mean[(s, p, T)]
        for T in Ts
        for p in priors
        for z, s in _pairs()
        if (z, p, T) in mean and (s, p, T) in mean
    ]
    led.compare(
        f"{cid}a",
        where=where,
        statement=f"(P)CVB0 beats (P)CVB in {what} (fraction of (T, prior, pair) cells; "
        f"reproduced if >= {tol['win_fraction']})",
        paper_value=1.0,
        our_value=float(np.mean(wins)),
        how="ge",
        tolerance=1.0 - tol["win_fraction"],
        dataset=ds,
        data_kind=kind,
    )
    for sub, a, b in (("b", "pcvb", "cvb"), ("c", "pcvb0", "cvb0")):
        d = [
            abs(mean[(a, p, T)] - mean[(b, p, T)])
            for T in Ts
            for p in priors
            if (a, p, T) in mean and (b, p, T) in mean
        ]
        if d:
            led.compare(
                f"{cid}{sub}",
                where=where,
                statement=f"{a.upper()} ≈ {b.upper()} in {what} (max absolute difference "
                "of run means)",
                paper_value=0.0,
                our_value=float(max(d)),
                how="abs",
                tolerance=tol["similar_abs"],
                dataset=ds,
                data_kind=kind,
            )
    paper = spec.get("paper", "")
    if paper in ranges:
        lo, hi = ranges[paper]
        led.compare(
            f"{cid}d",
            where=where,
            statement=f"{what} of all configurations lies in the document's axis range "
            f"[{lo}, {hi}] for {paper} (mean over configurations and T)",
            paper_value=(lo + hi) / 2,
            our_value=float(mean.mean()),
            how="abs",
            tolerance=(hi - lo) / 2,
            dataset=ds,
            data_kind=kind,
            note=f"min {mean.min():.3f}, max {mean.max():.3f}",
        )


def build(params: dict, ppl, knn, links, init, gibbs, bench_csv, out) -> pd.DataFrame:
    tol = {**DEFAULT_TOL, **(params.get("claims", {}) or {})}
    specs = params.get("datasets", {})
    led = Ledger("hdp_pcvb0", DOCUMENT)
    by_ds: dict[str, list] = {}
    for p in ppl:
        r = json.loads(Path(p).read_text())
        by_ds.setdefault(r["dataset"], []).append(r)
    # C1, C15 (bench)
    b = pd.read_csv(bench_csv)
    bm = b[b.kind == "method"].set_index(["config", "T"])
    bench_ds = params.get("bench", {}).get("dataset", "")
    bkind = _kind(specs.get(bench_ds, {}))
    Tb = sorted(bm.index.get_level_values("T").unique())
    c1 = all(
        bm.loc[("pcvb0_AS", T), "state_mb"] < bm.loc[("cvb_AS", T), "state_mb"]
        and bm.loc[("pcvb0_AS", T), "state_mb"] < bm.loc[("pcvb_AS", T), "state_mb"]
        for T in Tb
    )
    led.compare(
        "C1",
        where="Abstract, Sec 1, 5.2",
        statement="PCVB0 keeps no variance counts: its state is smaller than PCVB's and "
        "CVB's at every bench T",
        paper_value="no variance counts",
        our_value=c1,
        how="true",
        dataset=bench_ds,
        data_kind=bkind,
        note="; ".join(
            f"T={T}: PCVB0 {bm.loc[('pcvb0_AS', T), 'state_mb']:.1f} MB, "
            f"PCVB {bm.loc[('pcvb_AS', T), 'state_mb']:.1f} MB, CVB "
            f"{bm.loc[('cvb_AS', T), 'state_mb']:.1f} MB"
            for T in Tb
        )
        + "; peak RSS above baseline: "
        + ", ".join(
            f"{c}={bm.loc[(c, max(Tb)), 'rss_above_baseline_mb']:.0f} MB"
            for c in ("pcvb0_AS", "cvb_AS")
        ),
    )
    Tm = max(Tb)
    if "alloc_peak_mb" in bm.columns:
        cs = ("pcvb0_AA", "pcvb_AA", "cvb0_AA", "cvb_AA")
        al = {c: bm.loc[(c, Tm), "alloc_peak_mb"] for c in cs}
        led.compare(
            "C1b",
            where="Fig 1 (Memory usage)",
            statement="PCVB0 allocates less memory than CVB (tracemalloc peak of numpy buffers "
            f"over initialisation and the bench iterations, AA, T = {Tm})",
            paper_value="small memory",
            our_value=bool(al["pcvb0_AA"] < al["cvb_AA"]),
            how="true",
            dataset=bench_ds,
            data_kind=bkind,
            note=", ".join(f"{c}: {v:.1f} MB" for c, v in al.items()),
        )
    sp = bm.loc[("cvb_AA", Tm), "sec_per_iter"] / bm.loc[("pcvb0_AA", Tm), "sec_per_iter"]
    led.compare(
        "C15a",
        where="Fig 1, Sec 7",
        statement=f"PCVB0 is cheaper per iteration than CVB (AA, T = {Tm}; speed-up "
        f"CVB/PCVB0; target >= {tol['speedup']} from the study brief)",
        paper_value=tol["speedup"],
        our_value=float(sp),
        how="ge",
        tolerance=0.0,
        dataset=bench_ds,
        data_kind=bkind,
        note="CVB time includes the Teh et al. hyperparameter machinery",
    )
    loc = bm.groupby("method")["loc"].first()
    led.compare(
        "C15b",
        where="Fig 1",
        statement="PCVB0 is easier to implement: fewer logical lines in its inference "
        "path than CVB",
        paper_value="Implementation — Easy",
        our_value=bool(loc["pcvb0"] < loc["cvb"]),
        how="true",
        dataset=bench_ds,
        data_kind=bkind,
        note=", ".join(f"{m}: {v}" for m, v in loc.items()),
    )
    # C2
    ini = json.loads(Path(init).read_text())
    spread = []
    for c in dict.fromkeys(r["config"] for r in ini["runs"]):
        v = [r["perplexity"] for r in ini["runs"] if r["config"] == c]
        spread.append((max(v) - min(v)) / min(v))
    led.compare(
        "C2",
        where="Sec 1, 5, 7",
        statement="PCVB0 needs no hyperparameter setting: final perplexity from initial "
        "α0, β0, γ0 scaled ×0.1/×1/×10 (max relative spread)",
        paper_value=0.0,
        our_value=float(max(spread)),
        how="abs",
        tolerance=tol["init_rel"],
        dataset=ini["dataset"],
        data_kind=_kind(specs.get(ini["dataset"], {})),
        note="; ".join(
            f"{r['config']} ×{r['factor']}: ppl {r['perplexity']:.2f}, α0 "
            f"{r['alpha0']:.3g}, β0 {r['beta0']:.3g}, γ0 {r['gamma0']:.3g}"
            for r in ini["runs"]
        ),
    )
    # C3
    led.compare(
        "C3a",
        where="Fig 2 caption, Eq 20",
        statement="Γ(1 + 0.05) = 0.9735",
        paper_value=0.9735,
        our_value=float(gamma_fn(1.05)),
        how="abs",
        tolerance=5e-5,
        dataset="scipy",
        data_kind="none",
    )
    led.compare(
        "C3b",
        where="Fig 2 caption, Eq 20",
        statement="Γ(0.05) = 19.47 (vs 1/0.05 = 20)",
        paper_value=19.47,
        our_value=float(gamma_fn(0.05)),
        how="abs",
        tolerance=5e-3,
        dataset="scipy",
        data_kind="none",
    )
    a = np.linspace(0.01, 1.0, 100)
    bounds = bool(
        np.all(gamma_fn(a) <= 1 / a + 1e-12)
        and np.all(gamma_fn(a + 1) <= 1 + 1e-12)
        and all(np.all(gamma_fn(n + a) >= gamma_fn(n)) for n in range(2, 21))
    )
    led.compare(
        "C3c",
        where="Sec 5.2",
        statement="Γ(α) ≤ 1/α, Γ(α+1) ≤ 1, Γ(n+α) ≥ Γ(n) for α ∈ (0, 1], n = 2..20",
        paper_value="bounds hold",
        our_value=bounds,
        how="true",
        dataset="scipy",
        data_kind="none",
    )
    # C4–C10, C13, C16 per perplexity dataset
    for ds, res in by_ds.items():
        perplexity_claims(led, res, specs.get(ds, {}), tol)
    for name in ("WSJ", "Enron", "7conf"):
        led.not_testable(
            "C4b",
            where="Fig 2 caption",
            statement=f"maximum E[α0π_k] under CVB AA on {name}",
            paper_value=FIG2_MAX[name],
            reason=PRIVATE[name],
            dataset=name,
        )
        led.not_testable(
            "C5",
            where="Fig 3",
            statement=f"perplexity orderings on {name}",
            paper_value="(P)CVB0 < (P)CVB",
            reason=PRIVATE[name],
            dataset=name,
        )
    # C11 (Fig 4), C12 (Fig 5)
    for group, cid, where, what, key, k, ranges in (
        (knn, "C11", "Fig 4, Sec 6.4", "7-NN accuracy", "accuracy", "7", FIG4_RANGE),
        (links, "C12", "Fig 5, Sec 6.5", "link-prediction MAP", "map", None, FIG5_RANGE),
    ):
        per: dict[str, list] = {}
        for p in group:
            r = json.loads(Path(p).read_text())
            per.setdefault(r["dataset"], []).append(r)
        for ds, res in per.items():
            _metric_claims(led, res, specs.get(ds, {}), tol, key, k, cid, where, what, ranges)
    led.not_testable(
        "C11a",
        where="Fig 4 (7conf panel)",
        statement="7-NN accuracy on 7conf",
        paper_value="0.60–0.72 axis",
        reason=PRIVATE["7conf"],
        dataset="7conf",
    )
    # C14
    g = json.loads(Path(gibbs).read_text())
    led.compare(
        "C14",
        where="Sec 5.3",
        statement="Σ_d I(n_dk ≥ 1) ≤ m_·k (table-count lower bound) in a collapsed Gibbs "
        "run of Eqs 13–16, every iteration",
        paper_value="lower bound",
        our_value=bool(g["table_bound_all_iterations"]),
        how="true",
        dataset=g["dataset"],
        data_kind=_kind(specs.get(g["dataset"], {})),
        note=f"tables {g['tables_total']} >= doc-topic pairs {g['doc_topic_pairs']}; "
        f"Gibbs perplexity {g['perplexity']:.2f} at T={g['T']}",
    )
    led.write(out)
    return led.frame()
