"""claims.csv for chapter 4 (digest Sec. 8, C4.1-C4.13): verdicts computed by
``Ledger.compare`` from the study's CSV outputs and from the exact checks re-run here."""

from __future__ import annotations

import numpy as np
import pandas as pd

from latentlab.claims.ledger import Ledger

DOC = "004_1d0e5f2e58b54e45"


def _exact_checks(seed: int) -> dict:
    """Re-run the exact checks of the test-suite on toy corpora (C4.10-C4.13)."""
    from latentlab.models.lda import SCVB0, MapLdaU, StepSize, kernels, reference

    from .data import synthetic_lda

    out = {}
    c, _ = synthetic_lda(6, 8, 3, 6, 0.5, 0.5, seed)
    K, W = 3, c.n_vocab
    ptr, w = c.to_tokens()
    dids = np.repeat(np.arange(c.n_docs), np.diff(ptr))
    rng = np.random.default_rng(seed)
    perm = rng.permutation(len(w))
    dids, wids = dids[perm].astype(np.int64), w[perm]
    doclen = c.doc_lengths().astype(float)
    C = float(c.n_tokens)
    nphi0 = C * rng.dirichlet(np.ones(W * K)).reshape(W, K)
    nth0 = doclen[:, None] * rng.dirichlet(np.ones(K), size=c.n_docs)
    sch = StepSize(1.0, 10.0, 0.9)
    rho = sch(np.arange(1, len(w) + 1))
    nth, nphi, nz = nth0.copy(), nphi0.copy(), nphi0.sum(0)
    kernels.scvb0_token_stream(
        dids,
        wids,
        doclen,
        nth,
        nphi,
        nz,
        np.full(K, 0.1),
        0.01,
        W * 0.01,
        C,
        rho,
        sch.s,
        sch.tau,
        sch.kappa,
        np.zeros(c.n_docs, dtype=np.int64),
    )
    em = reference.online_em_map_lda_u(
        dids, wids, doclen, nth0, nphi0, nphi0.sum(0), 1.1, 1.01, C, rho, sch
    )
    out["C4.10"] = max(
        float(np.max(np.abs(a - b))) for a, b in zip((nth, nphi, nz), em, strict=True)
    )
    big, _ = synthetic_lda(60, 40, 4, 30, 0.3, 0.1, seed + 1)
    m = SCVB0(4, minibatch=7, seed=seed).fit(big, n_epochs=3)
    out["C4.11"] = dict(
        min_stat=float(min(m.n_phi.min(), m.n_z.min())),
        rel_sum_err=float(abs(m.n_phi.sum() - big.n_tokens) / big.n_tokens),
    )
    errs = []
    for mm in (2, 5, 17):
        nt = 30 * rng.dirichlet(np.ones(5))
        g = rng.dirichlet(np.ones(5))
        rep = nt.copy()
        for _ in range(mm):
            rep = reference.theta_update(rep, g, 30.0, 0.137)
        errs.append(np.max(np.abs(reference.theta_update_clumped(nt, g, 30.0, 0.137, mm) - rep)))
    out["C4.12"] = float(max(errs))
    mp = MapLdaU(4, alpha=1.1, beta=1.01, seed=seed).initialize(big)
    obj = [mp.objective()]
    for _ in range(50):
        mp.step()
        obj.append(mp.objective())
    out["C4.13"] = float(np.min(np.diff(obj)) / abs(obj[-1]))
    return out


def _ll_at(df: pd.DataFrame, method: str, col: str, x: float) -> float:
    """Held-out LL of ``method`` at the last checkpoint with ``col`` <= x (-inf if none)."""
    s = df[(df.method == method) & (df[col] <= x)]
    return float(s.heldout_ll.iloc[-1]) if len(s) else -np.inf


