"""Fitting the hybrid network model to ping, ping-pong and contention measurements (`mpisim calibrate`).

The method is the PMBS 2013 paper's (Bedaride et al., "Toward Better Simulation of MPI Applications on Ethernet/TCP
Networks", Sec. IV.A-B), with the break points found by the fit rather than given:

1. **Modes, per message size.** From the late-receiver test (the receiver sleeps D before its receive):
   synchronous when the send waited for the receiver (median send_late - median send_ready >= D/2); otherwise
   detached when the receive after the delay still pays the transfer (median recv_late >= 0.9 x (median one-way
   ping-pong - median send_ready), i.e. recv_late ~ T2 + or), else asynchronous (the data was already there,
   recv_late ~ or). The per-size labels are then made monotone (asynchronous, then detached, then synchronous, as
   the model's Sa <= Sd require) by the two bounds that disagree with the fewest sizes.
2. **What each mode lets us read**, in the terms the model simulates (src/mpi/SendProtocol.hpp): a blocking send
   costs os(k) unless synchronous, a non-blocking one ois(k), a receive or(k) unless synchronous, and the one-way
   ping-pong time is os + T2 + or (asynchronous), os + T2 (detached, or folded into T2: the two are not separable
   between two processes and play the same part there), T2 (synchronous). T2(k) = L + k / B is the transfer.
   The one-way time T2 is read from is the **pre-posted ping-pong's** (both receives posted before the send, round
   trips back to back after an untimed one), not the paper's blocking ping-pong: a program's loop (a halo exchange)
   sends from warm buffers into posted receives, and the first round trip after a barrier, blocking or pre-posted,
   is 10 to 50 % slower from 4 KiB to 4 MiB (2 to 4 times at 1 KiB and below) and spreads more between calibrations
   (docs/calibrate.md). The blocking ping-pong still reads the modes (point 1); os and or come from the
   receiver-ready and late-receiver tests, as in the paper. Measurements without the pre-posted test (older CSVs)
   fall back to the blocking ping-pong.
3. **Segmented linear regression** within each mode's range of sizes: every series (os, ois, or, T2) is fitted by an
   affine function of k on each segment, all series sharing the break points. The fit is on each size's median
   (weighted by its number of points: robust to a shared machine's hiccups), with relative residuals (divided by the
   median's magnitude) so that 1-byte and 16-MiB messages weigh alike. For each number of segments
   K = 1..max_segments, dynamic programming over the distinct sizes finds the breaks minimising the sum of squared
   relative residuals (each segment spans at least `min_sizes_per_segment` distinct sizes); K is then chosen by a
   Bayesian information criterion, n log(RSS / n) + p log(n), n = sizes x series, p = 2 x series x K + 3 (K - 1):
   each segment's coefficients count one parameter each and each break three (its position is searched, which
   makes a plain BIC's single parameter too cheap: a straight line with 3 % noise then gets broken). A segment is
   added only when it lowers the residuals by more than it costs. The residuals reported are
   the raw points' relative ones.
4. **Contention**: the limiter factor f = Bs + Br over B, from the time of N unidirectional messages against the time
   of N bidirectional exchanges of the same size: f = 2 t_unidirectional / t_bidirectional (1: single port, 2: full
   duplex; the paper's graphene measured 1.5).

5. **Concurrency** at mid sizes (the in-flight and exchange tests: N messages of k bytes in flight at once, one way,
   and N each way as a halo exchange does). What the model predicts for one message, p1(k) (the fitted one-way
   time) with its bandwidth term b k (T2's slope), the model predicts N flows at once in p1 - b k + b k / rate, the
   rate of each flow as a multiple of a lone one's. The hybrid model's `concurrency-factor` c makes N flows share a
   link as if it were c times as wide (each at most a lone flow's rate): in flight one way, rate = min(1, c / N). Its
   `duplex-factor` d divides once more on the links crossed both ways, the platform's limiter of f B: with N each
   way, rate = min(1, c / N, c D / 2N), D = d f the effective Bs + Br over B. (c, D) minimise the squared log
   ratios of predicted to measured medians over both tests and every N, c in [1, largest N], D in [1, 2] (a grid);
   then d = D / f. (One message in flight depends on neither; one each way depends on D.) Sizes where b k is under
   half of p1 are not fitted (c = 1, d = 1): the factors act on the bandwidth term only, and what the tests measure
   there is mostly a cost per message that the model, overlapping the latencies of concurrent messages, lacks.

Before fitting, each (series, size) drops points above median + 5 MAD (a shared machine's hiccups).
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

ASYNCHRONOUS, DETACHED, SYNCHRONOUS = "asynchronous", "detached", "synchronous"
MODES = (ASYNCHRONOUS, DETACHED, SYNCHRONOUS)
# The series each mode lets us fit (see the module docstring, point 2).
SERIES_OF_MODE = {
    ASYNCHRONOUS: ("os", "ois", "or", "T2"),
    DETACHED: ("os", "ois", "T2"),
    SYNCHRONOUS: ("ois", "T2"),
}
DETACHED_RATIO = 0.9  # recv_late / (one-way - send_ready) above it: the receive paid the transfer
CONCURRENCY_TESTS = ("inflight", "exchange")  # N messages one way; N each way (module docstring, point 5)
# The one-way times T2 is fitted from (module docstring, point 2): the pre-posted ping-pong's warm round trips, else
# (measurements made before it existed) the blocking ping-pong's.
TRANSFER_TESTS = ("preposted", "pingpong")


class CalibrationDataError(ValueError):
    """The measurements cannot be read or do not allow a fit (mpisim calibrate: exit status 2)."""


@dataclass
class Measurements:
    """Raw rows of the benchmark's CSV: test -> size -> list of seconds; plus contention and speed rows."""

    samples: Dict[str, Dict[int, List[float]]] = field(default_factory=dict)
    contention: Dict[str, List[Tuple[int, int, float]]] = field(default_factory=dict)  # test -> (size, count, s)
    flops: List[Tuple[float, float]] = field(default_factory=list)  # (flops, seconds)
    # in-flight and exchange tests: test -> (size, messages) -> seconds
    concurrency: Dict[str, Dict[Tuple[int, int], List[float]]] = field(default_factory=dict)
    comments: List[str] = field(default_factory=list)  # the `#` lines, without '#'
    delay: Optional[float] = None  # the late receiver's sleep, seconds

    def sizes(self) -> List[int]:
        return sorted(set(self.samples.get("pingpong", {})))

    def median(self, test: str, size: int) -> float:
        values = self.samples.get(test, {}).get(size)
        return float(np.median(values)) if values else float("nan")

    def transfer_test(self) -> str:
        """The test whose one-way times T2 is fitted from: the first of TRANSFER_TESTS measured at every size."""
        sizes = self.sizes()
        complete = [t for t in TRANSFER_TESTS if all(self.samples.get(t, {}).get(k) for k in sizes)]
        return complete[0] if sizes and complete else "pingpong"


