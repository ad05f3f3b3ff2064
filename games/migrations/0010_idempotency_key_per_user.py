"""Idempotency keys are unique per game and caller, not per game: a person could otherwise spend a
bot's predictable key first and freeze it until its clock forfeits the seat."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0009_game_indexes_without_like_twins")]

    operations = [
        migrations.RemoveConstraint(model_name="event", name="event_idempotency_unique"),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                fields=("game", "user", "idempotency_key"), name="event_idempotency_per_user_unique"
            ),
        ),
    ]
