"""`clinea judge --ray [ADDRESS]`: the schedule played on a Ray cluster.

Each local worker of clinea.judge.tournament.Runner becomes a Ray actor, a
"table" that owns one process per player and keeps it from game to game, as
the local worker does; the driver hands every idle table the next game and
logs each result the moment it comes back, through the same `on_record` as a
local run, so records, results file, tally and --resume are the same.

A table whose process dies mid-game (a node lost, a worker killed) is
restarted by Ray, which replays the game it was playing: the driver receives
exactly one result per game, so nothing is lost or counted twice.

Player programs run on whichever node hosts the table, from the driver's
working directory, so a relative path such as `players/random` must exist
there on every node (a shared file system or the same checkout everywhere),
or the job carries its directory in Ray's runtime environment
(`ray job submit --working-dir .`, or `runtime_env={"working_dir": ...}`),
in which case each node runs them from its own copy. Before the first game
every node tries to start every program, and the run stops with the list of
those that cannot start.

Every step has a deadline (clinea.ray_cluster): the node check and the
tables' close STEP_DEADLINE, a game what its clock allows, replays
included. A step that fails or overruns stops the run with RayFailure, one
line saying which step and why; the judge adds how to resume.
"""
from __future__ import annotations

import collections
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from clinea.core import Rules
from clinea.judge.process_seat import STARTUP_GRACE
from clinea.judge.record import GameRecord
from clinea.judge.referee import Clock
from clinea.judge.sandbox import Sandbox, SeatLimits
from clinea.judge.tournament import GameSpec, Player, Runner, close_seats
from clinea.ray_cluster import STEP_DEADLINE, RayFailure, cluster_cpus, first_line, get, joined, nodes

# How often Ray restarts a table that died and replays its game; more
# failures than that in one run mean something other than bad luck.
RESTARTS = 3
# How often the driver looks up from waiting, so Ctrl-C and SPRT are seen.
POLL = 0.5


class ProgramUnavailable(SystemExit):
    """Some node cannot start some player program: the run cannot start."""


class RayTable:
    """One worker of the schedule, on whichever node Ray chooses."""

    def __init__(self, players: Sequence[Player], rules: Rules, clock_factory: Callable[[], Clock],
                 concurrency: int, log_dir: str | None, index: int, cwd: str | None,
                 sandbox: tuple[str, SeatLimits, tuple[str, ...], bool] | None = None):
        if cwd is not None:
            os.chdir(cwd)
        # the sandbox is made again here: whether bwrap works is this node's question
        self.runner = Runner(players, rules, clock_factory, concurrency, log_dir,
                             sandbox=None if sandbox is None else Sandbox(*sandbox))
        self.seats, self.logs = self.runner.seats_for_worker(index)

    def play(self, spec: GameSpec) -> GameRecord:
        return self.runner.play(self.seats, spec)

    def close(self) -> None:
        close_seats(self.seats, self.logs)


def unstartable(commands: dict[str, list[str]], cwd: str | None) -> dict[str, str]:
    """{player: why} for the programs this node cannot start.

    A program counts as started when it is still running after the judge's
    start-up grace, waiting for its first line, or has exited cleanly by
    then; it fails when it cannot be executed or dies with an error status
    (a missing interpreter or module, a wrong path)."""
    failures: dict[str, str] = {}
    started: dict[str, subprocess.Popen[bytes]] = {}
    for name, command in commands.items():
        try:
            started[name] = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                             stderr=subprocess.PIPE, cwd=cwd, start_new_session=True)
        except OSError as error:
            failures[name] = f"cannot start {command[0]!r}: {error.strerror}"
    deadline = time.monotonic() + STARTUP_GRACE
    for name, proc in started.items():
        try:
            status = proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            status = 0
        try:  # the probe runs in a session of its own: its group is all it started
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()
        assert proc.stdin is not None and proc.stderr is not None  # both PIPE
        if status != 0:
            said = proc.stderr.read().decode("utf-8", "replace").strip().splitlines()
            failures[name] = f"{commands[name][0]!r} exited with status {status}" + (f" ({said[-1]})" if said else "")
        proc.stdin.close()
        proc.stderr.close()
    return failures


# `ray` below is the ray module (clinea.ray_cluster.joined), whose API has no types


def program_cwd(ray: Any) -> str | None:
    """Where the tables start the programs: the driver's directory, unless
    the job ships a working directory, which each node unpacks itself."""
    if "working_dir" in (ray.get_runtime_context().runtime_env or {}):
        return None
    return os.getcwd()