def read_measurements(text: str, name: str = "measurements") -> Measurements:
    """Parses the benchmark's CSV (test,size,count,seconds after `#` comment lines)."""
    m = Measurements()
    body = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("#"):
            comment = line[1:].strip()
            m.comments.append(comment)
            if comment.startswith("late receiver delay:"):
                m.delay = float(comment.split(":", 1)[1].strip().rstrip("s"))
        elif line.strip():
            body.append((number, line))
    if not body or body[0][1].strip() != "test,size,count,seconds":
        raise CalibrationDataError(f"{name}: expected the header line 'test,size,count,seconds'")
    for number, line in body[1:]:
        row = next(csv.reader(io.StringIO(line)))
        try:
            test, size, count, seconds = row[0], int(row[1]), float(row[2]), float(row[3])
        except (ValueError, IndexError):
            raise CalibrationDataError(f"{name}:{number}: expected test,size,count,seconds, got '{line}'") from None
        if not math.isfinite(seconds) or seconds < 0:
            raise CalibrationDataError(f"{name}:{number}: time must be finite and >= 0, got {row[3]}")
        if test in CONCURRENCY_TESTS:
            if int(count) < 1:
                raise CalibrationDataError(f"{name}:{number}: {test} needs at least 1 message, got {row[2]}")
            m.concurrency.setdefault(test, {}).setdefault((size, int(count)), []).append(seconds)
        elif test in ("unidir", "bidir"):
            m.contention.setdefault(test, []).append((size, int(count), seconds))
        elif test == "flops":
            m.flops.append((count, seconds))
        else:
            m.samples.setdefault(test, {}).setdefault(size, []).append(seconds)
    for needed in ("pingpong", "send_ready", "isend_ready", "send_late", "recv_late"):
        if not m.samples.get(needed):
            raise CalibrationDataError(f"{name}: no '{needed}' measurement")
    if m.delay is None:
        raise CalibrationDataError(f"{name}: missing the '# late receiver delay: D' line")
    return m


