"""The one sign test (evaluation.metrics.sign_test_p) that the tir table and claims share."""

import pytest
from scipy.stats import binomtest

from latentlab.evaluation.metrics import sign_test_p


def test_sign_test_matches_the_exact_binomial():
    # Sec 3.5.1's printed counts (33 of 45 untied pairs); its printed p ~ 5e-4 disagrees
    assert sign_test_p(33, 12, "two-sided") == pytest.approx(0.0024589, rel=1e-4)
    assert sign_test_p(33, 12) == pytest.approx(0.0012294, rel=1e-4)
    assert sign_test_p(33, 12) == binomtest(33, 45, 0.5, alternative="greater").pvalue


def test_sign_test_edges():
    assert sign_test_p(0, 0) == 1.0
    assert sign_test_p(10, 0) == pytest.approx(0.5**10)
    assert sign_test_p(0, 10) == 1.0
    assert sign_test_p(5, 5, "two-sided") == 1.0
