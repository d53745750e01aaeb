"""Trip counts the program fixes (issue 12, item 3): values propagated through
COMMON, DATA and calls; read-or-default values assumed and said; values stated
with --trip-count NAME=N."""

from __future__ import annotations

import pytest

from autodist import ir
from autodist.analysis import AnalysisOptions, analyze
from autodist.errors import UsageError
from autodist.frontend import read_program, read_text

from ..conftest import PROGRAMS

TRIPS = PROGRAMS / "trips"


def _loops(an, unit: str):
    return {lp.line: lp for ph in an.procedure(unit).phases for lp in ph.loops}


def _value(an, name: str):
    return {v.name: v for v in an.values}.get(name)


def test_an_init_routine_copying_parameters_into_common_fixes_the_bounds():
    an = analyze(read_program([TRIPS / "grid_init.f"], include_dirs=[TRIPS]))
    relax = _loops(an, "RELAX")
    assert {lp.trip_count for lp in relax.values()} == {22}  # DO K = 2, GRID_POINTS(3) - 1 with 24
    assert all(lp.trip_known and lp.trip_source == "program" for lp in relax.values())
    assert relax[57].trip_note == "GRID_POINTS(3)=24" and relax[57].bounds == "2, 23"
    assert {(v.name, v.value, v.how) for v in an.values} >= {
        ("GRID_POINTS(1)", 24, "fixed"), ("GRID_POINTS(3)", 24, "fixed"), ("NITER", 8, "fixed")}
    assert _value(an, "NITER").set_at == ("grid_init.f:31",)
    # the time-step count: RELAX runs NITER = 8 times
    assert an.procedure("RELAX").invocations == 8
    # the assignments themselves are kept
    setup = an.program.unit("SETUP")
    assert any(isinstance(s, ir.Assign) and isinstance(s.target, ir.Index) for s in setup.body)


def test_a_common_scalar_modified_in_a_loop_stays_unknown():
    an = analyze(read_program([TRIPS / "grid_init.f"], include_dirs=[TRIPS]))
    (lp,) = _loops(an, "RELAX3").values()  # DO I = 1, NCALLS: NCALLS = NCALLS + 1 in RELAX
    assert (lp.trip_count, lp.trip_known, lp.trip_source, lp.trip_names) == (100, False, "assumed", ("NCALLS",))
    assert _value(an, "NCALLS") is None
    (t,) = an.trip_assumptions
    assert (t.procedure, t.line, t.names, t.trips, t.source) == ("RELAX3", 18, ("NCALLS",), 100, "assumed")


def test_data_statements_and_block_data_fix_the_bounds():
    an = analyze(read_program([TRIPS / "data_bounds.f"]))
    smooth = _loops(an, "SMOOTH")
    assert [lp.trip_count for lp in sorted(smooth.values(), key=lambda lp: lp.line)] == [62, 6]
    assert all(lp.trip_known for lp in smooth.values())
    assert an.procedure("SMOOTH").flow.assumptions == ()  # DO ISWEEP = 1, NSWEEP with DATA NSWEEP /3/
    assert {(v.name, v.value) for v in an.values} == {("NCELL", 64), ("NSPEC", 6), ("NSWEEP", 3)}
    assert an.trip_assumptions == ()


def test_read_or_default_values_are_assumed_not_known():
    an = analyze(read_program([TRIPS / "read_default.f"]))
    main = _loops(an, "SSOR2")
    # DO J = JST, JEND with JEND = NY - 1, NY = NY0, NY0 read or 32
    assert (main[22].trip_count, main[22].trip_known, main[22].trip_source) == (30, False, "default")
    assert main[22].trip_names == ("JEND",) and "JEND = 31" in main[22].trip_note
    assert (main[16].trip_count, main[16].trip_source) == (32, "default")
    assert _value(an, "IST").how == "fixed" and main[23].bounds == "2, IEND"
    itmax = _value(an, "ITMAX")
    assert (itmax.value, itmax.how, itmax.read_at) == (50, "default", ("read_default.f:43",))
    (note,) = an.procedure("SSOR2").flow.assumptions
    assert note.startswith("DO ISTEP at line 21: trip count assumed 50 from the program's default ITMAX = 50")
    assert an.procedure("SSOR2").executions(3) == 50
    assert {t.line: t.source for t in an.trip_assumptions} == {16: "default", 17: "default", 21: "default",
                                                               22: "default", 23: "default"}


