"""Training: the operators on their own, the fitness formulas and grid rule
on hand-made results, the in-C game loop against the judge's referee, and a
short run of every method whose weights the greedy player then plays with."""
import csv
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from clinea.core import Board, Rules
from clinea.core.features import feature_count, feature_groups
from clinea.judge.referee import play_bots
from clinea.players.greedy_player import GreedyBot
from clinea.players.randomized_minimax_player import RandomizedMinimaxBot
from clinea.players.weights import Weights
from clinea.training import cli, genetic, grid, hillclimb, lms, parametrisation
from clinea.training.fitness import DRAW, LOSS, WIN, GameTally, fitness_not_lost, fitness_points, round_robin, versus
from clinea.training.games import FastRandomBot, greedy, play
from clinea.training.parallel import ProcessPool, chunks

PLAYERS_DIR = Path(__file__).resolve().parents[1] / "players"
CLINEA = os.path.join(os.path.dirname(sys.executable), "clinea")
C = 4
N = feature_count(C)


# ------------------------------------------------------------ operators

@pytest.mark.parametrize("whole", [True, False])
def test_crossover_keeps_vector_genes_whole_only_when_asked(whole):
    rng = random.Random(1)
    a, b = [-0.5] * N, [0.5] * N
    slices = genetic.genes(C, whole)
    split_vectors = 0
    for _ in range(300):
        child = genetic.crossover(a, b, 0.5, slices, rng)
        assert all(v in (-0.5, 0.5) for v in child)
        for _, start, stop in feature_groups(C):
            split_vectors += len(set(child[start:stop])) > 1
    if whole:
        assert split_vectors == 0
    else:
        assert split_vectors > 100  # element by element, a vector is mixed most of the time


def test_crossover_switches_parent_at_the_requested_rate():
    rng = random.Random(2)
    slices = genetic.genes(C, False)
    switches = 0
    trials = 2000
    for _ in range(trials):
        child = genetic.crossover([0.0] * N, [1.0] * N, 0.3, slices, rng)
        switches += child[0] == 1.0  # the first gene comes from b only after a switch
    assert abs(switches / trials - 0.3) < 0.05


@pytest.mark.parametrize("pmut", [0.005, 0.1, 0.5])
def test_mutation_redraws_at_the_requested_rate_within_the_range(pmut):
    rng = random.Random(3)
    genes = 200_000 if pmut < 0.05 else 20_000
    original = [5.0] * genes  # outside [low, high]: any redraw shows
    mutated = genetic.mutate(original, pmut, -0.25, 0.75, rng)
    redrawn = [v for v in mutated if v != 5.0]
    expected = pmut * genes
    assert abs(len(redrawn) - expected) < 6 * (expected * (1 - pmut)) ** 0.5  # about 6 sigma
    assert all(-0.25 <= v <= 0.75 for v in redrawn)


@pytest.mark.parametrize("selection", [1, 2])
def test_elitism_keeps_the_best_unchanged(selection):
    rng = random.Random(4)
    population = [genetic.random_individual(N, -1, 1, rng) for _ in range(10)]
    fitness = [rng.random() for _ in population]
    best = population[max(range(10), key=lambda i: fitness[i])]
    config = genetic.GeneticConfig(population=10, pmut=1.0, pcross=0.5, selection=selection,
                                   elite_never_mutates=True)
    nxt = genetic.next_generation(population, fitness, config, genetic.genes(C, False), rng)
    assert len(nxt) == 10 and nxt[0] == best
    # everyone else was redrawn (pmut = 1), the elite was not
    assert all(child != parent for child in nxt[1:] for parent in population)
    config.elite_never_mutates = False
    assert genetic.next_generation(population, fitness, config, genetic.genes(C, False), rng)[0] != best


def test_selection_1_takes_parents_from_the_fitter_half():
    rng = random.Random(5)
    population = [[float(i)] for i in range(10)]
    fitness = list(range(10))
    for _ in range(200):
        a, b = genetic.select_parents(population, fitness, 1, rng)
        assert a[0] >= 5 and b[0] >= 5 and a != b


# ------------------------------------------------------------ fitness and rules

