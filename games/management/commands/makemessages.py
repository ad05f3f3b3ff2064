"""Django's makemessages, knowing the engines' messages too (`make messages` runs it).

The engines are pure and import no gettext: a message of theirs is marked by the call that
raises it (IllegalMove("%(card)s is not in your hand", card=card), require(ok, "..."),
Refusal("...")), and these names are gettext keywords here, as Django documents for a
makemessages of one's own (`xgettext_options`). The server renders them in the reader's
language (games.errors.in_words)."""

from django.core.management.commands import makemessages

ENGINE_KEYWORDS = [
    "IllegalMove",
    "UnavailableMove",
    "NotYourTurn",
    "GameOver",
    "UnknownRulesVersion",
    "EngineError",
    "Refusal",
    "require:2",
]
# The admin's short name for gettext_lazy (games/admin/).
ALIASES = ["_lazy"]


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + [f"--keyword={k}" for k in ENGINE_KEYWORDS + ALIASES]