BRANCH = """\
      PROGRAM SWEEP
      INTEGER NB, NS, NX, K, I
      COMMON /BLK/ NB, NS, NX
      REAL A(1000)
      COMMON /ARR/ A
      CALL SETUP(0)
      DO 10 K = 1, NB
      DO 10 I = 1, NS
         A(I + 64*(K-1)) = 0.0
   10 CONTINUE
      DO 20 I = 1, NX
         A(I) = A(I) + 1.0
   20 CONTINUE
      END

      SUBROUTINE SETUP(IVERB)
      INTEGER IVERB
      INTEGER NB, NS, NX
      COMMON /BLK/ NB, NS, NX
      IF (IVERB .GT. 0) THEN
         WRITE (*, *) 'blocked sweeps'
         NB = 8
         NS = 64
      ELSE
         NB = 8
         NS = 32
      END IF
      READ (*, *) NX
      END
"""


def test_a_value_set_on_every_path_is_known_and_different_values_are_not():
    an = analyze(read_text(BRANCH, "sweep.f"))
    lps = _loops(an, "SWEEP")
    assert (lps[7].trip_count, lps[7].trip_known) == (8, True)  # NB = 8 on both paths
    assert (lps[8].trip_count, lps[8].trip_known, lps[8].trip_names) == (100, False, ("NS",))  # 64 or 32
    # a value READ from input, with no default, stays unknown
    assert (lps[11].trip_count, lps[11].trip_source, lps[11].trip_names) == (100, "assumed", ("NX",))


def test_values_stated_with_trip_count_name_make_loops_known():
    opts = AnalysisOptions(trip_values=(("NX", 500), ("NS", 48)))
    an = analyze(read_text(BRANCH, "sweep.f"), opts)
    lps = _loops(an, "SWEEP")
    assert (lps[11].trip_count, lps[11].trip_known, lps[11].trip_source) == (500, True, "stated")
    assert lps[11].trip_note == "--trip-count NX=500"
    assert (lps[8].trip_count, lps[8].trip_known) == (48, True)
    assert an.trip_assumptions == ()
    # stated values are not substituted: the program the other stages see is the program's
    assert an.procedure("SWEEP").phases[-1].loops[0].bounds == "1, NX"
    assert ("NX", 500, "stated") in {(v.name, v.value, v.how) for v in an.values}


def test_a_stated_value_reaches_what_is_computed_from_it():
    src = """\
      PROGRAM SHALOW
      INTEGER M, N, MP1, NP1, I, J
      COMMON /CONS/ M, N, MP1, NP1
      REAL U(513, 513)
      COMMON /FLD/ U
      READ (5, *) M
      READ (5, *) N
      MP1 = M + 1
      NP1 = N + 1
      DO 10 J = 1, NP1
      DO 10 I = 1, MP1
         U(I, J) = 0.0
   10 CONTINUE
      END
"""
    an = analyze(read_text(src, "shalow.f"), AnalysisOptions(trip_values=(("M", 256), ("N", 128))))
    lps = _loops(an, "SHALOW")
    assert (lps[10].trip_count, lps[11].trip_count) == (129, 257)
    assert all(lp.trip_source == "stated" for lp in lps.values())
    plain = _loops(analyze(read_text(src, "shalow.f")), "SHALOW")
    # NP1 = N + 1 is substituted forward: the bound to state is N
    assert (plain[10].trip_count, plain[10].bounds, plain[10].trip_names) == (100, "1, N+1", ("N",))


@pytest.mark.parametrize("name, message", [
    ("NQ", "the program has no integer variable NQ"),
    ("A", "A is not an integer variable"),
    ("NB(2)", "NB is not an array"),
])
def test_a_stated_name_the_program_does_not_have_is_a_usage_error(name, message):
    with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
        analyze(read_text(BRANCH, "sweep.f"), AnalysisOptions(trip_values=((name, 4),)))


