"""Write the generated card images: `python -m games.engines.pickpic.make_images [out_dir]`.

The only module of the engine that touches the file system; the engine itself never imports it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .cards import CATALOGUE, card_svg

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "static" / "cards" / "pickpic"


def write_images(out_dir: Path = DEFAULT_DIR) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for entry in CATALOGUE:
        path = out_dir / f"{entry['id']}.svg"
        path.write_text(card_svg(entry), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> None:
    out_dir = Path(argv[1]) if len(argv) > 1 else DEFAULT_DIR
    written = write_images(out_dir)
    print(f"wrote {len(written)} card images to {out_dir}")


if __name__ == "__main__":
    main(sys.argv)
