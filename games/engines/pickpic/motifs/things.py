"""The made things that stand on the ground in front: rooms, vehicles, food, objects (each drawn
around its own origin, the middle of its base, about 120 units tall at scale 1)."""

from __future__ import annotations

import math

from .drawing import bright, e, figure, hsl, path


def umbrella(rng, c):
    return (
        path("M-34 -70 Q0 -112 34 -70 Q26 -76 17 -70 Q8 -76 0 -70 Q-8 -76 -17 -70 Q-26 -76 -34 -70 Z", "#d62828")
        + path("M0 -90 L0 -46", stroke="#222", stroke_width=2)
        + figure(0, 0, 1.7, c.ink)
    )


def kitchen(rng, c):
    out = e("rect", x=-70, y=-60, width=140, height=60, fill="#e0dccf") + e(
        "rect", x=-70, y=-64, width=140, height=6, fill="#7a5230"
    )
    out += e("rect", x=-40, y=-40, width=50, height=30, rx=4, fill="#444") + e(
        "rect", x=30, y=-40, width=30, height=34, fill="#c9c2b0"
    )
    out += e("ellipse", cx=-20, cy=-70, rx=22, ry=6, fill="#6b6b6b") + e(
        "rect", x=-40, y=-92, width=40, height=24, rx=4, fill="#8d8d8d"
    )
    for i in range(3):
        out += path(f"M{-28 + i * 9} -96 q-6 -10 0 -20 q6 -10 0 -20", stroke="#fff", stroke_width=2.5, opacity=".7")
    return out + "".join(e("circle", cx=-50 + i * 22, cy=-112, r=7, fill=bright(rng, 45, 50)) for i in range(5))


def train(rng, c):
    colour = hsl(rng.choice([0, 210, 120, 45]), 55, 42)
    out = ""
    for i in range(4):
        x = -100 + i * 52
        out += e("rect", x=x, y=-34, width=48, height=26, rx=4, fill=colour)
        out += "".join(
            e("rect", x=x + 5 + k * 14, y=-29, width=9, height=8, fill="#ffe27a" if c.dark else "#cfe3f5")
            for k in range(3)
        )
        out += e("circle", cx=x + 10, cy=-6, r=5, fill="#222") + e("circle", cx=x + 38, cy=-6, r=5, fill="#222")
    return out + path("M-110 0 L110 0", stroke="#333", stroke_width=3)


def spices(rng, c):
    out = e("rect", x=-90, y=-70, width=180, height=14, fill="#b23a48") + path(
        "M-90 -56 L-80 -44 L-70 -56 L-60 -44 L-50 -56 L-40 -44 L-30 -56 L-20 -44 L-10 -56 L0 -44 L10 -56 L20 -44 L30 -56 L40 -44 L50 -56 L60 -44 L70 -56 L80 -44 L90 -56 Z",
        "#f1e3c6",
    )
    for i in range(6):
        x = -78 + i * 31
        out += path(f"M{x - 13} 0 Q{x} -34 {x + 13} 0 Z", hsl([12, 35, 50, 0, 28, 90][i], 80, 45))
    return (
        out
        + e("rect", x=-90, y=-70, width=4, height=70, fill="#5d4037")
        + e("rect", x=86, y=-70, width=4, height=70, fill="#5d4037")
    )


def carousel(rng, c):
    out = path("M-70 -80 L0 -118 L70 -80 Z", hsl(350, 55, 50)) + e(
        "rect", x=-72, y=-82, width=144, height=8, fill="#e9c46a"
    )
    for i in range(5):
        x = -56 + i * 28
        out += path(f"M{x} -74 L{x} -10", stroke="#b08d57", stroke_width=2.5)
        out += e("ellipse", cx=x, cy=-30 - 8 * (i % 2), rx=9, ry=6, fill="#f5f5f0")
    return (
        out
        + e("ellipse", cx=0, cy=-4, rx=76, ry=8, fill="#8d6e63")
        + path("M-40 -100 l-8 10 M30 -96 l6 12", stroke="#6d4c41", stroke_width=2)
    )


def pool(rng, c):
    out = path("M-110 0 L-80 -60 L80 -60 L110 0 Z", "#dfe6e9")
    out += path("M-96 -6 L-72 -54 L72 -54 L96 -6 Z", "#b8d9e6")
    out += "".join(
        path(f"M{-72 - 24 * t} {-54 + 48 * t} L{72 + 24 * t} {-54 + 48 * t}", stroke="#9cc3d5", stroke_width=1)
        for t in (0.25, 0.5, 0.75)
    )
    out += path("M60 -60 L60 -80 Q60 -88 68 -88 M74 -60 L74 -80 Q74 -88 82 -88", stroke="#c0c0c0", stroke_width=3)
    return out + e("ellipse", cx=10, cy=-12, rx=10, ry=3, fill="#6c7a89", opacity=".4")


def window_sill(rng, c):
    sky = hsl(200 + c.hue, 50, 25 if c.dark else 72)
    return (
        e("rect", x=-70, y=-130, width=140, height=120, fill=sky)
        + path("M0 -130 L0 -10 M-70 -70 L70 -70", stroke="#f0ede4", stroke_width=6)
        + e("rect", x=-76, y=-136, width=152, height=126, fill="none", stroke="#f0ede4", stroke_width=8)
        + e("rect", x=-86, y=-10, width=172, height=10, fill="#e5dfd0")
    )


def neon(rng, c):
    glow = hsl(rng.choice([320, 190, 350, 100]), 100, 60)
    return (
        e("rect", x=-80, y=-130, width=160, height=70, rx=14, fill="#1b1b2f", stroke=glow, stroke_width=4)
        + path(
            "M-60 -112 L-40 -112 M-60 -96 L-40 -96 M-60 -80 L-40 -80 M-60 -112 L-60 -80 M-28 -80 L-14 -112 L0 -80 M-22 -94 L-6 -94 M12 -112 L40 -112 M26 -112 L26 -80",
            stroke=glow,
            stroke_width=5,
            stroke_linecap="round",
        )
        + e("rect", x=-90, y=-50, width=180, height=50, fill="#3d3d4f")
        + "".join(e("rect", x=-80 + i * 40, y=-44, width=30, height=24, fill="#ffd27a") for i in range(4))
    )


