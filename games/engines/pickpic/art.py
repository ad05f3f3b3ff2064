"""Procedural photographs for the 120 Pick Pic cards: a scene drawn from the card's words and id.

Pure and deterministic (no Django, no file system): the same card always gives the same bytes.
The card's words choose the setting (sea, city, forest, desert, snow, sky, night, fields,
interior, mountains), the light (dawn, noon, dusk, night, fog) and, above all, its subjects
(`motifs/`: a lighthouse, a pool, a letter, headphones... each card names its own); its id
(through SHA-256) places everything else: the horizon, the hills, the buildings, the trees, the
clouds, the stars, the wall and floor of a room, and where and how large each subject stands
(mirrored or not). So every card shows what its title says, and cards of one setting still
differ in layout and colour, so players can tell them apart and argue about them.
"""

from __future__ import annotations

import hashlib
import math
import random
import re
from typing import Any

from .motifs import MOTIFS, Light

W, H = 264, 270  # the photo area of a card (the card's frame is drawn around it)

SETTINGS = {
    "sea": {"sea", "coast", "ocean", "beach", "water", "spray", "wave", "harbor", "boat", "lake", "river", "fishing"},
    "city": {
        "city",
        "street",
        "urban",
        "crowd",
        "commute",
        "neon",
        "traffic",
        "market",
        "subway",
        "night-life",
        "retro",
    },
    "forest": {"trees", "forest", "green", "wood", "autumn", "leaves", "path", "mist", "spring", "garden"},
    "desert": {"sand", "desert", "heat", "dust", "dry", "savanna"},
    "snow": {"winter", "snow", "cold", "frozen", "white", "icebergs", "glacier"},
    "sky": {"sky", "float", "wind", "flight", "clouds", "birds", "height"},
    "fields": {"farm", "summer", "field", "harvest", "sun", "yellow", "earth", "road", "travel"},
    "interior": {
        "home",
        "food",
        "warmth",
        "memory",
        "books",
        "quiet",
        "paper",
        "music",
        "kitchen",
        "craft",
        "hands",
        "study",
        "pet",
    },
    "mountains": {"vast", "mountain", "stone", "courage", "solitude", "wonder", "danger", "power"},
}
LIGHTS = {
    "night": {"night", "stars", "dark", "neon", "glow", "fire", "moon"},
    "dusk": {"evening", "sunset", "dusk", "nostalgia", "autumn", "warmth", "memory"},
    "dawn": {"morning", "dawn", "spring", "fresh", "calm"},
    "fog": {"mist", "fog", "rain", "silence", "waiting", "solitude", "stillness"},
}
SKIES = {  # top, horizon colours (HSL hue shifts come from the id)
    "night": ((230, 45, 12), (250, 35, 28)),
    "dusk": ((270, 40, 38), (22, 85, 62)),
    "dawn": ((205, 55, 70), (35, 85, 82)),
    "fog": ((210, 12, 72), (210, 10, 86)),
    "noon": ((205, 70, 52), (195, 60, 82)),
}


def _words(entry: dict[str, Any]) -> set[str]:
    """The title's words (split at hyphens too, "'s" dropped) and the tags, lower case."""
    title = {re.sub(r"'s$", "", w).strip(".,'") for w in re.split(r"[\s-]+", entry["title"].lower())}
    return {w for w in title if w} | {t.lower() for t in entry["tags"]}


def motifs(entry: dict[str, Any]) -> tuple[str, ...]:
    """The names of the subjects a card's photograph shows (`motifs.MOTIFS`), in drawing order:
    whole-frame views first, then the floor, the horizon, the sky and the ground in front."""
    words, title = _words(entry), entry["title"].lower()
    called = [
        name
        for name, (keys, _, _) in MOTIFS.items()
        if any(key.replace("_", " ") in title if "_" in key else key in words for key in keys)
    ]
    order = {"full": 0, "floor": 1, "horizon": 2, "sky": 3, "ground": 4}
    return tuple(sorted(called, key=lambda name: order[MOTIFS[name][1]]))


