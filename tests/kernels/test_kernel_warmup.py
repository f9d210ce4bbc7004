"""warm_once runs a warm-up once per key and process."""

from __future__ import annotations

from latentlab.kernels import warmup


def test_warm_once_runs_each_key_once(monkeypatch):
    monkeypatch.setattr(warmup, "_WARMED", set())
    calls = []
    assert warmup.warm_once("a", lambda: calls.append("a"))
    assert not warmup.warm_once("a", lambda: calls.append("a again"))
    assert warmup.warm_once(("a", 2), lambda: calls.append("a2"))
    assert calls == ["a", "a2"]


def test_a_failed_warm_up_is_tried_again(monkeypatch):
    monkeypatch.setattr(warmup, "_WARMED", set())

    def boom():
        raise RuntimeError("no")

    try:
        warmup.warm_once("b", boom)
    except RuntimeError:
        pass
    assert warmup.warm_once("b", lambda: None)
