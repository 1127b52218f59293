"""Printing a benchmark's figures, and appending them to bench/README.md with the command that produced them."""

from __future__ import annotations

import platform
import sys
from datetime import datetime, timezone
from pathlib import Path

README = Path(__file__).with_name("README.md")


def publish(title: str, rows: dict[str, str], record: bool) -> None:
    """Print `rows` as a two-column table; with `record`, also append them to bench/README.md."""
    width = max(map(len, rows))
    for name, value in rows.items():
        print(f"{name:<{width}}  {value}")
    if record:
        script = Path(sys.argv[0]).as_posix()
        append_result(title, " ".join(["python", f"bench/{Path(script).name}", *sys.argv[1:]]), rows)


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