def trim_outliers(values: Sequence[float]) -> np.ndarray:
    v = np.asarray(values, dtype=float)
    if len(v) < 3:
        return v
    median = np.median(v)
    mad = np.median(np.abs(v - median))
    return v[v <= median + 5 * mad] if mad > 0 else v


# ----------------------------------------------------------------------------------------------------------------
# modes


def label_sizes(m: Measurements) -> Dict[int, str]:
    """Mode of each size from the late-receiver test (module docstring, point 1), before making them monotone."""
    labels = {}
    for k in m.sizes():
        waited = m.median("send_late", k) - m.median("send_ready", k)
        if waited >= m.delay / 2:
            labels[k] = SYNCHRONOUS
            continue
        transfer_and_receive = m.median("pingpong", k) - m.median("send_ready", k)
        late = m.median("recv_late", k)
        labels[k] = DETACHED if transfer_and_receive > 0 and late >= DETACHED_RATIO * transfer_and_receive else ASYNCHRONOUS
    return labels


def monotone_modes(sizes: Sequence[int], labels: Dict[int, str]) -> List[str]:
    """The labelling async^a detached^d sync^rest that disagrees with the fewest per-size labels (ties: the earliest
    bounds, i.e. the slower protocol)."""
    n = len(sizes)
    rank = [MODES.index(labels[k]) for k in sizes]
    best, best_cost = (0, 0), n + 1
    for a in range(n + 1):
        for d in range(a, n + 1):
            cost = sum(rank[i] != (0 if i < a else 1 if i < d else 2) for i in range(n))
            if cost < best_cost:
                best, best_cost = (a, d), cost
    a, d = best
    return [MODES[0 if i < a else 1 if i < d else 2] for i in range(n)]


# ----------------------------------------------------------------------------------------------------------------
# segmented regression


@dataclass
class SeriesPoints:
    """One series at each size: its median y, and the weight of the squared residual there, n / scale^2 (n points
    measured, scale the median's magnitude: residuals are relative)."""

    k: np.ndarray
    y: np.ndarray
    weight: np.ndarray


def affine_fit(k: np.ndarray, y: np.ndarray, weight: np.ndarray) -> Tuple[float, float, float]:
    """Weighted least squares y ~ a + b k: (a, b, weighted sum of squared residuals)."""
    w = np.sqrt(weight)
    design = np.stack([w, w * k], axis=1)
    target = w * y
    if len(np.unique(k)) < 2:
        a = float(np.sum(target * w) / np.sum(w * w))
        return a, 0.0, float(np.sum((target - a * w) ** 2))
    (a, b), *_ = np.linalg.lstsq(design, target, rcond=None)
    residual = target - design @ np.array([a, b])
    return float(a), float(b), float(np.sum(residual**2))


def segment_cost(series: Sequence[SeriesPoints], lo: int, hi: int, sizes: Sequence[int]) -> float:
    """Residual sum of squares of every series fitted on sizes[lo..hi] (inclusive)."""
    total = 0.0
    for s in series:
        mask = (s.k >= sizes[lo]) & (s.k <= sizes[hi])
        if mask.any():
            total += affine_fit(s.k[mask], s.y[mask], s.weight[mask])[2]
    return total


def best_segmentations(series: Sequence[SeriesPoints], sizes: Sequence[int], max_segments: int,
                       min_sizes: int) -> Dict[int, Tuple[float, List[int]]]:
    """For each K, the minimal total residual over segmentations of `sizes` into K runs of at least `min_sizes`
    consecutive sizes, and the index of the first size of each run (dynamic programming)."""
    n = len(sizes)
    cost = {}
    for lo in range(n):
        for hi in range(lo + min_sizes - 1, n):
            cost[lo, hi] = segment_cost(series, lo, hi, sizes)
    inf = float("inf")
    # best[K][j]: minimal residual splitting sizes[0..j-1] into K segments; start[K][j]: where the last one starts
    best = [[inf] * (n + 1) for _ in range(max_segments + 1)]
    start = [[-1] * (n + 1) for _ in range(max_segments + 1)]
    best[0][0] = 0.0
    for count in range(1, max_segments + 1):
        for j in range(1, n + 1):
            for i in range(0, j - min_sizes + 1):
                if best[count - 1][i] < inf and best[count - 1][i] + cost[i, j - 1] < best[count][j]:
                    best[count][j] = best[count - 1][i] + cost[i, j - 1]
                    start[count][j] = i
    result = {}
    for count in range(1, max_segments + 1):
        if best[count][n] == inf:
            continue
        starts, j = [], n
        for c in range(count, 0, -1):
            i = start[c][j]
            starts.append(i)
            j = i
        result[count] = (best[count][n], sorted(starts))
    if not result:  # fewer sizes than one segment needs: one segment anyway
        result[1] = (segment_cost(series, 0, n - 1, sizes), [0])
    return result


