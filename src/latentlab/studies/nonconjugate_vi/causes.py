"""Why the ``not_reproduced`` rows of the published nonconjugate_vi ledger miss (issues 24,
37, 38).

One :class:`~latentlab.claims.spec.Cause` per miss of ``published/real/nonconjugate_vi/
claims.csv``, matched by claim id and data set; every evidence names a file of the
repository. Since issue 38 every row is judged on its replicates, so rows whose miss was
within the noise are ``inconclusive`` and need no cause (the two pooled/hierarchical delta
log likelihoods of Table 2, the Table 2 accuracies of the separate models, C9 on 20
Newsgroups, whose converged pairs are too few); since issue 37 the choices the document
leaves open are readings (``readings.py``), swept by config/real.yaml's readings block, and
a miss another option reproduces takes the cause ``reading`` from its sweep automatically
(:mod:`latentlab.claims.readings`). What is known:

- **reading** (11): Fig. 5a's C8 (the bound rises with K; BL's bound below Laplace's) on AP
  and 20 Newsgroups: the bound falls with K at the real run's EM iteration budget and rises
  with K once EM runs to its tolerance, the ``em_budget`` reading's converged option
  (``readings/em_budget.csv``, 2026-12-06; on AP also the ladder's rungs) (5); C13's
  accuracy rows (Laplace / delta above JJ in Table 1) on Yeast and delta's on Scene, under
  the sequential JJ form (``readings/jj_form.csv``) (3); C13's Laplace log likelihood on
  Scene, under prior variance 10 (``readings/prior_var.csv``, 2026-12-07) (1); Table 1's
  delta log likelihood and C14's Laplace - delta log likelihood on Scene, under prior
  variances 0.003-0.1 (2; misses of the Table 1 re-published with its 5 re-splits).
- **reduction** (1): C8-bl on AP: BL's bound against Laplace's closes from -0.35 to a tie
  with EM to its tolerance (-0.00008, inconclusive in the sweep; the ladder the same), not
  to the document's strict order.
- **genuine** (6): C13's log-likelihood rows (Laplace / delta against JJ in Table 1: both
  on Yeast, delta on Scene), JJ's Table 1 log likelihood on Yeast and the JJ log
  likelihoods of Table 2: no option brings them
  near the document, neither of the real sweeps ``readings/blr_predictive.csv`` (plugin,
  mc, jj_bound) and ``readings/jj_form.csv`` (batch, sequential) nor
  ``readings/prior_var.csv`` (8 prior variances, 0.003-10), ``readings/hyperprior.csv``
  and ``readings/hier_em.csv`` (2026-12-06/07; they replace the former script's 12
  alternatives, ``published/real/causes/ncvi_blr_alternatives.csv``, now deleted).
- **ambiguity** (7): rows that one of those options brings within the row's tolerance
  (inconclusive), or whose document value lies between ours at two prior variances (5;
  Table 1's JJ and Laplace log likelihoods on Scene among them);
  C13's Laplace accuracy on Scene, inconclusive under the sequential JJ form; C3-conv,
  not_reproduced at the published Fig 2 model and inconclusive at config/paper.yaml's
  (the ``fig2_setting`` sweep, ``readings/fig2_setting.csv``).
- **open**: none since the ``em_budget`` and ``fig2_setting`` sweeps.
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

_NCV = "published/real/nonconjugate_vi"
_LAD = "published/ladder/nonconjugate_vi/ladder.csv"
# the prior variance of Tables 1/2 (lost in our copy), swept on real: 8 variances
_PV = f"{_NCV}/readings/prior_var.csv"
# the EM budget of the Fig 5 sweeps: the run's, or EM to its tolerance (AP and 20 Newsgroups)
_EMB = f"{_NCV}/readings/em_budget.csv"
# the predictive of Tables 1/2 and the Jaakkola-Jordan form, swept on real
_BLRP = f"{_NCV}/readings/blr_predictive.csv"
_JJ = f"{_NCV}/readings/jj_form.csv"

CAUSES = [
    # ------------------------------------------------------------------ Fig 2, Sec 3.2
    # the fig2_setting sweep (2026-12-06): at config/paper.yaml's Fig 2 (K = 50 after 20 EM
    # iterations) Ahmed-Xing stops at the 200-iteration cap on 2 of 200 documents, where
    # Laplace (38) and delta (20) reach the cap more often, all still monotone (C7)
    Cause("C3-conv", "ambiguity", f"{_NCV}/readings/fig2_setting.csv: the row depends on Fig "
          "2's unstated model: at the published K = 20 after 3 EM iterations Ahmed-Xing "
          "converged on 100 of 100 AP documents (not_reproduced); at config/paper.yaml's K = "
          "50 after 20 EM iterations on 198 of 200 (0.99, inconclusive: the two others stop "
          "at the 200-iteration cap, as Laplace does on 38 and delta on 20, whose bounds stay "
          "monotone: C7 reproduced under both); a failure to converge the document reports "
          "for Ahmed-Xing alone is not seen under either option", dataset="ap"),
    # ------------------------------------------------------------------ Fig 5a, C8
    # The AP ladder (published/ladder/nonconjugate_vi/: EM to its tolerance, K <= 30 with 3
    # seeds, K <= 50 with one, the document's K <= 100 with 3) decides the AP rows. 20
    # Newsgroups is not on the ladder: the em_budget readings sweep runs it.
    Cause("C8-laplace", "reading", f"{_EMB}: Spearman rho of the bound vs K -0.8 in each seed "
          "at the published EM iteration budget -> 1 with EM run to its tolerance (option "
          f"converged): reproduced; {_LAD}: the same at K <= 50 (rung K50_seed1) and at the "
          "document's K <= 100 with 3 seeds (rung K100_doc, 81/81 fits converged)",
          dataset="ap"),
    Cause("C8-delta", "reading", f"{_EMB}: Spearman rho -0.8 in each seed at the published EM "
          "iteration budget -> 1 with EM run to its tolerance: reproduced; the ladder's "
          f"K50_seed1 and K100_doc rungs the same ({_LAD})", dataset="ap"),
    Cause("C8-bl", "reduction", f"{_LAD}: Laplace - BL bound, min over K, -0.35 in each seed "
          "at the real EM iteration budget -> -0.00008 with every fit converged (rung "
          "converged: above BL by 0.021-0.045 nats/word at K = 10-30, a tie at K = 5, "
          "-8.0029 vs -8.0028, within the seeds' sd; K100_doc the same); the gap closes to a "
          "tie at K = 5, not to the document's strict order", dataset="ap"),
    # 20 Newsgroups: the em_budget sweep's converged option (EM to its tolerance, 3 seeds)
    Cause("C8-laplace", "reading", f"{_EMB}: Spearman rho of the bound vs K -0.8 in each seed "
          "at the published EM iteration budget (Laplace converged 3/3, 0/3, 0/3, 0/3 at K = "
          "5-30) -> 1 with EM run to its tolerance (option converged): reproduced",
          dataset="newsgroups"),
    Cause("C8-delta", "reading", f"{_EMB}: Spearman rho -0.8 in each seed at the published EM "
          "iteration budget (delta converged 1/3 at K = 5, 0/3 at K >= 10) -> 1 with EM run to "
          "its tolerance: reproduced", dataset="newsgroups"),
    Cause("C8-bl", "reading", f"{_EMB}: Laplace - BL bound, min over K, -0.34 at the published "
          "EM iteration budget (Laplace cut after 4/2 EM iterations at K = 20/30) -> +0.014 "
          "with EM run to its tolerance, Laplace above BL at every K: reproduced",
          dataset="newsgroups"),
    # ------------------------------------------------------------------ Tables 1 and 2
    # Every Table row re-judged under 12 alternatives of the blr settings the document leaves
    # open, one key at a time (prior_var 0.003-10, the mc predictive, psi_scale 0.1 and 10,
    # config/paper.yaml's hierarchical EM): the readings prior_var, blr_predictive,
    # hyperprior and hier_em (readings.py). ambiguity: an alternative reproduces the row, or
    # brings it within its tolerance, or the document's value lies between ours at two prior
    # variances; genuine: no alternative comes near. The JJ log likelihoods (-0.67 to -0.685,
    # all near log 1/2 = -0.693 and below the base-rate predictor's) are the brief's case:
    # with the plug-in (ours), the Monte Carlo predictive and the sequential form JJ sits
    # beside Laplace; blr_predictive's jj_bound option (JJ's own bound on the predictive),
    # swept on real on 2026-12-06, leaves it there too (-0.488 Yeast, -0.490 Scene).
    # Table 1's value rows, re-published with the 5 re-splits (2026-12-07; the standard
    # split's value, its tolerance floored at 2 x Z_BAND x the re-splits' sd: t1_value_rule)
    Cause("T1-jj-loglik", "genuine", f"{_PV}, {_BLRP}, {_JJ}: JJ's log likelihood misses the "
          "document's -0.678 under every option (tolerance 0.05): -0.481 at ours, -0.459 to "
          "-0.513 over the 8 prior variances, -0.475 (mc), -0.488 (jj_bound), -0.547 "
          "(sequential); ours sits beside Laplace's and delta's (-0.476, -0.486; the "
          "document's -0.449, -0.450), where the document puts JJ 0.23 below them",
          dataset="yeast"),
    Cause("T1-jj-loglik", "ambiguity", f"{_PV}: inconclusive under prior_var 3 (-0.830 vs "
          "the document's -0.67, tolerance 0.19: the band of one split at that variance); "
          f"{_JJ}: inconclusive under the sequential form (-0.609); not reproduced at ours "
          "(1: -0.519) nor under blr_predictive (mc -0.403, jj_bound -0.490)",
          dataset="scene"),
    Cause("T1-laplace-loglik", "ambiguity", f"{_PV}: inconclusive under prior_var 0.03, 0.1 "
          "and 0.3 (-0.274, -0.277, -0.320 vs the document's -0.259), not reproduced at ours "
          f"(1: -0.420, tolerance 0.076) nor under {_BLRP}'s mc predictive (-0.326)",
          dataset="scene"),
    Cause("T1-delta-loglik", "reading", f"{_PV}: reproduced under prior_var 0.03 and 0.1 "
          "(-0.265, -0.281 vs the document's -0.265), not at ours (1: -0.569)",
          dataset="scene"),
    Cause("C14-ll", "reading", f"{_PV}: Laplace - delta log likelihood within 0.01 of 0 "
          "under prior_var 0.003-0.1 (-0.004 to 0.005), 0.141 at ours (1)", dataset="scene"),
    # the prior variance swept on real (2026-12-07): prior_var 10 reproduces Laplace's lead on
    # Scene (the apply rule then gives this row the cause reading: declared so here too)
    Cause("C13-ll-laplace", "reading", f"{_PV}: reproduced under prior_var=v10p0 (Laplace "
          "-0.867 vs JJ -1.446), inconclusive at 3 (-0.581 vs -0.830), not at 0.003-1 (1: "
          "-0.420 vs -0.519, margin 0.2055)", dataset="scene"),
    Cause("T2-separate/jj-loglik", "ambiguity", f"{_PV}: the document's -0.684 lies between "
          "ours at prior_var 1 (-0.641) and 3 (-0.726); not reproduced under any of the 8 "
          "prior variances (tolerance 0.03)", dataset="school"),
    Cause("T2-separate/laplace-loglik", "ambiguity", f"{_PV}: inconclusive under prior_var "
          "0.1 (-0.5772, 0.008 from the document's -0.569, tolerance the splits' sd 0.0069); "
          "not reproduced under the 7 others (-0.606 at ours, 1; -0.618 at 0.01)",
          dataset="school"),
    Cause("T2-separate/delta-loglik", "ambiguity", f"{_PV}: inconclusive under prior_var 0.1 "
          "(-0.5826, 0.012 from the document's -0.571, tolerance the splits' sd 0.0077); not "
          "reproduced under the 7 others (-0.663 at ours, 1)", dataset="school"),
    # the predictive and the JJ form swept on real (2026-12-06): the sequential JJ form lowers
    # JJ's accuracy below Laplace's and delta's, which reproduces the accuracy rows
    Cause("C13-acc-*", "reading", f"{_JJ}: reproduced under jj_form=sequential (JJ's accuracy "
          "78.51 against Laplace 78.95 and delta 79.01; the batch form: JJ 78.93)",
          dataset="yeast"),
    Cause("C13-ll-*", "genuine", f"{_BLRP}, {_JJ}, {_PV}: not reproduced under any option of "
          "blr_predictive (plugin, mc, jj_bound), jj_form (batch, sequential) or prior_var (8 "
          "variances, 0.003-10): Laplace/delta within 0.08 nats of JJ under every option "
          "(document: 0.23); JJ's log likelihood -0.481 (plugin), -0.475 (mc), -0.488 "
          "(jj_bound), -0.547 (sequential), -0.459 to -0.513 over prior_var (document -0.678)",
          dataset="yeast"),
    Cause("C13-acc-laplace", "ambiguity", f"{_JJ}: inconclusive under jj_form=sequential "
          "(Laplace 86.80 vs JJ 84.87, ahead in each of the 6 problems), not_reproduced under "
          f"the published batch form (86.80 vs 87.42); {_PV}: not reproduced under any of the "
          "8 prior variances (Laplace - JJ from +0.15 points at 0.003 to -1.13 at 10, margin "
          "1)", dataset="scene"),
    Cause("C13-acc-delta", "reading", f"{_JJ}: reproduced under jj_form=sequential (delta "
          "87.30 vs JJ 84.87; the batch form: 87.30 vs 87.42)", dataset="scene"),
    Cause("C13-ll-delta", "genuine", f"{_BLRP}, {_JJ}, {_PV}: not reproduced under any option "
          "of blr_predictive, jj_form or prior_var: delta's log likelihood below JJ's with the "
          "plug-in (-0.569 vs -0.519) and jj_bound (-0.569 vs -0.490) predictives, above it by "
          "less than the margin 0.2025 with mc (-0.326 vs -0.403) and the sequential form "
          "(-0.569 vs -0.609), and below or within 0.005 of it at every prior variance (0.003: "
          "-0.386 vs -0.388; 10: -1.646 vs -1.446)", dataset="scene"),
    Cause("T2-pooled/jj-loglik", "genuine", f"{_BLRP}, {_JJ}: -0.558 (plugin, mc, jj_bound), "
          f"-0.559 (sequential); {_PV}: -0.558 to -0.560 under every prior variance (equal to "
          "Laplace's: pooled over 15,000 students the JJ bound is tight), document -0.685",
          dataset="school"),
    Cause("T2-hierarchical/jj-loglik", "genuine", f"{_BLRP}, {_JJ}: -0.545 (plugin, "
          f"sequential), -0.545 (mc), -0.549 (jj_bound); {_NCV}/readings/hyperprior.csv: "
          f"-0.546 (psi 0.1), -0.545 (1), -0.567 (10); {_NCV}/readings/hier_em.csv: -0.545 "
          f"(15 EM iterations), -0.545 (100); {_PV}: -0.545 under every prior variance; "
          "document -0.685", dataset="school"),
]  # fmt: skip
