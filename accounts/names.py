"""What makes two usernames the same name (docs/accounts.md#usernames).

Compared case-insensitively, after NFKC (fullwidth ａ is a) and through Unicode's confusable
skeleton (UTS #39, ICU's SpoofChecker: a Cyrillic а is a Latin a, rn is m): a name whose key is
taken, or retired from a deleted account, cannot be registered. The name itself is kept as typed.
"""
from __future__ import annotations

import unicodedata

import icu

_spoof = icu.SpoofChecker()


def key(username: str) -> str:
    """The name as compared: the confusable skeleton of its NFKC case fold."""
    folded = unicodedata.normalize("NFKC", username).casefold()
    return _spoof.getSkeleton(0, folded)  # 0: the one skeleton of UTS #39 (all scripts)