def bicycle(rng, c):
    wheel = lambda x: e("circle", cx=x, cy=-24, r=22, fill="none", stroke="#7b3f12", stroke_width=3)
    return (
        e("rect", x=-100, y=-110, width=200, height=110, fill=hsl(20, 25, 55))
        + "".join(
            path(f"M-100 {-110 + r * 14} L100 {-110 + r * 14}", stroke=hsl(20, 20, 45), stroke_width=1)
            for r in range(8)
        )
        + wheel(-36)
        + wheel(36)
        + path(
            "M-36 -24 L-8 -24 L12 -56 L-20 -56 Z M-8 -24 L-24 -66 M12 -56 L36 -24 M12 -56 L8 -70 L20 -70",
            stroke="#8c3b1a",
            stroke_width=3,
        )
    )


def bookshelves(rng, c):
    out = e("rect", x=-100, y=-150, width=200, height=150, fill="#5b3a1e")
    for shelf in range(4):
        y = -146 + shelf * 36
        x = -96
        while x < 92:
            w = rng.uniform(6, 12)
            out += e(
                "rect",
                x=x,
                y=y + rng.uniform(0, 8),
                width=w,
                height=30,
                fill=hsl(rng.choice([0, 25, 45, 120, 210, 280]), 45, 40),
            )
            x += w + 1
        out += e("rect", x=-100, y=y + 30, width=200, height=6, fill="#3e2714")
    return out


def lamp(rng, c):
    return (
        path("M-30 -60 L30 -60 L18 -100 L-18 -100 Z", "#f3d27a")
        + path("M0 -60 L0 -10", stroke="#333", stroke_width=3)
        + e("ellipse", cx=0, cy=-6, rx=20, ry=5, fill="#333")
        + e("circle", cx=0, cy=-60, r=50, fill="url(#glow)", opacity=".5")
    )


def classroom(rng, c):
    out = e("rect", x=-100, y=-160, width=200, height=70, fill="#2f4f3e", stroke="#8d6e63", stroke_width=5)
    out += path(
        f"M-80 -140 q20 -10 40 0 M-70 -120 l60 0 M20 -130 l{rng.uniform(30, 60):.0f} 0",
        stroke="#e8efe8",
        stroke_width=1.5,
        opacity=".8",
    )
    for row in range(2):
        for col in range(3):
            x, y = -80 + col * 60 + row * 10, -40 + row * 36
            out += e("rect", x=x, y=y, width=44, height=6, fill="#b5835a") + path(
                f"M{x + 4} {y + 6} l0 18 M{x + 40} {y + 6} l0 18", stroke="#555", stroke_width=2
            )
    return out


def tea(rng, c):
    return (
        e("rect", x=-110, y=-20, width=220, height=20, fill="#6d4c41")
        + path("M-60 -20 Q-70 -70 -30 -70 L-10 -70 Q30 -70 20 -20 Z", hsl(30 + c.hue, 35, 70))
        + path("M20 -55 Q44 -60 42 -80", stroke=hsl(30, 35, 60), stroke_width=5)
        + path("M-64 -60 q-16 0 -12 -14", stroke=hsl(30, 35, 60), stroke_width=4)
        + e("rect", x=-34, y=-80, width=18, height=10, rx=3, fill=hsl(30, 35, 60))
        + path("M40 -20 Q42 -40 60 -40 L74 -40 Q92 -40 94 -20 Z", "#e8e0c8")
        + path("M60 -48 q-6 -10 0 -20 M72 -48 q6 -10 0 -20", stroke="#fff", stroke_width=2, opacity=".7")
    )


def graffiti(rng, c):
    out = e("rect", x=-130, y=-140, width=260, height=140, fill="#b9a99a")
    out += "".join(
        path(f"M-130 {-140 + r * 17} L130 {-140 + r * 17}", stroke="#a39383", stroke_width=1) for r in range(9)
    )
    for _ in range(6):
        x, y = rng.uniform(-110, 90), rng.uniform(-120, -30)
        out += path(
            f"M{x} {y} q{rng.uniform(10, 30):.0f} {rng.uniform(-40, -10):.0f} {rng.uniform(30, 60):.0f} 0 t{rng.uniform(20, 50):.0f} 0",
            stroke=bright(rng, 90, 55),
            stroke_width=rng.uniform(6, 12),
            stroke_linecap="round",
        )
    return out + e("circle", cx=rng.uniform(-60, 60), cy=-80, r=22, fill=bright(rng, 90, 60), opacity=".85")


def typewriter(rng, c):
    keys = "".join(
        e("circle", cx=-54 + k * 12 + (r % 2) * 6, cy=-22 + r * 8, r=3.5, fill="#ddd")
        for r in range(3)
        for k in range(9)
    )
    return (
        e("rect", x=-120, y=0, width=240, height=8, fill="#6d4c41")
        + path("M-70 0 L-60 -50 L60 -50 L70 0 Z", "#263238")
        + keys
        + e("rect", x=-80, y=-62, width=160, height=12, rx=6, fill="#37474f")
        + path("M-40 -62 L-36 -120 L36 -120 L40 -62 Z", "#fbf8ef")
        + "".join(
            path(f"M-28 {-110 + i * 9} L{rng.uniform(0, 28):.0f} {-110 + i * 9}", stroke="#555", stroke_width=1.2)
            for i in range(5)
        )
    )


def kites(rng, c):
    out = ""
    for _ in range(4):
        x, y, s = rng.uniform(-100, 100), rng.uniform(-160, -70), rng.uniform(0.7, 1.2)
        col = bright(rng, 85, 55)
        out += path(f"M{x} {y - 22 * s} L{x + 14 * s} {y} L{x} {y + 26 * s} L{x - 14 * s} {y} Z", col)
        out += path(f"M{x} {y + 26 * s} q10 20 -4 40 q-12 20 6 40 L0 0", stroke="#444", stroke_width=1)
    return out + figure(0, 0, 1.6, c.ink, "l8 -14")


def cabin(rng, c):
    logs = "".join(path(f"M-54 {-6 - i * 9} L54 {-6 - i * 9}", stroke="#4e2f16", stroke_width=2) for i in range(6))
    return (
        e("rect", x=-54, y=-56, width=108, height=56, fill="#7a4b25")
        + logs
        + path("M-66 -56 L0 -100 L66 -56 Z", "#f2f6fb")
        + e("rect", x=-14, y=-40, width=26, height=22, fill="#ffc857")
        + e("rect", x=26, y=-100, width=12, height=30, fill="#5d4037")
        + "".join(
            e("circle", cx=34 + i * 7, cy=-112 - i * 14, r=6 + i * 2, fill="#cfd8dc", opacity=".6") for i in range(4)
        )
    )


