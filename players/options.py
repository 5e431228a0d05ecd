"""Command-line value checks shared by the player programs: each names the
option, the bad value and the allowed range, as every clinea error does."""
from __future__ import annotations

import argparse
from typing import Callable


def bounded_int(option: str, low: int, high: int, high_text: str | None = None) -> Callable[[str], int]:
    """An argparse `type` accepting integers in low..high."""
    allowed = f"{low}..{high_text or high}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} {text!r} is not an integer (allowed {allowed})") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{option} {value} is out of range: allowed {allowed}")
        return value

    return parse
