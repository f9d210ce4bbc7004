"""Study iwtm, the SUN protocol (Sec. 6.5, Fig 6.3): spatial pyramid against brute force,
kernel normalisation, the win/tie/loss rule, map fragmentation, the step on SYN-IWTM and
the SUN397 download's checks."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from test_iwtm_active import TINY, _step

from latentlab.errors import ConfigError, DataError
from latentlab.studies.iwtm import sun as S


def test_pyramid_matches_brute_force_cells():
    rng = np.random.default_rng(0)
    ip = np.array([0, 7, 20])
    words = rng.integers(0, 4, 20)
    pos = rng.random((20, 2)) * 0.999
    H = S.pyramid(words, pos, ip, 4, levels=3)
    assert [h.shape for h in H] == [(2, 4), (2, 16), (2, 64)]
    for lev, h in enumerate(H):
        g = 2**lev
        for d in range(2):
            want = np.zeros(g * g * 4)
            for i in range(ip[d], ip[d + 1]):
                cx, cy = int(pos[i, 0] * g), int(pos[i, 1] * g)
                want[(cy * g + cx) * 4 + words[i]] += 1 / (ip[d + 1] - ip[d])
            np.testing.assert_allclose(h[d], want)
        np.testing.assert_allclose(h.sum(1), 1.0)  # every level sums to one per image
    with pytest.raises(DataError, match="positions"):
        S.pyramid(words, pos + 1, ip, 4)


def test_spm_kernel_levels_normalised_by_their_mean():
    rng = np.random.default_rng(1)
    Htr = [rng.random((5, 3)), rng.random((5, 12))]
    Hte = [rng.random((2, 3)), rng.random((2, 12))]
    Ktr, Kte = S.spm_kernels(Htr, Hte)
    from latentlab.studies.iwtm.pipeline import hik

    want = sum(hik(a, a) / hik(a, a).mean() for a in Htr)
    np.testing.assert_allclose(Ktr, want)
    want = sum(hik(b, a) / hik(a, a).mean() for a, b in zip(Htr, Hte, strict=True))
    np.testing.assert_allclose(Kte, want)


def test_win_tie_loss_uses_the_one_percent_rule():
    a = np.array([0.50, 0.20, 0.10, 0.305, 0.0])
    b = np.array([0.40, 0.20, 0.30, 0.30, 0.01])
    assert S.win_tie_loss(a, b) == (1, 2, 2)


def test_fragmentation_measures_on_exact_cases():
    # one 2 x 2 image: labels [[0, 0], [1, 1]]: pairs (h: 2 same, v: 2 different) -> 0.5;
    # shuffle expectation: 2 * (2 * 1) / (4 * 3) = 1/3
    grid = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    ip = np.array([0, 4])
    assert S.coherence_lift(np.array([0, 0, 1, 1]), grid, ip) == pytest.approx(0.5 - 1 / 3)
    assert S.coherence_lift(np.array([0, 0, 0, 0]), grid, ip) == pytest.approx(0.0)
    truth = np.array([0, 0, 1, 1])
    assert S.region_fragmentation(np.array([5, 6, 7, 7]), truth, ip) == 1.5


SUN = {**TINY, "syn_iwtm": {**TINY["syn_iwtm"], "docs_per_class": 20},
       "sun": {"dataset": "syn_iwtm", "K": 12, "T": 4, "rho": 0.5, "passes": 3,
               "train_per_class": 3, "test_per_class": 6, "n_show": 2},
       "svm": {"C_grid": [0.1, 1.0], "folds": 3}}  # fmt: skip


@pytest.fixture(scope="module")
def sun(tmp_path_factory):
    d = tmp_path_factory.mktemp("iwtm_sun")
    _step("data", outputs={"npz": d / "syn_iwtm.npz", "meta": d / "syn_iwtm.json"},
          section=SUN, dataset="syn_iwtm")  # fmt: skip
    out = {"csv": d / "sun.csv", "metrics": d / "sun.metrics.csv", "maps": d / "maps.npz"}
    _step("sun", {"data": d / "syn_iwtm.npz"}, out, section=SUN)
    return d


def test_sun_step_per_class_rows_and_metrics(sun, tmp_path):
    c = pd.read_csv(sun / "sun.csv")
    assert len(c) == 3 and (c.n_test == 6).all() and (c.n_train_total == 9).all()
    assert c[["acc_vw", "acc_topic"]].apply(lambda x: x.between(0, 1)).all().all()
    m = pd.read_csv(sun / "sun.metrics.csv").set_index("method")
    assert m.loc["iwtm_topics", "labels_used"] <= 4 and m.loc["visual_words", "labels_used"] <= 12
    assert np.isfinite(m[["nmi_truth", "labels_per_region", "coherence_lift"]].values).all()
    _step("fig6_3", {"sun": sun / "sun.csv", "maps": sun / "maps.npz"},
          {"png": tmp_path / "f.png", "csv": tmp_path / "f.csv"})  # fmt: skip
    assert (tmp_path / "f.png").stat().st_size > 0


def test_sun_bad_rho_names_the_key(sun):
    bad = {**SUN, "sun": {**SUN["sun"], "rho": 0.0}}
    with pytest.raises(ConfigError, match="sun.rho"):
        _step("sun", {"data": sun / "syn_iwtm.npz"}, {"csv": sun / "x.csv", "metrics": sun / "y",
              "maps": sun / "z.npz"}, section=bad)  # fmt: skip


def test_sun_data_reads_the_images_of_the_declared_manifest(tmp_path):
    """scene15: the step reads the images the fetched manifest lists, relative to the
    manifest's folder (the rule's declared input), not a path built from a fetch stamp."""
    from PIL import Image

    from latentlab.data._io import sha256_file

    root = tmp_path / "resources" / "scene15"
    rng = np.random.default_rng(0)
    lines = []
    for c in ("Coast", "Forest"):
        for i in range(3):
            rel = f"all/{c}/image_{i:04d}.jpg"
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            Image.fromarray(rng.integers(0, 255, (48, 40), dtype=np.uint8)).save(root / rel)
            lines.append(f"{sha256_file(root / rel)}  {rel}")
    (root / "MANIFEST.sha256").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    out.mkdir()
    sec = {"sun_data": {"train_per_class": 1, "test_per_class": 2, "n_show": 1, "thumb": 8}}
    _step("sun_data", {"manifest": root / "MANIFEST.sha256"},
          {"npz": out / "scene15.npz", "meta": out / "scene15.json"}, section=sec,
          sunset="scene15")  # fmt: skip
    meta = json.loads((out / "scene15.json").read_text())
    assert meta["class_names"] == ["Coast", "Forest"] and meta["n_images"] == 6
    z = np.load(out / "scene15.npz")
    assert list(z["split"]) == [0, 1, 1, 0, 1, 1]


def test_a_seed_as_a_chain_of_jobs_equals_the_one_job_seed(sun, tmp_path):
    """sun.fit_jobs / map_jobs (issue 39): the SVI iterations in 2 chained jobs (the second
    continues from the first's state) and the words and topics in 3 shares give the one-job
    seed's rows and metrics (the times aside)."""
    chained = {**SUN, "sun": {**SUN["sun"], "fit_jobs": 2, "map_jobs": 3}}
    out = {
        "csv": tmp_path / "sun.csv",
        "metrics": tmp_path / "m.csv",
        "maps": tmp_path / "maps.npz",
    }
    _step("sun", {"data": sun / "syn_iwtm.npz"}, out, section=chained)
    assert sorted(p.name for p in (tmp_path / "parts_sun").glob("*.npz")) == [
        "r0.npz",
        "r0_fit1.npz",
        "r0_fit2.npz",
        "r0_map1.npz",
        "r0_map2.npz",
        "r0_map3.npz",
    ]
    pd.testing.assert_frame_equal(pd.read_csv(out["csv"]), pd.read_csv(sun / "sun.csv"))
    a, b = pd.read_csv(out["metrics"]), pd.read_csv(sun / "sun.metrics.csv")
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))
    ma, mb = np.load(out["maps"]), np.load(sun / "maps.npz")
    assert set(ma.files) == set(mb.files) and all(np.array_equal(ma[k], mb[k]) for k in ma.files)
