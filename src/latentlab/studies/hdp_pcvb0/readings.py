"""The choices of Sato et al. (KDD 2012) that the published numbers depend on and the document
leaves open (issue 37; :class:`~latentlab.claims.spec.Reading`, sweeps:
:mod:`latentlab.readings`)."""

from latentlab.claims.spec import Reading

# the ledger rows drawn from the perplexity fits (Figs 2 and 3, Secs 5.3, 6.3, 6.6)
PERPLEXITY_ROWS = ("C5*", "C6a", "C6b", "C7", "C8", "C9", "C10", "C13", "C16", "C4a", "C4b",
                   "C4c", "F3-left", "F3-right")  # fmt: skip

READINGS = [
    Reading(
        name="hyper_start",
        where="Algorithm 1, Sec 5.4",
        sentence=(
            "Algorithm 1: for each iteration do ... Update q(π̃k) by using Eq (24); Update α0 "
            "by using Eq (29); Update γ0 by using Eq (33); Update β0 and τv by using Eqs (30) "
            "and (32) end for (the text says nothing of when the first update may come)"
        ),
        options={
            "as_written": {"options": {"hyper_burnin": 0}},
            "after5": {"options": {"hyper_burnin": 5}},
            "after10": {"options": {"hyper_burnin": 10}},
        },
        published="as_written",
        why=(
            "Algorithm 1 updates α0, γ0, β0 and τ at the end of every iteration, the first "
            "one included; holding them for the first sweeps is a schedule the document "
            "does not show"
        ),
        rows=PERPLEXITY_ROWS,
        targets=(
            "runs/perplexity/kos/cvb0_AA.json",
            "runs/perplexity/kos/pcvb0_AA.json",
            "runs/perplexity/kos/cvb_AA.json",
            "runs/perplexity/kos/pcvb0_AS.json",
        ),
    ),
]
