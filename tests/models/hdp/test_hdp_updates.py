"""Global updates of seed 001: Γ approximations (Eq 20), sticks (Eqs 24–28), fixed points
(Eqs 29, 30), γ0 (Eq 33), τ (Eq 31) and the Teh–Kurihara–Welling expectations ([24], as coded
in infpy)."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import digamma, gamma, gammaln

from latentlab.models.hdp import updates
from latentlab.models.hdp.updates import FixedPointError


# ------------------------------------------------------------------ Eq 20 (claim C3)
def test_gamma_values_quoted_in_fig2_caption():
    assert gamma(1.05) == pytest.approx(0.9735, abs=5e-5)
    assert gamma(0.05) == pytest.approx(19.47, abs=5e-3)
    assert 1 / 0.05 == 20


@pytest.mark.parametrize("alpha", [0.0122, 0.05, 0.1532, 0.5, 1.0])
def test_gamma_bounds_eq20(alpha):
    assert gamma(alpha) <= 1 / alpha + 1e-12  # Γ(α) ≤ 1/α
    assert gamma(alpha + 1) <= 1.0 + 1e-12  # Γ(α+1) ≤ Γ(1)
    for n in range(2, 11):
        assert gamma(n + alpha) >= gamma(n)  # Γ(n+α) ≥ Γ(n)


@pytest.mark.parametrize(
    "alpha,n,err", [(0.0122, 2, 0.012), (0.05, 2, 0.049), (0.05, 20, 0.175), (0.5, 20, 1.61)]
)
def test_ratio_approximation_error(alpha, n, err):
    """Γ(α+n)/Γ(α) ≈ Γ(n)·α; log error (exact − approx) of the
    approximation of Sec 5.2 (Eqs 20–23)."""
    exact = gammaln(alpha + n) - gammaln(alpha)
    approx = gammaln(n) + np.log(alpha)
    assert exact - approx == pytest.approx(err, abs=0.006)
    # exact at n = 1
    assert gammaln(alpha + 1) - gammaln(alpha) == pytest.approx(np.log(alpha))


def test_ratio_approximation_monte_carlo():
    """Γ(α+n)/Γ(α) = E over tables: Γ(α+n)/(Γ(α)Γ(n)) = n·B(α, n)^{-1}/n ... via
    the Beta integral 1/B(α, n) = Γ(α+n)/(Γ(α)Γ(n)); estimate E[x^{α-1}(1-x)^{n-1}] under U."""
    rng = np.random.default_rng(0)
    alpha, n = 0.05, 5
    # B(α, n) = ∫ x^{α-1}(1-x)^{n-1} dx; sample x ~ Beta(α, 1) (density α x^{α-1}).
    x = rng.beta(alpha, 1.0, 400_000)
    B = np.mean((1 - x) ** (n - 1)) / alpha
    ratio_mc = gamma(n) / B  # = Γ(α+n)/Γ(α)
    exact = gamma(alpha + n) / gamma(alpha)
    assert ratio_mc == pytest.approx(exact, rel=0.02)
    assert exact == pytest.approx(gamma(n) * alpha, rel=0.15)  # the approximation, α small


# -------------------------------------------------------------- sticks (Eqs 24–28)
def test_uniform_stick_gives_one_over_T():
    for T in (2, 3, 10, 300):
        a, b = updates.uniform_stick(T)
        np.testing.assert_allclose(updates.stick_expectation(a, b), 1 / T, rtol=1e-12)


def test_stick_expectation_against_monte_carlo():
    rng = np.random.default_rng(1)
    a = np.array([2.0, 1.5, 3.0])
    b = np.array([4.0, 2.0, 1.0])
    pit = rng.beta(a, b, (200_000, 3))
    pit = np.concatenate([pit, np.ones((len(pit), 1))], 1)
    pi = pit * np.concatenate([np.ones((len(pit), 1)), np.cumprod(1 - pit[:, :-1], 1)], 1)
    np.testing.assert_allclose(updates.stick_expectation(a, b), pi.mean(0), atol=3e-3)
    np.testing.assert_allclose(updates.stick_log_geometric(a, b), np.log(pi).mean(0), atol=1e-2)
    assert updates.stick_expectation(a, b).sum() == pytest.approx(1.0)


def test_q_pi_by_hand():
    """Eq 25 with m = (3, 2, 1, 0.5), γ0 = 2: a = 1 + m_k, b = γ0 + Σ_{l>k} m_l."""
    a, b = updates.q_pi_pcvb(np.array([3.0, 2.0, 1.0, 0.5]), 2.0)
    np.testing.assert_allclose(a, [4.0, 3.0, 2.0])
    np.testing.assert_allclose(b, [2 + 3.5, 2 + 1.5, 2 + 0.5])


def test_gamma0_closed_form_maximises_prior_term():
    """Eq 33 maximises (T−1)log γ0 + (γ0−1)Σ E[log(1−π̃_k)] (the γ0 part of −KL)."""
    a = np.array([5.0, 3.0, 2.0, 1.2])
    b = np.array([7.0, 4.0, 2.5, 1.1])
    s = np.sum(digamma(b) - digamma(a + b))
    f = lambda g: -(len(a) * np.log(g) + (g - 1) * s)  # noqa: E731
    opt = minimize_scalar(f, bounds=(1e-6, 1e3), method="bounded", options={"xatol": 1e-10})
    assert updates.gamma0_closed_form(a, b) == pytest.approx(opt.x, rel=1e-6)


# --------------------------------------------------------- fixed points (Eqs 29, 30)
def _objective(x, num, n):
    """α0 part of log p̃ (Eq 21): num·log α0 + Σ_d [log Γ(α0) − log Γ(α0 + n_d)]."""
    return num * np.log(x) + np.sum(gammaln(x) - gammaln(x + n))


@pytest.mark.parametrize("num", [25.0, 60.0, 150.0])
def test_fixed_point_matches_direct_optimisation(num):
    n = np.array([10.0, 30.0, 7.0, 55.0, 12.0, 3.0, 40.0, 20.0])
    fp = updates.fixed_point_concentration(num, n, 0.1, max_iter=5000, tol=1e-12)
    assert fp.converged and fp.n_iter > 1
    opt = minimize_scalar(
        lambda lx: -_objective(np.exp(lx), num, n),
        bounds=(-15, 15),
        method="bounded",
        options={"xatol": 1e-12},
    )
    assert fp.value == pytest.approx(np.exp(opt.x), rel=1e-5)
    # stationarity of Eq 29
    assert num / fp.value == pytest.approx(np.sum(digamma(n + fp.value) - digamma(fp.value)))


def test_fixed_point_without_root_is_reported():
    n = np.array([5.0, 5.0, 5.0])
    fp = updates.fixed_point_concentration(3.0, n, 0.1)  # num = #groups: α0 → 0
    assert not fp.converged and fp.n_iter == 0 and "no positive root" in fp.note
    fp = updates.fixed_point_concentration(15.0, n, 0.1)  # num = Σ n: α0 → ∞
    assert not fp.converged and fp.value == 1e8


def test_fixed_point_iteration_limit_reports_count():
    n = np.array([100.0, 200.0, 300.0])
    fp = updates.fixed_point_concentration(590.0, n, 1e-3, max_iter=3, tol=1e-14)
    assert not fp.converged and fp.n_iter == 3
    err = FixedPointError("alpha0", fp.n_iter, fp.note)
    assert "after 3 inner iterations" in str(err)


def test_tau_zero_for_unseen_and_floor():
    tau = updates.tau_from_counts(np.array([2.0, 0.0, 6.0]))
    np.testing.assert_allclose(tau, [0.25, 0.0, 0.75])
    t2 = updates.floor_tau(tau, 1e-3)
    assert t2[1] > 0 and t2.sum() == pytest.approx(1.0)


# ------------------------------------------------------------- CVB machinery ([24])
def _poisson_binomial(p):
    dist = np.array([1.0])
    for pi in p:
        dist = np.convolve(dist, [1 - pi, pi])
    return dist


def test_expected_tables_close_to_exact_enumeration():
    """E[s] = E[α(Ψ(α+n) − Ψ(α))] over n ~ Poisson-binomial(q); Taylor form of [24] (via infpy)."""
    q = np.array([0.9, 0.7, 0.5, 0.8, 0.3, 0.6, 0.95, 0.4])
    alpha = 0.05
    dist = _poisson_binomial(q)
    n = np.arange(len(dist))
    exact = np.sum(dist * alpha * (digamma(alpha + n) - digamma(alpha)))
    E, V = q.sum(), np.sum(q * (1 - q))
    L = np.sum(np.log1p(-q))
    P, Ep, Vp = updates.positive_part(np.array([E]), np.array([V]), np.array([L]))
    # positive-part moments are the exact conditional moments given n >= 1
    pos = dist[1:] / dist[1:].sum()
    assert Ep[0] == pytest.approx(np.sum(pos * n[1:]), rel=1e-10)
    assert Vp[0] == pytest.approx(np.sum(pos * n[1:] ** 2) - Ep[0] ** 2, rel=1e-8)
    approx = updates.expected_tables(np.array([alpha]), P, Ep, Vp)[0]
    assert approx == pytest.approx(exact, rel=0.02)


def test_expected_tables_zero_where_no_mass():
    P, Ep, Vp = updates.positive_part(np.zeros(2), np.zeros(2), np.zeros(2))
    assert np.all(updates.expected_tables(np.array([0.1, 0.1]), P, Ep, Vp) == 0)


def test_gamma_moments():
    E, G = updates.gamma_moments(3.0, 2.0)
    rng = np.random.default_rng(2)
    x = rng.gamma(3.0, 0.5, 200_000)
    assert E == pytest.approx(x.mean(), rel=1e-2)
    assert G == pytest.approx(np.exp(np.log(x).mean()), rel=1e-2)


def test_psi2_agrees_with_polygamma():
    """Ψ'' of the [24] table counts (kernels.psi2) against scipy's polygamma(2, x) = −2ζ(3, x)
    over 22 decades, at both sides of the switch to the asymptotic series (x = 10), and
    against the finite difference of Ψ' (a check that does not rely on either form)."""
    from scipy.special import polygamma

    rng = np.random.default_rng(4)
    x = np.concatenate([
        10.0 ** rng.uniform(-7, 15, 20_000), rng.uniform(0.5, 30, 20_000),
        [1e-300, 0.0, 0.5, 1.0, 1.4616321449683623, 9.999999999, 10.0, 10.000001, np.inf],
    ])  # fmt: skip
    with np.errstate(divide="ignore"):  # ψ''(0) = −inf
        got, ref = updates.psi2(x), polygamma(2, x)
    np.testing.assert_allclose(got, ref, rtol=2e-15, atol=0)
    assert got[-9] == got[-8] == -np.inf and got[-1] == 0
    assert np.isnan(updates.psi2(-1.0))
    np.testing.assert_array_equal(
        updates.psi2(x[:40_000].reshape(2, -1, 1)), got[:40_000].reshape(2, -1, 1)
    )
    for v in (0.3, 2.0, 17.0):
        h = 1e-5 * v
        fd = (polygamma(1, v + h) - polygamma(1, v - h)) / (2 * h)
        assert updates.psi2(v) == pytest.approx(fd, rel=1e-6)


def test_psi2_against_high_precision():
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(5)
    x = np.concatenate([10.0 ** rng.uniform(-5, 8, 300), rng.uniform(1, 12, 300)])
    with mpmath.workdps(40):
        ref = np.array([float(mpmath.polygamma(2, mpmath.mpf(v))) for v in x])
    np.testing.assert_allclose(updates.psi2(x), ref, rtol=1e-15)
