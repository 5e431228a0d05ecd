"""The standard 7x6 positions with their exact scores (tests/data/pons), for
every test that checks a search against them."""
from pathlib import Path

PONS_DIR = Path(__file__).resolve().parent / "data" / "pons"
FILES = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"]


def pons_lines(name: str, count: int | None = None) -> list[tuple[str, int]]:
    """The first `count` (default all) `(moves, score)` pairs of a file."""
    lines = [line.split() for line in (PONS_DIR / name).read_text().splitlines() if line]
    return [(moves, int(score)) for moves, score in lines[:count]]


def sign(x: int) -> int:
    return (x > 0) - (x < 0)
