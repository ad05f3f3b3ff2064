"""The blue Effect cards as API fields: what the acting player does, says, or makes the team do.

A photographer's action (swap, push, photo) may carry `rituals`, an object of what its player did
"with" the action (see docs/photoshoot.md, card by card):

  say      list of phrases said ("Tout doux le chien!", "Ouistiti", ...), compared without case,
           accents or punctuation
  smile    smiled while saying it (Edgar, "Ouistiti")
  applaud  applauded Olivia before moving her
  slap     the seat whose hand was slapped (Olivia: the player after them)
  shake    the seat shaken awake (Alice: a neighbour at the table)
  contact  Alice's tile kept in contact with the table (slid, never lifted)
  stroke   stroked Max's tile before playing (Max: the player after the one who moved him)
  wave     the Mexican wave (Pam)
  answered the team answered Edgar's "Tout le monde est prêt?" (rules version 2)

Two cards ask the rest of the team to act: Pam's Mexican wave and Edgar's "Tout le monde est
prêt?". Rules version 2 (`declared`): the team's part is declared with the action that triggers
it (`wave`, `answered`), as the slap and the shake always were, so it is judged with the action
and no challenge can arrive before it. Rules version 1: the mover starts the wave and each
teammate posts a `wave` / `answer` move, owed until the next action; a challenge judges what has
been done by then (a race the teammates lose against a fast control team). Doing more than a card
asks is never an error.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterable, Mapping, Sequence

from ..base import IllegalMove, Refusal

PHRASES = {
    "max-phrase": "Tout doux le chien!",
    "pam-phrase": "Eh! Je suis bien dans le cadre?",
    "edgar-smile": "Ouistiti",
    "edgar-ready": "Tout le monde est prêt?",
}
FLAGS_V1 = ("smile", "applaud", "contact", "stroke", "wave")
FLAGS = (*FLAGS_V1, "answered")  # `answered`: rules version 2
SEATS = ("slap", "shake")
KEYS = ("say", *FLAGS, *SEATS)
MAX_PHRASES, MAX_PHRASE_LENGTH = 8, 80


def normal(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in plain.casefold() if ch.isalnum())


def parse(raw: Any, players: int, declared: bool = False) -> dict[str, Any]:
    """The rituals of a move, every key of its rules version present; IllegalMove when
    malformed (`declared`, rules version 2, knows `answered`)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise IllegalMove('"rituals" must be an object')
    flags = FLAGS if declared else FLAGS_V1
    known = ("say", *flags, *SEATS)
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise IllegalMove("unknown ritual(s) %(unknown)s; known: %(known)s", unknown=unknown, known=list(known))
    said = raw.get("say", [])
    if not (
        isinstance(said, list)
        and len(said) <= MAX_PHRASES
        and all(isinstance(p, str) and len(p) <= MAX_PHRASE_LENGTH for p in said)
    ):
        raise IllegalMove(
            '"say" is a list of up to %(MAX_PHRASES)s phrases of up to %(MAX_PHRASE_LENGTH)s characters',
            MAX_PHRASES=MAX_PHRASES,
            MAX_PHRASE_LENGTH=MAX_PHRASE_LENGTH,
        )
    out: dict[str, Any] = {"say": list(said)}
    for key in flags:
        value = raw.get(key, False)
        if type(value) is not bool:
            raise IllegalMove('"%(key)s" must be true or false', key=key)
        out[key] = value
    for key in SEATS:
        value = raw.get(key)
        if value is not None and not (type(value) is int and 0 <= value < players):
            raise IllegalMove('"%(key)s" must be a seat number from 0 to %(value)s', key=key, value=players - 1)
        out[key] = value
    return out


def next_teammate(team: Sequence[int], seat: int) -> int:
    return team[(team.index(seat) + 1) % len(team)]


def neighbours(seat: int, players: int) -> set[int]:
    return {(seat - 1) % players, (seat + 1) % players} - {seat}


