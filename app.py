"""The leaderboard web app: build the settings, the UI and the in-app worker, then serve.

    python app.py        # http://127.0.0.1:7860 (GRADIO_SERVER_NAME / PORT to change)

Nothing happens at import time; Hugging Face Spaces runs this file as `app_file`.
"""

from __future__ import annotations

import logging

from eval_backend.hub_sync import restore_queue_if_missing
from eval_backend.redaction import install_log_redaction, secrets_of
from eval_backend.run_layout import migrate_legacy_runs
from eval_backend.settings import Settings
from eval_backend.submissions.scheduler import start_scheduler
from leaderboard.app_factory import build_app, former_tabs
from leaderboard.cell_links import CELL_LINKS_HEAD
from leaderboard.focus_order import FOCUS_ORDER_HEAD
from leaderboard.fonts import font_css, serve_fonts
from leaderboard.items_link_view import items_link_head
from leaderboard.section_links import SECTION_LINK_HEAD
from leaderboard.styles import APP_CSS
from leaderboard.tab_menu import TAB_MENU_HEAD


def main() -> None:
    """Serve the leaderboard until interrupted."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = Settings()
    install_log_redaction(secrets_of(settings))  # no key or URL credential in any log line or log tail
    _restore_queue(settings)
    migrate_legacy_runs(settings.data.runs_dir)  # run folders of the one-benchmark layout join their tree
    app = build_app(settings)
    serve_fonts()
    start_scheduler(settings)
    app.demo.queue(default_concurrency_limit=8).launch(
        server_name=settings.app.server_name, server_port=settings.app.server_port, footer_links=["api"],
        css=APP_CSS + font_css(),
        head=FOCUS_ORDER_HEAD + CELL_LINKS_HEAD + TAB_MENU_HEAD + SECTION_LINK_HEAD + items_link_head(former_tabs()),
        **app.launch_options(settings.app.refresh_s),
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
