"""`make bench`: ten game tabs in one browser, one live connection for them all, and how soon a
move reaches every tab that shows its game and the opponent's browser (never part of `make test`).

Moves are made through the API, alternately by the two players, over the nine games the tabs
show; each page records, with a MutationObserver, the moment the move's line appears in its log.
The latency of a move to a page is that moment less the moment its `POST` was sent (one machine,
one clock). The server is the browser tests' own (uvicorn, the application alone, no proxy),
sharing the machine's two cores with the browser and this client."""

from __future__ import annotations

import statistics
import time

import pytest

from tests.web.pages import Seat, game, open_page
from tests.web.test_live_tabs import move_by_api, open_streams, ten_tabs

pytestmark = pytest.mark.bench

SEEN = """() => {
  window.__seen = {};
  const note = () => document.querySelectorAll('li[data-seq]').forEach((li) => {
    if (!(li.dataset.seq in window.__seen)) window.__seen[li.dataset.seq] = Date.now();
  });
  note();
  new MutationObserver(note).observe(document.body, { childList: true, subtree: true });
}"""


def seen(page, seq: int, timeout: float = 30.0) -> float | None:
    """When `page` drew event `seq` (epoch seconds), or None if it had not within `timeout`."""
    page.wait_for_function("seq => window.__seen && (String(seq) in window.__seen)", arg=seq, timeout=timeout * 1000)
    return page.evaluate("seq => window.__seen[String(seq)]", seq) / 1000


@pytest.mark.timeout(900)
def test_bench_a_move_reaches_ten_tabs_and_the_opponent(web, browser, capsys):
    ann, bob = Seat(web, "ann"), Seat(web, "bob")
    games = [game("photograph", [ann, bob]) for _ in range(9)]
    context, tabs, errors, _ = ten_tabs(browser, web, ann, games)
    opponent, bobs, _ = open_page(
        browser, web, bob, f"#/games/{games[0]}", {"width": 1280, "height": 800}, "[data-status]"
    )
    pages = [*tabs, bobs]
    showing = {game_id: [p for p in tabs if p.url.endswith(f"/games/{game_id}")] for game_id in games}
    showing[games[0]].append(bobs)
    latencies: list[float] = []
    missed = 0
    try:
        for page in pages:
            page.evaluate(SEEN)
        connections = open_streams(ann)
        for n in range(45):
            game_id = games[n % len(games)]
            sent = time.time()
            version = move_by_api([ann, bob], game_id)
            for page in showing[game_id]:
                try:
                    latencies.append(seen(page, version) - sent)
                except Exception:
                    missed += 1
            time.sleep(0.2)
    finally:
        context.close()
        opponent.close()
    latencies.sort()
    p50 = statistics.median(latencies)
    p95 = latencies[max(0, round(0.95 * len(latencies)) - 1)]
    with capsys.disabled():
        print(
            f"\nTen game tabs in one browser and the opponent's page: {len(latencies)} drawings of 45 moves "
            f"(missed {missed}); live connections held by the ten tabs: {connections}\n"
            f"  from POST sent to drawn: p50 {1000 * p50:.0f} ms, p95 {1000 * p95:.0f} ms, max {1000 * latencies[-1]:.0f} ms "
            f"(target: p95 < 500 ms)"
        )
    assert connections == 1 and not errors
    assert latencies and missed == 0
