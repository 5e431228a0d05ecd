"""The graphical board of `clinea judge --ui` (pygame, the extra
`clinea[ui]`), as the course judge has one: tokens drop in their colour,
the last move carries a white ring, the line that won carries gold rings,
the game's number and the running score head the status, and a human seat
plays by clicking a column or pressing its digit, a ghost token showing
over the column under the mouse. Each result stays up RESULT_SECONDS (a
click or key skips it); the last board of the match stays until a click, a
key or the window's close, as the course judge's does.

Headless runs (CI) use SDL's offscreen or dummy driver, asked for with
SDL_VIDEODRIVER; when SDL falls back to one of them on its own there is no
screen, and the judge uses the terminal instead.
"""
from __future__ import annotations

import collections
import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame's banner would mix with the judge's output
import pygame  # noqa: E402

from clinea.core import Board, Rules  # noqa: E402
from clinea.judge.referee import Seat  # noqa: E402
from clinea.judge.ui import MatchStopped  # noqa: E402
from clinea.judge.winning_line import winning_line  # noqa: E402
from clinea.protocol import COLOURS  # noqa: E402

BACKGROUND = (0, 0, 0)
FRAME = (70, 70, 80)
HOLE = (20, 20, 24)
TOKEN = {"azul": (30, 110, 255), "rojo": (230, 40, 40)}
LAST_MARK = (255, 255, 255)
WIN_MARK = (255, 200, 0)
TEXT = (240, 240, 240)
HEADLESS_DRIVERS = ("offscreen", "dummy")
#: seconds a token takes to fall the whole height; frames per second
DROP_SECONDS = 0.25
FPS = 60
#: how long a result stays up before the next game (a click or key skips it)
RESULT_SECONDS = 1.5
LINE_HEIGHT = 24
# two lines: the game's number and the score, then what happens
STATUS_HEIGHT = 2 * LINE_HEIGHT + 12


class WindowUnavailable(Exception):
    pass


