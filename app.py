"""The leaderboard web app: build the settings, the UI and the in-app worker, then serve.

    python app.py        # http://127.0.0.1:7860 (GRADIO_SERVER_NAME / PORT to change)

Nothing happens at import time; Hugging Face Spaces runs this file as `app_file`.
"""

from __future__ import annotations

import logging

from eval_backend.settings import Settings
from eval_backend.submissions import start_scheduler
from leaderboard.app_factory import build_app


def main() -> None:
    """Serve the leaderboard until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    settings = Settings()
    demo = build_app(settings)
    start_scheduler(settings)
    demo.queue(default_concurrency_limit=8).launch(
        server_name=settings.app.server_name, server_port=settings.app.server_port, footer_links=["api"],
    )


if __name__ == "__main__":
    main()
