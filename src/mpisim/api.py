"""The Python API over the native core: keyword arguments in, a ReplayResult out."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from mpisim import _core


@dataclass
class RankStats:
    rank: int
    compute: float
    sleep: float
    communicate: float
    wait: float
    finish: float
    actions: int


@dataclass
class ReplayResult:
    """What a replay predicts, with the inputs and model parameters that produced it (provenance)."""

    simulated_time: float
    ranks: List[RankStats]
    actions: int
    fingerprint: int
    inputs: Dict[str, object] = field(default_factory=dict)
    model_parameters: Dict[str, str] = field(default_factory=dict)
    # --coll-selector automatic: per distinct call, the candidates' times and the choice
    collective_decisions: List[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        from mpisim import __version__

        return {
            "mpisim_version": __version__,
            "simulated_time": self.simulated_time,
            "actions": self.actions,
            "fingerprint": f"{self.fingerprint:016x}",
            "inputs": self.inputs,
            "model_parameters": self.model_parameters,
            "ranks": [vars(r) for r in self.ranks],
            "collective_decisions": self.collective_decisions,
        }

    def to_dataframe(self):
        """Per-rank breakdown as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame([vars(r) for r in self.ranks]).set_index("rank")


def replay(
    trace: str,
    platform: str,
    np: Optional[int] = None,
    model: str = "smpi",
    params: Sequence[Tuple[str, str]] = (),
    params_file: Optional[str] = None,
    hostfile: Optional[str] = None,
    placement: str = "platform",
    coll_selector: str = "default",
    coll: Optional[Dict[str, str]] = None,
    timeline: Optional[str] = None,
    timeline_format: Optional[str] = None,
    timeline_internals: bool = False,
    timeline_links: bool = False,
) -> ReplayResult:
    """Replay a SimGrid time-independent trace (index file or single file) on a platform.

    With `timeline`, the run's timeline is written to that file (format by extension, or `timeline_format`:
    chrome, paje, csv; `timeline_internals` adds the messages of collective algorithms, `timeline_links` the bandwidth
    each link carries over time; docs/timelines.md)."""
    if (timeline_format or timeline_internals or timeline_links) and not timeline:
        raise ValueError("timeline_format, timeline_internals and timeline_links need a timeline file")
    options = {
        "trace": trace,
        "platform": platform,
        "ranks": np,
        "model": model,
        "model_parameters": list(params),
        "placement": placement,
        "coll_selector": coll_selector,
        "coll": dict(coll or {}),
    }
    if timeline:
        options.update(timeline=timeline, timeline_format=timeline_format, timeline_internals=timeline_internals,
                       timeline_links=timeline_links)
    if params_file:
        options["model_parameter_file"] = params_file
    if hostfile:
        options["hostfile"] = hostfile
    raw = _core.replay(options)
    ranks = [RankStats(rank=i, **r) for i, r in enumerate(raw["ranks"])]
    inputs = {
        "trace": os.path.abspath(trace) if os.path.exists(trace) else trace,
        "platform": os.path.abspath(platform) if os.path.exists(platform) else platform,
        "np": len(ranks),
        "model": model,
        "hostfile": hostfile,
        "placement": placement,
        "coll_selector": coll_selector,
        "coll": dict(coll or {}),
    }
    if timeline:
        inputs["timeline"] = os.path.abspath(timeline)
    return ReplayResult(
        simulated_time=raw["simulated_time"],
        ranks=ranks,
        actions=raw["actions"],
        fingerprint=raw["fingerprint"],
        inputs=inputs,
        model_parameters=dict(raw["model_parameters"]),
        collective_decisions=[dict(d, candidates=[list(c) for c in d["candidates"]])
                              for d in raw["collective_decisions"]],
    )


def platform_hosts(platform: str) -> List[str]:
    """Host names of a platform file or generator spec, in platform order."""
    return [h["name"] for h in _core.describe_platform(platform)["hosts"]]


def describe_platform(platform: str) -> dict:
    """Hosts (name, speed, cores) and links (name, bandwidth, latency, sharing) of a platform."""
    return _core.describe_platform(platform)


def route(platform: str, src: str, dst: str) -> dict:
    """Links crossed from host src to host dst, and the route's latency."""
    return _core.route(platform, src, dst)


def network_models() -> list:
    return _core.network_models()


def collective_algorithms() -> list:
    return _core.collective_algorithms()


def collective_selectors() -> list:
    return _core.collective_selectors()
