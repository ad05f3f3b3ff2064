"""Photoshoot (kind `photoshoot`): two teams against the hourglass, one arranging characters for
the photo objectives, the other catching its errors."""

from .engine import Photoshoot

ENGINE = Photoshoot()

__all__ = ["ENGINE", "Photoshoot"]
