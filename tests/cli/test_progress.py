"""The long steps of planning shown as a progress bar on a terminal: counted to
the end, closed, and no thread left behind (a second thread keeps the static
search from forking its workers)."""

from __future__ import annotations

import argparse
import io
import threading

from autodist.commands import common


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_shows_each_step_and_no_thread_is_started(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    before = threading.active_count()
    bar = common.StepProgress(argparse.Namespace(quiet=False))
    for done in range(4):
        bar("static search, round 1", done, 3)
    for done in range(3):
        bar("selection", done, 2)
    assert threading.active_count() == before
    text = err.getvalue()
    assert "static search, round 1" in text and "3/3" in text and "selection" in text and "2/2" in text
    assert bar._bar is None  # closed once a step is done


def test_quiet_or_not_a_terminal_shows_nothing(monkeypatch):
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    bar = common.StepProgress(argparse.Namespace(quiet=True))
    bar("selection", 0, 2)
    assert err.getvalue() == ""
    plain = io.StringIO()
    monkeypatch.setattr("sys.stderr", plain)
    bar = common.StepProgress(argparse.Namespace(quiet=False))
    bar("selection", 0, 2)
    assert plain.getvalue() == ""