CALLS = """\
      PROGRAM DRIVER
      INTEGER N, M, K, I
      COMMON /SZ/ N, M, K
      REAL A(200)
      COMMON /ARR/ A
      N = 50
      M = 60
      K = 70
      CALL SHOW(N)
      CALL GETSZ(M)
      CALL INC
      DO 10 I = 1, N
   10 A(I) = 1.0
      DO 20 I = 1, M
   20 A(I) = 2.0
      DO 30 I = 1, K
   30 A(I) = 3.0
      CALL WORK(N)
      END

      SUBROUTINE SHOW(L)
      INTEGER L
      WRITE (*, *) L
      END

      SUBROUTINE GETSZ(L)
      INTEGER L
      L = L + 10
      END

      SUBROUTINE INC
      INTEGER N, M, K
      COMMON /SZ/ N, M, K
      CALL BUMP(K)
      END

      SUBROUTINE BUMP(J)
      INTEGER J
      J = 70
      END

      SUBROUTINE WORK(L)
      INTEGER L, I
      REAL A(200)
      COMMON /ARR/ A
      DO 40 I = 1, L
   40 A(I) = A(I) * 2.0
      END
"""


def test_calls_that_may_write_an_actual_make_it_unknown():
    an = analyze(read_text(CALLS, "driver.f"))
    lps = _loops(an, "DRIVER")
    assert (lps[12].trip_count, lps[12].trip_known) == (50, True)  # SHOW only reads N
    assert (lps[14].trip_count, lps[14].trip_known) == (100, False)  # GETSZ writes M
    # BUMP writes K through INC's CALL BUMP(K): a definition by a call, its value not followed
    assert (lps[16].trip_count, lps[16].trip_known) == (100, False)
    # N reaches WORK's dummy: constant propagation after the COMMON values
    (work,) = _loops(an, "WORK").values()
    assert (work.trip_count, work.trip_known) == (50, True)


def test_equivalenced_common_is_never_known():
    src = """\
      PROGRAM EQ
      INTEGER N, I, IW(2)
      COMMON /SZ/ N
      REAL A(100)
      EQUIVALENCE (IW(1), N)
      N = 10
      IW(1) = 20
      DO 10 I = 1, N
   10 A(I) = 0.0
      WRITE (*, *) A(1)
      END
"""
    lps = _loops(analyze(read_text(src, "eq.f")), "EQ")
    assert [lp.trip_known for lp in lps.values()] == [False]


PASSED = """\
      PROGRAM QUAD
      EXTERNAL FCN
      REAL S, Q
      S = FCN(10)
      CALL INTEG(FCN, Q)
      WRITE (*, *) S, Q
      END

      SUBROUTINE INTEG(F, Q)
      REAL F, Q
      EXTERNAL F
      Q = F(20) + F(30)
      END

      REAL FUNCTION FCN(N)
      INTEGER N, I
      REAL A(100)
      COMMON /W/ A
      FCN = 0.0
      DO 10 I = 1, N
   10 FCN = FCN + A(I)
      END
"""


def test_a_procedure_passed_as_an_argument_keeps_its_dummies_unknown():
    # FCN(10) is its only direct call, but INTEG calls it as F(20) and F(30)
    an = analyze(read_text(PASSED, "quad.f"))
    (lp,) = _loops(an, "FCN").values()
    assert (lp.trip_known, lp.bounds) == (False, "1, N")


