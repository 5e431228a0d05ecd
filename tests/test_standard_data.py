"""The copies of the standard positions are intact and say what the tests
that read them assume."""
import hashlib

import pytest
from pons import FILES, PONS_DIR, pons_lines

from clinea.core import Board

# git blob ids of the tutorial's files, as published beside them
BLOB_IDS = {"Test_L1_R1": "125e3d87", "Test_L1_R2": "48187616", "Test_L1_R3": "c6e598e8",
            "Test_L2_R1": "66089b7c", "Test_L2_R2": "bca30d22", "Test_L3_R1": "180daa64"}
# stones already played, per file (tests/data/pons/README.md)
STONES = {"Test_L3_R1": (28, 42), "Test_L2_R1": (14, 28), "Test_L2_R2": (14, 28),
          "Test_L1_R1": (0, 14), "Test_L1_R2": (0, 14), "Test_L1_R3": (0, 14)}


@pytest.mark.parametrize("name", FILES)
def test_copy_is_intact(name):
    data = (PONS_DIR / name).read_bytes()
    blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
    assert blob.startswith(BLOB_IDS[name])


@pytest.mark.parametrize("name", FILES)
def test_positions_are_legal_open_games_with_scores_in_range(name):
    lines = pons_lines(name)
    assert len(lines) == 1000
    low, high = STONES[name]
    for moves, score in lines:
        board = Board.from_string(moves)
        assert not board.is_over(), moves
        assert low <= board.moves_played <= high, moves
        # a side places at most 21 stones, so |score| = 22 - k lies in 0..21 and
        # cannot exceed what is left of the side to move's stones
        assert abs(score) <= 22 - (board.moves_played // 2 + 1), moves
