"""The admin index's line on the dispute queue: how many are open, the oldest, and the reader's."""

from django import template
from django.db.models import Count, Min, Q

from games.models import Dispute

register = template.Library()


@register.simple_tag
def open_disputes(user):
    """None for staff who may not see disputes: the index shows them no queue."""
    if not (user.has_perm("games.view_dispute") or user.has_perm("games.change_dispute")):
        return None
    return Dispute.objects.filter(status=Dispute.Status.OPEN).aggregate(
        open=Count("id"), oldest=Min("created_at"), mine=Count("id", filter=Q(assigned_to=user))
    )