def faults(
    effects: Iterable[str],
    moved: Iterable[str],
    rituals: Mapping[str, Any],
    actor: int,
    team: Sequence[int],
    players: int,
    declared: bool = False,
) -> list[str]:
    """What the acting player forgot for the characters the action moves (not counting the
    stroke, owed by the *next* player: see `stroke_fault`). `declared` (rules version 2): the
    team's answer to Edgar is declared with the action too."""
    effects, moved = set(effects), set(moved)
    said = {normal(p) for p in rituals["say"]}
    found: list[str] = []  # refusals (a Refusal is its English text)

    def needs(card: str, character: str) -> bool:
        return card in effects and character in moved

    for card, phrase in PHRASES.items():
        character = {"max": "Max", "pam": "Pam", "edgar": "Edgar"}[card.split("-")[0]]
        if needs(card, character) and normal(phrase) not in said:
            # The phrase as the rulebook prints it, in every language.
            found.append(Refusal('%(character)s moved without "%(phrase)s"', character=character, phrase=phrase))
    if needs("edgar-smile", "Edgar") and not rituals["smile"]:
        found.append(Refusal("Edgar moved without a smile"))
    if needs("olivia-applause", "Olivia") and not rituals["applaud"]:
        found.append(Refusal("Olivia moved without applause"))
    if needs("olivia-slap", "Olivia") and rituals["slap"] != next_teammate(team, actor):
        found.append(Refusal("Olivia moved without slapping the hand of the player after"))
    if needs("alice-contact", "Alice") and not rituals["contact"]:
        found.append(Refusal("Alice's tile left the table"))
    if needs("alice-shake", "Alice") and rituals["shake"] not in neighbours(actor, players):
        found.append(Refusal("Alice moved without shaking a neighbour awake"))
    if needs("pam-wave", "Pam") and not rituals["wave"]:
        found.append(Refusal("Pam moved without a Mexican wave"))
    if declared and needs("edgar-ready", "Edgar") and not rituals["answered"]:
        found.append(Refusal("the team did not answer Edgar"))
    return found


def stroke_fault(stroke_due: bool, rituals: Mapping[str, Any]) -> list[str]:
    if stroke_due and not rituals["stroke"]:
        return [Refusal("Max was moved and this player did not stroke his tile before playing")]
    return []


def strokes_next(effects: Iterable[str], moved: Iterable[str]) -> bool:
    return "max-stroke" in set(effects) and "Max" in set(moved)


def owes_stroke(stroke_due: Any, actor: int, by_player: bool) -> bool:
    """Whether `actor` must stroke Max before this action. Versions 1-2: whoever acts next
    (`stroke_due` a flag). Version 3 (`by_player`): "the next player must stroke his tile
    before playing", the seat `stroke_due` names, and nobody else."""
    if by_player:
        return type(stroke_due) is int and stroke_due == actor
    return bool(stroke_due)


def stroke_after(stroke_due: Any, actor: int, strokes: bool, player_after: int) -> Any:
    """Rules version 3: who owes the stroke once `actor` has had its turn (played, passed, or
    had its action cancelled). A movement of Max makes it the player after `actor`; otherwise
    the duty ends with the owing player's turn ("before playing": a turn not played owes
    nothing, and the duty never passes to the following teammate) and stays with its seat
    while anyone else acts (a mend, which is no turn, hands it to the player after the
    mender, who plays the round's second turn)."""
    if strokes:
        return player_after
    if type(stroke_due) is int and stroke_due == actor:
        return None
    return stroke_due


def owed(
    effects: Iterable[str], moved: Iterable[str], actor: int, team: Sequence[int], declared: bool = False
) -> dict[str, list[int]]:
    """The teammates who must still wave (Pam) or answer (Edgar) for this action: nobody when
    the team's part is declared with the action (rules version 2)."""
    effects, moved = set(effects), set(moved)
    if declared:
        return {"wave": [], "answer": []}
    others = [s for s in team if s != actor]
    return {
        "wave": others if "pam-wave" in effects and "Pam" in moved else [],
        "answer": others if "edgar-ready" in effects and "Edgar" in moved else [],
    }


def team_faults(still_owed: Mapping[str, Sequence[int]]) -> list[str]:
    found: list[str] = []  # refusals (a Refusal is its English text)
    if still_owed.get("wave"):
        found.append(Refusal("seats %(seats)s did not join the Mexican wave", seats=list(still_owed["wave"])))
    if still_owed.get("answer"):
        found.append(Refusal("seats %(seats)s did not answer Edgar", seats=list(still_owed["answer"])))
    return found
