"""Tables 4.4/4.5 of scvb0: topics after a short fixed training-time budget, with
documents processed and UMass coherence (a labelled proxy for the human studies)."""

from __future__ import annotations

from latentlab.studies.shape import TableOutput

from .study import STUDY


@STUDY.table("table4_4", "table4_5")
def budget_topics(ctx):
    """The listed topics (input ``topics``) with per-method means over runs (``runs``)."""
    topics = ctx.csv("topics")
    g = ctx.csv("runs").groupby("method").mean(numeric_only=True)
    for col in ("docs_processed", "docs_per_second", "umass_mean"):
        topics[col + "_avg_runs"] = topics.method.map(g[col])
    return TableOutput(topics, {"note": "time-budgeted: documents processed depend on the machine"})
