"""Disputes for staff: a queue, a decision screen, and an audit in the dispute's history. A
decision is appended to the game's log as events (a rollback is a new event; history keeps
everything)."""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import Permission
from django.db.models import Case, Count, Exists, OuterRef, Q, Subquery, Value, When
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.text import Truncator
from django.utils.timesince import timesince
from django.utils.translation import gettext as _, gettext_lazy as _lazy, ngettext

from games.admin.common import ACCESSIBLE, User, as_json, needs, review_url, when
from games.play import disputes as play_disputes, review, selectors
from games.play.kinds import engine_of
from games.errors import DomainError
from games.models import Dispute, Event, Seat


def reviewers():
    """Who may be handed a dispute: active staff who may decide disputes."""
    perm = Permission.objects.filter(content_type__app_label="games", codename="decide_dispute")
    return (
        User.objects.filter(
            Q(is_superuser=True) | Q(user_permissions__in=perm) | Q(groups__permissions__in=perm),
            is_active=True,
            is_staff=True,
        )
        .distinct()
        .order_by("username")
    )


class OpenDisputeForm(forms.ModelForm):
    """An open dispute: a staff-only note, the message the players will read, a decision."""

    KEEP_OPEN = ("", _lazy("keep open (the message stays a draft, unpublished)"))
    DECISIONS = [
        KEEP_OPEN,
        ("dismiss", _lazy("dismiss")),
        ("uphold", _lazy("uphold")),
        ("rollback", _lazy("uphold and roll the game back to just before the event")),
    ]
    decision = forms.ChoiceField(choices=DECISIONS, required=False)
    assign = forms.ModelChoiceField(
        queryset=User.objects.none(),
        required=False,
        label=_lazy("Assigned to"),
        help_text=_lazy("the reviewer working on it; empty: back to the queue"),
    )
    # DisputeAdmin.get_form sets these for the staff user and the dispute at hand.
    may_decide = True
    may_roll_back = True
    rollback_refusal = None

    class Meta:
        model = Dispute
        fields = ("note", "resolution")
        widgets = {"note": forms.Textarea(attrs={"rows": 3}), "resolution": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assign"].queryset = reviewers()
        self.fields["assign"].initial = self.instance.assigned_to_id
        decision = self.fields["decision"]
        if not self.may_decide:
            decision.choices = [self.KEEP_OPEN]
            decision.help_text = _("Deciding needs the games.decide_dispute permission.")
            return
        allowed = [c for c in self.DECISIONS if c[0] != "rollback" or self.may_roll_back]
        decision.choices = allowed
        if not self.may_roll_back:
            decision.help_text = _(
                "No rollback: rolling a game back needs the games.roll_back_game and games.view_game permissions."
            )
        elif self.rollback_refusal:
            # Said before anyone tries: the option is not drawn, and a stale form is told why.
            decision.widget.choices = [c for c in allowed if c[0] != "rollback"]
            decision.help_text = _("No rollback: %(why)s.") % {"why": self.rollback_refusal}
        elif self.instance.pk:
            voided = list(
                Event.objects.filter(
                    game_id=self.instance.game_id, seq__gte=self.instance.seq, actor__isnull=False
                ).values_list("seq", flat=True)
            )
            decision.help_text = ngettext(
                "A rollback goes back to event %(to)d and voids the move of event %(moves)s; the players "
                "then play on from there.",
                "A rollback goes back to event %(to)d and voids the moves of events %(moves)s; the players "
                "then play on from there.",
                len(voided),
            ) % {"to": self.instance.seq - 1, "moves": ", ".join(map(str, voided)) or "-"}

    def clean_decision(self):
        decision = self.cleaned_data.get("decision")
        if decision == "rollback" and self.rollback_refusal:
            raise forms.ValidationError(_("No rollback: %(why)s.") % {"why": self.rollback_refusal})
        return decision


class DecidedDisputeForm(forms.ModelForm):
    """A decided dispute is read-only: staff may only add a signed note to its history. A wrong
    decision is put right through a new dispute, never by an edit."""

    add_note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        label=_lazy("add a note"),
        help_text=_lazy("for staff only; signed, dated and logged in the dispute's history"),
    )

    class Meta:
        model = Dispute
        fields = ()

    def clean(self):
        edited = sorted(set(self.data) & {"note", "resolution", "decision", "assign"})
        if edited:
            raise forms.ValidationError(
                _(
                    "This dispute is already %(status)s and is read-only: %(fields)s cannot be changed. "
                    "Add a note instead; a wrong decision is put right through a new dispute."
                )
                % {"status": self.instance.status, "fields": ", ".join(edited)}
            )
        if not self.cleaned_data.get("add_note", "").strip():
            raise forms.ValidationError(
                _("This dispute is already %(status)s and is read-only: type a note to add to its history, or go back.")
                % {"status": self.instance.status}
            )
        return self.cleaned_data


