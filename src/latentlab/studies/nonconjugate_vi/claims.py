"""claims.csv for nonconjugate_vi: digest §6 claims C1-C17 and Tables 1-2 next to the paper.

Verdicts come from :meth:`Ledger.compare`; exact identities (C1-C6, C17) are re-checked here on
small seeded problems (the unit tests check the same identities).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from latentlab.claims.ledger import Ledger
from latentlab.studies.nonconjugate_vi import DOCUMENT


def exact_checks(seed: int) -> dict:
    """Numerical values of the exact claims on small seeded problems."""
    from scipy.optimize import minimize

    from latentlab.models.ctm import vi as R
    from latentlab.models.logreg import vi as B
    from latentlab.models.nonconjugate import core, lm

    rng = np.random.default_rng(seed)
    out = {}
    # C1: Laplace VI = classical Laplace (independent BFGS MAP + analytic Hessian)
    n, d = 200, 6
    X = np.hstack([rng.standard_normal((n, d - 1)), np.ones((n, 1))])
    y = (rng.random(n) < 1 / (1 + np.exp(-X @ rng.standard_normal(d)))).astype(float)
    mu0, S0 = np.zeros(d), np.eye(d)
    P = np.eye(d)
    q = B.laplace(X, y, mu0, S0)
    res = minimize(
        lambda t: -B.blr_f(t, X, y, mu0, P),
        np.zeros(d),
        jac=lambda t: -B.blr_grad(t, X, y, mu0, P),
        method="BFGS",
        options={"gtol": 1e-11},
    )
    Vref = np.linalg.inv(-B.blr_hess(res.x, X, mu0, P))
    out["C1"] = float(max(np.abs(q.m - res.x).max(), np.abs(q.V - Vref).max()))

    # C2: Eq. 16 at theta_hat = argmax f maximised at (theta_hat, -H^-1): numerical maximisation
    def fgh(t):
        return (
            B.blr_f(t, X, y, mu0, P),
            B.blr_grad(t, X, y, mu0, P),  # noqa: E731
            B.blr_hess(t, X, mu0, P),
        )

    ql, fh, H = core.laplace_update(fgh, np.zeros(d))
    g = fgh(ql.m)[1]
    iu = np.tril_indices(d)

    def neg(pv):
        L = np.zeros((d, d))
        L[iu] = pv[d:]
        return -core.taylor_objective(ql.m, fh, g, H, pv[:d], L @ L.T + 1e-12 * np.eye(d))

    L0 = np.linalg.cholesky(ql.V)
    p0 = np.concatenate([ql.m + 0.05, (L0 * 1.1)[iu]])
    r2 = minimize(neg, p0, method="BFGS", options={"gtol": 1e-10})
    L = np.zeros((d, d))
    L[iu] = r2.x[d:]
    out["C2"] = float(max(np.abs(r2.x[:d] - ql.m).max(), np.abs(L @ L.T - ql.V).max()))
    # C3: theta_hat = previous m gives one Newton step
    m = np.full(d, 0.2)
    _, gm, Hm = fgh(m)
    qa = core.ahmed_xing_step(gm, Hm, m)
    out["C3"] = float(np.abs(qa.m - (m - np.linalg.solve(Hm, gm))).max())
    # C4/C5: CTM phi update and finite-difference checks (K = 3, 10), BLR third-derivative term
    errs = []
    for K in (3, 10):
        A = rng.standard_normal((K, K)) * 0.4
        pr = R.make_prior(rng.normal(size=K) * 0.3, A @ A.T + np.eye(K))
        nbar = rng.gamma(2.0, 3.0, K)
        N = nbar.sum()
        th = rng.normal(size=K)
        v = rng.gamma(1.0, 0.3, K)
        fd = _fd(lambda t: R.ctm_f(t, nbar, N, pr), th)  # noqa: B023
        errs.append(_rel(R.ctm_grad(th, nbar, N, pr), fd))
        Hfd = np.stack(
            [
                _fd(lambda t, i=i: R.ctm_grad(t, nbar, N, pr)[i], th)  # noqa: B023
                for i in range(K)
            ]
        )
        errs.append(_rel(R.ctm_hess(th, N, pr), Hfd))
        errs.append(
            _rel(
                R.delta_g_grad(th, v, nbar, N, pr),
                _fd(lambda t, v=v, nbar=nbar, N=N, pr=pr: R.delta_g(t, v, nbar, N, pr), th),
            )
        )  # noqa: B023
    V = np.linalg.inv(-B.blr_hess(res.x, X, mu0, P))
    qn = np.einsum("ij,jk,ik->i", X, V, X)
    th = rng.normal(size=d)
    errs.append(
        _rel(B.delta_grad(th, X, y, mu0, P, qn), _fd(lambda t: B.delta_g(t, X, y, mu0, P, V), th))
    )
    out["C5"] = float(max(errs))
    Kc, Vc = 4, 20
    lb = np.log(rng.dirichlet(np.ones(Vc), size=Kc))
    ids = np.arange(0, Vc, 3)
    mvec = rng.normal(size=Kc)
    ph = np.exp(mvec)[None, :] * np.exp(lb[:, ids]).T
    out["C4"] = float(
        np.abs(np.exp(R.phi_update(mvec, lb[:, ids].T)) - ph / ph.sum(1, keepdims=True)).max()
    )
    # C6: log-normal mean by Monte Carlo (10^5 samples), relative error
    mm = np.array([0.2, -0.5, 1.0])
    Am = rng.standard_normal((3, 3)) * 0.3
    Vm = Am @ Am.T + 0.1 * np.eye(3)
    gq = lm.gamma_update(core.GaussianQ(mm, Vm, 0.0), np.zeros((1, 3)))[0]
    mc = np.exp(rng.multivariate_normal(mm, Vm, size=100_000)).mean(0)
    out["C6"] = float(np.abs(gq / mc - 1).max())
    # C17: BL bound minus IS estimate (must be <= 0 up to MC error) on small documents
    K, Vv = 4, 30
    lb = np.log(rng.dirichlet(np.full(Vv, 0.5), size=K))
    pr = R.make_prior(np.zeros(K - 1), np.eye(K - 1) + 0.3)
    prl = R.make_prior(np.zeros(K), np.eye(K) + 0.3)
    gaps, gaps_l = [], []
    for s in range(5):
        ids, cnt = np.unique(rng.integers(0, Vv, 12), return_counts=True)
        cnt = cnt.astype(float)
        fit = R.bl_doc(ids, cnt, lb, pr)
        est, se = R.log_marginal_is(
            ids, cnt, lb, pr, fit.m, fit.V * 2.0, n_samples=20_000, seed=seed + s, pinned_last=True
        )
        gaps.append(fit.bound - (est + 3 * se))
        fl = R.laplace_doc(ids, cnt, lb, prl, tol=1e-8)
        estl, _ = R.log_marginal_is(
            ids, cnt, lb, prl, fl.m, fl.V * 2.0, n_samples=20_000, seed=seed + s
        )
        gaps_l.append(fl.bound - estl)
    out["C17"] = float(max(gaps))
    out["C17_laplace_max_excess"] = float(max(gaps_l))
    return out


def _numeric(df: pd.DataFrame) -> pd.DataFrame:
    """Table columns with 'n/a' cells back to floats (NaN where not applicable)."""
    for col in df.columns:
        if col.startswith(("paper_", "p_")):
            df[col] = pd.to_numeric(df[col], errors="coerce")
    return df


def _fd(fun, x, h=1e-6):
    return np.array([(fun(x + h * e) - fun(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def _rel(a, b):
    return float(np.abs(a - b).max() / max(np.abs(b).max(), 1e-8))


def build_claims(p: dict, inp: dict, out_csv: str) -> pd.DataFrame:
    led = Ledger("nonconjugate_vi", DOCUMENT)
    ex = exact_checks(int(p["base_seed"]))
    syn = dict(dataset="small seeded problems", data_kind="synthetic")
    led.compare(
        "C1",
        where="Sec. 4.2",
        statement="Laplace VI for BLR equals the classical Laplace "
        "approximation (MAP + inverse negative Hessian)",
        paper_value=0.0,
        our_value=ex["C1"],
        how="abs",
        tolerance=1e-6,
        **syn,
    )
    led.compare(
        "C2",
        where="Sec. 3.2 Eq. 16",
        statement="Eq. 16 with theta_hat = argmax f is maximised at m = theta_hat, V = -H^-1",
        paper_value=0.0,
        our_value=ex["C2"],
        how="abs",
        tolerance=1e-4,
        **syn,
        note="numerical maximisation over (m, chol V)",
    )
    led.compare(
        "C3",
        where="Sec. 3.2",
        statement="theta_hat = previous m (Ahmed-Xing) gives one Newton step",
        paper_value=0.0,
        our_value=ex["C3"],
        how="abs",
        tolerance=1e-10,
        **syn,
    )
    led.compare(
        "C4",
        where="Sec. 3.3 Eq. 18",
        statement="CTM q(z): phi_nk ∝ exp(m_k) beta_k,w exactly, same for Laplace and delta",
        paper_value=0.0,
        our_value=ex["C4"],
        how="abs",
        tolerance=1e-12,
        **syn,
    )
    led.compare(
        "C5",
        where="Appendix B, C",
        statement="CTM gradient/Hessian/delta gradient and "
        "BLR third-derivative term match finite differences (max rel. error)",
        paper_value=0.0,
        our_value=ex["C5"],
        how="abs",
        tolerance=1e-5,
        **syn,
    )
    led.compare(
        "C6",
        where="Sec. 3.3",
        statement="Language model: E_q[exp theta] = "
        "exp(m + diag V / 2) (MC, 1e5 samples, max rel. error)",
        paper_value=0.0,
        our_value=ex["C6"],
        how="abs",
        tolerance=0.02,
        **syn,
    )
    led.compare(
        "C17",
        where="Sec. 5.1 / ctm-c",
        statement="Blei-Lafferty objective is a true "
        "lower bound: max over docs of bound - (IS estimate + 3 se) <= 0",
        paper_value=0.0,
        our_value=ex["C17"],
        how="le",
        tolerance=1e-3,
        **syn,
        note=f"Laplace Eq. 21 minus IS estimate, max: {ex['C17_laplace_max_excess']:.4g} "
        "(may be positive: not a bound)",
    )

    # C7: Fig. 2 monotone traces
    mono = pd.read_csv(inp["fig2_monotone"])
    kind2 = json.loads(Path(inp["fig2_monotone"]).with_suffix(".meta.json").read_text())["corpus"][
        "data_kind"
    ]
    ds2 = (
        json.loads(Path(inp["fig2_monotone"]).with_suffix(".meta.json").read_text())["corpus"].get(
            "dataset"
        )
        or "synthetic_ctm"
    )
    for meth in ("laplace", "delta"):
        frac = float(mono[mono.method == meth].monotone.mean())
        led.compare(
            f"C7-{meth}",
            where="Fig. 2",
            statement=f"Eq. 21 objective increases over "
            f"per-document iterations ({meth}); fraction of test documents monotone",
            paper_value=0.9,
            our_value=frac,
            how="ge",
            tolerance=0.0,
            dataset=ds2,
            data_kind=kind2,
            note="paper: 'typical'; we require >= 90% of documents",
        )

    # C8-C10: Fig. 5
    sw = pd.concat([pd.read_csv(f) for f in inp["sweeps"]], ignore_index=True)
    for corpus, g in sw.groupby("corpus"):
        kind = g.data_kind.iloc[0]
        sub = (
            f"{corpus} is a stand-in (substitute) for the document's NYT corpus; "
            if (kind == "substitute")
            else ""
        )
        a = g.groupby(["method", "K"])[["bound_per_word", "heldout_per_word"]].mean()
        meths = set(g.method)
        for meth in ("laplace", "delta"):
            if meth not in meths:
                continue
            b = a.loc[meth].sort_index()
            rho = stats.spearmanr(b.index, b.bound_per_word).statistic if len(b) > 2 else np.nan
            led.compare(
                f"C8-{meth}",
                where="Fig. 5a",
                statement=f"per-word approximate bound "
                f"({meth}) generally increases with K (Spearman rho)",
                paper_value=0.0,
                our_value=float(rho),
                how="ge",
                tolerance=-1e-12,
                dataset=corpus,
                data_kind=kind,
                note=sub + "reproduced iff rho > 0",
            )
        if {"bl", "laplace"} <= meths:
            diff = (a.loc["laplace"].bound_per_word - a.loc["bl"].bound_per_word).min()
            led.compare(
                "C8-bl",
                where="Fig. 5a",
                statement="BL's true bound lies below the "
                "Laplace approximate bound at every K (min difference)",
                paper_value=0.0,
                our_value=float(diff),
                how="ge",
                tolerance=0.0,
                dataset=corpus,
                data_kind=kind,
                note=sub,
            )
        if "laplace" in meths:
            lap = a.loc["laplace"].heldout_per_word
            for other in ("delta", "bl"):
                if other in meths:
                    dmin = float((lap - a.loc[other].heldout_per_word).min())
                    led.compare(
                        f"C9-{other}",
                        where="Fig. 5b",
                        statement=f"held-out per-word "
                        f"log likelihood: Laplace > {other} at every K (min difference, "
                        "mean over seeds)",
                        paper_value=0.0,
                        our_value=dmin,
                        how="ge",
                        tolerance=0.0,
                        dataset=corpus,
                        data_kind=kind,
                        note=sub,
                    )
            kmax = int(lap.idxmax())
            led.compare(
                "C10",
                where="Fig. 5b",
                statement="held-out likelihood eventually "
                "decreases with K (argmax K below the largest K), Laplace",
                paper_value="argmax K < max K",
                our_value=kmax < int(lap.index.max()),
                how="true",
                dataset=corpus,
                data_kind=kind,
                note=sub + f"argmax K = {kmax}; grid {sorted(lap.index.tolist())}",
            )

    # C11: Fig. 6
    f6a, f6b = pd.read_csv(inp["fig6a"]), pd.read_csv(inp["fig6b"])
    m6 = json.loads(Path(inp["fig6a"]).with_suffix(".meta.json").read_text())["corpus"]
    ds6 = m6.get("dataset") or "synthetic_ctm"
    la, de = f6a[f6a.method == "laplace"], f6a[f6a.method == "delta"]
    if len(la) and len(de):
        t_end = min(la.time_s.max(), de.time_s.max())

        def at(df, col, t):
            k = df[df.time_s <= t]
            return float(k[col].iloc[-1]) if len(k) else -np.inf

        lb_ = f6b[f6b.method == "laplace"]
        db_ = f6b[f6b.method == "delta"]
        ok_a = at(la, "bound_per_word", t_end) >= at(de, "bound_per_word", t_end)
        ok_b = at(lb_, "heldout_per_word", t_end) >= at(db_, "heldout_per_word", t_end)
        led.compare(
            "C11-a",
            where="Fig. 6a",
            statement="Laplace reaches a higher approximate "
            "bound sooner than delta (value at the time the faster run ends)",
            paper_value="Laplace >= delta",
            our_value=bool(ok_a),
            how="true",
            dataset=ds6,
            data_kind=m6["data_kind"],
            note=f"t = {t_end:.3g}s",
        )
        led.compare(
            "C11-b",
            where="Fig. 6b",
            statement="Laplace reaches a higher held-out log likelihood sooner than delta",
            paper_value="Laplace >= delta",
            our_value=bool(ok_b),
            how="true",
            dataset=ds6,
            data_kind=m6["data_kind"],
            note=f"t = {t_end:.3g}s",
        )
        inc = all(np.all(np.diff(g.bound_per_word) > -1e-9) for _, g in f6a.groupby("method"))
        led.compare(
            "C11-c",
            where="Fig. 6a",
            statement="approximate bound increases at every EM iteration (both methods)",
            paper_value="monotone",
            our_value=bool(inc),
            how="true",
            dataset=ds6,
            data_kind=m6["data_kind"],
        )

    # C12, C16: timings from bench.csv
    bench = pd.read_csv(inp["bench"])
    ct = bench[bench.what == "ctm_estep_per_doc"].groupby("method").value.mean()
    bds = bench[bench.what == "ctm_estep_per_doc"].dataset.iloc[0]
    bkind = bench[bench.what == "ctm_estep_per_doc"].data_kind.iloc[0]
    if {"laplace", "bl"} <= set(ct.index):
        led.compare(
            "C12",
            where="footnote 7",
            statement="BL is slower than Laplace per E-step "
            "(ratio BL/Laplace; the document: > 5x, C vs Python; ours: both Python)",
            paper_value=1.0,
            our_value=float(ct["bl"] / ct["laplace"]),
            how="ge",
            tolerance=0.0,
            dataset=bds,
            data_kind=bkind,
            note="we only require ratio > 1: same-language comparison",
        )
    if {"laplace", "delta"} <= set(ct.index):
        led.compare(
            "C16-ctm",
            where="Secs. 1, 5.1, 6",
            statement="Laplace is faster than delta (CTM E-step time ratio delta/Laplace)",
            paper_value=1.0,
            our_value=float(ct["delta"] / ct["laplace"]),
            how="ge",
            tolerance=0.0,
            dataset=bds,
            data_kind=bkind,
        )
    bt = bench[bench.what == "blr_fit_per_problem"]
    if len(bt):
        r = bt.groupby("method").value.mean()
        led.compare(
            "C16-blr",
            where="Sec. 5.2",
            statement="Laplace is faster than delta (BLR fit time ratio delta/Laplace)",
            paper_value=1.0,
            our_value=float(r["delta"] / r["laplace"]),
            how="ge",
            tolerance=0.0,
            dataset=",".join(sorted(set(bt.dataset))),
            data_kind=bt.data_kind.iloc[0],
        )

    # C13, C14 and Table 1 values
    t1 = _numeric(pd.read_csv(inp["table1"]))
    for ds, g in t1.groupby("dataset"):
        kind = g.data_kind.iloc[0]
        gi = g.set_index("method")
        for meth in ("laplace", "delta"):
            if meth not in gi.index or "jj" not in gi.index:
                continue
            dacc = gi.loc[meth, "accuracy_pct"] - gi.loc["jj", "accuracy_pct"]
            led.compare(
                f"C13-acc-{meth}",
                where="Table 1",
                statement=f"{meth} accuracy > JJ (one-sided t-test over problems, p-value)",
                paper_value=0.05,
                our_value=float(gi.loc[meth, "p_accuracy_vs_jj"]),
                how="le",
                tolerance=0.0,
                dataset=ds,
                data_kind=kind,
                note=f"mean diff {dacc:.3g} points",
            )
            led.compare(
                f"C13-ll-{meth}",
                where="Table 1",
                statement=f"{meth} log predictive "
                "likelihood much better than JJ (one-sided t-test, p-value)",
                paper_value=0.05,
                our_value=float(gi.loc[meth, "p_loglik_vs_jj"]),
                how="le",
                tolerance=0.0,
                dataset=ds,
                data_kind=kind,
                note=f"mean diff {gi.loc[meth, 'loglik'] - gi.loc['jj', 'loglik']:.3g}; "
                "digest §6 warns this gap is unlikely with standard batch JJ",
            )
        if {"laplace", "delta"} <= set(gi.index):
            led.compare(
                "C14-acc",
                where="Table 1",
                statement="Laplace and delta accuracies nearly identical (|diff| in points)",
                paper_value=0.0,
                our_value=float(
                    abs(gi.loc["laplace", "accuracy_pct"] - gi.loc["delta", "accuracy_pct"])
                ),
                how="abs",
                tolerance=1.0,
                dataset=ds,
                data_kind=kind,
            )
            led.compare(
                "C14-ll",
                where="Table 1",
                statement="Laplace and delta log likelihoods nearly identical (|diff|)",
                paper_value=0.0,
                our_value=float(abs(gi.loc["laplace", "loglik"] - gi.loc["delta", "loglik"])),
                how="abs",
                tolerance=0.01,
                dataset=ds,
                data_kind=kind,
            )
        _paper_rows(led, g, "T1", "Table 1", ds, kind, ["method"], acc_tol=2.0, ll_tol=0.05)

    # C15 and Table 2 values
    t2 = _numeric(pd.read_csv(inp["table2"]))
    tests = pd.read_csv(inp["table2_tests"])
    kind = t2.data_kind.iloc[0]
    ds = "school" if kind == "real" else "synthetic_school"
    gi = t2.set_index(["setting", "method"])
    for meth in ("laplace", "delta"):
        if (("hierarchical", meth)) not in gi.index:
            continue
        for col, lab in (("accuracy_pct", "accuracy"), ("loglik", "log likelihood")):
            h, po, se = (gi.loc[(s, meth), col] for s in ("hierarchical", "pooled", "separate"))
            led.compare(
                f"C15-{meth}-{lab.split()[0]}",
                where="Table 2",
                statement=f"hierarchical > pooled > separate in {lab} ({meth})",
                paper_value="hier > pooled > separate",
                our_value=bool(h > po > se),
                how="true",
                dataset=ds,
                data_kind=kind,
                note=f"hier {h:.4g}, pooled {po:.4g}, separate {se:.4g}",
            )
    hl = tests[(tests.a == "hierarchical/laplace") & (tests.metric == "loglik")]
    hl = hl.drop_duplicates("b")
    if len(hl):
        led.compare(
            "C15-best",
            where="Table 2",
            statement="hierarchical Laplace has the best log "
            "likelihood, significantly better than all others (max p-value, paired "
            "t-test over splits)",
            paper_value=0.05,
            our_value=float(hl.p_value.max()),
            how="le",
            tolerance=0.0,
            dataset=ds,
            data_kind=kind,
        )
    _paper_rows(led, t2, "T2", "Table 2", ds, kind, ["setting", "method"], acc_tol=2.0, ll_tol=0.03)
    return led.write(out_csv)


def _paper_rows(led, g, prefix, where, ds, kind, keys, acc_tol, ll_tol):
    """Our table values next to the document's (tolerances: acc points, log likelihood)."""
    for _, row in g.iterrows():
        if not np.isfinite(row.paper_accuracy_pct):
            continue
        name = "/".join(str(row[k]) for k in keys)
        for col, pcol, tol, lab in (
            ("accuracy_pct", "paper_accuracy_pct", acc_tol, "accuracy %"),
            ("loglik", "paper_loglik", ll_tol, "log likelihood"),
        ):
            cid = f"{prefix}-{name}-{col.split('_')[0]}"
            stmt = f"{where} {name} {lab}"
            if kind != "real":
                led.not_testable(
                    cid,
                    where=where,
                    statement=stmt,
                    paper_value=row[pcol],
                    dataset=ds,
                    reason="this run uses a synthetic stand-in of the "
                    f"same shape (ours: {row[col]:.4g}); compared on the real run",
                )
            else:
                led.compare(
                    cid,
                    where=where,
                    statement=stmt,
                    paper_value=float(row[pcol]),
                    our_value=float(row[col]),
                    how="abs",
                    tolerance=tol,
                    dataset=ds,
                    data_kind=kind,
                )
