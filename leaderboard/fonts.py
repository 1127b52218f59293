"""Noto faces for every script the benchmarks use, served by the app itself.

A reader's machine may have no font for Tamil or Shahmukhi (every letter a box), so the page names its own: Debian's
fonts-noto-core (`make fonts`) ships the files, the app serves them as static files, and one family, `Board Noto`,
maps each script's Unicode range to its face. Latin is Noto Sans too, in the weights it ships, so a bold heading is
drawn in one face (the theme's Source Sans has no bold: Chromium drew some bold letters in another font). Tables keep
a monospace face for Latin and digits; the scripts it lacks fall through to `Board Noto`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import gradio as gr

NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
"""Where Debian's fonts-noto-core puts its files."""
FAMILY = "Board Noto"
FILE_URL = "/gradio_api/file="
WEIGHTS = {400: "Regular", 700: "Bold"}


@dataclass(frozen=True)
class ScriptFace:
    """One script's Noto face (file stem without weight) and the Unicode ranges it draws."""

    stem: str
    ranges: str


SCRIPT_FACES = (
    ScriptFace("NotoSansDevanagari", "U+0900-097F, U+A8E0-A8FF, U+1CD0-1CFF"),
    ScriptFace("NotoSansBengali", "U+0980-09FF"),
    ScriptFace("NotoSansGurmukhi", "U+0A00-0A7F"),
    ScriptFace("NotoSansGujarati", "U+0A80-0AFF"),
    ScriptFace("NotoSansOriya", "U+0B00-0B7F"),
    ScriptFace("NotoSansTamil", "U+0B80-0BFF, U+11FC0-11FFF"),
    ScriptFace("NotoSansTelugu", "U+0C00-0C7F"),
    ScriptFace("NotoSansKannada", "U+0C80-0CFF"),
    ScriptFace("NotoSansMalayalam", "U+0D00-0D7F"),
    # Shahmukhi (Saraiki, Punjabi) and Urdu are written in Nastaliq.
    ScriptFace("NotoNastaliqUrdu", "U+0600-06FF, U+0750-077F, U+08A0-08FF, U+FB50-FDFF, U+FE70-FEFF"),
    # Indic text mixes in Latin, digits and the danda: one face draws them alike in every weight.
    ScriptFace("NotoSans", "U+0000-024F, U+2000-206F, U+20B9"),
)


def font_files(noto_dir: Path = NOTO_DIR) -> list[Path]:
    """The font files the page uses that are on this machine (each served by the app)."""
    candidates = [noto_dir / f"{face.stem}-{weight}.ttf" for face in SCRIPT_FACES for weight in WEIGHTS.values()]
    return [path for path in candidates if path.is_file()]


def font_css(noto_dir: Path = NOTO_DIR) -> str:
    """@font-face rules for the files present, and `Board Noto` behind the theme's fonts."""
    faces = "".join(
        f'@font-face {{ font-family: "{FAMILY}"; src: url("{FILE_URL}{path}") format("truetype");'
        f" font-weight: {weight}; font-display: swap; unicode-range: {face.ranges}; }}\n"
        for face in SCRIPT_FACES for weight, name in WEIGHTS.items()
        if (path := noto_dir / f"{face.stem}-{name}.ttf").is_file()
    )
    if not faces:
        return ""
    fallback = f'"{FAMILY}"'
    return faces + (
        # Gradio's theme sets both stacks as variables on the page.
        f":root, .gradio-container {{ --font: {fallback}, ui-sans-serif, system-ui, sans-serif;"
        # Tables stay monospace: `Board Noto` (whose Latin is proportional) comes after every monospace face, so
        # it draws only the scripts those lack.
        f" --font-mono: \"IBM Plex Mono\", ui-monospace, Consolas, monospace, {fallback}; }}\n"
    )


def serve_fonts(noto_dir: Path = NOTO_DIR) -> None:
    """Let Gradio serve the font files (each file, not the folder) from where they lie."""
    files = font_files(noto_dir)
    if files:
        gr.set_static_paths(files)
