"""The first view, prerendered into the page: a plain first visit sends no event to the server.

`FirstView.refresh` runs the events a page would run by itself (the results-version change events and the change
and `.then` events their outputs set off), once per state of the results, through Gradio's own `process_api`, and
writes their outputs into the config Gradio puts in the page; `PageCache` serves that page to every visitor until
the next change, so a crowd costs one render. A shared link reaches its view through the page-link events.

The server binds first and renders after (`lifespan`; Gradio gives its server five seconds to start). Until the
first render is done, blocks registered with `reflect` (`leaderboard.board_readiness`) say how far it is. A failed
render never stops the server: it is logged, named on the page, and tried again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable, Iterable

import gradio as gr
from gradio.block_function import BlockFunction
from gradio.state_holder import SessionState

logger = logging.getLogger(__name__)

MAX_CHAIN = 64
"""Events one refresh may run; a cycle of change events is cut here instead of looping forever."""
MAX_PROBLEM_CHARS = 300
"""Characters of one failure's message kept for the page and the log line (an exception may quote any input)."""


@dataclass(frozen=True)
class Readiness:
    """Where the first view stands: `ready_s` (seconds the first render took; None until it is done), and the
    problems of the last render (an event that failed, or the render itself), each a short line."""

    waited_s: float
    ready_s: float | None
    problems: tuple[str, ...]


