"""Short labels for plots: `org/name@abc1234`, long ids elided in the middle, always unique."""

from __future__ import annotations

from leaderboard.short_labels import MAX_LABEL_CHARS, full_label, short_label, short_labels
from tests.support.readable_runs import LONG_IDS

SHA = "0123456789abcdef0123456789abcdef01234567"


def test_a_commit_is_cut_to_7_characters_and_the_default_branch_left_out() -> None:
    assert short_label("acme/x-1b", SHA) == "acme/x-1b@0123456" and short_label("acme/x-1b", "main") == "acme/x-1b"
    assert full_label("acme/x-1b", SHA) == f"acme/x-1b@{SHA}"


def test_a_100_character_id_keeps_the_start_of_its_organisation_and_both_ends_of_its_name() -> None:
    label = short_label(LONG_IDS[0], "main")
    assert len(label) <= MAX_LABEL_CHARS and label.startswith("indic-nlp-c…/sarvam-") and label.endswith("xxx")


def test_labels_that_would_collide_are_lengthened_until_they_differ() -> None:
    twins = ["org/" + "a" * 40 + "-base-" + "z" * 40, "org/" + "a" * 40 + "-chat-" + "z" * 40]
    labels = short_labels(twins, ["main", "main"])
    assert len(set(labels)) == 2 and "-base-" in labels[0] and "-chat-" in labels[1]
    assert short_labels([LONG_IDS[0], LONG_IDS[0]], ["main", SHA]) == [
        short_label(LONG_IDS[0], "main"), short_label(LONG_IDS[0], SHA)]