BREAK_PENALTY = 3  # a break whose position is searched costs as much as 3 parameters (plain BIC would say 1)


def choose_segment_count(options: Dict[int, Tuple[float, List[int]]], points: int, series_count: int) -> int:
    """The K minimising n log(RSS/n) + p log(n), p = 2 series K + 3 (K - 1)."""
    def criterion(count: int) -> float:
        rss = max(options[count][0], 1e-300)
        parameters = 2 * series_count * count + BREAK_PENALTY * (count - 1)
        return points * math.log(rss / points) + parameters * math.log(points)

    return min(options, key=criterion)


# ----------------------------------------------------------------------------------------------------------------
# the whole fit


@dataclass
class Segment:
    mode: str
    first: int  # smallest size measured in it
    last: int  # largest size measured in it: the segment covers (previous segment's last, last]
    coefficients: Dict[str, Tuple[float, float]]  # series -> (a seconds, b seconds per byte)
    residuals: Dict[str, float]  # series -> root mean square relative residual
    points: int


@dataclass
class Fit:
    segments: List[Segment]
    modes_by_size: Dict[int, str]
    raw_labels: Dict[int, str]
    limiter_factor: Optional[float]
    contention_size: Optional[int]
    concurrency: List["ConcurrencyPoint"]  # per size of the in-flight and exchange tests, smallest first
    host_speed: Optional[float]  # flop/s of the multiply-add kernel
    series_points: Dict[str, Dict[int, np.ndarray]]  # series -> size -> values used (for the plot and the comments)
    transfer_test: str = "pingpong"  # the one-way times T2 was fitted from (TRANSFER_TESTS)

    def segment_for(self, k: float) -> Segment:
        for s in self.segments:
            if k <= s.last:
                return s
        return self.segments[-1]

    def predict(self, series: str, k: float) -> float:
        a, b = self.segment_for(k).coefficients.get(series, (0.0, 0.0))
        return a + b * k

    def modelled(self, series: str, k: float) -> float:
        """A series as the parameter file makes the model pay it: negative coefficients written as 0."""
        a, b = self.segment_for(k).coefficients.get(series, (0.0, 0.0))
        return max(a, 0.0) + max(b, 0.0) * k

    def one_way(self, k: float) -> float:
        """The model's one-way time of one message as the ping-pong measures it: os + T2 + or (asynchronous),
        os + T2 (detached), T2 (synchronous)."""
        mode = self.segment_for(k).mode
        time = self.modelled("T2", k)
        if mode != SYNCHRONOUS:
            time += self.modelled("os", k)
        if mode == ASYNCHRONOUS:
            time += self.modelled("or", k)
        return time


@dataclass
class ConcurrencyPoint:
    """The in-flight and exchange tests at one size, and the factors fitted from them (module docstring, point 5)."""

    size: int
    in_flight: Dict[int, float]  # messages -> median one-way seconds
    exchange: Dict[int, float]  # messages each way -> median seconds
    lone: float  # the model's one-way time of one message, p1
    bandwidth_term: float  # its b k
    concurrency: float  # c
    duplex: float  # D = (Bs + Br) / B with N messages each way; the model's duplex-factor is D / f
    fitted: bool = True  # False where the bandwidth term is under half the time: c and D then stay plain (1, f)


def _series_values(m: Measurements, mode: str, k: int, medians: Dict[str, float]) -> Dict[str, np.ndarray]:
    values = {
        "os": trim_outliers(m.samples["send_ready"][k]),
        "ois": trim_outliers(m.samples["isend_ready"][k]),
        "or": trim_outliers(m.samples["recv_late"][k]),
    }
    one_way = trim_outliers(m.samples[m.transfer_test()][k])
    if mode == ASYNCHRONOUS:
        values["T2"] = one_way - medians["os"] - medians["or"]
    elif mode == DETACHED:
        values["T2"] = one_way - medians["os"]
    else:
        values["T2"] = one_way
    return {name: values[name] for name in SERIES_OF_MODE[mode]}


