"""Hostile-input cases: one command line over a folder of files.

:func:`case` turns a kind and a seed into a :class:`Case`, deterministically:

* ``analyze``, ``annotate``, ``compare``, ``sweep`` — a mutated program (a
  sample or a small test program, maybe with an INCLUDE file);
* ``run``, ``profile`` — a mutated small program, run with ``--verify``
  (against the sequential run and gfortran);
* ``machine`` — a mutated machine profile given to ``compare`` or ``annotate``;
* ``options`` — a good program under absurd options;
* ``outputs`` — output paths onto the inputs, onto each other, onto folders;
* ``mapped`` — a generated program under random HPF mappings run at 1–4
  ranks with ``--verify`` (the wrong-result check).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..soundness.generate import program as generated_program
from .mutate import mutate_profile, mutate_source

ROOT = Path(__file__).resolve().parents[2]

#: Kinds of case and how often the fuzzer draws each.
KINDS = {"analyze": 3, "annotate": 3, "compare": 2, "sweep": 1, "run": 3, "profile": 1, "machine": 2,
         "options": 2, "outputs": 1, "mapped": 2}

#: Commands that start MPI (they run in a fresh process).
MPI_COMMANDS = {"run", "profile", "calibrate"}

SMALL = """\
      PROGRAM SMALL
      INTEGER N, I, J, K
      PARAMETER (N = 16)
      DOUBLE PRECISION A(N,N), B(N,N), S
      INCLUDE 'consts.h'
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = DBLE(I + J) * HALF
         B(I,J) = 0.0D0
   10 CONTINUE
      DO 30 K = 1, 3
      DO 20 J = 2, N - 1
      DO 20 I = 2, N - 1
         B(I,J) = 0.25D0 * (A(I-1,J) + A(I+1,J) + A(I,J-1) + A(I,J+1))
   20 CONTINUE
      CALL COPY(A, B, N)
   30 CONTINUE
      S = 0.0D0
      DO 40 J = 1, N
      DO 40 I = 1, N
         S = S + A(I,J)
   40 CONTINUE
      PRINT *, 'SUM', S
      END

      SUBROUTINE COPY(X, Y, M)
      INTEGER M, I, J
      DOUBLE PRECISION X(M,M), Y(M,M)
      DO 10 J = 2, M - 1
      DO 10 I = 2, M - 1
         X(I,J) = Y(I,J)
   10 CONTINUE
      END
