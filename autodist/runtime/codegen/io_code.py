"""READ, WRITE and PRINT of a translated unit (a part of
:class:`~autodist.runtime.codegen.units.UnitTranslator`): list-directed and
formatted output to ``*`` and unit 6, FORMAT statements and character
constants parsed once at translation time, implied-DO items."""

from __future__ import annotations

from ... import ir
from ...errors import UnsupportedError
from . import intrinsic_code as ic
from ..fortran.formats import parse_format
from .facts import unsupported


class InputOutput:
    """I/O statements; mixed into ``UnitTranslator``, whose state it uses."""

    # ---------------------------------------------------------------- I/O

    def io(self, s: ir.Io) -> None:
        em = self.em
        if s.kind == "format":
            return
        if s.kind not in ("print", "write"):
            raise unsupported(f"a {s.kind.upper()} statement", s.span)
        unit = "6"
        if s.unit is not None:
            if isinstance(s.unit, ir.Const) and s.unit.value in (6, 0, "*"):
                unit = "0" if s.unit.value == 0 else "6"
            else:
                raise unsupported(f"output to unit {s.text!r} (only * and 6)", s.span)
        bad = [k for k, _ in s.specs if k not in ("FMT", "UNIT")]
        if bad:
            raise unsupported(f"the {bad[0]}= specifier", s.span)
        fmt = self.format_ref(s)
        lst = em.fresh("io")
        em(f"{lst} = []")
        for item in s.items:
            self.io_item(item, lst)
        em(f"_rt.write({unit}, {fmt}, {lst})")

    def format_ref(self, s: ir.Io) -> str:
        if s.fmt == "*":
            return "None"
        if isinstance(s.fmt, int):
            text = self.format_text.get(s.fmt)
            if text is None:
                raise unsupported(f"format label {s.fmt} (no FORMAT with that label)", s.span)
        elif isinstance(s.fmt, str):
            text = s.fmt
        elif isinstance(s.fmt, ir.Const) and isinstance(s.fmt.value, str):
            text = s.fmt.value
        else:
            raise unsupported("a format held in a variable", s.span)
        if text not in self._format_index:
            try:
                parsed = parse_format(text)
            except UnsupportedError as exc:
                raise UnsupportedError(exc.message, s.span.file, s.span.first) from None
            self._format_index[text] = len(self.formats)
            self.formats.append(parsed)
        return f"_FMT[{self._format_index[text]}]"

    def io_item(self, item: ir.Expr, lst: str) -> None:
        em = self.em
        if isinstance(item, ir.ImpliedDo):
            r = self.trip_range(item.start, item.end, item.step, "implied DO")
            em(f"for v_{item.var} in {r}:")
            with em.indent():
                for x in item.items:
                    self.io_item(x, lst)
            em(f"v_{item.var} = {r}.start + len({r}) * {r}.step")  # as after a DO loop
            return
        if isinstance(item, ir.Name) and self.is_array(item.name):
            em(f"{lst}.append((a_{item.name}, 'array'))")
            return
        c, t, _ = self.ex.expr(item)
        em(f"{lst}.append(({c}, {ic.io_kind(t)!r}))")