def fit_measurements(m: Measurements, max_segments: int = 4, min_sizes_per_segment: int = 3) -> Fit:
    sizes = m.sizes()
    if len(sizes) < 2:
        raise CalibrationDataError("need ping-pong measurements of at least 2 message sizes to fit")
    for test in ("send_ready", "isend_ready", "send_late", "recv_late"):
        missing = [k for k in sizes if k not in m.samples[test]]
        if missing:
            raise CalibrationDataError(f"no '{test}' measurement of size {missing[0]} (every size needs every test)")
    raw_labels = label_sizes(m)
    modes = dict(zip(sizes, monotone_modes(sizes, raw_labels)))

    segments: List[Segment] = []
    used: Dict[str, Dict[int, np.ndarray]] = {}
    for mode in MODES:
        mode_sizes = [k for k in sizes if modes[k] == mode]
        if not mode_sizes:
            continue
        per_size = {}
        for k in mode_sizes:
            medians = {name: float(np.median(trim_outliers(m.samples[test][k])))
                       for name, test in (("os", "send_ready"), ("or", "recv_late"))}
            per_size[k] = _series_values(m, mode, k, medians)
        series = []
        for name in SERIES_OF_MODE[mode]:
            ks, ys, weights = [], [], []
            for k in mode_sizes:
                v = per_size[k][name]
                median = float(np.median(v))
                ks.append(k)
                ys.append(median)
                weights.append(len(v) / max(abs(median), 1e-9) ** 2)
                used.setdefault(name, {})[k] = v
            series.append(SeriesPoints(np.array(ks, float), np.array(ys, float), np.array(weights, float)))
        options = best_segmentations(series, mode_sizes, max_segments, min_sizes_per_segment)
        count = choose_segment_count(options, len(mode_sizes) * len(series), len(series))
        starts = options[count][1] + [len(mode_sizes)]
        for lo, next_lo in zip(starts, starts[1:]):
            hi = next_lo - 1
            coefficients, residuals, count_points = {}, {}, 0
            for name, s in zip(SERIES_OF_MODE[mode], series):
                mask = (s.k >= mode_sizes[lo]) & (s.k <= mode_sizes[hi])
                a, b, _ = affine_fit(s.k[mask], s.y[mask], s.weight[mask])
                coefficients[name] = (a, b)
                residuals[name] = _relative_rms(used[name], mode_sizes[lo:hi + 1], a, b)
                count_points += sum(len(used[name][k]) for k in mode_sizes[lo:hi + 1])
            segments.append(Segment(mode, mode_sizes[lo], mode_sizes[hi], coefficients, residuals, count_points))

    limiter, contention_size = contention_factor(m)
    speed = None
    if m.flops:
        flops = sum(f for f, _ in m.flops)
        seconds = sum(t for _, t in m.flops)
        speed = flops / seconds if seconds > 0 else None
    fit = Fit(segments, modes, raw_labels, limiter, contention_size, [], speed, used, m.transfer_test())
    fit.concurrency = concurrency_points(m, fit)
    return fit


def _relative_rms(values: Dict[int, np.ndarray], sizes: Sequence[int], a: float, b: float) -> float:
    """Root mean square of (measured - fitted) / scale over the raw points of these sizes, the scale being the larger
    of the fitted value and the median measured (a transfer time obtained by difference can be near 0)."""
    errors = []
    for k in sizes:
        fitted = a + b * k
        scale = max(abs(fitted), abs(float(np.median(values[k]))), 1e-12)
        errors += list((values[k] - fitted) / scale)
    return float(np.sqrt(np.mean(np.square(errors)))) if errors else 0.0


def contention_factor(m: Measurements) -> Tuple[Optional[float], Optional[int]]:
    """f = (Bs + Br) / B = 2 t_unidirectional / t_bidirectional, from the medians at the largest size measured by
    both tests, clamped to [1, 2] (a port cannot do worse than alternate, nor better than both directions)."""
    uni = {(k, n): [] for k, n, _ in m.contention.get("unidir", [])}
    for k, n, t in m.contention.get("unidir", []):
        uni[k, n].append(t)
    bi: Dict[Tuple[int, int], List[float]] = {}
    for k, n, t in m.contention.get("bidir", []):
        bi.setdefault((k, n), []).append(t)
    common = sorted(set(uni) & set(bi))
    if not common:
        return None, None
    key = common[-1]
    t_uni, t_bi = float(np.median(uni[key])), float(np.median(bi[key]))
    if t_bi <= 0:
        return None, None
    return min(2.0, max(1.0, 2 * t_uni / t_bi)), key[0]


