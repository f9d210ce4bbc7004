"""compare's settings are checked when the workflow starts (rules/compare.smk runs the
study's check_config on the compare section): ranges, allowed values and the step-size
schedules' first step, each naming its key (issue 25)."""

from __future__ import annotations

import pytest

from latentlab.errors import ConfigError
from latentlab.studies.shape import load_study

OK = {"dataset": "tiny", "K": [3]}


@pytest.mark.parametrize(
    "bad, msg",
    [
        ({"methods": ["cvb0", "scvbo"]}, r"compare\.methods\[1\]: 'scvbo' is not one of \["),
        ({"K": [4, 1]}, r"compare\.K\[1\]: must be >= 2, got 1"),
        # checked inside the split job before issue 25
        ({"test_frac": 1.0}, r"compare\.test_frac: must be > 0, < 1, got 1\.0"),
        ({"observed_frac": 0}, r"compare\.observed_frac: must be > 0, < 1, got 0"),
        # checked by the models' constructors inside the fit jobs before issue 25
        ({"hdp": {"prior": "XX"}}, r"compare\.hdp\.prior: 'XX' is not one of \['AS', 'AA'\]"),
        ({"scvb0": {"rho_phi": {"s": 10, "tau": 1, "kappa": 0.5}}},
         r"compare\.scvb0\.rho_phi\.s: the first step s/\(tau\+1\)\^kappa = 7\.071 > 1"),
        ({"svb": {"rho": {"s": 1, "tau": 10, "kappa": 1.5}}},
         r"compare\.svb\.rho\.kappa: must be > 0, <= 1, got 1\.5"),
        ({"cgs": {"burn_in": -1}}, r"compare\.cgs\.burn_in: must be >= 0, got -1"),
        ({"evaluation": {"n_checkpoints": 0}},
         r"compare\.evaluation\.n_checkpoints: must be >= 1, got 0"),
    ],
)  # fmt: skip
def test_a_bad_value_is_refused_naming_the_key(bad, msg):
    st = load_study("compare")
    st.check_config(OK)
    with pytest.raises(ConfigError, match=msg):
        st.check_config({**OK, **bad})
