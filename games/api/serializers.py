"""Request shapes (parsed and validated here) and response shapes (for the OpenAPI document).

Fields whose shape depends on the game's kind (moves, views, options, events) are JSON here and
typed in the document by games.api.schema, from every kind's own schemas."""

from django.utils.translation import gettext

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import ChatMessage

CHAT_CHANNELS = ChatMessage.Channel.values


def has_nul(data) -> bool:
    if isinstance(data, str):
        return "\x00" in data
    if isinstance(data, dict):
        return any(has_nul(k) or has_nul(v) for k, v in data.items())
    if isinstance(data, list):
        return any(has_nul(v) for v in data)
    return False


class StoredJSONField(serializers.JSONField):
    """JSON that may be stored: PostgreSQL's text and jsonb cannot hold a NUL character. Refused
    here for every kind's moves and options, whatever each engine checks of its free text."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if has_nul(value):
            raise serializers.ValidationError(gettext("strings may not contain NUL (\\u0000)"))
        return value


def kind_typed(component: str):
    """A JSON field the document types as `component` (a component of games.api.schema)."""
    field = type(component + "Field", (StoredJSONField,), {})
    return extend_schema_field({"type": "object", "x-darkroom": component})(field)


MoveField = kind_typed("Move")
ViewField = kind_typed("View")
OptionsField = kind_typed("Options")
ResultField = kind_typed("GameResult")
ClocksField = kind_typed("Clocks")
EventField = kind_typed("Event")
JsonSchemaField = kind_typed("JsonSchema")


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false only: the document says boolean, so "yes" or 1 is a 400, not a guess."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class FillWithBotsIn(serializers.Serializer):
    level = serializers.IntegerField(min_value=1, max_value=3, help_text="the bots' level")
    after_seconds = serializers.IntegerField(min_value=5, max_value=600, help_text="how long people have to join first")


# What JSON type each kind of field takes: the document's. DRF's fields convert what they can
# ("12" to 12, 12 to "12", 1.0 to 1), so a body the document calls invalid would be taken.
_JSON_TYPES: list[tuple[type, tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "a JSON boolean"),
    (serializers.IntegerField, (int,), "a JSON whole number"),
    (serializers.FloatField, (int, float), "a JSON number"),
    (serializers.DecimalField, (int, float), "a JSON number"),
    (serializers.CharField, (str,), "a JSON string"),  # Email, URL, Regex, Slug fields too
    (serializers.ChoiceField, (str,), "a JSON string"),
    (serializers.DateTimeField, (str,), "a JSON string"),
    (serializers.UUIDField, (str,), "a JSON string"),
    (serializers.ListField, (list,), "a JSON array"),
    (serializers.DictField, (dict,), "a JSON object"),
]


def json_type_error(field, value) -> str | None:
    """Why `value`, as parsed from JSON, is not of the type `field` documents (None: it is).
    A list's items are judged by its child; a JSON field takes any JSON."""
    if value is None or isinstance(field, serializers.JSONField):
        return None  # null is the field's own business (allow_null)
    for kind, types, name in _JSON_TYPES:
        if isinstance(field, kind):
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                return f"must be {name}"
            break
    if isinstance(field, serializers.ListField) and field.child is not None:
        for item in value:
            problem = json_type_error(field.child, item)
            if problem:
                return f"items {problem}"
    return None


