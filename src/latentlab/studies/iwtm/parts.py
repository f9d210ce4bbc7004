"""The iwtm steps' fan-out (issue 39): a step whose runs are independent (per topic count,
training size, seed, learning rate, learner) is run as one ``<step>_part`` job per part,
each writing ``parts/<step>_<dataset>/<part>.npz`` (its rows as JSON, exactly the dicts
the step appends, and its arrays), and the step itself collects the parts in the order
the whole step used to run them and writes the CSVs the figures and claims read, the
same bytes as a single job. Part names are the loop values, ``T25_n100_r0_iwtm`` say;
:func:`names` lists them, :func:`inputs` maps the rule's ``parts`` files to them."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np

from latentlab.errors import ConfigError, DataError
from latentlab.outputs import _jsonable


def write(path: str | Path, rows: list[dict], **arrays) -> None:
    """One part: ``rows`` as JSON (floats round-trip exactly, NaN included) beside
    ``arrays``, written atomically."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp{os.getpid()}.npz")
    np.savez(tmp, __rows__=np.array(json.dumps(_jsonable(rows))), **arrays)
    tmp.replace(path)


def read(path: str | Path) -> tuple[list[dict], dict[str, np.ndarray]]:
    """(rows, arrays) of a part written by :func:`write`."""
    with np.load(path, allow_pickle=False) as z:
        if "__rows__" not in z.files:
            raise DataError(path, "not an iwtm part (no __rows__)")
        rows = json.loads(str(z["__rows__"]))
        arrays = {k: z[k] for k in z.files if k != "__rows__"}
    return rows, arrays


def label(x) -> str:
    """A loop value in a part name: 0.25 -> 0.25, 100 -> 100 (no characters a file name
    or a wildcard would mind)."""
    s = repr(x) if isinstance(x, float) else str(x)
    if not re.fullmatch(r"[A-Za-z0-9.\-]+", s):
        raise ConfigError("iwtm parts", f"value {x!r} cannot name a part")
    return s


def unique(values, key: str):
    """``values`` unchanged, refused when one repeats (two parts would share a name)."""
    values = list(values)
    if len(set(values)) != len(values):
        raise ConfigError(key, f"values repeat: {values}")
    return values


def inputs(ctx, names: list[str]) -> dict[str, Path]:
    """The rule's ``parts`` input files by part name (their stems): exactly ``names``."""
    got = {p.stem: p for p in ctx.input_list("parts")}
    if set(got) != set(names):
        missing, extra = sorted(set(names) - set(got)), sorted(set(got) - set(names))
        raise ConfigError(
            f"iwtm {ctx.step}",
            f"parts given do not match the settings: missing {missing[:5]}, extra {extra[:5]}",
        )
    return got


def part_name(ctx, names: list[str]) -> str:
    """The part this ``<step>_part`` job runs (its ``part`` wildcard), checked."""
    part = ctx.wildcards.get("part")
    if part is None:
        part = Path(ctx.output("part")).stem
    if part not in names:
        raise ConfigError(f"iwtm {ctx.step}", f"unknown part {part!r}; parts: {names[:8]}")
    return part


# ------------------------------------------------------------------ the parts of each step
def ch4(s) -> list[str]:
    """ch4's parts, in the order the rows are written: per (T, n_train, seed) the Gibbs
    IWTM fit with its fold-in and LDA on its clusters (``iwtm``), then the sLDA+BOW K
    sweep (``slda``)."""
    g = s.gibbs
    return [
        f"T{T}_n{n}_r{r}_{piece}"
        for T in unique(g.T, "iwtm.gibbs.T")
        for n in unique(s.n_train, "iwtm.n_train")
        for r in range(g.seeds)
        for piece in ("iwtm", "slda")
    ]


def ch5(s) -> list[str]:
    """ch5's parts: per (n_train, seed) the K-means codebooks and the Gaussian DP mixture
    (shared by the T values), then CAVI IWTM, LDA+KMEANS and LDA+GDPMM at every T."""
    return [f"n{n}_r{r}" for n in unique(s.n_train, "iwtm.n_train") for r in range(s.cavi.seeds)]


def scene8(s) -> list[str]:
    """scene8's parts: one Gibbs run per seed."""
    return [f"r{r}" for r in range(s.scene8.seeds)]


def semi(s) -> list[str]:
    """semi's parts: one CAVI fit per (N_total, seed)."""
    return [
        f"n{nt}_r{r}"
        for nt in unique(s.semi.n_total, "iwtm.semi.n_total")
        for r in range(s.cavi.seeds)
    ]


def svi(s) -> list[str]:
    """svi's parts: one SVI run per (rho, seed)."""
    return [
        f"rho{label(float(rho))}_r{r}"
        for rho in unique(s.svi.rho, "iwtm.svi.rho")
        for r in range(s.svi.seeds)
    ]


def ivi(s) -> list[str]:
    """ivi's parts: one growing run (IVI, IVI-NO-EXTEND, scratch) per seed."""
    return [f"r{r}" for r in range(s.ivi.seeds)]


def active(s) -> list[str]:
    """active's parts, in the order the rows are written: per seed the IWTM learner
    (``r0_iwtm``), then LDA+KMEANS at every K (``r0_K62``), each with every method."""
    a = s.active
    return [
        f"r{r}_{w}"
        for r in range(a.seeds)
        for w in ["iwtm"] + [f"K{K}" for K in unique(a.lda_K, "iwtm.active.lda_K")]
    ]


