"""One way to run independent units of work in parallel: local processes by default, a Ray
cluster when asked (``--ray ADDRESS``, ``--ray auto``, or ``RAY_ADDRESS`` in the environment).

    runner = parallel.Runner(workers=2)                 # local processes, nothing to install
    runner = parallel.Runner(ray="auto")                # the Ray cluster this machine is part of
    for result in runner.map_unordered(function, units):
        ...

``function`` and every unit must be picklable (a module-level function and plain data). A unit
must be idempotent: on Ray a unit whose worker dies is run again elsewhere (up to
``RETRIES`` times), so it must not leave half-done files behind — return what it made and let
the head (the process that called ``map_unordered``) write it. Results arrive as units finish,
in any order; closing the iterator early (an SPRT verdict) cancels the units not yet started.

Ray is an optional extra (``pip install ".[cluster]"``); the package must be installed on every
machine of the cluster, in the same version.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterable, Iterator

from .errors import EngineError

RETRIES = 3                       # runs of a unit whose worker died, on Ray


def ray_address(requested: str | None) -> str | None:
    """The Ray address a command uses: the one asked for with ``--ray`` (``auto``: the cluster
    this machine belongs to; ``local``: a Ray instance started for this run alone), else
    ``RAY_ADDRESS``, else None (local processes). The Python functions take the address as an
    argument and read no environment."""
    if requested:
        return requested
    return os.environ.get("RAY_ADDRESS") or None


class Runner:
    """Runs units on ``workers`` local processes, or on a Ray cluster (``ray``: an address,
    ``auto`` or ``local``; the command line's ``--ray`` or ``RAY_ADDRESS``, see
    `ray_address`)."""

    def __init__(self, workers: int = 1, ray: str | None = None):
        if workers < 1:
            raise EngineError("workers must be 1 or more")
        self.workers = workers
        self.address = ray or None
        self._ray: Any = None
        if self.address is not None:
            self._ray = _connect(self.address, workers)

    @property
    def where(self) -> str:
        """Where the work runs, for progress lines."""
        if self._ray is None:
            return f"{self.workers} local process{'es' if self.workers > 1 else ''}"
        cpus = int(self._ray.cluster_resources().get("CPU", 0))
        return f"Ray at {self.address} ({cpus} CPUs)"

    @property
    def slots(self) -> int:
        """How many units run at once."""
        if self._ray is None:
            return self.workers
        return max(1, int(self._ray.cluster_resources().get("CPU", 1)))

    def map_unordered(self, function: Callable, units: Iterable) -> Iterator:
        units = list(units)
        if not units:
            return iter(())
        if self._ray is not None:
            return self._on_ray(function, units)
        return self._on_processes(function, units)     # a unit never changes this process

    def _on_processes(self, function, units) -> Iterator:
        from multiprocessing import get_context
        # A fork copies the threads' locks in whatever state they are: not safe in a process
        # that runs Ray's threads, where the children are spawned instead.
        ray = sys.modules.get("ray")
        method = "spawn" if ray is not None and ray.is_initialized() else "fork"
        with get_context(method).Pool(min(self.workers, len(units))) as pool:
            yield from pool.imap_unordered(function, units)

    def _on_ray(self, function, units) -> Iterator:
        ray = self._ray
        remote = ray.remote(max_retries=RETRIES, num_cpus=1)(function)
        pending = [remote.remote(unit) for unit in units]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    yield ray.get(done[0])
                except ray.exceptions.RayTaskError as exc:
                    # The unit's own error (an EngineError, say): raise it as it was raised.
                    raise exc.as_instanceof_cause() from None
                except ray.exceptions.RayError as exc:
                    raise EngineError(f"a unit of work was lost on Ray after {RETRIES} "
                                      f"retries: {exc}") from None
        finally:
            for ref in pending:                # stopped early: the rest are not needed
                ray.cancel(ref)


def _connect(address: str, workers: int):
    try:
        import ray
    except ImportError:
        raise EngineError("--ray needs Ray: pip install 'dimensiones[cluster]' (or pip install "
                          "ray) on this machine and on every machine of the cluster") from None
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise EngineError(f"cannot reach a Ray cluster at {address!r}: {exc}") from None
    return ray
