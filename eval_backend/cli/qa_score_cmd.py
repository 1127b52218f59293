"""`qa-score`: seed 002's evaluation scripts as one command over a responses CSV.

Exact substring and word overlap always, the LLM judge of equivalence with `--judge`;
prints per-domain and combined accuracy for each, and optionally writes the per-question
verdicts (`--out`) and a JSON summary (`--summary-out`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from eval_backend.benchmarks.qa.csv_io import ResponsesTable, read_responses_csv, write_scored_csv
from eval_backend.benchmarks.qa.judge import JUDGE_TEMPERATURE, JudgingStopped, judge_rows
from eval_backend.benchmarks.qa.records import QaJudgment, QaRow
from eval_backend.benchmarks.qa.scorers import Normalization, normalized, score_row
from eval_backend.benchmarks.qa.summary import JudgeSummary, QaSummary, ScorerAccuracy, judge_summary, summarize
from eval_backend.cli.common import add_judge_arguments, judge_settings, judging_progress_bar
from eval_backend.responses_input import ResponsesInputError
from eval_backend.settings import JudgeSettings, Settings

if TYPE_CHECKING:  # the judge's HTTP stack (openai, aiohttp: ~0.8 s to import) is loaded by `--judge` alone
    from eval_backend.judge_client import JudgeClient

_ROWS_NAMED = 20  # a warning names this many rows, then says how many more


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("qa-score", help="score a short-answer QA responses CSV (seed 002's scripts)")
    parser.add_argument("--responses", required=True, type=Path, help="CSV with question, answer, Domain, response")
    parser.add_argument("--out", type=Path, help="write every input column plus the per-question verdicts here")
    parser.add_argument("--summary-out", type=Path, help="write the accuracies and counts here as JSON")
    parser.add_argument("--judge", action="store_true", help="also ask the LLM judge (JUDGE_MODEL) about each row")
    parser.add_argument("--limit", type=_positive_int, help="score only the first N rows")
    parser.add_argument(
        "--normalize", choices=["nfc"], help="normalise golden answers and responses to Unicode NFC first"
    )
    add_judge_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for path in (args.out, args.summary_out):
        if path is not None:
            check_writable(path)
    table = read_responses_csv(args.responses, need_question=args.judge, limit=args.limit)
    _warn_input(args.responses, table)
    form = Normalization.NFC if args.normalize else None
    verdicts = [score_row(row, form) for row in table.rows]
    judgments, judge, stopped = None, None, None
    if args.judge:
        settings = judge_settings(args, Settings())
        judgments, judge, stopped = _judge(settings, [normalized(row, form) for row in table.rows])
    summary = summarize(table.rows, verdicts, form, judge)
    print(format_report(summary))
    _warn(summary, judgments)
    if args.out is not None:
        write_scored_csv(args.out, table, verdicts, judgments)
    if args.summary_out is not None:
        args.summary_out.write_text(json.dumps(summary.to_json(), ensure_ascii=False, indent=2) + "\n", "utf-8")
    if stopped is not None:
        from eval_backend.judge_client import JudgeConfigError  # loaded: the judge ran

        raise JudgeConfigError(_stopped_message(stopped, args.out, args.summary_out))
    return 0


def check_writable(path: Path) -> None:
    """Refuse an output path that is a folder or cannot be written, before any work is paid for."""
    if path.is_dir():
        raise ResponsesInputError(f"{path}: is a folder; give a file name to write")
    if not path.parent.is_dir():
        raise ResponsesInputError(f"{path}: its folder {path.parent} does not exist")
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
    except OSError as exc:
        raise ResponsesInputError(f"{path}: cannot be written ({exc.strerror or exc})") from exc
    if not existed:
        path.unlink()  # the probe's empty file is not an output


def _judge(
    settings: JudgeSettings, rows: Sequence[QaRow]
) -> tuple[list[QaJudgment], JudgeSummary, JudgingStopped | None]:
    """Judge every row at temperature 0 (or the judge's default, when it refuses 0).

    A judge that stops mid-way (JudgingStopped) is returned, not raised, with its rows marked
    failed, so that the deterministic results are saved all the same.
    """
    from eval_backend.judge_client import JudgeClient
    from eval_backend.judging import PROGRESS_INTERVAL_S, JudgingProgress, at_most_every

    async def go() -> tuple[list[QaJudgment], JudgeClient, JudgingStopped | None]:
        client = JudgeClient(settings, temperature=JUDGE_TEMPERATURE)
        progress = JudgingProgress(total=len(rows))
        try:
            with judging_progress_bar() as on_progress:
                report = at_most_every(PROGRESS_INTERVAL_S, on_progress)

                def on_done(judgment: QaJudgment) -> None:
                    progress.done += 1
                    progress.failed += judgment.failed
                    progress.tokens += judgment.usage.total_tokens
                    report(progress)

                try:
                    return await judge_rows(rows, client, on_done), client, None
                except JudgingStopped as stopped:
                    return stopped.judgments, client, stopped
                finally:
                    on_progress(progress)  # the final totals, whatever the interval held back
        finally:
            await client.close()

    judgments, client, stopped = asyncio.run(go())
    refused = client.temperature_refused
    temperature = None if refused else JUDGE_TEMPERATURE
    summary = judge_summary(rows, judgments, settings.model, temperature, refused, client.temperature_refusals)
    return judgments, summary, stopped


def _stopped_message(stopped: JudgingStopped, out: Path | None, summary_out: Path | None) -> str:
    """What stopped the judge and exactly what was saved (nothing is resumed: run again to judge all)."""
    from eval_backend.judge_client import RESUME_HINT
    reason = str(stopped.error).removesuffix(RESUME_HINT)
    total = len(stopped.judgments)
    saved = [f"{path} ({what})" for path, what in (
        (out, f"every row's exact and overlap verdicts; judge verdicts for {stopped.judged} of {total} rows, "
              "the others marked failed with this error"),
        (summary_out, "the summary, the judge's accuracy over the rows it judged"),
    ) if path is not None]
    written = "saved: " + "; ".join(saved) if saved else "nothing was saved (no --out or --summary-out)"
    return f"the judge stopped after {stopped.judged} of {total} rows: {reason}. The results above are printed; {written}."


def format_report(summary: QaSummary) -> str:
    """The accuracies as text: one block per scorer (domains, then combined), then the counts."""
    blocks = [_block("exact substring", summary.exact), _block("word overlap", summary.overlap)]
    if summary.judge is not None:
        temperature = "its default temperature" if summary.judge.temperature is None else "temperature 0"
        title = f"LLM judge ({summary.judge.model}, {temperature}; {summary.judge.failed} failed, left out)"
        blocks.append(_block(title, summary.judge.accuracy))
    buckets = summary.agreement
    blocks.append(
        f"agreement: both {buckets['both']}, exact only {buckets['exact_only']}, "
        f"overlap only {buckets['overlap_only']} (needs review), neither {buckets['neither']}\n"
        f"blank responses: {summary.blank_responses} of {summary.n} (scored incorrect)"
    )
    return "\n\n".join(blocks)


def _block(title: str, accuracy: ScorerAccuracy) -> str:
    labels = [(domain_label(name), value) for name, value in accuracy.domains.items()]
    labels.append(("combined", accuracy.combined))
    width = max(len(label) for label, _ in labels)
    lines = [title]
    for label, value in labels:
        percent = "n/a" if value.percent is None else f"{value.percent:.2f}%"
        lines.append(f"  {label:<{width}}  {value.correct:>6}/{value.total:<6} {percent:>8}")
    return "\n".join(lines)


BLANK_DOMAIN = "(blank)"


def domain_label(domain: str) -> str:
    """A domain as the table shows it: `(blank)` for an empty one, quoted when whitespace
    surrounds it (`"Art "` is another domain than `Art`) or it could be read as a label."""
    if not domain:
        return BLANK_DOMAIN
    if domain != domain.strip() or domain in (BLANK_DOMAIN, "combined"):
        return json.dumps(domain, ensure_ascii=False)
    return domain


def _warn_input(path: Path, table: ResponsesTable) -> None:
    if not table.rows:
        print(f"warning: {path}: no data rows, only the header: nothing to score", file=sys.stderr)
    if table.csv.short_rows:
        _warn_rows(f"of {path} have fewer cells than the header (the missing cells read as empty)",
                   table.csv.short_rows)


def _warn(summary: QaSummary, judgments: Sequence[QaJudgment] | None) -> None:
    if summary.empty_golden_rows:
        _warn_rows("have an empty golden answer (no words), which scores correct", summary.empty_golden_rows)
    if summary.nfc_would_change_rows:
        _warn_rows("would get another verdict under --normalize nfc", summary.nfc_would_change_rows)
    if judgments is not None:
        failed = tuple(number for number, judgment in enumerate(judgments, start=1) if judgment.failed)
        if failed:
            _warn_rows("have no judge verdict (failed judgment, left out of its accuracy)", failed)
    if summary.judge is not None and summary.judge.temperature_refused:
        print(f"warning: the judge refused temperature 0: {summary.judge.temperature_refused}", file=sys.stderr)


def _warn_rows(what: str, rows: Sequence[int]) -> None:
    named = ", ".join(map(str, rows[:_ROWS_NAMED]))
    more = f" and {len(rows) - _ROWS_NAMED} more" if len(rows) > _ROWS_NAMED else ""
    where = f"data rows {named}{more} (1 = the first row after the header)"
    print(f"warning: {len(rows)} rows {what}: {where}", file=sys.stderr)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value
