"""Options that keep each built-in player quick in the suite."""
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FAST_OPTIONS: dict[str, list[str]] = {
    "strong": ["--time-per-move", "0.05"],
    "evaluator": ["--depth", "2"],
    "kaggle": [str(REPO / "tests" / "bots" / "kaggle_agent.py")],
    "openspiel_mcts": ["--simulations", "50"],
}
# The exact players from an empty board: they say the solve is out of reach
# and play a depth-limited search's move within this time.
FROM_THE_START: dict[str, list[str]] = {name: ["--time-per-move", "0.05"] for name in ("minimax", "alphabeta")}
