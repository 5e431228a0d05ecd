"""Game pairs: pentanomial counts, the pentanomial SPRT against figures
fastchess published and against its formulas computed here another way,
openings files and per-player clocks."""
import math
import random
import statistics

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from judge_helpers import bot, records, run_judge

from clinea.core import Rules
from clinea.judge.openings import OpeningsError, opening_stream, read_openings
from clinea.judge.record import End, GameRecord
from clinea.judge.referee import Clock, TimeControl
from clinea.judge.report import collect, summary
from clinea.judge.stats import Sprt, pentanomial_estimate, pentanomial_llr, sprt_decision, trinomial_normalised_llr
from clinea.judge.tournament import course_schedule, tournament_schedule

# fastchess PR #783: `fastchess --sprt 379 10170 21828 10640 343 elo=0 elo1=2 model=normalized
# alpha=0.05 beta=0.05` prints "Normalized Elo: 3.05 +/- 2.31" and "LLR: 2.94598 (-2.94, 2.94)"
PR_783 = (379, 10170, 21828, 10640, 343)
# fastchess PR #426, case 1 (bounds [0, 2], rounded to 2 decimals there): pentanomial 2.25, trinomial 0.92
PR_426_PAIRS = (365, 16618, 36229, 16974, 390)
PR_426_GAMES = dict(wins=36433, losses=36027, draws=68692)
NELO = 800 / math.log(10)


def reference_llr(values, nelo0, nelo1, spread):
    """fastchess's normalised LLR, from its formulas, over the list of the
    units' scores (a pair's mean score, or a game's): the hypotheses' scores
    1/2 + nelo * spread * sd / (800 / ln 10), and n/2 ln(var0 / var1) with
    var_i the mean square distance of the scores from hypothesis i."""
    sd = statistics.pstdev(values)
    def spread_around(nelo):
        centre = 0.5 + nelo * spread * sd / NELO
        return statistics.fmean((x - centre) ** 2 for x in values)
    return len(values) / 2 * math.log(spread_around(nelo0) / spread_around(nelo1))


def pair_values(counts):
    return [score for score, n in zip((0, 0.25, 0.5, 0.75, 1), counts) for _ in range(n)]


def exact_normalised_llr(counts, scores, t0, t1):
    """The exact multinomial LLR of today's fastchess (Van den Bergh,
    "Comments on normalized Elo", section 4.1): the most likely distribution
    with normalised score t, found by its fixed point, under each hypothesis."""
    counts = [n or 1e-3 for n in counts]
    total = sum(counts)
    observed = [n / total for n in counts]

    def most_likely(t):
        p = [1 / len(scores)] * len(scores)
        for _ in range(500):
            mu = sum(a * q for a, q in zip(scores, p))
            sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(scores, p)))
            phi = [a - 0.5 - t * sigma / 2 * (1 + ((a - mu) / sigma) ** 2) for a in scores]
            low, high = -1 / max(phi), -1 / min(phi)
            for _ in range(200):
                theta = (low + high) / 2
                if sum(o * f / (1 + theta * f) for o, f in zip(observed, phi)) > 0:
                    low = theta
                else:
                    high = theta
            p = [o / (1 + theta * f) for o, f in zip(observed, phi)]
        return p

    p0, p1 = most_likely(t0), most_likely(t1)
    return total * sum(o * math.log(b / a) for o, a, b in zip(observed, p0, p1))


def test_fastchess_pr_783_figures():
    est = pentanomial_estimate(PR_783)
    assert (round(est.nelo, 2), round(est.margin, 2)) == (3.05, 2.31)
    assert round(pentanomial_llr(PR_783, 0, 2), 5) == 2.94598
    sprt = Sprt(0, 2, 0.05, 0.05, "pentanomial")
    assert (round(sprt.lower, 2), round(sprt.upper, 2)) == (-2.94, 2.94)
    decision = sprt_decision(sprt, 0, 0, 0, PR_783)
    assert decision.verdict == "H1" and decision.games == 2 * sum(PR_783)


def test_fastchess_pr_426_figures():
    assert round(pentanomial_llr(PR_426_PAIRS, 0, 2), 2) == 2.25
    assert round(trinomial_normalised_llr(**PR_426_GAMES, nelo0=0, nelo1=2), 2) == 0.92


@pytest.mark.parametrize("counts,nelo0,nelo1", [(PR_783, 0, 2), (PR_426_PAIRS, 0, 2), (PR_783, -1.75, 0.25),
                                                 ((40, 300, 700, 320, 50), 0.5, 2.5), ((1, 3, 7, 5, 2), -5, 5)])
