"""Every mirror dataset parses to exactly its published counts (needs the data mirror:
LATENTLAB_MIRROR or ../shared/data; run with `pytest -m realdata`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from latentlab.data import registry
from latentlab.data._io import sha256_file
from latentlab.data.prepare import check_published, content_hash, parse_dataset, summarize

MIRROR = Path(os.environ.get("LATENTLAB_MIRROR", Path(__file__).parents[3] / "shared" / "data"))
pytestmark = [
    pytest.mark.realdata,
    pytest.mark.skipif(not MIRROR.is_dir(), reason=f"no data mirror at {MIRROR}"),
]
# The mirror's datasets are the ones whose every file has a pinned sha256 (the mirror README's
# checksums); the paper-scale UCI corpora, AAN and NIPS-with-citations have none and are not
# in it (they are verified by their published counts after a download).
IN_MIRROR = [
    n for n in registry.external_names() if all(f.sha256 for f in registry.REGISTRY[n].files)
]


@pytest.mark.parametrize("name", IN_MIRROR)
def test_mirror_dataset_counts(name):
    ds = registry.get(name)
    for f in ds.files:
        assert sha256_file(MIRROR / f.path) == f.sha256, f.path
    obj = parse_dataset(ds, MIRROR)
    s = summarize(obj)
    check_published(ds, s, MIRROR)  # raises on any mismatch
    if ds.content_sha256:
        assert content_hash(obj) == ds.content_sha256


def test_scene_subsets_sizes():
    from latentlab.data.featureset import SCENE8, SCENE13

    counts = registry.get("scene15").published["per_class"]
    assert sum(counts[c] for c in SCENE13) == 3859 and len(SCENE13) == 13
    assert sum(counts[c] for c in SCENE8) == 2688 and len(SCENE8) == 8
