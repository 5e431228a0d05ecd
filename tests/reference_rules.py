"""The rules of C en linea written as plainly as possible, as the yardstick
the Cython core is tested against. Deliberately slow and obvious: it rescans
the whole board for a winner after every move instead of looking at the last
move, and it shares no code with the core."""


class ReferenceGame:
    def __init__(self, columns: int, rows: int, c: int, p: int):
        self.columns, self.rows, self.c, self.p = columns, rows, c, p
        self.grid = [[0] * rows for _ in range(columns)]  # grid[col][row], row 0 at the bottom
        self.moves = 0
        self.winner = None

    def over(self) -> bool:
        return (self.winner is not None or self.moves == 2 * self.p
                or self.moves == self.columns * self.rows)

    def legal(self) -> list[int]:
        if self.over():
            return []
        return [col for col in range(self.columns) if self.grid[col][self.rows - 1] == 0]

    def play(self, col: int) -> None:
        assert col in self.legal()
        row = self.grid[col].index(0)
        player = self.moves % 2
        self.grid[col][row] = player + 1
        self.moves += 1
        if self._someone_has_line(player + 1):
            self.winner = player

    def _someone_has_line(self, stone: int) -> bool:
        for col in range(self.columns):
            for row in range(self.rows):
                for dcol, drow in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(
                        0 <= col + k * dcol < self.columns
                        and 0 <= row + k * drow < self.rows
                        and self.grid[col + k * dcol][row + k * drow] == stone
                        for k in range(self.c)
                    ):
                        return True
        return False

    def draw(self) -> bool:
        return self.winner is None and self.over()
