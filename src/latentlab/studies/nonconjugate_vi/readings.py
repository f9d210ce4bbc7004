"""The choices of Wang & Blei (JMLR 2013) that the published numbers depend on and the document
leaves open (issue 37; :class:`~latentlab.claims.spec.Reading`, sweeps:
:mod:`latentlab.readings`).

Our copy of the document lost its displayed equations and most inline symbols (the digest,
``/work/shared/seeds/002_*.digest.md``, tags them ``[R?]`` / ``[GAP]``): the prior of the
logistic regressions, the hierarchical hyperprior, the predictive formula and every stopping
rule are among them. Each reading below quotes the sentence that leaves the choice open; its
options are overrides of the study's config section; ``published`` is the option the
published run (config/real.yaml) uses.
"""

from latentlab.claims.spec import Reading

# the rows drawn from Tables 1 and 2 (Sec. 5.2)
T1_ROWS = ("T1-*", "C13-*", "C14-*", "C16-blr")
T2_ROWS = ("T2-*", "C15-*")
T1_LL = ("T1-*-loglik", "C13-ll-*", "C14-ll")
T2_LL = ("T2-*-loglik", "C15-*-log*", "C15-best*")
JJ_ROWS = ("T1-jj-*", "T2-*/jj-*", "C13-*", "C15-best*")
T1_TARGETS = ("table1.csv", "table1_problems.csv")
T2_TARGETS = ("table2.csv", "table2_splits.csv", "table2_tests.csv")
# the Fig 5 rows (Sec. 5.1)
FIG5_ROWS = ("C8-*", "C9-*", "C10")
SWEEP_TARGETS = ("ctm_sweep_ap.csv", "ctm_sweep_newsgroups.csv")

