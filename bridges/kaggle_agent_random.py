"""clinea's random player as a single-file Kaggle ConnectX agent: pure
Python, no clinea (written by `clinea export kaggle random`). It plays a
uniformly random open column, as clinea's random player does."""
import random
from typing import Any


def agent(observation: Any, configuration: Any) -> int:
    return random.choice([col for col in range(configuration.columns) if observation.board[col] == 0])
