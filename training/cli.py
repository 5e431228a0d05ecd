"""`clinea train METHOD`: grid, genetic, hillclimb or lms training of the
greedy player's weights. Every method writes PREFIX.json (loadable by
`players/greedy --weights`), PREFIX.csv (a row per generation/iteration),
PREFIX.png (the curves) and prints the winner's evaluation."""
from __future__ import annotations

import argparse
import os
import random
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from clinea.core import Rules
from clinea.players.options import add_board_options, bounded_int, command_parser
from clinea.players.weights import Weights
from clinea.ray_cluster import LOCAL
from clinea.training import genetic, grid, hillclimb, lms, parametrisation
from clinea.training.parallel import ChunkMapper, ProcessPool
from clinea.training.report import Budget, Evaluation, Recorder, final_evaluation, plot, plotting, print_evaluation

if TYPE_CHECKING:  # imported when --ray asks for it
    from clinea.training.ray_pool import RayPool

EXAMPLES = """examples:
  clinea train genetic --population 50 --generations 150 --selection 2 --fitness 2 --pmut 0.005 --pcross 0.4 --jobs 2
  clinea train grid --rule c --games 10 --sweeps 1 --time-limit 60
  clinea train genetic --parametrisation report --generations 50   (the report's 28 parameters)
  clinea train hillclimb --iterations 200 --factor 0.2 --opponent minimax
  clinea train lms --iterations 50 --against self --rate 0.05 --cooling 0.98
  clinea train genetic --population 200 --generations 150 --ray HEAD:6379   (games on a Ray cluster)
  players/greedy --weights train-genetic.json"""


def _common(parser: argparse.ArgumentParser, limit: str, default_limit: int | None) -> None:
    board = parser.add_argument_group("board")
    add_board_options(board)
    run = parser.add_argument_group("run")
    # None here: the default applies only when --time-limit is not given either
    run.add_argument(f"--{limit}", type=bounded_int(f"--{limit}", 1), default=None,
                     help=f"stop after this many {limit} (default {default_limit}, "
                          "or none when --time-limit is given)")
    parser.set_defaults(limit_name=limit, default_limit=default_limit)
    run.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                     help="stop after this many seconds, checked between iterations (default: no time limit)")
    run.add_argument("--seed", type=int, default=None, help="random seed (default: from the system)")
    run.add_argument("--jobs", type=bounded_int("--jobs", 1), default=1,
                     help=f"worker processes for the games, this machine has {os.cpu_count()} cores (default 1)")
    run.add_argument("--ray", nargs="?", const=LOCAL, metavar="ADDRESS",
                     help="play the games as Ray tasks instead of --jobs processes (pip install "
                          "'clinea[ray]'): a new local Ray without ADDRESS, else the cluster there "
                          "(auto, HOST:PORT); the same results for the same --seed (default: no Ray, --jobs processes)")
    run.add_argument("--out", default=None, metavar="PREFIX",
                     help="write PREFIX.json, PREFIX.csv, PREFIX.png (default train-METHOD)")
    run.add_argument("--eval-games", type=bounded_int("--eval-games", 0), default=100, metavar="N",
                     help="final evaluation: N games in each colour against random and "
                          "against randomized minimax (default 100; 0 skips it)")
    run.add_argument("--quiet", action="store_true", help="no progress (default: a bar, or plain lines in a log)")


def _start(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--start", metavar="FILE.json",
                        help="start from these weights (default: random in [-1, 1])")


def _parametrisation(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--parametrisation", choices=parametrisation.NAMES, default="clinea",
                        help="clinea: one weight per feature on (own - opponent), 16 for c = 4; report: the "
                             "report's player, own and opponent's run features weighed apart, 28 for c = 4 "
                             "; windows, report-windows: the same plus open-window weights; monotone-windows: "
                             "window weights only, rising with the tokens held, 2 (c - 1) steps "
                             "(default clinea)")


