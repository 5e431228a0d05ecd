"""Command-line value checks shared by the player programs: each names the
option, the bad value and the allowed range, as every clinea error does."""
from __future__ import annotations

import argparse
from collections.abc import Callable, Collection
from typing import Any, Protocol

from clinea.core.rules import MAX_SIDE, MAX_TOKENS


def command_parser(prog: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A clinea command's parser, its `epilog` (the examples every --help
    ends with) printed line for line."""
    return argparse.ArgumentParser(prog=prog, description=description, epilog=epilog,
                                   formatter_class=argparse.RawDescriptionHelpFormatter)


def bounded_int(option: str, low: int, high: int | None = None, high_text: str | None = None) -> Callable[[str], int]:
    """An argparse `type` accepting integers in low..high (`high` None: no
    bound above), the one integer check of every clinea command line."""
    return _bounded(option, int, "an integer", low, high, high_text)


def bounded_float(option: str, low: float, high: float | None = None, what: str = "a number") -> Callable[[str], float]:
    """An argparse `type` accepting numbers in low..high (`high` None: no
    bound above); `what` names the value ("a number of seconds")."""
    return _bounded(option, float, what, low, high)


def _bounded(option: str, kind: Callable[[str], Any], what: str, low: float, high: float | None,
             high_text: str | None = None) -> Callable[[str], Any]:
    def shown(value: float) -> str:
        return f"{value:g}" if isinstance(value, float) else str(value)

    allowed = f"{shown(low)}..{high_text or shown(high)}" if high is not None else f"{shown(low)} or more"

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{option} {text!r} is not {what} (allowed {allowed})") from None
        if not low <= value or (high is not None and value > high) or value != value:  # NaN is in no range
            raise argparse.ArgumentTypeError(f"{option} {shown(value)} is out of range: allowed {allowed}")
        return value

    return parse


class ArgumentContainer(Protocol):
    """A parser or one of its argument groups."""

    def add_argument(self, *names: str, **settings: Any) -> argparse.Action: ...


def add_board_options(container: ArgumentContainer, p_default: int | None = None, what: str = "") -> None:
    """--columns, --rows, --c and --p, the same on every command line,
    each checked against its range as it is parsed. `p_default` None:
    tokens enough to fill the board. `what` says what they apply to."""
    before = f"{what}: " if what else ""
    container.add_argument("--columns", type=bounded_int("--columns", 1, MAX_SIDE), default=7,
                           help=f"{before}1..{MAX_SIDE} (default 7)")
    container.add_argument("--rows", type=bounded_int("--rows", 1, MAX_SIDE), default=6,
                           help=f"{before}1..{MAX_SIDE} (default 6)")
    container.add_argument("--c", type=bounded_int("--c", 1, MAX_TOKENS), default=4,
                           help=f"{before}tokens in a row to win, 1..{MAX_TOKENS} (default 4)")
    container.add_argument("--p", type=bounded_int("--p", 1, MAX_TOKENS), default=p_default,
                           help=f"{before}tokens per player, 1..{MAX_TOKENS} (default "
                                + (f"{p_default})" if p_default is not None else "enough to fill the board)"))


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


def option_actions(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Every option string of `parser` and its action. argparse has no
    public way to list a parser's options: this is the one place that
    reads its table, for the judge's program splitter and the bare words."""
    return dict(parser._option_string_actions)


def _long_options(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """Long option names without their dashes, `--help` aside."""
    return {option[2:]: action for option, action in option_actions(parser).items()
            if option.startswith("--") and option != "--help"}


def named_option(word: str, options: Collection[str]) -> str | None:
    """The option of `options` that `word` names as argparse reads it: the
    option itself, or the only one it abbreviates."""
    name = word.split("=", 1)[0]
    if name in options:
        return name
    matches = [option for option in options if option.startswith(name)]
    return matches[0] if len(matches) == 1 else None
