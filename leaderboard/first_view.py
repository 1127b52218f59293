"""The first view, prerendered into the page: a plain first visit sends no event to the server.

What a visitor sees before touching anything is what the page's own events would render for
it: the results-version change events, and the change and `.then` events their outputs set
off (choosing the best model in Judgments loads its items). `FirstView.refresh` runs exactly
those events, once per state of the results, through Gradio's own `process_api` (the same
preprocessing, callbacks and postprocessing a browser's call gets), and writes their outputs
into the config Gradio puts in the page. Events registered with `keep_live` (the queue tables)
are re-rendered on every refresh. `PageCache` (`leaderboard.page_cache`) then serves the
page's bytes to every visitor until the next change, so a crowd costs one render, not one
per visitor. A shared link (`?tab=…&q=…`) reaches its view through the page-link events,
which ask the server only for what the link changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, AsyncIterator, Callable, Iterable

import gradio as gr
from gradio.block_function import BlockFunction
from gradio.state_holder import SessionState

logger = logging.getLogger(__name__)

MAX_CHAIN = 64
"""Events one refresh may run; a cycle of change events is cut here instead of looping forever."""


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

    def keep_live(self, dependency: Any) -> None:
        """Re-render this event's outputs on every refresh, not only when the results change."""
        self._live.append(dependency["id"])

    async def refresh(self) -> bool:
        """Render what changed since the last refresh into the page config; True when the page changed.

        Called by one task at a time (the server's start, then `keep_fresh`).
        """
        version = await asyncio.to_thread(self.current_version)
        starters = list(self._live)
        if version != self.rendered_version:
            self._apply(self.version, version)
            starters = self._triggered_by(self.version._id, "change") + starters
        changed = await self._run_chain(starters)
        if version != self.rendered_version or changed:
            self.rendered_version = version
            self.generation += 1
            return True
        return False

    async def keep_fresh(self, period_s: float) -> None:
        """Refresh every `period_s` seconds until cancelled; a failed refresh is logged and retried."""
        while True:
            await asyncio.sleep(period_s)
            try:
                await self.refresh()
            except Exception:  # the board must keep serving the last good first view
                logger.exception("could not refresh the prerendered first view")

    def lifespan(self, period_s: float) -> Callable[[Any], contextlib.AbstractAsyncContextManager[None]]:
        """A server lifespan: render the first view before the first request, then keep it fresh."""

        @contextlib.asynccontextmanager
        async def run(_app: Any) -> AsyncIterator[None]:
            await self.refresh()
            task = asyncio.create_task(self.keep_fresh(period_s))
            try:
                yield
            finally:
                task.cancel()

        return run

    async def _run_chain(self, starters: Iterable[int]) -> bool:
        """Run events as the browser would after them: a changed output fires its change events.

        The chain runs in one session, as one page's events would, so a state one event sets
        is the state the next one reads.
        """
        pending = list(starters)
        session = SessionState(self.demo)
        changed_any = False
        for _ in range(MAX_CHAIN):
            if not pending:
                return changed_any
            fn = self.demo.fns[pending.pop(0)]
            try:
                changed = await self._render(fn, session)
            except Exception:  # the browser would show this event's error; the page keeps the rest
                logger.warning("first view: event %r failed; its outputs are left to the browser", fn.name,
                               exc_info=True)
                continue
            changed_any = changed_any or bool(changed)
            pending += [i for block_id in changed for i in self._triggered_by(block_id, "change")]
            pending += [other._id for other in self.demo.fns.values() if other.trigger_after == fn._id and other.fn]
        logger.warning("first view: more than %d chained events; the rest are left to the browser", MAX_CHAIN)
        return changed_any

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

    def _triggered_by(self, block_id: int, event: str) -> list[int]:
        """The server-side events fired by `event` on block `block_id`, in the order they were declared."""
        return [fn._id for fn in self.demo.fns.values()
                if fn.fn is not None and any(target == (block_id, event) for target in fn.targets)]

    def _props(self, block: Any) -> dict[str, Any]:
        return self._configs()[block._id].setdefault("props", {})

    def _configs(self) -> dict[int, dict[str, Any]]:
        return {component["id"]: component for component in self.demo.config["components"]}

    def _value(self, block: Any) -> Any:
        return self._props(block).get("value")

    def _apply(self, block: Any, output: Any) -> None:
        """Write one event output (a value or an update) into the page config and the server's defaults.

        The server side matters too: a new session checks a dropdown's choice against the
        block's own `choices`, so a prerendered list of choices must be the block's as well.
        """
        component = self._configs()[block._id]
        props = dict(component.get("props", {}))
        if isinstance(output, dict) and output.get("__type__") == "update":
            updates = {key: value for key, value in output.items() if key != "__type__"}
        else:
            updates = {"value": output}
        props.update(updates)
        component["props"] = props  # one reference swap: a page being copied sees the old or the new props
        for key, value in updates.items():
            if key != "value" and hasattr(block, key):
                with contextlib.suppress(AttributeError):  # a read-only property is the page's alone
                    setattr(block, key, value)
