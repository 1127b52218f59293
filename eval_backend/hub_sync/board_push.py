"""Pushing the whole board's table to the results repo as its `board` config, in one commit with the card.

The web app writes the table (one row per run of every benchmark) when it finds new results and hands it
here. The card keeps every config entry it has (each run's details) and gains or keeps the board's, so
`load_dataset(RESULTS_REPO, "board")` gives the board. A table the repo already holds is not committed again
(a restarted app finds the board it pushed before).
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from huggingface_hub import HfApi
from tenacity import retry, retry_if_exception, stop_after_attempt

from eval_backend.hub_client import hub_api
from eval_backend.hub_sync._hub import (
    DATASET,
    HUB_ERRORS,
    commit_files,
    describe,
    ensure_repo,
    head_sha,
    is_conflict,
    remote_tree,
)
from eval_backend.hub_sync.dataset_card import BOARD_CONFIG, BOARD_PATH, render_card, runs_with_details, with_board
from eval_backend.settings import Settings

logger = logging.getLogger(__name__)

CARD = "README.md"
_COMMIT_ATTEMPTS = 3  # a commit that lost a race to a run's push is rebuilt on the new head


def push_board(table: Path, settings: Settings) -> bool:
    """Commit the board's parquet `table` to the results repo; True when the repo holds it as its board (committed
    now, or already there: nothing is committed then).

    False when the mirror is off or the Hub failed (logged; the caller tries again with the next board it has).
    """
    if not settings.hub.results_enabled:
        return False
    repo_id = str(settings.hub.results_repo)
    try:
        api = hub_api(settings.hub)
        ensure_repo(api, repo_id)
        committed = _commit_board(api, repo_id, table.read_bytes())
    except HUB_ERRORS as exc:
        logger.warning("could not push the board to %s: %s", repo_id, describe(exc))
        return False
    if committed:
        logger.info("pushed the board (%d bytes) to %s as config %r", table.stat().st_size, repo_id, BOARD_CONFIG)
    return True


@retry(retry=retry_if_exception(is_conflict), stop=stop_after_attempt(_COMMIT_ATTEMPTS), reraise=True)
def _commit_board(api: HfApi, repo_id: str, content: bytes) -> bool:
    """One commit of the table and the card on the current head (refused, and rebuilt, if the head moved); False
    when the repo holds both as they would be."""
    head = head_sha(api, repo_id)
    tree = remote_tree(api, repo_id, head)
    card = _card(api, repo_id, head) if CARD in tree else None
    new_card = with_board(card) if card is not None else render_card(repo_id, runs_with_details(tree), board=True)
    pushed = tree.get(BOARD_PATH)
    if pushed is not None and pushed.describes(content) and new_card == card:
        return False
    commit_files(api, repo_id, {BOARD_PATH: content, CARD: new_card.encode("utf-8")}, "Update the board", parent=head)
    return True


def _card(api: HfApi, repo_id: str, revision: str) -> str:
    """The repo's README.md at `revision`."""
    with tempfile.TemporaryDirectory() as folder:
        path = api.hf_hub_download(repo_id, CARD, repo_type=DATASET, revision=revision, local_dir=folder)
        return Path(path).read_text(encoding="utf-8")
