"""Gantt charts of timelines: ``mpisim gantt FILE [FILE2] -o out.png|svg|html``.

One row per rank, a bar per call coloured by operation (computation in a neutral grey; the same colours as the Paje
files mpisim writes), messages optionally as thin lines. Two timelines are drawn one above the other on one time
axis (a real run above its simulation, say), each labelled with its file name. Operation names are compared without
their ``MPI_`` prefix and case, so a recorded ``MPI_Allreduce`` and a simulated ``allreduce`` share a colour.

Large runs: when a panel holds more calls than can be told apart (more than ~2 000 per pixel column, or more than
200 000 in all), it is drawn as an image of rank x pixel cells, each in the colour of the operation that covers most
of its time; memory then grows with the image, not with the calls.

Link bandwidth: when a timeline holds link counters (written with ``--timeline-links``), a panel under its ranks
draws the bandwidth each selected link carries over time (bytes per second, as steps): by default the five links that
carried the most bytes in the window (``--links top:5``), or the links named (``--links NAME,NAME``), or none
(``--links none``).

``.html`` output is a self-contained page (an SVG and a small inline script, no network resources): hover a bar for
its operation, rank and dates; wheel to zoom the time axis, drag to pan, double-click to reset.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from mpisim.timeline import Progress, Timeline, read_timeline

# Same colours as src/timeline/PajeWriter.cpp.
PALETTE: Dict[str, Tuple[float, float, float]] = {
    "compute": (0.70, 0.70, 0.70), "sleep": (0.88, 0.88, 0.88), "send": (0.84, 0.15, 0.16),
    "isend": (1.00, 0.50, 0.05), "recv": (0.12, 0.47, 0.71), "irecv": (0.68, 0.78, 0.91),
    "sendRecv": (0.55, 0.34, 0.29), "wait": (0.58, 0.40, 0.74), "waitall": (0.77, 0.69, 0.84),
    "test": (0.89, 0.47, 0.76), "barrier": (0.09, 0.75, 0.81), "bcast": (0.17, 0.63, 0.17),
    "reduce": (0.60, 0.87, 0.54), "allreduce": (0.74, 0.74, 0.13), "alltoall": (1.00, 0.73, 0.47),
    "alltoallv": (0.86, 0.86, 0.55), "gather": (0.62, 0.85, 0.90), "gatherv": (0.40, 0.76, 0.65),
    "scatter": (0.99, 0.55, 0.38), "scatterv": (0.90, 0.54, 0.76), "allgather": (0.55, 0.63, 0.80),
    "allgatherv": (0.65, 0.85, 0.33), "reducescatter": (1.00, 0.85, 0.18), "scan": (0.90, 0.77, 0.58),
    "exscan": (0.70, 0.70, 0.40),
}
# Colours for other operations, picked by a hash of the name (stable across runs and files).
_SPARE = [(0.35, 0.31, 0.64), (0.63, 0.26, 0.38), (0.20, 0.53, 0.53), (0.55, 0.55, 0.20), (0.42, 0.24, 0.60),
          (0.80, 0.36, 0.56), (0.30, 0.65, 0.90), (0.50, 0.30, 0.10), (0.25, 0.45, 0.25), (0.95, 0.60, 0.60)]
_ALIASES = {"sendrecv": "sendRecv", "reduce_scatter": "reducescatter", "reduce_scatter_block": "reducescatter",
            "ibcast": "bcast", "iallreduce": "allreduce"}

AGGREGATE_PER_COLUMN = 2000  # calls per pixel column above which a panel is drawn as an image
MAX_SLICES = 200_000  # calls a panel draws one by one at most (matplotlib)
MAX_HTML_SLICES = 30_000  # and in an html page, where each is an SVG element
MAX_MESSAGES = 50_000


def canonical_operation(name: str) -> str:
    """'MPI_Allreduce' -> 'allreduce', 'MPI_Sendrecv' -> 'sendRecv', 'MPI_Init' -> 'init'; other names are kept."""
    if name in PALETTE:
        return name
    if name[:4].lower() == "mpi_":  # an MPI function name: its lower-case tail (MPI_Init -> init)
        lower = name[4:].lower()
        return _ALIASES.get(lower, lower)
    lower = name.lower()
    return _ALIASES.get(lower, lower if lower in PALETTE else name)


def colour_of(operation: str) -> Tuple[float, float, float]:
    if operation in PALETTE:
        return PALETTE[operation]
    digest = hashlib.md5(operation.encode()).digest()
    return _SPARE[digest[0] % len(_SPARE)]


def parse_ranks(text: str) -> List[int]:
    """'0-31,40,50-52' -> [0, ..., 31, 40, 50, 51, 52]."""
    ranks = set()
    for item in text.split(","):
        item = item.strip()
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", item)
        if not match:
            raise ValueError(f"--ranks expects a list such as 0-31,40, got '{text}'")
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if last < first:
            raise ValueError(f"--ranks: empty range '{item}'")
        ranks.update(range(first, last + 1))
    return sorted(ranks)


def parse_size(text: str) -> Tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match or int(match.group(1)) < 200 or int(match.group(2)) < 150:
        raise ValueError(f"--size expects WIDTHxHEIGHT in pixels (at least 200x150), got '{text}'")
    return int(match.group(1)), int(match.group(2))


# -------------------------------------------------------------------------------------------------------- panels

@dataclass
class Panel:
    """One timeline, reduced to what is drawn: calls in the window, one row per rank."""

    label: str
    ranks: List[int]  # rank of each row
    row: "object"  # numpy arrays, one entry per call: its row, operation code (index in operations), dates
    code: "object"
    start: "object"
    end: "object"
    message_rows: "object"  # (source row, destination row, start, end) per message
    calls: int
    links: List[Tuple[str, "object", "object"]] = None  # (name, dates, bytes per second from each date) per link
    row_name: str = "rank"  # what a row is: a rank, or a node's NIC (NIC tracks of a bxi run)


def _panel(timeline: Timeline, label: str, operations: List[str], ranks: Optional[Sequence[int]],
           start: Optional[float], end: Optional[float]) -> Panel:
    import numpy as np

    calls = timeline.calls
    keep = np.ones(len(calls), dtype=bool)
    if ranks is not None:
        keep &= calls["rank"].isin(list(ranks)).to_numpy()
    if start is not None:
        keep &= calls["end"].to_numpy() >= start
    if end is not None:
        keep &= calls["start"].to_numpy() <= end
    rank = calls["rank"].to_numpy()[keep]
    shown = sorted(set(int(r) for r in np.unique(rank)))
    row_of = {r: i for i, r in enumerate(shown)}
    lookup = np.full((max(shown) + 1) if shown else 1, -1, dtype=np.int64)
    for r, i in row_of.items():
        lookup[r] = i

    # Operation codes: canonical names, in the shared list of every panel.
    categorical = calls["operation"].astype("category")
    local_to_global = np.array([_code(operations, canonical_operation(str(c)))
                                for c in categorical.cat.categories] or [0], dtype=np.int32)
    code = local_to_global[categorical.cat.codes.to_numpy()[keep]]
    first = calls["start"].to_numpy()[keep]
    last = calls["end"].to_numpy()[keep]
    if start is not None:
        first = np.maximum(first, start)
    if end is not None:
        last = np.minimum(last, end)

    messages = timeline.messages
    source = messages["source"].to_numpy()
    destination = messages["destination"].to_numpy()
    inside = (source <= lookup.size - 1) & (destination <= lookup.size - 1) & (source >= 0) & (destination >= 0)
    m_start, m_end = messages["start"].to_numpy(), messages["end"].to_numpy()
    if start is not None:
        inside &= m_end >= start
    if end is not None:
        inside &= m_start <= end
    src_row = np.where(inside, lookup[np.clip(source, 0, lookup.size - 1)], -1)
    dst_row = np.where(inside, lookup[np.clip(destination, 0, lookup.size - 1)], -1)
    inside &= (src_row >= 0) & (dst_row >= 0)
    message_rows = (src_row[inside], dst_row[inside], m_start[inside], m_end[inside])
    return Panel(label, shown, lookup[rank] if len(rank) else np.zeros(0, dtype=np.int64), code, first, last,
                 message_rows, int(keep.sum()))


def parse_links(text: Optional[str]) -> Tuple[str, object]:
    """'top:5' -> ('top', 5); 'none' -> ('none', None); 'l1,l2' -> ('names', ['l1', 'l2'])."""
    text = (text or "top:5").strip()
    if text == "none":
        return "none", None
    match = re.fullmatch(r"top:(\d+)", text)
    if match:
        if int(match.group(1)) < 1:
            raise ValueError(f"--links top:N expects N >= 1, got '{text}'")
        return "top", int(match.group(1))
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError(f"--links expects top:N, none, or link names separated by commas, got '{text}'")
    return "names", names


def _link_series(timeline: Timeline, selection: Tuple[str, object], start: Optional[float],
                 end: Optional[float], t1: float) -> List[Tuple[str, object, object]]:
    """The selected links' bandwidth steps, each extended to the end of the window: top:N ranks links by the bytes
    they carried in the window (ties by name)."""
    import numpy as np

    kind, value = selection
    links = timeline.links
    if kind == "none" or links is None or len(links) == 0:
        return []
    series = []
    for name, rows in links.groupby("link", observed=True, sort=True):
        rows = rows.sort_values("time", kind="stable")
        times = rows["time"].to_numpy(dtype=float)
        used = rows["used"].to_numpy(dtype=float)
        times, used = np.append(times, max(t1, times[-1])), np.append(used, used[-1])
        lo = start if start is not None else times[0]
        hi = end if end is not None else times[-1]
        clipped = np.clip(times, lo, hi)
        carried = float(np.sum(used[:-1] * np.diff(clipped)))
        series.append((str(name), times, used, carried))
    if kind == "names":
        known = {s[0]: s for s in series}
        missing = [n for n in value if n not in known]
        if missing:
            raise ValueError(f"--links: no link named {', '.join(missing)} in {timeline.path} (links: "
                             f"{', '.join(sorted(known)[:20])}{', ...' if len(known) > 20 else ''})")
        chosen = [known[n] for n in value]
    else:
        chosen = sorted(series, key=lambda s: (-s[3], s[0]))[:value]
    return [(name, times, used) for name, times, used, _ in chosen]


def _code(operations: List[str], name: str) -> int:
    if name not in operations:
        operations.append(name)
    return operations.index(name)


def _legend_order(operations: List[str], used: set) -> List[int]:
    known = list(PALETTE)
    codes = [i for i, name in enumerate(operations) if i in used]
    return sorted(codes, key=lambda i: (known.index(operations[i]) if operations[i] in known else len(known),
                                        operations[i]))


def raster(panel: Panel, t0: float, t1: float, columns: int, rows: int, operations: int):
    """The operation covering most of each (row bin, pixel column) cell, -1 where nothing runs: an int16 image of
    shape (rows, columns). Ranks are binned when there are more than `rows`."""
    import numpy as np

    ranks = max(1, len(panel.ranks))
    rows = min(rows, ranks)
    scale = columns / (t1 - t0) if t1 > t0 else 0.0
    x0 = np.clip((panel.start - t0) * scale, 0, columns)
    x1 = np.clip((panel.end - t0) * scale, 0, columns)
    row_bin = (panel.row * rows) // ranks
    best = np.zeros((rows, columns), dtype=np.float32)
    dominant = np.full((rows, columns), -1, dtype=np.int16)
    cells = rows * columns
    progress = Progress("aggregating", operations)
    for code in range(operations):
        mine = panel.code == code
        if not mine.any():
            continue
        a, b, r = x0[mine], x1[mine], row_bin[mine]
        c0 = np.minimum(np.floor(a).astype(np.int64), columns - 1)
        c1 = np.minimum(np.floor(b).astype(np.int64), columns - 1)
        same = c0 == c1
        cover = np.zeros(cells)
        cover += np.bincount(r[same] * columns + c0[same], weights=b[same] - a[same], minlength=cells)
        split = ~same
        cover += np.bincount(r[split] * columns + c0[split], weights=(c0[split] + 1) - a[split], minlength=cells)
        cover += np.bincount(r[split] * columns + c1[split], weights=b[split] - c1[split], minlength=cells)
        # Columns strictly between c0 and c1 are covered whole: a difference array, summed along each row.
        width = columns + 1
        steps = np.bincount(r[split] * width + c0[split] + 1, minlength=rows * width)
        steps -= np.bincount(r[split] * width + c1[split], minlength=rows * width)
        cover = cover.reshape(rows, columns) + np.cumsum(steps.reshape(rows, width), axis=1)[:, :columns]
        better = cover > best
        best[better] = cover[better]
        dominant[better] = code
        progress.update(code + 1)
    progress.close()
    return dominant


def _too_dense(panel: Panel, columns: int, limit: int) -> bool:
    return panel.calls > limit or panel.calls / max(columns, 1) > AGGREGATE_PER_COLUMN


# --------------------------------------------------------------------------------------------------- matplotlib

def _draw(panels: List[Panel], operations: List[str], output: str, t0: float, t1: float, messages: bool,
          size: Tuple[int, int], title: Optional[str]) -> None:
    import numpy as np
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.colors import ListedColormap
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    width, height = size
    dpi = 100
    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi)
    # Each timeline's ranks, then its links (when drawn) in a panel a third as high.
    ratios = [r for p in panels for r in ([3, 1] if p.links else [3])]
    every = figure.subplots(len(ratios), 1, sharex=True, squeeze=False, gridspec_kw={"height_ratios": ratios})[:, 0]
    axes, link_axes, index = [], [], 0
    for panel in panels:
        axes.append(every[index])
        link_axes.append(every[index + 1] if panel.links else None)
        index += 2 if panel.links else 1
    right = 1 - min(0.3, 170 / width)
    figure.subplots_adjust(left=min(0.15, 70 / width), right=right, top=1 - (60 if title else 35) / height,
                           bottom=55 / height, hspace=0.35 if len(panels) > 1 else 0.2)
    if title:
        figure.suptitle(title)
    colours = [colour_of(name) for name in operations]
    used = set()
    for ax, panel in zip(axes, panels):
        position = ax.get_position()
        columns = max(1, int(round(position.width * width)))
        pixel_rows = max(1, int(round(position.height * height)))
        rows = max(1, len(panel.ranks))
        aggregated = _too_dense(panel, columns, MAX_SLICES)
        if aggregated:
            image = raster(panel, t0, t1, columns, pixel_rows, len(operations))
            used.update(int(c) for c in np.unique(image) if c >= 0)
            cmap = ListedColormap(colours if colours else [(1, 1, 1)])
            cmap.set_bad((1, 1, 1, 0))
            ax.imshow(np.ma.masked_less(image, 0), cmap=cmap, vmin=-0.5, vmax=len(operations) - 0.5,
                      interpolation="nearest", aspect="auto", extent=(t0, t1, rows - 0.5, -0.5))
            ax.text(1.0, 1.01, f"{panel.calls:,} calls: each cell shows its dominant operation",
                    transform=ax.transAxes, ha="right", va="bottom", fontsize=8, color="0.4")
        elif panel.calls:
            used.update(int(c) for c in np.unique(panel.code))
            y = panel.row.astype(float)
            vertices = np.empty((panel.calls, 4, 2))
            vertices[:, 0, 0] = vertices[:, 1, 0] = panel.start
            vertices[:, 2, 0] = vertices[:, 3, 0] = panel.end
            vertices[:, 0, 1] = vertices[:, 3, 1] = y - 0.4
            vertices[:, 1, 1] = vertices[:, 2, 1] = y + 0.4
            face = np.array(colours)[panel.code]
            ax.add_collection(PolyCollection(vertices, facecolors=face, edgecolors=face, linewidths=0.2))
        if messages and not aggregated:
            src, dst, m_start, m_end = panel.message_rows
            if len(src) > MAX_MESSAGES:
                ax.text(0.0, 1.01, f"{len(src):,} messages: too many to draw", transform=ax.transAxes,
                        fontsize=8, color="0.4", va="bottom")
            elif len(src):
                segments = np.stack([np.column_stack([m_start, src]), np.column_stack([m_end, dst])], axis=1)
                ax.add_collection(LineCollection(segments, colors="black", linewidths=0.5, alpha=0.6))
        ax.set_xlim(t0, t1)
        ax.set_ylim(rows - 0.5, -0.5)
        ax.set_title(panel.label, loc="left", fontsize=10)
        ax.set_ylabel(panel.row_name)
        ranks = panel.ranks
        if rows <= 40:
            ax.set_yticks(range(rows))
            ax.set_yticklabels([str(r) for r in ranks], fontsize=7 if rows > 16 else 9)
        else:
            ax.yaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
            ax.yaxis.set_major_formatter(FuncFormatter(
                lambda v, _, ranks=ranks: str(ranks[int(v)]) if 0 <= int(v) < len(ranks) else ""))
    for ax, panel in zip(link_axes, panels):
        if ax is not None:
            _draw_links(ax, panel, t0, t1)
    every[-1].set_xlabel("time (s)")
    order = _legend_order(operations, used)
    if order:
        figure.legend(handles=[Patch(facecolor=colours[i], edgecolor="none", label=operations[i]) for i in order],
                      loc="center left", bbox_to_anchor=(right + 0.01, 0.5), fontsize=8, frameon=False)
    figure.savefig(output, dpi=dpi)


def _draw_links(ax, panel: Panel, t0: float, t1: float) -> None:
    """The bandwidth of the panel's selected links as steps, in a panel under its ranks (legend on the right)."""
    from matplotlib.ticker import EngFormatter

    peak = 0.0
    for index, (name, times, used) in enumerate(panel.links):
        ax.step(times, used, where="post", linewidth=1.0, color=_LINK_COLOURS[index % len(_LINK_COLOURS)],
                label=name)
        peak = max(peak, float(used.max()) if len(used) else 0.0)
    ax.set_xlim(t0, t1)
    ax.set_ylim(0, peak * 1.1 if peak > 0 else 1)
    ax.yaxis.set_major_formatter(EngFormatter(unit="B/s"))
    ax.tick_params(axis="y", labelsize=7)
    ax.legend(loc="center left", bbox_to_anchor=(1.005, 0.5), fontsize=7, frameon=False)


