"""Enron email network (Perry & Wolfe's coding, disim repository): three tab-separated
files without header lines.

* ``employees.txt``: id, name, department, group, title, gender, seniority
* ``messages.tsv``: message id, maildir file, Unix time, subject, sender id
* ``recipients.tsv``: message id, recipient number, receiver id
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from latentlab.data.graph import TemporalGraph
from latentlab.data.parsers._util import parse_int, read_text
from latentlab.errors import DataError

ATTRS = ["name", "department", "group", "title", "gender", "seniority"]


def _rows(path, min_fields):
    for lineno, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        f = line.split("\t")
        if len(f) < min_fields:
            raise DataError(path, f"line {lineno}: {len(f)} fields, expected {min_fields}")
        yield lineno, f


def parse_enron_email(
    employees, messages, recipients, metadata: dict | None = None
) -> TemporalGraph:
    ids, attrs = [], {k: [] for k in ATTRS}
    for lineno, f in _rows(employees, 7):
        if len(f) != 7:
            raise DataError(employees, f"line {lineno}: {len(f)} fields, expected 7")
        ids.append(parse_int(f[0], employees, lineno, "employee id"))
        for k, v in zip(ATTRS, f[1:], strict=True):
            attrs[k].append(v.strip())
    n = len(ids)
    if sorted(ids) != list(range(1, n + 1)):
        raise DataError(employees, f"employee ids are not 1..{n}")
    order = np.argsort(ids)
    attrs = {k: [v[i] for i in order] for k, v in attrs.items()}

    mids, times, senders = [], [], []
    for lineno, f in _rows(messages, 5):
        mids.append(parse_int(f[0], messages, lineno, "message id"))
        times.append(parse_int(f[2], messages, lineno, "time"))
        s = parse_int(f[-1], messages, lineno, "sender id")
        if not 1 <= s <= n:
            raise DataError(messages, f"line {lineno}: sender id {s} out of range 1..{n}")
        senders.append(s - 1)
    mids = np.array(mids, dtype=np.int64)
    if len(np.unique(mids)) != len(mids):
        raise DataError(messages, "duplicate message ids")
    row_of = {int(m): i for i, m in enumerate(mids)}

    rmsg, rrecv = [], []
    for lineno, f in _rows(recipients, 3):
        if len(f) != 3:
            raise DataError(recipients, f"line {lineno}: {len(f)} fields, expected 3")
        m = parse_int(f[0], recipients, lineno, "message id")
        r = parse_int(f[2], recipients, lineno, "receiver id")
        if m not in row_of:
            raise DataError(
                recipients, f"line {lineno}: message id {m} not in {Path(messages).name}"
            )
        if not 1 <= r <= n:
            raise DataError(recipients, f"line {lineno}: receiver id {r} out of range 1..{n}")
        rmsg.append(row_of[m])
        rrecv.append(r - 1)
    times = np.array(times, dtype=np.int64)
    ev_order = np.lexsort((mids, times))
    new_pos = np.empty_like(ev_order)
    new_pos[ev_order] = np.arange(len(ev_order))
    rmsg = new_pos[np.array(rmsg, dtype=np.int64)]
    rrecv = np.array(rrecv, dtype=np.int64)
    o = np.argsort(rmsg, kind="stable")
    rmsg, rrecv = rmsg[o], rrecv[o]
    ptr = np.zeros(len(mids) + 1, dtype=np.int64)
    np.add.at(ptr, rmsg + 1, 1)
    meta = {"source": str(messages), **(metadata or {})}
    return TemporalGraph(
        n,
        np.array(senders)[ev_order],
        times[ev_order],
        np.cumsum(ptr),
        rrecv,
        actor_attrs=attrs,
        event_ids=mids[ev_order],
        metadata=meta,
    ).validate(messages)
