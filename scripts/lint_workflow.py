"""`snakemake --lint` for CI: fail on any remark that CONTRIBUTING does not list as kept.

The kept remarks and why are in CONTRIBUTING.md ("Workflow lint"); this list must match.
"""

from __future__ import annotations

import re
import subprocess
import sys

KEPT = {
    # one environment for the whole workflow (environment.yml / pyproject.toml)
    "Specify a conda environment or container for each rule.",
    # a study's input helpers stay in its rule file, so one study is one .smk to read
    "Mixed rules and functions in same snakefile",
    # LATENTLAB_MIRROR is optional: `envvars:` would make it required
    "Environment variable LATENTLAB_MIRROR used but not asserted with envvars directive",
}


def main() -> int:
    p = subprocess.run(
        ["snakemake", "--lint", *sys.argv[1:]], capture_output=True, text=True, check=False
    )
    text = p.stdout + p.stderr
    titles = re.findall(r"^\s+\* (.+?)(?: in line \d+)?\.?:$", text, flags=re.M)
    if not titles and p.returncode not in (0, 1):
        print(text)
        return p.returncode
    other = sorted({t for t in titles if not any(t.startswith(k.rstrip(".")) for k in KEPT)})
    kept = len(titles) - sum(t in other for t in titles)
    print(f"snakemake --lint: {len(titles)} remarks, {kept} kept on purpose (CONTRIBUTING)")
    for t in other:
        print(f"  not allowed: {t}")
    return 1 if other else 0


if __name__ == "__main__":
    sys.exit(main())
