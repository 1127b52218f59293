"""The page cache: one page per first view and address, static files once; kept only when safe to share.

A small Starlette app stands for Gradio's page and file routes and counts how often it is asked;
Gradio's own compression middleware sits outside the cache, as in the app.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

import pytest
from gradio.brotli_middleware import BrotliMiddleware
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from leaderboard.page_cache import PageCache


@dataclass
class StubFirstView:
    generation: int = 1


@dataclass
class Counter:
    pages: int = 0


def page_app(first_view: StubFirstView, counter: Counter) -> Starlette:
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
                                                Middleware(PageCache, first_view=first_view)])


@pytest.fixture
def counter() -> Counter:
    return Counter()


@pytest.fixture
def first_view() -> StubFirstView:
    return StubFirstView()


@pytest.fixture
def client(first_view: StubFirstView, counter: Counter) -> TestClient:
    return TestClient(page_app(first_view, counter))


def test_the_page_is_built_once_per_first_view(client: TestClient, first_view: StubFirstView, counter: Counter) -> None:
    first = client.get("/").text
    assert [client.get("/").text for _ in range(5)] == [first] * 5
    assert counter.pages == 1

    first_view.generation = 2  # new results rendered: the page is built anew
    assert client.get("/").text != first
    assert counter.pages == 2


def test_each_address_and_host_has_its_own_page(client: TestClient, counter: Counter) -> None:
    plain, linked = client.get("/").text, client.get("/?tab=qa").text
    other_host = client.get("/", headers={"host": "board.example"}).text

    assert "tab=qa" in linked and "tab=qa" not in plain
    assert "board.example" in other_host and "board.example" not in plain
    assert client.get("/?tab=qa").text == linked
    assert counter.pages == 3


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
