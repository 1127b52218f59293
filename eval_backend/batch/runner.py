"""Judging a run folder through batches, in rounds, until nothing is owed.

A round collects every batch in flight (polling until each is done), then submits what is
still owed: new judge calls, follow-ups of invalid answers and failed requests (or sends the
follow-ups live, with `JUDGE_BATCH_RETRY=live`), and what an expired or cancelled batch never
ran. Resuming is the same loop: a batch the ledger holds is polled, never submitted again.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
from itertools import chain
from pathlib import Path
from typing import Any, Iterable, Iterator

from openai.types import Batch

from eval_backend.batch.api import TERMINAL, BatchAPI
from eval_backend.batch.input_files import BatchRequest, request_line, write_input_files
from eval_backend.batch.ledger import BatchLedger, Carry, LedgerState, SubmittedFile
from eval_backend.batch.outcomes import batch_failed, settle
from eval_backend.batch.results import LineResult, read_results
from eval_backend.judge_calls import JudgeCall, VerdictBook, parse_call_id
from eval_backend.judge_client import JudgeClient, JudgeClients, JudgeOutcome
from eval_backend.judging import JudgingProgress, ProgressCallback
from eval_backend.records import sha256_text, to_json_dict
from eval_backend.run_folder import RunFolder
from eval_backend.settings import JudgeSettings

logger = logging.getLogger(__name__)


def judge_in_batches(
    book: VerdictBook,
    folder: RunFolder,
    settings: JudgeSettings,
    on_progress: ProgressCallback | None = None,
    retry_failed: bool = False,
) -> JudgingProgress:
    """Judge what `book` owes through the Batch API; returns the totals.

    The book is the folder's verdicts, in its benchmark's line shape (WritingBench's judgments,
    the others' scores): every judge scorer goes through this one path. Blocks until
    every batch is done (up to the provider's 24 h window), polling every
    `JUDGE_BATCH_POLL_S` seconds; killed, it resumes from the ledger in the run folder.
    """
    return asyncio.run(_BatchJudging(book, folder, settings, on_progress, retry_failed).run())


class _BatchJudging:
    def __init__(
        self,
        book: VerdictBook,
        folder: RunFolder,
        settings: JudgeSettings,
        on_progress: ProgressCallback | None,
        retry_failed: bool,
    ) -> None:
        self.book, self.folder = book, folder
        self.settings, self.on_progress, self.retry_failed = settings, on_progress, retry_failed
        self.ledger = BatchLedger(folder)
        self.progress = JudgingProgress(total=0)
        # Keyed by (judge model, custom_id): a custom_id names the call, not the judge, and a run resumed
        # with another JUDGE_MODEL collects the old judge's batches and still owes the new judge its calls.
        self.written: set[tuple[str, str]] = set()  # judged for good in this call: never planned again
        self.counted: set[tuple[str, str]] = set()  # in the progress total: a follow-up is the same judgment
        self.clients = JudgeClients(settings)
        self.sent_with_temperature: set[str] = set()  # custom_ids this process sent with a temperature

    def client(self, part: str) -> JudgeClient:
        """The client of a part's temperature: it builds the request bodies, sends follow-ups live and keeps
        a judge's refusal of the temperature (each temperature has its own record of it, as live)."""
        return self.clients.at(self.book.judge(part).temperature)

    async def run(self) -> JudgingProgress:
        self.api = BatchAPI(self.settings)
        try:
            with self.book.appender() as appender:
                self.appender = appender
                state = self.ledger.read()
                self._count((entry.judge_model, cid) for entry in state.in_flight() for cid, _ in entry.requests)
                while True:
                    await self._finish_in_flight(state)
                    if not await self._submit_owed(self.ledger.read()):
                        break
                    state = self.ledger.read()
        finally:
            await self.api.close()
            await self.clients.close()
        return self.progress

    # -- collecting ------------------------------------------------------------------------

    async def _finish_in_flight(self, state: LedgerState) -> None:
        """Poll every batch in flight until it is done, collecting each as it finishes."""
        waiting: dict[str, SubmittedFile] = {}
        for entry in state.in_flight():
            if entry.batch_id is None:  # uploaded, then killed before the batch id was recorded
                entry.batch_id = await self.api.find(entry.file_id) or await self.api.create(entry.file_id)
                self.ledger.created(entry.file_id, entry.batch_id)
            waiting[entry.batch_id] = entry
        while waiting:
            for batch_id, entry in list(waiting.items()):
                batch = await self.api.retrieve(batch_id)
                if batch.status in TERMINAL:
                    await self._collect(entry, batch, state.carry)
                    del waiting[batch_id]
                else:
                    counts = batch.request_counts
                    logger.info("batch %s: %s (%s of %d requests done)", batch_id, batch.status,
                                counts.completed + counts.failed if counts else "?", len(entry.requests))
            if waiting:
                await asyncio.sleep(self.settings.batch_poll_s)

    async def _collect(self, entry: SubmittedFile, batch: Batch, carried: dict[tuple[str, str], Carry]) -> None:
        """Turn a finished batch's results into judgments or carries, then record it collected."""
        logger.info("batch %s %s; collecting its results", entry.batch_id, batch.status)
        prompt_shas = dict(entry.requests)
        already = self._judged_since(entry)  # a collection interrupted after writing some of them
        final: list[str] = []
        carry: dict[str, Carry] = {}
        with tempfile.TemporaryDirectory(prefix="wb-batch-results-") as tmp:
            for result in await self._results(batch, entry, Path(tmp)):
                previous = carried.get((entry.judge_model, result.custom_id), Carry())
                part = parse_call_id(result.custom_id)[2]
                if self._refused_for_temperature(result, part):
                    result = LineResult(result.custom_id, unfinished=True)  # sent again without it, no attempt used
                outcome = settle(result, previous, self.settings.invalid_answer_attempts, self.book.judge(part).parse)
                if isinstance(outcome, Carry):
                    carry[result.custom_id] = outcome
                    continue
                final.append(result.custom_id)
                if result.custom_id not in already:
                    self._write(result.custom_id, entry.judge_model, outcome, prompt_shas[result.custom_id])
        self.ledger.collected(entry.file_id, batch.status, final, carry)

    def _refused_for_temperature(self, result: LineResult, part: str) -> bool:
        """Whether the judge refused a line for its temperature (reasoning models take only their default).

        As live, the refusal is learned for the rest of the run: later lines go without a temperature.
        A line sent without one (known to this process) is never excused so, or it would be sent forever.
        """
        client = self.client(part)
        if client.temperature is None or result.status_code != 400 or "temperature" not in (result.error or ""):
            return False
        if client.temperature_refused is None:
            client.temperature_refused = result.error
            logger.warning("the judge refuses temperature %s; judging at its default: %s", client.temperature, result.error)
            return True
        return result.custom_id in self.sent_with_temperature

    async def _results(self, batch: Batch, entry: SubmittedFile, tmp: Path) -> Iterator[LineResult]:
        """Each request's result, once: from the output and error files, else never run (or the batch failed)."""
        expected = dict(entry.requests)
        paths = []
        for name, file_id in (("output", batch.output_file_id), ("error", batch.error_file_id)):
            if file_id:
                paths.append(tmp / f"{name}.jsonl")
                await self.api.download(file_id, paths[-1])
        return self._each_once(paths, expected, batch)

    def _each_once(self, paths: list[Path], expected: dict[str, str], batch: Batch) -> Iterator[LineResult]:
        seen: set[str] = set()
        for path in paths:
            for result in read_results(path):
                if result.custom_id in expected and result.custom_id not in seen:
                    seen.add(result.custom_id)
                    yield result
        failed = batch.status == "failed"
        reason = _batch_errors(batch)
        for custom_id in expected:
            if custom_id not in seen:
                yield batch_failed(custom_id, reason) if failed else LineResult(custom_id, unfinished=True)

    def _judged_since(self, entry: SubmittedFile) -> set[str]:
        return self.book.written_since(entry.judge_model, entry.uploaded_at)

    def _write(self, custom_id: str, judge_model: str, outcome: JudgeOutcome[Any], prompt_sha256: str) -> None:
        temperature = self.client(parse_call_id(custom_id)[2]).sent_temperature
        line = self.book.verdict_line(custom_id, judge_model, outcome, prompt_sha256, temperature)
        if line is None:
            logger.warning("batch answer for %s has no item in %s; not recorded", custom_id, self.folder.items_path)
            return
        self.appender.append(to_json_dict(line))
        self.written.add((judge_model, custom_id))
        self.progress.record(line)
        if self.on_progress:
            self.on_progress(self.progress)

    def _count(self, calls: Iterable[tuple[str, str]]) -> None:
        fresh = set(calls) - self.counted
        self.counted |= fresh
        self.progress.total += len(fresh)

    # -- submitting ------------------------------------------------------------------------

    async def _submit_owed(self, state: LedgerState) -> int:
        """Upload and start batches for everything still owed; returns how many calls were sent."""
        model = self.settings.model
        in_flight = state.in_flight_ids(model)
        carry = {cid: value for (owner, cid), value in state.carry.items() if owner == model}
        live: list[tuple[JudgeCall, Carry]] = []
        sent = 0
        with tempfile.TemporaryDirectory(prefix="wb-batch-input-") as tmp:
            requests = self._requests(in_flight, carry, live)
            for input_file in write_input_files(requests, self.api.route, Path(tmp)):
                file_id = await self.api.upload(input_file.path)
                self.ledger.uploaded(file_id, model, input_file.requests)
                input_file.path.unlink()
                batch_id = await self.api.create(file_id)
                self.ledger.created(file_id, batch_id)
                logger.info("batch %s: %d judge calls submitted", batch_id, len(input_file.requests))
                sent += len(input_file.requests)
                self._count((model, cid) for cid, _ in input_file.requests)
        self.retry_failed = False  # asked of the verdicts on disk at the start, not of this run's own
        if live:
            self._count((model, call.call_id) for call, _ in live)
            await self._judge_live(live)
        return sent + len(live)

    def _requests(self, in_flight: set[str], carry: dict[str, Carry], live: list[tuple[JudgeCall, Carry]]) -> Iterator[BatchRequest]:
        """The batch lines of the calls owed, in the book's order; follow-ups go to `live` when asked."""
        model = self.settings.model
        for call in chain.from_iterable(self.book.owed(model, self.retry_failed)):
            custom_id = call.call_id
            if custom_id in in_flight or (model, custom_id) in self.written:
                continue
            previous = carry.get(custom_id, Carry())
            if previous.attempts and self.settings.batch_retry == "live":
                live.append((call, previous))
                continue
            messages = call.messages()
            body = self.client(call.part).request_body(messages)
            if "temperature" in body:
                self.sent_with_temperature.add(custom_id)
            yield BatchRequest(custom_id, sha256_text(messages[-1]["content"]),
                               request_line(custom_id, self.api.route.url, body))

    async def _judge_live(self, follow_ups: list[tuple[JudgeCall, Carry]]) -> None:
        """Send follow-ups as live calls with the attempts they have left (the client bounds calls in flight)."""
        async def one(call: JudgeCall, carry: Carry) -> None:
            messages = call.messages()
            client = self.client(call.part)
            outcome = await client.judge(messages, self.book.judge(call.part).parse, attempts_used=carry.attempts)
            combined = JudgeOutcome(outcome.verdict, outcome.attempts, carry.usage + outcome.usage,
                                    outcome.raw_text if outcome.raw_text is not None else carry.raw_text,
                                    outcome.error, outcome.error_kind)
            self._write(call.call_id, client.model, combined, sha256_text(messages[-1]["content"]))

        await asyncio.gather(*(one(call, carry) for call, carry in follow_ups))


def _batch_errors(batch: Batch) -> str:
    errors = (batch.errors.data if batch.errors else None) or []
    described = "; ".join(f"{e.code}: {e.message}" if e.code else str(e.message) for e in errors)
    return described or f"status {batch.status}"
