"""Files -> ``ir.Program``: the front end's entry points.

For each file: read it and expand its INCLUDEs (:mod:`.source`), split it into
statements and directives (:mod:`.lines`), find its program units
(:mod:`.units`); every unit name must be defined once over all files.  Then
each unit is parsed once by fparser2 (:mod:`.parse`) and read into the IR
(:mod:`.build`), on several processes for a large program (:mod:`.workers`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from .. import ir
from ..errors import FortranError
from .arity import drop_extra_actuals
from .build import Extras, UnitReader
from .lines import Scan, split
from .parse import make_parser, parse_unit
from .preprocess import needs_cpp
from .source import Source, form_of, load
from .units import UnitSource, UnitText, split_units, unit_source
from .workers import read_units, workers_for


def _extras(scan: Scan, units: tuple[UnitText, ...], source: Source) -> list[Extras]:
    """The directives and ``#`` lines of each unit: those inside it, or before it
    (after the previous unit's END); those after the last END go to the last unit."""
    if not units and (scan.directives or scan.preprocs):
        first = scan.directives[0].first if scan.directives else scan.preprocs[0].line
        o = source.origins[first]
        raise FortranError("directive or preprocessor line outside any program unit", o.file, o.line)
    ends = [u.end.last for u in units]
    buckets: list[tuple[list, list]] = [([], []) for _ in units]

    def owner(index: int) -> int:
        for k, end in enumerate(ends):
            if index <= end:
                return k
        return len(units) - 1

    for d in scan.directives:
        buckets[owner(d.first)][0].append(d)
    for p in scan.preprocs:
        buckets[owner(p.line)][1].append(p)
    return [Extras(tuple(d), tuple(p)) for d, p in buckets]


def _where(source: Source, unit: UnitText) -> str:
    o = source.origins[unit.first]
    return f"{o.file}:{o.line}"


def _read(sources: list[Source], preprocessing: ir.Preprocessing) -> ir.Program:
    scanned = []
    seen: dict[str, str] = {}
    main: tuple[str, str] | None = None  # the main program's name and place
    for source in sources:
        scan = split(source)
        units = split_units(scan, source)
        for u in units:
            name = u.header.name
            here = _where(source, u)
            o = source.origins[u.first]
            if name in seen:
                raise FortranError(f"program unit {name} is defined twice (also at {seen[name]})", o.file, o.line)
            if u.header.kind == "program":
                if main is not None:
                    raise FortranError(f"a second main program {name} (the main program {main[0]} is at {main[1]})",
                                       o.file, o.line)
                main = (name, here)
            seen[name] = here
        scanned.append((source, scan, units))
    parser = make_parser()
    names = frozenset(seen)

    def job(us: UnitSource, source: Source, extras: Extras) -> Callable[[], ir.Unit]:
        return lambda: UnitReader(us, source, names).read(parse_unit(parser, us, source), extras)

    jobs = [job(unit_source(unit, source.form), source, extras)
            for source, scan, units in scanned for unit, extras in zip(units, _extras(scan, units, source))]
    lines = sum(len(source.lines) for source in sources)
    out_units, notes = drop_extra_actuals(tuple(read_units(jobs, workers_for(lines, len(jobs)))))
    files: dict[str, tuple[str, ...]] = {}
    for source in sources:
        for name, lines in source.texts:
            files.setdefault(name, lines)
    return ir.Program(units=out_units, files=tuple(files), sources=tuple(files.items()),
                      preprocessing=preprocessing, notes=notes)


def _preprocessing(files: Sequence[str], include_dirs, defines, cpp: bool | None) -> ir.Preprocessing:
    done = tuple(f for f in files if (cpp if cpp is not None else needs_cpp(f)))
    if not done:
        return ir.Preprocessing()
    return ir.Preprocessing(done, tuple(defines), tuple(str(d) for d in include_dirs))


def read_program(paths: Sequence[str | Path], include_dirs: Sequence[str | Path] = (),
                 defines: Sequence[str] = (), cpp: bool | None = None) -> ir.Program:
    """Read Fortran source files into one :class:`ir.Program`.

    ``.f .for .ftn .f77 .F`` (and unknown suffixes) are fixed form, ``.f90 .f95
    .F90`` free form.  ``.F .F90 .fpp`` ... go through the C preprocessor first
    (every file with ``cpp=True``, none with False), with ``defines`` (``NAME``
    or ``NAME=VALUE``).  INCLUDE files are searched next to the including file,
    then in ``include_dirs``.  Raises :class:`~autodist.errors.FortranError`
    (``file:line: message``) for invalid or unreadable Fortran.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    files = [str(p) for p in paths]
    pre = _preprocessing(files, include_dirs, defines, cpp)
    sources = [load(f, form_of(f), include_dirs, defines=defines, cpp=f in pre.files) for f in files]
    return _read(sources, pre)


def read_text(
    text: str,
    filename: str = "<string>",
    form: str | None = None,
    include_dirs: Sequence[str | Path] = (),
    defines: Sequence[str] = (),
    cpp: bool | None = None,
) -> ir.Program:
    """Read Fortran source given as a string (``filename`` names it in spans and
    errors, and chooses the form, and whether it is preprocessed, when ``form``
    and ``cpp`` are None)."""
    pre = _preprocessing([filename], include_dirs, defines, cpp)
    return _read([load(filename, form_of(filename, form), include_dirs, text=text, defines=defines,
                       cpp=filename in pre.files)], pre)
