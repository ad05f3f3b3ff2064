"""The living subjects that stand on the ground in front: people, animals and plants (each drawn
around its own origin, the middle of its base, about 120 units tall at scale 1)."""

from __future__ import annotations

import math

from .drawing import bright, e, figure, hsl, path


def nets(rng, c):
    mesh = "".join(
        path(f"M{-60 + i * 12} -30 Q{-54 + i * 12} -5 {-60 + i * 12} 0", stroke="#8a6d3b", stroke_width=1)
        for i in range(11)
    )
    mesh += "".join(path(f"M-60 {-30 + j * 7} L72 {-30 + j * 7}", stroke="#8a6d3b", stroke_width=1) for j in range(5))
    return (
        '<g transform="scale(1.5)">'
        + mesh
        + figure(-20, -28, 2.2, c.ink, "l14 10 l8 -2")
        + e("ellipse", cx=40, cy=-2, rx=34, ry=6, fill="#5d4037", opacity=".5")
        + "</g>"
    )


def pigeons(rng, c):
    out = ""
    for _ in range(7):
        x, y = rng.uniform(-80, 80), rng.uniform(-14, 0)
        out += e("ellipse", cx=x, cy=y - 6, rx=8, ry=5, fill="#7b8794") + e(
            "circle", cx=x + 7, cy=y - 11, r=3.5, fill="#5f6b78"
        )
    return out + figure(-40, 0, 1.7, c.ink, "l-12 -10 M0 0 l14 -12")


def surfer(rng, c):
    wave = path("M-130 0 Q-120 -110 -20 -120 Q60 -120 70 -60 Q40 -90 0 -80 Q-60 -60 -50 0 Z", hsl(195 + c.hue, 60, 45))
    foam = path("M-20 -120 Q60 -120 70 -60 Q55 -100 -10 -112", "#ffffff", opacity=".85")
    board = path("M-8 -44 L30 -52", stroke="#f4a261", stroke_width=4, stroke_linecap="round")
    return wave + foam + board + figure(10, -50, 1.2, c.ink, "l-10 -4 M0 0 l10 -6")


def wedding(rng, c):
    arch = path("M-50 0 L-50 -70 Q0 -120 50 -70 L50 0", stroke="#f8f9fa", stroke_width=7)
    flowers = "".join(
        e("circle", cx=math.cos(a) * 50, cy=-70 - math.sin(a) * 36, r=5, fill=hsl(340 + 20 * k, 70, 75))
        for k, a in enumerate(i * math.pi / 8 for i in range(9))
    )
    bride = path("M-2 0 L-18 0 L-10 -26 L-4 -26 Z", "#ffffff") + e("circle", cx=-10, cy=-31, r=5, fill="#ffffff")
    return arch + flowers + bride + figure(12, 0, 1.2, "#222")


def cat(rng, c):
    return (
        f'<g fill="{c.ink}">'
        + e("ellipse", cx=0, cy=-14, rx=26, ry=14)
        + e("circle", cx=24, cy=-30, r=11)
        + path("M16 -38 l3 -12 l6 9 M26 -39 l5 -11 l3 11", c.ink)
        + "</g>"
        + path("M-24 -10 q-20 0 -16 -26", stroke=c.ink, stroke_width=4)
    )


def sunflowers(rng, c):
    out = ""
    for i in range(5):
        x, y, s = -90 + i * 45 + rng.uniform(-8, 8), rng.uniform(-20, 0), rng.uniform(0.8, 1.2)
        out += path(f"M{x} {y} L{x} {y - 70 * s}", stroke="#3a7d2c", stroke_width=4)
        out += "".join(
            e(
                "ellipse",
                cx=x + math.cos(a) * 12 * s,
                cy=y - 70 * s + math.sin(a) * 12 * s,
                rx=7 * s,
                ry=3.5 * s,
                fill="#ffcc00",
                transform=f"rotate({math.degrees(a):.0f} {x + math.cos(a) * 12 * s:.1f} {y - 70 * s + math.sin(a) * 12 * s:.1f})",
            )
            for a in (k * math.pi / 6 for k in range(12))
        )
        out += e("circle", cx=x, cy=y - 70 * s, r=8 * s, fill="#6b3e1f")
    return out


