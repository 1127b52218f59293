"""The app's own CSS: the board's first two columns stay in view, and it reads at phone width.

Gradio 6.31's `pinned_columns` leaves pinned cells `position: static`, so the board pins Rank and Model itself
(the cells carry `data-heading` / `data-col` indices), at fixed widths so the second column knows where the first
ends. On a phone the queue's tables pin their id and model the same way; the rest scrolls sideways beside them.
"""

from __future__ import annotations

RANK_WIDTH_PX = 56
MODEL_WIDTH_PX = 260
PHONE_MODEL_WIDTH_PX = 120
PHONE_MAX_WIDTH_PX = 640
BOARDS = (".scored-ranked", ".scored-unranked")
"""Every benchmark tab's ranked and unranked tables (`rankings_section`)."""
QUEUES = ("#queue-running", "#queue-pending", "#queue-finished", "#queue-failed")
QUEUE_ID_WIDTH_PX = 48
WIDE_PLOT = ".wide-plot"
"""Every heatmap and radar of every tab (`benchmark_plots.plot`)."""
WIDE_PLOT_MIN_WIDTH_PX = 760


def _cells(table: str, index: int) -> str:
    return f'{table} [data-heading="{index}"], {table} [data-col="{index}"]'


def _width(table: str, index: int, px: int) -> str:
    return (f"{_cells(table, index)} {{ width: {px}px !important; min-width: {px}px !important;"
            f" max-width: {px}px !important; flex: 0 0 {px}px !important; box-sizing: border-box; }}\n")


def _pinned(table: str, index: int, left_px: int) -> str:
    cells = _cells(table, index)
    inner = ", ".join(f"{cell} *" for cell in cells.split(", "))
    return (
        f"{cells} {{ position: sticky !important; left: {left_px}px; z-index: 2;"
        " background: var(--background-fill-primary); box-shadow: 1px 0 0 var(--border-color-primary); }\n"
        f'{table} [data-heading="{index}"] {{ z-index: 4; }}\n'
        f"{inner} {{ white-space: normal !important; overflow-wrap: anywhere; }}\n"
    )


HEADER = '.table-wrap table.header-table[style*="px"]'
HEADER_ROW_CSS = (
    # Every grid's header cells laid out like its body cells: one flex row, each cell its own width. As a table,
    # the header row shared Gradio's sum of measured widths among its cells, so a column made narrower here pushed
    # every header after it sideways. The row is made flex only once Gradio has written that sum in pixels, so its
    # measuring still sees a table.
    f"{HEADER} {{ display: block; width: max-content !important; }}\n"
    f"{HEADER} > thead {{ display: block; }}\n"
    # Gradio pads and spaces the row (ignored in a table, not in a flex row): the body rows have neither.
    f"{HEADER} > thead > tr {{ display: flex; padding: 0; margin: 0; }}\n"
    f"{HEADER} > thead > tr > th {{ flex: 0 0 auto; box-sizing: border-box; }}\n"
    # Gradio's hidden row for measuring: not needed once measured, and wider than the columns it set.
    f"{HEADER} > tbody.sizing-body {{ display: none; }}\n")
WHOLE_CELLS_CSS = (
    # Every grid cell's text drawn whole: it wraps inside its cell (inside a word only when the word alone is
    # wider). Gradio cut cells with an ellipsis at the width it measured from the first rows: a flag badge read
    # "⚠ other jud", a model id lost the end that tells it from its siblings.
    ".table-wrap [role=gridcell] .cell-wrap > span { white-space: normal !important;"
    " text-overflow: clip !important; overflow-wrap: break-word; }\n")
READING_DIRECTION_CSS = (
    # Text boxes and grid cells set each paragraph's direction from its own text (Shahmukhi, Urdu: right to left),
    # where Gradio draws them left to right whatever they hold.
    "textarea { unicode-bidi: plaintext; text-align: start; }\n"
    ".table-wrap [role=gridcell] .cell-wrap > span { unicode-bidi: plaintext; }\n"
    # An item table's text (a Shahmukhi question) is a block of its own direction: it starts at its start
    # (the cell's right edge for right-to-left text), never cut there.
    ".item-table [role=gridcell] .cell-wrap > span { display: block; text-align: start; }\n"
    # An answer and the criteria: rendered blocks that fit the panel's width, the rubric folded.
    ".answer, .criterion { overflow-wrap: anywhere; }\n"
    ".criterion { border-top: 1px solid var(--border-color-primary); padding: 6px 0; }\n"
    ".criterion h4 { margin: 4px 0; }\n")
