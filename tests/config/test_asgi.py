"""The operational middleware works under ASGI too (async, without forcing views into threads)."""
import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient


@pytest.mark.django_db(transaction=True)
def test_probes_metrics_and_request_ids_answer_under_asgi():
    async def scenario():
        client = AsyncClient()
        live = await client.get("/healthz")
        ready = await client.get("/readyz")
        kinds = await client.get("/api/v1/kinds/", headers={"X-Request-ID": "asgi-1"})
        scraped = await client.get("/metrics")
        return live, ready, kinds, scraped

    live, ready, kinds, scraped = async_to_sync(scenario)()
    assert live.json() == {"status": "ok"}
    assert ready.status_code == 200, ready.content
    assert kinds.status_code == 200 and kinds["X-Request-ID"] == "asgi-1"
    assert 'route="api/v1/kinds/"' in scraped.content.decode()
