"""A run's coverage against its dataset, and whether it may be published: the same rule for every benchmark.

Each item of a run ends in one of the four outcomes of `eval_backend.item_status`; coverage counts
them against the dataset's item count per config as recorded at prepare time, so an item the run
never reached is pending, not absent.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from eval_backend.item_status import FAILED, NO_RESPONSE, SCORED


@dataclass(frozen=True)
class Coverage:
    """How much of the benchmark a run covers: `expected` = scored + failed + no_response + pending.

    `expected` counts the dataset's items in the run's configs (all of them, whatever a
    `--limit`), `configs` the run's configs and `dataset_configs` the dataset's.
    """

    expected: int = 0
    scored: int = 0
    failed: int = 0
    no_response: int = 0
    pending: int = 0
    configs: int = 0
    dataset_configs: int = 0

    @property
    def complete(self) -> bool:
        """Every expected item has a score (a judged one, or the floor for no answer)."""
        return self.expected > 0 and self.scored + self.no_response == self.expected

    @property
    def partial(self) -> bool:
        """The run covers only some of the dataset's configs."""
        return self.configs < self.dataset_configs


def coverage_of(
    outcomes: Iterable[tuple[str, str]], expected: Mapping[str, int] | None, dataset_configs: Sequence[str] | None
) -> Coverage:
    """The coverage of a run from each of its items' (config, status), for every benchmark.

    `expected` is the dataset's item count per config as recorded at prepare time and
    `dataset_configs` every config of the dataset; without them (folders from before they
    were recorded) the run's own items and configs stand in.
    """
    by_status: dict[str, int] = defaultdict(int)
    run_configs: set[str] = set()
    for config, status in outcomes:
        by_status[status] += 1
        run_configs.add(config)
    configs = run_configs | set(expected or ())
    total = sum(expected.values()) if expected else sum(by_status.values())
    done = by_status[SCORED] + by_status[FAILED] + by_status[NO_RESPONSE]
    return Coverage(
        expected=total,
        scored=by_status[SCORED],
        failed=by_status[FAILED],
        no_response=by_status[NO_RESPONSE],
        pending=max(total - done, 0),
        configs=len(configs),
        dataset_configs=len(dataset_configs) if dataset_configs else len(configs),
    )


def unfinished_reason(coverage: Coverage, run_pending: int, *, limited: bool = False) -> str | None:
    """Why a run may not be published as finished, with its counts; None when it may (any benchmark).

    A run is finished when it is complete. A run asked for only the first items of each
    config (`limited`, a smoke deployment) can never be complete: it is finished when none
    of its own items is failed or pending (`run_pending`), and is never ranked.
    """
    settled = coverage.failed == 0 and run_pending == 0
    if settled and (coverage.complete or limited):
        return None
    return (
        f"incomplete run: {coverage.scored + coverage.no_response} of {coverage.expected} items scored "
        f"({coverage.failed} with a failed judgment, {coverage.pending} pending, "
        f"{coverage.no_response} without an answer)"
    )