LINKED_GRIDS = (*BOARDS, "#overview-table")
"""Grids whose cells hold links (a score's items, a model's Hub page or its page, a flag's explanation)."""
STEADY_CELLS_CSS = (
    # A pressed cell's text stays where it is, so a click on a link in it opens the link. Gradio lays a selected
    # cell's text over the cell from its top: in a row made tall by a wrapped 100-character id, a link jumped up
    # between the press and the release of the mouse, and the click opened nothing.
    ", ".join(f"{grid} [role=gridcell].cell-solo .cell-wrap > span" for grid in LINKED_GRIDS)
    + " { position: relative !important; min-height: 0 !important; padding: 0 !important;"
    " box-shadow: none !important; background: none !important; }\n")

SELECTED_TAB_TEXT = "#b4420a"
"""The theme's orange, darkened to 5.6:1 on white (the theme's own is 2.8:1)."""
PLACEHOLDER_TEXT = "#4b5563"
"""7.5:1 on white, 6.9:1 on the inputs' grey (the theme's placeholder is 1.9:1)."""
TOUCH_TARGET_PX = 24
ACCESSIBLE_CSS = (
    # Text at 4.5:1 contrast or more where the theme has less, and phone-sized tick boxes.
    f'button[role=tab][aria-selected="true"] {{ color: {SELECTED_TAB_TEXT} !important; }}\n'
    f"input::placeholder, textarea::placeholder {{ color: {PLACEHOLDER_TEXT} !important; opacity: 1; }}\n"
    f"@media (max-width: {PHONE_MAX_WIDTH_PX}px) {{\n"
    f"input[type=checkbox], input[type=radio] {{ width: {TOUCH_TARGET_PX}px !important;"
    f" height: {TOUCH_TARGET_PX}px !important; }}\n}}\n")

PHONE_RANK_WIDTH_PX = 40
PHONE_LEAD_WIDTHS_PX = (58, 50, 104)
"""A phone's headline, rank range and interval columns (after Rank and Model): the ranking's first screen."""
PHONE_MODEL_LINES = 3
PHONE_MODEL_LINE_PX = 17
PHONE_BLEED_PX = 26
"""How far a phone's ranking reaches into the page's 32 px side padding."""
PHONE_MODEL_CSS = (
    # A phone's ranked model id shows its last PHONE_MODEL_LINES lines: the end that tells two models of one family
    # apart, the whole id in the link's title. Wrapped whole, a 100-character id made each row eight lines tall;
    # clamped from its top (a flex column aligned to its end), it is not.
    f'{BOARDS[0]} [data-col="1"] a {{ display: flex; flex-direction: column; justify-content: flex-end;'
    f" line-height: {PHONE_MODEL_LINE_PX}px; max-height: {PHONE_MODEL_LINES * PHONE_MODEL_LINE_PX}px;"
    " overflow: hidden; }\n")


