"""What every motif is drawn with: the scene's light and a few SVG shorthands."""

from __future__ import annotations

import random
from dataclasses import dataclass

W, H = 264, 270


@dataclass(frozen=True)
class Light:
    """What a drawing needs of the scene: the horizon, night or day, the silhouette ink, a hue."""

    horizon: float
    dark: bool
    ink: str
    hue: float


def e(tag: str, **attrs) -> str:
    """An SVG element: numbers rounded to one decimal, `stroke_width` written `stroke-width`."""
    body = " ".join(
        f'{k.rstrip("_").replace("_", "-")}="{v:.1f}"'
        if isinstance(v, float)
        else f'{k.rstrip("_").replace("_", "-")}="{v}"'
        for k, v in attrs.items()
    )
    return f"<{tag} {body}/>"


def path(d: str, fill: str = "none", **attrs) -> str:
    return e("path", d=d, fill=fill, **attrs)


def hsl(h: float, s: float, l: float) -> str:
    return f"hsl({round(h) % 360},{max(0, min(100, round(s)))}%,{max(0, min(100, round(l)))}%)"


def figure(x: float, y: float, s: float, colour: str, arms: str = "") -> str:
    """A person standing at (x, y), `s` times 30 units tall; `arms` a path relative to the shoulders."""
    out = (
        f'<g fill="{colour}"><circle cx="{x:.1f}" cy="{y - 26 * s:.1f}" r="{5 * s:.1f}"/>'
        f'<path d="M{x - 6 * s:.1f} {y:.1f} L{x - 4 * s:.1f} {y - 20 * s:.1f} L{x + 4 * s:.1f} {y - 20 * s:.1f} L{x + 6 * s:.1f} {y:.1f} Z"/></g>'
    )
    if arms:
        out += path(f"M{x:.1f} {y - 18 * s:.1f} {arms}", stroke=colour, stroke_width=2.2 * s, stroke_linecap="round")
    return out


def bright(rng: random.Random, sat: float = 70, light: float = 55) -> str:
    return hsl(rng.uniform(0, 360), sat, light)