def finish_line(rng, c):
    out = path("M-90 0 L-90 -110 M90 0 L90 -110", stroke="#444", stroke_width=5)
    out += e("rect", x=-90, y=-112, width=180, height=16, fill="#fafafa")
    out += "".join(e("rect", x=-90 + i * 12, y=-112 + (i % 2) * 8, width=12, height=8, fill="#111") for i in range(15))
    out += e("rect", x=-90, y=-112, width=180, height=16, fill="none", stroke="#111", stroke_width=1)
    return out + figure(-10, 0, 2.0, c.ink, "l-14 -20 M0 0 l14 -20") + figure(40, 0, 1.6, c.ink, "l12 8")


def violinist(rng, c):
    return (
        figure(0, 0, 2.6, c.ink, "l22 -14 M0 0 l-24 -6")
        + e("ellipse", cx=22, cy=-62, rx=6, ry=11, fill="#8b4513", transform="rotate(-50 22 -62)")
        + path("M-24 -52 L40 -80", stroke="#d9c7a5", stroke_width=1.5)
        + path("M-60 -100 l0 -18 l10 -3 l0 18 M60 -110 l0 -16 l9 -3 l0 16", stroke=c.ink, stroke_width=2)
        + e("circle", cx=-62, cy=-100, r=4, fill=c.ink)
        + e("circle", cx=58, cy=-110, r=4, fill=c.ink)
    )


def blossoms(rng, c):
    out = path(
        "M0 0 L0 -60 M0 -60 L-40 -100 M0 -60 L40 -104 M0 -80 L6 -120",
        stroke="#4e342e",
        stroke_width=7,
        stroke_linecap="round",
    )
    for _ in range(40):
        out += e(
            "circle",
            cx=rng.uniform(-80, 80),
            cy=rng.uniform(-150, -70),
            r=rng.uniform(5, 11),
            fill=hsl(340, 70, rng.uniform(78, 88)),
            opacity=".9",
        )
    return out + "".join(
        e("circle", cx=rng.uniform(-120, 120), cy=rng.uniform(-8, 0), r=2, fill="#f8bbd0") for _ in range(20)
    )


def puppy_basket(rng, c):
    weave = "".join(path(f"M{-50 + i * 10} -36 L{-46 + i * 10} 0", stroke="#8d5a2b", stroke_width=2) for i in range(11))
    return (
        '<g transform="scale(1.7)">'
        + e("ellipse", cx=0, cy=-38, rx=56, ry=12, fill="#a0692e")
        + path("M-56 -38 L-46 0 L46 0 L56 -38 Z", "#c08a4a")
        + weave
        + e("ellipse", cx=0, cy=-44, rx=36, ry=12, fill="#e0b07a")
        + e("circle", cx=-22, cy=-50, r=12, fill="#e9c08c")
        + e("ellipse", cx=-32, cy=-48, rx=5, ry=9, fill="#8d5a2b")
        + path("M-26 -52 q3 2 6 0", stroke="#333", stroke_width=1.5)
        + "</g>"
    )


def penguins(rng, c):
    out = ""
    for i in range(5):
        x, s = -80 + i * 40 + rng.uniform(-6, 6), rng.uniform(0.8, 1.1)
        out += (
            e("ellipse", cx=x, cy=-22 * s, rx=12 * s, ry=22 * s, fill="#1c1c1c")
            + e("ellipse", cx=x + 2 * s, cy=-18 * s, rx=7 * s, ry=15 * s, fill="#fafafa")
            + e("circle", cx=x, cy=-44 * s, r=8 * s, fill="#1c1c1c")
            + path(f"M{x + 6 * s} {-44 * s} l6 2 l-6 2 Z", "#f4a300")
        )
    return out


def dancer(rng, c):
    ink = "#f3e3cf"  # lit by the stage's light, whatever the hour
    return (
        e("circle", cx=4, cy=-98, r=7, fill=ink)
        + path("M4 -90 L0 -60", stroke=ink, stroke_width=7, stroke_linecap="round")
        + path(
            "M0 -60 L-44 -70 M0 -60 L40 -40 M2 -86 L-30 -110 M2 -86 L38 -104",
            stroke=ink,
            stroke_width=4,
            stroke_linecap="round",
        )
    )


