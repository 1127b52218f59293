"""`app.py` started as a Hugging Face Space starts it, a person signing in with Hugging Face in Chromium.

The Space's variables (SYSTEM, SPACE_ID, SPACE_HOST, OAUTH_*, OPENID_PROVIDER_URL) point at the
stand-in Hub (`tests.support.hub_oauth`), which is also the Hub the submission is checked against.
One thing a test cannot have is the Space's HTTPS front door: the Hub sends the browser back to
`https://<SPACE_HOST>/login/callback`, so that one address is routed to the app on 127.0.0.1 with
its path and query unchanged, as the Space's proxy forwards it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import huggingface_hub.constants
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from eval_backend.hub_sync import push_run
from eval_backend.settings import DataSettings, HubSettings, Settings
from eval_backend.submissions import SqliteQueueStore
from leaderboard.submit_messages import QUEUED_LABEL, REFUSED_LABEL
from leaderboard.tabs.submit_tab import SIGN_IN_FIRST
from tests.support.apart import apart
from tests.support.app_server import REPO, AppServer, running_app
from tests.support.chat_server import StandInChatServer, chat_reply, judge_reply
from tests.support.hub_dataset import write_writing_bench_dataset
from tests.support.hub_oauth import HubAccount, StandInHubOAuth
from tests.support.hub_server import chat_model_files
from tests.support.network_guard import described, guarded_environment, outbound_attempts
from tests.support.run_folders import DEFAULT_PROFILES, build_evaluated_data

UI_TIMEOUT_MS = 20_000
SPACE_ID = "indic-benchmarks/indic-writingbench-leaderboard"
SPACE_HOST = "indic-benchmarks-indic-writingbench-leaderboard.hf.space"
PERSON = HubAccount("ananya-krishnamurthy", "அனன்யா கிருஷ்ணமூர்த்தி")
MODEL_ID = "sarvam-indic-research-collective/hindi-tamil-bengali-instruct-" + "v2-" * 12 + "7b"  # 100 characters
SECOND_MODEL_ID = "sarvam-indic-research-collective/bengali-shahmukhi-writer-8b"
PUSHED_MODEL_ID = DEFAULT_PROFILES[0].model_id
HUB_TOKEN = "hf_space_secret_5d0c9b7e1a"  # the Space's HF_TOKEN secret (the stand-in takes any for writes)
RESULTS_REPO = "indic-benchmarks/results"
REQUESTS_REPO = "indic-benchmarks/requests"


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StandInHubOAuth]:
    """The Hub: the models people submit, and a results repo holding a run a GPU worker pushed."""
    with StandInHubOAuth() as server:
        for model in (MODEL_ID, SECOND_MODEL_ID):
            server.add_model(model, chat_model_files(), parameters=7_000_000_000, card_data={"license": "apache-2.0"})
        assert apart(push_a_worker_s_run, server, tmp_path_factory.mktemp("worker"))
        yield server


def push_a_worker_s_run(hub: StandInHubOAuth, root: Path) -> bool:
    """Evaluate one model (two Hindi items) into `root` and push its run to the Hub's results repo, as a GPU
    worker does; whether the push went through."""
    evaluated = build_evaluated_data(root, DEFAULT_PROFILES[:1], {"Hindi": 2})
    with pytest.MonkeyPatch.context() as patch:  # the suite runs huggingface_hub offline; the stand-in is allowed
        patch.setattr(huggingface_hub.constants, "HF_HUB_OFFLINE", False)
        worker = Settings(hub=HubSettings(hf_token=HUB_TOKEN, hf_endpoint=hub.url, results_repo=RESULTS_REPO),
                          data=DataSettings(data_dir=evaluated.data_dir))
        return push_run(evaluated.folders[PUSHED_MODEL_ID], worker)


@pytest.fixture(scope="module")
def space_environment(hub: StandInHubOAuth) -> dict[str, str]:
    """The variables and secrets a Space with `hf_oauth: true` runs `app.py` with, its Hub being the stand-in."""
    client = hub.register_space(f"https://{SPACE_HOST}")
    return {"SYSTEM": "spaces", "SPACE_ID": SPACE_ID, "SPACE_HOST": SPACE_HOST,
            "OAUTH_CLIENT_ID": client.client_id, "OAUTH_CLIENT_SECRET": client.client_secret,
            "OAUTH_SCOPES": "openid profile", "OPENID_PROVIDER_URL": hub.url,
            "HF_ENDPOINT": hub.url, "HF_TOKEN": HUB_TOKEN, "RESULTS_REPO": RESULTS_REPO, "REQUESTS_REPO": REQUESTS_REPO,
            "SUBMISSIONS_PER_WEEK": "1", "LEADERBOARD_REFRESH_S": "2",
            "WORKER_BACKEND_PARAMS": json.dumps({"backend": "openai"})}  # queued with each request


@pytest.fixture(scope="module")
def network_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the Space's processes (the app, the worker) tried to reach outside 127.0.0.1, each refused."""
    return tmp_path_factory.mktemp("network") / "network.jsonl"


