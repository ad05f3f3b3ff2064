"""Tournaments for staff: hold one (no next round while paused), remove a player, settle a game in
progress. Each is a button on the tournament's page that opens a confirmation form, and each goes
through its use case (games.community.tournament_staff), which checks the permission again and
keeps the tournament's rules; everything else is the server's to write."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _, gettext_lazy as _lazy, ngettext

from games.admin.common import ACCESSIBLE, needs
from games.community import tournament_staff
from games.errors import DomainError
from games.models import Game, Registration, Seat, Tournament, TournamentTable

OPEN = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


class RegistrationInline(admin.TabularInline):
    """The players, in their initial order; removing one goes through the tournament's use case
    (their games in progress are resigned), never by deleting the row."""

    model = Registration
    fields = ("number", "user", "rating", "created_at", "withdrawn_at", "removed", "remove_link")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        # The players are part of the tournament: whoever may see it sees them.
        return request.user.has_perm("games.view_tournament") or request.user.has_perm("games.change_tournament")

    def get_formset(self, request, obj=None, **kwargs):
        # The link is drawn only for those who may follow it (the page it opens asks again).
        may = request.user.has_perm("games.change_tournament")
        self._may_remove = obj is not None and obj.status in OPEN and may
        return super().get_formset(request, obj, **kwargs)

    @admin.display(description=_lazy("staff"))
    def remove_link(self, registration):
        if not getattr(self, "_may_remove", False) or registration.withdrawn_at is not None:
            return "-"
        url = reverse("admin:games_tournament_remove", args=[registration.tournament_id, registration.user_id])
        return format_html('<a class="button" href="{}">{}</a>', url, _("Remove…"))


class HoldForm(forms.Form):
    # What the page offered: a page left open while someone else paused does not undo their pause.
    paused = forms.BooleanField(required=False, widget=forms.HiddenInput)


class RemoveForm(forms.Form):
    """Nothing to fill in: the page says what removal does, the button confirms it."""


class SettleForm(forms.Form):
    """A place for each seat, named by its player, and the reason kept in the game's log."""

    reason = forms.CharField(
        label=_lazy("reason"),
        required=False,
        max_length=tournament_staff.REASON_MAX,
        help_text=_lazy("kept in the game's log with your name; the players see it with the result"),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, seats: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(str(p), str(p)) for p in range(1, len(seats) + 1)]
        for number, player in enumerate(seats):
            self.fields[f"place_{number}"] = forms.TypedChoiceField(
                label=_("Seat %(seat)d: %(player)s") % {"seat": number + 1, "player": player},
                choices=choices,
                coerce=int,
            )
        self.order_fields([f"place_{n}" for n in range(len(seats))] + ["reason"])
        self.seats = len(seats)

    def places(self) -> list[int]:
        return [self.cleaned_data[f"place_{n}"] for n in range(self.seats)]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "format", "status", "paused", "current_round", "rounds", "organiser", "created_at")
    list_filter = ("status", "format", "kind", "paused")
    search_fields = ("name", "organiser__username")
    readonly_fields = [f.name for f in Tournament._meta.fields if f.name != "seed"]
    exclude = ("seed",)  # secret until the tournament is over; the hash is public
    inlines = [RegistrationInline]
    actions = ["pause", "unpause"]
    change_form_template = "admin/games/tournament/change_form.html"
    media = property(lambda self: super(TournamentAdmin, self).media + ACCESSIBLE)

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # The list's actions -------------------------------------------------------------------------
    def _paused(self, request, queryset, paused: bool) -> None:
        done = 0
        for tournament in queryset:
            try:
                tournament = tournament_staff.set_paused(tournament.pk, request.user, paused)
            except DomainError as error:
                messages.error(request, error.detail)
                continue
            self.log_change(request, tournament, held(paused))
            done += 1
        if done:
            messages.success(
                request,
                (
                    ngettext("%(n)d tournament paused.", "%(n)d tournaments paused.", done)
                    if paused
                    else ngettext("%(n)d tournament unpaused.", "%(n)d tournaments unpaused.", done)
                )
                % {"n": done},
            )

    @admin.action(description=_lazy("Pause: no next round until unpaused"), permissions=["change"])
    def pause(self, request, queryset):
        self._paused(request, queryset, True)

    @admin.action(
        description=_lazy("Unpause (the next round opens at once if the last is over)"), permissions=["change"]
    )
    def unpause(self, request, queryset):
        self._paused(request, queryset, False)

    # The tournament's page: its buttons and the games in progress -------------------------------
    def change_view(self, request, object_id, form_url="", extra_context=None):
        tournament = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if tournament is not None:
            may = tournament.status in OPEN and self.has_change_permission(request, tournament)
            extra["staff_may_act"] = may
            extra["games_in_play"] = in_play(tournament) if may else []
        return super().change_view(request, object_id, form_url, extra)

    def get_urls(self):
        def view(function, route, name):
            return path(route, self.admin_site.admin_view(function), name=f"games_tournament_{name}")

        return [
            view(self.hold_view, "<path:object_id>/hold/", "hold"),
            view(self.remove_view, "<path:object_id>/remove/<int:user_id>/", "remove"),
            view(self.settle_view, "<path:object_id>/settle/<uuid:game_id>/", "settle"),
        ] + super().get_urls()

    def _tournament(self, request, object_id, what: str) -> Tournament:
        tournament = self.get_object(request, object_id)
        if tournament is None:
            raise Http404(_("no such tournament"))
        if not self.has_change_permission(request, tournament):
            raise needs("games.change_tournament", what)
        return tournament

    def _page(self, request, tournament, form, title: str, explanation: str, confirm: str, status: int = 200):
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": tournament,
            "title": title,
            "explanation": explanation,
            "confirm": confirm,
            "form": form,
            "media": self.media + form.media,
        }
        return TemplateResponse(request, "admin/games/tournament/staff_form.html", context, status=status)

    def _done(self, request, tournament, said: str):
        self.log_change(request, tournament, said)
        messages.success(request, said)
        return HttpResponseRedirect(reverse("admin:games_tournament_change", args=[tournament.pk]))

    def hold_view(self, request, object_id):
        """Pause or unpause, the other way from how the tournament stands."""
        tournament = self._tournament(request, object_id, _("Pausing a tournament"))
        form = HoldForm(request.POST if request.method == "POST" else None, initial={"paused": not tournament.paused})
        wanted = not tournament.paused
        if request.method == "POST" and form.is_valid():
            wanted = form.cleaned_data["paused"]
            try:
                tournament_staff.set_paused(tournament.pk, request.user, wanted)
                return self._done(request, tournament, held(wanted))
            except DomainError as error:
                form.add_error(None, error.detail)
        if wanted:
            title = _("Pause %(name)s") % {"name": tournament.name}
            explanation = _(
                "Its games in progress go on, but no next round opens until it is unpaused, even when a "
                "round's deadline passes."
            )
            confirm = _("Pause")
        else:
            title = _("Unpause %(name)s") % {"name": tournament.name}
            explanation = _("If the current round is over, the next one opens at once; so does its deadline.")
            confirm = _("Unpause")
        return self._page(request, tournament, form, title, explanation, confirm, 400 if form.errors else 200)

    def remove_view(self, request, object_id, user_id):
        """Remove a player: a withdrawal, marked removed; their games in progress are resigned."""
        tournament = self._tournament(request, object_id, _("Removing a player"))
        registration = get_object_or_404(
            Registration.objects.select_related("user"), tournament=tournament, user=user_id
        )
        form = RemoveForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                tournament_staff.remove_player(tournament.pk, request.user, user_id)
                return self._done(
                    request,
                    tournament,
                    _("%(player)s was removed; their games in progress were resigned.")
                    % {"player": registration.user.username},
                )
            except DomainError as error:
                form.add_error(None, error.detail)
        return self._page(
            request,
            tournament,
            form,
            _("Remove %(player)s from %(name)s") % {"player": registration.user.username, "name": tournament.name},
            _(
                "Their games in progress are resigned, they are paired no more and keep the points they have; "
                "the removal is final."
            ),
            _("Remove"),
            400 if form.errors else 200,
        )

    def settle_view(self, request, object_id, game_id):
        """End a game of the tournament in progress with the places staff state, and a reason, both
        kept in the game's log; the tournament moves on as if it had ended by its own play."""
        tournament = self._tournament(request, object_id, _("Settling a game"))
        table = get_object_or_404(
            TournamentTable.objects.select_related("round"), round__tournament=tournament, game=game_id
        )
        players = dict(Seat.objects.filter(game=game_id).values_list("number", "user__username"))
        form = SettleForm(
            request.POST if request.method == "POST" else None,
            seats=[players.get(n, "-") for n in range(len(table.players))],
        )
        if request.method == "POST" and form.is_valid():
            try:
                tournament_staff.settle_game(
                    tournament.pk, request.user, game_id, form.places(), form.cleaned_data["reason"]
                )
                return self._done(
                    request,
                    tournament,
                    _("The game of round %(round)d at table %(table)d was settled with the places %(places)s.")
                    % {
                        "round": table.round.number,
                        "table": table.number,
                        "places": ", ".join(map(str, form.places())),
                    },
                )
            except DomainError as error:
                form.add_error(None, error.detail)
        return self._page(
            request,
            tournament,
            form,
            _("Settle the game of round %(round)d at table %(table)d")
            % {"round": table.round.number, "table": table.number},
            _(
                "The game ends at once with the places you give (1: first; a team shares one place), unrated; "
                "the tournament moves on as if it had ended by its own play."
            ),
            _("Settle"),
            400 if form.errors else 200,
        )


def held(paused: bool) -> str:
    return _("Paused: no next round until unpaused.") if paused else _("Unpaused.")


def in_play(tournament: Tournament) -> list[dict]:
    """The games of the tournament in progress, with their players in seat order."""
    tables = list(
        TournamentTable.objects.filter(round__tournament=tournament, game__status=Game.Status.ACTIVE)
        .select_related("round")
        .order_by("round__number", "number")
    )
    names = {}
    for game_id, number, username in Seat.objects.filter(game__in=[t.game_id for t in tables]).values_list(
        "game_id", "number", "user__username"
    ):
        names.setdefault(game_id, {})[number] = username
    return [
        {
            "round": t.round.number,
            "table": t.number,
            "game_id": t.game_id,
            "players": [names.get(t.game_id, {}).get(n, "-") for n in range(len(t.players))],
            "settle_url": reverse("admin:games_tournament_settle", args=[tournament.pk, t.game_id]),
            "game_url": reverse("admin:games_game_change", args=[t.game_id]),
        }
        for t in tables
    ]
