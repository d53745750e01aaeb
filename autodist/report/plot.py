"""Plots of sweeps (the pictures of DDT Figures 9 and 10), PNG through
matplotlib's Agg canvas: no pyplot, no global figure state, nothing shown.

* one varied quantity: predicted speedup of the best static and the best
  dynamic solution against it, the chosen one drawn with filled markers,
  crossovers marked by vertical lines, the ideal speedup when the processor
  count is varied, a log axis for log ranges;
* two: one such panel per value of the second quantity (up to
  :data:`MAX_PANELS`), otherwise a map of the chosen solution over the grid.
"""

from __future__ import annotations

import io
import math
import os
import tempfile
from pathlib import Path

from ..sweep import PROCS, SweepResult
from ..sweep.axes import Axis

#: Up to this many values of the second quantity get a panel each.
MAX_PANELS = 6

COLORS = {"static": "tab:blue", "dynamic": "tab:orange"}
STYLES = {"static": ("--", "o"), "dynamic": ("-", "s")}


def _axis_label(axis: Axis) -> str:
    unit = axis.unit.replace("us", "\u00b5s")
    return f"{axis.label} ({unit})" if unit else axis.label


def speedup_panel(ax, result: SweepResult, fixed, line) -> None:
    """Predicted speedups of the best static and dynamic solutions along one
    line of a sweep, the chosen one filled, its crossovers marked."""
    x = result.x
    xs = [x.display(p.value(x.key)) for p in line]
    for kind in ("static", "dynamic"):
        ls, marker = STYLES[kind]
        ys = [p.speedup(kind) for p in line]
        ax.plot(xs, ys, ls, color=COLORS[kind], label=f"best {kind}", linewidth=1.6, zorder=2)
        chosen = [(xv, yv) for xv, yv, p in zip(xs, ys, line) if p.chosen == kind]
        others = [(xv, yv) for xv, yv, p in zip(xs, ys, line) if p.chosen != kind]
        if chosen:  # drawn above the other kind's markers where both coincide
            ax.plot(*zip(*chosen), marker, color=COLORS[kind], markersize=5, linestyle="none", zorder=4)
        if others:
            ax.plot(*zip(*others), marker, markerfacecolor="white", color=COLORS[kind], markersize=5,
                    linestyle="none", zorder=3)
    ax.plot([], [], "o", color="0.35", markersize=5, label="filled: chosen")
    if x.key == PROCS:
        ax.plot(xs, xs, ":", color="0.6", label="ideal", zorder=1)
    first = True
    for c in result.crossovers:
        if c.fixed != fixed:
            continue
        at = x.display(c.at)
        if c.solution_changes:
            ax.axvline(at, color="tab:red", linestyle=":", linewidth=1.2, zorder=1,
                       label="crossover" if first else None)
            where = f"from {int(c.at)}" if x.integer else f"above {x.display(c.at):.3g} {x.unit}".rstrip()
            ax.annotate(f"{c.above.chosen} {where}".replace("us", "\u00b5s"),
                        xy=(at, 1.0), xycoords=("data", "axes fraction"), xytext=(3, -12),
                        textcoords="offset points", fontsize=8, color="tab:red")
            first = False
        else:
            ax.axvline(at, color="0.7", linestyle="-.", linewidth=0.8, zorder=1)
    if x.scale == "log":
        ax.set_xscale("log")
    ax.set_xlabel(_axis_label(x))
    ax.set_ylabel("predicted speedup over 1 processor")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="best")


def _fraction(axis: Axis, grid: tuple[float, float], at: float) -> float:
    """Where ``at`` lies between two grid values (0..1), in the axis' spacing."""
    lo, hi = grid
    if axis.scale == "log" and lo > 0:
        return math.log(at / lo) / math.log(hi / lo)
    return (at - lo) / (hi - lo)


def _heat_map(fig, result: SweepResult) -> None:
    import numpy as np
    from matplotlib.colors import ListedColormap

    x, y = result.x, result.y
    ax = fig.add_subplot(1, 1, 1)
    grid = np.zeros((len(y.values), len(x.values)))
    for i, (_, line) in enumerate(result.lines()):
        for j, p in enumerate(line):
            grid[i, j] = 1.0 if p.chosen == "dynamic" else 0.0
    marks = []
    for c in result.crossovers:
        if c.solution_changes:
            i = y.values.index(dict(c.fixed)[y.key])
            j = x.values.index(c.grid[0])
            marks.append((j + 0.5 + _fraction(x, c.grid, c.at), i + 0.5))
    cmap = ListedColormap([COLORS["static"], COLORS["dynamic"]])
    mesh = ax.pcolormesh(range(len(x.values) + 1), range(len(y.values) + 1), grid, cmap=cmap, vmin=0, vmax=1)
    if marks:
        ax.plot(*zip(*marks), "x", color="black", markersize=6, label="crossover")
        ax.legend(fontsize=8, loc="upper left")
    bar = fig.colorbar(mesh, ax=ax, ticks=[0.25, 0.75])
    bar.ax.set_yticklabels(["static", "dynamic"])
    step_x = max(1, len(x.values) // 8)
    step_y = max(1, len(y.values) // 8)
    ax.set_xticks([j + 0.5 for j in range(0, len(x.values), step_x)])
    ax.set_xticklabels([f"{x.display(v):.3g}" for v in x.values[::step_x]], fontsize=8)
    ax.set_yticks([i + 0.5 for i in range(0, len(y.values), step_y)])
    ax.set_yticklabels([f"{y.display(v):.3g}" for v in y.values[::step_y]], fontsize=8)
    ax.set_xlabel(_axis_label(x))
    ax.set_ylabel(_axis_label(y))
    ax.set_title("chosen solution", fontsize=10)


def sweep_figure(result: SweepResult, title: str = ""):
    """The figure of a sweep (a :class:`matplotlib.figure.Figure`)."""
    from matplotlib.figure import Figure

    lines = result.lines()
    if result.y is None or len(lines) <= MAX_PANELS:
        n = len(lines)
        fig = Figure(figsize=(6.4 if n == 1 else 4.2 * min(n, 3), 4.6 if n <= 3 else 8.4))
        cols = min(n, 3)
        rows = (n + cols - 1) // cols
        for k, (fixed, line) in enumerate(lines):
            ax = fig.add_subplot(rows, cols, k + 1)
            speedup_panel(ax, result, fixed, line)
            if fixed:
                key, value = fixed[0]
                ax.set_title(result.y.format(value), fontsize=10)
    else:
        fig = Figure(figsize=(7.2, 5.4))
        _heat_map(fig, result)
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def write_bytes_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def plot_sweep(result: SweepResult, path: str | Path, title: str = "") -> None:
    """Write the sweep's figure as a PNG file."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = sweep_figure(result, title)
    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    write_bytes_atomically(Path(path), buf.getvalue())