def test_pentanomial_llr_matches_the_formulas_over_the_pairs(counts, nelo0, nelo1):
    expected = reference_llr(pair_values(counts), nelo0, nelo1, math.sqrt(2))
    assert pentanomial_llr(counts, nelo0, nelo1) == pytest.approx(expected, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("counts,nelo0,nelo1", [(PR_783, 0, 2), (PR_426_PAIRS, 0, 2), (PR_783, -1.75, 0.25)])
def test_agrees_with_todays_exact_fastchess_llr_to_3_decimals(counts, nelo0, nelo1):
    scale = math.sqrt(2) / NELO
    exact = exact_normalised_llr(counts, (0, 0.25, 0.5, 0.75, 1), scale * nelo0, scale * nelo1)
    assert abs(pentanomial_llr(counts, nelo0, nelo1) - exact) < 1e-3


def test_trinomial_normalised_matches_the_formulas_over_the_games():
    values = [1.0] * 130 + [0.0] * 110 + [0.5] * 260
    assert trinomial_normalised_llr(130, 110, 260, 0, 5) == pytest.approx(reference_llr(values, 0, 5, 1), rel=1e-9)


counts5 = st.lists(st.integers(0, 400), min_size=5, max_size=5).filter(lambda c: sum(c) > 0)


@given(counts5, st.integers(0, 3), st.floats(-5, 3), st.floats(0.5, 8))
def test_llr_grows_with_the_pairs_normalised_elo(counts, bin_, nelo0, width):
    """The normalised LLR is a function of the pairs' nElo (and their
    number) that grows with it while that stays within one pair standard
    deviation (800 / ln 10 / sqrt 2 nElo) of both bounds; beyond, it falls
    again: a sweep has no spread, and says little about small nElo."""
    if counts[bin_] == 0:
        counts[bin_] = 1
    better = list(counts)
    better[bin_] -= 1
    better[bin_ + 1] += 1
    nelo1 = nelo0 + width
    reach = NELO / math.sqrt(2)
    before, after = pentanomial_estimate(counts).nelo, pentanomial_estimate(better).nelo
    assume(all(nelo1 - reach <= x <= nelo0 + reach for x in (before, after)) and after > before)
    assert pentanomial_llr(better, nelo0, nelo1) > pentanomial_llr(counts, nelo0, nelo1)


def test_a_sweep_moves_the_normalised_llr_little():
    assert pentanomial_llr((0, 0, 0, 0, 50), 0, 2) < pentanomial_llr((5, 10, 15, 12, 8), 0, 2)


@given(st.floats(0.0, 0.9), st.floats(-0.05, 0.05), st.floats(-3, 3))
def test_independent_games_give_the_trinomial_test(draw, t, nelo0):
    """Pairs of independent games carry no more than the games: near the
    hypotheses (where an SPRT runs), the pentanomial LLR of the expected
    pair counts is the trinomial one of the same games (they part by a
    relative O(t^2), t the normalised score, here at most 0.05)."""
    edge = t * math.sqrt((1 - draw) / 4)  # t standard deviations of a game's score
    win, loss = (1 - draw) / 2 + edge, (1 - draw) / 2 - edge
    pairs = 100_000
    game = (loss, draw, win)  # points 0, 1/2, 1
    bins = [0.0] * 5
    for i, p in enumerate(game):
        for j, q in enumerate(game):
            bins[i + j] += p * q
    penta = [round(pairs * b) for b in bins]
    tri = [round(2 * pairs * p) for p in game]
    expected = trinomial_normalised_llr(tri[2], tri[0], tri[1], nelo0, nelo0 + 2)
    assert pentanomial_llr(penta, nelo0, nelo0 + 2) == pytest.approx(expected, rel=0.01, abs=0.05)


def game(k, first, second, winner, opening=(3,)):
    return GameRecord(str(k), 7, 6, 4, 21, (first, second), ("azul", "rojo"), tuple(opening), (), (), winner,
                      End.CONNECT if winner else End.DRAW, "", None)


@given(st.lists(st.tuples(st.sampled_from(["a", "b", None]), st.sampled_from(["a", "b", None]),
                          st.booleans()), max_size=30), st.randoms())
def test_pentanomial_counts_sum_to_the_complete_pairs(pairs, rng):
    """Pairs arrive in any order; a pair with its second game missing (an
    interrupted run) does not count."""
    games, expected = [], [0] * 5
    for j, (w1, w2, complete) in enumerate(pairs):
        games.append(game(2 * j, "a", "b", w1))
        if complete:
            games.append(game(2 * j + 1, "b", "a", w2))
            points = sum(0.5 if w is None else float(w == "a") for w in (w1, w2))
            expected[int(2 * points)] += 1
    rng.shuffle(games)
    standings = collect(games, paired=True)
    assert list(standings.pentanomial("a", "b")) == expected
    assert sum(standings.pentanomial("a", "b")) == sum(complete for _, _, complete in pairs)
    assert standings.pentanomial("b", "a") == tuple(reversed(expected))
    assert standings.games == len(games)


def test_games_of_different_openings_or_same_first_player_are_no_pair():
    standings = collect([game(0, "a", "b", "a", (3,)), game(1, "b", "a", "a", (4,)),
                         game(2, "a", "b", "a"), game(3, "a", "b", "a")], paired=True)
    assert sum(standings.pentanomial("a", "b")) == 0


def test_the_summary_prints_the_pairs_beside_wdl():
    text = summary(collect([game(0, "a", "b", "a"), game(1, "b", "a", None), game(2, "a", "b", "b"),
                            game(3, "b", "a", "a")], paired=True), ["a", "b"])
    assert "a vs b: +2 -1 =1" in text
    assert "a pairs: 2, pentanomial (0-2) [0, 0, 1, 1, 0]" in text


def write(tmp_path, text):
    path = tmp_path / "openings.txt"
    path.write_text(text)
    return str(path)


def test_openings_file_reads_1_based_columns(tmp_path):
    path = write(tmp_path, "# two openings\n4453\n\n  1 2 \n")
    assert read_openings(path, Rules(7, 6, 4, 21)) == [[3, 3, 4, 2], [0, 1]]
    assert read_openings(write(tmp_path, "10 4 11\n"), Rules(12, 6, 4, 36)) == [[9, 3, 10]]


@pytest.mark.parametrize("line,why", [("48", "out of range"), ("1111111", "full"), ("1212121", "ends the game"),
                                      ("4x", "x"), ("0", "out of range")])
def test_a_bad_opening_names_its_line(tmp_path, line, why):
    with pytest.raises(OpeningsError, match=rf"line 3 '{line}'.*{why}"):
        read_openings(write(tmp_path, f"44\n# fine so far\n{line}\n"), Rules(7, 6, 4, 21))


def test_openings_file_is_read_with_a_bound(tmp_path, monkeypatch):
    import clinea.judge.openings as openings
    monkeypatch.setattr(openings, "MAX_BYTES", 100)
    with pytest.raises(OpeningsError, match="larger than"):
        read_openings(write(tmp_path, "4\n" * 100), Rules(7, 6, 4, 21))
    with pytest.raises(OpeningsError, match="no opening"):
        read_openings(write(tmp_path, "# nothing\n\n"), Rules(7, 6, 4, 21))
    with pytest.raises(OpeningsError, match="missing"):
        read_openings(str(tmp_path / "missing"), Rules(7, 6, 4, 21))


def test_each_opening_is_played_twice_with_colours_swapped():
    book = [[3], [2, 4], [0]]
    size = Rules(7, 6, 4, 21)
    specs = list(course_schedule("azul", "rojo", 12, None, 5, size, book=book))
    assert [spec.opening for spec in specs] == [o for o in book + book for _ in range(2)]
    for one, two in zip(specs[::2], specs[1::2]):
        assert (one.first, one.second) == (two.second, two.first)
    shuffled = [spec.opening for spec in course_schedule("azul", "rojo", 12, None, 5, size, book=book,
                                                         order="random")][::2]
    assert sorted(shuffled[:3]) == sorted(book) and sorted(shuffled[3:]) == sorted(book)
    assert shuffled == [spec.opening for spec in course_schedule("azul", "rojo", 12, None, 5, size, book=book,
                                                                 order="random")][::2]
    specs = list(tournament_schedule(["a", "b", "c"], "round-robin", 4, 1, size, book=book))
    assert [spec.opening for spec in specs] == [[3], [3], [2, 4], [2, 4]] * 3


def test_random_order_shuffles_every_cycle():
    stream = opening_stream([[0], [1], [2], [3], [4]], "random", random.Random(3))
    cycles = [[next(stream)[0] for _ in range(5)] for _ in range(20)]
    assert all(sorted(c) == [0, 1, 2, 3, 4] for c in cycles) and len({tuple(c) for c in cycles}) > 1


def test_time_controls_per_side():
    assert TimeControl.parse("60+0.5") == TimeControl(60, 0.5) and TimeControl.parse("2") == TimeControl(2, 0)
    for bad in ("", "x", "0", "-1+1", "5+-1", "inf"):
        with pytest.raises(ValueError, match="SECONDS"):
            TimeControl.parse(bad)
    clock = Clock(per_move=None, game=None, grace=0, controls=(TimeControl(1, 0.5), None))
    assert clock.timed
    clock.reset()
    assert clock.allowed(0) == 1 and clock.allowed(1) is None
    clock.spend(0, 0.25)
    assert clock.allowed(0) == 1.25
    shared = Clock(per_move=0.5, game=10, increment=1, grace=0, controls=(None, TimeControl(2)))
    shared.reset()
    shared.spend(0, 3)
    shared.spend(1, 0.5)
    assert shared.left == [8, 1.5] and shared.allowed(0) == 0.5 and shared.allowed(1) == 0.5
    plain = Clock(per_move=None)
    plain.reset()
    assert not plain.timed and plain.left == []


def test_judge_with_openings_file_stops_on_a_pentanomial_sprt(tmp_path):
    path = write(tmp_path, "4\n44\n43\n3\n5\n")
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"a={bot('random_bot.py')[0]}", "--player", f"b={bot('random_bot.py')[0]}",
                      "--openings-file", path, "--openings-order", "random", "--seed", "7", "--iterations", "400",
                      "--sprt", "0", "300", "0.05", "0.05", "model=pentanomial", "--results", str(results),
                      "--concurrency", "2", "--quiet"], timeout=120)
    assert done.returncode == 0, done.stderr
    games = records(results)
    assert 0 < len(games) < 400
    by_id = {int(g["id"].rpartition("|")[2]): g for g in games}
    book = [[3], [3, 3], [3, 2], [2], [4]]
    assert all(g["opening"] in book for g in games)
    assert all(by_id[k + 1]["opening"] == g["opening"] and by_id[k + 1]["players"] == g["players"][::-1]
               for k, g in by_id.items() if k % 2 == 0 and k + 1 in by_id)
    penta = [line for line in done.stdout.splitlines() if line.startswith("a pairs:")]
    assert len(penta) == 1 and "pentanomial (0-2) [" in penta[0] and "nElo" in penta[0], done.stdout
    sprt = [line for line in done.stdout.splitlines() if line.startswith("SPRT pentanomial")]
    assert len(sprt) == 1 and "H0 accepted after" in sprt[0], done.stdout
    # decided on complete pairs; the games still being played then count in the tallies only
    decided = int(sprt[0].split("after ")[1].split()[0])
    assert decided % 2 == 0 and decided <= len(games)
    assert (f"{len(games) - decided} more game(s) were in flight" in sprt[0]) == (len(games) > decided)