# Distinct from the operations' colours where possible (links are lines, not bars).
_LINK_COLOURS = [(0.0, 0.0, 0.0), (0.84, 0.15, 0.16), (0.12, 0.47, 0.71), (0.17, 0.63, 0.17), (0.58, 0.40, 0.74),
                 (1.00, 0.50, 0.05), (0.55, 0.34, 0.29), (0.89, 0.47, 0.76), (0.50, 0.50, 0.50), (0.09, 0.75, 0.81)]


# --------------------------------------------------------------------------------------------------------- html

_HTML_SCRIPT = r"""
(function () {
  const data = JSON.parse(document.getElementById('gantt-data').textContent);
  const plots = Array.from(document.querySelectorAll('svg.plot'));
  const tip = document.getElementById('tip');
  const full = [0, data.units];
  let view = full.slice();
  const toTime = (u) => data.t0 + u * (data.t1 - data.t0) / data.units;
  const fmt = (t) => {
    const a = Math.abs(t);
    return a === 0 ? '0 s' : a >= 1 ? t.toFixed(6) + ' s' : a >= 1e-3 ? (t * 1e3).toFixed(3) + ' ms'
                                                                     : (t * 1e6).toFixed(3) + ' us';
  };
  function ticks() {
    const a = toTime(view[0]), b = toTime(view[0] + view[1]);
    const raw = (b - a) / 8, step = Math.pow(10, Math.floor(Math.log10(raw)));
    const nice = [1, 2, 5, 10].map((m) => m * step).find((s) => s >= raw);
    document.querySelectorAll('g.axis').forEach((g) => {
      const x0 = +g.dataset.x, w = +g.dataset.w;
      let out = '';
      for (let t = Math.ceil(a / nice) * nice; t <= b; t += nice) {
        const x = x0 + (t - a) / (b - a) * w;
        out += `<line x1="${x}" x2="${x}" y1="0" y2="5" stroke="#444"/>` +
               `<text x="${x}" y="17" text-anchor="middle">${+t.toPrecision(6)}</text>`;
      }
      g.innerHTML = out;
    });
  }
  function apply() {
    plots.forEach((p) => p.setAttribute('viewBox', `${view[0]} ${p.dataset.y0} ${view[1]} ${p.dataset.h}`));
    ticks();
  }
  plots.forEach((p) => {
    p.addEventListener('wheel', (e) => {
      e.preventDefault();
      const box = p.getBoundingClientRect(), f = (e.clientX - box.left) / box.width;
      const width = Math.min(full[1], Math.max(full[1] * 1e-6, view[1] * (e.deltaY > 0 ? 1.25 : 0.8)));
      const at = view[0] + f * view[1];
      view = [Math.max(0, Math.min(full[1] - width, at - f * width)), width];
      apply();
    }, { passive: false });
    let drag = null;
    p.addEventListener('mousedown', (e) => { drag = [e.clientX, view[0]]; });
    window.addEventListener('mouseup', () => { drag = null; });
    p.addEventListener('mousemove', (e) => {
      if (drag) {
        const box = p.getBoundingClientRect();
        view[0] = Math.max(0, Math.min(full[1] - view[1], drag[1] - (e.clientX - drag[0]) / box.width * view[1]));
        apply();
      }
      const r = e.target;
      if (r.tagName !== 'rect' || !r.classList.length) { tip.style.display = 'none'; return; }
      const panel = data.panels[+p.dataset.panel];
      const op = data.operations[+r.classList[0].slice(1)];
      const row = Math.round(+r.getAttribute('y') + 0.4);
      const a = toTime(+r.getAttribute('x')), b = toTime(+r.getAttribute('x') + +r.getAttribute('width'));
      const who = r.classList.contains('agg') ? `mostly ${op} (${panel.bins[row]})` :
                                                `${op}, rank ${panel.ranks[row]}`;
      tip.textContent = `${who}: ${fmt(a)} to ${fmt(b)} (${fmt(b - a)})`;
      tip.style.display = 'block';
      tip.style.left = (e.pageX + 12) + 'px';
      tip.style.top = (e.pageY + 12) + 'px';
    });
    p.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
    p.addEventListener('dblclick', () => { view = full.slice(); apply(); });
  });
  apply();
})();
"""