def phone_ranking_css() -> str:
    """A phone's first screen shows ranked rows with their rank range and interval (inside a @media rule): the
    lead columns narrow, with smaller text and wrapping headers."""
    ranked = BOARDS[0]
    lead = "".join(_width(ranked, 2 + position, px) for position, px in enumerate(PHONE_LEAD_WIDTHS_PX))
    heads = ", ".join(f"{ranked} [data-heading=\"{index}\"] *" for index in range(0, 2 + len(PHONE_LEAD_WIDTHS_PX)))
    # Gradio scopes the app's CSS inside the page's padded column: the ranking reaches out over that padding.
    return (f"{ranked} {{ margin-left: -{PHONE_BLEED_PX}px; width: calc(100% + {2 * PHONE_BLEED_PX}px) !important;"
            " max-width: none !important; }\n"
            f"{ranked} [role=gridcell] .cell-wrap {{ padding: 2px 4px !important; }}\n"
            "#intro h1 { font-size: 1.35rem; margin: 0 0 4px; }\n"
            + _width(ranked, 0, PHONE_RANK_WIDTH_PX)
            + f'{_cells(ranked, 1)} {{ left: {PHONE_RANK_WIDTH_PX}px !important; }}\n' + lead
            + f"{ranked} [role=gridcell], {ranked} [role=columnheader] {{ font-size: 13px; padding: 4px !important;"
              " }\n"
            + f"{heads} {{ white-space: normal !important; overflow-wrap: normal !important; word-break: normal;"
              " text-overflow: clip !important; padding: 0 !important; font-size: 12px; }\n"
            + PHONE_MODEL_CSS)


OVERVIEW_MODEL_WIDTH_PX = 330
OVERVIEW_COLUMN_WIDTH_PX = 118
OVERVIEW_COLUMNS = 8
"""Model, Revision, then three benchmarks' headline and rank: 330 + 7 × 118 px fits a 1440 px screen."""


def overview_css() -> str:
    """The overview's columns at fixed widths, headers wrapping by words, so every benchmark fits 1440 px."""
    table = "#overview-table"
    widths = _width(table, 0, OVERVIEW_MODEL_WIDTH_PX) + "".join(
        _width(table, index, OVERVIEW_COLUMN_WIDTH_PX) for index in range(1, OVERVIEW_COLUMNS))
    return (widths + f"{table} [role=columnheader] * {{ white-space: normal !important; overflow-wrap: normal;"
            " text-overflow: clip !important; }\n"
            f'{table} [data-col="0"] * {{ white-space: normal !important; overflow-wrap: anywhere; }}\n')


def board_css() -> str:
    """Pinned Rank and Model on the ranked board (Model alone on the unranked one), narrower on a phone."""
    ranked, unranked = BOARDS
    wide = _width(ranked, 0, RANK_WIDTH_PX) + _width(ranked, 1, MODEL_WIDTH_PX) + _width(unranked, 0, MODEL_WIDTH_PX)
    pinned = _pinned(ranked, 0, 0) + _pinned(ranked, 1, RANK_WIDTH_PX) + _pinned(unranked, 0, 0)
    phone = "".join(_width(table, index, PHONE_MODEL_WIDTH_PX)
                    for table, index in (("#overview-table", 0), (ranked, 1), (unranked, 0)))
    queues = "".join(_width(queue, 0, QUEUE_ID_WIDTH_PX) + _width(queue, 1, PHONE_MODEL_WIDTH_PX)
                     + _pinned(queue, 0, 0) + _pinned(queue, 1, QUEUE_ID_WIDTH_PX) for queue in QUEUES)
    # A queued request and a refusal must not look alike (the label says which, the colour too).
    outcome = (".submit-queued textarea { border-left: 6px solid #2e8540 !important; }\n"
               ".submit-refused textarea { border-left: 6px solid #c0392b !important; }\n")
    return (
        HEADER_ROW_CSS + WHOLE_CELLS_CSS + READING_DIRECTION_CSS + STEADY_CELLS_CSS + ACCESSIBLE_CSS + wide
        + outcome + overview_css() + pinned
        + f"@media (max-width: {PHONE_MAX_WIDTH_PX}px) {{\n"
        # A phone's first screen is for the rankings: the title stays, the introductions' paragraphs
        # go (the page's and each benchmark tab's), and model columns are narrow so the first score shows beside them.
        + "#intro p, [id$='-intro'] p { display: none; }\n"
        + phone + phone_ranking_css()
        + queues
        # Heatmaps and the radar keep a readable width and scroll sideways instead of squeezing into the screen.
        + f"{WIDE_PLOT} {{ overflow-x: auto; }}\n"
        + f"{WIDE_PLOT} .js-plotly-plot {{ min-width: {WIDE_PLOT_MIN_WIDTH_PX}px; }}\n"
        + "}\n"
    )


APP_CSS = board_css()
