"""Pick Pic (kind `pickpic`): give photos that fit, rank the photos you were given."""

from .cards import CATALOGUE, card, card_svg, image_path
from .engine import PickPic

ENGINE = PickPic()

__all__ = ["ENGINE", "CATALOGUE", "card", "card_svg", "image_path", "PickPic"]
