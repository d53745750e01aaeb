"""The pictures of ``autodist explain``, PNG through matplotlib's Agg canvas
(no pyplot, no global state, as :mod:`.plot`).

* :func:`timeline_png`: the layout over the program.  Phases along x in
  execution order, procedure instances separated by vertical lines and named
  under the loops that hold several phases (one bracket per loop, nested ones
  below); arrays along y; each cell coloured by the array's layout in that
  phase (one colour per layout key, grey for replicated, pale for not used);
  remaps as red bars on the boundary before the phase they are paid before;
  above, per phase the predicted computation and movement (seconds per run)
  and at each boundary the remapping paid there.  The size follows the
  program (columns and rows narrow down to a floor, so 100 phases and 30
  arrays stay readable) and the phase columns' pixel boxes are returned for
  an HTML image map.
* :func:`sensitivity_png`: one small sweep panel per assumption examined
  (predicted speedup of the best static and dynamic solutions against the
  assumption, the value used as a black line, the flips in red).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from .explain import REPLICATED, Timeline
from .plot import speedup_panel

DPI = 100
#: Layout colours (red, orange and greys are kept for remaps, movement and replication).
PALETTE = ("tab:blue", "tab:green", "tab:purple", "tab:cyan", "tab:olive", "tab:brown", "tab:pink",
           "#aec7e8", "#98df8a", "#c5b0d5", "#9edae5", "#dbdb8d", "#c49c94", "#f7b6d2", "navy", "darkgreen")
UNUSED = "0.95"
REPLICATED_COLOR = "0.62"
BAR_COLORS = {"computation": "0.35", "movement": "tab:orange", "remapping": "tab:red"}
#: Geometry, inches.
COLUMN = (0.14, 0.5)  # narrowest, widest phase column
ROW = (0.16, 0.4)
LABEL_CHARS = 16  # longest phase label under the cells
CHAR = 0.08  # width of a character of the labels


@dataclass(frozen=True)
class Picture:
    """A PNG and, for an image map, the pixel box of every phase column
    (``(index, x0, y0, x1, y1)``, origin top left)."""

    png: bytes
    width: int
    height: int
    areas: tuple[tuple[int, int, int, int, int], ...] = ()


def colors(keys: tuple[str, ...]) -> dict[str, str]:
    """A colour per layout key (stable: the keys' own order)."""
    out = {REPLICATED: REPLICATED_COLOR}
    k = 0
    for key in keys:
        if key != REPLICATED:
            out[key] = PALETTE[k % len(PALETTE)]
            k += 1
    return out


def _clamp(x: float, lo_hi: tuple[float, float]) -> float:
    return max(lo_hi[0], min(lo_hi[1], x))


def _phase_label(p) -> str:
    text = f"{p.phase} CALL {p.callee}" if p.kind == "call" and p.callee else str(p.phase)
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS - 1] + "\u2026"


