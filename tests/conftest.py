import os
from pathlib import Path

import pytest
from hypothesis import settings

from clinea.players.registry import write_launchers

# CI runs on 2 slow cores: keep property tests deterministic and bounded there.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=100)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session):
    # the players/NAME launchers the end-to-end tests start, as `make` writes
    # them: a plain `pytest` after `pip install -e .` works the same
    write_launchers(str(REPO / "players"))


def pytest_sessionfinish(session, exitstatus):
    """Every test runs: a skip means something the suite needs is missing
    (data, a dependency, an extra), which must fail the run, not hide in a
    summary line. CLINEA_ALLOW_SKIPS=1 allows them for a local partial run."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and exitstatus == pytest.ExitCode.OK and not os.environ.get("CLINEA_ALLOW_SKIPS"):
        reporter.write_line(f"{skipped} test(s) skipped: the suite allows none (CLINEA_ALLOW_SKIPS=1 to allow)",
                            red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="session")
def ray_address():
    """A real local Ray on 127.0.0.1 with two CPUs, started once for the
    whole session: this test process is connected to it (in-process runs
    use it as it is) and end-to-end drivers join it at the address given."""
    from clinea.ray_cluster import LOCAL, joined

    with joined(LOCAL, cpus=2) as ray:
        yield ray.get_runtime_context().gcs_address
