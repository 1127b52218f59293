"""A score cell's link: the address of the items behind it, read back as the item browser reads links."""

from __future__ import annotations

from leaderboard.display import linked_markdown
from leaderboard.page_link import MAX_VALUE_CHARS, read_link
from leaderboard.score_links import items_address, score_link
from leaderboard.tab_links import linked_tab

LINK = score_link("judgments", {"config": "language", "variant": "variant"}, ("indic_average",))
RUN_ID = "evil-org___script_alert_1____script_/main"


def test_a_language_score_opens_that_run_s_items_in_that_language() -> None:
    address = LINK(RUN_ID, "config.Hindi")
    link = read_link(address)
    assert linked_tab(link, ("leaderboard", "judgments")) == "judgments"
    assert link.text("model") == RUN_ID and link.text("language") == "Hindi" and not link.has("variant")


def test_a_former_tab_s_link_opens_the_tab_it_names_now() -> None:
    link = read_link(LINK(RUN_ID, "config.Hindi"))
    assert linked_tab(link, ("leaderboard", "qa"), {"judgments": "leaderboard"}) == "leaderboard"
    assert linked_tab(link, ("qa",), {"judgments": "leaderboard"}) is None  # only a tab the page has


def test_the_headline_opens_every_item_and_a_column_that_is_no_score_links_nowhere() -> None:
    assert not read_link(LINK(RUN_ID, "indic_average")).has("language")
    assert read_link(LINK(RUN_ID, "variant.code_mixed")).text("variant") == "code_mixed"
    assert LINK(RUN_ID, "params_b") is None and LINK(RUN_ID, "domain.Law") is None
    assert LINK("x" * (MAX_VALUE_CHARS + 1), "indic_average") is None  # the link would be dropped on reading


def test_a_linked_cell_reads_its_number_literally_and_its_address_cannot_break_the_markdown() -> None:
    address = items_address("judgments", 'a b"c)/main', {"language": "Tamil", "variant": ""})
    assert " " not in address and '"' not in address and ")" not in address and "variant" not in address
    cell = linked_markdown("7.25", address, 'say "hi"')
    assert cell == f"[7.25]({address} \"say 'hi'\")" and linked_markdown("", address) == ""
