"""Request shapes (parsed and validated here) and response shapes (for the OpenAPI document)."""
from rest_framework import serializers


class CreateGameIn(serializers.Serializer):
    kind = serializers.CharField(max_length=32)
    options = serializers.JSONField(required=False, default=dict,
                                    help_text="the kind's options (GET /kinds/ has the schema)")
    seats = serializers.IntegerField(required=False, allow_null=True, default=None,
                                     help_text="seats offered; default the kind's maximum")


class MoveIn(serializers.Serializer):
    move = serializers.JSONField(help_text='a move as listed by legal-moves, e.g. {"type": "give", ...}')
    expected_version = serializers.IntegerField(
        min_value=0, help_text="the game version the move was decided on")


class DisputeIn(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    reason = serializers.CharField(max_length=2000)


class DisputeOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.UUIDField(source="game_id")
    seq = serializers.IntegerField()
    reason = serializers.CharField()
    status = serializers.CharField()
    resolution = serializers.CharField()
    created_at = serializers.DateTimeField()
    resolved_at = serializers.DateTimeField(allow_null=True)


class PlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    user = serializers.IntegerField()
    username = serializers.CharField()


class GameOut(serializers.Serializer):
    id = serializers.UUIDField()
    kind = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.IntegerField(
        help_text="the rules the game was created under; it is played and replayed by them")
    status = serializers.ChoiceField(choices=["open", "active", "finished", "cancelled"])
    options = serializers.JSONField()
    seats = serializers.IntegerField()
    players = PlayerOut(many=True)
    creator = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    version = serializers.IntegerField()
    active_seats = serializers.ListField(child=serializers.IntegerField())
    your_turn = serializers.BooleanField()
    next_deadline = serializers.DateTimeField(allow_null=True)
    clocks = serializers.JSONField(allow_null=True)
    result = serializers.JSONField(allow_null=True)
    seed_hash = serializers.CharField(help_text="sha256 of the secret seed, published at creation")
    seed = serializers.CharField(allow_null=True, help_text="revealed when the game is finished")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class GameDetailOut(GameOut):
    state = serializers.JSONField(allow_null=True, help_text="the game as the caller may see it")


class MoveOut(serializers.Serializer):
    version = serializers.IntegerField()
    state = serializers.JSONField()


class LegalMovesOut(serializers.Serializer):
    version = serializers.IntegerField()
    seat = serializers.IntegerField()
    moves = serializers.ListField(child=serializers.JSONField())


class EventOut(serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.CharField()
    actor = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class EventsOut(serializers.Serializer):
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    events = EventOut(many=True)


class StateAtOut(serializers.Serializer):
    version = serializers.IntegerField()
    your_seat = serializers.IntegerField(allow_null=True)
    state = serializers.JSONField(allow_null=True)


class KindOut(serializers.Serializer):
    kind = serializers.CharField()
    title = serializers.CharField()
    rules_version = serializers.IntegerField(help_text="the rules new games are created under")
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options_schema = serializers.JSONField()
    move_schema = serializers.JSONField()


class ErrorOut(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()


class CardOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    tags = serializers.ListField(child=serializers.CharField())
    image = serializers.CharField(help_text="path under the card image base URL")
    image_url = serializers.CharField()
