"""Types of clinea.core.wire (compiled): the protocol's column lines in C."""
from collections.abc import Sequence
from typing import Any

class ColumnLines:
    def __init__(self, lines: Sequence[bytes]) -> None: ...
    def __reduce__(self) -> Any: ...
