"""Types of clinea.core.observation (compiled): a position as a learner's arrays."""
import numpy as np
import numpy.typing as npt

from clinea.core.board import Board

def planes(board: Board, player: int) -> npt.NDArray[np.int8]: ...
def action_mask(board: Board) -> npt.NDArray[np.int8]: ...