def test_judge_refuses_bad_openings_and_models(tmp_path):
    players = ["--player", f"a={bot('random_bot.py')[0]}", "--player", f"b={bot('random_bot.py')[0]}"]
    done = run_judge([*players, "--openings-file", write(tmp_path, "4\n9\n")])
    assert done.returncode == 2 and "line 2 '9'" in done.stderr and "out of range" in done.stderr
    done = run_judge([*players, "--sprt", "0", "5", "0.05", "0.05", "model=pentanomial"])
    assert done.returncode == 2 and "--openings" in done.stderr
    done = run_judge([*players, "--sprt", "0", "5", "0.05", "0.05", "model=bayes"])
    assert done.returncode == 2 and "model=pentanomial" in done.stderr
    done = run_judge([*players, "--tc", "c=5"])
    assert done.returncode == 2 and "'c=5'" in done.stderr and "a, b" in done.stderr


def test_judge_enforces_each_players_own_clock(tmp_path):
    """Both players sleep 0.5 s on their second move: the one with a 0.3 s
    game clock loses every game on time, the other, on the run's 10 s, never."""
    results = tmp_path / "r.jsonl"
    done = run_judge(["--player", f"short={bot('sleepy.py')[0]}", "0.5", "--player", f"long={bot('sleepy.py')[0]}",
                      "0.5", "--game-time", "10", "--tc", "short=0.3", "--iterations", "2", "--grace", "0.05",
                      "--results", str(results), "--quiet"], timeout=60)
    games = records(results)
    assert len(games) == 2, done.stderr
    assert all(g["forfeit"] == "short" and g["reason"].startswith("timeout") for g in games), games


def test_a_pentanomial_decision_stands_on_the_pairs_it_saw():
    sprt = Sprt(0, 300, 0.05, 0.05, "pentanomial")
    standings = collect([game(k, *(("a", "b") if k % 2 == 0 else ("b", "a")), "b" if k % 2 else "a")
                         for k in range(20)], paired=True)
    pairs = standings.pentanomial("a", "b")
    assert pairs == (0, 0, 10, 0, 0)
    decision = sprt_decision(sprt, 0, 0, 0, pairs)
    assert decision.verdict == "H0" and decision.games == 20
    standings.add(game(20, "a", "b", "a"))  # in flight when it was decided: the lone half of a pair
    text = summary(standings, ["a", "b"], sprt=sprt, decision=decision)
    assert "H0 accepted after 20 games (10 pairs [0, 0, 10, 0, 0]); 1 more game(s) were in flight" in text
    assert "a pairs: 10, pentanomial (0-2) [0, 0, 10, 0, 0], nElo +0.00 (no spread)" in text
