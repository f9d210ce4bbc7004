"""The Python API block of docs/api.md (linked from the README) runs as written, so it
cannot rot.

The block is the page's first ```python block (under "# Python API"), run with one
documented substitution: the path "docs.txt" becomes the bundled 42-document
corpus tests/compare/tiny_corpus.txt. Iteration counts are the page's own.
"""

import math
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "compare" / "tiny_corpus.txt"


DOC = "docs/api.md"


def readme_api_block() -> str:
    text = (ROOT / DOC).read_text(encoding="utf-8")
    assert text.startswith("# Python API\n"), f"{DOC} is not the Python API page"
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, f"{DOC} has no ```python block"
    return blocks[0]


def test_readme_python_api_runs_on_the_tiny_corpus(capsys):
    code = readme_api_block()
    assert code.count('"docs.txt"') == 1, "the documented substitution needs one docs.txt"
    code = code.replace('"docs.txt"', repr(str(TINY)))
    ns: dict = {"__name__": "readme_api"}
    exec(compile(code, f"{DOC}#python-api", "exec"), ns)

    results = ns["results"]
    assert set(results) == {"SCVB0", "CGS", "HDP-PCVB0", "CTM"}
    W = ns["corpus"].n_vocab
    for name, ppl in results.items():
        assert math.isfinite(ppl) and 1.0 < ppl < 10 * W, (name, ppl)
    for model, _ in ns["models"].values():
        np.testing.assert_allclose(model.phi().sum(axis=1), 1, rtol=1e-9)
        th = model.theta()
        assert th.shape[0] == ns["train"].n_docs
        np.testing.assert_allclose(th.sum(axis=1), 1, rtol=1e-9)
    assert len(ns["curve"]) > 1 and ns["curve"][-1][0] == 5.0
    out = capsys.readouterr().out
    assert all(name in out for name in results)
