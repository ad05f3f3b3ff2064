from django.db import migrations


def keys(apps, schema_editor):
    """Every account's key and every resting name's key, as accounts.names computes them now.
    Of two accounts whose names have become the same name, the older keeps the key (the newer
    stays as it is, without one, and its look-alikes are still refused through the older). A
    resting name's key is recomputed from its old key, which is the old name's skeleton."""
    from accounts.names import key

    User = apps.get_model("accounts", "User")
    RetiredUsername = apps.get_model("accounts", "RetiredUsername")
    User.objects.update(username_key=None)
    taken = set()
    for user in User.objects.order_by("pk").only("pk", "username").iterator():
        user_key = key(user.username)
        if user_key not in taken:
            taken.add(user_key)
            User.objects.filter(pk=user.pk).update(username_key=user_key)
    resting = {}
    for name in RetiredUsername.objects.order_by("pk"):
        new = key(name.key)
        resting[new] = max(resting.get(new, name.until), name.until)
    RetiredUsername.objects.all().delete()
    RetiredUsername.objects.bulk_create([RetiredUsername(key=k, until=u) for k, u in resting.items()])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0007_push"),
    ]

    operations = [
        migrations.RunPython(keys, migrations.RunPython.noop),
    ]
