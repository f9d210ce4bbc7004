import pytest
from threadpoolctl import threadpool_limits


@pytest.fixture(autouse=True, scope="module")
def _one_blas_thread():
    """Single-threaded BLAS: these tests do many small solves (threads only add contention)."""
    with threadpool_limits(1):
        yield