def test_a_dummy_takes_the_value_every_call_passes():
    src = """\
      PROGRAM OCEAN
      INTEGER N1, N1H
      COMMON /OPT/ N1
      COMMON /NUM/ N1H
      CALL START(128)
      N1H = N1 / 2
      CALL PRNT(N1H)
      CALL PRNT(N1H)
      END

      SUBROUTINE START(NX)
      INTEGER NX, N1
      COMMON /OPT/ N1
      N1 = NX
      END

      SUBROUTINE PRNT(NH)
      INTEGER NH, N1, I
      COMMON /OPT/ N1
      REAL R(256)
      COMMON /FLD/ R
      N1 = NH + NH
      DO 10 I = 1, N1, 4
   10 WRITE (*, *) R(I)
      DO 20 I = 1, NH
   20 R(I) = 0.0
      END
"""
    # N1 = 128 (START), N1H = N1/2, PRNT's NH = N1H, N1 = NH + NH: one consistent value each
    an = analyze(read_text(src, "ocean.f"))
    assert {(v.name, v.value) for v in an.values} >= {("N1", 128), ("N1H", 64), ("NH", 64)}
    assert [lp.trip_count for lp in _loops(an, "PRNT").values()] == [32, 64]


def test_storage_associated_common_is_followed_by_offset():
    src = """\
      PROGRAM MAIN
      INTEGER N1H, N1Q, N2P, N2PD
      COMMON /NMBRS/ N1H, N1Q, N2P, N2PD
      N1H = 64
      N1Q = 32
      N2P = 129
      N2PD = 258
      CALL WORK
      END

      SUBROUTINE WORK
      INTEGER NSKIP(2), N2P, NDUMMY, I
      COMMON /NMBRS/ NSKIP, N2P, NDUMMY
      REAL X(300)
      COMMON /FLD/ X
      DO 10 I = 1, N2P
   10 X(I) = 0.0
      DO 20 I = 1, NSKIP(2)
   20 X(I) = 1.0
      END

      SUBROUTINE OTHER
      REAL R(2)
      INTEGER M, N2PD
      COMMON /NMBRS/ R, M, N2PD
      R(1) = 0.5
      END
"""
    an = analyze(read_text(src, "assoc.f"))
    lps = _loops(an, "WORK")
    # N2P is an integer at byte 8 in every declaration; NSKIP(2) shares its bytes with a REAL R(2) of OTHER
    assert (lps[16].trip_count, lps[16].trip_known) == (129, True)
    assert (lps[18].trip_count, lps[18].trip_known) == (100, False)


def test_iostat_and_inquire_results_are_definitions():
    src = """\
      PROGRAM INQ
      INTEGER IOS, NREC, I
      REAL A(100)
      LOGICAL THERE
      IOS = 5
      NREC = 20
      INQUIRE (FILE='a.dat', EXIST=THERE, RECL=NREC)
      OPEN (UNIT=3, FILE='a.dat', IOSTAT=IOS)
      DO 10 I = 1, IOS
   10 A(I) = 0.0
      DO 20 I = 1, NREC
   20 A(I) = 1.0
      WRITE (*, *) A(1)
      END
"""
    lps = _loops(analyze(read_text(src, "inq.f")), "INQ")
    assert [lp.trip_known for lp in lps.values()] == [False, False]


SECTIONS = """\
      PROGRAM SECT
      INTEGER GP(3), NB, I, IER
      REAL RMS, RMSZ(64), W(64)
      COMMON /G/ GP, NB
      OPEN (UNIT=2, FILE='size.in', STATUS='OLD', IOSTAT=IER)
      IF (IER .EQ. 0) THEN
         READ (2, *) GP(1), GP(2), GP(3)
      ELSE
         GP(1) = 12
         GP(2) = 12
         GP(3) = 12
      END IF
      NB = 40
      DO 10 I = 1, GP(3)
   10 RMSZ(I) = REAL(I)
      RMS = SUM(RMSZ(1:GP(3)))
      CALL FILL(W(1:NB))
      CALL OTHER(RMS)
      CALL LAST
      PRINT *, RMS, W(1)
      END

      SUBROUTINE FILL(W)
      REAL W(*)
      W(1) = 1.0
      END

      SUBROUTINE OTHER(RMS)
      INTEGER M
      REAL RMS, A(100)
      COMMON /H/ M
      M = 30
      A(1) = 1.0
      RMS = RMS + SUM(A(1:NEXT(M)))
      END

      INTEGER FUNCTION NEXT(K)
      INTEGER K
      K = K + 1
      NEXT = K
      END

      SUBROUTINE LAST
      INTEGER GP(3), NB, I, J, M
      REAL A(100)
      COMMON /G/ GP, NB
      COMMON /H/ M
      DO 20 I = 1, GP(3)
   20 A(I) = 0.0
      DO 30 J = 1, NB
   30 A(J) = A(J) + 1.0
      DO 40 I = 1, M
   40 A(I) = A(I) * 2.0
      PRINT *, A(1)
      END
"""


