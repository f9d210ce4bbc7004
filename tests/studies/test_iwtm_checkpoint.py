"""A checkpointed fit killed mid-way resumes and ends with the same bits as an uninterrupted
one (issue 39): the Gibbs IWTM sampler (fit and test fold-in) in process, and a ch4 part
job killed with SIGKILL and run again; plus the checkpoint's own rules (stamp, commit)."""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from latentlab.checkpoint import Checkpoint, NoCheckpoint
from latentlab.models.iwtm.gibbs import GibbsSchedule, IWTMGibbs
from latentlab.models.iwtm.normal_gamma import NGPrior
from latentlab.provenance import COMMIT_ENV
from latentlab.studies.iwtm import parts

KEY = {"settings": {"T": 3}, "commit": "0123abc"}


def _data(seed=0, n_docs=24, dim=3):
    rng = np.random.default_rng(seed)
    lens = rng.integers(8, 16, n_docs)
    ip = np.concatenate([[0], np.cumsum(lens)])
    y = np.arange(n_docs) % 3
    X = rng.normal(size=(ip[-1], dim)) + 2.0 * y.repeat(lens)[:, None]
    labels = np.where(np.arange(n_docs) < 18, y, -1)
    return X, ip, labels


class Killed(Exception):
    pass


def _run(ck, stop=None):
    """Fit (12 sweeps) and fold in the last 6 documents; ``stop``: (phase, count) raises
    ``Killed`` right after the checkpoint's ``count``-th save in that phase."""
    X, ip, y = _data()
    prior = NGPrior.from_data(X[: ip[18]], 1.0, 1.0)
    m = IWTMGibbs(3, prior, 5.0, 1.0, 1.0, 200, seed=7)
    if stop is not None:
        save = ck.save

        def counting(state):
            save(state)
            if state["phase"] == stop[0] and ck.saves >= stop[1]:
                raise Killed()

        ck.save = counting
    m.fit(X, ip, y, 3, GibbsSchedule(12, 4, 2, 3), checkpoint=ck)
    nd = m.fold_in(np.arange(18, 24), 3, checkpoint=ck)
    return m, nd


def _same(a: IWTMGibbs, b: IWTMGibbs):
    for k, v in a.__dict__.items():
        w = b.__dict__[k]
        if isinstance(v, np.ndarray):
            assert v.dtype == w.dtype and np.array_equal(v, w), k  # bit for bit
        elif isinstance(v, float | int | str):
            assert v == w, k
    assert a.rng.bit_generator.state == b.rng.bit_generator.state


@pytest.mark.parametrize("stop", [("fit", 1), ("fit", 5), ("fold", 2)])
def test_gibbs_killed_mid_way_resumes_bit_for_bit(tmp_path, stop):
    whole, nd_whole = _run(NoCheckpoint())
    out = tmp_path / "part.npz"
    with pytest.raises(Killed):
        _run(Checkpoint(out, KEY, every=0), stop)
    assert out.with_name("part.npz.ckpt").exists()
    ck = Checkpoint(out, KEY, every=0)
    state = ck.load()
    assert state["phase"] == stop[0]  # it resumes from where it was killed
    resumed, nd = _run(ck)
    np.testing.assert_array_equal(nd, nd_whole)
    _same(resumed, whole)
    assert whole.n_dishes() > 1


def test_checkpoint_of_another_job_or_an_unnamed_commit_is_not_read(tmp_path):
    out = tmp_path / "x.npz"
    Checkpoint(out, KEY, every=0).save({"it": 3})
    assert Checkpoint(out, KEY).load() == {"it": 3}
    assert Checkpoint(out, {**KEY, "settings": {"T": 4}}).load() is None
    dirty = {**KEY, "commit": "0123abc+dirty"}
    Checkpoint(out, dirty, every=0).save({"it": 5})
    assert Checkpoint(out, dirty).load() is None  # a dirty tree's state is never reused
    ck = Checkpoint(out, KEY, every=3600)
    assert not ck.due()
    ck.clear()
    assert not out.with_name("x.npz.ckpt").exists() and ck.load() is None


def test_checkpoint_interval_from_the_environment(monkeypatch, tmp_path):
    from latentlab.errors import ConfigError

    monkeypatch.setenv("LATENTLAB_CHECKPOINT_SECONDS", "0")
    assert Checkpoint(tmp_path / "a", KEY).due()
    monkeypatch.setenv("LATENTLAB_CHECKPOINT_SECONDS", "-1")
    with pytest.raises(ConfigError, match="LATENTLAB_CHECKPOINT_SECONDS"):
        Checkpoint(tmp_path / "a", KEY)


