"""Fixtures of the data-layer tests."""

import pytest
from datahelpers import write_uci


@pytest.fixture
def uci_files(tmp_path):
    return write_uci(tmp_path)
