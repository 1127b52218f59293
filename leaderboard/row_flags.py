"""Flags on a ranked row, for every benchmark: what a reader must know before trusting its number.

A run is flagged when more than CUT_OFF_SHARE of its answered items were cut off in thinking, when another judge
than the board's judged it, when it has fewer than MIN_ITEMS_PER_CONFIG items per config on average (one item per
language gives the interval "5.24 – 5.24": it is not shown as a number), or when a newer dataset revision is on
the board. The board's judge is the one most of its runs used (ties: the configured judge), so one stray run
stands out wherever the board runs. A fact a run did not record raises no flag.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Collection, Iterable, Mapping, Sequence

from leaderboard.display import linked_markdown
from leaderboard.run_shape import as_mapping, whole_number

CUT_OFF_SHARE = 0.05
"""Above this share of answered items cut off inside its thinking, a run is flagged (5 %)."""
MIN_ITEMS_PER_CONFIG = 5
"""Below this mean number of covered items per config, a run's interval is not read as one."""
ABOUT_ADDRESS = "?tab=about"
"""Where a badge links: the About tab, whose "Flags on rows" section explains each flag."""


@dataclass(frozen=True)
class Flag:
    """One kind of warning: its code (in links and filters), the badge people read, what it means."""

    code: str
    badge: str
    explanation: str


CUT_OFF = Flag("cut_off", "⚠ cut off", f"More than {CUT_OFF_SHARE:.0%} of the answered items ended inside "
               "the model's thinking (its think block never closed): its scores rest on unfinished answers.")
OTHER_JUDGE = Flag("other_judge", "⚠ other judge", "Judged by another judge than the one most of this board's "
                   "runs used: its scores are on another judge's scale.")
FEW_ITEMS = Flag("few_items", "⚠ few items", f"Fewer than {MIN_ITEMS_PER_CONFIG} items per config (language or "
                 "task) on average: its interval says nothing, so it is not shown as a number.")
OLD_DATASET = Flag("old_dataset", "⚠ older dataset", "Run on an older revision of the dataset than the newest on "
                   "the board: some items may differ from the other runs'.")
FLAGS: Mapping[str, Flag] = {flag.code: flag for flag in (CUT_OFF, OTHER_JUDGE, FEW_ITEMS, OLD_DATASET)}
FEW_ITEMS_INTERVAL = "too few items"
"""What the interval cell reads for a run flagged `few_items`."""


@dataclass(frozen=True)
class RunFacts:
    """What the flags read of one run (any benchmark); None where the run did not record it."""

    covered_items: int | None
    configs: int | None
    unclosed_thinking: int | None
    judge_model: str | None
    dataset_outdated: bool = False


def run_facts(summary: Mapping[str, Any], dataset_outdated: bool = False) -> RunFacts:
    """The facts of a run's summary.json (`coverage`, `counts.unclosed_thinking`, `provenance.judge_model`)."""
    coverage, counts = as_mapping(summary.get("coverage")), as_mapping(summary.get("counts"))
    scored, no_response = whole_number(coverage.get("scored")), whole_number(coverage.get("no_response"))
    covered = None if scored is None else scored + (no_response or 0)
    return RunFacts(covered, whole_number(coverage.get("configs")), whole_number(counts.get("unclosed_thinking")),
                    _text(as_mapping(summary.get("provenance")).get("judge_model")), bool(dataset_outdated))


@dataclass(frozen=True)
class DatasetPin:
    """The dataset a run was evaluated on, the revision it resolved and when (request.json); None: not recorded."""

    dataset: str | None
    revision: str | None
    resolved_at: str | None


def dataset_pin(request: Mapping[str, Any]) -> DatasetPin:
    """The dataset pin a run's request.json records (`dataset`, `dataset_revision`, `dataset_resolved_at`)."""
    return DatasetPin(*(_text(request.get(name)) for name in ("dataset", "dataset_revision", "dataset_resolved_at")))


