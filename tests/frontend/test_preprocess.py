"""The preprocessor gives the text gfortran's does (``gfortran -E -cpp``), line
for line, with every line's place in the original files."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from autodist.frontend.preprocess import preprocess

from ..conftest import requires_gfortran

pytestmark = pytest.mark.skipif(shutil.which("cpp") is None, reason="the system's C preprocessor cpp is not installed")

#: The classic traps of a C preprocessor on Fortran: // and a lone ' or " in
#: comments and code, C comments, traditional token pasting and string
#: arguments, a \ line splice, predefined macros (gfortran defines neither
#: unix nor linux, and __GFORTRAN__), an #include.
TRAPS = """\
C     Don't trip on the apostrophe, nor on "quotes
#define N 100
#define SQR(x) ((x)*(x))
#define CAT(a,b) a/**/b
#define STR(x) 'x'
      PROGRAM TRAP
      CHARACTER*8 C
      REAL A(N), B, unix, linux
      INTEGER CAT(NA,ME)
#include "inc.h"
C     N is the size; this comment has /* a C comment */ in it
      C = 'AB' // 'CD'   ! concatenation, not a C++ comment
      B = SQR(2.0) + N + unix + linux
      PRINT *, 'N = ', N, STR(N), "it's N", __LINE__
#if defined(__GFORTRAN__) && N > 50
      PRINT *, 'big'
#elif N > 10
      PRINT *, 'medium'
#endif
      X = 1.0 + \\
          2.0
      END
"""


def _lines(text: str) -> list[str]:
    return [x for x in text.splitlines() if not re.match(r'# \d+ "', x)]


@requires_gfortran
def test_the_text_is_gfortrans(tmp_path):
    (tmp_path / "inc.h").write_text("      INTEGER NINC\n")
    src = tmp_path / "trap.F"
    src.write_text(TRAPS)
    gf = subprocess.run(["gfortran", "-E", "-cpp", "-DEXTRA=2", str(src)], capture_output=True, text=True,
                        check=True, cwd=tmp_path)
    ours = preprocess(str(src), src.read_bytes(), ("EXTRA=2",))
    assert [x.text for x in ours] == _lines(gf.stdout)
    assert "      C = 'AB' // 'CD'   ! concatenation, not a C++ comment" in _lines(gf.stdout)


def test_every_line_says_where_it_comes_from(tmp_path):
    (tmp_path / "inc.h").write_text("      INTEGER NINC\n      PARAMETER (NINC = 5)\n")
    src = tmp_path / "trap.F"
    src.write_text(TRAPS)
    ours = preprocess(str(src), src.read_bytes())
    where = {x.text.strip(): (x.file, x.line, x.top_line) for x in ours if x.text.strip()}
    assert where["PROGRAM TRAP"] == (str(src), 6, 6)
    assert where["PARAMETER (NINC = 5)"] == (str(tmp_path / "inc.h"), 2, 10)  # the #include line
    assert where["END"] == (str(src), 22, 22)  # after a \\ splice
