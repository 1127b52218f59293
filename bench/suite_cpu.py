"""Where a command's CPU goes, by kind of process: Chromium's renderers, its other processes, app servers, pytest.

`/usr/bin/time` and `os.times()` count only the children a process waits for. Chromium forks its renderers
from a zygote that outlives them, so a browser test pass's largest share (the pages being drawn) is in
neither: `time make test` reported ~350 s of CPU for a browser pass that used ~890. This samples `/proc`
every `--interval` seconds while the command runs and keeps, for every process that started after it,
its last CPU time (user + system) and its command line. Run it on a quiet machine: whatever else starts
meanwhile is counted too. A process that lives less than one interval is missed, and a process's last
interval too, so the figures are a lower bound; the reaped children's CPU (what time(1) says) is shown beside.

    python bench/suite_cpu.py -- make test
    python bench/suite_cpu.py --record -- .venv/bin/python -m pytest tests/leaderboard/test_qa_browser.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.record import publish  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
KINDS = (
    ("Chromium renderers (pages drawn)", lambda command: "chromium" in command and "--type=renderer" in command),
    ("Chromium, other processes", lambda command: "chromium" in command),
    ("pytest and its workers", lambda command: "pytest" in command or "exec(eval(" in command),
    ("app servers (app.py, stand-in apps)", lambda command: "app.py" in command or "_app" in command),
    ("other Python (CLI, workers, benches, Jobs)", lambda command: "python" in command),
)
OTHER = "everything else"


@dataclass(frozen=True)
class Sampled:
    """One process seen while the command ran: its command line and the CPU seconds it had used when last seen."""

    command: str
    cpu_s: float


def _stat(pid: str) -> tuple[int, float] | None:
    """The process's start (clock ticks since boot) and CPU seconds so far; None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2:].split()
    return int(fields[19]), (int(fields[11]) + int(fields[12])) / TICKS


def _command(pid: str) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _boot_ticks_now() -> int:
    return int(float(Path("/proc/uptime").read_text().split()[0]) * TICKS)


def sample(seen: dict[tuple[str, int], Sampled], since: int) -> None:
    """Record every process started at or after `since` (clock ticks since boot), keyed by pid and start."""
    for pid in filter(str.isdigit, os.listdir("/proc")):
        stat = _stat(pid)
        if stat is None or stat[0] < since:
            continue
        key = (pid, stat[0])
        command = seen[key].command if key in seen else _command(pid)
        seen[key] = Sampled(command, stat[1])


def kind_of(command: str) -> str:
    """The first kind whose rule the command line meets."""
    return next((name for name, matches in KINDS if matches(command)), OTHER)


def run(argv: list[str], interval: float) -> tuple[int, float, dict[tuple[str, int], Sampled], float]:
    """Run `argv`, sampling `/proc` meanwhile: its exit code, wall seconds, the processes seen and the CPU
    seconds of the children it reaped (`os.times()`)."""
    since, before, started = _boot_ticks_now(), os.times(), time.monotonic()
    seen: dict[tuple[str, int], Sampled] = {}
    with subprocess.Popen(argv) as child:
        while child.poll() is None:
            sample(seen, since)
            time.sleep(interval)
    after = os.times()
    reaped = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return child.returncode, time.monotonic() - started, seen, reaped


def table(wall_s: float, seen: dict[tuple[str, int], Sampled], reaped_s: float) -> dict[str, str]:
    """CPU seconds and share per kind, the total against what two cores could give in the wall time."""
    per_kind: dict[str, list[float]] = {}
    for process in seen.values():
        entry = per_kind.setdefault(kind_of(process.command), [0, 0.0])
        entry[0] += 1
        entry[1] += process.cpu_s
    total = sum(cpu for _, cpu in per_kind.values())
    rows = {"wall": f"{wall_s:.1f} s", "CPU, all processes started by the command": f"{total:.1f} s",
            "CPU / (wall x cores)": f"{total / (wall_s * (os.cpu_count() or 1)):.2f} ({os.cpu_count()} cores)"}
    for name, (count, cpu) in sorted(per_kind.items(), key=lambda item: -item[1][1]):
        rows[f"{name}: {count} processes"] = f"{cpu:.1f} s ({100 * cpu / total:.0f} %)"
    rows["reaped children alone (what time(1) reports)"] = f"{reaped_s:.1f} s"
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between samples of /proc")
    parser.add_argument("--record", action="store_true", help="append the table to bench/README.md")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not argv:
        parser.error("name the command to measure after --")
    code, wall_s, seen, reaped_s = run(argv, args.interval)
    publish(f"Suite CPU by process kind: {' '.join(argv)} (exit {code})", table(wall_s, seen, reaped_s), args.record)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
