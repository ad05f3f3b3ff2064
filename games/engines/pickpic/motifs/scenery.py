"""The motifs behind or around the subject: on the horizon, in the sky, on the floor from the
horizon down, or over the whole frame."""

from __future__ import annotations

import math

from .drawing import bright, e, figure, hsl, path


def lighthouse(rng, c):
    return (
        path("M-10 0 L-6 -96 L6 -96 L10 0 Z", "#f4f4f4")
        + path("M-8.5 -40 L-7.6 -56 L7.6 -56 L8.5 -40 Z", "#c0392b")
        + path("M-8 -78 L-7.2 -90 L7.2 -90 L8 -78 Z", "#c0392b")
        + e("rect", x=-8, y=-108, width=16, height=12, fill="#ffe066")
        + path("M-10 -108 L0 -120 L10 -108 Z", "#333")
        + path("M6 -102 L140 -130 L140 -80 Z", "#fff6b0", opacity=".35" if c.dark else ".2")
    )


def waterfall(rng, c):
    out = path("M-70 0 L-60 -120 L-20 -120 L-20 0 Z", "#8a96a3") + path("M20 0 L20 -120 L70 -120 L80 0 Z", "#8a96a3")
    out += e("rect", x=-20, y=-120, width=40, height=120, fill="#e6f4ff")
    out += "".join(path(f"M{-16 + i * 6} -120 L{-16 + i * 6} -4", stroke="#a7d3f2", stroke_width=1.6) for i in range(6))
    return out + e("ellipse", cx=0, cy=0, rx=50, ry=9, fill="#ffffff")


def milky_way(rng, c):
    out = path("M-140 -20 Q0 -160 140 -110", stroke="#ffffff", stroke_width=26, opacity=".08")
    for _ in range(60):
        t = rng.random()
        x, y = -140 + 280 * t, -20 - 140 * t + 50 * t * t + rng.uniform(-14, 14)
        out += e("circle", cx=x, cy=y, r=rng.uniform(0.5, 1.6), fill="#fff", opacity=f"{rng.uniform(0.5, 1):.2f}")
    return out


def hot_air_balloon(rng, c):
    colour = bright(rng, 75, 55)
    stripes = "".join(
        path(f"M{x} -120 Q{x * 1.4} -80 {x * 0.4} -46", stroke="#ffffff", stroke_width=3, opacity=".7")
        for x in (-18, 0, 18)
    )
    return (
        path("M0 -140 C40 -140 44 -90 10 -46 L-10 -46 C-44 -90 -40 -140 0 -140 Z", colour)
        + stripes
        + path("M-9 -46 L-7 -30 M9 -46 L7 -30", stroke="#5d4037", stroke_width=1.5)
        + e("rect", x=-8, y=-30, width=16, height=12, fill="#8d5524")
    )


def storm_cloud(rng, c):
    out = "".join(
        e("ellipse", cx=x, cy=y, rx=40, ry=22, fill="#2e3440")
        for x, y in ((-60, -120), (-10, -130), (40, -118), (80, -126))
    )
    out += "".join(
        path(f"M{x} -104 l-10 60", stroke="#7b8794", stroke_width=1.2, opacity=".7") for x in range(-90, 100, 12)
    )
    return out


def lightning(rng, c):
    x = rng.uniform(-30, 30)
    return path(
        f"M{x} -150 L{x - 18} -80 L{x + 2} -84 L{x - 16} 0 L{x + 22} -96 L{x + 2} -92 L{x + 16} -150 Z", "#fff7a8"
    ) + e("circle", cx=x, cy=-80, r=60, fill="url(#glow)", opacity=".6")


def construction_crane(rng, c):
    ink = "#f0a020"  # a crane's yellow, seen against any sky
    lattice = "".join(
        path(f"M-4 {-i * 14} L4 {-i * 14 - 14} M4 {-i * 14} L-4 {-i * 14 - 14}", stroke=ink, stroke_width=1)
        for i in range(11)
    )
    return (
        path("M-4 0 L-4 -160 M4 0 L4 -160", stroke=ink, stroke_width=2)
        + lattice
        + path(
            "M-40 -160 L110 -160 M-4 -170 L-40 -160 M4 -170 L110 -160 M80 -160 L80 -110", stroke=ink, stroke_width=2.5
        )
        + e("rect", x=-44, y=-160, width=16, height=12, fill=ink)
        + e("rect", x=72, y=-110, width=16, height=10, fill="#e9a23b")
    )


