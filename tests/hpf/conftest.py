"""Fixtures of the HPF tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def frontend():
    """The front end module when it exists (end-to-end tests skip otherwise)."""
    mod = pytest.importorskip("autodist.frontend")
    if not hasattr(mod, "read_text"):
        pytest.skip("the front end has no read_text yet")
    return mod