def test_fitness_formulas_on_hand_made_games():
    games = [(WIN, False), (LOSS, True), (DRAW, True), (WIN, True), (DRAW, False)]
    assert fitness_not_lost(games) == pytest.approx(4 / 5)
    # 10 + (0 + 1) + (5 + 2) + (10 + 4) + 5
    assert fitness_points(games) == pytest.approx(37 / 5)
    assert fitness_points([(LOSS, False)]) == 0 and fitness_not_lost([]) == 0


@pytest.mark.parametrize("candidate, champion, accepted", [  # (wins, draws, losses)
    ((6, 2, 2), (5, 2, 3), True),    # more wins, fewer losses
    ((5, 3, 2), (5, 2, 3), True),    # same wins, fewer losses
    ((7, 0, 3), (5, 4, 1), False),   # same margin, more losses
    ((8, 0, 2), (5, 4, 1), False),   # margin up, but more losses
    ((4, 6, 0), (5, 4, 1), False),   # margin up, but fewer wins
    ((5, 4, 1), (5, 4, 1), False),   # no improvement
])
def test_grid_rule_c_on_hand_made_counts(candidate, champion, accepted):
    def tally(wins, draws, losses):
        return GameTally(wins=wins, draws=draws, losses=losses)
    assert grid.accept_c(tally(*candidate), tally(*champion)) is accepted


def test_grid_rule_a_needs_a_win_in_both_colours():
    assert grid.accept_a([(WIN, False), (WIN, True)])
    assert not grid.accept_a([(WIN, False), (DRAW, True)])
    assert not grid.accept_a([(WIN, False), (WIN, False)])


def test_grid_values_and_pairs():
    assert grid.grid_values(0.1) == [round(-1 + k / 10, 10) for k in range(21)]
    assert grid.pairs_from_order([3, 1, 2], 16) == [(3, 1), (2, 3)]
    with pytest.raises(ValueError, match="--order index 16 is out of range: allowed 0..15"):
        grid.pairs_from_order([16, 1], 16)


def test_perturb_stays_within_the_factor_and_the_range():
    rng = random.Random(6)
    start = [0.5, -0.5, 0.0, 0.9]
    for _ in range(200):
        moved = hillclimb.perturb(start, 0.2, rng)
        assert 0.4 <= moved[0] <= 0.6 and -0.6 <= moved[1] <= -0.4
        assert -0.2 <= moved[2] <= 0.2 and moved[3] <= 1.0


def test_lms_update_moves_the_value_towards_the_result():
    x = [0.1] * N
    w = [0.0] * N
    after = lms.lms_update(w, [x], WIN, 0.5)
    assert sum(a * b for a, b in zip(after, x)) > 0
    after = lms.lms_update(w, [x], LOSS, 0.5)
    assert sum(a * b for a, b in zip(after, x)) < 0


# ------------------------------------------------------------ games

GEOMETRIES = [Rules(7, 6, 4), Rules(5, 4, 3, 4), Rules(10, 9, 4)]


@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_in_c_games_match_the_judges_referee(geometry):
    rng = random.Random(7)
    for k in range(6):
        weights = [rng.uniform(-1, 1) for _ in range(feature_count(geometry.c))]
        # each maker builds fresh bots of this round's weights and seed (bound as defaults)
        pairs = [
            (lambda w=weights: greedy(w, geometry.c), lambda: GreedyBot()),
            (lambda k=k: RandomizedMinimaxBot(3, k), lambda w=weights: greedy(w, geometry.c)),
            (lambda k=k: FastRandomBot(k), lambda k=k: RandomizedMinimaxBot(2, k + 1)),
        ]
        for make_first, make_second in pairs:
            fast = play(make_first(), make_second(), geometry)
            judged = play_bots(make_first(), make_second(), geometry.columns, geometry.rows,
                               geometry.c, geometry.p, in_core=False)
            assert (fast.winner, fast.reason, fast.moves) == (judged.winner, judged.reason, judged.moves)
            assert len(fast.times) == len(fast.moves)


def test_round_robin_plays_every_pair_in_both_colours_and_jobs_agree():
    rng = random.Random(8)
    geometry = Rules(5, 4, 3)
    population = [[rng.uniform(-1, 1) for _ in range(feature_count(3))] for _ in range(4)]
    serial = round_robin(population, geometry, 3, ProcessPool(1))
    assert all(len(g) == 6 and sum(second for _, second in g) == 3 for g in serial)
    with ProcessPool(2) as runner:
        assert round_robin(population, geometry, 3, runner) == serial
        assert versus(population[:2], geometry, 3, "minimax", 3, 9, runner) == \
            versus(population[:2], geometry, 3, "minimax", 3, 9, ProcessPool(1))


