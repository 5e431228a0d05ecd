"""Strength of `strong` at scale: a perfect 7x6 player, OpenSpiel's C++ MCTS
on the big boards at equal CPU, and a time-odds ladder; every game kept in
a results file, from which --report writes docs/STRENGTH.md.

The full set (the default; about three hours on two quiet cores, or
--ray on more: 14x12 c6 against MCTS-100,000 alone is about 100 minutes,
MCTS spending 7.3 s of CPU a move there and its first games lasting 100
moves, 10 minutes of CPU each; 9x8 c5 about 50, the ladder 15, the rest
15; the progress bar's estimate tells, and a run stopped at any point
continues):
1. 7x6 against the exact solver (which plays a move keeping the exact score),
   from each two-move opening with strong on either side at --time-per-move
   seconds, and once from the empty board: the games strong ends worse than
   the opening's value. Strong ponders for as long as an opponent at equal
   time would think (--no-ponder: it does not).
2. Against OpenSpiel's MCTSBot (random rollouts, its solver on), --mcts
   BOARD:SIMULATIONS:GAMES[:SHARE]: 100000 simulations on 9x8 c5 (40 games, and
   20 more with strong at a tenth of MCTS's CPU a move), 10000
   and 100000 on 14x12 c6 (20 games each). Equal CPU a move: each of strong's
   moves gets the median CPU time of MCTS's moves so far (three calibration
   moves from the empty board, then the game's), in wall time stretched by
   how long strong's thread waited for a core per second it ran in its moves
   so far (Linux's schedstat), so that a loaded core does not shorten its
   share. Pondering is off (--mcts-ponder: strong
   thinks on MCTS's time too, that CPU is counted to strong, and a game then
   takes two cores). Games come in pairs from one random opening of --plies
   moves, colours swapped.
3. The time-odds ladder (--ladder T): strong at T CPU seconds a move against
   strong at 2T and 4T (--ladder-odds), --ladder-games games a rung (100)
   on each --ladder-boards board (14x12 c6), paired openings, no pondering:
   Elo with 95 % intervals, and whether strength still rises with time.

Games run --jobs at a time (default: one per core; each game is one process
on one core), or as Ray tasks on a cluster with --ray [ADDRESS]. Every
finished game is appended to --results (JSON lines, flushed to disk) as it
ends: a run started again with the same arguments plays only the games not
there yet. --quick: the same rungs with fewer games (10-15 minutes on two
cores; wider intervals). At the end the tables of the results are printed;
--report FILE.md writes them with the machine, the commands and commits, the
ladder's plot (FILE-ladder.png), --oracle's summary (benchmarks/oracle.py
--summary), and every game strong lost or drew against MCTS replayed by the
exact solver (clinea.arena.analysis) to find its first move that gave the value
away (each position within --analysis-time seconds, else "unknown").

Needs `open_spiel` for the MCTS rungs (make bench-strength installs it).

examples:
  python benchmarks/strength.py --quick
  python benchmarks/strength.py --results docs/strength-games.jsonl --report docs/STRENGTH.md
  python benchmarks/strength.py --no-run --results docs/strength-games.jsonl --report docs/STRENGTH.md
  python benchmarks/strength.py --openings 0 --ladder 0 --mcts 10x9c4:10000:20 --record lost.jsonl
  python benchmarks/strength.py --openings 0 --ladder 0 --mcts 9x8c5:100000:20:0.1   # a tenth of MCTS's CPU
  python benchmarks/strength.py --openings 4 --mcts 9x8c5:300:2 --ladder 0.01 --ladder-games 2 --ray
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from clinea.bounded import MIB, TooLarge, WholeLines, append_durably, bounded_lines, json_value, read_file, read_text
from clinea.core import Board
from clinea.core.solver import Solver
from clinea.core.timeman import SCHEDSTAT, SCHEDSTAT_LIMIT, Limits
from clinea.judge.stats import estimate, score_from_elo
from clinea.players.strong_player import StrongBot, usable_cores
from clinea.progress import progress_bar

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
Spec = tuple[int, int, int]
#: the full set's MCTS rungs: (board, simulations, games, strong's share of MCTS's CPU)
FULL_MCTS = [((9, 8, 5), 100_000, 40, 1.0), ((9, 8, 5), 100_000, 20, 0.1), ((14, 12, 6), 10_000, 20, 1.0),
             ((14, 12, 6), 100_000, 20, 1.0)]
#: --quick: the same rungs, fewer games
QUICK_MCTS = [((9, 8, 5), 100_000, 4, 1.0), ((9, 8, 5), 100_000, 2, 0.1), ((14, 12, 6), 10_000, 4, 1.0),
              ((14, 12, 6), 100_000, 2, 1.0)]
#: where strength still rises with time (on 9x8 c5 short clocks already draw
#: most games) and what the time allows: 14x12 c6's 100 games a rung take
#: about 30 minutes of a core, 9x8 c5's about 15 more
LADDER_BOARDS = [(14, 12, 6)]
FULL = {"openings": 49, "ladder_games": 100}
QUICK = {"openings": 4, "ladder_games": 10}
#: a results line longer than this is not one of ours
LINE_LIMIT = 4 * MIB
RESULTS_LIMIT = 1 << 30
#: how much a loaded core may stretch strong's wall time to buy its CPU share
MAX_STRETCH = 4.0
#: the longest a game may take on Ray before the run gives up on the cluster
RAY_GAME_DEADLINE = 4 * 3600.0


# ---------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Rung:
    """A row of the tables: one kind of game, played `games` times."""

    kind: str  # "perfect" (7x6 against the exact solver), "mcts", or "odds" (the ladder)
    board: Spec
    games: int
    simulations: int = 0  # mcts: MCTS's simulations a move
    share: float = 1.0  # mcts: strong's CPU a move, as a share of MCTS's
    seconds: float = 0.0  # perfect: strong's seconds a move; odds: the shorter clock's CPU seconds
    odds: float = 0.0  # odds: the longer clock is this many times the shorter
    ponder: bool = False  # strong thinks on the opponent's time
    nodes: int = 0  # perfect: nodes a move instead of a clock
    plies: int = 2  # random moves of each paired opening (mcts, odds)
    seed: int = 1

    @property
    def ident(self) -> str:
        """Everything that makes its games what they are (not how many): a
        game's key starts with it, so that a run resumed with other counts
        still finds the games it played."""
        fields = {key: value for key, value in asdict(self).items() if key != "games"}
        return " ".join(f"{key}={value}" for key, value in fields.items())

    @property
    def opponent(self) -> str:
        if self.kind == "perfect":
            return "the exact solver"
        if self.kind == "mcts":
            return f"MCTS-{self.simulations:,} (solver on)"
        return f"strong at {self.seconds * self.odds:g} s"

    @property
    def budget(self) -> str:
        """strong's budget a move, in words."""
        pondering = ", pondering" if self.ponder else ", no pondering"
        if self.kind == "perfect":
            return (f"{self.nodes} nodes" if self.nodes else f"{self.seconds:g} s") + pondering
        if self.kind == "mcts":
            part = "" if self.share == 1 else f"{self.share:g} x "
            return f"{part}MCTS's median CPU a move" + (", pondering counted" if self.ponder else ", no pondering")
        return f"{self.seconds:g} s CPU{pondering}"

    @property
    def cpus(self) -> int:
        """Cores a game of this rung keeps busy."""
        return 2 if self.ponder and self.kind == "mcts" else 1


