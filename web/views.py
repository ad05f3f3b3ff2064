"""The single page of the web client. It carries no data: everything comes from /api/v1/ in the
browser, with the player's token, exactly as a third-party client would get it."""
from django.views.decorators.http import require_GET
from django.views.generic import TemplateView

index = require_GET(TemplateView.as_view(template_name="web/index.html"))
