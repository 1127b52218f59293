"""Import each named module first, in a process of its own, as `python -c "import M"` would: circles show.

    python -m tests.support.import_each PACKAGE_DIR... > report.json

A fresh interpreter per module costs seconds each (gradio, pandas) and there are two hundred of
them. So one process imports the third-party libraries the project's modules import (found in
their source) and nothing of the project's own, then forks one child per module; each child
imports its module with none of the project's modules loaded, which is all an import circle
depends on: it fails only when entered at a module whose partly run body another module needs.
The report (JSON) lists every module checked, what was preloaded, and each failure's traceback.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

PARALLEL = 4
"""Children importing at once: each is a fork, mostly waiting on its own imports."""


@dataclass(frozen=True)
class Package:
    """A folder of the project's Python modules, and the dotted name of its root."""

    folder: Path

    @property
    def root(self) -> str:
        return self.folder.name

    def modules(self) -> list[str]:
        """Every module under the folder, by its dotted name (a package as its own name)."""
        names = []
        for path in sorted(self.folder.rglob("*.py")):
            parts = path.relative_to(self.folder.parent).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        return names

    def imported_roots(self) -> set[str]:
        """The top-level names its modules import anywhere (at module level or inside functions)."""
        roots: set[str] = set()
        for path in self.folder.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    roots.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    roots.add(node.module.split(".")[0])
        return roots


def preload(roots: set[str], project: set[str]) -> list[str]:
    """Import the libraries among `roots` (not the project's); one missing is left for the child to fail on."""
    loaded = []
    for root in sorted(roots - project):
        try:
            importlib.import_module(root)
        except Exception:  # noqa: BLE001  (an optional library; the module that needs it fails in its child)
            continue
        loaded.append(root)
    return loaded


def project_modules_loaded(project: set[str]) -> list[str]:
    """The project's modules already in this process: none may be, or a child would not start fresh."""
    return sorted(name for name in sys.modules if name.split(".")[0] in project)


def import_in_children(modules: list[str], scratch: Path) -> dict[str, str]:
    """Import each module in a forked child of its own; the traceback of each that failed, by module."""
    running: dict[int, str] = {}
    failed: dict[str, str] = {}
    pending = list(reversed(modules))
    while pending or running:
        while pending and len(running) < PARALLEL:
            module = pending.pop()
            running[_fork_import(module, scratch / f"{module}.txt")] = module
        pid, status = os.wait()
        module = running.pop(pid)
        if os.waitstatus_to_exitcode(status) != 0:
            report = scratch / f"{module}.txt"
            failed[module] = report.read_text(encoding="utf-8") if report.exists() else f"exit status {status}"
    return failed


def _fork_import(module: str, report: Path) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:
        importlib.import_module(module)
    except BaseException:  # noqa: BLE001  (any failure, SystemExit included, is the module's to report)
        report.write_text(traceback.format_exc(), encoding="utf-8")
        os._exit(1)
    os._exit(0)


def main(folders: list[str]) -> int:
    """Check every module of the package folders given; print the JSON report; 1 if any failed."""
    packages = [Package(Path(folder).resolve()) for folder in folders]
    project = {package.root for package in packages}
    sys.path.insert(0, str(packages[0].folder.parent))
    roots = set().union(*(package.imported_roots() for package in packages))
    preloaded = preload(roots, project)
    early = project_modules_loaded(project)
    modules = [module for package in packages for module in package.modules()]
    with tempfile.TemporaryDirectory(prefix="import-each-") as scratch:
        failed = import_in_children(modules, Path(scratch)) if not early else {}
    print(json.dumps({"checked": modules, "preloaded": preloaded, "loaded_before_fork": early, "failed": failed}))
    return 1 if failed or early else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