"""

CONSTS = "      DOUBLE PRECISION HALF\n      PARAMETER (HALF = 0.5D0)\n"


def _samples() -> dict[str, str]:
    out = {p.stem: p.read_bytes().decode("latin-1") for p in sorted((ROOT / "fortran_samples").glob("*.f"))}
    out.update({f"tests_{p.stem}": p.read_bytes().decode("latin-1")
                for p in sorted((ROOT / "tests" / "programs").glob("*.f"))})
    return out


def _small_programs() -> dict[str, str]:
    from ..runtime.programs import SAMPLES, scaled

    out = {name: scaled(name) for name in SAMPLES}
    out["small"] = SMALL
    return out


@dataclass(frozen=True)
class Case:
    kind: str
    seed: int
    argv: tuple[str, ...]  # after ``autodist``
    files: dict[str, bytes] = field(default_factory=dict)  # name in the case folder -> bytes
    outputs: tuple[str, ...] = ()  # files the command may write (all others must stay as they were)

    @property
    def fresh_process(self) -> bool:
        return bool(self.argv) and self.argv[0] in MPI_COMMANDS

    def describe(self) -> str:
        return f"{self.kind} seed {self.seed}: autodist {' '.join(self.argv)}"


def _bytes(text: str) -> bytes:
    return text.encode("latin-1", "replace")


def _program_files(rng: random.Random, programs: dict[str, str], runnable: bool = False
                   ) -> tuple[str, dict[str, bytes]]:
    name = rng.choice(sorted(programs))
    files = {"prog.f": _bytes(mutate_source(rng, programs[name], runnable and rng.random() < 0.8))}
    if name == "small":
        files["consts.h"] = _bytes(mutate_source(rng, CONSTS) if rng.random() < 0.3 else CONSTS)
    return name, files


def case(kind: str, seed: int) -> Case:
    rng = random.Random(f"{kind}:{seed}")
    q = ("-q",)
    if kind in ("analyze", "annotate", "compare", "sweep"):
        _, files = _program_files(rng, {**_samples(), "small": SMALL})
        argv = {"analyze": ("analyze", *q, "prog.f", rng.choice(("--format=text", "--format=json"))),
                "annotate": ("annotate", *q, "prog.f", "--procs", "4", "-o", "out.f", "--report", "plan.json"),
                "compare": ("compare", *q, "prog.f", "--procs", rng.choice(("4", "1,2,8", "1-4"))),
                "sweep": ("sweep", *q, "prog.f", "--procs", "2,4", "--vary",
                          rng.choice(("latency=1e-6,1e-4", "bandwidth=1e6,1e9", "flop_time=1e-9,1e-7")))}[kind]
        return Case(kind, seed, argv, files, ("out.f", "plan.json"))
    if kind in ("run", "profile"):
        _, files = _program_files(rng, _small_programs(), runnable=True)
        if kind == "run":
            argv = ("run", *q, "prog.f", "-np", rng.choice(("1", "1", "2", "3")), "--verify", "--timeout", "60")
            return Case(kind, seed, argv, files)
        return Case(kind, seed, ("profile", *q, "prog.f", "-o", "prof.json", "--timeout", "60"), files,
                    ("prof.json",))
    if kind == "machine":
        profile = rng.choice(sorted((ROOT / "machine_profiles").glob("*.yaml")))
        files = {"prog.f": _bytes(_samples()[rng.choice(("adi", "jacobi", "transpose"))]),
                 "m.yaml": _bytes(mutate_profile(rng, profile.read_text()))}
        argv = rng.choice((("compare", *q, "prog.f", "--machine", "m.yaml"),
                           ("annotate", *q, "prog.f", "--machine", "m.yaml", "-o", "out.f")))
        return Case(kind, seed, argv, files, ("out.f",))
    if kind == "options":
        files = {"prog.f": _bytes(_samples()[rng.choice(("adi", "jacobi"))])}
        argv = rng.choice(_absurd_options(rng))
        return Case(kind, seed, argv, files, ("out.f", "plan.json", "prof.json", "d.npz", "r.json", "s.json"))
    if kind == "outputs":
        files = {"prog.f": _bytes(SMALL), "consts.h": _bytes(CONSTS), "m.yaml": (ROOT / "machine_profiles" /
                                                                                 "ddt1997.yaml").read_bytes()}
        files["sub/keep.txt"] = b"keep\n"
        argv = rng.choice(_colliding_outputs(rng))
        return Case(kind, seed, argv, files, ("out.f", "plan.json", "new/out.f"))
    if kind == "mapped":
        text = generated_program(seed, mapped=True)
        argv = ("run", *q, "prog.f", "-np", str(rng.randrange(1, 5)), "--verify", "--timeout", "120")
        return Case(kind, seed, argv, {"prog.f": _bytes(text)})
    raise ValueError(f"unknown kind {kind!r}")


def _absurd_options(rng: random.Random) -> list[tuple[str, ...]]:
    big = rng.choice(("0", "-3", "99999999999999999999", "1000000", "nan", "1e400", "x", "", "1-100000", "4,0",
                      "2-1", "1,,2"))
    return [
        ("compare", "-q", "prog.f", "--procs", big),
        ("annotate", "-q", "prog.f", "--procs", big, "-o", "out.f"),
        ("run", "-q", "prog.f", "-np", big),
        ("run", "-q", "prog.f", "--timeout", big),
        ("run", "-q", "prog.f", "--rtol", big),
        ("run", "-q", "prog.f", "--link", rng.choice(("nosuch.c", "consts.h", "sub", "", big))),
        ("analyze", "-q", "prog.f", "--trip-count", big),
        ("sweep", "-q", "prog.f", "--vary", f"latency={big}"),
        ("sweep", "-q", "prog.f", "--vary", f"latency=1e-9:1e-3:log:{big}"),
        ("sweep", "-q", "prog.f", "--vary", f"processors=1,{big}"),
        ("sweep", "-q", "prog.f", "--vary", "nothing=1,2"),
        ("compare", "-q", "prog.f", "--machine", rng.choice(("nosuch", "", "/", "prog.f"))),
        ("compare", "-q", "prog.f", "--db", rng.choice(("prog.f", "/", "nosuch/dir/db.json"))),
        ("compare", "-q", "prog.f", "--profile", rng.choice(("prog.f", "nosuch.json"))),
        ("annotate", "-q", "prog.f", "--mode", "sideways"),
        ("analyze", "-q", "nosuch.f"),
        ("analyze", "-q", "prog.f", "prog.f"),
        ("analyze", "-q", "."),
        ("calibrate", "-q", "-np", big),
        ("profiles", "-q", "extra"),
        ("frobnicate",),
    ]


def _colliding_outputs(rng: random.Random) -> list[tuple[str, ...]]:
    return [
        ("annotate", "-q", "prog.f", "-o", "prog.f"),
        ("annotate", "-q", "prog.f", "-o", "consts.h"),
        ("annotate", "-q", "prog.f", "-o", "out.f", "--report", "prog.f"),
        ("annotate", "-q", "prog.f", "-o", "out.f", "--report", "out.f"),
        ("annotate", "-q", "prog.f", "-o", "m.yaml", "--machine", "m.yaml"),
        ("annotate", "-q", "prog.f", "-o", "sub"),
        ("annotate", "-q", "prog.f", "-o", "nosuch/dir/out.f"),
        ("annotate", "-q", "prog.f", "-o", "new/out.f"),
        ("run", "-q", "prog.f", "--report", "consts.h"),
        ("run", "-q", "prog.f", "--dump", "prog.f"),
        ("run", "-q", "prog.f", "--dump", "sub"),
        ("run", "-q", "prog.f", "--report", "plan.json", "--dump", "plan.json"),
        ("profile", "-q", "prog.f", "-o", "consts.h"),
        ("profile", "-q", "prog.f", "-o", "sub"),
        ("sweep", "-q", "prog.f", "--procs", "2,4", "--json", "prog.f"),
        ("sweep", "-q", "prog.f", "--procs", "2,4", "--json", "m.yaml", "--machine", "m.yaml"),
        ("compare", "-q", "prog.f", "--db", "consts.h"),
    ]
