"""Appending a benchmark's figures to bench/README.md, with the command that produced them."""

from __future__ import annotations

import platform
from datetime import datetime, timezone
from pathlib import Path

README = Path(__file__).with_name("README.md")


def append_result(title: str, command: str, rows: dict[str, str]) -> None:
    """Add a dated section with a two-column table of `rows` to bench/README.md."""
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"\n### {title} — {when}\n",
        f"`{command}` on {platform.machine()}, Python {platform.python_version()}\n",
        "| measure | value |",
        "|---|---|",
        *(f"| {name} | {value} |" for name, value in rows.items()),
        "",
    ]
    with README.open("a", encoding="utf-8") as handle:
        handle.write("\n".join(lines))