def volcano(rng, c):
    smoke = "".join(
        e("circle", cx=rng.uniform(-30, 40) + i * 8, cy=-110 - i * 22, r=18 + i * 5, fill="#6b6b6b", opacity=".55")
        for i in range(5)
    )
    return (
        path("M-130 0 L-24 -100 L24 -100 L130 0 Z", "#4a3b35")
        + path("M-24 -100 L-12 -80 L0 -96 L12 -78 L24 -100 Z", "#ff6b1a")
        + path("M-6 -92 Q-14 -50 -30 -10 M8 -90 Q20 -60 34 -30", stroke="#ff8c2a", stroke_width=3)
        + smoke
    )


def barn(rng, c):
    return (
        e("rect", x=-50, y=-60, width=100, height=60, fill="#a4302a")
        + path("M-58 -60 L0 -100 L58 -60 Z", "#5a1a16")
        + e("rect", x=-16, y=-40, width=32, height=40, fill="#f1e6d2")
        + path("M-16 -40 L16 0 M16 -40 L-16 0", stroke="#a4302a", stroke_width=3)
        + e("rect", x=-8, y=-80, width=16, height=12, fill="#f1e6d2")
    )


def harvest_moon(rng, c):
    return (
        e("circle", cx=0, cy=-60, r=60, fill="url(#glow)", opacity=".5")
        + e("circle", cx=0, cy=-60, r=34, fill="#f5a442")
        + e("circle", cx=-10, cy=-66, r=6, fill="#e08a2e", opacity=".6")
    )


def plane(rng, c):
    return path(
        "M-40 0 L30 -4 L44 -12 L50 -8 L40 0 L50 8 L44 12 L30 4 Z M0 -2 L-14 -24 L-6 -24 L14 -2 M0 2 L-14 24 L-6 24 L14 2",
        c.ink,
    )


def underwater(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill=hsl(195 + c.hue / 2, 70, 38))
    out += "".join(
        path(f"M{x} -280 L{x + 40} 10 L{x + 70} 10 L{x + 20} -280 Z", "#ffffff", opacity=".06") for x in (-120, -30, 60)
    )
    for _ in range(6):
        x, h = rng.uniform(-120, 120), rng.uniform(30, 80)
        out += path(
            f"M{x} 0 q-10 {-h / 2:.0f} 0 {-h:.0f} M{x} 0 q14 {-h / 3:.0f} 8 {-h * 0.8:.0f}",
            stroke=hsl(rng.choice([10, 330, 30]), 70, 60),
            stroke_width=6,
            stroke_linecap="round",
        )
    for _ in range(7):
        x, y, s = rng.uniform(-110, 110), rng.uniform(-220, -60), rng.uniform(0.6, 1.2)
        col = bright(rng, 90, 58)
        out += e("ellipse", cx=x, cy=y, rx=12 * s, ry=7 * s, fill=col) + path(f"M{x - 12 * s} {y} l-8 -6 l0 12 Z", col)
    return out + "".join(
        e(
            "circle",
            cx=rng.uniform(-100, 100),
            cy=rng.uniform(-260, -40),
            r=rng.uniform(1.5, 3),
            fill="none",
            stroke="#fff",
            opacity=".6",
        )
        for _ in range(10)
    )


def stage(rng, c):
    curtain = hsl(350 + c.hue / 3, 70, 32)
    return (
        e("rect", x=-140, y=-280, width=280, height=290, fill="#15121a")
        + path("M-140 -280 L-80 -280 Q-90 -140 -140 -40 Z", curtain)
        + path("M140 -280 L80 -280 Q90 -140 140 -40 Z", curtain)
        + path("M-20 -280 L-70 0 L70 0 L20 -280 Z", "#fff5d6", opacity=".18")
        + e("rect", x=-140, y=0, width=280, height=10, fill="#5d4037")
    )


