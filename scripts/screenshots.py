"""Regenerate the documentation's screenshots of the web table: docs/screenshots/*.png and the
page showing them, docs/screenshots.md.

Run by hand from the checkout (Debian's chromium and, for the accessibility checks, axe-core
installed by `.ci/run`):

    PYTHONPATH=src .venv/bin/python scripts/screenshots.py

It runs the browser test tests/test_web_a11y.py, which saves every page of a seeded campaign per
rule system (phone 360 px and desktop 1280 px, French and English, light and dark) to
$JDR_SCREENSHOTS, then keeps a small set (the phone's campaign, fight and sheet pages in French
and English, the desktop's campaign page) as palette PNGs, well under 1.5 MB in all.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).parents[1]
OUT = ROOT / "docs" / "screenshots"
SYSTEM = "plus-ultra"
KEPT = [  # (page, width, language): what the docs show
    ("campaign", 360, "fr"),
    ("campaign", 360, "en"),
    ("fight", 360, "fr"),
    ("fight", 360, "en"),
    ("sheet", 360, "fr"),
    ("sheet", 360, "en"),
    ("campaign", 1280, "en"),
]
TALLEST = 2400
"""A phone page is cut at this many pixels: the docs show its top, what a player sees first."""


def shoot(folder: Path) -> None:
    """Run the browser test that saves every page's screenshot to `folder`."""
    env = {**os.environ, "JDR_SCREENSHOTS": str(folder)}
    test = "tests/test_web_a11y.py"
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", test, "-k", SYSTEM]
    done = subprocess.run(command, cwd=ROOT, env=env, check=False)
    if done.returncode not in (0, 1):  # 1: a page failed a check, its screenshot is still there
        raise SystemExit(done.returncode)


def keep(folder: Path) -> list[Path]:
    """The chosen screenshots, as small palette PNGs in docs/screenshots/."""
    OUT.mkdir(parents=True, exist_ok=True)
    kept = []
    for page, width, lang in KEPT:
        source = folder / f"{SYSTEM}-{page}-{width}-{lang}.png"
        image = Image.open(source).convert("RGB")
        if image.height > TALLEST:
            image = image.crop((0, 0, image.width, TALLEST))
        target = OUT / f"{page}-{'phone' if width < 800 else 'desktop'}-{lang}.png"
        image.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)
        kept.append(target)
    return kept


def page_of(kept: list[Path]) -> str:
    """docs/screenshots.md: each kept screenshot under its caption."""
    lines = [
        "# The web table, in screenshots",
        "",
        "Made by the browser test run (tests/test_web_a11y.py) on a seeded Plus Ultra campaign,",
        "regenerated with `scripts/screenshots.py`. Every page is also checked there with",
        "axe-core, for overflow at 360 px and for 44 px tap targets, in each system and role.",
        "",
    ]
    for path in kept:
        page, device, lang = path.stem.split("-")
        lines += [f"## {page}, {device}, {'français' if lang == 'fr' else 'English'}", ""]
        lines += [f"![{page} ({device}, {lang})](screenshots/{path.name})", ""]
    return "\n".join(lines)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        shoot(Path(folder))
        kept = keep(Path(folder))
    (ROOT / "docs" / "screenshots.md").write_text(page_of(kept), encoding="utf-8")
    total = sum(p.stat().st_size for p in kept)
    print(f"{len(kept)} screenshots, {total // 1024} KB, in {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
