"""The results of `mpisim.replay` and `mpisim.run` (ReplayResult, RunResult and their per-rank figures), reached as
`mpisim.api.ReplayResult` and so on. A module of their own: `dataclasses` (with `inspect`, `ast`, `dis`) and `typing`
cost some 60 M instructions to import, 3 % of a 16 384-rank xsim replay, and `mpisim replay --json` builds no result
object (api.replay_fields), so its start-up does without them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class RankStats:
    rank: int
    compute: float
    sleep: float
    communicate: float
    wait: float
    finish: float
    actions: int
    failed: bool = False  # the rank failed (--fail): its finish is the date it did
    checkpoint: Optional[float] = None  # with checkpoint/restart: time spent writing checkpoints

    def to_dict(self) -> dict:
        out = dict(vars(self))  # a copy at C speed: 16 384 ranks make 130 000 items
        if self.checkpoint is None:
            del out["checkpoint"]
        return out


class Result:
    """What replay and run results share: `simulated_time`, per-rank figures (`ranks`), `fingerprint` (the engine's
    hash of the event sequence), and their provenance: `inputs`, `model_parameters` and, in `to_dict()`, the
    version. `to_dict()` is the same for two runs of the same inputs except its "host" entry, what the machine and
    the moment add (real time taken; for `run`, the host speed used)."""

    def to_dataframe(self):
        """Per-rank breakdown as a pandas DataFrame (needs pandas)."""
        import pandas as pd

        return pd.DataFrame([vars(r) for r in self.ranks]).set_index("rank")


@dataclass
class ReplayResult(Result):
    """What a replay predicts, with the inputs and model parameters that produced it (provenance)."""

    simulated_time: float
    ranks: List[RankStats]
    actions: int
    fingerprint: int
    inputs: Dict[str, object] = field(default_factory=dict)
    model_parameters: Dict[str, str] = field(default_factory=dict)
    # --coll-selector automatic: per distinct call, the candidates' times and the choice
    collective_decisions: List[dict] = field(default_factory=list)
    wall_seconds: float = 0.0  # real time the replay took
    # --fail, --fail-mtbf: the ranks that failed, in the order they did ({"rank": r, "time": seconds})
    failures: List[dict] = field(default_factory=list)
    # --switch: simulated seconds under each network model (by the time rules; size rules count for nothing)
    time_under_models: Dict[str, float] = field(default_factory=dict)
    # checkpoint/restart (checkpoint_interval, restart; docs/failures.md): every attempt ({"attempt", "start", "end",
    # "outcome", "checkpoint"}), every checkpoint completed ({"attempt", "cut", "date"}), the time lost; else None
    attempts: Optional[List[dict]] = None
    checkpoints: Optional[List[dict]] = None
    time_lost: Optional[float] = None
    # replay(..., ranks_json=True): `ranks` as to_dict() and json.dumps(indent=2) write them in the document, written
    # by the native core (what `mpisim replay --json` prints; None otherwise, and when there is no rank)
    ranks_json: Optional[str] = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict:
        return self._document([r.to_dict() for r in self.ranks])

    def _document(self, ranks) -> dict:
        """to_dict() with `ranks` in place of the per-rank list."""
        from mpisim.api import replay_document

        return replay_document(vars(self), ranks)


@dataclass
class OnlineRankStats:
    rank: int
    compute: float  # computation injected between MPI calls
    mpi: float  # inside MPI calls
    finish: float  # date the rank's main returned
    calls: int
    failed: bool = False  # the rank failed (--fail, --fail-mtbf) in the last attempt


@dataclass
class RunResult(Result):
    """What an online run (`run`) simulated, with its provenance, the program's output and its exit status (the
    first non-zero status a rank's main returned); `outcome` is "ok" or "application-exit", `warnings` mpisim's
    warnings about the program (requests pending at MPI_Finalize)."""

    simulated_time: float
    ranks: List[OnlineRankStats]
    fingerprint: int
    exit_status: int
    stdout: str
    stderr: str
    wall_seconds: float  # real time the simulation took
    inputs: Dict[str, object] = field(default_factory=dict)
    model_parameters: Dict[str, str] = field(default_factory=dict)
    outcome: str = "ok"
    warnings: List[str] = field(default_factory=list)
    host_speed: float = 0.0  # flop/s that scaled computation: measured at start unless given (then also in inputs)
    # --fail, --fail-mtbf, --restart: every failure ({"rank", "time", "attempt"}), every attempt ({"attempt", "start",
    # "end", "outcome"}) and the simulated time they cost (docs/failures.md)
    failures: List[dict] = field(default_factory=list)
    attempts: List[dict] = field(default_factory=list)
    time_lost: float = 0.0

    def to_dict(self) -> dict:
        from mpisim import __version__

        return {
            "mpisim_version": __version__,
            "simulated_time": self.simulated_time,
            "outcome": self.outcome,
            "exit_status": self.exit_status,
            "warnings": self.warnings,
            "failures": self.failures,
            "attempts": self.attempts,
            "time_lost": self.time_lost,
            "fingerprint": f"{self.fingerprint:016x}",
            "inputs": self.inputs,
            "model_parameters": self.model_parameters,
            "ranks": [vars(r) for r in self.ranks],
            "host": {"wall_seconds": self.wall_seconds, "host_speed": self.host_speed},
        }