def test_an_array_section_reads_its_subscripts():
    """``SUM(RMSZ(1:GP(3)))`` (an F90 section the front end keeps as an
    opaque expression) defines nothing it names in its subscripts: GP(3) keeps
    its read-or-default value (NPB 3.0 HPF's ERROR_NORM made every grid loop
    of SP count 100 trips); a section whose subscripts call a function that
    writes its argument (NEXT(M)) still makes what it names unknown."""
    an = analyze(read_text(SECTIONS, "sect.f"))
    first, nb, m = (lp for _, lp in sorted(_loops(an, "LAST").items()))
    assert (first.trip_count, first.trip_source) == (12, "default")  # GP(3): read or 12
    assert (nb.trip_count, nb.trip_known) == (40, True)  # NB: the section passed to FILL is W's
    assert (m.trip_count, m.trip_known) == (100, False)  # M: NEXT(M) in a section may write it
    assert _value(an, "GP(3)").how == "default" and _value(an, "M") is None


FUNCTIONS = """\
      PROGRAM FN
      INTEGER N, M, K, J, I, ILOG2, NEXTP, BUMPED, FOREVER
      COMMON /C/ N, M, K, J, I
      N = 64
      M = ILOG2(N)
      K = NEXTP(N + 1)
      J = BUMPED(N)
      I = FOREVER(N)
      CALL WORK
      END

      INTEGER FUNCTION ILOG2(N)
      INTEGER N, NN, LG
      IF (N .EQ. 1) THEN
         ILOG2 = 0
         RETURN
      ENDIF
      LG = 1
      NN = 2
      DO WHILE (NN .LT. N)
         NN = NN * 2
         LG = LG + 1
      END DO
      ILOG2 = LG
      END

      INTEGER FUNCTION NEXTP(N)
      INTEGER N, I
      NEXTP = 1
      DO 10 I = 1, 30
         IF (NEXTP .GE. N) RETURN
         NEXTP = NEXTP * 2
   10 CONTINUE
      END

      INTEGER FUNCTION BUMPED(N)
      INTEGER N, NCALL
      COMMON /CNT/ NCALL
      NCALL = NCALL + 1
      BUMPED = N
      END

      INTEGER FUNCTION FOREVER(N)
      INTEGER N, I
      I = 0
      DO WHILE (I .LT. N)
         I = I - 1
      END DO
      FOREVER = I
      END

      SUBROUTINE WORK
      INTEGER N, M, K, J, I, L
      REAL A(1000)
      COMMON /C/ N, M, K, J, I
      DO 10 L = 1, M
   10 A(L) = 0.0
      DO 20 L = 1, K
   20 A(L) = A(L) + 1.0
      DO 30 L = 1, J
   30 A(L) = A(L) * 2.0
      DO 40 L = 1, I
   40 A(L) = A(L) - 1.0
      PRINT *, A(1)
      END
"""


def test_sizes_computed_by_small_integer_functions_are_known():
    """``M = ILOG2(N)`` (NPB FT's radix-2 passes) with N fixed: the function
    is run on 64 and M is 6; NEXTP(65) = 128 (a RETURN inside a loop); a
    function that writes COMMON gives no value, and one whose loop does not
    end is given up after MAX_STEPS statements."""
    an = analyze(read_text(FUNCTIONS, "fn.f"))
    m, k, j, i = (lp for _, lp in sorted(_loops(an, "WORK").items()))
    assert (m.trip_count, m.trip_known) == (6, True)
    assert (k.trip_count, k.trip_known) == (128, True)
    assert (j.trip_count, j.trip_known) == (100, False)
    assert (i.trip_count, i.trip_known) == (100, False)
    assert {(v.name, v.value) for v in an.values} >= {("M", 6), ("K", 128)}