def build(p: dict, inputs: dict, seed: int) -> Ledger:
    L = Ledger("scvb0", DOC)
    # ---- Figs 4.8-4.10
    f8 = pd.read_csv(inputs["fig4_8"])
    # E - Var = sum gamma^2 > 0: computed directly, since in floating point 1 - gamma
    # rounds to 1 for the tiny gammas Beta(0.1, 0.1) produces and Var == E to the last bit
    gap = f8["mean_minus_variance"] if "mean_minus_variance" in f8 else f8["mean"] - f8.variance
    L.compare(
        "C4.1",
        where="Fig. 4.8",
        statement="Var[n_i] < E[n_i] for every i (gamma ~ Beta(0.1, 0.1)); checked as "
        "E - Var = sum gamma^2 > 0",
        paper_value="Var < E",
        our_value=bool((gap > 0).all()),
        how="true",
        dataset="Beta(0.1,0.1) draws",
        data_kind="synthetic",
    )
    f9 = pd.read_csv(inputs["fig4_9"])
    avg = f9.chebyshev_bound_avg.to_numpy()
    n = len(avg)
    dec = bool(np.all(np.diff(avg[n // 10 :]) <= 1e-12) and avg[-1] < avg[n // 10])
    L.compare(
        "C4.2",
        where="Fig. 4.9",
        statement="Chebyshev bound Var/(0.1 E)^2 decays to 0 "
        "(averaged over repeats, monotone after the first 10% of i)",
        paper_value="decays to 0",
        our_value=dec,
        how="true",
        dataset="Beta(0.1,0.1) draws",
        data_kind="synthetic",
        note=f"bound at i={n}: {avg[-1]:.4g}",
    )
    f10 = pd.read_csv(inputs["fig4_10"])
    big = f10[f10.n_words > 10]
    small = f10[f10.n_words <= 5]
    large = f10[f10.n_words >= f10.n_words.max() / 2]
    L.compare(
        "C4.3",
        where="Fig. 4.10",
        statement="both approximations have mean L1 error "
        "< 0.01 for more than ~10 words (vs exact expectation)",
        paper_value=0.01,
        our_value=float(max(big.cvb0_err_exact.max(), big.cvb_err_exact.max())),
        how="le",
        dataset="Beta(0.1,0.1) draws",
        data_kind="synthetic",
        note="threshold 0.01 is the digest's",
    )
    L.compare(
        "C4.3b",
        where="Fig. 4.10",
        statement="with few words (<= 5) CVB0 is more accurate than CVB",
        paper_value="CVB0 < CVB",
        our_value=bool((small.cvb0_err_exact < small.cvb_err_exact).all()),
        how="true",
        dataset="Beta(0.1,0.1) draws",
        data_kind="synthetic",
    )
    L.compare(
        "C4.3c",
        where="Fig. 4.10",
        statement="with many words CVB is more accurate than CVB0 (log-log panel)",
        paper_value="CVB < CVB0",
        our_value=bool((large.cvb_err_exact < large.cvb0_err_exact).all()),
        how="true",
        dataset="Beta(0.1,0.1) draws",
        data_kind="synthetic",
        note="against the exact Poisson-binomial expectation (P4.8); vs the MC truth: "
        + str(bool((large.cvb_err_mc < large.cvb0_err_mc).all())),
    )
    # ---- Figs 4.3-4.6
    svbs = [
        m
        for m in __import__("latentlab.studies.scvb0.methods", fromlist=["x"]).method_names(p)
        if m != "SCVB0"
    ]
    seen = set()
    figs = [(f, p["curves"][f], f"curves_{f}") for f in ("fig4_3", "fig4_4", "fig4_5")]
    extra = p["curves"].get("extra_datasets", [])
    figs += [(f"fig4_3 ({d})", d, f"curves_extra_{d}") for d in extra]
    for fig, ds, key in figs:
        if ds in seen:  # one row per dataset; the figures share the curves
            continue
        seen.add(ds)
        df = pd.read_csv(inputs[key])
        kind = "synthetic" if p["datasets"][ds]["kind"] == "synthetic" else "substitute"
        sc = df[df.method == "SCVB0"]
        t_early = float(sc.train_seconds.iloc[max(0, len(sc) // 4)])
        ours = _ll_at(df, "SCVB0", "train_seconds", t_early) - max(
            _ll_at(df, m, "train_seconds", t_early) for m in svbs
        )
        L.compare(
            "C4.4",
            where=f"Fig. {fig[3:].replace('_', '.', 1)}",
            statement="at equal "
            "training time SCVB0 has higher held-out per-token LL than every SVB "
            "variant early in training (SCVB0 minus best SVB, nats/token)",
            paper_value=0.0,
            our_value=ours,
            how="ge",
            dataset=ds,
            data_kind=kind,
            note=f"compared at t = {t_early:.3g} s of training",
        )
        fin = sc.heldout_ll.iloc[-1] - max(df[df.method == m].heldout_ll.iloc[-1] for m in svbs)
        L.compare(
            "C4.6",
            where=f"Fig. {fig[3:].replace('_', '.', 1)}",
            statement="SCVB0's final "
            "held-out LL >= every SVB setting's (same number of documents processed)",
            paper_value=0.0,
            our_value=float(fin),
            how="ge",
            dataset=ds,
            data_kind=kind,
        )
    df = pd.read_csv(inputs["curves_fig4_6"])
    ds = p["curves"]["fig4_6"]
    kind = "synthetic" if p["datasets"][ds]["kind"] == "synthetic" else "substitute"
    piv = df.pivot_table(index="docs_seen", columns="method", values="heldout_ll")
    late = piv.iloc[len(piv) // 2 :]
    gap = float(max((late["SCVB0"] - late[m]).abs().mean() for m in svbs))
    L.compare(
        "C4.5",
        where="Fig. 4.6",
        statement="per documents processed, SCVB0 and SVB "
        "perform similarly (max over SVB variants of mean |LL gap| over the second "
        "half of the run, nats/token)",
        paper_value=0.0,
        our_value=gap,
        how="le",
        tolerance=float(p["claims"]["similar_ll_tol"]),
        dataset=ds,
        data_kind=kind,
        note="tolerance is ours: the thesis gives no number",
    )
    # ---- Fig 4.7
    f7 = pd.read_csv(inputs["fig4_7"])
    ds = p["fig4_7"]["dataset"]
    kind = "synthetic" if p["datasets"][ds]["kind"] == "synthetic" else "substitute"
    sc = f7[f7.method.str.startswith("SCVB0")]
    vbs = [m for m in f7.method.unique() if m.startswith("batch VB")]
    best_vb = max(f7[f7.method == m].heldout_ll.max() for m in vbs)
    L.compare(
        "C4.7",
        where="Fig. 4.7",
        statement="batch VB on a subset plateaus lower than "
        "SCVB0 on the full corpus (SCVB0 final minus best subset-VB, nats/token)",
        paper_value=0.0,
        our_value=float(sc.heldout_ll.iloc[-1] - best_vb),
        how="ge",
        dataset=ds,
        data_kind=kind,
    )

    def t_conv(s):
        ll = s.heldout_ll.to_numpy()
        tgt = ll[0] + 0.95 * (ll.max() - ll[0])
        return float(s.train_seconds.to_numpy()[np.argmax(ll >= tgt)])

    smallest = min(vbs, key=lambda m: int(f7[f7.method == m].N.iloc[0]))
    L.compare(
        "C4.7b",
        where="Fig. 4.7",
        statement="batch VB on the smallest subset converges "
        "faster (time to 95% of its own improvement) than SCVB0 (ratio VB/SCVB0)",
        paper_value=1.0,
        our_value=t_conv(f7[f7.method == smallest]) / t_conv(sc),
        how="le",
        dataset=ds,
        data_kind=kind,
        note=smallest,
    )
    # ---- Table 4.4 / C4.8, C4.9
    for tab, human in (
        ("table4_4", ("0.76 (SD 1.1) vs 1.6 (SD 1.2) errors/topic", "NIPS")),
        ("table4_5", ("2.1 (SD 1.0) vs 4.4 (SD 2.4) errors/topic", "NYT")),
    ):
        runs = pd.read_csv(inputs[f"{tab}_runs"])
        ds = p[tab]["dataset"]
        kind = "synthetic" if p["datasets"][ds]["kind"] == "synthetic" else "substitute"
        g = runs.groupby("method").mean(numeric_only=True)
        sv = [m for m in g.index if m != "SCVB0"][0]
        if tab == "table4_4":
            L.compare(
                "C4.8",
                where="Sec. 4.7 / Table 4.4",
                statement="in a fixed short budget "
                "SCVB0 processes ~5.5x more documents than SVB (3300 vs ~600 in 5 s); "
                "ratio of documents processed",
                paper_value=5.5,
                our_value=float(g.loc["SCVB0", "docs_processed"] / g.loc[sv, "docs_processed"]),
                how="ge",
                tolerance=0.5,
                dataset=ds,
                data_kind=kind,
                note=f"{p[tab]['seconds']} s budget, K={p[tab]['K']}, vs {sv}",
            )
        L.not_testable(
            "C4.9",
            where=tab.replace("table", "Table ").replace("_", "."),
            statement=f"human intruder-word errors per topic, SCVB0 vs SVB ({human[1]})",
            paper_value=human[0],
            reason="human-subject study; not replicable",
            dataset=human[1],
        )
        L.compare(
            f"C4.9-proxy-{tab[5:]}",
            where=tab.replace("table", "Table ").replace("_", "."),
            statement="proxy: after the same short budget SCVB0's topics are more "
            "coherent (mean UMass, SCVB0 minus SVB)",
            paper_value=0.0,
            our_value=float(g.loc["SCVB0", "umass_mean"] - g.loc[sv, "umass_mean"]),
            how="ge",
            dataset=ds,
            data_kind=kind,
            note="automatic coherence proxy for the human study, not the thesis's measure",
        )
    # ---- exact checks
    ex = _exact_checks(seed)
    L.compare(
        "C4.10",
        where="Eqs. 4.66-4.68",
        statement="SCVB0 with one-token minibatches "
        "and (alpha, beta) equals online EM for MAP_LDA_U with (alpha+1, beta+1) "
        "(max abs difference of the iterates)",
        paper_value=0.0,
        our_value=ex["C4.10"],
        how="le",
        tolerance=1e-8,
        dataset="toy LDA corpus",
        data_kind="synthetic",
    )
    L.compare(
        "C4.11",
        where="Thm 4.6.1 proof",
        statement="statistics stay >= 0 and sum to C (relative error of sum N^Phi)",
        paper_value=0.0,
        our_value=ex["C4.11"]["rel_sum_err"] if ex["C4.11"]["min_stat"] >= 0 else np.inf,
        how="le",
        tolerance=1e-9,
        dataset="toy LDA corpus",
        data_kind="synthetic",
        note=f"min statistic {ex['C4.11']['min_stat']:.3g}",
    )
    L.compare(
        "C4.12",
        where="Eq. 4.49",
        statement="clumped N^Theta update equals m repeated "
        "single updates with gamma fixed (max abs difference)",
        paper_value=0.0,
        our_value=ex["C4.12"],
        how="le",
        tolerance=1e-10,
        dataset="random statistics",
        data_kind="synthetic",
    )
    L.compare(
        "C4.13",
        where="App. B",
        statement="batch MAP_LDA_U (alpha, beta > 1) never "
        "decreases its objective Eq. B.1 (min relative step)",
        paper_value=0.0,
        our_value=ex["C4.13"],
        how="ge",
        tolerance=1e-12,
        dataset="toy LDA corpus",
        data_kind="synthetic",
    )
    # ---- demos
    f1 = pd.read_csv(inputs["fig4_1"])
    L.compare(
        "F4.1",
        where="Fig. 4.1",
        statement="Robbins-Monro on sin(w) + noise finds the root pi",
        paper_value=float(np.pi),
        our_value=float(f1.w.iloc[-1]),
        how="abs",
        tolerance=0.2,
        dataset="N(0,1) noise",
        data_kind="synthetic",
    )
    f2 = pd.read_csv(inputs["fig4_2"])
    L.compare(
        "F4.2",
        where="Fig. 4.2",
        statement="stochastic gradient ascent on sin(w) finds the maximum pi/2",
        paper_value=float(np.pi / 2),
        our_value=float(f2.w.iloc[-1]),
        how="abs",
        tolerance=0.2,
        dataset="N(0,1) noise",
        data_kind="synthetic",
    )
    return L
