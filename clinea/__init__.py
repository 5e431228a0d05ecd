"""clinea: write, run, judge and train bots for C en linea (generalised Connect-4).

    >>> from clinea import Board
    >>> board = Board(7, 6, c=4)
    >>> board.play(3)
"""
from clinea import _moved
from clinea.core import Board, IllegalMove

_moved.install()  # the modules that moved into rooms keep their old names for a release

__version__ = "0.1.0"
__all__ = ["Board", "IllegalMove", "__version__"]