def departure_board(rng, c):
    out = e("rect", x=-110, y=-150, width=220, height=110, fill="#111")
    for r in range(7):
        out += "".join(
            e("rect", x=-102 + k * 10, y=-142 + r * 14, width=8, height=10, fill="#2b2b2b") for k in range(20)
        )
        out += e("rect", x=-102, y=-142 + r * 14, width=rng.uniform(60, 150), height=10, fill="#f5c518", opacity=".85")
    return (
        out
        + path("M-110 -40 L-110 0 M110 -40 L110 0", stroke="#444", stroke_width=6)
        + figure(-40, 0, 1.8, c.ink)
        + figure(30, 0, 1.5, c.ink)
    )


def tractor(rng, c):
    colour = rng.choice(["#c0392b", "#2e7d32", "#1565c0"])
    return (
        e("rect", x=-40, y=-50, width=60, height=26, fill=colour)
        + e("rect", x=0, y=-80, width=30, height=32, fill=colour)
        + e("rect", x=4, y=-76, width=22, height=16, fill="#cfe3f5")
        + e("rect", x=-30, y=-66, width=6, height=18, fill="#333")
        + e("circle", cx=16, cy=-22, r=22, fill="#222")
        + e("circle", cx=16, cy=-22, r=8, fill="#f1c40f")
        + e("circle", cx=-30, cy=-12, r=12, fill="#222")
        + e("circle", cx=-30, cy=-12, r=4, fill="#f1c40f")
    )


def chess(rng, c):
    out = path("M-90 0 L-60 -50 L60 -50 L90 0 Z", "#f0e0c0")
    for r in range(4):
        for k in range(8):
            if (r + k) % 2:
                t0, t1 = r / 4, (r + 1) / 4
                xa, xb = -60 - 30 * t0, -60 - 30 * t1
                wa, wb = 120 + 60 * t0, 120 + 60 * t1
                out += path(
                    f"M{xa + wa * k / 8:.1f} {-50 + 50 * t0:.1f} L{xa + wa * (k + 1) / 8:.1f} {-50 + 50 * t0:.1f} "
                    f"L{xb + wb * (k + 1) / 8:.1f} {-50 + 50 * t1:.1f} L{xb + wb * k / 8:.1f} {-50 + 50 * t1:.1f} Z",
                    "#6d4c41",
                )
    for i in range(5):
        x, y = rng.uniform(-60, 60), rng.uniform(-44, -10)
        col = "#111" if i % 2 else "#fafafa"
        out += path(
            f"M{x - 5} {y} L{x + 5} {y} L{x + 3} {y - 12} L{x - 3} {y - 12} Z", col, stroke="#555", stroke_width=0.5
        ) + e("circle", cx=x, cy=y - 15, r=4, fill=col, stroke="#555", stroke_width=0.5)
    return out + figure(-110, 0, 2.2, c.ink, "l20 8") + figure(110, 0, 2.2, c.ink, "l-20 8")


def mirror(rng, c):
    out = e("rect", x=-60, y=-150, width=120, height=150, fill="#cfd8dc", stroke="#8d6e63", stroke_width=8)
    for _ in range(7):
        a = rng.uniform(0, math.tau)
        out += path(
            f"M{rng.uniform(-10, 10):.0f} -80 L{55 * math.cos(a):.0f} {-80 + 70 * math.sin(a):.0f}",
            stroke="#37474f",
            stroke_width=1.5,
        )
    out += path("M-40 -140 L-10 -140 L-50 -60 Z", "#ffffff", opacity=".5")
    return out + "".join(path(f"M{x} {-4} l8 -4 l4 6 Z", "#b0bec5") for x in (-80, 70, 90))


def hammock(rng, c):
    palm = lambda x, lean: (
        path(f"M{x} 0 Q{x + lean / 2} -70 {x + lean} -130", stroke="#7b5a3a", stroke_width=7)
        + "".join(
            path(
                f"M{x + lean} -130 q{dx} {dy} {dx * 2} {dy + 30}",
                stroke="#2e7d32",
                stroke_width=6,
                stroke_linecap="round",
            )
            for dx, dy in ((-30, -20), (30, -20), (-20, 0), (22, 4), (0, -30))
        )
    )
    return (
        palm(-80, 20)
        + palm(80, -20)
        + path("M-64 -60 Q0 -20 64 -60", stroke="#e76f51", stroke_width=9)
        + path("M-64 -60 Q0 -32 64 -60", stroke="#f4a261", stroke_width=3)
    )


def flames(rng, c):
    out = ""
    for i in range(5):
        x, h = -60 + i * 30 + rng.uniform(-6, 6), rng.uniform(50, 110)
        out += path(
            f"M{x - 18} 0 Q{x - 20} {-h / 2:.0f} {x} {-h:.0f} Q{x + 20} {-h / 2:.0f} {x + 18} 0 Z",
            "#ff6b1a",
            opacity=".9",
        )
        out += path(f"M{x - 9} 0 Q{x - 10} {-h / 4:.0f} {x} {-h / 2:.0f} Q{x + 10} {-h / 4:.0f} {x + 9} 0 Z", "#ffd23f")
    return e("circle", cx=0, cy=-50, r=90, fill="url(#glow)", opacity=".5") + out


def fire_truck(rng, c):
    return (
        e("rect", x=-70, y=-44, width=100, height=32, fill="#c0392b")
        + e("rect", x=30, y=-40, width=36, height=28, fill="#c0392b")
        + e("rect", x=36, y=-36, width=22, height=12, fill="#cfe3f5")
        + path("M-60 -50 L40 -80", stroke="#ddd", stroke_width=4)
        + e("circle", cx=-44, cy=-10, r=10, fill="#222")
        + e("circle", cx=44, cy=-10, r=10, fill="#222")
        + path("M50 -56 Q90 -90 120 -80", stroke="#9fd3ff", stroke_width=4, opacity=".8")
        + figure(-90, 0, 1.5, c.ink, "l20 -8")
    )


def bread(rng, c):
    return (
        e("rect", x=-120, y=-20, width=240, height=20, fill="#c8a27a")
        + e("ellipse", cx=0, cy=-34, rx=60, ry=22, fill="#efd9b4")
        + e("circle", cx=-30, cy=-10, r=70, fill="#ffffff", opacity=".08")
        + path(
            "M-110 -20 Q-80 -50 -44 -42 L-34 -30 Q-70 -26 -110 -6 Z M110 -20 Q80 -50 44 -42 L34 -30 Q70 -26 110 -6 Z",
            "#e0a98a",
        )
        + "".join(
            e("circle", cx=rng.uniform(-100, 100), cy=rng.uniform(-18, -4), r=1.5, fill="#fff") for _ in range(30)
        )
    )


