"""A ConnectX agent as people write them for Kaggle: plays the leftmost
column whose top cell is free. It reads the board in Kaggle's layout (flat,
top row first), so a wrong conversion shows in its moves, and it checks
that `mark` agrees with the stones (it raises, and the game is forfeited,
if not)."""


def leftmost_open(board, columns):
    return next(col for col in range(columns) if board[col] == 0)


def agent(observation, configuration):
    stones = sum(1 for cell in observation.board if cell)
    if observation["mark"] != stones % 2 + 1:
        raise ValueError(f"mark {observation.mark} with {stones} stones on the board")
    return leftmost_open(observation.board, configuration.columns)
