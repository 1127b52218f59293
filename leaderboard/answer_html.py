"""A model's answer as people read it: its markdown rendered, its HTML never live.

Answers are untrusted text. CommonMark with raw HTML off shows a `<script>` or `<img onerror>` as the characters
typed; images are off too (an answer must not make the page fetch from elsewhere), and markdown-it refuses
`javascript:` links. Every block carries `dir="auto"`, so a Shahmukhi or Urdu paragraph reads right to left beside an
English one.
"""

from __future__ import annotations

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

ANSWER_CLASS = "answer"


def _blocks_read_their_own_direction(state: StateCore) -> None:
    for token in state.tokens:
        if token.block and token.nesting == 1:
            token.attrSet("dir", "auto")


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).disable("image")
_MARKDOWN.core.ruler.push("dir_auto", _blocks_read_their_own_direction)


def answer_html(text: str) -> str:
    """`text` rendered as markdown into safe HTML (no raw HTML, no images), each block `dir="auto"`."""
    return f'<div class="{ANSWER_CLASS}" dir="auto">{_MARKDOWN.render(text)}</div>'
