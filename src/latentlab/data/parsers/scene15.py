"""15-Scene images -> a FeatureSet of dense gradient-orientation descriptors.

The folder holds ``MANIFEST.sha256`` (``<sha256>  <relative path>`` lines) and the images
it lists, ``<part>/<Class>/<file>.jpg`` where ``<part>`` is ``train`` / ``test`` (the
mirror's packaging) or ``all``. Every image is checked against the manifest and decoded
with Pillow; a missing, altered or undecodable image is a DataError naming it.

Descriptor (a documented HOG-like stand-in for dense SIFT; the iwtm study may replace it):
the grayscale image is resized (bilinear) so that its shorter side is ``size`` pixels;
gradients by central differences; each pixel votes its gradient magnitude into one of
``bins`` unsigned orientation bins over [0, pi) in its ``cell`` x ``cell`` cell; a
descriptor is the 2 x 2 block of cell histograms (``4 * bins`` values) at every
``step`` pixels, L2-normalised, clipped at 0.2 and renormalised (L2-Hys). Its position is
the block centre in resized-image pixels.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from latentlab.data.featureset import FeatureSet
from latentlab.data.parsers._util import read_text
from latentlab.errors import DataError

DEFAULTS = {"size": 128, "cell": 8, "step": 16, "bins": 8}


def read_manifest(path: str | Path) -> list[tuple[str, str]]:
    path = Path(path)
    out = []
    for lineno, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split(maxsplit=1)
        if len(parts) != 2 or len(parts[0]) != 64:
            raise DataError(path, f"line {lineno}: expected '<sha256>  <path>'")
        out.append((parts[0].lower(), parts[1].strip()))
    return out


def image_multiset_sha256(entries: list[tuple[str, str]]) -> str:
    """Hash of the sorted (class, image sha256) pairs: independent of file names and of
    the train/test packaging, so a repackaged download verifies like the mirror."""
    lines = sorted(f"{Path(rel).parent.name}\t{sha}" for sha, rel in entries)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def dense_hog(gray: np.ndarray, cell: int = 8, step: int = 16, bins: int = 8):
    """(descriptors n x 4*bins float32, positions n x 2) of a 2-D float image."""
    g = np.asarray(gray, dtype=np.float32)
    H, W = (g.shape[0] // cell) * cell, (g.shape[1] // cell) * cell
    g = g[:H, :W]
    gy, gx = np.gradient(g)
    mag = np.hypot(gx, gy)
    ang = np.mod(np.arctan2(gy, gx), np.pi)
    b = np.minimum((ang * (bins / np.pi)).astype(np.int64), bins - 1)
    ncy, ncx = H // cell, W // cell
    cy = np.arange(H)[:, None] // cell
    cx = np.arange(W)[None, :] // cell
    idx = ((cy * ncx + cx) * bins + b).ravel()
    hist = np.bincount(idx, weights=mag.ravel(), minlength=ncy * ncx * bins)
    hist = hist.reshape(ncy, ncx, bins)
    s = max(1, step // cell)
    iy = np.arange(0, ncy - 1, s)
    ix = np.arange(0, ncx - 1, s)
    if not len(iy) or not len(ix):
        return np.zeros((0, 4 * bins), np.float32), np.zeros((0, 2), np.float32)
    blocks = np.concatenate(
        [
            hist[iy][:, ix],
            hist[iy][:, ix + 1],
            hist[iy + 1][:, ix],
            hist[iy + 1][:, ix + 1],
        ],
        axis=-1,
    ).reshape(-1, 4 * bins)
    blocks /= np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-6
    np.minimum(blocks, 0.2, out=blocks)
    blocks /= np.linalg.norm(blocks, axis=1, keepdims=True) + 1e-6
    py, px = np.meshgrid((iy + 1) * cell, (ix + 1) * cell, indexing="ij")
    pos = np.column_stack([px.ravel(), py.ravel()]).astype(np.float32)
    return blocks.astype(np.float32), pos


def load_image(path: Path, size: int) -> np.ndarray:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as im:
            im.load()
            im = im.convert("L")
            w, h = im.size
            r = size / min(w, h)
            im = im.resize((max(1, round(w * r)), max(1, round(h * r))), Image.BILINEAR)
            return np.asarray(im, dtype=np.float32) / 255.0
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as e:
        raise DataError(path, f"unreadable image: {e}") from e


def parse_scene15(
    folder: str | Path, options: dict | None = None, metadata: dict | None = None, log=None
) -> FeatureSet:
    folder = Path(folder)
    opts = {**DEFAULTS, **{k: v for k, v in (options or {}).items() if k in DEFAULTS}}
    manifest = folder / "MANIFEST.sha256"
    entries = read_manifest(manifest)
    classes = sorted({Path(rel).parent.name for _, rel in entries})
    cls_id = {c: i for i, c in enumerate(classes)}
    descs, poss, counts, labels, names, split = [], [], [], [], [], []
    for k, (sha, rel) in enumerate(sorted(entries, key=lambda e: e[1])):
        p = folder / rel
        if not p.exists():
            raise DataError(p, f"image listed in {manifest} is missing")
        data = p.read_bytes()
        actual = hashlib.sha256(data).hexdigest()
        if actual != sha:
            raise DataError(
                p, f"sha256 mismatch with {manifest.name}: expected {sha}, got {actual}"
            )
        img = load_image(p, opts["size"])
        d, pos = dense_hog(img, opts["cell"], opts["step"], opts["bins"])
        descs.append(d)
        poss.append(pos)
        counts.append(len(d))
        labels.append(cls_id[Path(rel).parent.name])
        names.append(rel)
        part = Path(rel).parts[0]
        split.append({"train": 0, "test": 1}.get(part, -1))
        if log is not None and (k + 1) % 500 == 0:
            log.info("scene15: %d / %d images", k + 1, len(entries))
    meta = {
        "source": str(manifest),
        "descriptor": {"type": "dense_hog_l2hys", **opts},
        "image_multiset_sha256": image_multiset_sha256(entries),
        **(metadata or {}),
    }
    dim = 4 * opts["bins"]
    return FeatureSet(
        np.concatenate([[0], np.cumsum(counts)]),
        np.concatenate(descs) if descs else np.zeros((0, dim), np.float32),
        np.array(labels),
        classes,
        names,
        np.concatenate(poss) if poss else np.zeros((0, 2), np.float32),
        np.array(split),
        meta,
    ).validate(folder)


def dense_sift(gray: np.ndarray, step: int = 10, patch: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """Dense SIFT (Waters 2014, Sec. 4.5.1: a regular grid every ``step`` px) with OpenCV:
    ``cv2.SIFT_create().compute`` on keypoints of diameter ``patch`` whose patches lie
    inside the image. ``gray`` is a 2-D array in [0, 1] or uint8. Returns (n x 128
    float32, positions n x 2)."""
    import cv2

    g = np.asarray(gray)
    if g.ndim != 2:
        raise DataError(None, f"dense SIFT needs a grayscale image, got shape {g.shape}")
    if g.dtype != np.uint8:
        g = np.clip(np.rint(g * 255.0), 0, 255).astype(np.uint8)
    H, W = g.shape
    half = patch / 2.0
    ys = np.arange(half, H - half + 1e-9, step)
    xs = np.arange(half, W - half + 1e-9, step)
    if not len(ys) or not len(xs):
        raise DataError(None, f"image {W}x{H} px is smaller than one {patch}px SIFT patch")
    kps = [cv2.KeyPoint(float(x), float(y), float(patch)) for y in ys for x in xs]
    kps, desc = cv2.SIFT_create().compute(g, kps)
    pos = np.array([k.pt for k in kps], dtype=np.float32)
    return desc.astype(np.float32), pos
