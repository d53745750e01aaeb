"""Machine profiles: validation with errors that name the file, line and key."""

from __future__ import annotations

import pytest

from autodist.cli import main
from autodist.errors import ProfileError
from autodist.machine import bundled_profiles, load_profile, resolve_profile

GOOD = """\
processors: 8
remote_access_time: 1.0e-6
flop_time: 1e-9
"""


def write(tmp_path, text):
    p = tmp_path / "m.yaml"
    p.write_text(text)
    return p


def test_bundled_profiles_load_and_say_where_numbers_come_from():
    names = {p.stem for p in bundled_profiles()}
    assert {"ddt1997", "cluster_ib", "manycore_smp"} <= names
    for path in bundled_profiles():
        prof = load_profile(path)
        assert prof.processors > 0 and prof.flop_time > 0
        assert path.read_text().lstrip().startswith("#")  # a comment on the sources of the numbers
    ddt = resolve_profile("ddt1997")[0]
    assert (ddt.processors, ddt.remote_access_time, ddt.parallel_overhead, ddt.max_distributed_dims) == (16, 1e-6, 0, 1)


def test_minimal_profile_gets_defaults(tmp_path):
    prof = load_profile(write(tmp_path, GOOD))
    assert prof.communication_model == "linear" and prof.element_size == 8
    assert prof.message_cost(1000, 3) == pytest.approx(1000 * 1e-6)


@pytest.mark.parametrize("text, key, line", [
    (GOOD + "colour: blue\n", "colour", 4),
    (GOOD.replace("8", "eight"), "processors", 1),
    (GOOD.replace("processors: 8", "processors: 0"), "processors", 1),
    (GOOD + "latency: -1\n", "latency", 4),
    (GOOD + "distributions: [BLOCK, DIAGONAL]\n", "distributions", 4),
    (GOOD + "branch_probability: 1.5\n", "branch_probability", 4),
    (GOOD + "communication_model: telepathy\n", "communication_model", 4),
    (GOOD + "pipeline: 3\n", "pipeline", 4),
])
def test_bad_values_name_file_line_and_key(tmp_path, text, key, line):
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as exc:
        load_profile(path)
    msg = str(exc.value)
    assert msg.startswith(f"{path}:{line}:") and f"'{key}'" in msg


def test_missing_required_key_and_broken_yaml(tmp_path):
    with pytest.raises(ProfileError, match="missing required key 'flop_time'"):
        load_profile(write(tmp_path, "processors: 2\nremote_access_time: 1e-6\n"))
    with pytest.raises(ProfileError, match="invalid YAML"):
        load_profile(write(tmp_path, "processors: [2\n"))


def test_replace_validates_like_a_load():
    prof = resolve_profile("ddt1997")[0]
    assert prof.replace(remote_access_time=2e-6).remote_access_time == 2e-6
    with pytest.raises(ProfileError, match="remote_access_time"):
        prof.replace(remote_access_time=-1.0)
    with pytest.raises(ProfileError, match="unknown profile key 'speed'"):
        prof.replace(speed=3)


def test_cli_names_the_key_and_exits_2(tmp_path, capsys):
    path = write(tmp_path, GOOD + "colour: blue\n")
    assert main(["compare", "fortran_samples/adi.f", "--machine", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "colour" in err and "Traceback" not in err
    assert main(["compare", "fortran_samples/adi.f", "--machine", "nosuch"]) == 2
    assert "bundled profiles" in capsys.readouterr().err


def test_profiles_and_info_commands(capsys):
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert "ddt1997 (default)" in out and "cluster_ib" in out
    assert main(["info"]) == 0
    out = capsys.readouterr().out
    assert "ILP solvers:" in out and "MPI library:" in out


BOMB = GOOD + """\
description: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
name: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
mode: [*b,*b,*b,*b,*b,*b,*b,*b,*b]
"""


@pytest.mark.parametrize("text, message, line", [
    (BOMB, "anchors and aliases are not allowed", 4),
    (GOOD + "description: " + "[" * 10_000 + "]" * 10_000 + "\n", "nested more than", 4),
    (GOOD + "processors: 4\n", "key 'processors' given twice (lines 1 and 4)", 4),
    (GOOD.replace("processors: 8", "processors: 1000000"), "'processors': must be an integer from 1 to", 1),
    (GOOD.replace("processors: 8", "processors: 1000000000000000000000000000000"), "'processors'", 1),
    (GOOD.replace("1e-9", "1e308"), "'flop_time': must be > 0 and <=", 3),
    (GOOD + "max_distributed_dims: 99\n", "'max_distributed_dims'", 4),
    (GOOD + "default_trip_count: 99999999999999\n", "'default_trip_count'", 4),
])
def test_hostile_profiles_are_refused_before_any_work(tmp_path, text, message, line):
    path = write(tmp_path, text)
    with pytest.raises(ProfileError) as exc:
        load_profile(path)
    assert str(exc.value).startswith(f"{path}:{line}:") and message in str(exc.value)


def test_profile_encodings(tmp_path):
    p = tmp_path / "latin1.yaml"
    p.write_bytes(GOOD.encode() + "description: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ProfileError, match=r"^.*latin1.yaml:4: not UTF-8 text \(byte 0xe9\)"):
        load_profile(p)
    p = tmp_path / "utf16.yaml"
    p.write_bytes((GOOD + "description: café\n").encode("utf-16"))
    assert load_profile(p).description == "café"
    p = tmp_path / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert load_profile(p).processors == 8


def test_hostile_profile_through_the_cli(tmp_path, capsys):
    path = write(tmp_path, BOMB)
    assert main(["compare", "fortran_samples/adi.f", "--machine", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "aliases" in err and "Traceback" not in err
