"""Option names as the course judge's parser reads them: argparse takes any
unambiguous prefix of a long option (`--iter`, `--blue`, `--col`). Our judge
has more options, so a prefix unique among the course's options could be
ambiguous among ours (`--co`: --columns or --concurrency): the course's
reading wins, since a script written for it meant that one."""
from __future__ import annotations

from collections.abc import Iterable

COURSE_OPTIONS = ("--red_player", "--blue_player", "--columns", "--rows", "--c", "--p",
                  "--first", "--iterations", "--ui", "--q")


class AmbiguousOption(ValueError):
    pass


def resolve(word: str, known: Iterable[str]) -> str | None:
    """The full option name `word` stands for (`--iter=5` -> `--iterations`),
    or None when it names no option of ours; raises AmbiguousOption when it
    could be several."""
    if not word.startswith("--"):
        return None
    name = word.split("=", 1)[0]
    known = list(known)
    if name in known:
        return name
    for candidates in ([o for o in COURSE_OPTIONS if o in known], known):
        matches = sorted(option for option in candidates if option.startswith(name))
        if len(matches) == 1:
            return matches[0]
        if matches and candidates is known:
            raise AmbiguousOption(f"ambiguous option {name}: could be {', '.join(matches)}")
    return None


def spell_out(word: str, known: Iterable[str]) -> str:
    """`word` with its option name written in full, its `=value` kept."""
    full = resolve(word, known)
    if full is None:
        return word
    _, equals, value = word.partition("=")
    return full + equals + value
