"""Answers render as markdown, their HTML as text, each block in its own reading direction."""

from __future__ import annotations

from leaderboard.answer_html import answer_html


def test_markdown_renders_and_html_stays_text() -> None:
    rendered = answer_html("**Bold** <img src=x onerror=alert(1)> <script>alert(2)</script>")
    assert "<strong>Bold</strong>" in rendered
    assert "&lt;img src=x onerror=alert(1)&gt;" in rendered and "&lt;script&gt;alert(2)&lt;/script&gt;" in rendered
    assert "<img" not in rendered and "<script" not in rendered


def test_no_script_link_and_no_image_fetch() -> None:
    rendered = answer_html("[click](javascript:alert(1)) ![logo](https://example.org/x.png)")
    assert 'href="javascript' not in rendered and "<img" not in rendered


def test_every_block_reads_its_own_direction() -> None:
    rendered = answer_html("ملتان ہک پراݨا شہر ہے۔\n\nAn English paragraph.\n\n- a list")
    assert rendered.count('<p dir="auto">') == 2 and '<ul dir="auto">' in rendered and '<li dir="auto">' in rendered