def check_nodes(ray: Any, players: Sequence[Player], cwd: str | None) -> None:
    """Raises ProgramUnavailable naming every (node, player) that fails."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    commands = {player.name: player.command for player in players}
    # no retries: a check killed for want of memory was retried without end
    task = ray.remote(num_cpus=0, max_retries=0)(unstartable)
    pending = {
        task.options(scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False))
        .remote(commands, cwd): node["NodeManagerAddress"]
        for node in nodes(ray)}
    found = get(ray, list(pending), f"the check that the {len(pending)} node(s) can start the players")
    problems = []
    for address, failures in zip(pending.values(), found):
        for name, why in sorted(failures.items()):
            problems.append(f"  player {name} on node {address}: {why}")
    if problems:
        where = f"from {cwd}" if cwd else "from the job's working directory"
        raise ProgramUnavailable("clinea judge: some nodes cannot start the players "
                                 f"({where}; see `clinea judge --help` on --ray):\n" + "\n".join(problems))


def game_deadline(rules: Rules, clock: Clock) -> float | None:
    """Seconds a game may take on Ray, a table's restarts and replays
    included, at most; None when the clock sets no bound (no time limit)."""
    moves = min(rules.columns * rules.rows, 2 * rules.p)
    bounds = []
    if clock.per_move is not None:
        bounds.append(moves * (clock.per_move + clock.grace))
    if clock.game is not None:
        bounds.append(2 * clock.game + moves * (clock.increment + clock.grace))
    if not bounds:
        return None
    return (RESTARTS + 1) * (min(bounds) + 2 * STARTUP_GRACE) + STEP_DEADLINE


class RayRunner:
    """The local Runner's `run(specs, on_record)` and `stop`, on Ray tables.

    `concurrency` None means one table per CPU of the cluster."""

    def __init__(self, address: str | None, players: Sequence[Player], rules: Rules,
                 clock_factory: Callable[[], Clock], concurrency: int | None = None,
                 log_dir: str | None = None, sandbox: Sandbox | None = None):
        self.address = address
        self.sandbox = None if sandbox is None else (sandbox.mode, sandbox.limits, sandbox.hidden, sandbox.ponder)
        self.players = list(players)
        self.rules = rules
        self.clock_factory = clock_factory
        self.concurrency = concurrency
        self.log_dir = log_dir
        self.stop = threading.Event()
        self.game_deadline = game_deadline(rules, clock_factory())

    def run(self, specs: Iterable[GameSpec], on_record: Callable[[GameRecord], None]) -> None:
        """Plays `specs`, calling `on_record` in this thread as each game
        ends; after `stop` is set, the games in flight finish and no other
        starts. On any exception (Ctrl-C included) the tables are killed and
        their games in flight dropped: the finished ones are already logged."""
        todo = list(specs)  # the deal needs the count; a cluster's run is not a million games
        if not todo:
            return
        with joined(self.address) as ray:
            cwd = program_cwd(ray)
            check_nodes(ray, self.players, cwd)
            # more tables than CPUs would wait for CPUs that never come
            count = min(self.concurrency or cluster_cpus(ray), cluster_cpus(ray), len(todo))
            remote_table = ray.remote(num_cpus=1, max_restarts=RESTARTS, max_task_retries=RESTARTS)(RayTable)
            tables = [remote_table.remote(self.players, self.rules, self.clock_factory, count, self.log_dir,
                                          index, cwd, self.sandbox) for index in range(count)]
            try:
                self._deal(ray, tables, todo, on_record)
                try:
                    get(ray, [table.close.remote() for table in tables], "closing the tables")
                except RayFailure:
                    pass  # every game is in: the kill below ends what did not close
            except ray.exceptions.RayError as error:  # Ray's own failure, in ray.wait
                raise RayFailure(f"Ray failed: {first_line(error)}") from None
            finally:
                for table in tables:
                    try:
                        ray.kill(table)
                    except Exception:  # a table on a node that is gone
                        pass

    def _deal(self, ray: Any, tables: list[Any], specs: list[GameSpec],
              on_record: Callable[[GameRecord], None]) -> None:
        todo = collections.deque(specs)
        idle = list(tables)
        playing: dict[Any, tuple[Any, GameSpec, float]] = {}  # result ref -> (table, spec, when it was dealt)
        while True:
            while idle and todo and not self.stop.is_set():
                table, spec = idle.pop(), todo.popleft()
                playing[table.play.remote(spec)] = (table, spec, time.monotonic())
            if not playing:
                return
            done, _ = ray.wait(list(playing), num_returns=1, timeout=POLL)
            for ref in done:
                table, spec, _ = playing.pop(ref)
                [game] = get(ray, [ref], f"the table playing game {spec.id}")
                on_record(game)
                idle.append(table)
            if self.game_deadline is not None:
                for _table, spec, dealt in playing.values():
                    if time.monotonic() - dealt > self.game_deadline:
                        raise RayFailure(f"game {spec.id} did not end within {self.game_deadline:g} s on Ray, "
                                         "which its clock allows with every replay (is the cluster short of "
                                         "memory or CPUs?)")
