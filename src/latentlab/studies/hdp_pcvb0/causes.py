"""Why the ``not_reproduced`` rows of hdp_pcvb0 miss (issue 24): one :class:`Cause` per
pattern over (claim id, dataset), first match wins, registered at the end of ``claims.py``.

The published ``real`` ledger (``published/real/hdp_pcvb0/claims.csv``) has 35 misses: 11 on
KOS (the document's corpus), 8 on 20 Newsgroups, 6 on AP and 10 on Cora (stand-ins). The
numbers quoted below come from two files:

* ``published/real/causes/hdp_pcvb0_runs.csv`` (``scripts/hdp_pcvb0_causes.py``): every
  perplexity fit of the published run, next to the unigram perplexity of the same 80/20
  split.
* ``published/real/causes/hdp_pcvb0_keff_ladder.csv`` (``scripts/hdp_pcvb0_keff_ladder.py``):
  PCVB0 refitted on the stand-ins at the document's T = 100 (Cora also at 300), with the
  study's split, options and seed.

* **genuine** (15): the zero-order AA stall of ``published/real/REVERSALS.md`` case 1
  ("stands"). From the document's initialisation, CVB0 AA and PCVB0 AA stay at or near the
  unigram state.
  - KOS, at the document's T = 300: CVB0 AA ends at 0.9999 x the unigram, PCVB0 AA at
    0.90 x.
  - Known-truth data, T = 300: both stall while the AS and second-order fits recover the
    model (``tests/models/hdp/test_hdp_known_truth.py``).
  - Cora: CVB0 AA stalls already at T = 50, at 0.9993 x the unigram in 3 of 3 runs (alpha0
    231-242 against 4.1-4.2 under AS). PCVB0 AA stalls at the document's T = 100 and 300
    (ladder).
  Where a row also misses on a cell that is not a stall, the evidence says so.
* **substitute** (6): Fig 3's axis ranges on the stand-ins. The absolute level is set by
  each stand-in split's unigram perplexity: 20 Newsgroups 1304, AP 4363, Cora 1367 (KOS 2653).
  Every fit improves on it by a similar factor: zero order 0.48-0.64 x the unigram (KOS
  0.52-0.61), second order 0.62-0.88 (KOS 0.66-0.71). On KOS those fits lie inside the
  document's axes.
* **ambiguity** (1): C13 on AP. At the document's T = 100 the effective-topic metric,
  which the document leaves undefined, decides the AA fit.
* **genuine, not a stall** (one of the 15): C6a on KOS. The hdp_pcvb0 ladder
  (``published/ladder/hdp_pcvb0/``) narrows the PCVB-CVB gap from 0.050 (real) to 0.0301
  and its kos_doc rung, the document's T = 100, 200, 300 with 5 runs, stays at 0.0301
  against the tolerance 0.03: a narrow miss at the document's settings.
* **open** (13): everything else. Each open entry's evidence ends with the experiment that
  would settle it (``settle: ...``).
"""

from __future__ import annotations

from latentlab.claims.spec import Cause

CASE1 = "published/real/REVERSALS.md#case-1"
KNOWN = "tests/models/hdp/test_hdp_known_truth.py"
RUNS = "published/real/causes/hdp_pcvb0_runs.csv"
LADDER = "published/real/causes/hdp_pcvb0_keff_ladder.csv"
FIG2 = "published/real/hdp_pcvb0/fig2.csv"
FIG3 = "published/real/hdp_pcvb0/fig3.csv"
FIG4 = "published/real/hdp_pcvb0/fig4.csv"
REAL = "config/real.yaml"
HLAD = "published/ladder/hdp_pcvb0/ladder.csv"
# the settling experiments of the open entries (issue 24: in the evidence, so the ledger shows them)
SETTLE_C4 = (
    "settle: CVB AA on KOS at T = 300, 100 iterations, with sort_topics: true and with one "
    "other hyperprior (e.g. a_alpha = b_alpha = 1; config/real.yaml hdp_pcvb0.options), "
    "~15 CPU-min each unloaded (perplexity_kos_cvb_AA: 879 CPU-s for T = 50 and 300); then "
    "the stand-ins at T = 300 (config/paper.yaml grid)"
)
SETTLE_AP = "settle: the fits at T = 100, 200, 300 on AP with 3 runs, as for C6a on Cora (~3 CPU-h)"
SETTLE_KNN = (
    "settle: the knn step with config/paper.yaml's news20 (10,000 documents) and knn section "
    "(5 runs, T = 100-300), ~5-10 CPU-h; a first rung: n_docs 10,000 at T = 50, 1 run, "
    "~1 CPU-h"
)

