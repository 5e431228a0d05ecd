"""Statistics on hand-made result sets, against values worked out by hand or
by formulas written independently here (other algebraic forms, the normal
distribution of the standard library)."""
import math
from statistics import NormalDist

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clinea.judge.record import End, GameRecord
from clinea.judge.report import collect, summary
from clinea.judge.stats import Sprt, elo_from_score, estimate, los, score_from_elo


def test_elo_of_sixty_percent_by_hand():
    # 60 wins, 40 losses: score 0.6, Elo 400*log10(0.6/0.4) = 70.44;
    # per-game variance 0.6*0.4 = 0.24, standard error sqrt(0.24/100) = 0.04899
    est = estimate(60, 40, 0)
    assert est.score == 0.6
    assert est.elo == pytest.approx(70.437, abs=1e-3)
    margin = 1.959964 * math.sqrt(0.24 / 100)
    assert est.low == pytest.approx(400 * math.log10((0.6 - margin) / (0.4 + margin)), abs=1e-6)
    assert est.high == pytest.approx(400 * math.log10((0.6 + margin) / (0.4 - margin)), abs=1e-6)
    assert est.low == pytest.approx(2.77, abs=0.01) and est.high == pytest.approx(143.9, abs=0.1)
    assert est.los == pytest.approx(NormalDist().cdf(2.0), abs=1e-12)  # (60-40)/sqrt(100) = 2 sigma


def test_draws_count_half_and_shrink_the_interval():
    # 30 wins, 30 losses, 40 draws: even score, Elo 0; variance (30*.25 + 30*.25)/100 = 0.15
    est = estimate(30, 30, 40)
    assert est.score == 0.5 and est.elo == pytest.approx(0.0, abs=1e-9)
    margin = 1.959964 * math.sqrt(0.15 / 100)
    assert est.high == pytest.approx(400 * math.log10((0.5 + margin) / (0.5 - margin)), abs=1e-6)
    assert est.low == pytest.approx(-est.high, abs=1e-9)
    assert est.los == pytest.approx(0.5)
    assert estimate(60, 40, 0).high - estimate(60, 40, 0).low > est.high - est.low


def test_edges():
    assert estimate(0, 0, 0) is None
    assert los(0, 0) is None
    assert estimate(5, 0, 0).elo == math.inf
    assert estimate(0, 5, 0).elo == -math.inf


@given(st.floats(-1500, 1500))
def test_elo_and_score_are_inverse(elo):
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


def independent_llr(wins, losses, draws, elo0, elo1):
    """Sum over the games of log N(x; s1, var) / N(x; s0, var), var the
    observed per-game variance of the scores."""
    scores = [1.0] * wins + [0.0] * losses + [0.5] * draws
    n = len(scores)
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / n
    s0 = 1 / (1 + 10 ** (-elo0 / 400))
    s1 = 1 / (1 + 10 ** (-elo1 / 400))
    sd = math.sqrt(var)
    return sum(math.log(NormalDist(s1, sd).pdf(x) / NormalDist(s0, sd).pdf(x)) for x in scores)


@pytest.mark.parametrize("wins,losses,draws", [(60, 40, 0), (30, 30, 40), (10, 25, 5), (300, 250, 450)])
def test_sprt_llr_matches_the_sum_of_per_game_normal_log_ratios(wins, losses, draws):
    sprt = Sprt(0, 10, 0.05, 0.05)
    assert sprt.llr(wins, losses, draws) == pytest.approx(independent_llr(wins, losses, draws, 0, 10), rel=1e-9)


def test_sprt_bounds_and_verdicts():
    sprt = Sprt(0, 20, 0.05, 0.1)
    assert sprt.lower == pytest.approx(math.log(0.1 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.9 / 0.05))
    assert sprt.verdict(10, 10, 0) is None
    assert sprt.verdict(700, 300, 0) == "H1"
    assert sprt.verdict(300, 700, 0) == "H0"
    assert sprt.verdict(40, 0, 0) == "H1"  # all alike: still decides


def test_summary_tallies_a_hand_made_log():
    def rec(first, second, winner, colours=("azul", "rojo"), reason="connect", forfeit=None, times=(0.5, 0.25, 1.0)):
        end, _, detail = reason.partition(": ")
        return GameRecord("0", 7, 6, 4, 21, (first, second), colours, (), (), tuple(times), winner, End(end), detail,
                          forfeit)

    log = [rec("a", "b", "a"), rec("b", "a", "a", ("rojo", "azul")), rec("a", "b", None, reason="draw"),
           rec("b", "a", "b", ("azul", "rojo"), "timeout: no answer", "a", times=(0.5, 2.0))]
    stats = collect(log)
    a = stats.players["a"]
    assert (a.total.wins, a.total.losses, a.total.draws) == (2, 1, 1)
    assert (a.by_order["first"].wins, a.by_order["first"].draws, a.by_order["second"].wins,
            a.by_order["second"].losses) == (1, 1, 1, 1)
    assert a.by_colour["azul"].wins == 2 and a.by_colour["rojo"].losses == 1
    assert dict(a.forfeits) == {"timeout": 1}
    # a moved plies 0 and 2 when first, ply 1 when second
    assert (a.times.count, a.times.total, a.times.longest) == (6, 5.25, 2.0)
    text = summary(stats, ["a", "b"])
    assert "a: +2 -1 =1 (2.5/4)" in text
    assert "forfeits : timeout 1" in text
    assert "time/move: mean 875.0 ms, max 2000.0 ms" in text


def test_one_sided_results_keep_an_honest_interval():
    """100-0 proves a large but finite lower bound; more games raise it."""
    sweep = estimate(100, 0, 0)
    assert sweep.elo == math.inf and sweep.high == math.inf
    assert 300 < sweep.low < math.inf
    assert estimate(10, 0, 0).low < sweep.low
    assert estimate(0, 100, 0).high == pytest.approx(-sweep.low)
    draws = estimate(0, 0, 40)
    assert draws.elo == 0 and draws.low < 0 < draws.high and draws.low == pytest.approx(-draws.high)