def birthday_cake(rng, c):
    out = e("rect", x=-70, y=-50, width=140, height=50, rx=6, fill="#f8c8dc") + path(
        "M-70 -40 q17 14 35 0 t35 0 t35 0 t35 0", stroke="#fff", stroke_width=5
    )
    for i in range(6):
        x = -50 + i * 20
        out += e("rect", x=x - 2.5, y=-78, width=5, height=28, fill=bright(rng, 70, 65)) + path(
            f"M{x} -92 q5 7 0 12 q-5 -5 0 -12 Z", "#ffb703"
        )
        out += e("circle", cx=x, cy=-86, r=12, fill="url(#glow)", opacity=".7")
    return out + e("ellipse", cx=0, cy=2, rx=84, ry=6, fill="#eee")


def shipwreck(rng, c):
    return (
        path("M-100 0 L-80 -50 L70 -30 L90 0 Z", "#5b3a1e", transform="rotate(-12)")
        + path("M-40 -60 L-50 -150 M20 -50 L30 -120", stroke="#4e342e", stroke_width=5)
        + "".join(path(f"M{-70 + i * 20} -36 l2 30", stroke="#3e2714", stroke_width=3) for i in range(7))
        + path("M-50 -150 L-10 -110", stroke="#4e342e", stroke_width=2)
        + e("rect", x=-20, y=-18, width=40, height=6, fill="#b7410e", opacity=".7")
    )


def letter(rng, c):
    out = e("rect", x=-80, y=-120, width=160, height=110, fill="#f3ead3", transform=f"rotate({rng.uniform(-8, 8):.0f})")
    out += "".join(
        path(f"M-64 {-100 + i * 12} L{rng.uniform(30, 64):.0f} {-100 + i * 12}", stroke="#3b4a6b", stroke_width=1.4)
        for i in range(7)
    )
    out += e("rect", x=40, y=-30, width=90, height=56, fill="#e4d4b0", transform="rotate(14)") + path(
        "M40 -30 L85 5 L130 -30", stroke="#b59f73", stroke_width=2, transform="rotate(14)"
    )
    return out + e("rect", x=104, y=-20, width=16, height=20, fill="#8e2c2c", transform="rotate(14)")


def soldier_helmet(rng, c):
    return path("M-30 0 Q-30 -40 0 -40 Q30 -40 30 0 Z", "#4b5320") + e(
        "rect", x=-38, y=-4, width=76, height=6, rx=3, fill="#3a4119"
    )


def coffee_cup(rng, c):
    return (
        e("ellipse", cx=0, cy=-2, rx=60, ry=10, fill="#e8e0d0")
        + path("M-40 -70 L40 -70 L32 -10 Q0 0 -32 -10 Z", hsl(15 + c.hue, 40, 50))
        + e("ellipse", cx=0, cy=-70, rx=40, ry=8, fill="#4a2c17")
        + path("M40 -60 q28 0 22 22 q-4 14 -26 12", stroke=hsl(15 + c.hue, 40, 45), stroke_width=6)
        + "".join(
            path(
                f"M{x} -84 q-10 -16 0 -30 q10 -16 0 -32",
                stroke="#ffffff",
                stroke_width=4,
                opacity=".6",
                stroke_linecap="round",
            )
            for x in (-14, 4, 20)
        )
    )


def bench(rng, c):
    return (
        e("rect", x=-60, y=-34, width=120, height=6, fill="#5b3a1e")
        + e("rect", x=-60, y=-60, width=120, height=5, fill="#5b3a1e")
        + e("rect", x=-60, y=-50, width=120, height=5, fill="#5b3a1e")
        + path("M-50 -28 L-54 0 M50 -28 L54 0 M-50 -60 L-50 -28 M50 -60 L50 -28", stroke="#222", stroke_width=4)
        + e("rect", x=-62, y=-40, width=124, height=6, fill="#fbfdff")
        + e("rect", x=-62, y=-64, width=124, height=4, fill="#fbfdff")
    )