def elephants(rng, c):
    out = ""
    for i, s in enumerate((1.2, 0.7, 1.0)):
        x = -70 + i * 62
        out += (
            f'<g fill="{hsl(30, 8, 45 - i * 4)}">'
            + e("ellipse", cx=x, cy=-40 * s, rx=34 * s, ry=24 * s)
            + e("circle", cx=x + 34 * s, cy=-48 * s, r=14 * s)
            + path(
                f"M{x + 44 * s} {-44 * s} Q{x + 54 * s} {-20 * s} {x + 48 * s} {-4 * s}",
                stroke=hsl(30, 8, 40),
                stroke_width=5 * s,
            )
            + "".join(e("rect", x=x + dx * s, y=-24 * s, width=9 * s, height=24 * s) for dx in (-26, -12, 8, 20))
            + "</g>"
        )
    return out


def wolf(rng, c):
    ink = "#0b0d14"
    return (
        e("circle", cx=10, cy=-120, r=64, fill="#eef0f5", opacity=".9")
        + path(
            "M-70 0 L-60 -40 Q-40 -60 0 -56 L20 -80 L26 -110 L34 -90 L44 -96 L40 -70 Q44 -56 30 -44 L40 0 L28 0 L18 -30 L-30 -30 L-40 0 Z",
            ink,
        )
        + path("M-60 -40 Q-90 -40 -100 -10", stroke=ink, stroke_width=10, stroke_linecap="round")
        + path("M-140 0 L-60 -20 L40 -10 L140 0 L140 10 L-140 10 Z", ink)
    )


def climber(rng, c):
    return (
        path("M-140 0 L-40 -120 L0 -100 L140 10 Z", "#f2f6fb")
        + path("M-40 -120 L-20 -90 L-30 -70 L0 -100 Z", "#b0bec5")
        + figure(-36, -112, 1.4, c.ink, "l12 -10 l4 -14")
        + path("M-36 -112 Q-80 -60 -120 -20", stroke="#e53935", stroke_width=1.5)
    )


def placards(rng, c):
    out = ""
    for i in range(6):
        x = -110 + i * 44 + rng.uniform(-6, 6)
        out += figure(x, rng.uniform(-6, 0), 1.7, c.ink) + path(
            f"M{x + 6} -30 L{x + 6} -90", stroke="#6d4c41", stroke_width=2.5
        )
        out += e("rect", x=x - 14, y=-120, width=40, height=30, fill=bright(rng, 60, 85)) + path(
            f"M{x - 8} -108 L{x + 18} -108 M{x - 8} -100 L{x + 10} -100", stroke="#333", stroke_width=2
        )
    return out


def butterfly(rng, c):
    col = bright(rng, 90, 55)
    return (
        path("M0 0 L0 -90", stroke="#3a7d2c", stroke_width=4)
        + e("circle", cx=0, cy=-96, r=16, fill="#8e44ad")
        + "".join(
            path(f"M0 -96 l{dx} {dy}", stroke="#a569bd", stroke_width=2)
            for dx, dy in ((-14, -14), (0, -20), (14, -14), (-20, -4), (20, -4))
        )
        + path("M0 -140 Q-40 -180 -44 -140 Q-40 -120 0 -132 Q-30 -110 -20 -104 Q0 -110 0 -132 Z", col)
        + path("M0 -140 Q40 -180 44 -140 Q40 -120 0 -132 Q30 -110 20 -104 Q0 -110 0 -132 Z", col)
        + e("circle", cx=-24, cy=-148, r=5, fill="#111")
        + e("circle", cx=24, cy=-148, r=5, fill="#111")
    )


def peacock(rng, c):
    out = ""
    for k in range(15):
        a = math.pi + k * math.pi / 14
        x, y = 110 * math.cos(a), -40 + 110 * math.sin(a)
        out += path(f"M0 -40 L{x:.1f} {y:.1f}", stroke="#2e7d32", stroke_width=3)
        out += (
            e("ellipse", cx=x, cy=y, rx=9, ry=12, fill="#1b998b")
            + e("circle", cx=x, cy=y, r=5, fill="#0d3b66")
            + e("circle", cx=x, cy=y, r=2, fill="#f4d35e")
        )
    return (
        out + e("ellipse", cx=0, cy=-30, rx=14, ry=26, fill="#1565c0") + e("circle", cx=0, cy=-64, r=8, fill="#1565c0")
    )