RELATED = """\
      PROGRAM REL
      INTEGER GP(3), NZ, IER, I, J
      DOUBLE PRECISION U(0:63,0:63)
      COMMON /G/ GP, NZ
      COMMON /F/ U
      OPEN (UNIT=2, FILE='rel.in', STATUS='OLD', IOSTAT=IER)
   10 IF (IER .EQ. 0) THEN
         READ (2, *) GP(1), GP(2), GP(3)
      ELSE
         GP(1) = 12
         GP(2) = 12
         GP(3) = 12
      END IF
      NZ = GP(3) - 2
{after}
      DO 20 J = 0, 63
         DO 20 I = 0, 63
   20 U(I,J) = DBLE(I - J)
      CALL SOLVE
      PRINT *, U(3,3)
      END

      SUBROUTINE SOLVE
      INTEGER GP(3), NZ, I, K
      DOUBLE PRECISION U(0:63,0:63), W(0:63)
      COMMON /G/ GP, NZ
      COMMON /F/ U
      COMMON /WORK/ W
      DO 30 I = 1, 62
         DO 10 K = 0, GP(3) - 1
   10    W(K) = U(I,K)
         DO 20 K = 1, NZ
   20    U(I,K) = W(K-1) + W(K+1)
   30 CONTINUE
      END
"""


def _solve_loop(text: str):
    an = analyze(read_text(text, "rel.f"))
    return next(lp for ph in an.procedure("SOLVE").phases for lp in ph.loops if lp.depth == 0), an


def test_a_size_the_main_program_computes_once_from_others_equals_them_everywhere():
    """NPB's ``NZ2 = GRID_POINTS(3) - 2`` after reading or defaulting the
    grid: W (a COMMON work array, as NPB SP's line solvers' ``CV``) written
    over 0..GP(3)-1 covers the reads up to NZ+1, so W is private to the I
    loop; the loops keep their own bounds (the relation is for the kill
    analysis only)."""
    lp, an = _solve_loop(RELATED.format(after=""))
    assert lp.parallel and lp.private_arrays == ("W",), lp.reason
    inner = sorted((x.line, x.trip_count, x.trip_names) for ph in an.procedure("SOLVE").phases
                   for x in ph.loops if x.depth == 1)
    assert [(t, names) for _, t, names in inner] == [(12, ("GP(3)",)), (10, ("NZ",))]


@pytest.mark.parametrize("text", [
    RELATED.format(after="      GP(3) = GP(3) + 1"),  # the grid changed after NZ was computed
    RELATED.format(after="      IF (IER .GT. 0) GO TO 10"),  # a jump back: NZ's assignment may run again
    RELATED.format(after="      NZ = NZ - 1"),  # a second definition
    # SOLVE run before NZ is set sees it unset (zero in gfortran's static storage)
    RELATED.format(after="").replace("      NZ = GP(3) - 2\n", "      CALL SOLVE\n      NZ = GP(3) - 2\n"),
], ids=["changed after", "jump back", "defined twice", "seen before"])
def test_no_relation_when_it_may_not_hold(text):
    lp, _ = _solve_loop(text)
    assert not lp.parallel and "W" not in lp.private_arrays


def test_a_scalar_set_from_a_size_reads_as_that_size_in_the_kill_analysis():
    """``K = GP(3) - 1`` then ``W(K)`` (NPB SP's ``K = NZ2 - 1`` before the
    last rows of its line solves): the read is of W(GP(3)-1), which the loop
    over 0..GP(3)-1 wrote, so W is private to the I loop."""
    text = RELATED.format(after="").replace("""         DO 20 K = 1, NZ
   20    U(I,K) = W(K-1) + W(K+1)
""", """         K = GP(3) - 1
         DO 20 M = 1, K
   20    U(I,M) = W(M-1) + W(K)
""").replace("      INTEGER GP(3), NZ, I, K\n", "      INTEGER GP(3), NZ, I, K, M\n")
    lp, _ = _solve_loop(text)
    assert lp.parallel and lp.private_arrays == ("W",), lp.reason
