"""The leaderboard web app: build the settings, the UI and the in-app worker, then serve.

    python app.py        # http://127.0.0.1:7860 (GRADIO_SERVER_NAME / PORT to change)

Nothing happens at import time; Hugging Face Spaces runs this file as `app_file`.
"""

from __future__ import annotations

import logging

from eval_backend.hub_sync import restore_queue_if_missing
from eval_backend.settings import Settings
from eval_backend.submissions.scheduler import start_scheduler
from leaderboard.app_factory import build_app


def main() -> None:
    """Serve the leaderboard until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = Settings()
    _restore_queue(settings)
    demo = build_app(settings)
    start_scheduler(settings)
    demo.queue(default_concurrency_limit=8).launch(
        server_name=settings.app.server_name, server_port=settings.app.server_port, footer_links=["api"],
    )


def _restore_queue(settings: Settings) -> None:
    """On an empty disk (a restarted Space), rebuild the queue from the requests repo first."""
    try:
        restored = restore_queue_if_missing(settings)
    except Exception:  # the board must come up even when the Hub does not answer
        logging.getLogger(__name__).exception("could not restore the queue from the Hub; starting with the local queue")
        return
    if restored:
        logging.getLogger(__name__).info("restored %d queue requests from the Hub", restored)


if __name__ == "__main__":
    main()