def build_parser() -> argparse.ArgumentParser:
    parser = command_parser("clinea train", " ".join((__doc__ or "").splitlines()), EXAMPLES)
    methods = parser.add_subparsers(dest="method", metavar="METHOD", required=True)

    p = methods.add_parser("grid", help="two weights at a time over a grid (the seed's section 4)",
                           epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(p, "sweeps", 1)
    _start(p)
    _parametrisation(p)
    p.add_argument("--rule", choices=grid.RULES, default="a",
                   help="better than the champion: a beats it in both colours; b over N games "
                        "against random; c over N games against randomized minimax (default a)")
    p.add_argument("--games", type=bounded_int("--games", 1), default=10,
                   help="N, games per colour for rules b and c (default 10)")
    p.add_argument("--definitions", choices=grid.DEFINITIONS, default="report",
                   help="report: a = won once and never lost, b and c also need no fewer wins and no "
                        "more losses; clinea: a = won both games, b = higher wins - losses only "
                        "(default report)")
    p.add_argument("--step", type=float, default=0.1, help="grid step in [-1, 1] (default 0.1)")
    p.add_argument("--order", default=None, metavar="I,J,...",
                   help="weight indices, taken two at a time (default 0,1,2,...)")

    p = methods.add_parser("genetic", help="the seed's genetic algorithm (section 5)",
                           epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(p, "generations", 150)
    _parametrisation(p)
    p.add_argument("--population", type=bounded_int("--population", 1), default=50,
                   help="individuals per generation (default 50)")
    p.add_argument("--pcross", type=float, default=0.4, help="chance of switching parent at each gene (default 0.4)")
    p.add_argument("--pmut", type=float, default=0.005, help="chance of redrawing each weight (default 0.005)")
    p.add_argument("--selection", type=int, choices=(1, 2), default=2,
                   help="1: random pairs from the fitter half; 2: tournaments over 20%% (default 2)")
    p.add_argument("--fitness", choices=("1", "2", "external", "random", "random-fast"), default="2",
                   help="1: share of round-robin games not lost; 2: 0/5/10 + 1/2/4 moving second; "
                        "external: fitness 2 over games against randomized minimax; random: the same "
                        "against random, for boards where greedy players only draw each other; "
                        "random-fast: that plus up to 4 for winning sooner, when random loses nearly "
                        "every game (default 2)")
    p.add_argument("--external-games", type=bounded_int("--external-games", 1), default=10,
                   help="games per colour for --fitness external (default 10)")
    p.add_argument("--whole-vectors", action="store_true",
                   help="crossover inherits each run vector whole, not element by element (default: off)")
    p.add_argument("--elite-never-mutates", action="store_true", help="the kept best is never mutated (default: off)")
    p.add_argument("--min", type=float, default=-1.0, help="lowest random weight (default -1)")
    p.add_argument("--max", type=float, default=1.0, help="highest random weight (default 1)")
    p.add_argument("--init", nargs="*", default=(), metavar="FILE.json",
                   help="put these weights in the first population, the rest random (default: all random)")

    p = methods.add_parser("hillclimb", help="perturb all weights, keep what does better",
                           epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(p, "iterations", 100)
    _start(p)
    _parametrisation(p)
    p.add_argument("--factor", type=float, default=0.2, help="f: each weight times 1 +- up to f (default 0.2)")
    p.add_argument("--games", type=bounded_int("--games", 1), default=50, help="N, games per colour (default 50)")
    p.add_argument("--opponent", choices=("random", "minimax"), default="minimax",
                   help="who the weights are judged against (default minimax: randomized, depth 4)")

    p = methods.add_parser("lms", help="least-mean-squares learning from self-play",
                           epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(p, "iterations", 50)
    _start(p)
    p.add_argument("--games", type=bounded_int("--games", 1), default=20, help="games per iteration (default 20)")
    p.add_argument("--against", choices=lms.OPPONENTS, default="self",
                   help="self: the previous iteration's weights; random (default self)")
    p.add_argument("--rate", type=float, default=0.1, help="learning rate, (0, 1] (default 0.1)")
    p.add_argument("--cooling", type=float, default=0.98, help="rate factor per iteration, (0, 1] (default 0.98)")
    return parser


def _start_weights(path: str | None, c: int, rng: random.Random, name: str = "clinea") -> list[float]:
    if path:
        return parametrisation.vector(Weights.load(path), name, c)
    return [rng.uniform(-1, 1) for _ in range(parametrisation.length(name, c))]


def pool(args: argparse.Namespace) -> ProcessPool | RayPool:
    """Where the games run: --jobs local processes, or Ray with --ray."""
    if args.ray is not None:
        from clinea.training.ray_pool import RayPool
        return RayPool(args.ray)
    return ProcessPool(args.jobs)


@dataclass
class MethodRun:
    """What every training method is given."""
    args: argparse.Namespace
    rules: Rules
    start: list[float]
    order: list[int] | None
    budget: Budget
    recorder: Recorder
    runner: ChunkMapper
    seed: int
    seeds: list[list[float]]
    parametrisation: str


def run_genetic(run: MethodRun) -> tuple[list[float], float]:
    args = run.args
    config = genetic.GeneticConfig(
        population=args.population, pcross=args.pcross, pmut=args.pmut,
        selection=args.selection, fitness=1 if args.fitness == "1" else 2,
        external=args.fitness in ("external", "random", "random-fast"),
        external_games=args.external_games, fast_wins=args.fitness == "random-fast",
        external_opponent="random" if args.fitness.startswith("random") else "minimax",
        whole_vectors=args.whole_vectors, elite_never_mutates=args.elite_never_mutates,
        parametrisation=run.parametrisation, low=args.min, high=args.max)
    return genetic.run(run.rules, config, run.budget, run.recorder, run.runner, run.seed, run.seeds)


def run_grid(run: MethodRun) -> tuple[list[float], float]:
    args = run.args
    return grid.run(run.rules, run.start, args.rule, args.step, run.order, args.games, run.budget, run.recorder,
                    run.runner, run.seed, args.definitions)


def run_hillclimb(run: MethodRun) -> tuple[list[float], float]:
    args = run.args
    return hillclimb.run(run.rules, run.start, args.factor, args.opponent, args.games, run.budget, run.recorder,
                         run.runner, run.seed)


def run_lms(run: MethodRun) -> tuple[list[float], float]:
    args = run.args
    return lms.run(run.rules, run.start, args.against, args.games, args.rate, args.cooling, run.budget,
                   run.recorder, run.seed)


@dataclass(frozen=True)
class Method:
    run: Callable[[MethodRun], tuple[list[float], float]]
    columns: tuple[str, ...] = ()  # what its iterations add to the CSV


#: the training methods by name, as clinea.main's COMMANDS holds the sub-commands
METHODS: dict[str, Method] = {
    "genetic": Method(run_genetic),
    "grid": Method(run_grid, ("pair", "champion_wins", "champion_losses")),
    "hillclimb": Method(run_hillclimb, ("accepted",)),
    "lms": Method(run_lms, ("win_rate", "victory_rate", "rate")),
}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rules = Rules(args.columns, args.rows, args.c, args.p)
        if args.c < 2:
            raise ValueError(f"c={args.c} is out of range: allowed 2 or more (with c=1 every move wins)")
        seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(63)
        rng = random.Random(seed)
        iterations = getattr(args, args.limit_name)
        # lms learns one linear evaluation of (own - opponent): clinea's layout only
        name = getattr(args, "parametrisation", "clinea")
        length = parametrisation.length(name, args.c)
        if iterations is None and args.time_limit is None:
            iterations = args.default_limit
        order = None
        if args.method == "grid":
            order = [int(x) for x in args.order.split(",")] if args.order else None
            pairs = grid.pairs_from_order(order or range(length), length)
            iterations = iterations * len(pairs) if iterations is not None else None
        budget = Budget(iterations, args.time_limit)
        prefix = args.out or f"train-{args.method}"
        check_out(prefix)
        # the genetic algorithm starts from a population, not from one vector
        start = [] if args.method == "genetic" else _start_weights(args.start, args.c, rng, name)
        seeds = [parametrisation.vector(Weights.load(f), name, args.c) for f in getattr(args, "init", ())]
    except ValueError as error:
        parser.error(str(error))
    recorder = Recorder(prefix + ".csv", budget, METHODS[args.method].columns, f"train {args.method}", args.quiet)
    plotting()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # SIGTERM stops a run as Ctrl-C does
    evaluation: Evaluation | None = None
    try:
        with pool(args) as runner:
            try:
                best, score = METHODS[args.method].run(
                    MethodRun(args, rules, start, order, budget, recorder, runner, rng.getrandbits(63), seeds, name))
            except ValueError as error:
                recorder.close()
                parser.error(str(error))
            recorder.close()
            print(f"{args.method}: {len(recorder.rows)} iterations in {budget.elapsed():.1f} s, "
                  f"final fitness {score:.4f}")
            if args.eval_games:
                evaluation = final_evaluation(best, rules, args.c, args.eval_games, rng.getrandbits(63), runner)
                print_evaluation(evaluation)
    except KeyboardInterrupt as stop:
        # the with block has terminated the workers; what is best so far is the result
        status = stop.status if isinstance(stop, Terminated) else 130  # 128 + the signal, as a shell reports it
        recorder.close()
        if recorder.best is None:
            print("interrupted before the first iteration ended: nothing to write", file=sys.stderr)
            return status
        best, score = recorder.best
        print(f"interrupted after {len(recorder.rows)} iterations: writing the best so far "
              f"(fitness {score:.4f})", file=sys.stderr)
        write_results(args, argv, seed, rules, recorder, budget, best, score, None, prefix, interrupted=True)
        return status
    finally:
        recorder.close()
    write_results(args, argv, seed, rules, recorder, budget, best, score, evaluation, prefix)
    return 0


class Terminated(KeyboardInterrupt):
    """SIGTERM, which stops a run as Ctrl-C does and exits 128 + 15 = 143."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.status = 128 + signum


def _interrupt(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated(signum)


def check_out(prefix: str) -> None:
    """Refuses an --out where the results could not be written, before the run."""
    folder = os.path.dirname(prefix) or "."
    if not os.path.isdir(folder):
        raise ValueError(f"--out {prefix}: no such directory {folder!r}")
    for suffix in (".json", ".csv", ".png"):
        path = prefix + suffix
        if os.path.isdir(path) or (os.path.exists(path) and not os.access(path, os.W_OK)) \
                or (not os.path.exists(path) and not os.access(folder, os.W_OK)):
            raise ValueError(f"--out {prefix}: cannot write {path}")


def write_results(args: argparse.Namespace, argv: Sequence[str] | None, seed: int, rules: Rules,
                  recorder: Recorder, budget: Budget, best: Sequence[float], score: float,
                  evaluation: Evaluation | None, prefix: str, interrupted: bool = False) -> None:
    """PREFIX.json (the weights and how they were made) and PREFIX.png; the
    CSV was written row by row."""
    info: dict[str, Any] = {"made_by": f"clinea train {args.method}", "argv": list(argv if argv is not None else sys.argv[1:]),
            "seed": seed, "board": list(rules),
            "iterations": len(recorder.rows), "seconds": round(budget.elapsed(), 2), "fitness": score,
            "parametrisation": getattr(args, "parametrisation", "clinea")}
    if interrupted:
        info["interrupted"] = True
    if evaluation:
        info["evaluation"] = {kind: {"first": vars(first), "second": vars(second)}
                              for kind, (first, second) in evaluation.items()}
    parametrisation.to_weights(best, args.c, info).save(prefix + ".json")
    plot(recorder.rows, prefix + ".png", f"clinea train {args.method} on {args.columns}x{args.rows}, c={args.c}",
         args.method)
    print(f"wrote {prefix}.json, {prefix}.csv, {prefix}.png")