def fridge(rng, c):
    out = e("rect", x=-60, y=-200, width=120, height=200, rx=8, fill="#f0f0ee", stroke="#bbb") + path(
        "M-60 -130 L60 -130", stroke="#bbb", stroke_width=2
    )
    out += e("rect", x=46, y=-190, width=5, height=40, rx=2, fill="#999") + e(
        "rect", x=46, y=-120, width=5, height=50, rx=2, fill="#999"
    )
    for i in range(5):
        x, y = -50 + (i % 3) * 32, -190 + (i // 3) * 90 + rng.uniform(0, 20)
        out += e(
            "rect",
            x=x,
            y=y,
            width=28,
            height=34,
            fill="#fffdf5",
            transform=f"rotate({rng.uniform(-8, 8):.0f} {x + 14:.0f} {y:.0f})",
        )
        out += path(f"M{x + 4} {y + 24} q6 -14 12 0 t8 -6", stroke=bright(rng, 80, 50), stroke_width=2.5) + e(
            "circle", cx=x + 20, cy=y + 10, r=4, fill=bright(rng, 80, 55)
        )
    return out


def racing_cars(rng, c):
    out = ""
    for i, col in enumerate((bright(rng, 80, 45), bright(rng, 80, 45))):
        x, y = -70 + i * 80, -i * 18
        out += (
            path(
                f"M{x - 40} {y} L{x - 36} {y - 14} L{x - 10} {y - 18} L{x + 6} {y - 28} L{x + 24} {y - 28} L{x + 40} {y - 14} L{x + 44} {y} Z",
                col,
            )
            + e("circle", cx=x - 22, cy=y, r=8, fill="#111")
            + e("circle", cx=x + 28, cy=y, r=8, fill="#111")
            + path(f"M{x - 44} {y - 4} q-30 -10 -60 4", stroke="#dfe6ee", stroke_width=8, opacity=".5")
        )
    return out


def stone_bridge(rng, c):
    out = path("M-130 0 L-130 -70 L130 -70 L130 0 L70 0 Q70 -50 0 -50 Q-70 -50 -70 0 Z", "#8d8a7e")
    out += "".join(
        e("rect", x=-130 + k * 20 + (r % 2) * 10, y=-70 + r * 10, width=18, height=8, fill="#7d7a6e")
        for r in range(2)
        for k in range(13)
    )
    return out + "".join(
        e(
            "circle",
            cx=rng.uniform(-120, 120),
            cy=rng.uniform(-74, -40),
            r=rng.uniform(4, 9),
            fill="#5a8f3a",
            opacity=".8",
        )
        for _ in range(10)
    )


def parasols(rng, c):
    out = ""
    for _ in range(6):
        x, y = rng.uniform(-120, 120), rng.uniform(-50, 0)
        col = bright(rng, 80, 55)
        out += path(f"M{x} {y} L{x} {y - 40}", stroke="#555", stroke_width=2) + path(
            f"M{x - 24} {y - 36} Q{x} {y - 58} {x + 24} {y - 36} Z", col
        )
        out += e("rect", x=x - 14, y=y - 4, width=22, height=6, fill=bright(rng, 60, 70))
    return out


def poster(rng, c):
    col = bright(rng, 60, 40)
    return (
        e("rect", x=-140, y=-200, width=280, height=210, fill="#8a8378")
        + e("rect", x=-70, y=-180, width=140, height=180, fill=col)
        + e("circle", cx=0, cy=-120, r=34, fill="#f0d9a8")
        + path("M-56 -40 L56 -40 M-46 -26 L46 -26", stroke="#f6f0e0", stroke_width=6)
        + path("M20 -180 L70 -180 L70 -70 Q50 -110 30 -120 Q40 -150 20 -180 Z", "#8a8378")
        + path("M-70 -20 L-30 0 L-70 0 Z", "#8a8378")
    )


def flower_shop(rng, c):
    out = e("rect", x=-110, y=-160, width=220, height=160, fill=hsl(150 + c.hue, 30, 35)) + e(
        "rect", x=-96, y=-140, width=192, height=110, fill="#dfeff0", opacity=".7"
    )
    out += path("M-110 -160 L110 -160 L120 -180 L-120 -180 Z", "#f1e3c6")
    for i in range(7):
        x = -84 + i * 28
        out += e("rect", x=x - 9, y=-50, width=18, height=20, fill="#b5653a")
        out += "".join(
            e(
                "circle",
                cx=x + rng.uniform(-10, 10),
                cy=-56 - rng.uniform(0, 30),
                r=rng.uniform(4, 7),
                fill=bright(rng, 80, 62),
            )
            for _ in range(5)
        )
    return out


def pocket_watch(rng, c):
    t = rng.uniform(0, math.tau)
    return (
        path("M0 -150 Q-40 -190 -80 -160", stroke="#d4a017", stroke_width=3)
        + e("circle", cx=0, cy=-80, r=56, fill="#d4a017")
        + e("circle", cx=0, cy=-80, r=46, fill="#fbf6e6")
        + "".join(
            e(
                "circle",
                cx=40 * math.cos(k * math.tau / 12),
                cy=-80 + 40 * math.sin(k * math.tau / 12),
                r=2,
                fill="#333",
            )
            for k in range(12)
        )
        + path(
            f"M0 -80 L{30 * math.cos(t):.1f} {-80 + 30 * math.sin(t):.1f} M0 -80 L0 -106",
            stroke="#222",
            stroke_width=2.5,
        )
        + e("rect", x=-6, y=-148, width=12, height=12, fill="#d4a017")
    )


def bonfire(rng, c):
    return (
        path("M-40 0 L40 -14 M-40 -14 L40 0", stroke="#4e2f16", stroke_width=8, stroke_linecap="round")
        + flames(rng, c).replace("-60 +", "")
        + figure(-90, 0, 1.6, "#1a1a1a")
        + figure(90, 0, 1.5, "#1a1a1a")
    )


def viaduct(rng, c):
    out = path("M-140 -60 L140 -60 L140 0 L-140 0 Z", "#a1887f")
    out += "".join(
        path(f"M{x} 0 L{x} -30 Q{x + 17} -50 {x + 34} -30 L{x + 34} 0 Z", "#5d7a4a") for x in range(-132, 130, 44)
    )
    cars = "".join(e("rect", x=-100 + i * 42, y=-84, width=38, height=22, rx=3, fill="#2c3e50") for i in range(4))
    return (
        out
        + cars
        + e("rect", x=68, y=-96, width=10, height=14, fill="#2c3e50")
        + "".join(
            e("circle", cx=76 - i * 10, cy=-106 - i * 10, r=8 + i * 3, fill="#eceff1", opacity=".7") for i in range(4)
        )
    )


def ballet_shoes(rng, c):
    shoe = lambda x, r: (
        e("ellipse", cx=x, cy=-20, rx=18, ry=44, fill="#f4b6c2", transform=f"rotate({r} {x} -20)")
        + e("ellipse", cx=x, cy=-30, rx=10, ry=22, fill="#e79aaa", transform=f"rotate({r} {x} -20)")
    )
    return (
        e("rect", x=-140, y=-200, width=280, height=210, fill="#c9a27e")
        + "".join(path(f"M-140 {-200 + i * 30} L140 {-200 + i * 30}", stroke="#b58c66") for i in range(7))
        + shoe(-26, -14)
        + shoe(26, 12)
        + path("M-30 -50 Q-70 -120 -20 -150 M30 -50 Q80 -110 40 -160", stroke="#f4b6c2", stroke_width=3)
    )


def flood(rng, c):
    out = e("rect", x=-140, y=-30, width=280, height=40, fill=hsl(200, 25, 40), opacity=".85")
    out += "".join(
        e(
            "rect",
            x=x,
            y=-28,
            width=10,
            height=rng.uniform(20, 40),
            fill="#ffd866" if c.dark else "#cfe3f5",
            opacity=".35",
        )
        for x in range(-120, 130, 26)
    )
    return (
        out
        + path("M-40 -30 L-40 -60 L40 -60 L40 -30", stroke=c.ink, stroke_width=2)
        + e("rect", x=-36, y=-48, width=72, height=18, rx=4, fill="#b03a2e")
        + figure(80, -20, 1.4, c.ink)
    )


def boxing_gloves(rng, c):
    glove = lambda x, col: (
        e("ellipse", cx=x, cy=-80, rx=30, ry=36, fill=col)
        + e("rect", x=x - 20, y=-50, width=40, height=30, rx=6, fill="#f5f5f5")
        + e("ellipse", cx=x - 22, cy=-74, rx=12, ry=16, fill=col)
        + path(f"M{x} -20 Q{x + 10} -140 60 -180", stroke="#eee", stroke_width=2)
    )
    return glove(-36, "#b71c1c") + glove(40, "#c62828")


def vintage_car(rng, c):
    col = rng.choice(["#2a9d8f", "#e76f51", "#264653", "#e9c46a"])
    return (
        path("M-80 -10 Q-80 -34 -56 -36 L-36 -36 Q-24 -64 10 -64 Q40 -64 50 -38 L74 -34 Q90 -30 88 -10 Z", col)
        + path("M-26 -38 Q-18 -58 6 -58 L6 -38 Z M12 -58 Q36 -58 42 -38 L12 -38 Z", "#cfe3f5")
        + e("circle", cx=-48, cy=-8, r=14, fill="#222")
        + e("circle", cx=56, cy=-8, r=14, fill="#222")
        + e("circle", cx=-48, cy=-8, r=6, fill="#ddd")
        + e("circle", cx=56, cy=-8, r=6, fill="#ddd")
        + e("rect", x=82, y=-26, width=8, height=6, fill="#fff6c8")
    )


def paper_boats(rng, c):
    out = e("ellipse", cx=0, cy=-10, rx=120, ry=22, fill=hsl(205, 35, 45), opacity=".85") + e(
        "ellipse", cx=-30, cy=-14, rx=40, ry=5, fill="#ffffff", opacity=".3"
    )
    for i in range(3):
        x, s = -60 + i * 50 + rng.uniform(-8, 8), rng.uniform(0.7, 1.1)
        out += path(
            f"M{x - 20 * s} {-14} L{x + 20 * s} {-14} L{x + 12 * s} {-4} L{x - 12 * s} {-4} Z M{x - 6 * s} {-14} L{x + 2 * s} {-38 * s - 14} L{x + 12 * s} {-14} Z",
            "#fbfbf5",
            stroke="#bbb",
            stroke_width=0.6,
        )
    return out + "".join(
        e(
            "circle",
            cx=rng.uniform(-100, 100),
            cy=rng.uniform(-20, 0),
            r=rng.uniform(3, 10),
            fill="none",
            stroke="#cfe3f5",
            stroke_width=0.8,
        )
        for _ in range(5)
    )


def harbour_boats(rng, c):
    out = path("M-140 -6 L140 -6 L140 4 L-140 4 Z", "#6d4c41")
    for i in range(4):
        x = -100 + i * 62 + rng.uniform(-6, 6)
        col = bright(rng, 60, 50)
        out += path(f"M{x - 24} -20 L{x + 24} -20 L{x + 16} -8 L{x - 16} -8 Z", col) + path(
            f"M{x} -20 L{x} -80", stroke="#5d4037", stroke_width=2
        )
        out += path(f"M{x} -78 L{x + 20} -28 L{x} -28 Z", "#f7f3ea", opacity=".9") if i % 2 else ""
    return out


def terraces(rng, c):
    out = ""
    for i in range(8):
        y = -10 - i * 22
        # Each paddy a flooded step: green rice, a band of water catching the sky, a dark wall.
        out += path(
            f"M-140 {y} Q-60 {y - 14} 0 {y - 4} Q70 {y + 8} 140 {y - 10} L140 {y + 22} L-140 {y + 22} Z",
            hsl(95 + i * 4 + c.hue / 2, 60, 34 + (i % 2) * 12),
        )
        out += path(
            f"M-140 {y + 3} Q-60 {y - 11} 0 {y - 1} Q70 {y + 11} 140 {y - 7}",
            stroke="#a9d8ea",
            stroke_width=3.5,
            opacity=".9",
        )
        out += path(
            f"M-140 {y + 18} Q-60 {y + 4} 0 {y + 14} Q70 {y + 26} 140 {y + 8}", stroke=hsl(90, 40, 20), stroke_width=2
        )
    return out


def circus_tent(rng, c):
    out = ""
    for i in range(8):
        x0, x1 = -100 + i * 25, -100 + (i + 1) * 25
        out += path(f"M0 -150 L{x0} -60 L{x1} -60 Z", "#d62828" if i % 2 else "#f8f1e5")
        out += e("rect", x=x0, y=-60, width=25, height=60, fill="#f8f1e5" if i % 2 else "#d62828")
    return (
        out
        + path("M0 -150 L0 -174", stroke="#333", stroke_width=2)
        + path("M0 -174 l18 6 l-18 6 Z", "#ffb703")
        + path("M-16 0 Q0 -40 16 0 Z", "#3a1c1c")
    )


def boots(rng, c):
    boot = lambda x, flip: (
        path(
            f"M{x} -90 L{x + 30 * flip} -90 L{x + 32 * flip} -30 L{x + 70 * flip} -20 L{x + 72 * flip} 0 L{x} 0 Z",
            "#6d4c2f",
        )
        + path(
            f"M{x + 4 * flip} -80 L{x + 26 * flip} -76 M{x + 4 * flip} -66 L{x + 26 * flip} -62 M{x + 4 * flip} -52 L{x + 26 * flip} -48",
            stroke="#e0c9a6",
            stroke_width=2,
        )
        + e("rect", x=min(x, x + 72 * flip), y=-6, width=72, height=6, fill="#2b2b2b")
    )
    return boot(-80, 1) + boot(80, -1)


def ice_cream(rng, c):
    return (
        path("M-24 -80 L0 0 L24 -80 Z", "#d9a066")
        + path("M-20 -70 L10 -40 M-10 -80 L16 -56 M20 -70 L-8 -40", stroke="#b07d45", stroke_width=1.5)
        + e("circle", cx=0, cy=-96, r=26, fill=rng.choice(["#f7c6d9", "#fff1c1", "#c9f0d6"]))
        + e("circle", cx=-8, cy=-124, r=18, fill="#7b4a2e")
        + path(
            "M-18 -84 Q-22 -50 -16 -40 Q-12 -50 -10 -80 M16 -82 Q22 -60 18 -56",
            stroke="#f7c6d9",
            stroke_width=5,
            stroke_linecap="round",
        )
        + e("ellipse", cx=10, cy=4, rx=30, ry=6, fill="#f7c6d9", opacity=".8")
    )


def laundry(rng, c):
    out = path("M-140 -140 Q0 -110 140 -140", stroke="#555", stroke_width=1.5)
    for i in range(6):
        x = -110 + i * 42
        y = -140 + 30 * (1 - (x / 140) ** 2)
        col = bright(rng, 70, 60)
        out += (
            path(
                f"M{x - 14} {y:.0f} L{x + 14} {y:.0f} L{x + 18} {y + 10:.0f} L{x + 10} {y + 12:.0f} L{x + 10} {y + 46:.0f} L{x - 10} {y + 46:.0f} L{x - 10} {y + 12:.0f} L{x - 18} {y + 10:.0f} Z",
                col,
                transform=f"rotate({rng.uniform(-10, 10):.0f} {x} {y:.0f})",
            )
            if i % 2
            else e("rect", x=x - 14, y=y, width=28, height=44, fill=col)
        )
    return out


def piano(rng, c):
    out = e("rect", x=-140, y=-70, width=280, height=80, fill="#fafafa")
    out += "".join(path(f"M{x} -70 L{x} 10", stroke="#999") for x in range(-140, 141, 20))
    out += "".join(
        e("rect", x=x - 6, y=-70, width=12, height=48, fill="#111")
        for x in range(-120, 140, 20)
        if (x // 20) % 7 not in (2, 6)
    )
    hand = lambda x: (
        e("ellipse", cx=x, cy=-74, rx=30, ry=14, fill="#e0ac8a")
        + "".join(
            path(f"M{x - 20 + k * 10} -70 l{k - 1} 22", stroke="#e0ac8a", stroke_width=7, stroke_linecap="round")
            for k in range(4)
        )
    )
    return e("rect", x=-140, y=-100, width=280, height=30, fill="#1b1b1b") + out + hand(-50) + hand(60)


def frisbee(rng, c):
    return (
        e("ellipse", cx=40, cy=-120, rx=16, ry=5, fill="#e63946")
        + f'<g fill="{c.ink}">'
        + e("ellipse", cx=0, cy=-80, rx=30, ry=12, transform="rotate(-25 0 -80)")
        + e("circle", cx=28, cy=-104, r=11)
        + path("M24 -112 l-2 -12 l8 8 Z")
        + "</g>"
        + path(
            "M-22 -70 L-40 -50 M-16 -66 L-24 -44 M18 -92 L30 -80 M10 -86 L24 -72 M-28 -76 Q-50 -90 -60 -84",
            stroke=c.ink,
            stroke_width=5,
            stroke_linecap="round",
        )
    )


def photo_album(rng, c):
    out = (
        e("rect", x=-120, y=-170, width=240, height=170, fill="#5d4037")
        + e("rect", x=-112, y=-162, width=110, height=154, fill="#efe6d2")
        + e("rect", x=2, y=-162, width=110, height=154, fill="#efe6d2")
    )
    for k in range(4):
        x, y = -104 + (k % 2) * 114 + rng.uniform(0, 10), -152 + (k // 2) * 72
        out += e(
            "rect",
            x=x,
            y=y,
            width=86,
            height=60,
            fill="#fdfbf4",
            transform=f"rotate({rng.uniform(-6, 6):.0f} {x:.0f} {y:.0f})",
        )
        out += e(
            "rect",
            x=x + 5,
            y=y + 5,
            width=76,
            height=50,
            fill=hsl(30, 25, rng.uniform(45, 65)),
            transform=f"rotate({rng.uniform(-6, 6):.0f} {x:.0f} {y:.0f})",
        )
    return out


def sand_castle(rng, c):
    sand = "#e2c290"
    return (
        e("rect", x=-50, y=-50, width=100, height=50, fill=sand)
        + e("rect", x=-60, y=-80, width=30, height=80, fill=sand)
        + e("rect", x=30, y=-80, width=30, height=80, fill=sand)
        + e("rect", x=-16, y=-100, width=32, height=50, fill=sand)
        + "".join(
            e("rect", x=x, y=y, width=8, height=8, fill=sand)
            for x, y in ((-60, -88), (-42, -88), (30, -88), (52, -88), (-16, -108), (8, -108))
        )
        + path("M-8 -20 Q0 -34 8 -20 L8 0 L-8 0 Z", "#a07a4a")
        + path("M0 -100 L0 -124 L14 -118 L0 -112", "#e63946", stroke="#555", stroke_width=1)
        + path("M-140 6 Q-100 -20 -70 4 Q-40 -14 -10 8 L-140 10 Z", "#ffffff", opacity=".85")
    )


def pans(rng, c):
    out = e("rect", x=-130, y=-50, width=260, height=60, fill="#9e9e9e") + e(
        "rect", x=-130, y=-56, width=260, height=8, fill="#bdbdbd"
    )
    for x in (-80, 0, 80):
        out += e("ellipse", cx=x, cy=-60, rx=30, ry=6, fill="#333") + path(
            f"M{x + 30} -60 L{x + 60} -66", stroke="#333", stroke_width=5
        )
        out += path(f"M{x - 16} -62 Q{x} -110 {x + 16} -62 Z", "#ff8c2a", opacity=".8")
    return out + figure(-40, -50, 2.0, c.ink, "l20 -6") + e("rect", x=-50, y=-114, width=20, height=12, fill="#fafafa")


def rooftop(rng, c):
    out = e("rect", x=-140, y=-20, width=280, height=30, fill="#8d8d8d") + path(
        "M-140 -20 L140 -20", stroke="#6d6d6d", stroke_width=4
    )
    for i in range(5):
        x = -110 + i * 54
        out += e("rect", x=x - 18, y=-44, width=36, height=24, fill="#8d5a2b") + "".join(
            e(
                "circle",
                cx=x + rng.uniform(-16, 16),
                cy=-50 - rng.uniform(0, 26),
                r=rng.uniform(7, 13),
                fill=hsl(110 + rng.uniform(-20, 20), 50, 40),
            )
            for _ in range(4)
        )
    return out


def suitcases(rng, c):
    out, y = "", 0
    for i in range(4):
        w, h = rng.uniform(140, 200) - i * 22, rng.uniform(30, 44)
        col = hsl(rng.choice([20, 30, 0, 200]), 45, 30 + i * 7)
        out += e("rect", x=-w / 2 + rng.uniform(-8, 8), y=y - h, width=w, height=h, rx=5, fill=col) + e(
            "rect", x=-12, y=y - h - 6, width=24, height=6, rx=3, fill="#3e2714"
        )
        out += path(
            f"M{-w / 2 + 10:.0f} {y - h / 2:.0f} L{w / 2 - 10:.0f} {y - h / 2:.0f}", stroke="#d4a017", stroke_width=1.5
        )
        y -= h + 6
    return out


def candlelit_dinner(rng, c):
    out = e("rect", x=-120, y=-40, width=240, height=10, fill="#f3ead3") + path(
        "M-120 -30 L-110 10 M120 -30 L110 10", stroke="#5d3a1e", stroke_width=5
    )
    out += e("ellipse", cx=-60, cy=-44, rx=26, ry=6, fill="#fafafa") + e(
        "ellipse", cx=60, cy=-44, rx=26, ry=6, fill="#fafafa"
    )
    for x in (-14, 14):
        out += (
            e("rect", x=x - 3, y=-90, width=6, height=48, fill="#fff8e1")
            + path(f"M{x} -104 q5 7 0 12 q-5 -5 0 -12 Z", "#ffb703")
            + e("circle", cx=x, cy=-98, r=34, fill="url(#glow)", opacity=".55")
        )
    return (
        out
        + path("M-90 -70 l0 26 M90 -70 l0 26", stroke="#b0c4de", stroke_width=3)
        + e("ellipse", cx=-90, cy=-74, rx=8, ry=10, fill="#7b1e3a", opacity=".8")
    )


def wind_turbines(rng, c):
    out = ""
    for i in range(3):
        x, s, a = -80 + i * 80 + rng.uniform(-10, 10), [1.0, 0.7, 0.85][i], rng.uniform(0, 120)
        top = -150 * s
        out += path(
            f"M{x - 3 * s:.1f} 0 L{x - 1.5 * s:.1f} {top:.1f} L{x + 1.5 * s:.1f} {top:.1f} L{x + 3 * s:.1f} 0 Z",
            "#f4f6f8",
        )
        out += "".join(
            path(
                f"M{x:.1f} {top:.1f} l{60 * s * math.cos(math.radians(a + k * 120)):.1f} {60 * s * math.sin(math.radians(a + k * 120)):.1f}",
                stroke="#f4f6f8",
                stroke_width=4 * s,
                stroke_linecap="round",
            )
            for k in range(3)
        )
        out += e("circle", cx=x, cy=top, r=4 * s, fill="#dfe4e8")
    return out


def chalk(rng, c):
    out = e("rect", x=-140, y=-110, width=280, height=120, fill="#8f8f8f") + "".join(
        path(f"M{x} -110 L{x * 1.3:.0f} 10", stroke="#7a7a7a") for x in range(-120, 130, 60)
    )
    out += path("M-100 -40 l30 0 l0 -30 l30 0 l0 30 l30 0", stroke="#ffe066", stroke_width=4) + e(
        "circle", cx=60, cy=-60, r=24, fill="none", stroke="#ff8fab", stroke_width=4
    )
    out += "".join(
        path(
            f"M60 -60 l{36 * math.cos(k * math.pi / 4):.1f} {36 * math.sin(k * math.pi / 4):.1f}",
            stroke="#ffd166",
            stroke_width=3,
        )
        for k in range(8)
    )
    return out + path("M-60 -14 q20 -20 40 0 t40 0", stroke="#72efdd", stroke_width=4) + figure(-110, 0, 1.3, c.ink)


def masks(rng, c):
    mask = lambda x, col, r: (
        f'<g transform="rotate({r} {x} -90)">'
        + path(
            f"M{x - 46} -100 Q{x} -124 {x + 46} -100 Q{x + 40} -60 {x + 10} -64 Q{x} -80 {x - 10} -64 Q{x - 40} -60 {x - 46} -100 Z",
            col,
        )
        + e("ellipse", cx=x - 20, cy=-92, rx=10, ry=6, fill="#111")
        + e("ellipse", cx=x + 20, cy=-92, rx=10, ry=6, fill="#111")
        + path(f"M{x + 40} -110 q30 -30 20 -70", stroke="#ffd166", stroke_width=4)
        + "</g>"
    )
    return mask(-40, "#d4af37", -12) + mask(44, "#7b2cbf", 14)


def headphones(rng, c):
    col = bright(rng, 70, 45)
    tangle = "".join(
        path(
            f"M{rng.uniform(-80, 80):.0f} {rng.uniform(-60, 0):.0f} Q{rng.uniform(-100, 100):.0f} {rng.uniform(-120, 20):.0f} {rng.uniform(-80, 80):.0f} {rng.uniform(-60, 0):.0f}",
            stroke="#f5f5f5",
            stroke_width=2.5,
        )
        for _ in range(7)
    )
    return (
        e("rect", x=-130, y=-140, width=260, height=150, fill="#3e2f25")
        + path("M-50 -80 Q0 -170 50 -80", stroke=col, stroke_width=9)
        + tangle
        + e("ellipse", cx=-52, cy=-74, rx=16, ry=20, fill=col)
        + e("ellipse", cx=52, cy=-74, rx=16, ry=20, fill=col)
    )


def food_cart(rng, c):
    return (
        e("rect", x=-70, y=-60, width=120, height=46, fill="#e9c46a")
        + e("circle", cx=-46, cy=-10, r=10, fill="#333")
        + e("circle", cx=30, cy=-10, r=10, fill="#333")
        + path("M-80 -100 Q-10 -130 60 -100 Z", "#2a9d8f")
        + path("M-10 -100 L-10 -60", stroke="#555", stroke_width=2)
        + e("rect", x=-60, y=-70, width=100, height=10, fill="#555")
        + "".join(
            path(f"M{x} -74 q-8 -12 0 -22 q8 -10 0 -22", stroke="#fff", stroke_width=3, opacity=".6")
            for x in (-40, -20, 0)
        )
        + figure(74, -12, 1.8, c.ink, "l-14 -6")
    )


def ferris_wheel(rng, c):
    out = e("circle", cx=0, cy=-110, r=80, fill="none", stroke="#f4f4f4" if c.dark else "#555", stroke_width=3)
    for k in range(12):
        a = k * math.tau / 12 + rng.uniform(0, 0.3)
        x, y = 80 * math.cos(a), -110 + 80 * math.sin(a)
        out += path(f"M0 -110 L{x:.1f} {y:.1f}", stroke="#ffd166" if c.dark else "#777", stroke_width=1.2) + e(
            "rect", x=x - 6, y=y, width=12, height=10, rx=2, fill=bright(rng, 85, 60)
        )
        if c.dark:
            out += e("circle", cx=x, cy=y, r=6, fill="url(#glow)")
    return out + path("M0 -110 L-40 0 M0 -110 L40 0", stroke="#888", stroke_width=5)


def footprints(rng, c):
    out = ""
    for i in range(12):
        t = i / 11
        x = 40 * math.sin(t * 3) + (8 if i % 2 else -8)
        y = -150 * (1 - t)
        s = 0.3 + 0.7 * t
        out += e("ellipse", cx=x * (0.3 + 0.7 * t), cy=y, rx=5 * s, ry=9 * s, fill="#b6c6d8")
    return out