def _median_per_count(samples: Dict[Tuple[int, int], List[float]], size: int) -> Dict[int, float]:
    return {n: float(np.median(trim_outliers(v))) for (k, n), v in sorted(samples.items()) if k == size}


def relative_rate(messages: int, concurrency: float, duplex: Optional[float]) -> float:
    """The model's rate of each of `messages` flows of one size, as a multiple of a lone flow's: min(1, c / N) in flight
    one way (duplex None), min(1, c / N, c D / 2N) with as many each way."""
    rate = min(1.0, concurrency / messages)
    return rate if duplex is None else min(rate, concurrency * duplex / (2 * messages))


def predicted_time(messages: int, lone: float, bandwidth_term: float, concurrency: float,
                   duplex: Optional[float]) -> float:
    """The model's time for N messages at once: the lone message's latency part, then N flows at their rate."""
    return lone - bandwidth_term + bandwidth_term / relative_rate(messages, concurrency, duplex)


# The factors scale only the bandwidth term; where it is under half a lone message's time, what the tests measure is
# mostly a cost per message the model has no term for (it overlaps the latencies of messages in flight together),
# and factors fitted there would stand for it, wrongly for one message each way: such sizes keep plain sharing.
BANDWIDTH_SHARE_FITTED = 0.5
CONCURRENCY_GRID = 401  # values of c tried, log-spaced over [1, largest N]
DUPLEX_GRID = 201  # values of D tried over [1, 2]


def concurrency_and_duplex(in_flight: Dict[int, float], exchange: Dict[int, float], lone: float,
                           bandwidth_term: float) -> Tuple[float, float]:
    """(c, D) minimising the squared log ratios of predicted to measured times over both tests and every N (a grid:
    c log-spaced over [1, largest N], D over [1, 2]; among equal fits the smallest c and the largest D, i.e. the least
    departure from plain sharing without limiter). (1, 2) when nothing measured depends on them."""
    cases = [(n, t, False) for n, t in in_flight.items()] + [(n, t, True) for n, t in exchange.items()]
    if not any(n >= 2 or both_ways for n, _, both_ways in cases) or bandwidth_term <= 0:
        return 1.0, 2.0
    largest = max(2, max(n for n, _, _ in cases))
    c = np.geomspace(1.0, float(largest), CONCURRENCY_GRID)[:, None]
    d = np.linspace(2.0, 1.0, DUPLEX_GRID)[None, :]
    cost = np.zeros((CONCURRENCY_GRID, DUPLEX_GRID))
    for n, measured, both_ways in cases:
        rate = np.minimum(1.0, c / n)
        if both_ways:
            rate = np.minimum(rate, c * d / (2 * n))
        predicted = lone - bandwidth_term + bandwidth_term / rate
        cost = cost + np.log(predicted / measured) ** 2
    i, j = np.unravel_index(int(np.argmin(cost)), cost.shape)
    return float(c[i, 0]), float(d[0, j])


def concurrency_points(m: Measurements, fit: Fit) -> List[ConcurrencyPoint]:
    in_flight_samples = m.concurrency.get("inflight", {})
    exchange_samples = m.concurrency.get("exchange", {})
    points = []
    for k in sorted({k for k, _ in in_flight_samples} | {k for k, _ in exchange_samples}):
        in_flight = _median_per_count(in_flight_samples, k)
        exchange = _median_per_count(exchange_samples, k)
        lone = fit.one_way(k)
        bandwidth_term = max(0.0, fit.segment_for(k).coefficients["T2"][1]) * k
        if bandwidth_term < BANDWIDTH_SHARE_FITTED * lone:
            plain_duplex = fit.limiter_factor or 2.0
            points.append(ConcurrencyPoint(k, in_flight, exchange, lone, bandwidth_term, 1.0, plain_duplex, False))
            continue
        c, d = concurrency_and_duplex(in_flight, exchange, lone, bandwidth_term)
        points.append(ConcurrencyPoint(k, in_flight, exchange, lone, bandwidth_term, c, d))
    return points
