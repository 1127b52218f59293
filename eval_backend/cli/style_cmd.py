"""`style`: each run's median answer length and style-controlled score, and what the judge pays per unit of style."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from eval_backend.answer_style import MedianLength
from eval_backend.cli.common import positive_int
from eval_backend.run_folder import RunFolder
from eval_backend.statistics import DEFAULT_REPLICATES, DEFAULT_SEED
from eval_backend.statistics.style_control import Coefficient
from eval_backend.style_ranking import StyleBoard, style_board


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "style", help="answer lengths and the style-controlled ranking of complete run folders of one benchmark"
    )
    parser.add_argument("run_dirs", type=Path, nargs="+", metavar="RUN_DIR", help="scored run folders, one per model")
    parser.add_argument("--figure", help="the figure to rank by (default: the benchmark's headline)")
    parser.add_argument("--replicates", type=positive_int, default=DEFAULT_REPLICATES, help="bootstrap replicates")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the bootstrap draws")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = style_board([RunFolder(path) for path in args.run_dirs], args.figure, args.replicates, args.seed)
    if args.json:
        print(json.dumps(style_document(board), indent=2, ensure_ascii=False))
    else:
        print("\n".join(text_lines(board)))
    return 0


def style_document(board: StyleBoard) -> dict[str, Any]:
    """What --json prints: per run its lengths, raw and controlled figures; the coefficients, overall and per config."""
    control = board.control
    runs = []
    for position, (label, lengths) in enumerate(zip(board.labels, board.lengths)):
        run = {"run": label, "median_length": _length(lengths.overall),
               "median_length_by": {name: {group: _length(length) for group, length in groups.items()}
                                    for name, groups in lengths.groups.items()}}
        if control is not None:
            run["raw"] = _ranked(control.raw, position)
            run["controlled"] = _ranked(control.controlled, position)
            run["style"] = {feature.name: float(control.model_style[position, k])
                            for k, feature in enumerate(board.features)}
        runs.append(run)
    return {
        "benchmark": board.benchmark, "figure": board.figure.name, "unit": board.figure.unit,
        "higher_is_better": board.figure.higher_is_better,
        "features": [{"name": f.name, "label": f.label, "unit": f.unit, "relative_to_item": f.relative_to_item}
                     for f in board.features],
        "uncontrolled": board.uncontrolled,
        "median_style": None if control is None else dict(zip((f.name for f in board.features),
                                                              control.median_style.tolist())),
        "coefficients": None if control is None else [_coefficient(c) for c in control.coefficients],
        "coefficients_by_config": None if control is None else {
            config: [_coefficient(c) for c in coefficients]
            for config, coefficients in zip(board.strata, control.stratum_coefficients) if coefficients is not None
        },
        "runs": runs,
    }


def text_lines(board: StyleBoard) -> list[str]:
    """The runs by controlled rank (or as given without control), then each coefficient as a reader says it."""
    control = board.control
    header = f"{board.benchmark}: {board.figure.label} ({board.figure.unit})"
    if control is None:
        rows = [("run", "median length")] + [(label, _length_text(lengths.overall))
                                             for label, lengths in zip(board.labels, board.lengths)]
        return [header, *_table(rows), f"no style-controlled ranking: {board.uncontrolled}"]
    order = sorted(range(len(board.labels)), key=lambda m: (control.controlled.rank[m], m))
    rows = [("rank", "run", "controlled [95 %]", "raw [95 %]", "raw rank", "median length")]
    rows += [(_rank_text(control.controlled, m), board.labels[m], _figure_text(control.controlled, m),
              _figure_text(control.raw, m), _rank_text(control.raw, m), _length_text(board.lengths[m].overall))
             for m in order]
    lines = [header, *_table(rows), "", "what the score moves per unit of style, all configs:"]
    lines += [_coefficient_text(board, c) for c in control.coefficients]
    for config, coefficients in zip(board.strata, control.stratum_coefficients):
        if coefficients is not None:
            lines += [f"  {config}: " + "; ".join(_coefficient_text(board, c).strip() for c in coefficients)]
    return lines


def _coefficient_text(board: StyleBoard, coefficient: Coefficient) -> str:
    unit = next(f.unit for f in board.features if f.name == coefficient.feature)
    return (f"  +1 {unit}: {coefficient.estimate:+.3f} [{coefficient.low:+.3f}, {coefficient.high:+.3f}] "
            f"({board.figure.difference_unit})")


def _ranked(joint: Any, m: int) -> dict[str, Any]:
    return {"score": float(joint.headlines[m]), "ci_low": float(joint.low[m]), "ci_high": float(joint.high[m]),
            "rank": int(joint.rank[m]), "rank_best": int(joint.rank_best[m]), "rank_worst": int(joint.rank_worst[m])}


def _coefficient(coefficient: Coefficient) -> dict[str, Any]:
    return {"feature": coefficient.feature, "estimate": coefficient.estimate, "ci_low": coefficient.low,
            "ci_high": coefficient.high, "level": coefficient.level}


def _length(length: MedianLength | None) -> dict[str, Any] | None:
    return None if length is None else {"median": length.median, "unit": length.unit, "answers": length.answers}


def _length_text(length: MedianLength | None) -> str:
    return "no answer" if length is None else f"{length.median:,.0f} {length.unit}"


def _figure_text(joint: Any, m: int) -> str:
    return f"{joint.headlines[m]:.3f} [{joint.low[m]:.3f}, {joint.high[m]:.3f}]"


def _rank_text(joint: Any, m: int) -> str:
    best, worst = int(joint.rank_best[m]), int(joint.rank_worst[m])
    return f"{int(joint.rank[m])} ({best}-{worst})" if best != worst else str(int(joint.rank[m]))


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