def _pick(
    words: set[str], table: dict[str, set[str]], default: str, rng: random.Random, title: frozenset[str] = frozenset()
) -> str:
    # The title's words count twice: "Bonfire on the Beach" is on the beach, however warm.
    scores = {name: len(words & keys) + len(title & keys) for name, keys in table.items()}
    best = max(scores.values())
    if not best:
        return default
    return rng.choice(sorted(name for name, score in scores.items() if score == best))


def _hsl(h: float, s: float, l: float) -> str:
    return f"hsl({round(h) % 360},{max(0, min(100, round(s)))}%,{max(0, min(100, round(l)))}%)"


def scene(entry: dict[str, Any]) -> tuple[str, str, str]:
    """(setting, light, the SVG elements of the scene in a 264x270 box) for a catalogue entry."""
    rng = random.Random(hashlib.sha256(f"pickpic-art:{entry['id']}:{entry['title']}".encode()).digest())
    words = _words(entry)
    title = frozenset(_words({"title": entry["title"], "tags": []}))
    setting = _pick(words, SETTINGS, rng.choice(["fields", "mountains", "sea", "forest"]), rng, title)
    light = _pick(words, LIGHTS, rng.choice(["noon", "noon", "dawn", "dusk"]), rng, title)
    shift = rng.uniform(-18, 18)
    (th, ts, tl), (hh, hs, hl) = SKIES[light]
    horizon = rng.uniform(0.42, 0.66) * H if setting not in ("sky", "interior") else rng.uniform(0.7, 0.82) * H
    parts = [
        "<defs>"
        f'<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="{_hsl(th + shift, ts, tl)}"/>'
        f'<stop offset="1" stop-color="{_hsl(hh + shift, hs, hl)}"/></linearGradient>'
        '<radialGradient id="glow"><stop offset="0" stop-color="#fff" stop-opacity=".9"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>'
        "</defs>",
        f'<rect width="{W}" height="{H}" fill="url(#sky)"/>',
    ]
    dark = light == "night"
    # The light source: sun, low sun or moon, and stars at night.
    sx, sy = (
        rng.uniform(30, W - 30),
        (horizon * rng.uniform(0.2, 0.5) if light in ("noon", "fog") else horizon * rng.uniform(0.55, 0.85)),
    )
    if dark:
        for _ in range(rng.randint(25, 60)):
            parts.append(
                f'<circle cx="{rng.uniform(0, W):.1f}" cy="{rng.uniform(0, horizon * 0.9):.1f}" r="{rng.uniform(0.4, 1.5):.1f}" fill="#fff" opacity="{rng.uniform(0.4, 1):.2f}"/>'
            )
        parts.append(f'<circle cx="{sx:.1f}" cy="{sy * 0.6:.1f}" r="{rng.uniform(9, 15):.1f}" fill="#f5f1dc"/>')
    elif light != "fog":
        r = rng.uniform(12, 24)
        colour = "#fff6c8" if light == "noon" else _hsl(30 + shift, 95, 68)
        parts.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{r * 2.6:.1f}" fill="url(#glow)" opacity=".55"/>')
        parts.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{r:.1f}" fill="{colour}"/>')
    if light in ("noon", "dawn", "fog") or setting == "sky":
        for _ in range(rng.randint(1, 4) + (3 if setting == "sky" else 0)):
            cx, cy, size = rng.uniform(0, W), rng.uniform(15, horizon * 0.7), rng.uniform(14, 30)
            puff = "".join(
                f'<ellipse cx="{cx + dx * size:.1f}" cy="{cy + dy * size * 0.5:.1f}" rx="{size * rng.uniform(0.7, 1.1):.1f}" ry="{size * 0.55:.1f}"/>'
                for dx, dy in ((-0.8, 0.2), (0, 0), (0.8, 0.25), (0.3, -0.35))
            )
            parts.append(f'<g fill="#fff" opacity="{0.55 if light == "fog" else 0.85}">{puff}</g>')
    subjects = motifs(entry)
    ground = {
        "sea": 205,
        "city": 230,
        "forest": 130,
        "desert": 38,
        "snow": 210,
        "sky": 110,
        "fields": 55,
        "interior": 25,
        "mountains": 140,
    }[setting] + shift
    g_light = 12 if dark else 32 if light == "dusk" else 45
    parts += _SETTING_DRAW[setting](rng, horizon, ground, g_light, dark, bool(subjects))
    if light == "fog":
        parts.append(f'<rect width="{W}" height="{H}" fill="#e8ecef" opacity=".35"/>')
    parts += _place(rng, subjects, Light(horizon, dark, "#f2f2f2" if dark else "#1f1f24", shift), horizon)
    parts += _subject(rng, words, setting, horizon, dark, bool(subjects))
    return setting, light, "".join(parts)


def _place(rng, subjects, light, horizon):
    """Each subject moved, scaled and perhaps mirrored by the card's id: a whole-frame view fills
    the photo; the others stand on the horizon, in the sky or side by side on the ground."""
    out = []
    ground = [name for name in subjects if MOTIFS[name][1] == "ground"]
    for name in subjects:
        _, where, draw = MOTIFS[name]
        flip = -1 if rng.random() < 0.35 else 1
        if where == "full":
            x, y, scale = W / 2, H, 1.0
        elif where == "floor":  # drawn 120 high: stretched from the horizon to the bottom edge
            out.append(
                f'<g data-motif="{name}" transform="translate({W / 2:.1f} {H}) scale({flip:.0f} {(H - horizon) / 120:.2f})">{draw(rng, light)}</g>'
            )
            continue
        elif where == "horizon":
            x, y, scale = W / 2 + rng.uniform(-60, 60), horizon + rng.uniform(0, 12), rng.uniform(0.6, 0.9)
        elif where == "sky":
            x, y, scale = W / 2 + rng.uniform(-50, 50), horizon * rng.uniform(0.75, 0.95), rng.uniform(0.7, 1.0)
        else:
            i, n = ground.index(name), len(ground)
            x = W * (i + 1) / (n + 1) + rng.uniform(-18, 18)
            y, scale = H - rng.uniform(4, 18), rng.uniform(0.85, 1.1) * (0.62 if n > 1 else 1.0)
        out.append(
            f'<g data-motif="{name}" transform="translate({x:.1f} {y:.1f}) scale({flip * scale:.2f} {scale:.2f})">'
            f"{draw(rng, light)}</g>"
        )
    return out


def _hills(rng, horizon, hue, lightness, layers=3, rough=0.35):
    out = []
    for layer in range(layers):
        base = horizon + layer * (H - horizon) / (layers + 1)
        pts = [(0, H), (0, base)]
        x = 0.0
        while x < W:
            x += rng.uniform(25, 60)
            pts.append((min(x, W), base - rng.uniform(0, (H - horizon) * rough + 10)))
        pts.append((W, H))
        d = "M" + " L".join(f"{px:.1f} {py:.1f}" for px, py in pts) + " Z"
        out.append(f'<path d="{d}" fill="{_hsl(hue + layer * 6, 40, lightness - layer * 7)}"/>')
    return out


def _sea(rng, horizon, hue, light, dark, busy=False):
    out = [f'<rect y="{horizon:.1f}" width="{W}" height="{H - horizon:.1f}" fill="{_hsl(hue, 55, light - 5)}"/>']
    for i in range(rng.randint(6, 12)):
        y = horizon + (i + 1) * (H - horizon) / 13 + rng.uniform(-3, 3)
        amp, step = rng.uniform(2, 6), rng.uniform(14, 26)
        d = f"M0 {y:.1f}" + "".join(f" q{step / 2:.1f} {-amp:.1f} {step:.1f} 0" for _ in range(int(W / step) + 2))
        out.append(
            f'<path d="{d}" fill="none" stroke="{_hsl(hue, 60, light + 18)}" stroke-width="{rng.uniform(1, 2.5):.1f}" opacity=".7"/>'
        )
    if rng.random() < 0.6:  # a headland or a lighthouse on the coast
        x = rng.choice([rng.uniform(-20, 40), rng.uniform(W - 70, W)])
        out.append(f'<path d="M{x:.1f} {horizon + 6:.1f} q40 -40 90 0 Z" fill="{_hsl(hue + 90, 25, light - 20)}"/>')
        if rng.random() < 0.5:
            out.append(
                f'<rect x="{x + 40:.1f}" y="{horizon - 40:.1f}" width="9" height="36" fill="#f4f4f4"/>'
                f'<rect x="{x + 40:.1f}" y="{horizon - 30:.1f}" width="9" height="6" fill="#c0392b"/>'
                f'<circle cx="{x + 44.5:.1f}" cy="{horizon - 43:.1f}" r="4" fill="#ffe066"/>'
            )
    return out


def _city(rng, horizon, hue, light, dark, busy=False):
    out = []
    for layer in range(2):
        x = rng.uniform(-20, 0)
        while x < W:
            w, h = rng.uniform(18, 40), rng.uniform(40, horizon * (0.9 if layer == 0 else 0.6))
            top = horizon + 20 * layer - h
            out.append(
                f'<rect x="{x:.1f}" y="{top:.1f}" width="{w:.1f}" height="{H:.1f}" fill="{_hsl(hue, 15, light - 12 - layer * 10)}"/>'
            )
            for wy in range(int(top) + 6, int(horizon + 20 * layer), 9):
                for wx in range(int(x) + 4, int(x + w) - 4, 7):
                    if rng.random() < (0.45 if dark else 0.25):
                        out.append(
                            f'<rect x="{wx}" y="{wy}" width="3" height="4" fill="{"#ffd866" if dark else "#dfe9f3"}"/>'
                        )
            x += w + rng.uniform(1, 8)
    out.append(f'<rect y="{horizon + 20:.1f}" width="{W}" height="{H:.1f}" fill="{_hsl(hue, 8, light - 25)}"/>')
    for _ in range(rng.randint(2, 5)):  # street lamps
        lx = rng.uniform(10, W - 10)
        out.append(
            f'<rect x="{lx:.1f}" y="{horizon + 2:.1f}" width="2" height="30" fill="#333"/>'
            f'<circle cx="{lx + 1:.1f}" cy="{horizon:.1f}" r="3.5" fill="{"#ffe27a" if dark else "#999"}"/>'
        )
    return out


def _forest(rng, horizon, hue, light, dark, busy=False):
    out = _hills(rng, horizon, hue, light + 5, layers=2, rough=0.15)
    for _ in range(rng.randint(12, 26)):
        x, y = rng.uniform(-10, W + 10), rng.uniform(horizon - 5, H + 10)
        s = 0.5 + (y - horizon) / (H - horizon + 1) * 1.2
        tone = _hsl(hue + rng.uniform(-15, 25), 45, light - 12 - rng.uniform(0, 10))
        if rng.random() < 0.6:
            out.append(
                f'<path d="M{x:.1f} {y - 60 * s:.1f} L{x - 16 * s:.1f} {y:.1f} L{x + 16 * s:.1f} {y:.1f} Z" fill="{tone}"/>'
            )
        else:
            out.append(
                f'<rect x="{x - 2 * s:.1f}" y="{y - 20 * s:.1f}" width="{4 * s:.1f}" height="{20 * s:.1f}" fill="#5b3a1e"/>'
                f'<circle cx="{x:.1f}" cy="{y - 30 * s:.1f}" r="{16 * s:.1f}" fill="{tone}"/>'
            )
    return out


def _desert(rng, horizon, hue, light, dark, busy=False):
    out = []
    for layer in range(3):
        base = horizon + layer * (H - horizon) / 3
        d = f"M0 {H} L0 {base:.1f}"
        x = 0.0
        while x < W:
            step = rng.uniform(60, 120)
            d += f" Q{x + step / 2:.1f} {base - rng.uniform(10, 40):.1f} {x + step:.1f} {base + rng.uniform(-8, 8):.1f}"
            x += step
        out.append(f'<path d="{d} L{W} {H} Z" fill="{_hsl(hue + layer * 4, 60, light + 15 - layer * 8)}"/>')
    if rng.random() < 0.6:  # a cactus or a palm
        x = rng.uniform(20, W - 20)
        out.append(
            f'<rect x="{x:.1f}" y="{H - 70:.1f}" width="8" height="60" rx="4" fill="#2f6b3a"/>'
            f'<rect x="{x - 12:.1f}" y="{H - 55:.1f}" width="6" height="22" rx="3" fill="#2f6b3a"/>'
        )
    return out


def _snow(rng, horizon, hue, light, dark, busy=False):
    out = []
    for layer in range(2):
        x = rng.uniform(-60, 0)
        while x < W:
            w, h = rng.uniform(80, 150), rng.uniform(50, horizon * 0.7)
            top = horizon - h + layer * 25
            out.append(
                f'<path d="M{x:.1f} {horizon + layer * 25:.1f} L{x + w / 2:.1f} {top:.1f} L{x + w:.1f} {horizon + layer * 25:.1f} Z" '
                f'fill="{_hsl(hue, 25, light + 10 - layer * 8)}"/>'
                f'<path d="M{x + w / 2:.1f} {top:.1f} l{-w * 0.14:.1f} {h * 0.28:.1f} l{w * 0.07:.1f} -6 l{w * 0.07:.1f} 8 l{w * 0.07:.1f} -8 l{w * 0.07:.1f} 6 Z" fill="#fbfdff"/>'
            )
            x += w * rng.uniform(0.5, 0.9)
    out.append(f'<rect y="{horizon + 30:.1f}" width="{W}" height="{H:.1f}" fill="{"#c9d6e6" if dark else "#f2f6fb"}"/>')
    for _ in range(rng.randint(20, 50)):
        out.append(
            f'<circle cx="{rng.uniform(0, W):.1f}" cy="{rng.uniform(0, H):.1f}" r="{rng.uniform(0.8, 2):.1f}" fill="#fff" opacity=".85"/>'
        )
    return out


def _sky(rng, horizon, hue, light, dark, busy=False):
    return _hills(rng, horizon, hue, light + 8, layers=2, rough=0.1)


def _fields(rng, horizon, hue, light, dark, busy=False):
    out = _hills(rng, horizon, hue + 40, light, layers=1, rough=0.2)
    rows = rng.randint(6, 12)
    for i in range(rows):
        y0 = horizon + 10 + i * (H - horizon) / rows
        out.append(
            f'<rect y="{y0:.1f}" width="{W}" height="{(H - horizon) / rows + 1:.1f}" '
            f'fill="{_hsl(hue + (i % 2) * 12 + rng.uniform(-5, 5), 65, light + 8 - (i % 2) * 6)}"/>'
        )
    vx = rng.uniform(W * 0.3, W * 0.7)  # a track to the vanishing point, when nothing else stands there
    if not busy:
        out.append(
            f'<path d="M{vx - 3:.1f} {horizon + 10:.1f} L{vx + 3:.1f} {horizon + 10:.1f} L{vx + 60:.1f} {H} L{vx - 60:.1f} {H} Z" fill="{_hsl(30, 20, light - 5)}"/>'
        )
    if rng.random() < 0.7:  # a farmhouse or a windmill
        x = rng.uniform(15, W - 50)
        out.append(
            f'<rect x="{x:.1f}" y="{horizon - 8:.1f}" width="30" height="20" fill="#b5543a"/>'
            f'<path d="M{x - 3:.1f} {horizon - 8:.1f} L{x + 15:.1f} {horizon - 22:.1f} L{x + 33:.1f} {horizon - 8:.1f} Z" fill="#6d2e1f"/>'
        )
    return out


def _interior(rng, horizon, hue, light, dark, busy=False):
    """A room: its wall (plain, striped, papered or panelled) and floor (boards or tiles) by the
    id; a window on some walls; a table and its things only when the card names no subject."""
    wall_hue = hue + rng.uniform(-40, 40)
    wall = _hsl(wall_hue, rng.uniform(20, 45), 28 if dark else rng.uniform(58, 76))
    out = [f'<rect width="{W}" height="{H}" fill="{wall}"/>']
    pattern = rng.choice(["plain", "stripes", "dots", "panels"])
    line = _hsl(wall_hue, 30, 22 if dark else 50)
    if pattern == "stripes":
        step = rng.uniform(14, 26)
        out += [
            f'<rect x="{x:.1f}" width="{step / 3:.1f}" height="{horizon:.1f}" fill="{line}" opacity=".25"/>'
            for x in _steps(0, W, step)
        ]
    elif pattern == "dots":
        out += [
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="{line}" opacity=".35"/>'
            for y in _steps(10, horizon, 22)
            for x in _steps(10 + (y % 2) * 11, W, 22)
        ]
    elif pattern == "panels":
        out.append(
            f'<rect y="{horizon * 0.62:.1f}" width="{W}" height="{horizon * 0.38:.1f}" fill="{line}" opacity=".3"/>'
        )
    if rng.random() < 0.5:
        wx, wy, ww, wh = (
            rng.choice([rng.uniform(14, 40), rng.uniform(W - 130, W - 80)]),
            rng.uniform(14, 40),
            rng.uniform(60, 90),
            rng.uniform(70, 100),
        )
        out.append(
            f'<rect x="{wx:.1f}" y="{wy:.1f}" width="{ww:.1f}" height="{wh:.1f}" fill="url(#sky)" stroke="#5b3a1e" stroke-width="6"/>'
            f'<path d="M{wx + ww / 2:.1f} {wy:.1f} v{wh:.1f} M{wx:.1f} {wy + wh / 2:.1f} h{ww:.1f}" stroke="#5b3a1e" stroke-width="4"/>'
        )
    floor = _hsl(rng.uniform(20, 35), rng.uniform(30, 50), 30 if dark else rng.uniform(36, 50))
    out.append(f'<rect y="{horizon:.1f}" width="{W}" height="{H - horizon:.1f}" fill="{floor}"/>')
    if rng.random() < 0.5:  # boards
        out += [
            f'<path d="M{W / 2 + (x - W / 2) * 0.3:.1f} {horizon:.1f} L{x:.1f} {H}" stroke="#000" stroke-opacity=".15"/>'
            for x in _steps(-W, 2 * W, 36)
        ]
    else:  # tiles
        out += [f'<path d="M0 {y:.1f} H{W}" stroke="#fff" stroke-opacity=".2"/>' for y in _steps(horizon + 8, H, 14)]
    if not busy:
        tx = rng.uniform(20, W - 120)
        out.append(
            f'<rect x="{tx:.1f}" y="{horizon - 30:.1f}" width="110" height="8" fill="#7a4a25"/>'
            f'<rect x="{tx + 8:.1f}" y="{horizon - 22:.1f}" width="6" height="30" fill="#6a3d1d"/>'
            f'<rect x="{tx + 96:.1f}" y="{horizon - 22:.1f}" width="6" height="30" fill="#6a3d1d"/>'
        )
    if dark:
        lx = rng.uniform(30, W - 30)
        out.append(
            f'<circle cx="{lx:.1f}" cy="60" r="60" fill="url(#glow)" opacity=".5"/>'
            f'<path d="M{lx - 14:.1f} 60 L{lx + 14:.1f} 60 L{lx + 8:.1f} 44 L{lx - 8:.1f} 44 Z" fill="#f3d27a"/>'
            f'<rect x="{lx - 1:.1f}" y="0" width="2" height="44" fill="#333"/>'
        )
    return out


def _steps(start: float, stop: float, step: float):
    x = start
    while x < stop:
        yield x
        x += step


def _mountains(rng, horizon, hue, light, dark, busy=False):
    out = []
    for layer in range(3):
        pts, x = [(0, H)], -20.0
        base = horizon + layer * 18
        while x < W + 20:
            pts.append((x, base - rng.uniform(20, horizon * (0.8 - layer * 0.2))))
            x += rng.uniform(40, 90)
            pts.append((x, base - rng.uniform(0, 20)))
        pts.append((W, H))
        d = "M" + " L".join(f"{px:.1f} {py:.1f}" for px, py in pts) + " Z"
        out.append(f'<path d="{d}" fill="{_hsl(hue + 80 + layer * 10, 20 + layer * 8, light - 5 - layer * 9)}"/>')
    out.append(f'<rect y="{horizon + 54:.1f}" width="{W}" height="{H:.1f}" fill="{_hsl(hue, 35, light - 12)}"/>')
    return out


_SETTING_DRAW = {
    "sea": _sea,
    "city": _city,
    "forest": _forest,
    "desert": _desert,
    "snow": _snow,
    "sky": _sky,
    "fields": _fields,
    "interior": _interior,
    "mountains": _mountains,
}


def _figure(x, y, s, colour):
    return (
        f'<g fill="{colour}"><circle cx="{x:.1f}" cy="{y - 26 * s:.1f}" r="{5 * s:.1f}"/>'
        f'<path d="M{x - 6 * s:.1f} {y:.1f} L{x - 4 * s:.1f} {y - 20 * s:.1f} L{x + 4 * s:.1f} {y - 20 * s:.1f} L{x + 6 * s:.1f} {y:.1f} Z"/></g>'
    )


def _subject(rng, words, setting, horizon, dark, busy):
    """What the air and the ground hold besides the card's subjects: birds, rain, confetti, and,
    when the card names no subject, a boat at sea, passers-by or a fire's glow."""
    out = []
    ink = "#f2f2f2" if dark else "#1f1f24"
    if words & {"birds", "bird", "wings", "flight", "seagull", "freedom"}:
        for _ in range(rng.randint(3, 9)):
            x, y, s = rng.uniform(10, W - 10), rng.uniform(20, horizon * 0.8), rng.uniform(4, 9)
            out.append(
                f'<path d="M{x - s:.1f} {y:.1f} q{s / 2:.1f} {-s / 2:.1f} {s:.1f} 0 q{s / 2:.1f} {-s / 2:.1f} {s:.1f} 0" fill="none" stroke="{ink}" stroke-width="1.6"/>'
            )
    if words & {"rain", "storm", "weather"}:
        for _ in range(60):
            x, y = rng.uniform(0, W), rng.uniform(0, H)
            out.append(f'<path d="M{x:.1f} {y:.1f} l-3 9" stroke="#9fb6cc" stroke-width="1" opacity=".7"/>')
    if words & {"celebration", "confetti", "joy", "festival", "party"}:
        for _ in range(50):
            out.append(
                f'<rect x="{rng.uniform(0, W):.1f}" y="{rng.uniform(0, H):.1f}" width="3" height="5" '
                f'fill="{_hsl(rng.uniform(0, 360), 80, 60)}" transform="rotate({rng.uniform(0, 90):.0f})"/>'
            )
    if busy:
        pass
    elif setting == "sea":
        x = rng.uniform(30, W - 60)
        out.append(
            f'<path d="M{x:.1f} {horizon + 12:.1f} l40 0 l-6 8 l-28 0 Z" fill="#6b3b1f"/>'
            f'<path d="M{x + 20:.1f} {horizon + 11:.1f} l0 -30 l16 28 Z" fill="#f7f3ea"/>'
        )
    elif words & {"people", "crowd", "commute", "team"} and setting != "interior":
        for _ in range(rng.randint(5, 9)):
            out.append(_figure(rng.uniform(15, W - 15), rng.uniform(horizon + 30, H - 6), rng.uniform(0.9, 1.5), ink))
    elif words & {"fire", "glow", "light"} and dark:
        x = rng.uniform(40, W - 40)
        out.append(
            f'<circle cx="{x:.1f}" cy="{H - 40:.1f}" r="40" fill="url(#glow)" opacity=".7"/>'
            f'<path d="M{x - 10:.1f} {H - 30:.1f} q10 -40 20 0 Z" fill="#ff9f1c"/>'
        )
    # A vignette: every photo gets one, the darker at night.
    out.append(
        f'<rect width="{W}" height="{H}" fill="none" stroke="#000" stroke-opacity="{0.35 if dark else 0.18}" stroke-width="{18 + math.floor(rng.uniform(0, 8))}"/>'
    )
    return out