def _hex(colour: Tuple[float, float, float]) -> str:
    return "#" + "".join(f"{int(round(c * 255)):02x}" for c in colour)


def _html_links(panel: Panel, key: int, left: float, y: float, plot_width: float, height: float, t0: float,
                span: float, units: float) -> List[str]:
    """A panel of link bandwidth steps (polylines), zoomed with the rank panels, its legend on the right."""
    peak = max((float(used.max()) for _, _, used in panel.links if len(used)), default=0.0) or 1.0
    lines = []
    for index, (name, times, used) in enumerate(panel.links):
        points = []
        for i in range(len(times)):
            x = (times[i] - t0) / span * units
            level = 1 - used[i] / (peak * 1.1)
            if i:
                points.append(f"{x:.9g},{1 - used[i - 1] / (peak * 1.1):.6g}")
            points.append(f"{x:.9g},{level:.6g}")
        colour = _hex(_LINK_COLOURS[index % len(_LINK_COLOURS)])
        lines.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" '
                     f'vector-effect="non-scaling-stroke"><title>{html.escape(name)}</title></polyline>')
    out = [f'<rect x="{left}" y="{y:.1f}" width="{plot_width}" height="{height:.1f}" fill="none" stroke="#888"/>',
           f'<svg class="plot links" data-panel="{key}" data-y0="0" data-h="1" x="{left}" y="{y:.1f}" '
           f'width="{plot_width}" height="{height:.1f}" viewBox="0 0 {units} 1" preserveAspectRatio="none">'
           + "".join(lines) + "</svg>",
           f'<text x="{left - 6}" y="{y + 10:.1f}" text-anchor="end" class="tick">{_bandwidth(peak * 1.1)}</text>',
           f'<text x="{left - 6}" y="{y + height:.1f}" text-anchor="end" class="tick">0</text>']
    for index, (name, _, _) in enumerate(panel.links):
        colour = _hex(_LINK_COLOURS[index % len(_LINK_COLOURS)])
        ly = y + 4 + index * 12
        out.append(f'<rect x="{left + plot_width + 16}" y="{ly:.1f}" width="12" height="3" fill="{colour}"/>'
                   f'<text x="{left + plot_width + 34}" y="{ly + 5:.1f}" class="tick">{html.escape(name)}</text>')
    return out


