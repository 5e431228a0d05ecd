"""Types of clinea.core.wire (compiled): the protocol's column lines in C."""
from collections.abc import Sequence

class ColumnLines:
    def __init__(self, lines: Sequence[bytes]) -> None: ...
