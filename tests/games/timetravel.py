"""Moving a game's clocks into the past, so a test can be 'three days later' at once.

Only the projection (Game.clocks and its wake times) is shifted: events stay as they were."""

from datetime import datetime, timedelta

from games.models import Game


def rewind(game_id, seconds: float) -> Game:
    game = Game.objects.get(pk=game_id)
    delta = timedelta(seconds=seconds)
    for seat in (game.clocks or {}).get("seats", {}).values():
        if seat["since"]:
            seat["since"] = (datetime.fromisoformat(seat["since"]) - delta).isoformat()
    game.next_deadline = game.next_deadline - delta if game.next_deadline else None
    game.next_reminder = game.next_reminder - delta if game.next_reminder else None
    game.save(update_fields=["clocks", "next_deadline", "next_reminder"])
    return game