def snowman(rng, c):
    return (
        e("circle", cx=0, cy=-30, r=32, fill="#fbfdff", stroke="#cfd8e3")
        + e("circle", cx=0, cy=-84, r=24, fill="#fbfdff", stroke="#cfd8e3")
        + e("circle", cx=0, cy=-124, r=17, fill="#fbfdff", stroke="#cfd8e3")
        + path("M0 -122 l16 4 l-16 3 Z", "#f57c00")
        + e("circle", cx=-6, cy=-128, r=2, fill="#222")
        + e("circle", cx=6, cy=-128, r=2, fill="#222")
        + e("rect", x=-16, y=-150, width=32, height=10, fill="#222")
        + e("rect", x=-10, y=-166, width=20, height=18, fill="#222")
        + path("M-22 -86 L-56 -108 M22 -86 L54 -112", stroke="#5d4037", stroke_width=3)
        + path("M-20 -104 Q0 -96 20 -104", stroke="#c62828", stroke_width=6)
    )


def vines(rng, c):
    out = ""
    for i in range(7):
        x0 = -120 + i * 40
        out += path(f"M{x0 * 0.15:.1f} -90 L{x0:.1f} 10", stroke="#5a8f3a", stroke_width=9 + abs(i - 3), opacity=".9")
        out += "".join(
            e("circle", cx=x0 * (0.15 + 0.85 * t), cy=-90 + 100 * t, r=2 + 3 * t, fill="#5b2a6e")
            for t in (0.4, 0.6, 0.8)
        )
    return out


def mother_child(rng, c):
    return (
        e("circle", cx=0, cy=-60, r=80, fill="url(#glow)", opacity=".6")
        + e("circle", cx=-10, cy=-120, r=18, fill="#8d5a44")
        + path("M-40 0 Q-48 -70 -10 -100 Q30 -80 30 0 Z", hsl(200 + c.hue, 35, 65))
        + e("ellipse", cx=4, cy=-66, rx=26, ry=14, fill="#fff5e6")
        + e("circle", cx=24, cy=-72, r=9, fill="#f1c9a5")
        + path("M-30 -76 Q0 -40 36 -62", stroke="#8d5a44", stroke_width=8, stroke_linecap="round")
    )


def owl(rng, c):
    return (
        e("rect", x=-60, y=-220, width=120, height=230, fill="#4e342e")
        + e("ellipse", cx=0, cy=-110, rx=34, ry=48, fill="#1b1410")
        + e("ellipse", cx=0, cy=-104, rx=24, ry=32, fill="#8d6e63")
        + e("circle", cx=-10, cy=-116, r=9, fill="#ffd54f")
        + e("circle", cx=10, cy=-116, r=9, fill="#ffd54f")
        + e("circle", cx=-10, cy=-116, r=4, fill="#111")
        + e("circle", cx=10, cy=-116, r=4, fill="#111")
        + path("M-2 -106 L0 -100 L2 -106 Z", "#f57c00")
        + path("M-20 -134 l-6 -12 l12 6 M20 -134 l6 -12 l-12 6", "#8d6e63")
    )


def horse(rng, c):
    ink = c.ink
    return (
        f'<g fill="{ink}">'
        + e("ellipse", cx=0, cy=-60, rx=40, ry=18)
        + path("M30 -70 L56 -104 L70 -100 L62 -88 L42 -60 Z")
        + path("M-36 -60 Q-70 -70 -74 -40", stroke=ink, stroke_width=7)
        + "</g>"
        + path(
            "M-26 -48 L-50 -14 L-44 0 M-14 -46 L-4 -10 L-16 0 M22 -48 L44 -20 L56 -20 M30 -48 L18 -12 L26 0",
            stroke=ink,
            stroke_width=6,
            stroke_linecap="round",
        )
        + path("M46 -96 Q30 -94 28 -72", stroke=ink, stroke_width=5)
    )


