"""Fixtures of the HPF tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def frontend():
    """The front end module when it exists (end-to-end tests skip otherwise)."""
    return pytest.importorskip("autodist.frontend")
