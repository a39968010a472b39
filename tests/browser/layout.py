"""Layout checks the browser tests share."""

from __future__ import annotations


def assert_fits(page, width: int, what: str) -> None:
    """Nothing on ``page`` scrolls sideways on a screen ``width`` px wide."""
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width, f"{what} is {scroll_width}px wide on a {width}px screen"