def _render(fig) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def timeline_figure(t: Timeline, title: str = ""):
    """The figure and its three axes (bars, loops, cells)."""
    import numpy as np
    from matplotlib.colors import to_rgb
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch
    from matplotlib.lines import Line2D

    n, m = max(len(t.phases), 1), max(len(t.arrays), 1)
    col, row = _clamp(12.0 / n, COLUMN), _clamp(6.0 / m, ROW)
    small = n > 40 or m > 30
    font = 7 if small else 8
    left = max(0.9, 0.075 * max([len(name) for _, name in t.arrays] + [4]) + 0.35)
    right = 0.35
    depth = 1 + max([b.depth for b in t.loops], default=-1)
    title_h, bars_h, loops_h = 0.5, 1.5, 0.22 * depth + 0.3
    cells_h = m * row
    labels_h = 0.3 + CHAR * max([len(_phase_label(p)) for p in t.phases] + [2])
    keys = t.keys
    width = max(6.4, left + n * col + right)
    entries = len(keys) + 4
    legend_cols = max(1, min(entries, int((width - 0.4) / 1.6)))
    legend_h = 0.22 * -(-entries // legend_cols) + 0.15
    height = title_h + bars_h + loops_h + cells_h + labels_h + legend_h
    fig = Figure(figsize=(width, height), dpi=DPI)

    def axes(bottom: float, h: float):
        return fig.add_axes([left / width, bottom / height, (width - left - right) / width, h / height])

    y0 = legend_h + labels_h
    ax_c = axes(y0, cells_h)
    ax_l = axes(y0 + cells_h, loops_h)
    ax_b = axes(y0 + cells_h + loops_h + 0.05, bars_h - 0.05)
    palette = colors(keys)

    # cells
    grid = np.ones((m, n, 3)) * np.array(to_rgb(UNUSED))
    for p in t.phases:
        for gid, key in p.cells:
            r = t.row(gid)
            if r is not None:
                grid[r, p.index] = to_rgb(palette[key])
    ax_c.imshow(grid, aspect="auto", interpolation="nearest", extent=(-0.5, n - 0.5, m - 0.5, -0.5))
    ax_c.set_xticks(range(len(t.phases)))
    ax_c.set_xticklabels([_phase_label(p) for p in t.phases], rotation=90, fontsize=font)
    ax_c.set_yticks(range(len(t.arrays)))
    ax_c.set_yticklabels([name for _, name in t.arrays], fontsize=font)
    ax_c.set_xticks([x - 0.5 for x in range(1, n)], minor=True)
    ax_c.set_yticks([y - 0.5 for y in range(1, m)], minor=True)
    ax_c.grid(which="minor", color="white", linewidth=0.6)
    ax_c.tick_params(which="minor", length=0)
    ax_c.set_xlim(-0.5, n - 0.5)
    for _, first, _ in t.groups[1:]:
        ax_c.axvline(first - 0.5, color="black", linewidth=1.0)
    for mark in t.remaps:
        r = t.row(mark.array)
        if r is not None:
            ax_c.plot([mark.at, mark.at], [r - 0.45, r + 0.45], color=BAR_COLORS["remapping"], linewidth=3,
                      solid_capstyle="butt")

    # loops and procedures
    ax_l.set_xlim(-0.5, n - 0.5)
    ax_l.set_ylim(-depth - 0.2, 1.0)
    ax_l.axis("off")
    for inst, first, last in t.groups:
        room = max(1, int((last - first + 1) * col / (CHAR * 1.15)))
        name = inst if len(inst) <= room else inst[:max(1, room - 1)] + "\u2026"
        ax_l.text((first + last) / 2, 0.45, name, ha="center", va="center", fontsize=font, weight="bold",
                  clip_on=True)
        if first:
            ax_l.axvline(first - 0.5, color="black", linewidth=1.0)
    for b in t.loops:
        y = -b.depth - 0.35
        x0, x1 = b.first - 0.42, b.last + 0.42
        ax_l.plot([x0, x0, x1, x1], [y - 0.25, y, y, y - 0.25], color="0.2", linewidth=1.0)
        ax_l.text(x0 + 0.05, y + 0.08, b.text, fontsize=font - 1, va="bottom", ha="left", clip_on=True)

    # bars
    comp = [p.computation for p in t.phases]
    move = [p.movement for p in t.phases]
    xs = list(range(len(t.phases)))
    ax_b.bar(xs, comp, width=0.6, color=BAR_COLORS["computation"])
    ax_b.bar(xs, move, width=0.6, bottom=comp, color=BAR_COLORS["movement"])
    at: dict[float, tuple[float, float]] = {}
    for mark in t.remaps:
        cost, count = at.get(mark.at, (0.0, 0.0))
        at[mark.at] = (cost + mark.cost, max(count, mark.count))
    if at:
        ax_b.bar(list(at), [c for c, _ in at.values()], width=0.25, color=BAR_COLORS["remapping"])
        if len(at) <= 40:
            for x, (c, k) in at.items():
                ax_b.annotate(f"{c:.3g} s, {k:g}\u00d7", (x, c), xytext=(0, 2), textcoords="offset points",
                              ha="center", va="bottom", fontsize=font - 1, color=BAR_COLORS["remapping"],
                              rotation=90 if n > 12 else 0)
    ax_b.set_xlim(-0.5, n - 0.5)
    ax_b.set_xticks([])
    ax_b.set_ylabel("s per run", fontsize=font)
    ax_b.tick_params(labelsize=font)
    ax_b.margins(y=0.25)
    ax_b.grid(True, axis="y", alpha=0.3)
    ax_b.set_title(title or f"{t.kind} solution: {t.total:.4g} s per run", fontsize=font + 2, loc="left")

    handles = [Patch(facecolor=palette[k], label=k) for k in keys] + [
        Patch(facecolor=UNUSED, edgecolor="0.8", label="not used"),
        Line2D([], [], color=BAR_COLORS["remapping"], linewidth=3, label="remap"),
        Patch(facecolor=BAR_COLORS["computation"], label="computation"),
        Patch(facecolor=BAR_COLORS["movement"], label="movement")]
    fig.legend(handles=handles, loc="lower left", ncol=legend_cols, fontsize=font, frameon=False,
               bbox_to_anchor=(0.1 / width, 0.02))
    return fig, (ax_b, ax_l, ax_c)


def timeline_png(t: Timeline, title: str = "") -> Picture:
    """The timeline as a PNG, with the pixel box of every phase column."""
    fig, (ax_b, _, ax_c) = timeline_figure(t, title)
    png = _render(fig)
    w, h = (int(round(v)) for v in fig.get_size_inches() * DPI)
    areas = []
    top = ax_b.get_window_extent().y1
    bottom = ax_c.get_window_extent().y0
    for p in t.phases:
        (x0, _), (x1, _) = ax_c.transData.transform([(p.index - 0.5, 0), (p.index + 0.5, 0)])
        areas.append((p.index, int(x0), int(h - top), int(x1), int(h - bottom)))
    return Picture(png, w, h, tuple(areas))


def sensitivity_png(sensitivities, title: str = "") -> Picture | None:
    """One panel per assumption that changes the prediction (None: none does)."""
    from matplotlib.figure import Figure

    shown = [s for s in sensitivities if s.matters]
    if not shown:
        return None
    cols = min(2, len(shown))
    rows = (len(shown) + cols - 1) // cols
    fig = Figure(figsize=(5.2 * cols, 3.4 * rows + 0.4), dpi=DPI)
    for k, s in enumerate(shown):
        ax = fig.add_subplot(rows, cols, k + 1)
        speedup_panel(ax, s.result, (), list(s.result.points))
        ax.axvline(s.axis.display(s.current), color="black", linewidth=1.2, label="value used")
        ax.set_title(s.axis.phrase(s.current), fontsize=9)
        ax.legend(fontsize=7, loc="best")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    png = _render(fig)
    w, h = (int(round(v)) for v in fig.get_size_inches() * DPI)
    return Picture(png, w, h)
