"""The assumptions `explain` examines and the grids around their values."""

from __future__ import annotations

import pytest

from autodist.errors import UsageError
from autodist.machine import resolve_profile
from autodist.report.explain_text import mapping_change
from autodist.sweep.sensitivity import assumption_axis, default_keys


@pytest.fixture(scope="module")
def ddt():
    return resolve_profile("ddt1997")[0]


def test_grids_hold_the_value_used_and_span_the_decades(ddt):
    axis = assumption_axis("remote_access_time", ddt, 16)
    assert ddt.remote_access_time in axis.values and axis.scale == "log" and len(axis.values) == 13
    assert axis.values[0] == pytest.approx(1e-9) and axis.values[-1] == pytest.approx(1e-3)  # sweep's log:13 grid
    zero = assumption_axis("parallel_overhead", ddt, 16)  # 0 in the profile: a fixed range from 0
    assert zero.values[0] == 0.0 and zero.values[-1] > 0
    trips = assumption_axis("default_trip_count", ddt, 16)
    assert trips.integer and 100 in trips.values and trips.values[0] == 1 and trips.values[-1] == 10000
    procs = assumption_axis("procs", ddt, 12)
    assert procs.integer and procs.values == (1, 2, 4, 8, 12, 16, 32)
    assert assumption_axis("branch_probability", ddt, 16).values[::5] == (0.0, 0.5, 1.0)


def test_default_keys_follow_the_model_and_the_program(ddt):
    assert default_keys(ddt, False, False) == ("procs", "remote_access_time", "flop_time", "memory_access_time",
                                                "parallel_overhead")
    lb = ddt.replace(communication_model="latency_bandwidth")
    keys = default_keys(lb, True, True)
    assert "remote_access_time" not in keys and {"latency", "bandwidth", "default_trip_count",
                                                 "branch_probability"} <= set(keys)


def test_a_key_that_is_no_assumption_is_refused(ddt):
    with pytest.raises(UsageError, match="'candidates_per_phase' cannot be examined"):
        assumption_axis("candidates_per_phase", ddt, 16)


def test_mapping_change_names_only_what_changes():
    assert mapping_change("A,B,X(BLOCK,*)/(*,BLOCK)", "A,B,X(*,BLOCK)") == "A,B,X (BLOCK,*)/(*,BLOCK) -> (*,BLOCK)"
    assert mapping_change("U,V(*,BLOCK) W(BLOCK)", "U(*,BLOCK) V(*,CYCLIC) W(BLOCK)") == "V (*,BLOCK) -> (*,CYCLIC)"
    assert mapping_change("U(*,BLOCK)", "U(*,BLOCK)") == "the same layouts"
