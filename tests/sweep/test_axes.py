"""Parsing ``--vary``: lists, lin/log ranges, integer keys, and the errors."""

from __future__ import annotations

import pytest

from autodist.errors import UsageError
from autodist.machine import load_profile
from autodist.sweep import numeric_keys, parse_vary, procs_axis, vary_profile

from ..conftest import PROFILES

DDT = load_profile(PROFILES / "ddt1997.yaml")


def test_a_list_is_sorted_and_deduplicated():
    axis = parse_vary("remote_access_time=2e-6, 1e-6,2e-6", DDT)
    assert axis.key == "remote_access_time"
    assert axis.values == (1e-6, 2e-6)
    assert axis.scale == "lin" and not axis.integer


def test_a_list_over_three_decades_is_drawn_on_a_log_axis():
    assert parse_vary("latency=1e-7,1e-6,1e-4", DDT).scale == "log"


def test_linear_range_includes_both_ends():
    axis = parse_vary("branch_probability=0:1:lin:5", DDT)
    assert axis.values == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert axis.scale == "lin"


def test_log_range_is_geometric_with_clean_values():
    axis = parse_vary("remote_access_time=1e-9:1e-3:log:7", DDT)
    assert axis.values == (1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3)
    assert axis.scale == "log"


def test_integer_keys_are_rounded_and_deduplicated():
    axis = parse_vary("default_trip_count=1:4:log:6", DDT)
    assert axis.integer
    assert axis.values == (1.0, 2.0, 3.0, 4.0)  # 1, 1.32, 1.74, 2.3, 3.03, 4 rounded


def test_procs_axis_is_an_integer_axis():
    axis = procs_axis([1, 2, 4])
    assert axis.key == "procs" and axis.integer and axis.values == (1.0, 2.0, 4.0)
    assert axis.format(8) == "8 processors"


def test_numeric_keys_are_the_profiles_numbers_except_the_processor_count():
    keys = numeric_keys()
    assert keys["remote_access_time"] is float and keys["candidates_per_phase"] is int
    assert "processors" not in keys and "communication_model" not in keys and "name" not in keys


def test_units_in_messages():
    axis = parse_vary("remote_access_time=1e-6,2e-6", DDT)
    assert axis.format(4.6e-6) == "4.6 us/byte"
    assert axis.heading() == "remote_access_time(us/byte)"
    assert parse_vary("branch_probability=0,1", DDT).format(0.25) == "branch probability 0.25"


def test_vary_profile_changes_and_validates():
    m = vary_profile(DDT, {"remote_access_time": 5e-6, "candidates_per_phase": 2})
    assert m.remote_access_time == 5e-6 and m.candidates_per_phase == 2
    assert m.flop_time == DDT.flop_time and m.source == DDT.source
    with pytest.raises(Exception, match="branch_probability"):
        vary_profile(DDT, {"branch_probability": 2.0})


@pytest.mark.parametrize("text, message", [
    ("remote_access_time", "expected KEY=VALUES"),
    ("=1,2", "expected KEY=VALUES"),
    ("speed=1,2", "--vary speed: 'speed' is not a profile key (numeric keys: bandwidth,"),
    ("communication_model=1,2", "'communication_model' is not numeric"),
    ("processors=1,2", "give the processor counts with --procs"),
    ("latency=1e-6:1e-3:cube:4", "--vary latency: bad range '1e-6:1e-3:cube:4'"),
    ("latency=1e-6:1e-3:log", "--vary latency: bad range"),
    ("latency=1e-6:1e-3:log:x", "the number of points 'x' is not an integer"),
    ("latency=1e-6:1e-3:log:1", "a range needs at least 2 points"),
    ("latency=1e-3:1e-6:log:4", "the range needs lo < hi"),
    ("latency=0:1e-6:log:4", "a log range needs lo > 0"),
    ("latency=a:1e-6:lin:4", "lower end 'a' is not a number"),
    ("latency=1e-6,fast", "value 'fast' is not a number"),
    ("latency=1e-6,inf", "is not finite"),
    ("latency=,", "--vary latency: no values"),
    ("candidates_per_phase=1.5,2", "'candidates_per_phase' takes integers"),
    ("branch_probability=0.5,2", "--vary branch_probability=2: key 'branch_probability': must be between 0 and 1"),
    ("flop_time=0,1e-9", "--vary flop_time=0: key 'flop_time': must be > 0"),
])
def test_errors_name_the_key(text, message):
    with pytest.raises(UsageError) as err:
        parse_vary(text, DDT)
    assert message in str(err.value)
    assert "\n" not in str(err.value)
