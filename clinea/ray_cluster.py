"""The Ray cluster that `--ray [ADDRESS]` runs games on (the judge's tables,
training's fitness evaluations): joined for one run and left after it.

Ray is an optional extra (`pip install clinea[ray]`), imported only here and
only when a run is joined, so local runs never load it.

Every step on Ray has a deadline and fails with RayFailure, one message
that says which step and why, never Ray's traceback: under memory pressure
Ray once retried a task forever and the run hung. Ray's own output (its
workers' logs, a worker's crash trace) stays in Ray's log files.
"""
from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

# What `--ray` without an address means: a fresh Ray on this machine only,
# never a cluster that happens to be running here (Ray's own default joins one)
LOCAL = "local"
# Seconds a step of Ray's own may take (a node's check, a table's close):
# far longer than it ever does, short of hanging.
STEP_DEADLINE = 120.0


class RayFailure(SystemExit):
    """A step on Ray that failed or did not end in time; the message says
    which and why. A SystemExit: uncaught, it ends the program with the
    message and no traceback."""


def import_ray() -> Any:  # the ray module: Ray ships no types of its own
    """Ray, or an error that says how to get it."""
    try:
        import ray
    except ImportError:
        raise SystemExit("--ray needs Ray: pip install 'clinea[ray]'") from None
    return ray


@contextmanager
def joined(address: str | None, cpus: int | None = None) -> Iterator[Any]:
    """Ray connected to `address` (Ray's forms: "auto", "HOST:PORT",
    "ray://HOST:PORT"; LOCAL or None starts one on 127.0.0.1 with `cpus`
    CPUs, by default this machine's). A process already connected (a test
    session, a notebook) keeps its connection, which is not closed here."""
    if address in (None, LOCAL):
        # Ray turns 127.0.0.1 into the machine's network address unless it is
        # told that this Ray is no cluster; read when Ray is first imported
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        # a task killed for want of memory is retried without end by default
        os.environ.setdefault("RAY_task_oom_retries", "2")
    ray = import_ray()
    quiet_driver_messages()
    if ray.is_initialized():
        yield ray
        return
    # the dashboard and the usage report cost memory and start-up time, and a
    # judge needs neither; a user's own setting wins
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # log_to_driver off: the workers' output (a crashed worker's 27-line trace)
    # stays in Ray's logs; the judge's tables report their players themselves
    options = dict(include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        if address in (None, LOCAL):
            # bound to loopback: a local run opens no port to the network
            ray.init(address=LOCAL, num_cpus=cpus, _node_ip_address="127.0.0.1", **options)
        else:
            ray.init(address=address, **options)
    except Exception as error:  # Ray raises plain Exception, ConnectionError, RuntimeError...
        where = "start a local Ray" if address in (None, LOCAL) else f"join the Ray cluster at {address}"
        raise RayFailure(f"could not {where}: {first_line(error)}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def quiet_driver_messages() -> None:
    """Sends the messages Ray's driver prints by itself (a thread prints the
    raylet's reports, "A worker died or was killed...", on stdout, between
    the tally's lines; log_to_driver does not stop it) to the log instead:
    whatever they report reaches the user as a RayFailure."""
    import logging

    import ray._private.worker as driver

    if getattr(driver, "print_to_stdstream", None) is not None:
        log = logging.getLogger("clinea.ray")

        def to_log(data: dict[str, Any], ignore_prefix: bool = False) -> None:
            log.info("%s: %s", data.get("pid"), "\n".join(data.get("lines", ())))

        driver.print_to_stdstream = to_log


def first_line(error: BaseException) -> str:
    """What an exception of Ray's says, in one line (Ray's run to pages)."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[0] if lines else ''}".rstrip(": ")


def get(ray: Any, refs: Sequence[Any], what: str, deadline: float | None = None) -> list[Any]:
    """ray.get of `refs` within `deadline` seconds (default STEP_DEADLINE);
    RayFailure naming `what` otherwise (it failed, or did not end in time)."""
    deadline = STEP_DEADLINE if deadline is None else deadline
    try:
        answers: list[Any] = ray.get(list(refs), timeout=deadline)
        return answers
    except ray.exceptions.GetTimeoutError:
        raise late(what, deadline) from None
    except ray.exceptions.RayError as error:
        raise RayFailure(f"{what} failed: {first_line(error)}") from None


def as_completed(ray: Any, refs: Sequence[Any], what: str, deadline: float) -> Iterator[tuple[int, Any]]:
    """(index in `refs`, answer) of each task as soon as it ends, all within
    `deadline` seconds; RayFailure naming `what` as get's otherwise."""
    end = time.monotonic() + deadline
    pending = {ref: index for index, ref in enumerate(refs)}
    while pending:
        ready, _ = ray.wait(list(pending), num_returns=1, timeout=max(0.0, end - time.monotonic()))
        if not ready:
            raise late(what, deadline)
        for ref in ready:
            yield pending.pop(ref), get(ray, [ref], what)[0]


def late(what: str, deadline: float) -> RayFailure:
    return RayFailure(f"{what} did not end within {deadline:g} s (is the cluster short of memory or CPUs?)")


def cluster_cpus(ray: Any) -> int:
    """The CPUs of the whole cluster, as Ray counts them."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def nodes(ray: Any) -> list[dict[str, Any]]:
    """The live nodes that can run a task (have CPUs)."""
    return [node for node in ray.nodes() if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0]