class FirstView:
    """The page's first view: rendered once per state of the results, served to every visitor.

    `generation` counts the renders that changed the page; a cached page is valid for one
    generation (0: nothing rendered yet, so nothing may be cached).
    """

    def __init__(self, demo: gr.Blocks, version: gr.components.Component, current_version: Callable[[], str]):
        self.demo = demo
        self.version = version
        self.current_version = current_version
        self.generation = 0
        self.rendered_version: str | None = None
        self._live: list[int] = []
        self._reflected: list[tuple[Any, Callable[[], Any]]] = []
        self._started = time.monotonic()
        self._ready_s: float | None = None
        self._event_problems: tuple[str, ...] = ()  # events of the last full render (and live ones) that failed
        self._refresh_problem: str | None = None  # why the last refresh failed as a whole, if it did

    def keep_live(self, dependency: Any) -> None:
        """Re-render this event's outputs on every refresh, not only when the results change."""
        self._live.append(dependency["id"])

    def reflect(self, block: Any, value: Callable[[], Any]) -> None:
        """Write `value()` (a value or an update) into `block`'s page value after every render, failed ones too."""
        self._reflected.append((block, value))

    @property
    def readiness(self) -> Readiness:
        """How long the first render took (or has been running), and what the last render could not do."""
        return Readiness(time.monotonic() - self._started, self._ready_s, self._problems)

    @property
    def _problems(self) -> tuple[str, ...]:
        return self._event_problems + ((self._refresh_problem,) if self._refresh_problem else ())

    async def refresh(self) -> bool:
        """Render what changed since the last refresh into the page config; True when the page changed (called
        by one task at a time, `keep_fresh`)."""
        version = await asyncio.to_thread(self.current_version)
        full = version != self.rendered_version
        changed, failures = await self._run_chain((self._changes_of(self.version._id) if full else []) + self._live)
        before = self._problems
        # A full render says which events fail now; a refresh of the live events only adds to that.
        self._event_problems = failures if full else tuple(dict.fromkeys(self._event_problems + failures))
        self._refresh_problem = None
        if full or changed or self._problems != before:
            # The version goes into the page last: a page served while the events ran holds the old one,
            # so the version its timer learns later is news to it, and its own change events draw the board.
            self._apply(self.version, version)
            self.rendered_version = version
            if self._ready_s is None:
                self._ready_s = time.monotonic() - self._started
            self._show_readiness()
            self.generation += 1
            return True
        return False

    async def keep_fresh(self, period_s: float) -> None:
        """Render now, then refresh every `period_s` seconds until cancelled; a failed refresh is logged, named
        on the page and retried."""
        while True:
            first = self._ready_s is None
            try:
                await self.refresh()
            except Exception as exc:  # the board must keep serving (the last good first view, if any)
                logger.exception("could not render the board's first view; trying again in %.0f s", period_s)
                self._name_problem(_problem("the board", exc))
            if first and self._ready_s is not None:
                logger.info("board ready: first view rendered %.1f s after start%s", self._ready_s,
                            f" ({len(self._problems)} part(s) failed)" if self._problems else "")
            await asyncio.sleep(period_s)

    def lifespan(self, period_s: float) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
        """A server lifespan: serve at once; render the first view in the background, then keep it fresh."""

        @contextlib.asynccontextmanager
        async def run(_app: Any) -> AsyncIterator[None]:
            self._started = time.monotonic()
            logger.info("serving; rendering the board's first view in the background")
            task = asyncio.create_task(self.keep_fresh(period_s))
            try:
                yield
            finally:
                task.cancel()

        return run

    def _name_problem(self, problem: str) -> None:
        """Put why a refresh failed on the page, the page kept from the last good render too."""
        if problem != self._refresh_problem:
            self._refresh_problem = problem
            self._show_readiness()
            if self.generation:
                self.generation += 1

    def _show_readiness(self) -> None:
        for block, value in self._reflected:
            self._apply(block, value())

    async def _run_chain(self, starters: Iterable[int]) -> tuple[bool, tuple[str, ...]]:
        """Run events as the browser would after them (a changed output fires its change events), in one session
        as one page's events would run: whether an output changed, and a line for each event that failed."""
        pending = list(starters)
        session = SessionState(self.demo)
        changed_any = False
        failures: list[str] = []
        for _ in range(MAX_CHAIN):
            if not pending:
                return changed_any, tuple(failures)
            fn = self.demo.fns[pending.pop(0)]
            try:
                changed = await self._render(fn, session)
            except Exception as exc:  # the browser would show this event's error; the page keeps the rest
                logger.warning("first view: event %r failed; its outputs are left to the browser", fn.name,
                               exc_info=True)
                failures.append(_problem(f"event {fn.name!r}", exc))
                continue
            changed_any = changed_any or bool(changed)
            pending += [i for block_id in changed for i in self._changes_of(block_id)]
            pending += [other._id for other in self.demo.fns.values() if other.trigger_after == fn._id and other.fn]
        logger.warning("first view: more than %d chained events; the rest are left to the browser", MAX_CHAIN)
        return changed_any, tuple(failures)

    async def _render(self, fn: BlockFunction, session: SessionState) -> list[int]:
        """Run one event on the page's current values; the ids of the outputs whose value changed."""
        inputs = [self._value(block) for block in fn.inputs]
        result = await self.demo.process_api(fn, inputs, state=session)
        changed = []
        for block, output in zip(fn.outputs, result["data"]):
            before = self._value(block)
            self._apply(block, output)
            if self._value(block) != before:
                changed.append(block._id)
        return changed

    def _changes_of(self, block_id: int) -> list[int]:
        """The server-side events a change of block `block_id` fires, in the order they were declared."""
        return [fn._id for fn in self.demo.fns.values() if fn.fn is not None and (block_id, "change") in fn.targets]

    def _configs(self) -> dict[int, dict[str, Any]]:
        return {component["id"]: component for component in self.demo.config["components"]}

    def _value(self, block: Any) -> Any:
        return self._configs()[block._id].get("props", {}).get("value")

    def _apply(self, block: Any, output: Any) -> None:
        """Write one event output (a value or an update) into the page config and the server's defaults (a new
        session checks a dropdown's choice against the block's own `choices`)."""
        component = self._configs()[block._id]
        props = dict(component.get("props", {}))
        is_update = isinstance(output, dict) and output.get("__type__") == "update"
        updates = {key: value for key, value in output.items() if key != "__type__"} if is_update else {"value": output}
        props.update(updates)
        component["props"] = props  # one reference swap: a page being copied sees the old or the new props
        for key, value in updates.items():
            if key != "value" and hasattr(block, key):
                with contextlib.suppress(AttributeError):  # a read-only property is the page's alone
                    setattr(block, key, value)


def _problem(what: str, exc: BaseException) -> str:
    """One line naming what failed and why, at most MAX_PROBLEM_CHARS characters."""
    cause = exc.__cause__ or exc  # Gradio wraps an event's exception: its cause is what went wrong
    line = f"{what} failed: {type(cause).__name__}: {cause}".replace("\n", " ")
    return line if len(line) <= MAX_PROBLEM_CHARS else line[: MAX_PROBLEM_CHARS - 1] + "…"