CAUSES = [
    # --- KOS, T = 300 (the document's T): the AA stall of REVERSALS case 1 -----------------
    Cause(
        "C5-T300",
        "genuine",
        f"{CASE1}; {KNOWN}; {RUNS}: CVB0 AA 2652.8 = 0.9999 x unigram 2653.1; CVB AA 1738.2",
        dataset="kos",
    ),
    Cause(
        "C8",
        "genuine",
        f"{CASE1}; {RUNS}: CVB0 AA at T = 300 sits at the unigram from iteration 1 (2653.8) "
        "to 100 (2652.8), so it is 'converged' after 1 iteration",
        dataset="kos",
    ),
    Cause(
        "C9",
        "genuine",
        f"{CASE1}; {RUNS}: the T = 300 CVB0 AA fit is the unigram state (2652.8 vs 2653.1); "
        "CVB AA reaches 1738.2",
        dataset="kos",
    ),
    Cause(
        "C16",
        "genuine",
        f"{CASE1}; {KNOWN}: PCVB0 AA at T = 300 leaves the plateau late and stops at 2385.4 "
        f"(0.90 x unigram, {RUNS}); CVB AA 1738.2. {HLAD}, rung kos_doc (the document's "
        "T grid and 5 runs): PCVB0 below CVB in 10 of 10 (prior, run) at T = 100 (1428.7 "
        "vs 1786.0), not at the largest T = 300 (1929.5 vs 1717.4; PCVB0 AA 2385.4, the "
        "stall, in 5 of 5 runs)",
        dataset="kos",
    ),
    Cause(
        "F3-left",
        "genuine",
        f"{CASE1}; {RUNS}: the only values outside [1000, 2200] are the two stalled T = 300 "
        "fits, CVB0 AA 2652.8 and PCVB0 AA 2385.4",
        dataset="kos",
    ),
    Cause(
        "C6b",
        "genuine",
        f"{CASE1}; {RUNS}: at T = 300 CVB0 AA 2652.8 (unigram) vs PCVB0 AA 2385.4, 10 % "
        "apart; the row's max is the T = 50 AA cell (1618.8 vs 1389.4), not a stall",
        dataset="kos",
    ),
    Cause(
        "C7",
        "genuine",
        f"{CASE1} (known truth, T = 300): CVB0 AS 74.8 vs AA 125.9, PCVB0 AS 77.7 vs AA 127.3; "
        f"{KNOWN}. KOS T = 50 also misses for PCVB (AS 1748.3, AA 1880.3)",
        dataset="kos",
    ),
    Cause(
        "C13",
        "genuine",
        f"{CASE1}; {RUNS}: PCVB0 AA at T = 300 keeps alpha0 171.6 and all 300 topics by both "
        "metrics (E[n_k] >= 1, >= 0.1 % of tokens); at T = 50: 50 of 50",
        dataset="kos",
    ),
    # --- Cora, T = 50: CVB0 AA stalls in every run -----------------------------------------
    Cause(
        "C5-T50",
        "genuine",
        f"{CASE1}; {KNOWN}; {RUNS}: Cora CVB0 AA 1366.3 = 0.9993 x unigram 1367.3 in 3 of 3 "
        "runs (alpha0 231-242); the other 3 cells pass",
        dataset="cora",
    ),
    Cause(
        "C8",
        "genuine",
        f"{CASE1}; {RUNS}: Cora CVB0 AA stays at the unigram from iteration 1 (1366.3), so "
        "'1 iteration'; the other 3 (prior, pair) cells pass",
        dataset="cora",
    ),
    Cause(
        "C9",
        "genuine",
        f"{CASE1}; {RUNS}: the failing cell is CVB AA 1185.6 vs the stalled CVB0 AA 1366.3 "
        "(unigram 1367.3); the other 3 cells pass",
        dataset="cora",
    ),
    Cause(
        "C6b",
        "genuine",
        f"{CASE1}; {RUNS}: AA cell CVB0 1366.3 (stalled) vs PCVB0 849.8; the AS cell also "
        "misses, 869.2 vs 836.1 (3.8 %)",
        dataset="cora",
    ),
    Cause(
        "C7",
        "genuine",
        f"{CASE1}; {RUNS}: CVB0 AA 1366.3 (stalled) vs AS 869.2; PCVB also misses, AS 1103.2 "
        "vs AA 1180.1 (6.5 %)",
        dataset="cora",
    ),
    Cause(
        "C13",
        "genuine",
        f"{CASE1}; {LADDER}: Cora at the document's T = 100 / 300: PCVB0 AS uses 65 / 92 topics, "
        "but PCVB0 AA stalls (1375.7 / 1382.6, unigram 1367.3) with all 100 / 300",
        dataset="cora",
    ),
    # --- AP: the effective-topic metric decides C13 at the document's T ---------------------
    # The document does not define "effective topics" (Sec 5.3); the ledger counts
    # E[n_k] >= 1 (claims.py C13), the runs also record >= 0.1 % of the training tokens.
    # At our T = 50 both give 50 of 50 (the reduced T); at the document's T = 100 they
    # disagree on the AA fit.
    Cause(
        "C13",
        "ambiguity",
        f"{LADDER}: AP, T = 100: PCVB0 AS 63 topics by either metric; AA 100 by E[n_k] >= 1 "
        "(the row's metric), 46 by >= 0.1 % of tokens; at T = 50 both give 50 of 50",
        dataset="ap",
    ),
    # --- Fig 3 axis ranges on the stand-ins: the corpus sets the level ----------------------
    Cause(
        "F3-left",
        "substitute",
        f"{RUNS}: our 20news split's unigram perplexity is 1304, at the floor of the axis "
        "[1300, 2700]; fits 0.62-0.85 x unigram (KOS: 0.52-0.71, inside its axis)",
        dataset="news20",
    ),
    Cause(
        "F3-right",
        "substitute",
        f"{RUNS}: the traces start at our 20news unigram level (1291-1332 at iteration 1; "
        "unigram 1304) and improve on it, below the axis floor 1200",
        dataset="news20",
    ),
    Cause(
        "F3-left",
        "substitute",
        f"{RUNS}: AP's split has unigram perplexity 4363 (KOS 2653); the second-order fits "
        "outside the axis sit at 0.62-0.66 x it, as on KOS (0.66-0.71, inside)",
        dataset="ap",
    ),
    Cause(
        "F3-right",
        "substitute",
        f"{RUNS}: the values above 4200 are the zero-order fits' unigram-level start (maxima "
        "4366-4531 at iterations 5-50); AP's unigram perplexity is 4363",
        dataset="ap",
    ),
    Cause(
        "F3-left",
        "substitute",
        f"{RUNS}: Cora's split has unigram perplexity 1367; even the best fit (PCVB0 AS 836, "
        "0.61 x unigram, as on KOS 0.52) is above the 7conf axis [200, 800]",
        dataset="cora",
    ),
    Cause(
        "F3-right",
        "substitute",
        f"{RUNS}: the values above 1400 are the zero-order AS fits' early plateau (1414-1422 "
        "per run), 1.03-1.04 x Cora's unigram perplexity 1367",
        dataset="cora",
    ),
    # --- open ---------------------------------------------------------------------------------
    # C4a/C4b: CVB AA's largest E[alpha0 pi_k] is 2.12 on KOS at the document's T = 300
    # (document 0.1532) and exceeds 1 on 20news at T = 50 (4.13), so the miss is not the
    # stand-ins' alone. Candidates the document leaves open: the CVB Gamma hyperpriors
    # (infpy's midpoints, config/real.yaml hdp_pcvb0.options.hyperprior) and topic sorting
    # (sort_topics: false; infpy sorts).
    Cause(
        "C4a",
        "open",
        f"{FIG2}: CVB AA max E[alpha0 pi_k] 2.12 (KOS, T = 300), 4.13 (20news, T = 50); "
        + SETTLE_C4,
    ),
    Cause(
        "C4b",
        "open",
        f"{FIG2}: CVB AA max E[alpha0 pi_k]: KOS 2.12 (document 0.1532; {HLAD} kos_doc, "
        "the document's T = 300 with its 5 runs: 1.86), 20news 4.13, AP 0.335, Cora 0.107 "
        "(mean of 3 runs); " + SETTLE_C4,
    ),
    # C6a: PCVB vs CVB 5.0-6.2 % apart (KOS AA 1880 vs 1790, 20news AA 1106 vs 1041, Cora
    # AS 1103 vs 1162 in all 3 runs, so not seed noise), at T = 50 only.
    # KOS, the document's corpus: the hdp_pcvb0 ladder narrows the gap to 0.0301 and keeps it
    # there at the document's T grid and 5 runs (tolerance 0.03)
    Cause(
        "C6a",
        "genuine",
        f"{HLAD}: max relative |PCVB - CVB| on KOS 0.050 (real: T = 50, one run) -> 0.042 "
        "(the document's T = 100, 200, 300, one run) -> 0.0301 (T = 100, 5 runs) -> 0.0301 "
        "at the document's protocol (kos_doc: T = 100, 200, 300, 5 runs; the largest gap is "
        "at T = 100); tolerance 0.03: a narrow miss at the document's settings",
        dataset="kos",
    ),
    Cause(
        "C6a",
        "open",
        f"{FIG3}: PCVB vs CVB at T = 50: KOS AA 1880.3 vs 1790.2, 20news AA "
        "1105.7 vs 1040.9, Cora AS 1103.2 vs 1161.9; settle: cvb and pcvb (AS, AA) at "
        "T = 100, 200, 300 with 3 runs on Cora (its T = 50 fits take 90-120 CPU-s per config "
        "for 3 runs; ~1.5 CPU-h in all), and on 20news the hdp_pcvb0 ladder's doc rung "
        "(config/ladder.yaml: 10,000 documents, T = 100, 200, 300, 5 runs; ~51 CPU-h, a "
        "cluster job)",
    ),
    # C6b / C7 on AP (3.4 %, 5.7 %): CVB0 AA 2149.5 vs PCVB0 AA 2076.5; PCVB AA 2893.0 vs
    # AS 2727.9 (PCVB AA is the worse prior on KOS, Cora and AP alike). One run at T = 50.
    Cause(
        "C6b",
        "open",
        f"{FIG3}: AP T = 50, AA: CVB0 2149.5 vs PCVB0 2076.5 (3.4 %); AS 2083.2 vs 2104.1; "
        + SETTLE_AP,
        dataset="ap",
    ),
    Cause(
        "C7",
        "open",
        f"{FIG3}: AP T = 50: PCVB AS 2727.9 vs AA 2893.0 (5.7 %); KOS 7.0 %, "
        "Cora 6.5 % for the same pair; " + SETTLE_AP,
        dataset="ap",
    ),
    # C13 on 20news: at T = 50 and at the document's T = 100 PCVB0 uses every topic by both
    # metrics (ladder).
    Cause(
        "C13",
        "open",
        f"{LADDER}: 20news PCVB0 AS and AA use 100 of 100 topics at T = 100 by both metrics "
        f"(E[n_k] >= 1, >= 0.1 % of tokens); at T = 50 50 of 50 ({RUNS}); settle: PCVB0 "
        "AS/AA at T = 200 and 300 on 20news, first on our 2,000 documents "
        "(scripts/hdp_pcvb0_keff_ladder.py, ~5 CPU-min per fit unloaded), then on "
        "config/paper.yaml's 10,000 (~1-2 CPU-h)",
        dataset="news20",
    ),
    # C11c/C11d (7-NN on 20news): one run, 2,000 documents (document 10,000), T = 50,
    # 50 iterations and 20 fold-in iterations (document 100 / 100): 200 test documents, so
    # one document is 0.005 of accuracy.
    Cause(
        "C11c",
        "open",
        f"{FIG4}: 7-NN AS: PCVB0 0.550 vs CVB0 0.590, one run; "
        f"{REAL}: hdp_pcvb0.knn test_frac 0.1 of 2,000 documents; " + SETTLE_KNN,
        dataset="news20",
    ),
    Cause(
        "C11d",
        "open",
        f"{FIG4}: 7-NN accuracy 0.385-0.590; {REAL}: hdp_pcvb0.datasets "
        "news20 n_docs 2,000 (document 10,000); " + SETTLE_KNN,
        dataset="news20",
    ),
]
