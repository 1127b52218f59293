"""Test-wide isolation (no network, no real credentials, caches in a temp folder) and parallel runs.

`make test` runs every test but the browser modules with `pytest -n 2 --dist loadgroup` (pytest-xdist),
then the browser modules in one process (the Makefile says why). A test is parallel-safe when it:

- writes only under `tmp_path` / `tmp_path_factory` (never into the checkout, a fixed /tmp path or $HOME);
- listens on port 0 (the OS picks a free port; `tests.support.app_server.free_port`), never a fixed one;
- on PostgreSQL, takes a database of its own (`postgres_server.new_database()`, or the `store` /
  `queue_backend` fixtures), or a server of its own when it stops the server (see test_outage.py);
- leaves no global state behind (environment through `monkeypatch`, no module-level caches it filled);
- waits on a condition with a deadline, never on a fixed sleep that a busy machine makes too short.

Each worker has its own session fixtures. One that builds something expensive and read-only (run
folders, a model on disk) builds it once per run for all workers with `tests.support.built_once`.
Tests that share a module- or class-scoped fixture (an app server, a browser) are kept on one
worker by `pytest_collection_modifyitems` below, so that fixture starts once; other tests spread
over the workers one by one. The groups reach xdist's scheduler through a file
(`tests.support.xdist_groups`): under pytest 9.2 xdist's own way, a suffix on the node id, is lost.
"""

from __future__ import annotations

import os
import tempfile

# Set before any test module imports `datasets` or `huggingface_hub`, which read these once.
_CACHE = tempfile.mkdtemp(prefix="wb-test-cache-")
os.environ.update(
    HF_HOME=_CACHE,
    HF_DATASETS_CACHE=os.path.join(_CACHE, "datasets"),
    HF_HUB_OFFLINE="1",
    HF_DATASETS_OFFLINE="1",
    HF_HUB_DISABLE_TELEMETRY="1",
    GRADIO_ANALYTICS_ENABLED="False",
    TOKENIZERS_PARALLELISM="false",
)
for _name in (
    "OPENAI_API_KEY", "OPENAI_BASE_URL", "AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_KEY",
    "JUDGE_MODEL", "HF_TOKEN", "DATA_DIR", "WB_DATASET", "QUEUE_URL", "QUEUE_PATH",
):
    os.environ.pop(_name, None)


from typing import Iterator  # noqa: E402

import pytest  # noqa: E402  (after the environment above is set)

from eval_backend.redaction import register_secrets, registered_secrets  # noqa: E402
from tests.support import xdist_groups  # noqa: E402


@pytest.fixture(autouse=True)
def _registered_secrets_restored() -> Iterator[None]:
    """The secrets a test's clients register (`redaction.add_secrets`) are the process's from then on: put back
    what was registered before, so one test's keys never mask another's text."""
    before = registered_secrets()
    yield
    register_secrets(before)


@pytest.fixture(scope="session")
def postgres_server():  # type: ignore[no-untyped-def]
    """One real PostgreSQL server for the whole session (tests/support/postgres.py), started on first use."""
    from tests.support.postgres import running_server

    yield from running_server()


_SHARED_SCOPES = frozenset({"module", "class", "package"})


def _shares_fixtures(item: pytest.Item) -> bool:
    """Whether `item` uses a fixture that outlives one test but not the session (built per module or class)."""
    fixtures = getattr(item, "_fixtureinfo", None)
    return fixtures is not None and any(
        defs and defs[-1].scope in _SHARED_SCOPES for defs in fixtures.name2fixturedefs.values()
    )


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the marks (`--dist loadgroup`)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Keep the tests of a module that share a module-scoped fixture on one xdist worker: it starts once."""
    for item in items:
        if _shares_fixtures(item) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.module.__name__ if item.module else item.nodeid))
    xdist_groups.write_groups(config, items)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:  # type: ignore[no-untyped-def]
    """Tell each xdist worker where to write its tests' groups (`tests.support.xdist_groups` says why)."""
    xdist_groups.name_groups_file(node.config, node.workerinput)


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # before xdist's own, which would ignore the groups
def pytest_xdist_make_scheduler(config: pytest.Config, log):  # type: ignore[no-untyped-def]
    """`--dist loadgroup` scheduled by the groups the workers wrote; any other `--dist` as xdist does it."""
    return xdist_groups.GroupScheduling(config, log) if config.getvalue("dist") == "loadgroup" else None


def pytest_unconfigure(config: pytest.Config) -> None:
    xdist_groups.remove_groups_file(config)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Say the random order's seed where `-q` leaves it out (pytest-random-order writes it in the header)."""
    if not config.pluginmanager.hasplugin("random_order"):
        return
    from random_order.config import Config as RandomOrder

    shuffled = RandomOrder(config)
    if shuffled.is_enabled:
        terminalreporter.write_line(f"random order: bucket {shuffled.bucket_type}, seed {shuffled.seed} "
                                    f"(repeat it with --random-order-bucket={shuffled.bucket_type} "
                                    f"--random-order-seed={shuffled.seed})")