class StrictInput(serializers.Serializer):
    """The base of every request body: JSON strings are not numbers, numbers are not strings,
    1.0 is not a whole number. The one place the API decides it (docs/api.md), before DRF's fields
    convert; every request serializer derives from this (tests/api/test_strict_types.py holds the
    document's request bodies to it)."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            errors = {
                name: [problem]
                for name, field in self.fields.items()
                if not field.read_only
                and field.field_name in data
                and (problem := json_type_error(field, data[field.field_name]))
            }
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class CreateGameIn(StrictInput):
    kind = serializers.CharField(max_length=32)
    options = OptionsField(
        required=False, default=dict, help_text="the kind's options (the kind's `...Options` schema)"
    )
    seats = serializers.IntegerField(
        required=False, allow_null=True, default=None, help_text="seats offered; default the kind's maximum"
    )
    private = StrictBooleanField(
        required=False, default=False, help_text="invitation only: hidden from lists, with a join link"
    )
    invite = serializers.ListField(
        child=serializers.CharField(max_length=150),
        required=False,
        max_length=10,
        help_text="usernames to invite (makes the game private)",
    )
    rated = StrictBooleanField(
        required=False, allow_null=True, default=None, help_text="whether the result changes ratings; default true"
    )
    bots = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=3),
        required=False,
        default=None,
        allow_null=True,
        max_length=5,
        help_text="computer players to seat after you, one level (1 random, 2 greedy, 3 "
        "searching) each; when they fill the seats the game starts at once. A game "
        "with bots is unrated unless `rated` is true and the site allows it "
        "(docs/bots.md)",
    )
    # Off unless asked: a v1 client that starts its games itself keeps working (its Start would
    # find the game started); the web client's create form asks for it, ticked by default.
    auto_start = StrictBooleanField(
        required=False,
        default=False,
        help_text="true: the game starts itself when its last seat is "
        "taken; false (the default): the creator starts it",
    )
    fill_with_bots = FillWithBotsIn(
        required=False,
        allow_null=True,
        help_text="an open seek: when the wait is over, bots take "
        "the seats still empty and the game starts; the "
        "game is then unrated unless `rated` is true and "
        "the site allows it",
    )


class MoveIn(StrictInput):
    move = MoveField(help_text='a move as listed by legal-moves, e.g. {"type": "give", ...}')
    expected_version = serializers.IntegerField(min_value=0, help_text="the game version the move was decided on")


class DisputeIn(StrictInput):
    seq = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=2000)


class DisputeOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.UUIDField(source="game_id")
    seq = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField()
    resolution = serializers.CharField(
        source="published_resolution", help_text="staff's decision in words; empty while open"
    )
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    user = serializers.IntegerField()
    username = serializers.CharField()
    bot = serializers.IntegerField(
        allow_null=True, help_text="a computer player's level (1-3); null: a person (docs/bots.md)"
    )


class GameOut(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.IntegerField(
        help_text="the rules the game was created under; it is played and replayed by them"
    )
    status = serializers.ChoiceField(choices=["open", "active", "finished", "cancelled", "aborted"])
    options = OptionsField(help_text="every option, defaults filled in at create")
    seats = serializers.IntegerField()
    rules_version = serializers.IntegerField(required=False, help_text="the rules the game is played by")
    players = PlayerOut(many=True)
    creator = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    active_seats = serializers.ListField(child=serializers.IntegerField())
    your_turn = serializers.BooleanField()
    next_deadline = serializers.DateTimeField(allow_null=True)
    clocks = ClocksField(allow_null=True)
    result = ResultField(allow_null=True)
    rated = serializers.BooleanField(help_text="the result changes the players' ratings (`result.rating_changes`)")
    auto_start = serializers.BooleanField(help_text="the game starts itself when its last seat is taken")
    seed_hash = serializers.CharField(help_text="sha256 of the secret seed, published at creation")
    seed = serializers.CharField(allow_null=True, help_text="revealed when the game is finished")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    private = serializers.BooleanField(help_text="invitation only (docs/social.md)")
    join_code = serializers.CharField(
        allow_null=True, help_text="a private game's join link code (POST /join/{code}/); shown to its players only"
    )
    rematch_of = serializers.UUIDField(allow_null=True, help_text="the game this one is a rematch of")


class SideScoreOut(serializers.Serializer):
    seats = serializers.ListField(child=serializers.IntegerField(), help_text="the side's seats")
    score = serializers.IntegerField(help_text="its score so far, as the rules count it")


class GameDetailOut(GameOut):
    state = ViewField(
        allow_null=True, help_text="the game as the caller may see it: the `...View` schema of the game's kind"
    )
    standing = SideScoreOut(
        many=True,
        allow_null=True,
        help_text=(
            "each side's score so far, counted from `state` alone (what the caller may see); null before the start"
        ),
    )


class GamesPageOut(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameOut(many=True)


class MoveOut(serializers.Serializer):
    version = serializers.IntegerField()
    state = ViewField(help_text="the game after the move, as the mover sees it")


class LegalMovesOut(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField()
    moves = serializers.ListField(child=MoveField(), help_text="each one a valid `move` to send now")


class EventsOut(serializers.Serializer):
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    events = serializers.ListField(
        child=EventField(), help_text="server events, and the kind's events as it describes them"
    )


class StateAtOut(serializers.Serializer):
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    state = ViewField(allow_null=True)


class KindOut(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.IntegerField(help_text="the rules new games are created under")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    rules_version = serializers.IntegerField(required=False)
    options_schema = JsonSchemaField(help_text="JSON Schema: also the kind's `...Options` component")
    move_schema = JsonSchemaField(help_text="JSON Schema: also the kind's `...Move` component")


class ErrorOut(serializers.Serializer):
    code = serializers.CharField(
        help_text="stable, machine-readable; the response's description lists the codes of each status"
    )
    detail = serializers.CharField(help_text="for people")
    fields = kind_typed("FieldErrors")(
        required=False, allow_null=True, help_text="invalid: the problems per request field"
    )
    retry_after = serializers.IntegerField(required=False, help_text="throttled, unavailable: seconds to wait")


class MutedOut(serializers.Serializer):
    muted = serializers.BooleanField()


class UnreadOut(serializers.Serializer):
    unread = serializers.IntegerField()


class ReadAllOut(UnreadOut):
    marked = serializers.IntegerField(help_text="how many were unread")


class CardOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    image = serializers.CharField(help_text="path under the card image base URL")
    image_url = serializers.CharField()


# A chat message (games/api/social.py), here because the game stream sends it too (streams/).
class ChatOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.UUIDField()
    channel = serializers.ChoiceField(choices=CHAT_CHANNELS)
    author = serializers.IntegerField(allow_null=True, help_text="null once the author's account is deleted")
    username = serializers.CharField(allow_null=True)
    text = serializers.CharField(help_text="plain text: show it as text, never as HTML")
    created_at = serializers.DateTimeField()


def parse(serializer_class, data) -> dict:
    """A request body through its serializer: the validated data, or a 400 with the fields' errors."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
