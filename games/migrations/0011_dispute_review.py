"""Dispute review: a staff-only note apart from the message to the players, a claim, the
rollback a decision made; permissions to decide disputes, to roll games back and to see the seed of
a game not yet over; and the "Dispute reviewers" group holding what a reviewer needs
(docs/operations.md, "Disputes, rollbacks and reveals")."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

REVIEWERS = "Dispute reviewers"
# Exactly what deciding a dispute takes: the queue and the decision (dispute), the game's page, its
# state and review pages (view game), its event log inline (view event), and the rollback. Not the
# seed of a game in progress (view_seed), nor changing anything but disputes.
REVIEWER_PERMISSIONS = [
    ("games", "dispute", "view_dispute"),
    ("games", "dispute", "change_dispute"),
    ("games", "dispute", "decide_dispute"),
    ("games", "game", "view_game"),
    ("games", "game", "roll_back_game"),
    ("games", "event", "view_event"),
]


def reviewers_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions
    from django.contrib.contenttypes.management import create_contenttypes

    # Permissions are made after the migrations run (post_migrate); the group needs them now.
    for config in apps.get_app_configs():
        config.models_module = True
        create_contenttypes(config, verbosity=0, apps=apps)
        create_permissions(config, verbosity=0, apps=apps)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=REVIEWERS)
    group.permissions.set(
        [
            Permission.objects.get(content_type__app_label=app, content_type__model=model, codename=codename)
            for app, model, codename in REVIEWER_PERMISSIONS
        ]
    )


def no_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=REVIEWERS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_idempotency_key_per_user"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="dispute",
            options={
                "ordering": ["-created_at"],
                "permissions": [("decide_dispute", "Can decide disputes (uphold or dismiss)")],
            },
        ),
        migrations.AlterModelOptions(
            name="game",
            options={
                "ordering": ["-created_at"],
                "permissions": [
                    ("roll_back_game", "Can roll back games (with view game)"),
                    ("view_seed", "Can see the seed of an unfinished game"),
                ],
            },
        ),
        migrations.AddField(
            model_name="dispute",
            name="assigned_to",
            field=models.ForeignKey(
                blank=True,
                help_text="the reviewer who claimed it",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="dispute",
            name="note",
            field=models.TextField(
                blank=True,
                default="",
                help_text="for staff only: never shown to players, never in the game's log",
                verbose_name="staff note",
            ),
        ),
        migrations.AddField(
            model_name="dispute",
            name="rolled_back_to",
            field=models.PositiveIntegerField(
                blank=True, help_text="upheld with a rollback: the event the game went back to", null=True
            ),
        ),
        migrations.AlterField(
            model_name="dispute",
            name="resolution",
            field=models.TextField(
                blank=True,
                default="",
                help_text="published to the game's players with the decision; a draft while the dispute is open",
                verbose_name="message to the players",
            ),
        ),
        migrations.RunPython(reviewers_group, no_group),
    ]