class EventTypeFilter(admin.SimpleListFilter):
    title = _lazy("event type")
    parameter_name = "event_type"

    def lookups(self, request, model_admin):
        types = model_admin.get_queryset(request).order_by().values_list("event_type", flat=True).distinct()
        return [(t, t) for t in sorted(set(types) - {None})]

    def queryset(self, request, queryset):
        return queryset.filter(event_type=self.value()) if self.value() else queryset


@admin.register(Dispute)
class DisputeAdmin(admin.ModelAdmin):
    """The reviewers' queue (open first, oldest first) and decision screen."""

    list_display = (
        "number",
        "kind",
        "event_type",
        "mover",
        "excerpt",
        "raiser",
        "status",
        "assigned_to",
        "age",
        "decider",
    )
    list_display_links = ("number",)
    list_filter = (
        "status",
        ("game__kind", admin.AllValuesFieldListFilter),
        EventTypeFilter,
        ("raised_by", admin.RelatedOnlyFieldListFilter),
        ("resolved_by", admin.RelatedOnlyFieldListFilter),
        ("assigned_to", admin.RelatedOnlyFieldListFilter),
    )
    search_fields = (
        "raised_by__username",
        "resolved_by__username",
        "assigned_to__username",
        "game__seat_set__user__username",
        "reason",
    )
    search_help_text = _lazy(
        "a username (who raised it, decided it, holds it, or plays in the game), a game id, "
        "a dispute number, or words of the reason"
    )
    actions = ["claim", "release"]
    media = property(lambda self: super(DisputeAdmin, self).media + ACCESSIBLE)
    list_per_page = 50
    decision_fields = ("note", "resolution", "decision", "assign")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if not self.has_view_or_change_permission(request):
            raise needs("games.view_dispute", _("The dispute queue"))
        return super().changelist_view(request, extra_context)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if not self.has_view_or_change_permission(request):
            raise needs("games.view_dispute", _("A dispute"))
        return super().changeform_view(request, object_id, form_url, extra_context)

    def get_urls(self):
        return [
            path("player/<int:user_id>/", self.admin_site.admin_view(self.player_view), name="games_dispute_player")
        ] + super().get_urls()

    # The queue ------------------------------------------------------------------------------------
    def get_queryset(self, request):
        event = Event.objects.filter(game=OuterRef("game"), seq=OuterRef("seq"))
        actor = Event.objects.filter(game=OuterRef(OuterRef("game")), seq=OuterRef(OuterRef("seq")))
        mover = Seat.objects.filter(game=OuterRef("game"), number=Subquery(actor.values("actor")[:1]))
        return (
            super()
            .get_queryset(request)
            .select_related("game", "raised_by", "resolved_by", "assigned_to")
            .annotate(
                event_type=Subquery(event.values("type")[:1]), mover_name=Subquery(mover.values("user__username")[:1])
            )
        )

    def get_ordering(self, request):
        # Open first, the longest waiting first.
        return [Case(When(status=Dispute.Status.OPEN, then=Value(0)), default=Value(1)).asc(), "created_at"]

    def get_search_results(self, request, queryset, search_term):
        term = search_term.strip()
        try:
            return queryset.filter(game_id=uuid.UUID(term)), False
        except ValueError:
            pass
        if term.lstrip("#").isdigit():
            return queryset.filter(pk=int(term.lstrip("#"))), False
        if not term:
            return queryset, False
        # Each word in a username or the reason; a player of the game through EXISTS, so no row
        # is repeated (the queue's order by openness cannot be kept under DISTINCT).
        for word in term.split():
            queryset = queryset.filter(
                Q(raised_by__username__icontains=word)
                | Q(resolved_by__username__icontains=word)
                | Q(assigned_to__username__icontains=word)
                | Q(reason__icontains=word)
                | Exists(Seat.objects.filter(game=OuterRef("game"), user__username__icontains=word))
            )
        return queryset, False

    @admin.display(description=_lazy("dispute"), ordering="pk")
    def number(self, dispute):
        return f"#{dispute.pk}"

    @admin.display(description=_lazy("kind"), ordering="game__kind")
    def kind(self, dispute):
        return dispute.game.kind

    @admin.display(description=_lazy("event"), ordering="event_type")
    def event_type(self, dispute):
        return f"{dispute.event_type or '?'} #{dispute.seq}"

    @admin.display(description=_lazy("disputed move by"), ordering="mover_name")
    def mover(self, dispute):
        return dispute.mover_name or _("the system")

    @admin.display(description=_lazy("reason"))
    def excerpt(self, dispute):
        return Truncator(dispute.reason).chars(80)

    @admin.display(description=_lazy("raised by"), ordering="raised_by__username")
    def raiser(self, dispute):
        return format_html(
            '<a href="{}">{}</a>',
            reverse("admin:games_dispute_player", args=[dispute.raised_by_id]),
            dispute.raised_by.username,
        )

    @admin.display(description=_lazy("decided by"), ordering="resolved_by__username")
    def decider(self, dispute):
        return dispute.resolved_by.get_username() if dispute.resolved_by_id else "-"

    @admin.display(description=_lazy("age"), ordering="created_at")
    def age(self, dispute):
        return format_html(
            '<time datetime="{}" title="{}">{}</time>',
            dispute.created_at.isoformat(),
            when(dispute.created_at),
            timesince(dispute.created_at),
        )

    @admin.action(description=_lazy("Claim: assign the selected open disputes to me"), permissions=["change"])
    def claim(self, request, queryset):
        self._assign(request, queryset, request.user)

    @admin.action(
        description=_lazy("Release: put the selected open disputes back in the queue"), permissions=["change"]
    )
    def release(self, request, queryset):
        self._assign(request, queryset, None)

    def _assign(self, request, queryset, assignee):
        done = []
        for dispute in queryset.filter(status=Dispute.Status.OPEN):
            try:
                play_disputes.assign_dispute(dispute.pk, request.user, assignee)
            except DomainError as error:
                self.message_user(request, error.detail, messages.ERROR)
                return
            self.log_change(
                request,
                dispute,
                _("Claimed by %(who)s.") % {"who": request.user.get_username()}
                if assignee
                else _("Released by %(who)s.") % {"who": request.user.get_username()},
            )
            done.append(f"#{dispute.pk}")
        skipped = queryset.exclude(status=Dispute.Status.OPEN).count()
        self.message_user(
            request,
            (_("Assigned to you: %(list)s.") if assignee else _("Back in the queue: %(list)s."))
            % {"list": ", ".join(done) or "-"}
            + (_(" %(n)d decided disputes left as they are.") % {"n": skipped} if skipped else ""),
        )

    def player_view(self, request, user_id):
        """A player's disputes: how many, how decided, the upheld rate, each with its decision."""
        if not self.has_view_or_change_permission(request):
            raise needs("games.view_dispute", _("A player's dispute history"))
        player = get_object_or_404(User, pk=user_id)
        disputes = self.get_queryset(request).filter(raised_by=player).order_by("-created_at")
        counts = {
            row["status"]: row["n"]
            for row in Dispute.objects.filter(raised_by=player).values("status").annotate(n=Count("id"))
        }
        decided = counts.get("upheld", 0) + counts.get("dismissed", 0)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Disputes raised by %(name)s") % {"name": player.username},
            "player": player,
            "disputes": [
                {"dispute": d, "event": self.event_type(d), "at": when(d.created_at), "decided_at": when(d.resolved_at)}
                for d in disputes
            ],
            "total": sum(counts.values()),
            "open": counts.get("open", 0),
            "decided": decided,
            "upheld": counts.get("upheld", 0),
            "rate": f"{100 * counts.get('upheld', 0) / decided:.0f}%" if decided else "-",
        }
        return TemplateResponse(request, "admin/games/dispute_player.html", context)

    # The decision screen ------------------------------------------------------------------------
    def get_fields(self, request, obj=None):
        shown = ["game_link", "disputed_event", "reason", "raiser_history", "status", "opened"]
        if obj is not None and obj.status != Dispute.Status.OPEN:
            return shown + ["assigned_to", "decided", "resolved_by", "rolled_back_to", "note", "resolution", "add_note"]
        return shown + list(self.decision_fields)

    def get_readonly_fields(self, request, obj=None):
        fields = self.get_fields(request, obj)
        editable = self.decision_fields if obj is None or obj.status == Dispute.Status.OPEN else ("add_note",)
        if not self.has_change_permission(request, obj):
            editable = ()
        return [f for f in fields if f not in editable]

    def get_fieldsets(self, request, obj=None):
        fields = self.get_fields(request, obj)
        if not self.has_change_permission(request, obj):  # a look, no form: no form-only fields
            fields = [f for f in fields if f not in ("decision", "assign", "add_note")]
        return [(None, {"fields": fields})]

    def get_form(self, request, obj=None, **kwargs):
        if obj is not None and obj.status != Dispute.Status.OPEN:
            kwargs["form"] = DecidedDisputeForm
            return super().get_form(request, obj, **kwargs)
        user = request.user
        may_roll_back = user.has_perm("games.roll_back_game") and user.has_perm("games.view_game")
        refusal = None
        if obj is not None and may_roll_back:
            refusal = selectors.rollback_refusal(obj.game, engine_of(obj.game), obj.seq)
        kwargs["form"] = type(
            "OpenDisputeForm",
            (OpenDisputeForm,),
            {
                "may_decide": user.has_perm("games.decide_dispute"),
                "may_roll_back": may_roll_back,
                "rollback_refusal": refusal,
            },
        )
        return super().get_form(request, obj, **kwargs)

    @admin.display(description=_lazy("game"))
    def game_link(self, dispute):
        return format_html(
            '<a href="{}">{} {}</a> · <a href="{}">review: drawn, with changes</a> · '
            '<a href="{}">state before</a> · <a href="{}">state after</a>',
            reverse("admin:games_game_change", args=[dispute.game_id]),
            dispute.game.kind,
            dispute.game_id,
            review_url(dispute.game_id, dispute.seq - 1, dispute.seq),
            reverse("admin:games_game_state", args=[dispute.game_id, dispute.seq - 1]),
            reverse("admin:games_game_state", args=[dispute.game_id, dispute.seq]),
        )

    @admin.display(description=_lazy("disputed event"))
    def disputed_event(self, dispute):
        event = Event.objects.filter(game_id=dispute.game_id, seq=dispute.seq).first()
        if event is None:
            return "-"
        who = (
            Seat.objects.filter(game_id=dispute.game_id, number=event.actor)
            .values_list("user__username", flat=True)
            .first()
            if event.actor is not None
            else None
        )
        data = review.without_seed(event.data) if getattr(dispute, "hide_seed", True) else event.data
        return format_html(
            '<strong>#{} {}</strong> by {} at {}<br><code class="event-data">{}</code>',
            event.seq,
            event.type,
            f"seat {event.actor} ({who})" if event.actor is not None else _("the system"),
            when(event.created_at),
            as_json(data),
        )

    @admin.display(description=_lazy("raised by"))
    def raiser_history(self, dispute):
        counts = {
            row["status"]: row["n"]
            for row in Dispute.objects.filter(raised_by=dispute.raised_by_id).values("status").annotate(n=Count("id"))
        }
        decided = counts.get("upheld", 0) + counts.get("dismissed", 0)
        rate = f"{100 * counts.get('upheld', 0) / decided:.0f}%" if decided else "-"
        total = sum(counts.values())
        record = ngettext("%(n)d dispute in all", "%(n)d disputes in all", total) % {"n": total}
        record += ", " + _("%(upheld)d upheld of %(decided)d decided (%(rate)s)") % {
            "upheld": counts.get("upheld", 0),
            "decided": decided,
            "rate": rate,
        }
        return format_html(
            '{} · <a href="{}">{}</a>',
            dispute.raised_by.username,
            reverse("admin:games_dispute_player", args=[dispute.raised_by_id]),
            record,
        )

    @admin.display(description=_lazy("opened"))
    def opened(self, dispute):
        return when(dispute.created_at)

    @admin.display(description=_lazy("decided"))
    def decided(self, dispute):
        return when(dispute.resolved_at)

    def get_object(self, request, object_id, from_field=None):
        dispute = super().get_object(request, object_id, from_field)
        if dispute is not None:  # disputed_event hides the seed from those who may not see it
            dispute.hide_seed = review.seed_hidden_from(dispute.game, request.user)
        return dispute

    def save_model(self, request, obj, form, change):
        """Each path through a service, which checks the permission it needs."""
        request._dispute_done = None
        # What was done, in words, for the history: who holds it now, which texts changed, the
        # decision (Django's own message would say "Changed Assigned to.").
        done: list[str] = []
        try:
            if isinstance(form, DecidedDisputeForm):
                play_disputes.annotate_dispute(obj.pk, request.user, form.cleaned_data["add_note"])
                request._dispute_done = _("Added a note: %(text)s") % {"text": form.cleaned_data["add_note"].strip()}
                return
            assign = form.cleaned_data.get("assign")
            if "assign" in form.changed_data:
                play_disputes.assign_dispute(obj.pk, request.user, assign)
                who = request.user.get_username()
                done.append(
                    _("Assigned to %(whom)s by %(who)s.") % {"whom": assign.get_username(), "who": who}
                    if assign
                    else _("Released by %(who)s.") % {"who": who}
                )
            decision = form.cleaned_data.get("decision")
            if decision:
                decided = play_disputes.resolve_dispute(
                    obj.pk,
                    request.user,
                    uphold=decision != "dismiss",
                    resolution=obj.resolution,
                    note=obj.note,
                    roll_back=decision == "rollback",
                )
                done.append(decision_summary(decided))
            else:
                play_disputes.save_dispute_draft(obj.pk, request.user, note=obj.note, resolution=obj.resolution)
                done += [
                    text
                    for field, text in (
                        ("note", _("Changed the staff note.")),
                        ("resolution", _("Changed the draft message to the players.")),
                    )
                    if field in form.changed_data
                ]
            request._dispute_done = " ".join(done) or None
        except DomainError as error:
            messages.error(request, error.detail)
            request._dispute_refused = True
            request._dispute_done = " ".join(done) or None  # a hand-over made before the refusal
            if not isinstance(form, DecidedDisputeForm) and form.cleaned_data.get("decision"):
                # Refused (decided meanwhile, or the rollback no longer possible): the typed text
                # is kept as the open dispute's draft, which players do not see.
                try:
                    play_disputes.save_dispute_draft(obj.pk, request.user, note=obj.note, resolution=obj.resolution)
                except DomainError:
                    pass
        obj.refresh_from_db()

    def construct_change_message(self, request, form, formsets, add=False):
        # The history says what happened, in words: the decision, its rollback, its decider.
        done = getattr(request, "_dispute_done", None)
        return done or super().construct_change_message(request, form, formsets, add)

    def response_change(self, request, obj):
        if getattr(request, "_dispute_refused", False):
            # Back to the form with only the refusal, instead of Django's "changed successfully".
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def message_user(self, request, message, level=messages.INFO, extra_tags="", fail_silently=False):
        # Django's "… was changed successfully" names the dispute as it was read: the decision
        # made meanwhile is said instead.
        done = getattr(request, "_dispute_done", None)
        if done and level == messages.SUCCESS:
            message = done
        return super().message_user(request, message, level, extra_tags, fail_silently)

    def log_change(self, request, obj, message):
        # A refusal, or a save that changed nothing, is no event in the dispute's history; what was
        # done before a refusal is.
        refused = getattr(request, "_dispute_refused", False)
        if message and (not refused or getattr(request, "_dispute_done", None)):
            super().log_change(request, obj, message)


def decision_summary(dispute: Dispute) -> str:
    """A decision in words, for the dispute's history and the reviewer's message."""
    said = {"upheld": _("upheld"), "dismissed": _("dismissed")}[dispute.status]
    text = _("Dispute #%(n)d %(status)s by %(who)s") % {
        "n": dispute.pk,
        "status": said,
        "who": dispute.resolved_by.get_username(),
    }
    if dispute.rolled_back_to is not None:
        text += _("; the game was rolled back to just before event %(seq)d") % {"seq": dispute.seq}
    text += "."
    if dispute.resolution:
        text += " " + _("Message to the players: “%(text)s”") % {"text": dispute.resolution}
    return text