class Window:
    def __init__(self, rules: Rules):
        if not any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")):
            # asked anyway, SDL would pick its offscreen driver and complain on stderr
            raise WindowUnavailable("neither DISPLAY nor WAYLAND_DISPLAY is set")
        try:
            pygame.display.init()
        except pygame.error as error:
            raise WindowUnavailable(str(error)) from None
        driver = pygame.display.get_driver()
        if driver in HEADLESS_DRIVERS and os.environ.get("SDL_VIDEODRIVER") != driver:
            pygame.display.quit()
            raise WindowUnavailable(f"SDL found only its {driver} driver")
        pygame.font.init()
        self.columns, self.rows = rules[0], rules[1]
        self.cell = max(6, min(80, 1000 // self.columns, 640 // (self.rows + 1)))
        self.top = self.cell  # a band above the board, where tokens start falling
        width = self.columns * self.cell
        self.board_bottom = self.top + self.rows * self.cell
        self.surface = pygame.display.set_mode((max(width, 240), self.board_bottom + STATUS_HEIGHT))
        pygame.display.set_caption("clinea: C en linea")
        self.font = pygame.font.Font(None, 24)
        self.clock = pygame.time.Clock()
        self.colours: tuple[str, str] = COLOURS
        self.status = ""
        self.heading = ""  # the game's number and the running score
        # (column, colour) of the ghost token over the column under a human's mouse
        self.ghost: tuple[int, str] | None = None
        # seconds the last board stays at the end of the match, None: until a click or key
        # (a headless driver has nobody to click: there it goes at once)
        self.hold: float | None = 0.0 if driver in HEADLESS_DRIVERS else None
        self.board: Board | None = None  # the position on show, redrawn under the result
        self.events: collections.deque[pygame.event.Event] = collections.deque()  # taken from SDL, not yet handled

    # ------------------------------------------------------------ geometry

    def cell_centre(self, col: int, row: int) -> tuple[int, int]:
        """Pixel centre of a cell; row 0 is the bottom row."""
        return (col * self.cell + self.cell // 2, self.top + (self.rows - 1 - row) * self.cell + self.cell // 2)

    def column_at(self, x: int) -> int:
        """The column under `x`, which may be off the board (right of it)."""
        return x // self.cell

    # ------------------------------------------------------------ drawing

    def draw(self, board: Board, falling: tuple[int, int, int] | None = None) -> None:
        """The board; `falling` is (column, y, player) of a token on its way
        down, drawn behind the frame as in a real rack."""
        radius = int(self.cell * 0.4)
        self.surface.fill(BACKGROUND)
        pygame.draw.rect(self.surface, FRAME, (0, self.top, self.columns * self.cell, self.rows * self.cell))
        for col in range(self.columns):
            for row in range(self.rows):
                owner = board.cell(col, row)
                colour = HOLE if owner == 0 else TOKEN[self.colours[owner - 1]]
                pygame.draw.circle(self.surface, colour, self.cell_centre(col, row), radius)
        if falling is not None:
            col, y, player = falling
            pygame.draw.circle(self.surface, TOKEN[self.colours[player]], (col * self.cell + self.cell // 2, y), radius)
        elif self.ghost is not None and 0 <= self.ghost[0] < self.columns:
            col, ghost_colour = self.ghost
            # the token's colour halfway to the background, with a rim in full colour
            faded = tuple((part + back) // 2 for part, back in zip(TOKEN[ghost_colour], BACKGROUND))
            centre = (col * self.cell + self.cell // 2, self.top // 2)
            pygame.draw.circle(self.surface, faded, centre, radius)
            pygame.draw.circle(self.surface, TOKEN[ghost_colour], centre, radius, max(1, radius // 8))
        moves = board.moves()
        if moves and falling is None:
            for cell in winning_line(board):
                pygame.draw.circle(self.surface, WIN_MARK, self.cell_centre(*cell), radius, max(2, radius // 4))
            col = moves[-1]
            pygame.draw.circle(self.surface, LAST_MARK, self.cell_centre(col, board.height(col) - 1),
                               max(2, radius // 2), max(1, radius // 8))
        if self.cell >= 16:
            for col in range(self.columns):
                digit = self.font.render(str(col), True, TEXT)
                self.surface.blit(digit, digit.get_rect(center=(col * self.cell + self.cell // 2, self.top // 4 + 6)))
        for line, words in enumerate((self.heading, self.status)):
            text = self.font.render(words, True, TEXT)
            self.surface.blit(text, (6, self.board_bottom + 6 + line * LINE_HEIGHT))
        pygame.display.flip()

    def check_closed(self) -> None:
        """Between moves: only a closed window matters; clicks and keys stay
        queued for the human seat."""
        if pygame.event.get(pygame.QUIT):
            raise MatchStopped("the window was closed")

    def pump(self) -> list[pygame.event.Event]:
        """The pending events; closing the window or Escape ends the match."""
        events: list[pygame.event.Event] = pygame.event.get()
        for event in events:
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                raise MatchStopped("the window was closed")
        return events

    def next_event(self) -> pygame.event.Event | None:
        """One event at a time, so that clicks made ahead are all played."""
        if not self.events:
            self.events.extend(self.pump())
        return self.events.popleft() if self.events else None

    def game(self, names: tuple[str, str], colours: tuple[str, str], board: Board, heading: str = "") -> WindowView:
        """Shows a game's start; `heading` (its number, the score so far)
        stays above the status for the whole game."""
        self.colours = colours
        self.heading = heading
        self.status = f"{names[0]} ({colours[0]}) moves first against {names[1]} ({colours[1]})"
        self.board = board.copy()
        self.draw(board)
        self.check_closed()
        return WindowView(self, names)

    def drop(self, board: Board) -> None:
        """Animates the last move of `board` falling into place."""
        col = board.moves()[-1]
        player = (board.moves_played - 1) & 1
        target = self.cell_centre(col, board.height(col) - 1)[1]
        start = self.top - self.cell // 2
        board.undo()
        try:
            frames = max(1, int(DROP_SECONDS * FPS * (target - start) / (self.rows * self.cell)))
            for frame in range(1, frames + 1):
                self.draw(board, (col, start + (target - start) * frame // frames, player))
                self.check_closed()
                self.clock.tick(FPS)
        finally:
            board.play(col)

    def human(self, name: str) -> WindowHuman:
        return WindowHuman(self, name)

    def show_result(self, text: str, heading: str | None = None) -> None:
        """The result under the final board, for RESULT_SECONDS or until a
        click or key; `heading` the score with this game counted."""
        self.status = text
        if heading is not None:
            self.heading = heading
        if self.board is not None:
            self.draw(self.board)
        self.wait_for_click(RESULT_SECONDS)

    def wait_for_click(self, seconds: float | None) -> bool:
        """Waits `seconds` (None: for ever) for a click or key; True if one came."""
        waited = 0
        while seconds is None or waited < seconds * 1000:
            if any(e.type in (pygame.MOUSEBUTTONDOWN, pygame.KEYDOWN) for e in self.pump()):
                return True
            waited += self.clock.tick(FPS)
        return False

    def keep_last_board(self) -> None:
        """The end of the match: the last board stays for `hold` seconds or,
        by default, until a click, a key or the close button (Ctrl-C in
        the terminal ends it too)."""
        if self.board is None:
            return
        if self.hold is None:
            self.status += " (click or press a key to close)"
        self.draw(self.board)
        try:
            self.wait_for_click(self.hold)
        except (MatchStopped, KeyboardInterrupt):
            pass

    def close(self) -> None:
        pygame.quit()


class WindowView:
    """The referee's `on_move` for one game in the window."""

    def __init__(self, window: Window, names: tuple[str, str]):
        self.window = window
        self.names = names

    def __call__(self, board: Board) -> None:
        mover = (board.moves_played - 1) & 1
        window = self.window
        window.status = f"{self.names[mover]} ({window.colours[mover]}) plays {board.moves()[-1]}"
        window.drop(board)
        window.board = board.copy()
        window.draw(board)


class WindowHuman(Seat):
    """A person at the window: a click in a column, or its digit key, plays there."""

    timed = False

    def __init__(self, window: Window, name: str):
        self.window = window
        self.name = name
        self.colour = COLOURS[0]

    def start(self, board: Board, me: int, colour: str) -> None:
        self.colour = colour

    def ask(self, board: Board, last: int | None, timeout: float | None) -> object:
        window = self.window
        window.status = f"{self.name} ({self.colour}): click a column or press its digit"
        window.draw(board)
        try:
            while True:
                while (event := window.next_event()) is not None:
                    col = None
                    if event.type == pygame.MOUSEMOTION:
                        window.ghost = (window.column_at(event.pos[0]), self.colour)
                        window.draw(board)
                    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
                        col = window.column_at(event.pos[0])
                    elif event.type == pygame.KEYDOWN and event.unicode.isdigit():
                        col = int(event.unicode)
                    if col is None:
                        continue
                    if board.can_play(col):
                        return col
                    if 0 <= col < board.columns:
                        window.status = f"column {col} is full: play one of {board.legal_columns()}"
                    else:
                        window.status = f"column {col} is off the board: the columns are 0..{board.columns - 1}"
                    window.draw(board)
                window.clock.tick(FPS)
        finally:
            window.ghost = None
