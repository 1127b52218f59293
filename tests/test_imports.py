"""Every module of the engine and the board imports on its own, first, as `python -c "import M"` does.

An import circle fails only when entered at the module whose partly run body another needs
(`import eval_backend.writing_bench_scoring` failed while the package imported fine), so each
module is imported first in a process of its own (`tests.support.import_each`).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRITING_BENCH = ROOT / "eval_backend" / "benchmarks" / "writing_bench"


def import_each(folders: list[Path], cwd: Path) -> dict:
    """The checker's JSON report on every module of `folders`."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.import_each", *map(str, folders)],
        cwd=cwd, capture_output=True, text=True, timeout=600,
    )
    assert done.stdout, f"the checker printed nothing (exit {done.returncode}): {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def failures(report: dict) -> str:
    return "\n".join(f"{module}: {text.strip().splitlines()[-1]}" for module, text in report["failed"].items())


def test_every_module_of_the_engine_and_the_board_imports_first_on_its_own() -> None:
    report = import_each([ROOT / "eval_backend", ROOT / "leaderboard"], ROOT)
    assert report["loaded_before_fork"] == []
    assert "pandas" in report["preloaded"] and "gradio" in report["preloaded"]
    expected = len(list((ROOT / "eval_backend").rglob("*.py"))) + len(list((ROOT / "leaderboard").rglob("*.py")))
    assert len(report["checked"]) == expected
    assert {"eval_backend.benchmarks.writing_bench.scoring", "leaderboard.app_factory"} <= set(report["checked"])
    assert report["failed"] == {}, "modules that fail to import on their own:\n" + failures(report)


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_check_names_the_one_module_an_import_circle_is_entered_at(tmp_path: Path) -> None:
    # The shape WritingBench had: a module imports the package's shape, whose __init__ registers a
    # plugin that imports the module back before the name it needs is defined.
    _write(tmp_path / "toy", {
        "__init__.py": "",
        "bench/__init__.py": "from toy.bench.plugin import BENCH\n",
        "bench/shape.py": "SHAPE = 'shape'\n",
        "bench/plugin.py": "from toy.scoring import score\n\nBENCH = score\n",
        "scoring.py": "from toy.bench.shape import SHAPE\n\n\ndef score() -> str:\n    return SHAPE\n",
    })
    report = import_each([tmp_path / "toy"], ROOT)
    assert sorted(report["checked"]) == ["toy", "toy.bench", "toy.bench.plugin", "toy.bench.shape", "toy.scoring"]
    assert list(report["failed"]) == ["toy.scoring"]
    assert "partially initialized module 'toy.scoring'" in report["failed"]["toy.scoring"]


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_writing_bench_is_one_package_that_only_the_registry_imports_in_the_engine() -> None:
    outside = [path for path in (ROOT / "eval_backend").rglob("*.py") if WRITING_BENCH not in path.parents]
    assert [str(path) for path in outside if "writing" in path.name] == []
    importers = sorted(
        str(path.relative_to(ROOT)) for path in outside
        if any(name.startswith("eval_backend.benchmarks.writing_bench") for name in _imported_modules(path))
    )
    assert importers == ["eval_backend/benchmarks/registry.py"]
    assert _imported_modules(ROOT / "eval_backend" / "benchmarks" / "__init__.py") == set()


def test_the_board_imports_no_benchmark_s_package() -> None:
    """The board is built from the registry's declarations: no module of `leaderboard/` reaches into a package."""
    packages = sorted(path.parent.name for path in (ROOT / "eval_backend" / "benchmarks").glob("*/__init__.py"))
    assert {"qa", "saraiki", "writing_bench"} <= set(packages)
    importers = {
        str(path.relative_to(ROOT)): sorted(name for name in _imported_modules(path)
                                            if name.split(".")[:3] in (["eval_backend", "benchmarks", package]
                                                                       for package in packages))
        for path in (ROOT / "leaderboard").rglob("*.py")}
    assert {path: names for path, names in importers.items() if names} == {}
