"""`clinea league` on a fresh folder at its default settings (7x6, the five
default baselines, 2 games at once): seconds to anchor the baselines (done
once in a folder's life), then seconds from dropping a bot in (the
`clinea new-bot` template) to its rating, with the figures of the standings.

    .venv/bin/python benchmarks/league.py                      # defaults: 7x6
    .venv/bin/python benchmarks/league.py --config "[game]
    columns = 5"                                                # league.toml lines to add
"""
import argparse
import json
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WAIT = 1800.0


def standings(folder: Path) -> dict:
    try:
        return json.loads((folder / "standings.json").read_text())
    except (OSError, ValueError):
        return {}


def wait(folder: Path, league: subprocess.Popen, check) -> float:
    """Seconds until `check(standings)` holds."""
    start = time.monotonic()
    while not check(standings(folder)):
        if league.poll() is not None or time.monotonic() - start > WAIT:
            raise SystemExit(f"the league stopped or took over {WAIT:g} s: {league.communicate()[1]}")
        time.sleep(0.1)
    return time.monotonic() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--config", default="", help="league.toml's content (default: none, every default)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "league.toml").write_text(args.config)
        league = subprocess.Popen([sys.executable, "-m", "clinea", "league", str(folder)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            anchoring = wait(folder, league, lambda table: table.get("anchored"))
            games = standings(folder)["games"]
            print(f"baselines anchored in {anchoring:.1f} s ({games} calibration games, once per folder)")
            print("  " + ", ".join(f"{row['name']} {row['elo']:+.0f}" for row in standings(folder)["players"]))
            subprocess.run([sys.executable, "-m", "clinea", "new-bot", str(folder / "mybot.py")], check=True,
                           capture_output=True)

            def rated(table: dict) -> bool:
                return any(row["name"] == "mybot" and row["rated"] for row in table.get("players", []))

            rating = wait(folder, league, rated)
            row = next(row for row in standings(folder)["players"] if row["name"] == "mybot")
            print(f"a dropped-in bot rated in {rating:.1f} s: {row['games']} games, "
                  f"Elo {row['elo']:+.0f} [{row['low']:+.0f}, {row['high']:+.0f}]")
        finally:
            league.send_signal(signal.SIGTERM)
            league.wait(timeout=60)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
