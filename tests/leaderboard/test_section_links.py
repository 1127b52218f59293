"""About's contents: every second-level heading linked in order, by the id Gradio gives it (the browser test
`test_about_has_contents_whose_links_land_and_a_section_link_opens_its_section` checks the ids against Gradio)."""

from leaderboard.section_links import contents, heading_id


def test_a_heading_id_is_its_words_lower_cased_and_hyphened_without_punctuation() -> None:
    assert heading_id("Is model A better than model B? Clusters, paired comparisons and power") == \
        "h-is-model-a-better-than-model-b-clusters-paired-comparisons-and-power"
    assert heading_id("A model's page") == "h-a-models-page"


def test_contents_link_every_second_level_heading_in_order_and_nothing_else() -> None:
    listed = contents(["## First\ntext\n### Not listed\n## Second one\n", "## Third, last\n"])
    assert listed == "**Contents:** [First](#h-first) · [Second one](#h-second-one) · [Third, last](#h-third-last)"
