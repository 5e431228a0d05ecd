"""Command-line value checks shared by the player programs: each names the
option, the bad value and the allowed range, as every clinea error does."""
from __future__ import annotations

import argparse
from collections.abc import Callable


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


def bare_words_to_options(words: list[str], parser: argparse.ArgumentParser) -> list[str]:
    """The course judge's parser refuses any word starting with `-` after
    `--blue_player EXE`, so every option is also accepted as a bare word:
    `NAME=VALUE` (several values joined by commas: `weights=1,2,3`) or a
    flag's `NAME`; `_` may stand for `-`. Other words pass unchanged."""
    options = _long_options(parser)
    out: list[str] = []
    for word in words:
        if word.startswith("-"):
            out.append(word)
            continue
        name, has_value, value = word.partition("=")
        action = options.get(name.replace("_", "-"))
        if action is None:
            if has_value:
                parser.error(f"unknown option {name!r} in {word!r}: known are {', '.join(sorted(options))}")
            out.append(word)
        elif action.nargs == 0:  # a flag: `verbose`, not `verbose=...`
            if has_value:
                parser.error(f"{name} is a switch and takes no value: give {name!r} alone, not {word!r}")
            out.append(action.option_strings[-1])
        elif not has_value or not value:
            parser.error(f"option {name} needs a value: {name}=VALUE")
        else:
            out.append(action.option_strings[-1])
            out.extend(value.split(",") if action.nargs not in (None, "?") else [value])
    return out


def options_to_bare_words(words: list[str]) -> list[str]:
    """`--time-per-move 0.2 --verbose` as the course judge lets it through:
    `time-per-move=0.2 verbose` (for the help texts' examples)."""
    out: list[str] = []
    after_option = False  # whether out[-1] is an option, which takes the values that follow
    for word in words:
        if word.startswith("--"):
            out.append(word[2:])
            after_option = True
        elif after_option:
            out[-1] += ("," if "=" in out[-1] else "=") + word
        else:  # a positional value (kaggle's agent) passes as it is
            out.append(word)
    return out


def _long_options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Long option names without their dashes, `--help` aside."""
    return {option[2:]: action for action in parser._actions for option in action.option_strings
            if option.startswith("--") and not isinstance(action, argparse._HelpAction)}
