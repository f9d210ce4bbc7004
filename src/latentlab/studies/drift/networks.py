"""Monthly binary symmetric sociomatrices of the top actors (Sec. 2.6.2).

Rules (each counted in the summary): a message outside [first_month, last_month] is
dropped (``outside_window: drop``) or an error; a sender or receiver id outside the
employee list is an error naming the event; a month with no edge among the selected
actors is an error (``empty_month: error``) or kept; an actor with no edge in the window
is kept and counted. Self-messages are not edges. The top actors are those with the most
emails sent plus received inside the window.
"""

from __future__ import annotations

import datetime as dt

import numpy as np

from latentlab.errors import ConfigError, DataError


def _month_index(times, first: str, last: str):
    # YYYY-MM, a window of >= 2 months: checked at start-up (NetworkSpec)
    y0, m0 = (int(x) for x in first.split("-"))
    y1, m1 = (int(x) for x in last.split("-"))
    n_months = (y1 - y0) * 12 + (m1 - m0) + 1
    d = [dt.datetime.fromtimestamp(int(t), tz=dt.UTC) for t in times]
    idx = np.array([(x.year - y0) * 12 + (x.month - m0) for x in d], dtype=np.int64)
    labels = [f"{y0 + (m0 - 1 + k) // 12:04d}-{(m0 - 1 + k) % 12 + 1:02d}" for k in range(n_months)]
    return idx, n_months, labels


def monthly_networks(
    graph,
    n_actors,
    first_month,
    last_month,
    outside_window="drop",
    empty_month="error",
    source="enron_email",
):
    """Y (T, n, n) uint8, month labels, actor ids and names, and the summary counts."""
    n_all = graph.n_actors
    if not 2 <= n_actors <= n_all:
        raise ConfigError("drift.network.n_actors", f"must be in 2..{n_all}, got {n_actors}")
    month, T, labels = _month_index(graph.times, first_month, last_month)
    inside = (month >= 0) & (month < T)
    n_out = int((~inside).sum())
    if n_out and outside_window == "error":
        e = int(np.nonzero(~inside)[0][0])
        raise DataError(
            source,
            f"event {graph.event_ids[e] if graph.event_ids is not None else e}"
            f" lies outside {first_month}..{last_month}",
        )
    k = np.diff(graph.recv_ptr)
    snd = np.repeat(graph.senders, k)
    rcv = graph.receivers
    mon = np.repeat(month, k)
    ins = np.repeat(inside, k)
    for name, ids in (("sender", snd), ("receiver", rcv)):
        bad = (ids < 0) | (ids >= n_all)
        if bad.any():
            raise DataError(source, f"{name} id {int(ids[bad][0])} is not a known employee")
    emails = np.bincount(graph.senders[inside], minlength=n_all) + np.bincount(
        rcv[ins], minlength=n_all
    )
    top = np.sort(np.argsort(-emails, kind="stable")[:n_actors])
    pos = np.full(n_all, -1)
    pos[top] = np.arange(n_actors)
    keep = ins & (pos[snd] >= 0) & (pos[rcv] >= 0) & (snd != rcv)
    Y = np.zeros((T, n_actors, n_actors), np.uint8)
    Y[mon[keep], pos[snd[keep]], pos[rcv[keep]]] = 1
    Y = np.maximum(Y, Y.transpose(0, 2, 1))
    edges = Y.sum(axis=(1, 2)) // 2
    empty = [labels[t] for t in range(T) if edges[t] == 0]
    if empty and empty_month == "error":
        raise DataError(
            source,
            f"month {empty[0]} has no edge among the top {n_actors} actors "
            "(set drift.network.empty_month: keep, or move the window)",
        )
    isolated = int((Y.sum(axis=(0, 2)) == 0).sum())
    names = graph.actor_attrs.get("name", [str(i) for i in range(n_all)])
    summary = {
        "source": source,
        "n_actors_total": n_all,
        "n_actors": n_actors,
        "months": [first_month, last_month],
        "T": T,
        "events_total": int(graph.n_events),
        "events_outside_window_dropped": n_out,
        "receiver_rows_between_top_actors": int(keep.sum()),
        "self_messages_dropped": int((ins & (snd == rcv)).sum()),
        "empty_months": empty,
        "actors_without_edges": isolated,
        "edges_per_month": edges.astype(int).tolist(),
        "density_per_month": (edges / (n_actors * (n_actors - 1) / 2)).round(4).tolist(),
        "rule_top_actors": "most emails sent + received inside the window",
    }
    return Y, labels, top, [names[i] for i in top], summary


def frequent_pairs(Y: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``n`` actor pairs i < j with an edge in the most months of ``Y`` (T, N, N), most
    frequent first (ties: the pair order of ``np.triu_indices``): Fig 2.6's pool (the
    document picks its four pairs "from the fifty most frequent pairs")."""
    iu = np.triu_indices(Y.shape[1], 1)
    freq = Y[:, iu[0], iu[1]].sum(0)
    pick = np.argsort(-freq, kind="stable")[:n]
    return iu[0][pick], iu[1][pick]