def scarecrow(rng, c):
    return (
        path("M0 0 L0 -130 M-50 -96 L50 -96", stroke="#6d4c41", stroke_width=5)
        + path("M-20 -100 L20 -100 L26 -50 L-26 -50 Z", hsl(10 + c.hue, 50, 40))
        + e("circle", cx=0, cy=-114, r=14, fill="#e8d39a")
        + path("M-24 -126 L24 -126 L12 -140 L-12 -140 Z", "#5d4037")
        + path(
            "M-50 -96 l-10 10 M-50 -96 l-12 2 M50 -96 l10 10 M50 -96 l12 2 M-14 -50 l-4 14 M14 -50 l4 14",
            stroke="#e8c36a",
            stroke_width=2,
        )
        + path("M60 -140 q6 -6 12 0 q6 -6 12 0", stroke=c.ink, stroke_width=2)
    )


def skateboarder(rng, c):
    return (
        path("M-140 0 L-40 0 Q20 0 40 -70 L40 10 L-140 10 Z", "#9e9e9e")
        + e("rect", x=-10, y=-130, width=44, height=5, rx=2, fill="#e63946", transform="rotate(-20 12 -128)")
        + figure(14, -138, 1.8, c.ink, "l-24 -10 M0 0 l24 -16")
    )


def polar_bear(rng, c):
    return (
        e("rect", x=-90, y=-10, width=180, height=20, fill="#eaf4fb")
        + path("M-90 -10 L-80 -20 L70 -22 L90 -10 Z", "#d5e8f5")
        + '<g fill="#f5f1e6">'
        + e("ellipse", cx=0, cy=-44, rx=44, ry=24)
        + e("circle", cx=44, cy=-52, r=15)
        + e("circle", cx=52, cy=-64, r=4)
        + "".join(e("rect", x=x, y=-30, width=13, height=22, rx=5) for x in (-36, -16, 14, 30))
        + "</g>"
        + e("circle", cx=58, cy=-50, r=2, fill="#111")
    )


def mushroom(rng, c):
    return (
        e("rect", x=-140, y=-14, width=280, height=24, fill="#3f6b2a")
        + "".join(
            e(
                "circle",
                cx=rng.uniform(-140, 140),
                cy=rng.uniform(-20, 0),
                r=rng.uniform(6, 14),
                fill=hsl(100, 45, rng.uniform(25, 40)),
            )
            for _ in range(16)
        )
        + path("M-14 0 Q-18 -40 -10 -60 L10 -60 Q18 -40 14 0 Z", "#f3ead3")
        + path("M-60 -56 Q0 -130 60 -56 Z", "#c1121f")
        + "".join(e("circle", cx=x, cy=y, r=5, fill="#fff") for x, y in ((-30, -70), (0, -90), (26, -72), (-10, -66)))
    )


def wheat(rng, c):
    out = ""
    for _ in range(34):
        x, h = rng.uniform(-140, 140), rng.uniform(60, 120)
        lean = rng.uniform(-12, 12)
        out += path(
            f"M{x:.0f} 10 Q{x + lean / 2:.0f} {-h / 2:.0f} {x + lean:.0f} {-h:.0f}", stroke="#c9962a", stroke_width=1.5
        )
        out += e(
            "ellipse",
            cx=x + lean,
            cy=-h - 8,
            rx=3,
            ry=10,
            fill="#e9b949",
            transform=f"rotate({lean:.0f} {x + lean:.0f} {-h:.0f})",
        )
    return out


def ducks(rng, c):
    out = e("ellipse", cx=0, cy=-6, rx=130, ry=16, fill=hsl(200, 40, 50), opacity=".85")
    for _ in range(5):
        x = rng.uniform(-100, 100)
        out += (
            e("ellipse", cx=x, cy=-12, rx=12, ry=6, fill="#8d6e63")
            + e("circle", cx=x + 9, cy=-20, r=5, fill="#2e7d32")
            + path(f"M{x + 13} -20 l5 1 l-5 2 Z", "#f9a825")
        )
    return out + figure(-90, -20, 1.9, c.ink, "l18 8")
