"""The Ray cluster that `--ray [ADDRESS]` runs games on (the judge's tables,
training's fitness evaluations): joined for one run and left after it.

Ray is an optional extra (`pip install clinea[ray]`), imported only here and
only when a run is joined, so local runs never load it.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator, Optional

# What `--ray` without an address means: a fresh Ray on this machine only,
# never a cluster that happens to be running here (Ray's own default joins one)
LOCAL = "local"


def import_ray():
    """Ray, or an error that says how to get it."""
    try:
        import ray
    except ImportError:
        raise SystemExit("--ray needs Ray: pip install 'clinea[ray]'") from None
    return ray


@contextmanager
def joined(address: Optional[str], cpus: Optional[int] = None) -> Iterator[object]:
    """Ray connected to `address` (Ray's forms: "auto", "HOST:PORT",
    "ray://HOST:PORT"; LOCAL or None starts one on 127.0.0.1 with `cpus`
    CPUs, by default this machine's). A process already connected (a test
    session, a notebook) keeps its connection, which is not closed here."""
    if address in (None, LOCAL):
        # Ray turns 127.0.0.1 into the machine's network address unless it is
        # told that this Ray is no cluster; read when Ray is first imported
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    # the dashboard and the usage report cost memory and start-up time, and a
    # judge needs neither; a user's own setting wins
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    options = dict(include_dashboard=False, logging_level="WARNING", log_to_driver=True)
    if address in (None, LOCAL):
        # bound to loopback: a local run opens no port to the network
        ray.init(address=LOCAL, num_cpus=cpus, _node_ip_address="127.0.0.1", **options)
    else:
        ray.init(address=address, **options)
    try:
        yield ray
    finally:
        ray.shutdown()


def cluster_cpus(ray) -> int:
    """The CPUs of the whole cluster, as Ray counts them."""
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def nodes(ray) -> list[dict]:
    """The live nodes that can run a task (have CPUs)."""
    return [node for node in ray.nodes() if node.get("Alive") and node.get("Resources", {}).get("CPU", 0) > 0]