def board_name(board: Spec) -> str:
    return f"{board[0]}x{board[1]} c{board[2]}"


def paired_openings(columns: int, rows: int, c: int, pairs: int, plies: int, seed: int) -> list[list[int]]:
    """`pairs` openings of `plies` random moves that leave the game open,
    each to be played twice, with the colours swapped. The first k of them
    are the same for any `pairs` >= k: a longer run extends a shorter one."""
    rng = random.Random(seed)
    openings: list[list[int]] = []
    while len(openings) < pairs:
        board = Board(columns, rows, c)
        for _ in range(plies):
            board.play(rng.choice(board.legal_columns()))
        if not board.is_over():
            openings.append(board.moves())
    return openings


def games_of(rung: Rung) -> list[dict[str, Any]]:
    """The game specs of a rung (plain data: they travel to worker processes
    and Ray tasks), each with its key."""
    if rung.kind == "perfect":
        openings = [([a, b], side) for a in range(7) for b in range(7) for side in (0, 1)][:rung.games - 1]
        pairs = [(opening, side, index // 2) for index, (opening, side) in enumerate(openings)] + [([], 0, -1)]
    else:
        found = paired_openings(*rung.board, (rung.games + 1) // 2, rung.plies, rung.seed)
        pairs = [(opening, side, pair) for pair, opening in enumerate(found) for side in (0, 1)][:rung.games]
    # the pair's number too: two pairs may start from the same opening
    return [{"key": f"{rung.ident} | pair {pair} opening {opening} strong {side}", "rung": asdict(rung),
             "opening": opening,
             "side": side, "pair": pair, "game_seed": rung.seed + index}
            for index, (opening, side, pair) in enumerate(pairs)]


def calibration_key(rung: Rung) -> str:
    return f"{rung.ident} | calibration"


# ---------------------------------------------------------------- the games (in a worker)


def result_for(board: Board, side: int) -> int:
    """1 win, 0 draw, -1 loss for `side` (0: the first player) of a finished game."""
    if board.winner is None:
        return 0
    return 1 if board.winner == side else -1


def seen(bot: StrongBot) -> str:
    """What strong's search saw at its last move, in a few words."""
    found = bot.last
    if found is None:
        return "?"
    depth = f" depth {found.depth}" if found.depth else ""
    return f"{found.source}{depth} score {found.score}{' proven' if found.proven else ''}"


def thread_schedstat() -> tuple[float, float] | None:
    """(seconds run, seconds waited for a core) of the calling thread since
    it started, by Linux's schedstat; None where there is none."""
    try:
        ran, waited = (int(field) for field in read_file(SCHEDSTAT, SCHEDSTAT_LIMIT).split()[:2])
    except (OSError, ValueError):  # TooLarge is a ValueError
        return None
    return ran * 1e-9, waited * 1e-9


class CpuShare:
    """The wall seconds that buy a player `cpu` seconds of CPU: its moves so
    far say how long its thread waited for a core for each second it ran (on
    a quiet core not at all; two games on two busy cores, a while), and its
    clock is stretched by as much, so that equal CPU stays equal on a loaded
    machine. Only waits for a core count, not the player's own (a lock, a
    sleep); without schedstat, the wall time its moves took beyond their CPU."""

    def __init__(self) -> None:
        self.ran = self.waited = 0.0

    def wall_for(self, cpu: float) -> float:
        stretch = (self.ran + self.waited) / self.ran if self.ran > 0 else 1.0
        return max(cpu * min(stretch, MAX_STRETCH), 0.001)

    def timed(self, bot: StrongBot, board: Board) -> tuple[int, float]:
        """`bot`'s move and the CPU seconds this process spent on it."""
        before, wall, cpu = thread_schedstat(), time.perf_counter(), time.process_time()
        answer = bot.choose(board.copy())
        after, wall, cpu = thread_schedstat(), time.perf_counter() - wall, time.process_time() - cpu
        if before is not None and after is not None:
            self.ran += after[0] - before[0]
            self.waited += after[1] - before[1]
        else:
            self.ran += cpu
            self.waited += max(0.0, wall - cpu)
        return answer, cpu


def play_against_perfect(opening: list[int], strong_side: int, time_per_move: float,
                         perfect: Solver, ponder: bool, move_times: list[float],
                         nodes: int = 0) -> tuple[int, int]:
    """(value for strong of the opening, result for strong) of one game;
    strong's seconds per move go to `move_times`.

    The perfect opponent's own search takes anything from microseconds to
    seconds, so it cannot stand for the opponent's clock: as in a match at
    equal time, strong ponders (when `ponder`) for `time_per_move` seconds
    after each of its moves, then stops, and only then is the opponent's
    move computed. With `nodes`, strong has that many nodes a move instead
    of a clock, and ponders as many: the same games on any machine, loaded
    or not."""
    board = Board.from_moves(opening)
    value = perfect.solve(board, weak=True)
    if board.side_to_move != strong_side:
        value = -value
    bot = StrongBot(time_per_move=3600.0, max_nodes=nodes) if nodes else StrongBot(time_per_move=time_per_move)
    bot.new_game(board.copy(), strong_side)
    while not board.is_over():
        if board.side_to_move == strong_side:
            start = time.perf_counter()
            board.play(bot.choose(board.copy()))
            move_times.append(time.perf_counter() - start)
            if ponder and not board.is_over():
                bot.ponder(board.copy())
                if nodes and bot.pondering is not None:
                    bot.pondering.join()  # until its nodes run out
                else:
                    time.sleep(time_per_move)
                bot.stop_pondering()
        else:
            board.play(perfect.play_value(board)[0])
    return value, result_for(board, strong_side)


def perfect_game(spec: dict[str, Any], rung: Rung) -> dict[str, Any]:
    move_times: list[float] = []
    value, result = play_against_perfect(spec["opening"], spec["side"], rung.seconds, Solver(), rung.ponder,
                                         move_times, rung.nodes)
    return {"value": value, "result": result, "median_move": statistics.median(move_times),
            "max_move": max(move_times)}


def mcts_bot(pyspiel: Any, game: Any, simulations: int, seed: int) -> Any:
    """OpenSpiel's C++ MCTS with random rollouts and its solver on (a proven
    win or loss in the tree is played as such)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 1000, True, seed, False)


def openspiel_game(board: Spec) -> tuple[Any, Any]:
    import pyspiel
    columns, rows, c = board
    return pyspiel, pyspiel.load_game("connect_four", {"columns": columns, "rows": rows, "x_in_row": c})


def calibrate(rung: Rung, samples: int = 3) -> dict[str, Any]:
    """CPU seconds of `samples` MCTS moves from the empty board."""
    pyspiel, game = openspiel_game(rung.board)
    times = []
    for i in range(samples):
        bot = mcts_bot(pyspiel, game, rung.simulations, rung.seed + i)
        start = time.thread_time()
        bot.step(game.new_initial_state())
        times.append(time.thread_time() - start)
    return {"cpu": times}


def mcts_game(spec: dict[str, Any], rung: Rung) -> dict[str, Any]:
    """One game against MCTS from the spec's opening.

    Equal CPU: each of strong's moves gets the median CPU time of MCTS's
    moves so far (the calibration's and this game's), measured on the thread
    MCTS runs in, as wall time stretched by CpuShare. Without pondering
    strong's CPU is its moves'; with it, the process's CPU while MCTS thinks,
    less MCTS's own, is counted to strong as well."""
    pyspiel, game = openspiel_game(rung.board)
    board = Board.from_moves(spec["opening"], *rung.board)
    state = game.new_initial_state()
    for col in spec["opening"]:
        state.apply_action(col)
    side = spec["side"]
    mcts_cpu = list(spec["calibration"])
    bot = StrongBot(time_per_move=max(statistics.median(mcts_cpu), 0.001), ponder=rung.ponder, race=False)
    bot.new_game(board.copy(), side)
    opponent = mcts_bot(pyspiel, game, rung.simulations, spec["game_seed"])
    share = CpuShare()
    strong_cpu, game_mcts_cpu, views = 0.0, [], []
    while not board.is_over():
        if board.side_to_move == side:
            bot.limits = Limits(time=share.wall_for(rung.share * statistics.median(mcts_cpu)))
            col, spent = share.timed(bot, board)
            strong_cpu += spent
            views.append([board.moves_played + 1, seen(bot)])
        else:
            process, start = time.process_time(), time.thread_time()
            col = opponent.step(state)
            spent = time.thread_time() - start
            strong_cpu += time.process_time() - process - spent  # pondering, if any
            bot.stop_pondering()
            mcts_cpu.append(spent)
            game_mcts_cpu.append(spent)
        board.play(col)
        state.apply_action(col)
        if rung.ponder and board.side_to_move != side and not board.is_over():
            bot.ponder(board.copy())
    bot.stop_pondering()
    return {"result": result_for(board, side), "moves": board.moves(), "seen": views,
            "cpu": {"strong": strong_cpu / max(1, len(views)),
                    "opponent": statistics.mean(game_mcts_cpu) if game_mcts_cpu else None}}


def odds_game(spec: dict[str, Any], rung: Rung) -> dict[str, Any]:
    """strong at `seconds` CPU a move (the spec's side) against strong at
    `odds` times as much, no pondering."""
    board = Board.from_moves(spec["opening"], *rung.board)
    short = spec["side"]
    budgets = {short: rung.seconds, 1 - short: rung.seconds * rung.odds}
    bots = {side: StrongBot(time_per_move=seconds, ponder=False, race=False) for side, seconds in budgets.items()}
    shares = {side: CpuShare() for side in bots}
    cpu = {0: 0.0, 1: 0.0}
    moves = {0: 0, 1: 0}
    for side, bot in bots.items():
        bot.new_game(board.copy(), side)
    while not board.is_over():
        mover = board.side_to_move
        bots[mover].limits = Limits(time=shares[mover].wall_for(budgets[mover]))
        col, spent = shares[mover].timed(bots[mover], board)
        cpu[mover] += spent
        moves[mover] += 1
        board.play(col)
    return {"result": result_for(board, short), "moves": board.moves(),
            "cpu": {"strong": cpu[short] / max(1, moves[short]), "opponent": cpu[1 - short] / max(1, moves[1 - short])}}


def machine() -> dict[str, Any]:
    """The machine a game ran on, and how busy it was when it ended."""
    model = "?"
    try:
        found = re.search(r"^model name\s*:\s*(.+)$", read_text("/proc/cpuinfo", 4 * MIB), re.M)
        model = found.group(1).strip() if found else model
    except (OSError, ValueError):
        pass
    return {"host": socket.gethostname(), "cores": os.cpu_count(), "cpu": model,
            "load": [round(load, 2) for load in os.getloadavg()]}


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """A game or a calibration, as the line the results file keeps. A
    failure is returned as data (the run reports it and goes on)."""
    rung = Rung(**{**task["rung"], "board": tuple(task["rung"]["board"])})
    started = time.perf_counter()
    try:
        if task.get("calibrate"):
            found = calibrate(rung)
        else:
            found = {"perfect": perfect_game, "mcts": mcts_game, "odds": odds_game}[rung.kind](task, rung)
    except Exception as error:  # one game's failure is reported, not a traceback ending the run
        return {"key": task["key"], "error": f"{type(error).__name__}: {error}"}
    kept = {key: value for key, value in task.items() if key not in ("calibration", "calibrate")}
    return {**kept, **found, "wall": round(time.perf_counter() - started, 3), "machine": machine(),
            "ended": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


# ---------------------------------------------------------------- running them


def read_results(path: str, repair: bool = False) -> list[dict[str, Any]]:
    """The records of a results file (none if it does not exist). A last
    line without its newline is what a killed run was writing: it is left
    out, and with `repair` cut off the file so that the next line starts
    clean. Any other line that is not a JSON object is an error naming it."""
    if not os.path.exists(path):
        return []
    records = []
    with open(path, "rb") as source:
        lines = WholeLines(bounded_lines(source, path, LINE_LIMIT, RESULTS_LIMIT))
        for number, line in lines:
            try:
                record = json_value(line)
            except ValueError as error:
                raise ValueError(f"{path}:{number}: not a JSON line ({error})") from None
            if not isinstance(record, dict) or "key" not in record:
                raise ValueError(f"{path}:{number}: not a game of this benchmark (no key)")
            records.append(record)
    if repair:
        lines.cut_torn(path)
    return records


def append_record(path: str, record: dict[str, Any]) -> None:
    """One line, on the disk before the next game is counted."""
    append_durably(path, (json.dumps(record) + "\n").encode())


def _worker_start() -> None:
    """A game process ignores the terminal's Ctrl-C (the parent stops the
    pool) and dies with the parent, killed or not."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from clinea.judge import reaper
    reaper.prctl(reaper.PR_SET_PDEATHSIG, signal.SIGKILL)


def run_local(tasks: list[dict[str, Any]], jobs: int) -> Iterator[dict[str, Any]]:
    """Each task in a fresh process, `jobs` at a time, as they finish."""
    if jobs == 1:
        yield from map(run_task, tasks)
        return
    context = multiprocessing.get_context("forkserver")
    # the game processes start from a server that has clinea loaded already
    context.set_forkserver_preload(["clinea.players.strong_player", "pyspiel"])
    pool = context.Pool(jobs, initializer=_worker_start, maxtasksperchild=1)
    try:
        yield from pool.imap_unordered(run_task, tasks, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run_on_ray(tasks: list[dict[str, Any]], address: str | None) -> Iterator[dict[str, Any]]:
    """Each task a Ray task on the cluster at `address` (clinea.ray_cluster
    joins it: a fresh local Ray without one), as they finish."""
    from clinea.ray_cluster import RayFailure, first_line, get, joined

    with joined(address) as ray:
        remote = ray.remote(max_retries=2)(run_task)
        waiting = [remote.options(num_cpus=Rung(**task["rung"]).cpus).remote(task) for task in tasks]
        try:
            while waiting:
                try:
                    done, waiting = ray.wait(waiting, num_returns=1, timeout=RAY_GAME_DEADLINE)
                except ray.exceptions.RayError as error:
                    raise RayFailure(f"strength.py: a game on Ray failed: {first_line(error)}") from None
                if not done:
                    raise RayFailure(f"strength.py: no game ended on Ray within {RAY_GAME_DEADLINE:g} s")
                yield from get(ray, done, "a game's result")
        finally:
            for ref in waiting:
                ray.cancel(ref, force=True)


def run_tasks(tasks: list[dict[str, Any]], args: argparse.Namespace, cpus: int) -> Iterator[dict[str, Any]]:
    if args.ray is not None:
        return run_on_ray(tasks, args.ray)
    return run_local(tasks, max(1, args.jobs // cpus))


def git_commit(results: str) -> str:
    """The checkout's commit, marked -dirty with uncommitted changes other
    than the `results` file's (a rerun's starts by removing the games to
    play again)."""
    inside = os.path.relpath(os.path.abspath(results), REPO)
    others = [] if inside.startswith("..") else ["--", ".", f":(exclude){inside}"]
    try:
        commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no", *others],
                               capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"
    return (commit or "?") + ("-dirty" if dirty else "")


def play(rungs: list[Rung], args: argparse.Namespace) -> int:
    """Plays the rungs' games not yet in the results file; the number that failed."""
    os.makedirs(os.path.dirname(os.path.abspath(args.results)), exist_ok=True)
    done = {record["key"]: record for record in read_results(args.results, repair=True) if "error" not in record}
    provenance = {"command": shlex.join(["python", os.path.relpath(sys.argv[0], REPO), *sys.argv[1:]]),
                  "commit": git_commit(args.results)}
    if args.ray is not None:  # joined once for the whole run: each batch below finds it joined
        from clinea.ray_cluster import joined
        with joined(args.ray):
            return play_joined(rungs, args, done, provenance)
    return play_joined(rungs, args, done, provenance)


def play_joined(rungs: list[Rung], args: argparse.Namespace, done: dict[str, dict[str, Any]],
                provenance: dict[str, str]) -> int:
    from tqdm import tqdm

    failed = 0

    def finished(batch: list[dict[str, Any]], cpus: int, what: str) -> Iterator[dict[str, Any]]:
        nonlocal failed
        if not batch:
            return
        # tqdm's bar on a terminal, a plain line now and then in a log file
        bar = progress_bar(len(batch), 0, "game", what)
        try:
            for record in run_tasks(batch, args, cpus):
                bar.update()
                if "error" in record:
                    failed += 1
                    tqdm.write(f"strength.py: {record['key']}: {record['error']}", file=sys.stderr)
                    continue
                append_record(args.results, record)
                done[record["key"]] = record
                yield record
        finally:
            bar.close()

    for cpus in sorted({rung.cpus for rung in rungs}):
        group = [rung for rung in rungs if rung.cpus == cpus]
        calibrations = [{"key": calibration_key(rung), "rung": asdict(rung), "calibrate": True, **provenance}
                        for rung in group if rung.kind == "mcts" and calibration_key(rung) not in done]
        for _ in finished(calibrations, cpus, "calibrating MCTS"):
            pass
        games, skipped = [], 0
        for rung in group:
            calibration = done.get(calibration_key(rung), {}).get("cpu")
            if rung.kind == "mcts" and calibration is None:
                continue  # its calibration failed, reported above
            planned = games_of(rung)
            games += [{**game, **provenance, "calibration": calibration} for game in planned if game["key"] not in done]
            skipped += sum(game["key"] in done for game in planned)
        # the longest games first: two cores stay busy to the end
        games.sort(key=lambda game: -expected_cost(game))
        if skipped:
            print(f"{skipped} games already in {args.results}", file=sys.stderr)
        for record in finished(games, cpus, "games"):
            if args.record and record["rung"]["kind"] == "mcts" and record["result"] < 1:
                append_record(args.record, {"board": record["rung"]["board"], "strong": record["side"],
                                            "result": record["result"],
                                            "simulations": record["rung"]["simulations"], "moves": record["moves"]})
    return failed


def expected_cost(game: dict[str, Any]) -> float:
    """A game's CPU seconds, roughly: to order the games, longest first."""
    rung = Rung(**{**game["rung"], "board": tuple(game["rung"]["board"])})
    cells = rung.board[0] * rung.board[1]
    if rung.kind == "mcts":
        return cells / 2 * statistics.median(game["calibration"])
    if rung.kind == "odds":
        return cells / 4 * rung.seconds * (1 + rung.odds)
    return 0.0


# ---------------------------------------------------------------- the tables and the report


def interval(results: list[int]) -> str:
    tally = {value: results.count(value) for value in (1, 0, -1)}
    found = estimate(tally[1], tally[-1], tally[0])
    if found is None:
        return "-", "-"
    low, high = score_from_elo(found.low), score_from_elo(found.high)
    return f"{tally[1]}-{tally[0]}-{tally[-1]}", f"{found.score:.1%} [{low:.1%}, {high:.1%}]"


def rung_of(record: dict[str, Any]) -> Rung:
    return Rung(**{**record["rung"], "board": tuple(record["rung"]["board"]), "games": 0})


def grouped(records: list[dict[str, Any]]) -> dict[Rung, list[dict[str, Any]]]:
    """The games of the records by rung, each game once (the first line of a key)."""
    games: dict[str, dict[str, Any]] = {}
    for record in records:
        if "error" not in record and "result" in record:
            games.setdefault(record["key"], record)
    rungs: dict[Rung, list[dict[str, Any]]] = {}
    for record in games.values():
        rungs.setdefault(rung_of(record), []).append(record)
    return rungs


def median_of(records: list[dict[str, Any]], side: str) -> str:
    values = [record["cpu"][side] for record in records if record.get("cpu", {}).get(side) is not None]
    return f"{statistics.median(values):.3f} s" if values else "-"


def machine_text(records: list[dict[str, Any]]) -> tuple[str, str]:
    """The machines of the games (cores, CPU model) and the load average
    (1 minute) at their ends, lowest to highest."""
    machines = sorted({f"{record['machine']['cores']} cores, {record['machine']['cpu']}" for record in records})
    loads = [record["machine"]["load"][0] for record in records]
    return "; ".join(machines), f"{min(loads):.1f}-{max(loads):.1f}"


def runs_of(records: list[dict[str, Any]], runs: list[str]) -> str:
    """References to the commands and commits that made the games (listed
    under the tables)."""
    refs = []
    for record in records:
        run = f"`{record['command']}` at commit {record['commit']}"
        if run not in runs:
            runs.append(run)
        refs.append(runs.index(run) + 1)
    return ", ".join(f"[{ref}]" for ref in sorted(set(refs)))


def tables(records: list[dict[str, Any]]) -> tuple[str, list[str]]:
    """The tables of the games in `records` (markdown), and the runs they cite."""
    rungs = grouped(records)
    runs: list[str] = []
    out = []
    boards = sorted({rung.board for rung in rungs if rung.kind != "odds"}, key=lambda board: board[0] * board[1])
    for board in boards:
        out += [f"### {board_name(board)}", "",
                "| opponent | strong's budget a move | games | W-D-L | score [95 %] | CPU a move, strong | "
                "CPU a move, opponent | machine | load | run |", "|---|---|---|---|---|---|---|---|---|---|"]
        for rung, games in sorted(rungs.items(), key=lambda item: item[0].ident):
            if rung.board != board or rung.kind == "odds":
                continue
            wdl, score = interval([game["result"] for game in games])
            where, load = machine_text(games)
            if rung.kind == "perfect":
                worse = sum(game["result"] < game["value"] for game in games)
                wdl = f"{wdl}; {worse} worse than the opening's value"
                strong_cpu = f"{statistics.median(game['median_move'] for game in games):.3f} s (wall)"
            else:
                strong_cpu = median_of(games, "strong")
            out.append(f"| {rung.opponent} | {rung.budget} | {len(games)} | {wdl} | {score} | {strong_cpu} | "
                       f"{median_of(games, 'opponent')} | {where} | {load} | {runs_of(games, runs)} |")
        out.append("")
    ladder = ladder_rows(rungs)
    if ladder:
        out += ["### The time-odds ladder", "",
                "| board | strong at | against | games | W-D-L (shorter clock) | score [95 %] | "
                "Elo of the longer clock [95 %] | CPU a move, shorter / longer | machine | load | run |",
                "|---|---|---|---|---|---|---|---|---|---|---|"]
        for rung, games, elo, low, high in ladder:
            wdl, score = interval([game["result"] for game in games])
            where, load = machine_text(games)
            out.append(f"| {board_name(rung.board)} | {rung.seconds:g} s | {rung.seconds * rung.odds:g} s | "
                       f"{len(games)} | {wdl} | {score} | {elo + 0.0:+.0f} [{low:+.0f}, {high:+.0f}] | "
                       f"{median_of(games, 'strong')} / {median_of(games, 'opponent')} | {where} | {load} | "
                       f"{runs_of(games, runs)} |")
        out.append("")
    return "\n".join(out), runs


def ladder_rows(rungs: dict[Rung, list[dict[str, Any]]]) -> list[tuple[Rung, list[dict[str, Any]], float, float, float]]:
    """The ladder's rungs with the Elo of the longer clock over the shorter
    and its 95 % interval (infinite when one side won every game)."""
    rows = []
    for rung, games in sorted(rungs.items(), key=lambda item: (item[0].board, item[0].seconds, item[0].odds)):
        if rung.kind != "odds":
            continue
        results = [game["result"] for game in games]
        found = estimate(results.count(-1), results.count(1), results.count(0))  # the longer clock's view
        if found is not None:
            rows.append((rung, games, found.elo, found.low, found.high))
    return rows


def plot_ladder(path: str, rungs: dict[Rung, list[dict[str, Any]]]) -> bool:
    """Elo against CPU seconds a move, each board's shortest clock at 0."""
    rows = ladder_rows(rungs)
    lines: dict[str, list[tuple[float, float, float, float]]] = {}
    for rung, _, elo, low, high in rows:
        line = lines.setdefault(f"{board_name(rung.board)}, against strong at {rung.seconds:g} s",
                                [(rung.seconds, 0.0, 0.0, 0.0)])
        line.append((rung.seconds * rung.odds, elo, low, high))
    if lines:
        from plots import elo_ladder
        elo_ladder(path, lines, "strong's time-odds ladder", "strong's CPU seconds a move (log scale)")
    return bool(lines)


def goals_text(rungs: dict[Rung, list[dict[str, Any]]]) -> str:
    """Issue 48's goals, read from the figures: at least 95 % against
    MCTS-100,000 at equal CPU on every board, at least 50 % with a tenth of
    its CPU, and a ladder still rising with time."""
    out = ["## The goals (issue 48)", ""]
    for rung, games in sorted(rungs.items(), key=lambda item: item[0].ident):
        goal = 0.95 if rung.share == 1 else 0.5 if rung.share <= 0.1 else None
        if rung.kind != "mcts" or rung.simulations < 100_000 or goal is None:
            continue
        results = [game["result"] for game in games]
        found = estimate(results.count(1), results.count(-1), results.count(0))
        if found is not None:
            out.append(f"- {board_name(rung.board)}, against {rung.opponent} with {rung.share:g} of its CPU: "
                       f"{found.score:.1%} in {found.games} games (95 % from {score_from_elo(found.low):.1%}); "
                       f"the goal, at least {goal:.0%}: {'met' if found.score >= goal else 'NOT met'}")
    steps: dict[str, list[tuple[float, float]]] = {}
    for rung, _, elo, _, _ in ladder_rows(rungs):
        steps.setdefault(f"{board_name(rung.board)} from {rung.seconds:g} s", [(rung.seconds, 0.0)]).append(
            (rung.seconds * rung.odds, elo))
    for name, points in steps.items():
        flat = [x for (_, before), (x, elo) in zip(points, points[1:]) if not elo > before]
        out.append(f"- the ladder on {name}: " + ("still rising at every step" if not flat else
                   f"no gain at {', '.join(f'{x:g} s' for x in flat)} (see the table for the intervals)"))
    return "\n".join(out + [""]) if len(out) > 2 else ""


def analysed_losses(records: list[dict[str, Any]], cache_path: str, time_limit: float) -> list[dict[str, Any]]:
    """Every game strong lost or drew against MCTS, replayed by the exact
    solver (weak values, `time_limit` seconds a position): its first move
    that gave the value away. Kept in `cache_path` with the game's moves,
    so the report does not solve a game twice, and a game played again
    under the same key (its rung rerun) is solved anew."""
    from clinea.arena.analysis import analyse

    cached = {record["key"]: record for record in read_results(cache_path, repair=True)
              if record.get("time_limit") == time_limit}
    found = []
    solver: Solver | None = None
    for rung, games in grouped(records).items():
        for game in games:
            if rung.kind != "mcts" or game["result"] == 1:
                continue
            if cached.get(game["key"], {}).get("moves") != game["moves"]:
                solver = solver or Solver(22)
                analysis = analyse(Board(*rung.board).rules, game["moves"], solver, time_limit, weak=True, hurry_after=4)
                side = game["side"]
                opening_value = analysis.first_player_values[len(game["opening"])]
                mistakes = [mark for mark in analysis.marks if mark.player == side and mark.lost]
                first = mistakes[0] if mistakes else None
                # strong's moves before it that the solver could not judge: one of them may have been the first
                unjudged = [mark for mark in analysis.marks if mark.player == side and mark.kept is None
                            and (first is None or mark.ply < first.ply)]
                views = dict(map(tuple, game.get("seen", [])))
                cached[game["key"]] = {
                    "key": game["key"], "moves": game["moves"], "time_limit": time_limit,
                    "opening_value": None if opening_value is None else opening_value * (1 if side == 0 else -1),
                    "first": None if first is None else {"ply": first.ply, "column": first.column,
                                                         "before": first.before, "after": first.after,
                                                         "lost": first.lost, "seen": views.get(first.ply, "?")},
                    "unjudged": len(unjudged)}
                append_record(cache_path, cached[game["key"]])
            found.append({"game": game, "rung": rung, **cached[game["key"]]})
    return found


VALUE_WORD = {1: "win", 0: "draw", -1: "loss", None: "unknown"}


def losses_text(losses: list[dict[str, Any]], time_limit: float) -> str:
    out = ["## Where strong lost or drew against MCTS", "",
           f"Each such game replayed by the exact solver (`clinea.arena.analysis`, weak values, {time_limit:g} s a "
           "position, later positions first): the first of strong's moves that gave a win or a draw away, its "
           "value for strong before and after, and what strong's search saw when it played it. Columns from 0; "
           "\"unknown\": no position of strong's was both solved and lost (the solver ran out of time).", ""]
    if not losses:
        return "\n".join(out + ["None: strong won every game against MCTS.", ""])
    out += ["| board | opponent | strong | result | opening's value | moves | the move (ply: column) | "
            "before / after | strong saw |", "|---|---|---|---|---|---|---|---|---|"]
    for loss in losses:
        game, rung, first = loss["game"], loss["rung"], loss["first"]
        move = "unknown" if first is None else f"{first['ply']}: {first['column']}"
        if first is None and not loss["unjudged"]:
            move = "none: every move of strong's kept its value (the opening's was already lower)"
        if first is not None and loss["unjudged"]:
            move += f" (the first known: {loss['unjudged']} earlier moves of strong's unknown)"
        values = "-" if first is None else f"{VALUE_WORD[first['before']]} / {VALUE_WORD[first['after']]}"
        out.append(f"| {board_name(rung.board)} | {rung.opponent} | {'first' if game['side'] == 0 else 'second'} | "
                   f"{VALUE_WORD[game['result']]} | {VALUE_WORD[loss['opening_value']]} | "
                   f"{','.join(map(str, game['moves']))} | {move} | {values} | "
                   f"{'-' if first is None else first['seen']} |")
    return "\n".join(out + [""])


def oracle_text(path: str) -> str:
    """The oracle's mistake rates from benchmarks/oracle.py --summary."""
    summary = json_value(read_text(path, 16 * MIB))
    if not isinstance(summary, dict) or not isinstance(summary.get("rows"), list):
        raise ValueError(f"{path}: not a summary of benchmarks/oracle.py --summary")
    out = ["## The oracle: strong's moves against the exact solver's labels", "",
           f"`{summary['command']}` at commit {summary['commit']}, {summary['machine']['cores']} cores, "
           f"{summary['machine']['cpu']}, load {summary['machine']['load'][0]:.1f}.", "",
           "| set | seconds a move | positions | value lost | share [95 % upper] | wins given up | "
           "draws given up | median / max move |", "|---|---|---|---|---|---|---|---|"]
    for row in summary["rows"]:
        out.append(f"| {row['set']} | {row['seconds']:g} | {row['positions']} | {row['given_up']} | "
                   f"{row['share']:.2%} [{row['upper']:.2%}] | {row['wins_given_up']} | {row['draws_given_up']} | "
                   f"{row['median_ms']:.0f} / {row['max_ms']:.0f} ms |")
    return "\n".join(out + [""])


def write_report(path: str, args: argparse.Namespace) -> None:
    records = read_results(args.results)
    body, runs = tables(records)
    plot = os.path.splitext(path)[0] + "-ladder.png"
    drew = plot_ladder(plot, grouped(records))
    cache = os.path.splitext(args.results)[0] + "-analysis.jsonl"
    losses = analysed_losses(records, cache, args.analysis_time)
    source = os.path.relpath(args.results, os.path.dirname(os.path.abspath(path)))
    parts = [
        "# strong's strength at scale",
        "",
        f"Written by `benchmarks/strength.py --report` from the games in `{source}` (one JSON line each); "
        "`make strength-report` plays the missing games of the full set (resumably) and writes this page again. "
        "Do not edit it by hand.",
        "",
        "How the games are played: against MCTS (OpenSpiel's C++ `MCTSBot`, random rollouts, its solver on) "
        "strong gets, each move, the median CPU time of MCTS's moves so far (three calibration moves from the "
        "empty board, then the game's), its wall clock stretched by how long its thread waited for a core per "
        "second it ran, so that its CPU stays equal on a loaded machine; strong does not ponder unless the budget says so (then "
        "that CPU is counted to it). Games come in pairs from one random opening, colours swapped; one game a "
        "process, one process a core. The ladder: strong at T CPU seconds a move against strong at 2T and 4T, "
        "the same way. Scores and Elo are from strong's side (the ladder's Elo: the longer clock's over the "
        "shorter), with 95 % intervals of the game score (Wilson's where every game ended alike); games in "
        "pairs make these a little wider than they need be.",
        "",
        body,
    ]
    if drew:
        parts += [f"![the ladder: Elo against CPU seconds a move]({os.path.basename(plot)})", ""]
    parts.append(goals_text(grouped(records)))
    if args.oracle:
        parts.append(oracle_text(args.oracle))
    parts.append(losses_text(losses, args.analysis_time))
    parts += ["## The runs", ""] + [f"{number}. {run}" for number, run in enumerate(runs, 1)] + [""]
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(parts))
    print(f"wrote {path}" + (f" and {plot}" if drew else ""))


# ---------------------------------------------------------------- the command line


def board_spec(text: str) -> Spec:
    """'10x9c4' to (10, 9, 4)."""
    found = re.fullmatch(r"(\d+)x(\d+)c(\d+)", text.replace(" ", ""))
    if not found:
        raise argparse.ArgumentTypeError(f"board {text!r}: expected COLUMNSxROWScC, as 10x9c4")
    columns, rows, c = map(int, found.groups())
    try:
        Board(columns, rows, c)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"board {text!r}: {error}") from None
    return columns, rows, c


def mcts_spec(text: str) -> tuple[Spec, int, int, float]:
    """'9x8c5:100000:40' to ((9, 8, 5), 100000, 40, 1.0); a fourth part is
    strong's share of MCTS's CPU ('9x8c5:100000:20:0.1')."""
    parts = text.split(":")
    try:
        share = float(parts[3]) if len(parts) == 4 else 1.0
    except ValueError:
        share = 0.0
    if len(parts) not in (3, 4) or not all(part.isdigit() for part in parts[1:3]) or int(parts[1]) < 1 \
            or not 0.01 <= share <= 100:
        raise argparse.ArgumentTypeError(f"--mcts {text!r}: expected BOARD:SIMULATIONS:GAMES[:SHARE], as "
                                         "9x8c5:100000:40, with 1 or more simulations and a share of 0.01..100")
    return board_spec(parts[0]), int(parts[1]), int(parts[2]), share


def count(name: str, low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < low or high is not None and int(text) > high:
            allowed = f"{low} or more" if high is None else f"{low}..{high}"
            raise argparse.ArgumentTypeError(f"{name} {text!r}: expected a whole number, {allowed}")
        return int(text)
    return parse


def seconds(name: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if not 0 <= value <= 3600 or math.isnan(value):
            raise argparse.ArgumentTypeError(f"{name} {text!r}: expected seconds, 0..3600")
        return value
    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__[__doc__.index("The full"):],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true",
                        help="the same rungs with fewer games (4, 2, 4 and 2 against MCTS, 10 a ladder rung, 4 7x6 "
                             "openings): 10-15 minutes on two cores")
    parser.add_argument("--openings", type=count("--openings", 0, 49), metavar="N",
                        help="two-move 7x6 openings against the exact solver, 0..49 (default 49; --quick 4)")
    parser.add_argument("--time-per-move", type=seconds("--time-per-move"), default=0.05,
                        help="strong's seconds a move on 7x6 (default 0.05)")
    parser.add_argument("--nodes-per-move", type=count("--nodes-per-move", 0), default=0, metavar="N",
                        help="on 7x6, N nodes a move (and as many pondering) instead of the clock (default 0)")
    parser.add_argument("--no-ponder", action="store_true", help="on 7x6, strong does not think on the opponent's time")
    parser.add_argument("--mcts", type=mcts_spec, nargs="*", metavar="BOARD:SIMULATIONS:GAMES[:SHARE]",
                        help="the MCTS rungs (default 9x8c5:100000:40 9x8c5:100000:20:0.1 14x12c6:10000:20 "
                             "14x12c6:100000:20; --quick: 4, 2, 4 and 2 games; none: no MCTS); SHARE: strong's CPU a move as a share "
                             "of MCTS's (default 1; issue 48's goal of 50 %% with a tenth: 9x8c5:100000:20:0.1)")
    parser.add_argument("--mcts-ponder", action="store_true",
                        help="against MCTS, strong thinks on MCTS's time too, its CPU counted (default: not)")
    parser.add_argument("--plies", type=count("--plies", 0), default=2,
                        help="random moves of each paired opening on the big boards (default 2)")
    parser.add_argument("--ladder", type=seconds("--ladder"), default=0.05, metavar="T",
                        help="the ladder's shortest clock, CPU seconds a move (default 0.05; 0: no ladder)")
    parser.add_argument("--ladder-odds", type=float, nargs="+", default=[2.0, 4.0],
                        help="the longer clocks, times T (default 2 4)")
    parser.add_argument("--ladder-games", type=count("--ladder-games", 1), metavar="N",
                        help="games a rung of the ladder (default 100; --quick 10)")
    parser.add_argument("--ladder-boards", type=board_spec, nargs="+", default=LADDER_BOARDS, metavar="BOARD",
                        help="the ladder's boards (default 14x12c6)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the openings and of MCTS (default 1)")
    parser.add_argument("--results", default=os.path.join(REPO, "results", "strength.jsonl"), metavar="FILE",
                        help="the results file: every game appended as it ends, a run resumes from it "
                             "(default results/strength.jsonl)")
    parser.add_argument("--jobs", type=count("--jobs", 1), default=usable_cores(),
                        help=f"games at once on this machine (default {usable_cores()}: one a core)")
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                        help="the games as Ray tasks: on the cluster at ADDRESS, without one a fresh local Ray")
    parser.add_argument("--record", metavar="FILE",
                        help="also append the games against MCTS strong did not win to FILE, one JSON line each")
    parser.add_argument("--report", metavar="FILE.md", help="write the report (and FILE-ladder.png) from --results")
    parser.add_argument("--oracle", metavar="SUMMARY.json",
                        help="the report includes this summary of benchmarks/oracle.py --summary")
    parser.add_argument("--analysis-time", type=seconds("--analysis-time"), default=1.0, metavar="SECONDS",
                        help="the solver's seconds a position when the report replays a lost game (default 1)")
    parser.add_argument("--no-run", action="store_true", help="play nothing: only the tables (and --report)")
    return parser


def plan(args: argparse.Namespace) -> list[Rung]:
    preset = QUICK if args.quick else FULL
    openings = preset["openings"] if args.openings is None else args.openings
    mcts = (QUICK_MCTS if args.quick else FULL_MCTS) if args.mcts is None else args.mcts
    ladder_games = preset["ladder_games"] if args.ladder_games is None else args.ladder_games
    rungs = []
    if openings:
        rungs.append(Rung("perfect", (7, 6, 4), 2 * openings + 1, seconds=args.time_per_move,
                          ponder=not args.no_ponder, nodes=args.nodes_per_move))
    rungs += [Rung("mcts", board, games, simulations=simulations, share=share, ponder=args.mcts_ponder,
                   plies=args.plies, seed=args.seed) for board, simulations, games, share in mcts if games]
    if args.ladder:
        rungs += [Rung("odds", board, ladder_games, seconds=args.ladder, odds=odds, plies=args.plies, seed=args.seed)
                  for board in args.ladder_boards for odds in args.ladder_odds]
    return rungs


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    rungs = plan(args)
    try:
        if any(rung.kind == "mcts" for rung in rungs) and not args.no_run:
            import pyspiel  # noqa: F401  (said now, not after the 7x6 games)
    except ImportError:
        print("strength.py: the MCTS rungs need OpenSpiel: pip install open_spiel (or --mcts with nothing after it)",
              file=sys.stderr)
        return 2
    try:
        failed = 0 if args.no_run else play(rungs, args)
        keys = {game["key"] for rung in rungs for game in games_of(rung)}
        records = [record for record in read_results(args.results) if args.no_run or record["key"] in keys]
        print(tables(records)[0])
        if args.report:
            write_report(args.report, args)
    except (OSError, ValueError, TooLarge) as error:
        print(f"strength.py: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"strength.py: stopped; the games that ended are in {args.results}, and the same command continues",
              file=sys.stderr)
        return 130
    if failed:
        print(f"strength.py: {failed} games failed (above); the same command plays them again", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
