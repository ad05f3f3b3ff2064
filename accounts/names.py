"""What makes two usernames the same name (docs/accounts.md#usernames).

Compared case-insensitively, after NFKC (fullwidth ａ is a) and through Unicode's confusable
skeleton (UTS #39, ICU's SpoofChecker: a Cyrillic а is a Latin a, rn is m): a name whose key is
taken, or retired from a deleted account, cannot be registered. The name itself is kept as typed.

Case and look-alikes are one relation, not two steps: `paui` is `PAUI` (case), which looks like
`PAUl` (capital I is l), which is `paul` (case). The skeleton alone maps I to l but leaves i as it
is, and a case fold alone maps I to i; so the key applies both, in both cases, until nothing
changes (a fixed point): `bob`/`b0b`, `alicer1`/`aIicer1`, `paul`/`paui`, `will`/`wiii` share one.
"""

from __future__ import annotations

import unicodedata

import icu

_spoof = icu.SpoofChecker()
# A round maps a name closer to its key; real names settle in one or two. The bound only makes
# sure that no string, however odd, keeps a registration busy.
_ROUNDS = 8


def _skeleton(text: str) -> str:
    return _spoof.getSkeleton(0, text)  # 0: the one skeleton of UTS #39 (all scripts)


def key(username: str) -> str:
    """The name as compared: the confusable skeleton and case fold, taken to a fixed point."""
    current = unicodedata.normalize("NFKC", username)
    for _ in range(_ROUNDS):
        # The lower case's look-alikes (rn is m), then the upper case's (I is l), folded.
        folded = _skeleton(_skeleton(current.casefold()).casefold().upper()).casefold()
        if folded == current:
            break
        current = folded
    return current
