"""Shared by the study tests (this directory is on sys.path for the tests below it)."""

import pytest


@pytest.fixture
def rules_changed():
    """``fn(target, override, tmp_path) -> {rules whose job commands change}``
    (:mod:`shape_dryrun`): a test that a setting reaches only the steps that read it."""
    from shape_dryrun import rules_changed as fn

    return fn
