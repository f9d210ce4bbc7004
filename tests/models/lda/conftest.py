import pytest

from .lda_helpers import synth_corpus


@pytest.fixture
def tiny():
    return synth_corpus()
