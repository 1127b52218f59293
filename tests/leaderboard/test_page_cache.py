"""The page cache: one page per first view and address, static files once; kept only when safe to share,
bounded in bytes, compressed once and off the event loop.

A small Starlette app stands for Gradio's page and file routes and counts how often it is asked;
Gradio's own compression middleware sits outside the cache, as in the app.
"""

from __future__ import annotations

import asyncio
import gzip
import threading
from dataclasses import dataclass, field

import anyio.to_thread
import httpx
import pytest
from gradio.brotli_middleware import BrotliMiddleware
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from leaderboard import page_cache
from leaderboard.page_cache import PAGE_CACHE_BYTES, PageCache
from leaderboard.results import LruCache


@dataclass
class StubFirstView:
    generation: int = 1


@dataclass
class Counter:
    pages: int = 0


@dataclass
class Compressions:
    """Each compression of a kept answer: whether an event loop was running in the thread that made it."""

    on_event_loop: list[bool] = field(default_factory=list)


def page_app(first_view: StubFirstView, counter: Counter, answers: LruCache | None = None) -> Starlette:
    def page(request: Request) -> Response:
        counter.pages += 1
        if request.query_params.get("fail"):
            return HTMLResponse("broken", status_code=500)
        response = HTMLResponse(f"<p>page {counter.pages} for {request.headers['host']} {request.url.query}</p>")
        if request.query_params.get("login"):
            response.set_cookie("session", "secret")
        return response

    def other(_: Request) -> Response:
        counter.pages += 1
        return HTMLResponse("not the page")

    def static_file(request: Request) -> Response:
        counter.pages += 1
        return Response(f"file {request.url.path} " * 50, media_type="text/javascript")

    routes = [Route("/", page, methods=["GET", "HEAD"]), Route("/other", other),
              Route("/assets/{name}", static_file), Route("/static/fonts/{name}", static_file)]
    return Starlette(routes=routes, middleware=[Middleware(BrotliMiddleware, quality=4),
                                                Middleware(PageCache, first_view=first_view, answers=answers)])


def _event_loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def counter() -> Counter:
    return Counter()


@pytest.fixture
def first_view() -> StubFirstView:
    return StubFirstView()


@pytest.fixture
def client(first_view: StubFirstView, counter: Counter) -> TestClient:
    return TestClient(page_app(first_view, counter))


@pytest.fixture
def compressions(monkeypatch: pytest.MonkeyPatch) -> Compressions:
    seen = Compressions()
    compress = page_cache.compressed_forms

    def recorded(body: bytes) -> dict[str, bytes]:
        seen.on_event_loop.append(_event_loop_running())
        return compress(body)

    monkeypatch.setattr(page_cache, "compressed_forms", recorded)
    return seen


def test_the_page_is_built_once_per_first_view(client: TestClient, first_view: StubFirstView, counter: Counter) -> None:
    first = client.get("/").text
    assert [client.get("/").text for _ in range(5)] == [first] * 5
    assert counter.pages == 1

    first_view.generation = 2  # new results rendered: the page is built anew
    assert client.get("/").text != first
    assert counter.pages == 2


def test_each_host_has_its_own_page_and_every_query_string_shares_it(client: TestClient, counter: Counter) -> None:
    plain = client.get("/").text
    other_host = client.get("/", headers={"host": "board.example"}).text

    assert "board.example" in other_host and "board.example" not in plain
    assert client.get("/?tab=qa&model=acme__strong-7b/main").text == plain  # the browser reads the link
    assert counter.pages == 2


def test_visitors_behind_a_proxy_share_the_page(client: TestClient, counter: Counter) -> None:
    for visitor in ("203.0.113.7", "198.51.100.23", "192.0.2.99"):
        client.get("/", headers={"x-forwarded-for": visitor, "x-forwarded-host": "board.example"})
    assert counter.pages == 1


def test_nothing_is_kept_before_the_first_view_is_rendered(client: TestClient, first_view: StubFirstView,
                                                           counter: Counter) -> None:
    first_view.generation = 0
    client.get("/")
    client.get("/")
    assert counter.pages == 2


def test_errors_and_pages_that_set_a_cookie_are_never_shared(client: TestClient, counter: Counter) -> None:
    for _ in range(2):
        assert client.get("/?fail=1").status_code == 500
        assert "set-cookie" in client.get("/?login=1").headers
    assert counter.pages == 4


def test_each_browser_gets_the_page_in_the_best_encoding_it_accepts_compressed_once(client: TestClient) -> None:
    plain = client.get("/", headers={"accept-encoding": "identity"})
    zipped = client.get("/", headers={"accept-encoding": "gzip, deflate"})
    brotli_page = client.get("/", headers={"accept-encoding": "gzip, deflate, br"})

    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert brotli_page.headers["content-encoding"] == "br"
    assert zipped.text == brotli_page.text == plain.text  # the client decodes both
    assert int(zipped.headers["content-length"]) == len(gzip.compress(plain.content, compresslevel=6))
    assert brotli_page.headers["vary"] == "accept-encoding"