def raindrops_glass(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#8fa3b3", opacity=".45")
    for _ in range(28):
        x, y, r = rng.uniform(-130, 130), rng.uniform(-270, 0), rng.uniform(3, 8)
        out += e("ellipse", cx=x, cy=y, rx=r * 0.8, ry=r, fill="#eaf3fb", opacity=".55") + path(
            f"M{x} {y + r} l{rng.uniform(-2, 2):.1f} {rng.uniform(8, 30):.0f}",
            stroke="#eaf3fb",
            stroke_width=1.5,
            opacity=".4",
        )
    return out + path("M-140 -40 Q0 -70 140 -40 L140 10 L-140 10 Z", "#2b2b2b", opacity=".7")


def falling_leaves(rng, c):
    out = ""
    for _ in range(24):
        x, y, r = rng.uniform(-130, 130), rng.uniform(-260, 0), rng.uniform(4, 8)
        col = hsl(rng.uniform(10, 45), 85, rng.uniform(45, 60))
        out += path(
            f"M{x} {y - r} Q{x + r} {y} {x} {y + r} Q{x - r} {y} {x} {y - r} Z",
            col,
            transform=f"rotate({rng.uniform(0, 180):.0f} {x:.1f} {y:.1f})",
        )
    return out


def clock_tower(rng, c):
    return (
        e("rect", x=-26, y=-170, width=52, height=170, fill="#9e8f7a")
        + path("M-32 -170 L0 -210 L32 -170 Z", "#5d4a3a")
        + e("circle", cx=0, cy=-136, r=18, fill="#f5f1e3", stroke="#3e2f22", stroke_width=3)
        + path(
            f"M0 -136 L0 -150 M0 -136 L{10 * math.cos(rng.uniform(0, 6)):.1f} {-136 + 10 * math.sin(rng.uniform(0, 6)):.1f}",
            stroke="#222",
            stroke_width=2.5,
        )
        + "".join(
            e("rect", x=-12 + k * 16, y=-100 + r * 30, width=8, height=16, rx=4, fill="#3e2f22")
            for r in range(3)
            for k in range(2)
        )
    )


def skyscraper_windows(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill=hsl(210 + c.hue, 30, 30))
    for r in range(14):
        for k in range(9):
            lit = rng.random()
            out += e(
                "rect",
                x=-132 + k * 30,
                y=-272 + r * 20,
                width=26,
                height=16,
                fill=hsl(200 + c.hue, 50, 55 + 25 * lit) if not c.dark else ("#ffd866" if lit > 0.6 else "#1e2a3a"),
            )
    return out


def fireworks(rng, c):
    out = ""
    for _ in range(3):
        x, y, r = rng.uniform(-90, 90), rng.uniform(-200, -110), rng.uniform(25, 45)
        col = bright(rng, 95, 65)
        out += "".join(
            path(
                f"M{x} {y} l{r * math.cos(a):.1f} {r * math.sin(a):.1f}",
                stroke=col,
                stroke_width=2,
                stroke_linecap="round",
            )
            for a in (k * math.tau / 16 for k in range(16))
        )
        out += e("circle", cx=x, cy=y, r=r, fill="url(#glow)", opacity=".35")
    return out


def astronaut(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#05060f")
    out += "".join(
        e("circle", cx=rng.uniform(-140, 140), cy=rng.uniform(-280, 10), r=rng.uniform(0.5, 1.5), fill="#fff")
        for _ in range(50)
    )
    out += e("circle", cx=90, cy=-10, r=80, fill="#2a6fb0") + path(
        "M40 -60 q30 10 40 -10 q20 10 50 0 L150 40 L30 40 Z", "#3f8f4a", opacity=".8"
    )
    return (
        out
        + e("ellipse", cx=-20, cy=-150, rx=22, ry=28, fill="#f4f4f4")
        + e("circle", cx=-20, cy=-190, r=17, fill="#f4f4f4")
        + e("ellipse", cx=-18, cy=-190, rx=11, ry=8, fill="#1e3a5f")
        + path(
            "M-40 -160 L-64 -140 M0 -160 L22 -176 M-30 -126 L-36 -96 M-10 -126 L0 -98",
            stroke="#f4f4f4",
            stroke_width=9,
            stroke_linecap="round",
        )
        + path("M-20 -122 Q40 -60 20 0", stroke="#ccc", stroke_width=1.5)
    )


def parking_garage(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#3b3f45") + path(
        "M-140 -200 L140 -200 M-140 -60 L140 -60", stroke="#555b63", stroke_width=10
    )
    out += "".join(e("rect", x=x, y=-200, width=24, height=140, fill="#6c727a") for x in (-120, -40, 40, 116))
    out += "".join(path(f"M{x} -10 L{x * 1.5:.0f} 10", stroke="#f2d16b", stroke_width=3) for x in (-90, -30, 30, 90))
    return (
        out
        + e("circle", cx=0, cy=-190, r=40, fill="url(#glow)", opacity=".4")
        + e("rect", x=-12, y=-196, width=24, height=4, fill="#eaf1ff")
    )


def lanterns(rng, c):
    out = path("M-140 -150 Q0 -110 140 -150", stroke="#333", stroke_width=1.5) + path(
        "M-140 -100 Q0 -60 140 -100", stroke="#333", stroke_width=1.5
    )
    for row, base in ((0, -150), (1, -100)):
        for i in range(6):
            x = -120 + i * 48 + row * 20
            y = base + 40 * (1 - ((x / 140) ** 2)) * 1.0
            out += e("circle", cx=x, cy=y + 14, r=20, fill="url(#glow)", opacity=".6") + e(
                "ellipse", cx=x, cy=y + 14, rx=11, ry=14, fill="#e63946"
            )
    return out


def icebergs(rng, c):
    out = ""
    for i in range(3):
        x, w, h = -100 + i * 80 + rng.uniform(-10, 10), rng.uniform(40, 80), rng.uniform(40, 100)
        out += path(
            f"M{x - w / 2:.0f} 0 L{x - w / 4:.0f} {-h * 0.7:.0f} L{x:.0f} {-h:.0f} L{x + w / 3:.0f} {-h * 0.6:.0f} L{x + w / 2:.0f} 0 Z",
            "#f2f8ff",
        )
        out += path(f"M{x:.0f} {-h:.0f} L{x + w / 3:.0f} {-h * 0.6:.0f} L{x + w / 2:.0f} 0 L{x + 4:.0f} 0 Z", "#b9d7ee")
        out += path(f"M{x - w / 2:.0f} 0 L{x:.0f} {h * 0.5:.0f} L{x + w / 2:.0f} 0 Z", "#7fb3d5", opacity=".4")
    return out


def cathedral(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#3b3430")
    for x in (-100, -30, 40):
        out += path(f"M{x} 10 L{x} -160 Q{x + 30} -220 {x + 60} -160 L{x + 60} 10", "#574d45")
    out += e("circle", cx=0, cy=-230, r=26, fill="#7b2cbf", opacity=".8") + "".join(
        path(
            f"M0 -230 l{26 * math.cos(k * math.pi / 4):.1f} {26 * math.sin(k * math.pi / 4):.1f}",
            stroke="#ffd166",
            stroke_width=2,
        )
        for k in range(8)
    )
    return out + path("M-20 -210 L-120 10 L40 10 L20 -210 Z", "#fff1c1", opacity=".16")


def phone_glow(rng, c):
    return (
        e("rect", x=-140, y=-280, width=280, height=290, fill="#07080d")
        + e("circle", cx=0, cy=-110, r=110, fill="url(#glow)", opacity=".35")
        + e("ellipse", cx=0, cy=-140, rx=40, ry=50, fill="#9fb6d6", opacity=".55")
        + e("rect", x=-22, y=-60, width=44, height=76, rx=6, fill="#dbe9ff")
        + path(
            "M-50 20 Q-40 -40 -22 -40 M50 20 Q40 -40 22 -40", stroke="#2a3346", stroke_width=14, stroke_linecap="round"
        )
    )


def road(rng, c):
    vx = rng.uniform(-20, 20)
    return path(f"M{vx - 2} -120 L{vx + 2} -120 L100 10 L-100 10 Z", "#3d3d40") + "".join(
        path(f"M{vx * (1 - t):.1f} {-120 + 130 * t:.1f} l0 {8 * t + 2:.1f}", stroke="#f4f4f4", stroke_width=1 + 4 * t)
        for t in (0.15, 0.3, 0.5, 0.72, 0.95)
    )


def port_crane(rng, c):
    ink = "#37474f"
    return (
        path(
            "M-60 0 L-40 -120 M-10 0 L-30 -120 M-60 -60 L-10 -60 M-70 -120 L100 -120 L100 -110 L-70 -110 Z M70 -110 L70 -60",
            stroke=ink,
            stroke_width=5,
        )
        + e("rect", x=56, y=-60, width=28, height=18, fill="#e65100")
        + e("rect", x=-100, y=-20, width=60, height=20, fill="#1565c0")
        + e("rect", x=20, y=-20, width=60, height=20, fill="#c62828")
    )


def bamboo(rng, c):
    out = ""
    for i in range(9):
        x, w = -130 + i * 32 + rng.uniform(-6, 6), rng.uniform(7, 12)
        col = hsl(95 + rng.uniform(-10, 10), 45, rng.uniform(30, 48))
        out += e("rect", x=x, y=-280, width=w, height=290, fill=col)
        out += "".join(
            e("rect", x=x - 1, y=y, width=w + 2, height=3, fill=hsl(95, 35, 25))
            for y in range(-260, 0, int(rng.uniform(36, 56)))
        )
        out += path(f"M{x + w} {rng.uniform(-240, -80):.0f} q20 -6 30 4", stroke=col, stroke_width=4)
    return out


def stained_glass(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#2b2420") + path(
        "M-70 10 L-70 -180 Q0 -270 70 -180 L70 10 Z", "#222"
    )
    for r in range(8):
        for k in range(5):
            out += e(
                "rect",
                x=-66 + k * 27,
                y=-196 + r * 26,
                width=25,
                height=24,
                fill=hsl(rng.choice([0, 45, 120, 210, 280, 330]), 80, 50),
                opacity=".9",
            )
    return (
        out
        + path("M-70 -180 Q0 -270 70 -180 Z", "#c1121f", opacity=".85")
        + e("circle", cx=0, cy=-205, r=16, fill="#ffd166")
    )


def jellyfish(rng, c):
    out = e("rect", x=-140, y=-280, width=280, height=290, fill="#040b1f")
    for i in range(3):
        x, y, s = rng.uniform(-90, 90), rng.uniform(-220, -100), rng.uniform(0.6, 1.1)
        col = hsl(rng.choice([190, 280, 320]), 90, 70)
        out += e("circle", cx=x, cy=y, r=50 * s, fill="url(#glow)", opacity=".4") + path(
            f"M{x - 30 * s} {y} Q{x} {y - 44 * s} {x + 30 * s} {y} Z", col, opacity=".85"
        )
        out += "".join(
            path(
                f"M{x - 24 * s + k * 12 * s:.1f} {y} q-8 30 4 60 q8 20 -4 40",
                stroke=col,
                stroke_width=1.5,
                opacity=".7",
            )
            for k in range(5)
        )
    return out


def glacier_cave(rng, c):
    return (
        e("rect", x=-140, y=-280, width=280, height=290, fill="#0d3b66")
        + path("M-140 10 L-140 -200 Q0 -300 140 -200 L140 10 L90 10 Q70 -150 0 -160 Q-70 -150 -90 10 Z", "#7fc8f8")
        + path("M-120 -190 Q0 -280 120 -190", stroke="#d6f0ff", stroke_width=10, opacity=".6")
        + path("M-90 10 Q-70 -150 0 -160 Q70 -150 90 10 Z", "#cfeeff", opacity=".5")
        + figure(0, 0, 1.5, "#0b2540")
    )


def stars_big(rng, c):
    return "".join(
        e("circle", cx=rng.uniform(-130, 130), cy=rng.uniform(-260, -60), r=rng.uniform(1, 2.4), fill="#fff")
        for _ in range(40)
    )


def skyline(rng, c):
    out = ""
    x = -140.0
    while x < 140:
        w, h = rng.uniform(14, 30), rng.uniform(30, 110)
        out += e("rect", x=x, y=-h, width=w, height=h, fill=hsl(220, 15, 30))
        x += w + 2
    return out


def pines(rng, c):
    out = ""
    for layer in range(3):
        for _ in range(7 + layer * 3):
            x, s = rng.uniform(-150, 150), 0.6 + layer * 0.35
            y = -60 + layer * 30 + rng.uniform(-10, 10)
            tone = hsl(150, 25 - layer * 5, 62 - layer * 18)
            out += path(f"M{x:.1f} {y - 110 * s:.1f} L{x - 22 * s:.1f} {y:.1f} L{x + 22 * s:.1f} {y:.1f} Z", tone)
        out += e("rect", x=-140, y=-60 + layer * 30, width=280, height=90, fill="#dfe7ea", opacity=".3")
    return out


def dunes(rng, c):
    out = ""
    for i in range(5):
        y = -150 + i * 36
        out += path(
            f"M-140 {y + 40} Q{rng.uniform(-100, -20):.0f} {y - 10:.0f} {rng.uniform(-10, 40):.0f} {y + 16:.0f} T140 {y + 4:.0f} L140 10 L-140 10 Z",
            hsl(34 + c.hue / 3, 65, 70 - i * 6),
        )
        out += "".join(
            path(
                f"M-140 {y + 52 + k * 6} Q0 {y + 30 + k * 6} 140 {y + 46 + k * 6}",
                stroke=hsl(30, 50, 55 - i * 4),
                stroke_width=0.8,
                opacity=".6",
            )
            for k in range(3)
        )
    return out
