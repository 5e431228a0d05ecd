"""The league's Elo fit (clinea.arena.ratings) against references: the analytic
Elo of two players, and a plain minorise-maximise iteration (Zermelo's, as
Hunter's 2004 paper writes it) on several."""
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clinea.arena.ratings import ELO_SCALE, FitError, PairScore, fit, pair_scores
from clinea.judge.stats import Z95


def games(a, b, wins, draws, losses):
    return [(a, b, 1.0)] * wins + [(a, b, 0.5)] * draws + [(a, b, 0.0)] * losses


@given(st.integers(1, 40), st.integers(0, 40), st.integers(1, 40), st.floats(-800, 800))
def test_two_players_give_the_analytic_elo_and_interval(wins, draws, losses, anchor):
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    ratings = fit(pair_scores(games("b", "a", wins, draws, losses)), {"a": anchor}, prior_draws=0)
    assert ratings["a"].anchored and ratings["a"].elo == anchor
    assert ratings["b"].elo == pytest.approx(anchor + 400 * math.log10(score / (1 - score)), abs=1e-6)
    # the delta method's standard error of the logit of a proportion
    margin = Z95 * ELO_SCALE / math.sqrt(n * score * (1 - score))
    assert ratings["b"].high - ratings["b"].elo == pytest.approx(margin, rel=1e-6)
    assert ratings["b"].elo - ratings["b"].low == pytest.approx(margin, rel=1e-6)


def test_prior_draws_are_virtual_draws():
    ratings = fit(pair_scores(games("b", "a", 6, 0, 0)), {"a": 0.0}, prior_draws=2)
    assert ratings["b"].elo == pytest.approx(400 * math.log10(7 / 1))


def test_a_perfect_score_without_prior_has_no_finite_elo():
    with pytest.raises(FitError, match="perfect score"):
        fit(pair_scores(games("b", "a", 5, 0, 0)), {"a": 0.0}, prior_draws=0)


def test_players_with_no_link_to_an_anchor_are_left_out():
    scores = pair_scores(games("b", "a", 3, 1, 2) + games("c", "d", 2, 0, 1))
    assert set(fit(scores, {"a": 0.0})) == {"a", "b"}


def mm_reference(scores, anchors, prior, sweeps=5000):
    """Zermelo's fixed point, player by player, the anchors held: strengths
    gamma = 10 ** (elo / 400)."""
    pairs = {pair: (s.points + prior / 2, s.games + prior) for pair, s in scores.items() if s.games}
    names = {name for pair in pairs for name in pair}
    gamma = {name: 10 ** (anchors.get(name, 0.0) / 400) for name in names}
    for _ in range(sweeps):
        moved = 0.0
        for name in sorted(names - set(anchors)):
            points = sum(p if a == name else n - p for (a, b), (p, n) in pairs.items() if name in (a, b))
            denominator = sum(n / (gamma[a] + gamma[b]) for (a, b), (p, n) in pairs.items() if name in (a, b))
            moved = max(moved, abs(math.log(points / denominator / gamma[name])))
            gamma[name] = points / denominator
        if moved < 1e-12:
            break
    return {name: 400 * math.log10(value) for name, value in gamma.items()}


outcomes = st.lists(st.tuples(st.sampled_from("abcd"), st.sampled_from("abcd"), st.sampled_from([0.0, 0.5, 1.0])),
                    min_size=6, max_size=40)


@settings(max_examples=30, deadline=None)
@given(outcomes, st.floats(0.5, 3))
def test_several_players_agree_with_the_mm_reference(results, prior):
    results = [(a, b, points) for a, b, points in results if a != b]
    scores = pair_scores(results)
    anchors = {"a": 100.0}
    ratings = fit(scores, anchors, prior)
    reference = mm_reference(scores, anchors, prior)
    assert ratings.pop("a").elo == 100.0
    for name, rating in ratings.items():
        assert rating.elo == pytest.approx(reference[name], abs=0.01)


@settings(max_examples=30, deadline=None)
@given(outcomes, st.floats(-500, 500))
def test_moving_the_anchor_moves_every_rating_as_much(results, shift):
    scores = pair_scores([(a, b, points) for a, b, points in results if a != b])
    before = fit(scores, {"a": 0.0})
    after = fit(scores, {"a": shift})
    for name in before:
        assert after[name].elo == pytest.approx(before[name].elo + shift, abs=1e-6)
        assert after[name].high - after[name].low == pytest.approx(before[name].high - before[name].low, abs=1e-6)


def test_pair_scores_count_each_pairing_once_from_its_first_name():
    scores = pair_scores([("b", "a", 1.0), ("a", "b", 0.5), ("a", "b", 0.0)])
    assert scores == {("a", "b"): PairScore(0.5, 3)}