def pareback(s) -> list[str]:
    """pareback's parts: one VB run of the mixture per seed."""
    return [f"r{r}" for r in range(s.pareback.seeds)]


def sun(s) -> list[str]:
    """sun's parts: one run of the protocol (codebook, IWTM, SVMs) per seed."""
    return [f"r{r}" for r in range(s.sun.seeds)]


def ch4_fits(s) -> list[str]:
    """ch4's Gibbs fits (``T25_n100_r0_fit``): each one's output, the sampler's state, is
    the input of its ``_iwtm`` part (the fold-in), so neither job holds both."""
    return [p.removesuffix("_iwtm") + "_fit" for p in ch4(s) if p.endswith("_iwtm")]


def scene8_fits(s) -> list[str]:
    """scene8's Gibbs fits (``r0_fit``), the inputs of the fold-ins (``r0``)."""
    return [f"{p}_fit" for p in scene8(s)]


# step -> its parts (the settings of the step, which its ``<step>_part`` shares)
NAMES = {"ch4": ch4, "ch5": ch5, "scene8": scene8, "semi": semi, "svi": svi, "ivi": ivi,
         "active": active, "pareback": pareback, "sun": sun}  # fmt: skip


def _sun_chained(s) -> bool:
    return s.sun.fit_jobs > 1 or s.sun.map_jobs > 1


def sun_fits(s) -> list[str]:
    """A chained seed's jobs (``sun.fit_jobs`` or ``sun.map_jobs`` above 1): the SVI fit
    in shares (``r0_fit1`` ..) and the words and topics in shares (``r0_map1`` ..)."""
    if not _sun_chained(s):
        return []
    u = s.sun
    return [f"{p}_fit{k}" for p in sun(s) for k in range(1, u.fit_jobs + 1)] + [
        f"{p}_map{m}" for p in sun(s) for m in range(1, u.map_jobs + 1)
    ]


# step -> the parts no row comes from: fits whose state a part of NAMES reads
FITS = {"ch4": ch4_fits, "scene8": scene8_fits, "sun": sun_fits}


def jobs(step: str, s) -> list[str]:
    """Every part job of ``step``: the fits first, then the parts with rows."""
    return (FITS[step](s) if step in FITS else []) + NAMES[step](s)


def needs(step: str, part: str, s) -> dict[str, list[str]]:
    """The parts whose outputs ``part`` reads, by input name: ``fit`` (a fit's state),
    ``maps`` (a chained sun seed's maps)."""
    if step == "ch4" and part.endswith("_iwtm"):
        return {"fit": [part.removesuffix("_iwtm") + "_fit"]}
    if step == "scene8" and not part.endswith("_fit"):
        return {"fit": [f"{part}_fit"]}
    if step == "sun" and _sun_chained(s):
        seed, _, rest = part.partition("_")
        last = [f"{seed}_fit{s.sun.fit_jobs}"]
        if rest.startswith("fit"):
            k = int(rest[3:])
            return {"fit": [f"{seed}_fit{k - 1}"]} if k > 1 else {}
        if rest.startswith("map"):
            return {"fit": last}
        return {"fit": last, "maps": [f"{seed}_map{m}" for m in range(1, s.sun.map_jobs + 1)]}
    return {}


# the collecting steps that read the dataset's metadata (its .json beside the .npz)
NEEDS_META = ("ch4", "ch5", "scene8", "active")


def execute_all(study, step: str, params: dict, inputs: dict, outputs: dict, wildcards=None,
                workdir=None) -> None:  # fmt: skip
    """Run ``step`` the way the workflow does, in this process: every ``<step>_part`` into
    ``workdir`` (default: beside the first output), then ``step`` on the parts. ``inputs``
    are the part's (``data``); for tests and one-off runs."""
    section = {k: v for k, v in params.items() if k not in ("run", "base_seed", "threads")}
    names = jobs(step, study.settings(step, section))
    first = Path(next(iter(outputs.values())))
    folder = Path(workdir) if workdir is not None else first.parent / f"parts_{first.stem}"
    files = []
    for n in names:
        out = folder / f"{n}.npz"
        ins = dict(inputs)
        for name, ps in needs(step, n, study.settings(step, section)).items():
            ins[name] = [folder / f"{p}.npz" for p in ps]
        study.execute(f"{step}_part", params, ins, {"part": out},
                      {**(wildcards or {}), "part": n})  # fmt: skip
        if n in NAMES[step](study.settings(step, section)):
            files.append(out)
    ins: dict = {"parts": files}
    if step in NEEDS_META:
        data = Path(inputs["data"][0] if isinstance(inputs["data"], list) else inputs["data"])
        ins["meta"] = [data.with_suffix(".json")]
    study.execute(step, params, ins, outputs, wildcards or {})


def resource_key(step: str, part: str, s) -> str:
    """The resource key of a part job (iwtm.resources.<key>, or the cost table's row): the
    step; ch4's and scene8's fold-ins (which read a fit's state) ``ch4_fold`` /
    ``scene8_fold``, ch4's sLDA sweeps ``slda``, a chained sun seed's shares ``sun_fit`` /
    ``sun_map``."""
    if step == "ch4" and part.endswith("_slda"):
        return "slda"
    if step == "sun" and "_" in part:
        return "sun_" + part.split("_")[1][:3]
    if step in ("ch4", "scene8") and "fit" in needs(step, part, s):
        return f"{step}_fold"
    return step
