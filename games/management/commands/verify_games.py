"""`manage.py verify_games`: replay every game from its events and check the database agrees.

Run it on a restored database (docs/operations.md, "Backups") before trusting it: each game is
replayed from its first event, without snapshots or the state cache, to the same version, status,
turn and result as its row, and to the same state as each of its snapshots. Exits 1 if any game
disagrees, naming it and what differs.
"""

from django.core.management.base import BaseCommand

from games.play.audit import verify_games


class Command(BaseCommand):
    help = "Replay every game from its events; fail if a game's row or snapshots disagree."
    requires_system_checks = []  # a verdict on the data: the deployment's warnings are not its business

    def handle(self, *args, **options):
        games = bad = 0
        for game, found in verify_games():
            games += 1
            if found:
                bad += 1
                for item in found:
                    self.stderr.write(
                        f"game {item.game_id}: {item.what} is {item.kept!r}, its events say {item.replayed!r}"
                    )
        if bad:
            self.stderr.write(f"{bad} of {games} games disagree with their events")
            raise SystemExit(1)
        self.stdout.write(f"{games} games replayed: each agrees with its events")
