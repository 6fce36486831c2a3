"""mpisim: simulate MPI applications on clusters you do not have.

Python front end of the native core: offline replay of time-independent traces, online runs of programs built by
`mpisim cc`, model and collective registries, results as plain dicts or pandas data frames (``mpisim.results``).
"""

from mpisim._core import DeadlockError, InputError, SimulationError
from mpisim.api import (
    collective_algorithms,
    collective_selectors,
    convert,
    describe_platform,
    network_models,
    platform_hosts,
    replay,
    route,
    run,
    run_options,
)

__version__ = "0.1.0"


def __getattr__(name: str):
    """`sweep` and `load_sweep` are imported on first use: their module (Dask campaigns, CSV, threads) costs every
    command's start-up, `mpisim replay` included, and only `mpisim sweep` needs it."""
    if name in ("sweep", "load_sweep"):
        from mpisim import sweeps

        return getattr(sweeps, name)
    raise AttributeError(f"module 'mpisim' has no attribute {name!r}")


__all__ = [
    "DeadlockError",
    "InputError",
    "SimulationError",
    "collective_algorithms",
    "collective_selectors",
    "convert",
    "describe_platform",
    "network_models",
    "platform_hosts",
    "route",
    "replay",
    "run",
    "run_options",
    "load_sweep",
    "sweep",
    "__version__",
]
