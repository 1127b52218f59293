"""The submit form understands a pasted Hub URL and shows the engine's verdict readably, without server paths."""

from __future__ import annotations

import pytest

from leaderboard.submit_messages import ModelInput, parse_model_input, readable

SHA = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize("text, expected", [
    ("acme/strong-7b", ModelInput("acme/strong-7b")),
    ("  acme/strong-7b \n", ModelInput("acme/strong-7b")),
    ("https://huggingface.co/acme/strong-7b", ModelInput("acme/strong-7b")),
    ("https://huggingface.co/acme/strong-7b/", ModelInput("acme/strong-7b")),
    ("huggingface.co/acme/strong-7b", ModelInput("acme/strong-7b")),
    ("https://hf.co/acme/strong-7b?library=transformers", ModelInput("acme/strong-7b")),
    (f"https://huggingface.co/acme/strong-7b/tree/{SHA}", ModelInput("acme/strong-7b", SHA)),
    (f"https://huggingface.co/acme/strong-7b/commit/{SHA}", ModelInput("acme/strong-7b", SHA)),
    ("https://example.com/acme/strong-7b", ModelInput("https://example.com/acme/strong-7b")),
    ("not a model id", ModelInput("not a model id")),
])
def test_a_pasted_hub_url_becomes_the_model_id_and_its_revision(text: str, expected: ModelInput) -> None:
    assert parse_model_input(text) == expected


def test_an_engine_message_is_capitalised_and_names_no_server_path() -> None:
    message = "model acme/x at 0123 is already evaluated on indic_writing_bench; its results are in /srv/data/runs/a"
    shown = readable(message)
    assert shown == "Model acme/x at 0123 is already evaluated on indic_writing_bench; its results are on the board."
    assert "/srv" not in shown
    assert readable("Queued as request #1 (indic_writing_bench): acme/x at main.").startswith("Queued as request #1")
