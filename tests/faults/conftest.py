import pytest

from tests.worker import purge_queue


@pytest.fixture(autouse=True)
def _run_queues():
    """The run's queues empty before and after each scenario."""
    purge_queue()
    yield
    purge_queue()