# ------------------------------------------------------------ a part job killed with SIGKILL
SECTION = {
    "syn_iwtm": {"n_classes": 3, "docs_per_class": 12, "dim": 4, "n_clusters": 12,
                 "n_topics": 4, "signature": 2, "mean_len": 40.0, "min_len": 20},
    "split": {"train_pool": 8},
    "n_train": [8],
    "gibbs": {"T": [3], "n_iter": 150, "burn_in": 20, "hyper_every": 10, "test_iter": 20,
              "dish_cap": 400},
    "slda": {"K": [5]},
}  # fmt: skip


def _params(step):
    from latentlab.studies.shape import load_study

    st = load_study("iwtm")
    p = {"run": "test", "base_seed": 0, "threads": 1}
    p.update({k: v for k, v in SECTION.items() if k in st.config_keys(step)})
    return json.dumps(p)


def _part_cmd(data, out, part, fit=None):
    cmd = [sys.executable, "-m", "latentlab", "iwtm", "ch4_part", "--params", _params("ch4"),
           "--input", f"data={data}"] + ([f"fit={fit}"] if fit else []) + [
           "--output", f"part={out}", "--wildcard", f"part={part}"]  # fmt: skip
    return cmd


@pytest.fixture(scope="module")
def syn(tmp_path_factory):
    from latentlab.studies.shape import load_study

    d = tmp_path_factory.mktemp("ck")
    st = load_study("iwtm")
    params = {"run": "test", "base_seed": 0, "threads": 1}
    params.update({k: v for k, v in SECTION.items() if k in st.config_keys("data")})
    st.execute("data", params, {}, {"npz": d / "syn_iwtm.npz", "meta": d / "syn_iwtm.json"},
               {"dataset": "syn_iwtm"})  # fmt: skip
    return d / "syn_iwtm.npz"


def _state(path):
    _, arrays = parts.read(path)
    return pickle.loads(arrays["state"].tobytes())["model"]


def _fold(syn, fit, env):
    """The fold-in part from a fit's state: its rows but the seconds, and its arrays."""
    out = fit.with_name("T3_n8_r0_iwtm.npz")
    r = subprocess.run(_part_cmd(syn, out, "T3_n8_r0_iwtm", fit), env=env, capture_output=True,
                       text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows, arrays = parts.read(out)
    return [{k: v for k, v in row.items() if k != "seconds"} for row in rows], arrays


def test_a_ch4_fit_killed_mid_way_resumes_to_the_same_state(syn, tmp_path):
    """The fit job (150 sweeps) killed with SIGKILL after its first checkpoints, run again:
    its state equals an uninterrupted fit's bit for bit, and so does the fold-in from it."""
    env = {**os.environ, COMMIT_ENV: "0123abc", "LATENTLAB_CHECKPOINT_SECONDS": "0.02"}
    whole = tmp_path / "whole" / "T3_n8_r0_fit.npz"
    whole.parent.mkdir()
    r = subprocess.run(_part_cmd(syn, whole, "T3_n8_r0_fit"), env=env, capture_output=True,
                       text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert not whole.with_name(whole.name + ".ckpt").exists()  # cleared once written

    cut = tmp_path / "cut" / "T3_n8_r0_fit.npz"
    cut.parent.mkdir()
    ckpt = cut.with_name(cut.name + ".ckpt")
    p = subprocess.Popen(_part_cmd(syn, cut, "T3_n8_r0_fit"), env=env, stderr=subprocess.PIPE,
                         text=True)  # fmt: skip
    t0 = time.monotonic()
    while not ckpt.exists() and p.poll() is None and time.monotonic() - t0 < 120:
        time.sleep(0.05)
    time.sleep(0.1)  # a few sweeps more
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert p.returncode == -signal.SIGKILL, "the job ended before it was killed"
    assert ckpt.exists() and not cut.exists()
    with open(ckpt, "rb") as f:
        it = pickle.load(f)["state"]["it"]
    assert 0 < it < 149  # killed mid-way
    r = subprocess.run(_part_cmd(syn, cut, "T3_n8_r0_fit"), env=env, capture_output=True,
                       text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert not ckpt.exists()
    a, b = _state(whole), _state(cut)
    assert set(a) == set(b)
    for k, v in a.items():
        if isinstance(v, np.ndarray):
            assert np.array_equal(v, b[k]), k
    assert a["rng"].bit_generator.state == b["rng"].bit_generator.state
    assert a["alpha0"] == b["alpha0"] and np.array_equal(a["alpha_y"], b["alpha_y"])
    (ra, xa), (rb, xb) = _fold(syn, whole, env), _fold(syn, cut, env)
    assert ra == rb and ra[0]["model"] == "IWTM"
    assert set(xa) == set(xb) and all(np.array_equal(xa[k], xb[k]) for k in xa)
