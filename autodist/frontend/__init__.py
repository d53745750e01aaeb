"""The Fortran 77 front end: source files -> :class:`autodist.ir.Program`.

>>> from autodist.frontend import read_program, read_text
>>> program = read_text('''
...       PROGRAM P
...       REAL A(10)
...       DO 10 I = 1, 10
...    10 A(I) = 0.0
...       END
... ''')
>>> [u.name for u in program.units]
['P']

fparser2 does the parsing; this package covers what it misses on real F77
code: units after a main program without PROGRAM,
columns 73-80, comments inside shared-termination DO nests, the nesting of
those nests, statement functions, deleted features, error lines.
"""

from .program import read_program, read_text

__all__ = ["read_program", "read_text"]
