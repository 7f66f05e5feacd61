#!/usr/bin/env python3
"""Draws the Sidekicks icon once and writes it for every platform (one source: this file).

  build/icons/sidekicks.png   512×512 (Linux, the window, the .desktop file)
  build/icons/sidekicks.ico   16…256 (Windows)
  build/icons/sidekicks.icns  16…1024 (macOS)

The icon: two speech bubbles, a big one and its sidekick, on an indigo rounded square.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "icons"
SIZE = 1024  # drawn large, scaled down with antialiasing


def draw() -> Image.Image:
    image = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    top, bottom = (99, 102, 241), (67, 56, 202)  # indigo gradient
    mask = Image.new("L", (SIZE, SIZE), 0)
    ImageDraw.Draw(mask).rounded_rectangle((40, 40, SIZE - 40, SIZE - 40), radius=220, fill=255)
    gradient = Image.new("RGBA", (SIZE, SIZE))
    g = ImageDraw.Draw(gradient)
    for y in range(SIZE):
        t = y / SIZE
        color = tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        g.line([(0, y), (SIZE, y)], fill=color)
    image.paste(gradient, (0, 0), mask)
    # The main bubble.
    d.rounded_rectangle((180, 230, 700, 620), radius=120, fill=(255, 255, 255, 255))
    d.polygon([(300, 600), (260, 740), (420, 610)], fill=(255, 255, 255, 255))
    # The sidekick's bubble, overlapping.
    d.rounded_rectangle((520, 480, 860, 760), radius=100, fill=(199, 210, 254, 255))
    d.polygon([(760, 740), (810, 850), (690, 750)], fill=(199, 210, 254, 255))
    # Three dots in the main bubble: someone is answering.
    for x in (330, 440, 550):
        d.ellipse((x - 38, 387, x + 38, 463), fill=(79, 70, 229, 255))
    return image


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    icon = draw()
    icon.resize((512, 512), Image.Resampling.LANCZOS).save(OUT / "sidekicks.png")
    icon.save(OUT / "sidekicks.ico", sizes=[(s, s) for s in (16, 24, 32, 48, 64, 128, 256)])
    # The .icns holds 16…1024 (512@2x): the 1024 drawing itself, and each smaller size scaled
    # with Lanczos (Pillow would otherwise scale the saved image with its default filter).
    smaller = [icon.resize((s, s), Image.Resampling.LANCZOS) for s in (32, 64, 128, 256, 512)]
    icon.save(OUT / "sidekicks.icns", append_images=smaller)
    print(f"wrote {', '.join(p.name for p in sorted(OUT.glob('sidekicks.*')))} to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