def outdated(pins: Sequence[DatasetPin]) -> list[bool]:
    """Per run, whether another run of its dataset resolved a newer revision than its own: the revision most
    recently resolved by any run is the one runs should be on."""
    newest: dict[str, tuple[str, str]] = {}
    for pin in pins:
        if pin.dataset and pin.revision and pin.resolved_at and pin.resolved_at > newest.get(pin.dataset, ("", ""))[0]:
            newest[pin.dataset] = (pin.resolved_at, pin.revision)
    return [bool(pin.revision) and newest.get(pin.dataset or "", (None, None))[1] not in (None, pin.revision)
            for pin in pins]


def board_flags(facts: Sequence[RunFacts], configured_judge: str = "") -> list[str]:
    """Each run's flags as codes (`flag_codes`), on a board of exactly these runs (its judge: `board_judge`)."""
    judge = board_judge((fact.judge_model for fact in facts), configured_judge)
    return [flag_codes(row_flags(fact, judge)) for fact in facts]


def board_judge(judges: Iterable[str | None], configured: str = "") -> str:
    """The judge most of the board's runs used; on a tie (or no run) the configured one when it is among them."""
    counted = Counter(judge for judge in judges if judge)
    if not counted:
        return configured
    most = max(counted.values())
    leaders = sorted(judge for judge, count in counted.items() if count == most)
    return configured if configured in leaders else leaders[0]


def row_flags(facts: RunFacts, judge: str) -> tuple[Flag, ...]:
    """The flags of one run on a board whose judge is `judge` (unknown facts raise none)."""
    flags, covered = [], facts.covered_items
    if facts.unclosed_thinking and covered and facts.unclosed_thinking > CUT_OFF_SHARE * covered:
        flags.append(CUT_OFF)
    if judge and facts.judge_model and facts.judge_model != judge:
        flags.append(OTHER_JUDGE)
    if covered is not None and facts.configs and covered < MIN_ITEMS_PER_CONFIG * facts.configs:
        flags.append(FEW_ITEMS)
    if facts.dataset_outdated:
        flags.append(OLD_DATASET)
    return tuple(flags)


def flag_codes(flags: Iterable[Flag]) -> str:
    """The flags as one text cell of codes (`cut_off,few_items`), the form tables and CSVs keep."""
    return ",".join(flag.code for flag in flags)


def parse_codes(codes: object) -> tuple[Flag, ...]:
    """The flags named in a `flag_codes` cell (unknown codes and anything but text dropped)."""
    if not isinstance(codes, str):
        return ()
    return tuple(FLAGS[code] for code in codes.split(",") if code in FLAGS)


def too_few_items(codes: object) -> bool:
    """Whether a `flag_codes` cell says the run has too few items for an interval to mean anything: every board
    then reads FEW_ITEMS_INTERVAL in place of the interval's numbers."""
    return FEW_ITEMS in parse_codes(codes)


def is_hidden(codes: object, hide: Collection[str]) -> bool:
    """Whether a row whose flags are `codes` (a `flag_codes` cell) is left out when the flags `hide` are hidden."""
    return any(flag.code in hide for flag in parse_codes(codes))


def badges_markdown(codes: object) -> str:
    """The badges of a `flag_codes` cell as markdown: each a link to About's explanation, explained on hover."""
    return " ".join(linked_markdown(flag.badge, ABOUT_ADDRESS, flag.explanation) for flag in parse_codes(codes))


def about_markdown(boards: Sequence[str] = ()) -> str:
    """About's section on the flags: each badge and what it means, on every board named in `boards`."""
    lines = "\n".join(f"- **{flag.badge}** (`{flag.code}`): {flag.explanation}" for flag in FLAGS.values())
    where = f" ({', '.join(boards)})" if boards else ""
    return (f"## Flags on rows\nEvery benchmark's ranking{where} flags its rows by the same rules:\n{lines}\n\n"
            "The board's judge is the judge most of that benchmark's runs were scored by (a tie: the configured "
            "`JUDGE_MODEL`); a run scored by rules alone has no judge to differ. The items cut off in thinking "
            "are counted from each reply as it was generated, and the dataset revision and when it was resolved "
            "from the run's request; a run that did not record a fact (scored before it was recorded) is not "
            "flagged for it. A flagged run is still ranked; each board's filters (Hide rows flagged) leave out "
            "the rows with any flag chosen, and a shared link keeps that choice.")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None
