"""The timeline picture stays readable at the size the issue names (100
phases, 30 arrays): a column and a row of at least the floor in pixels, every
phase column in the image map, a picture that is not blank."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from autodist.ir import Span
from autodist.report.explain import LoopBand, PhaseView, RemapMark, Timeline
from autodist.report.explain_text import timeline_text
from autodist.report.timeline import COLUMN, DPI, ROW, timeline_png

LAYOUTS = ("(BLOCK,*)", "(*,BLOCK)", "(CYCLIC,*)", "replicated")


def synthetic(phases: int = 100, arrays: int = 30) -> Timeline:
    """``phases`` phases in four procedures, each using a third of the arrays."""
    views = []
    for k in range(phases):
        inst = f"PROC{k * 4 // phases + 1}"
        cells = tuple((f"A{j}", LAYOUTS[(j + k // 10) % len(LAYOUTS)]) for j in range(arrays) if (j + k) % 3 == 0)
        views.append(PhaseView(k, inst, inst, k + 1, "loop", Span("big.f", 10 * k + 1, 10 * k + 5), 10.0,
                               0.01 * (1 + k % 7), 0.002 * (k % 3), None, cells))
    groups = []
    for v in views:
        if groups and groups[-1][0] == v.instance:
            groups[-1] = (v.instance, groups[-1][1], v.index)
        else:
            groups.append((v.instance, v.index, v.index))
    remaps = tuple(RemapMark(k - 0.5, k, k - 1, f"A{j}", f"A{j}", LAYOUTS[0], LAYOUTS[1], 10.0, 8000, 0.05)
                   for k in range(10, phases, 10) for j in range(0, arrays, 3) if (j + k) % 3 == 0)
    loops = (LoopBand("PROC1", 2, 20, 0, 5, "DO ITER = 1, 100"), LoopBand("PROC1", 4, 10, 1, 7, "DO K = 1, NZ"))
    return Timeline("dynamic", 12.5, 10.0, 1.0, 1.5, tuple(views), tuple((f"A{j}", f"A{j}") for j in range(arrays)),
                    remaps, loops, tuple(groups))


def test_100_phases_and_30_arrays_stay_readable():
    t = synthetic()
    pic = timeline_png(t)
    with Image.open(io.BytesIO(pic.png)) as im:
        assert im.size == (pic.width, pic.height)
        pixels = np.asarray(im.convert("RGB"), dtype=float)
    assert pixels.var() > 0
    assert len(pic.areas) == 100
    widths = [x1 - x0 for _, x0, _, x1, _ in pic.areas]
    assert min(widths) >= int(COLUMN[0] * DPI) - 1  # a column per phase, never thinner than the floor
    _, _, y0, _, y1 = pic.areas[0]
    assert (y1 - y0) >= 30 * ROW[0] * DPI  # 30 rows of at least the floor
    assert pic.width < 100 * COLUMN[1] * DPI  # and not absurdly wide


def test_text_timeline_wraps_and_marks_remaps():
    lines = timeline_text(synthetic(phases=50, arrays=6))
    blocks = [l for l in lines if l.startswith("  A0 ")]
    assert len(blocks) == 2  # 40 phases per block
    assert any(">" in l for l in lines if l.startswith("  A"))
    assert "a = (*,BLOCK)" in lines[-1] and "r = replicated" in lines[-1]