def _bandwidth(value: float) -> str:
    for unit, scale in (("GB/s", 1e9), ("MB/s", 1e6), ("kB/s", 1e3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value:.3g} B/s"


def _write_html(panels: List[Panel], operations: List[str], output: str, t0: float, t1: float, messages: bool,
                size: Tuple[int, int], title: Optional[str]) -> None:
    import numpy as np

    width, height = size
    units = 100000.0  # time axis in SVG user units: float precision inside browsers stays ample
    span = (t1 - t0) if t1 > t0 else 1.0
    left, right_area, top, bottom, gap = 70, 170, 40 if title else 20, 40, 34
    plot_width = max(50, width - left - right_area)
    with_links = sum(1 for p in panels if p.links)
    # Link panels are a third as high as rank panels.
    unit_height = (height - top - bottom - gap * (len(panels) + with_links)) / (3 * len(panels) + with_links)
    panel_height = max(40, 3 * unit_height)
    link_height = max(30, unit_height)
    used = set()
    parts: List[str] = []
    meta = []
    y = top + gap
    for index, panel in enumerate(panels):
        if index:
            y += panel_height + gap + (link_height + gap if panels[index - 1].links else 0)
        rows = max(1, len(panel.ranks))
        aggregated = _too_dense(panel, int(plot_width), MAX_HTML_SLICES)
        rects: List[str] = []
        bins = []
        if aggregated:
            # Cells of 2 x 2 pixels at least: the page stays under ~200 000 elements whatever the run.
            image = raster(panel, t0, t1, max(1, int(plot_width) // 2), max(1, min(250, int(panel_height) // 2)),
                           len(operations))
            bin_rows = image.shape[0]
            for b in range(bin_rows):
                # raster() puts row r in bin r * bin_rows // rows: bin b holds rows ceil(b * rows / bin_rows) on.
                first = panel.ranks[-(-b * rows // bin_rows)]
                last = panel.ranks[-(-(b + 1) * rows // bin_rows) - 1]
                bins.append(f"rank {first}" if first == last else f"ranks {first}-{last}")
            column_units = units / image.shape[1]
            for b in range(bin_rows):
                line = image[b]
                change = np.flatnonzero(np.diff(line)) + 1
                starts = np.concatenate([[0], change])
                ends = np.concatenate([change, [len(line)]])
                for s, e in zip(starts, ends):
                    code = int(line[s])
                    if code < 0:
                        continue
                    used.add(code)
                    # Rows of bins are drawn in rank units so the tooltip's row arithmetic works on bins too.
                    rects.append(f'<rect class="o{code} agg" x="{s * column_units:.6g}" y="{b - 0.4:.6g}" '
                                 f'width="{(e - s) * column_units:.6g}" height="0.8"/>')
            view_rows = bin_rows
        else:
            scale = units / span
            for r, c, a, b in zip(panel.row.tolist(), panel.code.tolist(), panel.start.tolist(), panel.end.tolist()):
                used.add(c)
                rects.append(f'<rect class="o{c}" x="{(a - t0) * scale:.9g}" y="{r - 0.4}" '
                             f'width="{max((b - a) * scale, 0):.9g}" height="0.8"/>')
            if messages:
                src, dst, m_start, m_end = panel.message_rows
                for s_row, d_row, a, b in list(zip(src.tolist(), dst.tolist(), m_start.tolist(),
                                                   m_end.tolist()))[:MAX_MESSAGES]:
                    rects.append(f'<line x1="{(a - t0) * scale:.9g}" y1="{s_row}" x2="{(b - t0) * scale:.9g}" '
                                 f'y2="{d_row}" class="msg"/>')
            view_rows = rows
        meta.append({"ranks": panel.ranks, "bins": bins})
        parts.append(f'<text x="{left}" y="{y - 8:.1f}" class="label">{html.escape(panel.label)}'
                     + (f" ({panel.calls:,} calls, each cell shows its dominant operation)" if aggregated else "")
                     + "</text>")
        parts.append(f'<rect x="{left}" y="{y:.1f}" width="{plot_width}" height="{panel_height:.1f}" '
                     f'fill="none" stroke="#888"/>')
        parts.append(f'<svg class="plot" data-panel="{index}" data-y0="-0.5" data-h="{view_rows}" x="{left}" '
                     f'y="{y:.1f}" width="{plot_width}" height="{panel_height:.1f}" '
                     f'viewBox="0 -0.5 {units} {view_rows}" preserveAspectRatio="none">'
                     f'<rect x="0" y="-0.5" width="{units}" height="{view_rows}" fill="white"/>'
                     + "".join(rects) + "</svg>")
        step = max(1, int(np.ceil(rows / max(1, panel_height / 12))))
        for row in range(0, rows, step):
            ry = y + (row + 0.5) / rows * panel_height
            parts.append(f'<text x="{left - 6}" y="{ry + 4:.1f}" text-anchor="end" class="tick">'
                         f'{panel.ranks[row]}</text>')
        parts.append(f'<g class="axis tick" data-x="{left}" data-w="{plot_width}" '
                     f'transform="translate(0,{y + panel_height:.1f})"></g>')
        if panel.links:
            parts.extend(_html_links(panel, len(meta) - 1 + 1000, left, y + panel_height + gap,
                                     plot_width, link_height, t0, span, units))
    parts.append(f'<text x="{left + plot_width / 2}" y="{height - 6}" text-anchor="middle">time (s)</text>')
    order = _legend_order(operations, used)
    for i, code in enumerate(order):
        ly = top + gap + i * 16
        parts.append(f'<rect x="{left + plot_width + 16}" y="{ly}" width="12" height="12" '
                     f'fill="{_hex(colour_of(operations[code]))}"/>'
                     f'<text x="{left + plot_width + 34}" y="{ly + 10}" class="tick">'
                     f'{html.escape(operations[code])}</text>')
    styles = "".join(f".o{i}{{fill:{_hex(colour_of(name))}}}" for i, name in enumerate(operations))
    data = json.dumps({"t0": t0, "t1": t1, "units": units, "operations": operations, "panels": meta})
    data = data.replace("</", "<\\/")  # nothing in the data may close the script element
    heading = (f'<text x="{width / 2}" y="20" text-anchor="middle" class="label">{html.escape(title)}</text>'
               if title else "")
    page = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title or ' / '.join(p.label for p in panels))}</title>
<style>
body {{ font-family: sans-serif; margin: 8px; }}
svg text {{ font-size: 12px; }} .tick {{ font-size: 10px; fill: #333; }} .label {{ font-weight: bold; }}
.msg {{ stroke: #000; stroke-opacity: 0.5; stroke-width: 0.7; vector-effect: non-scaling-stroke; }}
#tip {{ position: absolute; display: none; background: #ffe; border: 1px solid #999; padding: 2px 6px;
        font-size: 12px; pointer-events: none; }}
.help {{ color: #666; font-size: 12px; }}
{styles}
</style></head><body>
<div class="help">wheel: zoom the time axis, drag: pan, double-click: reset, hover: details</div>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">
{heading}
{chr(10).join(parts)}
</svg>
<div id="tip"></div>
<script type="application/json" id="gantt-data">{data}</script>
<script>{_HTML_SCRIPT}</script>
</body></html>
"""
    with open(output, "w", encoding="utf-8") as stream:
        stream.write(page)


# ------------------------------------------------------------------------------------------------------ entries

def plot(timelines: Sequence[Timeline], output: str, labels: Optional[Sequence[str]] = None,
         ranks: Optional[Sequence[int]] = None, start: Optional[float] = None, end: Optional[float] = None,
         messages: bool = False, size: Tuple[int, int] = (1600, 900), title: Optional[str] = None,
         links: Optional[str] = None) -> None:
    """Draws timelines one above the other on one time axis into `output` (.png, .svg, .pdf or .html); `links`
    selects the link bandwidth drawn under each timeline that has it (see parse_links; default top:5)."""
    if not 1 <= len(timelines) <= 2:
        raise ValueError(f"gantt draws one or two timelines, got {len(timelines)}")
    if start is not None and end is not None and end <= start:
        raise ValueError(f"--to ({end}) must be after --from ({start})")
    labels = list(labels) if labels else [os.path.basename(t.path) for t in timelines]
    operations: List[str] = []
    panels = [_panel(t, label, operations, ranks, start, end) for t, label in zip(timelines, labels)]
    if all(p.calls == 0 for p in panels):
        raise ValueError("nothing to draw: no call of the selected ranks in the time window")
    t0 = start if start is not None else min(float(p.start.min()) for p in panels if p.calls)
    t1 = end if end is not None else max(float(p.end.max()) for p in panels if p.calls)
    if t1 <= t0:
        t1 = t0 + 1e-9
    selection = parse_links(links)
    for panel, timeline in zip(panels, timelines):
        panel.links = _link_series(timeline, selection, start, end, t1)
        if timeline.format in ("nic", "portals-csv"):
            panel.row_name = "NIC (node)"
    if output.lower().endswith((".html", ".htm")):
        _write_html(panels, operations, output, t0, t1, messages, size, title)
    else:
        _draw(panels, operations, output, t0, t1, messages, size, title)


def plot_files(paths: Sequence[str], output: str, **options) -> None:
    """`mpisim gantt`: reads the timelines (format by extension; a `--portals-csv` file by its header) and draws them,
    labelled by file name. One timeline of a bxi run, with NIC tracks, is drawn as two panels: the ranks (MPI and
    Portals calls) above, the NICs (PCIe transfers, messages on the wire, ACKs) below, on one time axis."""
    from mpisim.timeline import is_portals_csv, nic_timeline, read_portals_csv

    timelines = [read_portals_csv(path) if is_portals_csv(path) else read_timeline(path) for path in paths]
    labels = [os.path.basename(p) for p in paths]
    if len(timelines) == 1 and nic_timeline(timelines[0]) is not None:
        timelines.append(nic_timeline(timelines[0]))
        labels = [labels[0] + ": ranks", labels[0] + ": NICs"]
    plot(timelines, output, labels=labels, **options)