@pytest.fixture(scope="module")
def space(space_environment: dict[str, str], network_log: Path, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[AppServer]:
    root = tmp_path_factory.mktemp("space")
    with running_app(root / "data", root / "app.log", base=guarded_environment(network_log),
                     **space_environment) as server:
        yield server


@pytest.fixture
def context(space: AppServer, browser: Browser) -> Iterator[BrowserContext]:
    context = visitor(browser, space.url)
    yield context
    context.close()


def visitor(browser: Browser, app_url: str) -> BrowserContext:
    """A browser of a person who has not signed in to the Space at `app_url` (no cookies yet)."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(UI_TIMEOUT_MS)
    front_door(context, app_url)
    return context


def front_door(context: BrowserContext, app_url: str) -> None:
    """The Space's HTTPS address, forwarded to the app at `app_url` (path and query kept)."""
    def forward(route: Route) -> None:
        route.fulfill(status=307, headers={"Location": app_url + route.request.url.removeprefix(f"https://{SPACE_HOST}/")})

    context.unroute(f"https://{SPACE_HOST}/**")
    context.route(f"https://{SPACE_HOST}/**", forward)


def open_submit_tab(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url)
    page.get_by_role("tab", name="Submit").click()
    return page


def sign_in(page: Page, app_url: str) -> None:
    """Click "Sign in with Hugging Face", authorize on the Hub's page, and come back signed in to Submit."""
    page.get_by_role("button", name="Sign in with Hugging Face").click()
    expect(page.get_by_text(f"Signed in as {PERSON.username}.")).to_be_visible()  # the Hub's consent page
    page.get_by_role("button", name="Authorize").click()
    page.wait_for_url(f"{app_url}**")
    page.get_by_role("tab", name="Submit").click()
    expect(page.get_by_role("button", name=f"Logout ({PERSON.username})")).to_be_visible()


def submit(page: Page, model_id: str) -> None:
    page.locator("#submit-model textarea").fill(model_id)
    page.locator("#submit-button").click()


def queued(space: AppServer) -> list[tuple]:
    """The Space's queue: each request's id, model, submitter and benchmark."""
    return [(r.id, r.model_id, r.submitter, r.benchmark)
            for r in SqliteQueueStore(space.data_dir / "queue.sqlite").list_requests()]


def test_a_signed_out_visitor_cannot_submit(context: BrowserContext, space: AppServer, network_log: Path) -> None:
    before = queued(space)  # whatever the sign-in test queued, when it ran first
    page = open_submit_tab(context, space.url)
    expect(page.get_by_role("button", name="Sign in with Hugging Face")).to_be_visible()
    submit(page, MODEL_ID)
    expect(page.locator("#submit-message textarea")).to_have_value(SIGN_IN_FIRST)
    expect(page.locator("#submit-message")).to_contain_text(REFUSED_LABEL)
    assert queued(space) == before, "a signed-out submission queued something"
    assert outbound_attempts(network_log) == [], described(outbound_attempts(network_log))


def test_a_person_signs_in_submits_meets_the_weekly_limit_and_a_restart_on_an_empty_disk_keeps_it(
    context: BrowserContext, space: AppServer, space_environment: dict[str, str], hub: StandInHubOAuth,
    tmp_path: Path, network_log: Path,
) -> None:
    """Sign in, submit, meet the limit, the worker runs the request; a Space restarted on an empty disk finds the
    queue and the results in the Hub's repos; and nothing reached any host but the Hub it was given."""
    hub.sign_in(PERSON)
    page = open_submit_tab(context, space.url)
    sign_in(page, space.url)
    submit(page, MODEL_ID)
    expect(page.locator("#submit-message")).to_contain_text(QUEUED_LABEL)
    expect(page.locator("#submit-message textarea")).to_have_value(re.compile(rf"^Queued as request #1 .*: {MODEL_ID} at "))
    submit(page, SECOND_MODEL_ID)
    expect(page.locator("#submit-message")).to_contain_text(REFUSED_LABEL)
    expect(page.locator("#submit-message textarea")).to_have_value(
        re.compile(rf"'{PERSON.username}' has made 1 submissions in the last 7 days and the limit is 1"))

    requests = SqliteQueueStore(space.data_dir / "queue.sqlite").list_requests()
    assert {request.model_id for request in requests} == {MODEL_ID}
    assert {request.submitter for request in requests} == {PERSON.username}
    request = json.loads((run_worker_once(space, tmp_path, network_log) / "request.json").read_text(encoding="utf-8"))
    assert (request["model"], request["submitter"]) == (MODEL_ID, PERSON.username)
    restarts_on_an_empty_disk(context.browser, space, space_environment, hub, network_log, tmp_path / "restarted")
    # Its start, every visit, sign-in and submission, the worker's run and the restart: 127.0.0.1 only.
    assert outbound_attempts(network_log) == [], described(outbound_attempts(network_log))


def run_worker_once(space: AppServer, tmp_path: Path, network_log: Path) -> Path:
    """`python -m eval_backend worker --once` on the Space's data folder (one item a language, stand-in
    model and judge); the run folder of the request it ran."""
    dataset = write_writing_bench_dataset(tmp_path / "dataset")
    with StandInChatServer(chat_reply()) as model, StandInChatServer(judge_reply()) as judge:
        env = {**guarded_environment(network_log), "DATA_DIR": str(space.data_dir), "WB_DATASET": str(dataset), "WORKER_RUN_LIMIT": "1",
               "GENERATION_BASE_URL": model.base_url, "GENERATION_API_KEY": "stand-in",
               "OPENAI_BASE_URL": judge.base_url, "OPENAI_API_KEY": "stand-in", "JUDGE_MODEL": "stand-in-judge"}
        done = subprocess.run([sys.executable, "-m", "eval_backend", "worker", "--once"], cwd=REPO, env=env,
                              capture_output=True, text=True, timeout=240, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    [ran] = [request for request in SqliteQueueStore(space.data_dir / "queue.sqlite").list_requests() if request.run_dir]
    return Path(ran.run_dir)


def restarts_on_an_empty_disk(browser: Browser, space: AppServer, space_environment: dict[str, str],
                              hub: StandInHubOAuth, network_log: Path, root: Path) -> None:
    """The Space started again on an empty disk (one without persistent storage): it restores the queue and pulls
    the results from the Hub's repos, and the weekly limit still counts what was submitted before (the person
    signs in again, in a browser of their own: the first one's session cookie would hold for this 127.0.0.1 too)."""
    before = queued(space)
    assert before, "the submission this restart must find was queued"
    root.mkdir()
    with running_app(root / "data", root / "app.log", base=guarded_environment(network_log),
                     **space_environment) as restarted:
        assert queued(restarted) == before, "the restarted Space's queue"
        context = visitor(browser, restarted.url)
        page = context.new_page()
        page.goto(restarted.url)
        # The Hub sync pulls the results at start; an open page finds them at its next look (LEADERBOARD_REFRESH_S).
        expect(page.locator("#leaderboard-table")).to_contain_text(PUSHED_MODEL_ID, timeout=UI_TIMEOUT_MS)
        pulled = root / "data" / "runs" / "indic_writing_bench" / PUSHED_MODEL_ID.replace("/", "__")
        assert [path.name for path in pulled.glob("*/summary.json")] == ["summary.json"]
        # The weekly limit counts what was submitted before the restart.
        hub.sign_in(PERSON)
        page.get_by_role("tab", name="Submit").click()
        sign_in(page, restarted.url)
        submit(page, SECOND_MODEL_ID)
        expect(page.locator("#submit-message textarea")).to_have_value(re.compile(f"'{PERSON.username}' has made 1"))
        context.close()

