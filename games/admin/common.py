"""What the admin's pages share: the site's own templates and style sheet, refusals that name the
missing permission, and times to the second."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils.translation import gettext as _


User = get_user_model()


def needs(perm: str, page: str) -> PermissionDenied:
    """A refusal that says which permission is missing (the admin's 403 page shows it)."""
    return PermissionDenied(
        _("%(page)s needs the %(perm)s permission, which your account does not have.") % {"page": page, "perm": perm}
    )


def when(moment) -> str:
    """A time to the second: reviewers put events in order by it."""
    return "-" if moment is None else f"{moment:%Y-%m-%d %H:%M:%S} UTC"


def as_json(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def review_url(game_id, since: int, at: int) -> str:
    return reverse("admin:games_game_review", args=[game_id]) + f"?from={max(since, 0)}&at={at}"


# The stock admin pages, made accessible through the admin's documented options: a log-in page
# with a heading, and breadcrumbs that are not told apart by colour alone (web/admin/admin.css).
# The index shows the open disputes (the queue's length) above the apps.
admin.site.login_template = "admin/darkroom_login.html"
admin.site.index_template = "admin/darkroom_index.html"
ACCESSIBLE = forms.Media(css={"all": ["web/admin/admin.css"]})