def test_chunks_cover_everything_in_order():
    items = list(range(23))
    for parts in (1, 4, 8, 30):
        parted = chunks(items, parts)
        assert sum(parted, []) == items and len(parted) <= parts


# ------------------------------------------------------------ end to end

BOARD = ["--columns", "5", "--rows", "4", "--c", "3", "--seed", "11", "--eval-games", "2", "--quiet"]
METHODS = {
    "genetic": ["--population", "6", "--generations", "3", "--whole-vectors"],
    "genetic-external": ["--population", "4", "--generations", "2", "--fitness", "external",
                         "--external-games", "2", "--selection", "1"],
    "grid": ["--step", "0.5", "--order", "0,1", "--sweeps", "2"],
    "genetic-random": ["--population", "4", "--generations", "2", "--fitness", "random-fast", "--external-games", "2"],
    "grid-c": ["--step", "1", "--order", "4,5", "--rule", "c", "--games", "2"],
    "grid-b": ["--step", "1", "--order", "4,5", "--rule", "b", "--games", "2", "--definitions", "clinea"],
    "hillclimb": ["--iterations", "3", "--games", "3", "--opponent", "random"],
    "lms": ["--iterations", "3", "--games", "4"],
}
EXPECTED_ROWS = {"genetic": 3, "genetic-external": 2, "genetic-random": 2, "grid": 2, "grid-c": 1, "grid-b": 1,
                 "hillclimb": 3, "lms": 3}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_each_method_writes_weights_the_greedy_player_plays_with(name, tmp_path, capsys):
    prefix = tmp_path / name
    assert cli.main([name.split("-")[0], *BOARD, *METHODS[name], "--out", str(prefix)]) == 0
    printed = capsys.readouterr().out
    assert "against random: moving first" in printed and "against randomized minimax" in printed
    with open(f"{prefix}.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == EXPECTED_ROWS[name]
    assert all(float(r["worst"]) <= float(r["median"]) <= float(r["best"]) for r in rows)
    assert Path(f"{prefix}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    weights = Weights.load(f"{prefix}.json")
    assert weights.c == 3 and weights.info["made_by"] == f"clinea train {name.split('-')[0]}"
    result = play_bots(GreedyBot(weights), FastRandomBot(1), 5, 4, 3, 10)
    assert result.reason in ("connect", "draw")


def test_trained_weights_drive_the_player_program(tmp_path):
    prefix = tmp_path / "w"
    cli.main(["hillclimb", *BOARD, "--iterations", "1", "--games", "1", "--eval-games", "0",
              "--out", str(prefix)])
    result = subprocess.run([str(PLAYERS_DIR / "greedy"), "--weights", f"{prefix}.json"],
                            input="azul rojo\n5 4 3 10\nvos\n0\nperdiste\nsalir\n",
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "listo"


def test_time_limit_alone_stops_the_run(tmp_path):
    prefix = tmp_path / "t"
    started = time.monotonic()
    cli.main(["genetic", *BOARD, "--population", "4", "--time-limit", "0.3", "--eval-games", "0",
              "--out", str(prefix)])
    # The budget is checked between generations, so the last row may be
    # stamped just before the limit; the run itself must not end before it.
    assert time.monotonic() - started >= 0.3
    with open(f"{prefix}.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows


@pytest.mark.parametrize("args, message", [
    (["genetic", "--pmut", "2"], "--pmut 2.0 is out of range: allowed 0..1"),
    (["genetic", "--population", "0"], "--population 0 is out of range: allowed 1 or more"),
    (["grid", "--step", "0"], "--step 0.0 is out of range"),
    (["lms", "--columns", "200"], "--columns 200 is out of range: allowed 1..128"),
    (["lms", "--rate", "0"], "--rate 0.0 is out of range: allowed more than 0, at most 1"),
    (["hillclimb", "--factor", "2"], "--factor 2.0 is out of range: allowed more than 0, at most 1"),
])
def test_bad_options_name_the_value_and_range(args, message, capsys, tmp_path):
    # and leave an earlier run's results under the same --out as they were
    earlier = {tmp_path / f"x.{suffix}": f"an earlier run's {suffix}\n" for suffix in ("json", "csv", "png")}
    for path, text in earlier.items():
        path.write_text(text)
    with pytest.raises(SystemExit) as exit_info:
        cli.main([*args, "--out", str(tmp_path / "x"), "--quiet"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
    assert {path: path.read_text() for path in earlier} == earlier


# ---------------------------------------------------------------- the report's 28 parameters in `clinea train`

def random_board(rng: random.Random, moves: int):
    board = Board(7, 6, 4, 21)
    for _ in range(moves):
        if board.is_over():
            break
        board.play(rng.choice(board.legal_columns()))
    return board


def test_train_genetic_over_the_reports_parametrisation_writes_a_player_the_program_reads(tmp_path):
    prefix = tmp_path / "r"
    done = subprocess.run([CLINEA, "train", "genetic", "--parametrisation", "report", "--population", "4",
                           "--generations", "2", "--eval-games", "1", "--quiet", "--seed", "5",
                           "--out", str(prefix)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads(Path(f"{prefix}.json").read_text())
    assert data["info"]["parametrisation"] == "report" and set(data["opponent_weights"]) == set(data["weights"])
    weights = Weights.load(f"{prefix}.json")
    vector = parametrisation.vector(weights, "report", 4)
    assert len(vector) == 28 and weights.opponent.values != weights.values
    # the file's player is the trained vector's, opponent weights included
    rng = random.Random(2)
    trained, loaded = greedy(vector, 4), GreedyBot(weights)
    boards = [random_board(rng, rng.randrange(0, 30)) for _ in range(60)]
    boards = [b for b in boards if not b.is_over()]
    assert [loaded.choose(b) for b in boards] == [trained.choose(b) for b in boards]
    own_only = GreedyBot(Weights(weights.values, 4))
    assert [own_only.choose(b) for b in boards] != [trained.choose(b) for b in boards]
    result = subprocess.run([str(PLAYERS_DIR / "greedy"), "--weights", f"{prefix}.json"],
                            input="azul rojo\n7 6 4 21\nvos\n3\nperdiste\nsalir\n",
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0 and result.stdout.splitlines()[-1] == "listo", result.stderr


def test_train_grid_and_hillclimb_take_the_reports_parametrisation(tmp_path):
    start = tmp_path / "start.json"
    Weights.default().save(start)  # one weight per feature: the opponent's runs start as the player's own
    cli.main(["hillclimb", "--parametrisation", "report", "--start", str(start), "--iterations", "1",
              "--games", "1", "--seed", "3", "--eval-games", "0", "--quiet", "--out", str(tmp_path / "h")])
    climbed = Weights.load(tmp_path / "h.json")
    assert climbed.opponent is not None and climbed.info["parametrisation"] == "report"
    # grid over two opponent run weights, out of reach of clinea's 16
    cli.main(["grid", "--parametrisation", "report", "--start", str(start), "--order", "20,27", "--step", "1",
              "--seed", "3", "--eval-games", "0", "--quiet", "--out", str(tmp_path / "g")])
    vector = parametrisation.vector(Weights.load(tmp_path / "g.json"), "report", 4)
    before = parametrisation.vector(Weights.default(), "report", 4)
    assert vector[:20] + vector[21:27] == before[:20] + before[21:27]
    assert (vector[20], vector[27]) in [(before[20], before[27])] + [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)]
    with open(tmp_path / "g.csv") as f:
        assert [row["pair"] for row in csv.DictReader(f)] == ["20-27"]
    with pytest.raises(SystemExit):
        cli.main(["grid", "--order", "20,27", "--quiet", "--out", str(tmp_path / "x")])


def test_weights_with_opponent_weights_survive_the_file(tmp_path):
    rng = random.Random(4)
    vector = [round(rng.uniform(-1, 1), 6) for _ in range(parametrisation.length("report", 5))]
    parametrisation.to_weights(vector, 5, {"made_by": "test"}).save(tmp_path / "w.json")
    assert parametrisation.vector(Weights.load(tmp_path / "w.json"), "report", 5) == vector
    with pytest.raises(ValueError, match="only the report parametrisation"):
        parametrisation.vector(Weights.load(tmp_path / "w.json"), "clinea", 5)
    data = json.loads((tmp_path / "w.json").read_text())
    data["opponent_weights"]["centre"] = 3
    (tmp_path / "w.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r'"opponent_weights": centre=3 is out of range'):
        Weights.load(tmp_path / "w.json")
