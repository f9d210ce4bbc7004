"""The decision rule tied to noise (issue 38): a verdict from a row's replicates.

A ledger row compares a quantity measured in ``n`` replicates (seeds, splits, chains, runs)
with the region the document's claim accepts: an order "A > B by more than m" accepts the
difference d = A - B in (m, inf); a value row accepts ``[paper - tol, paper + tol]``
(``abs``), ``[paper - tol, inf)`` (``ge``) and so on. With the replicates' mean ``x``,
their standard deviation ``sd`` and ``se = sd / sqrt(n)``:

- **reproduced**: the claim holds beyond the noise: every replicate lies in the region
  (``n >= MIN_REPS``), or the band ``x +- Z_BAND * se`` lies inside it, or the row's own
  one-sided t-test (``test="t0.05"``) rejects the other side at its level;
- **not_reproduced**: the opposite holds beyond the noise: every replicate lies outside, on
  one side (``n >= MIN_REPS``), or the band lies outside, or the t-test the other way;
- **inconclusive**: neither. The note says how many replicates would decide it at the
  measured mean and spread (:func:`replicates_needed`).

Fewer than ``MIN_REPS`` replicates decide only with a spread measured elsewhere
(:class:`Noise`: the sd of the same quantity over replicates of a related run, its source
named) or when the quantity has no noise at all (``deterministic``: no seed, split or
chain changes it, e.g. a count on fixed data). Otherwise the row is ``inconclusive``: one
run says nothing about how far the next would land.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z_BAND = 2.0  # the band: the mean +- 2 standard errors
MIN_REPS = 3  # replicates needed to decide on their own spread
K_REALISTIC = 3.0  # claims prove: a counter-example within K x the spread is realistic


@dataclass(frozen=True)
class Noise:
    """A spread measured elsewhere for a row with fewer than ``MIN_REPS`` replicates: ``sd``
    of the same quantity over ``n`` replicates of ``source`` (a file, a ladder rung, a
    related setting of the same run)."""

    sd: float
    n: int
    source: str

    def __post_init__(self):
        if not (math.isfinite(self.sd) and self.sd >= 0):
            raise ValueError(f"noise sd {self.sd!r} must be finite and >= 0")
        if self.n < MIN_REPS:
            raise ValueError(f"noise from {self.n} replicates: at least {MIN_REPS} are needed")
        if not self.source:
            raise ValueError("noise needs its source")

    def as_rule(self) -> dict:
        return {"sd": float(self.sd), "n": int(self.n), "from": self.source}

    @classmethod
    def from_rule(cls, d: dict | None) -> Noise | None:
        return None if not d else cls(float(d["sd"]), int(d["n"]), str(d["from"]))


@dataclass(frozen=True)
class Region:
    """The values a claim accepts: ``lo .. hi`` (either may be infinite), each end open or
    closed."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False

    def above_lo(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return x > self.lo if self.lo_open else x >= self.lo

    def below_hi(self, x) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return x < self.hi if self.hi_open else x <= self.hi

    def inside(self, x) -> np.ndarray:
        return self.above_lo(x) & self.below_hi(x)

    def distance(self, x: float) -> float:
        """How far ``x`` is from the nearest end (>= 0)."""
        ends = [e for e in (self.lo, self.hi) if math.isfinite(e)]
        return min(abs(x - e) for e in ends) if ends else math.inf


@dataclass(frozen=True)
class Decision:
    """A verdict with the numbers behind it."""

    verdict: str
    why: str
    n: int
    mean: float
    sd: float  # the spread used: the replicates' own, the Noise's, 0 when deterministic
    band: float  # Z_BAND x the standard error (nan: no spread)
    needed: float = math.nan  # replicates that would decide an inconclusive row (inf: none)


def _t_sided(v: np.ndarray, bound: float, above: bool, alpha: float) -> bool:
    """One-sided t-test that the mean lies above (or below) ``bound`` at level ``alpha``."""
    from scipy import stats

    d = (v - bound) if above else (bound - v)
    sd = float(np.std(d, ddof=1))
    if sd == 0.0:
        return bool(d.mean() > 0)
    t = d.mean() / (sd / math.sqrt(len(d)))
    return bool(stats.t.sf(t, len(d) - 1) < alpha)


def replicates_needed(mean: float, sd: float, region: Region) -> float:
    """Replicates at which the band ``mean +- Z_BAND sd / sqrt(n)`` clears the nearest end
    of ``region``, at the measured mean and spread (a power estimate; inf when the mean
    sits on an end or no spread was measured)."""
    dist = region.distance(mean)
    if not (dist > 0 and math.isfinite(sd)):
        return math.inf
    if sd == 0:
        return float(MIN_REPS)
    return float(max(MIN_REPS, math.ceil((Z_BAND * sd / dist) ** 2)))


def decide(
    values,
    region: Region,
    *,
    noise: Noise | None = None,
    deterministic: bool = False,
    test: str = "every",
) -> Decision:
    """The verdict on per-replicate ``values`` (see the module docstring)."""
    v = np.atleast_1d(np.asarray(values, dtype=float)).ravel()
    n = int(v.size)
    if n == 0:
        return Decision("not_reproduced", "no value measured", 0, math.nan, math.nan, math.nan)
    if not np.isfinite(v).all():
        return Decision("not_reproduced", "a value is non-finite", n, math.nan, math.nan,
                        math.nan)  # fmt: skip
    mean = float(v.mean())
    own = n >= MIN_REPS
    if deterministic:
        sd = 0.0
    elif own:
        sd = float(np.std(v, ddof=1))
    elif noise is not None:
        sd = float(noise.sd)
    else:
        sd = math.nan
    band = Z_BAND * sd / math.sqrt(n) if math.isfinite(sd) else math.nan
    lo_x, hi_x = mean - band, mean + band
    every_in = own and bool(region.inside(v).all())
    every_out = own and bool((~region.above_lo(v)).all() or (~region.below_hi(v)).all())
    band_in = math.isfinite(band) and bool(region.inside(lo_x) and region.inside(hi_x))
    band_out = math.isfinite(band) and bool(
        (not region.above_lo(hi_x)) or (not region.below_hi(lo_x))
    )
    t_in = t_out = False
    if test.startswith("t"):
        alpha = float(test[1:])
        if not (0 < alpha < 1):
            raise ValueError(f"test {test!r}: the level must lie in (0, 1)")
        one_sided = math.isfinite(region.lo) != math.isfinite(region.hi)
        if own and one_sided:
            bound, above = (region.lo, True) if math.isfinite(region.lo) else (region.hi, False)
            t_in = _t_sided(v, bound, above, alpha)
            t_out = _t_sided(v, bound, not above, alpha)
    elif test != "every":
        raise ValueError(f"unknown test {test!r}; use 'every' or 't<alpha>'")
    if every_in or band_in or t_in:
        return Decision("reproduced", "", n, mean, sd, band)
    if every_out or band_out or t_out:
        return Decision("not_reproduced", "", n, mean, sd, band)
    if not math.isfinite(sd):
        why = (
            f"{n} replicate{'s' if n > 1 else ''} and no spread measured: at least {MIN_REPS} "
            "replicates (or a spread measured elsewhere) decide it"
        )
        return Decision("inconclusive", why, n, mean, sd, band, math.inf)
    need = replicates_needed(mean, sd, region)
    need_txt = "no number of replicates" if math.isinf(need) else f"~{int(need)} replicates"
    why = (
        f"the noise band {_g(mean)} +- {_g(band)} (2 s.e., n = {n}, sd {_g(sd)}) covers "
        f"both outcomes; {need_txt} would decide it at this spread"
    )
    return Decision("inconclusive", why, n, mean, sd, band, need)


def noise_floor(tol: float, sd: float, what: str = "the replicates' sd") -> tuple[float, str]:
    """A value row's tolerance never narrower than its spread: max(``tol``, ``sd``: the
    replicates' sd, or ``what`` it is), and a note when it was raised (empty otherwise)."""
    if not (np.isfinite(sd) and sd > tol):
        return tol, ""
    return sd, (f"tolerance raised from {tol:.3g} to {what} {sd:.3g} (issue 38: never "
                "narrower than the noise)")  # fmt: skip


def _g(x: float) -> str:
    return f"{x:.4g}"