def test_static_files_are_kept_for_the_server_s_lifetime_and_fonts_are_not_compressed(
    client: TestClient, first_view: StubFirstView, counter: Counter,
) -> None:
    # Passed through (and compressed by the middleware outside), then kept.
    first = client.get("/assets/index-abc.js", headers={"accept-encoding": "br"})
    first_view.generation = 5  # a new first view does not touch the static files
    script = client.get("/assets/index-abc.js", headers={"accept-encoding": "br"})
    assert script.content == first.content
    client.get("/static/fonts/a.woff2")
    font = client.get("/static/fonts/a.woff2", headers={"accept-encoding": "br"})

    assert script.headers["content-encoding"] == "br"
    assert script.headers["cache-control"] == "public, max-age=31536000, immutable"  # a hashed build file
    assert "content-encoding" not in font.headers and "vary" not in font.headers
    assert "cache-control" not in font.headers
    assert counter.pages == 2
    assert "cache-control" not in client.get("/").headers  # the page changes with the results


def test_head_requests_get_headers_only_and_other_paths_pass_through(client: TestClient, counter: Counter) -> None:
    client.get("/")
    head = client.head("/", headers={"accept-encoding": "identity"})
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(client.get("/", headers={"accept-encoding": "identity"}).content)

    client.get("/other")
    client.get("/other")
    assert counter.pages == 3


def test_unique_query_strings_build_the_page_once_and_the_cache_stays_in_its_bytes(counter: Counter) -> None:
    answers: LruCache = LruCache(20_000, 5_000)
    client = TestClient(page_app(StubFirstView(), counter, answers))
    pages = {client.get(f"/?cachefill={n}").text for n in range(300)}
    assert len(pages) == 1 and counter.pages == 1

    for n in range(100):  # a page per Host header a visitor makes up: the oldest go
        client.get("/", headers={"host": f"board-{n}.example"})
    assert counter.pages == 101
    assert 0 < answers.weight <= 20_000 and len(answers) < 100


def test_the_cache_states_its_bound_in_bytes() -> None:
    cache = PageCache(page_app(StubFirstView(), Counter()), StubFirstView())
    assert cache.answers.size == PAGE_CACHE_BYTES == 64 * 1024 * 1024


def test_a_static_file_with_unique_query_strings_is_fetched_and_compressed_once(
    client: TestClient, counter: Counter, compressions: Compressions,
) -> None:
    bodies = {client.get(f"/assets/PlotlyPlot-D9Pvz5DK.js?v={n}", headers={"accept-encoding": "br"}).content
              for n in range(40)}
    assert len(bodies) == 1 and counter.pages == 1
    assert compressions.on_event_loop == [False]  # once, in a worker thread


def test_an_answer_too_large_to_keep_is_passed_on_whole_and_not_kept(counter: Counter) -> None:
    client = TestClient(page_app(StubFirstView(), counter, LruCache(4000, 1000)))  # keeps answers up to 1,000 B
    first, second = (client.get("/assets/a-long-name-for-a-large-script.js") for _ in range(2))
    assert first.content == second.content and len(first.content) > 1000
    assert counter.pages == 2


def test_visitors_asking_at_once_share_one_build(first_view: StubFirstView, counter: Counter,
                                                 compressions: Compressions) -> None:
    async def crowd() -> list[bytes]:
        transport = httpx.ASGITransport(app=page_app(first_view, counter))
        async with httpx.AsyncClient(transport=transport, base_url="http://board") as client:
            answers = await asyncio.gather(*(client.get(f"/assets/index-abc.js?v={n}") for n in range(20)))
        return [answer.content for answer in answers]

    assert len(set(asyncio.run(crowd()))) == 1
    assert counter.pages == 1 and compressions.on_event_loop == [False]


def test_other_requests_are_served_while_a_file_is_being_compressed(
    first_view: StubFirstView, counter: Counter, monkeypatch: pytest.MonkeyPatch,
) -> None:
    started, release = threading.Event(), threading.Event()
    compress = page_cache.compressed_forms

    def held(body: bytes) -> dict[str, bytes]:
        started.set()
        if not release.wait(30):  # a guard against a hang, not a timing assertion
            raise TimeoutError("the test never released the compression")
        return compress(body)

    async def visit() -> tuple[str, int]:
        transport = httpx.ASGITransport(app=page_app(first_view, counter))
        async with httpx.AsyncClient(transport=transport, base_url="http://board") as client:
            await client.get("/assets/theme-1.css")  # kept before the compression is held
            monkeypatch.setattr(page_cache, "compressed_forms", held)
            script = asyncio.create_task(client.get("/assets/PlotlyPlot-D9Pvz5DK.js"))
            assert await anyio.to_thread.run_sync(started.wait, 30)
            other, style = await client.get("/other"), await client.get("/assets/theme-1.css")
            served_meanwhile = other.status_code == style.status_code == 200 and not script.done()
            release.set()
            return (await script).text, served_meanwhile

    text, served_meanwhile = asyncio.run(visit())
    assert served_meanwhile and text.startswith("file /assets/PlotlyPlot-D9Pvz5DK.js")