READINGS = [
    Reading(
        name="blr_predictive",
        where="Sec. 5.2",
        sentence=(
            "Given a test-case input x with label y, we compute the log predictive "
            "likelihood, [formula lost in our copy] where m is the mean of variational "
            "distribution q(θ)."
        ),
        options={
            "plugin": {"blr": {"predictive": "plugin", "jj_predictive": "same"}},
            "mc": {"blr": {"predictive": "mc", "jj_predictive": "same"}},
            "jj_bound": {"blr": {"predictive": "plugin", "jj_predictive": "bound"}},
        },
        published="plugin",
        why=(
            "the sentence names only the mean m, so the formula is the plug-in "
            "log σ((2y - 1) mᵀx) for every method; mc averages σ over q (the CTM section's "
            "'predictive distributions derived from the posterior approximations'); "
            "jj_bound scores the Jaakkola-Jordan rows by their own variational bound on the "
            "predictive (Jaakkola & Jordan 2000), the one reading under which a JJ row could "
            "sit near log 1/2 (Table 1's JJ: -0.678, -0.670) while its accuracy matches"
        ),
        rows=(*T1_LL, *T2_LL),
        targets=(*T1_TARGETS, *T2_TARGETS),
    ),
    Reading(
        name="jj_form",
        where="Sec. 5.2",
        sentence=(
            "We compared Laplace inference, delta method inference, and the method of "
            "Jaakkola and Jordan (1997). Jaakkola and Jordan's (1996) method preserves a "
            "lower bound on the marginal likelihood (batch or sequential: not stated)"
        ),
        options={
            "batch": {"blr": {"jj_form": "batch"}},
            "sequential": {"blr": {"jj_form": "sequential"}},
        },
        published="batch",
        why=(
            "the bound 'on the marginal likelihood' of all the data is the batch form "
            "(Jaakkola & Jordan 2000, Sec. 3); the sequential form absorbs one observation "
            "at a time (their Sec. 4), which the document does not mention"
        ),
        rows=JJ_ROWS,
        targets=(*T1_TARGETS, *T2_TARGETS),
    ),
    Reading(
        name="prior_var",
        where="Sec. 5.2",
        sentence="We set the priors [μ0 = lost] and [Σ0 = lost].",
        options={
            f"v{str(v).replace('.', 'p')}": {"blr": {"prior_var": v}}
            for v in (0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
        },
        published="v1p0",
        why=(
            "the values are lost in our copy; N(0, I) is the standard prior of Bayesian "
            "logistic regression (the digest: 'almost certainly μ0 = 0 and Σ0 = I'); the "
            "other variances span three decades around it"
        ),
        rows=(*T1_ROWS, *T2_ROWS),
        targets=(*T1_TARGETS, *T2_TARGETS),
    ),
    Reading(
        name="hyperprior",
        where="Sec. 5.2, Eqs. 22-23",
        sentence=(
            "We set the prior on the hyperparameters to the coefficients to [lost], [lost], "
            "and [lost] (see Eq. 22 and Eq. 23) to favor sparsity."
        ),
        options={
            "psi0p1": {"blr": {"hyper": {"psi_scale": 0.1}}},
            "psi1": {"blr": {"hyper": {"psi_scale": 1.0}}},
            "psi10": {"blr": {"hyper": {"psi_scale": 10.0}}},
        },
        published="psi1",
        why=(
            "the values are lost; our normal-inverse-Wishart reconstruction with the "
            "identity scale Ψ_h = I (the scale of the coefficient prior N(0, I)); 0.1 and "
            "10 are a decade either side ('favor sparsity' points to the smaller)"
        ),
        rows=("T2-hierarchical/*", "C15-*"),
        targets=T2_TARGETS,
    ),
    Reading(
        name="hier_em",
        where="Sec. 4.2, Appendix C",
        sentence=(
            "we use nonconjugate inference as a subroutine in a variational EM algorithm "
            "(where the M step is regularized) (no stopping rule is given)"
        ),
        options={
            "cap15": {"blr": {"hier_max_iter": 15, "hier_tol": 1.0e-4}},
            "cap100": {"blr": {"hier_max_iter": 100, "hier_tol": 1.0e-5}},
        },
        published="cap15",
        why=(
            "the document gives no stopping rule; the published run caps EM at 15 "
            "iterations (every split reaches the cap: table2_splits.csv em_iters), "
            "cap100 is config/paper.yaml's (100 iterations, tolerance 1e-5); neither is "
            "more literal, and the cap keeps Table 2 in the study's 45 minutes"
        ),
        rows=("T2-hierarchical/*", "C15-*"),
        targets=T2_TARGETS,
    ),
    Reading(
        name="t1_estimate",
        where="Sec. 5.2",
        sentence=(
            "The dataset has 1,500 genes in the training set and 917 genes in the test set "
            "... For both accuracy and predictive likelihood, we used cross validation to "
            "estimate the generalization performance of each inference algorithm."
        ),
        options={
            "standard_split": {"blr": {"table1_estimate": "standard"}},
            "resplit_mean": {"blr": {"table1_estimate": "resplit_mean"}},
        },
        published="standard_split",
        why=(
            "the document states the train/test sizes of the standard (Mulan) split, so "
            "its numbers are on that split; 'cross validation' gives no folds, and its "
            "nearest form at the stated sizes is the mean over the standard split and the "
            "blr.resplits seeded re-splits (resplit_mean)"
        ),
        rows=T1_ROWS,
        targets=T1_TARGETS,
    ),
    Reading(
        name="em_budget",
        where="Sec. 5.1",
        sentence=(
            "We fitted the models with variational EM ... We monitor this quantity as we "
            "run variational EM. (no stopping rule, budget or iteration count is given)"
        ),
        # converged first: "budget" (no overrides: the run's own budget) matches any settings
        options={
            "converged": {
                "ctm": {"em_iter_budget": None, "em_time_budget_s": None, "em_max_iter": 1000}
            },
            "budget": {},
        },
        published="budget",
        why=(
            "the published run keeps the run's own EM budget (config/real.yaml: "
            "ctm.em_iter_budget, the iterations a 40 s budget gave), since EM to its "
            "tolerance (converged: ctm-c's 1e-3, at most its 1000 iterations) on both "
            "corpora costs about three times the study's 45 minutes; converged is the "
            "literal reading (EM run to its tolerance), and the published ledger reads its "
            "verdicts through this sweep"
        ),
        rows=FIG5_ROWS,
        targets=SWEEP_TARGETS,
    ),
    Reading(
        name="ctm_predictive",
        where="Sec. 5.1",
        sentence=(
            "We use this to form an approximate predictive distribution, [formula lost] "
            "where [lost]."
        ),
        options={
            "plugin": {"ctm": {"predictive": "plugin"}},
            "mc": {"ctm": {"predictive": "mc"}},
        },
        published="plugin",
        why=(
            "the where-clause is lost; the BLR section's predictive is the plug-in mean of "
            "q (Sec. 5.2), so the CTM's is Σ_k π_k(m) β_k,w; mc averages π(θ) over q "
            "(ctm.n_mc samples)"
        ),
        rows=("C9-*", "C10"),
        targets=SWEEP_TARGETS,
    ),
    Reading(
        name="fig2_setting",
        where="Fig. 2, Sec. 3.2",
        sentence=(
            "Figure 2 shows this score at each iteration for two runs of inference in the "
            "correlated topic model ... these plots were typical. (Sec. 3.2: [Ahmed and "
            "Xing's algorithm] did not always converge.) (No corpus, K or fitted model given.)"
        ),
        options={
            "k20_em3": {"fig2": {"K": 20, "em_iters": 3, "n_check_docs": 100}},
            "k50_em20": {"fig2": {"K": 50, "em_iters": 20, "n_check_docs": 449}},
        },
        published="k20_em3",
        why=(
            "the document names no corpus, K or model for Fig. 2 and the Ahmed-Xing "
            "remark; the published run checks 100 AP test documents of a K = 20 model "
            "after 3 EM iterations (its budget), k50_em20 is config/paper.yaml's (a "
            "mid-range K of Fig. 5, a fitted model, all 449 test documents)"
        ),
        rows=("C3-conv", "C7-*"),
        targets=("fig2_monotone.csv",),
    ),
    Reading(
        name="fig6_setting",
        where="Fig. 6",
        sentence=(
            "Finally, Figure 6 shows the approximate bound and the heldout log likelihood as "
            "functions of running time. (No corpus or K given.)"
        ),
        options={
            "k20": {"fig6": {"K": 20}},
            "k50": {"fig6": {"K": 50}},
        },
        published="k20",
        why=(
            "the document names no corpus or K for Fig. 6; the published run times the NYT "
            "stand-in at K = 20, inside its Fig. 5 grid; k50 is the mid-range K the digest "
            "suggests (config/paper.yaml's)"
        ),
        rows=("C11-*",),
        targets=("fig6a.csv", "fig6b.csv"),
    ),
    Reading(
        name="bl_estep_budget",
        where="Sec. 5.1, footnote 7",
        sentence=(
            "We did not formally compare the running time of Blei and Lafferty (2007)'s "
            "method because we used the authors' C implementation ... We observed that "
            "their method took more than five times longer than ours."
        ),
        options={
            "em_settings": {"ctm": {"bl_max_iter": 20}},
            "inference_settings": {"ctm": {"bl_max_iter": 1000}},
        },
        published="em_settings",
        why=(
            "the authors' C code (ctm-c) caps the per-document iterations at 20 in the "
            "settings of its EM ('var max iter 20', settings.txt) and leaves them unlimited "
            "in those of its inference ('var max iter -1', inf-settings.txt); the timing "
            "is of fitting, so its EM settings; inference_settings caps them at 1000 (to "
            "the tolerance 1e-6 in practice)"
        ),
        rows=("C12*",),
        targets=("bench.csv",),
    ),
]
