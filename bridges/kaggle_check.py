"""`clinea export kaggle --check FILE`: plays a submission file in
Kaggle's own ConnectX environment (`make("connectx")`, its real
`actTimeout` and overage bank, the file loaded from its path as Kaggle
loads a submission) in a clean interpreter where clinea cannot be
imported, and reports errors, timeouts and the time of every move.

The episodes run in a child `python -I` whose first act is to make
`import clinea` fail (and to drop any path holding a clinea package), so a
file that leans on clinea fails here as it would on Kaggle. Each episode
comes back as one JSON line: the agent's status and reward, its move
times as Kaggle measured them (`env.logs` durations), the overage left.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from clinea.bridges import install_command

#: the child's program; argv[1] is the JSON of its episodes
CHILD = r"""
import json, os, sys
sys.modules["clinea"] = None  # Kaggle has no clinea: importing it must fail here too
sys.path[:] = [p for p in sys.path if not os.path.isdir(os.path.join(p or ".", "clinea", "bridges"))]
try:
    import clinea  # noqa
    raise SystemExit("clinea is importable in the clean interpreter")
except ImportError:
    pass
try:
    from kaggle_environments import make
except ImportError:
    raise SystemExit(3)
job = json.loads(sys.argv[1])
for seat in job["seats"]:
    for index in range(job["episodes"]):
        env = make("connectx", configuration=job["configuration"])
        agents = [job["path"], job["opponent"]] if seat == 0 else [job["opponent"], job["path"]]
        env.run(agents)
        final = env.steps[-1][seat]
        times = [step[seat]["duration"] for step in env.logs if len(step) > seat and "duration" in step[seat]]
        errors = [step[seat]["stderr"] for step in env.logs
                  if len(step) > seat and step[seat].get("stderr", "").strip()]
        print(json.dumps({"seat": seat, "status": final["status"], "reward": final["reward"], "times": times,
                          "overage": final["observation"]["remainingOverageTime"], "stderr": errors[:1]}),
              flush=True)
"""


@dataclass
class Episode:
    """One game of the submission as Kaggle saw it."""

    configuration: dict[str, Any]
    opponent: str
    seat: int            # 0: the submission moved first
    status: str          # DONE, ERROR, TIMEOUT, INVALID
    reward: float | None
    times: list[float] = field(default_factory=list)
    overage: float = 0.0
    stderr: list[str] = field(default_factory=list)


def play_episodes(path: str, configuration: dict[str, Any], opponent: str, seats: list[int], episodes: int,
                  timeout: float = 3600.0) -> list[Episode]:
    """`episodes` games from each of `seats` (0: first) of the submission
    at `path` against Kaggle's agent `opponent` ("negamax", "random" or a
    file), in one clean child interpreter. Raises RuntimeError with the
    child's stderr if it fails."""
    job = {"path": path, "configuration": configuration, "opponent": opponent, "seats": seats,
           "episodes": episodes}
    result = subprocess.run([sys.executable, "-I", "-c", CHILD, json.dumps(job)], capture_output=True,
                            text=True, timeout=timeout)
    if result.returncode == 3:
        raise RuntimeError(f"kaggle_environments is not installed: {install_command('kaggle')}")
    if result.returncode:
        raise RuntimeError(f"the clean interpreter failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
    found = []
    for line in result.stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            found.append(Episode(configuration, opponent, record["seat"], record["status"], record["reward"],
                                 record["times"], record["overage"], record["stderr"]))
    return found


def outcome(episode: Episode) -> str:
    """W, D or L for the submission (a failed game is a loss)."""
    if episode.status != "DONE" or episode.reward is None:
        return "L"
    return "W" if episode.reward > 0 else "L" if episode.reward < 0 else "D"


def summary(episodes: list[Episode]) -> list[str]:
    """Lines of figures: errors, timeouts, move times, W/D/L per board,
    opponent and seat."""
    times = [t for episode in episodes for t in episode.times]
    errors = sum(e.status in ("ERROR", "INVALID") for e in episodes)
    timeouts = sum(e.status == "TIMEOUT" for e in episodes)
    lines = [f"episodes {len(episodes)}, errors {errors}, timeouts {timeouts}, moves {len(times)}, "
             f"median move {statistics.median(times) if times else 0:.3f} s, "
             f"slowest move {max(times, default=0):.3f} s, moves over 2 s {sum(t > 2.0 for t in times)}, "
             f"least overage left {min((e.overage for e in episodes), default=0):.1f} s"]
    groups: dict[tuple[Any, ...], list[str]] = {}
    for episode in episodes:
        c = episode.configuration
        key = (f"{c['columns']}x{c['rows']} inarow {c['inarow']}", episode.opponent,
               "first" if episode.seat == 0 else "second")
        groups.setdefault(key, []).append(outcome(episode))
    for (board, opponent, seat), results in groups.items():
        lines.append(f"{board:<16} vs {opponent:<8} {seat:<6}: W {results.count('W')} D {results.count('D')} "
                     f"L {results.count('L')}")
    for episode in episodes:
        for text in episode.stderr:
            lines.append(f"stderr ({episode.status}): {text.strip()[-500:]}")
    return lines


def failed(episodes: list[Episode]) -> bool:
    """Whether any episode ended in an error, an invalid move or a timeout."""
    return any(e.status != "DONE" for e in episodes)
