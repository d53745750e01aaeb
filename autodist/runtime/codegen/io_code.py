"""The I/O statements of a translated unit (a part of
:class:`~autodist.runtime.codegen.units.UnitTranslator`): list-directed and
formatted READ, WRITE and PRINT on any unit and on internal files (a CHARACTER
variable), OPEN, CLOSE, INQUIRE, REWIND, BACKSPACE, ENDFILE, with IOSTAT=,
END= and ERR=; FORMAT statements and character constants parsed once at
translation time, implied-DO items.  What the statements do at run time is
:mod:`autodist.runtime.spmd.io`."""

from __future__ import annotations

from ... import ir
from ...errors import UnsupportedError
from . import intrinsic_code as ic
from ..fortran.formats import parse_format
from .facts import unsupported

#: The control specifiers each statement takes (others are refused).
_SPECS = {
    "print": ("FMT",), "write": ("FMT", "UNIT", "IOSTAT", "ERR"), "read": ("FMT", "UNIT", "IOSTAT", "ERR", "END"),
    "open": ("UNIT", "FILE", "STATUS", "ACCESS", "FORM", "POSITION", "IOSTAT", "ERR"),
    "close": ("UNIT", "STATUS", "IOSTAT", "ERR"), "inquire": ("UNIT", "FILE", "IOSTAT", "ERR"),
    "rewind": ("UNIT", "IOSTAT", "ERR"), "backspace": ("UNIT", "IOSTAT", "ERR"), "endfile": ("UNIT", "IOSTAT", "ERR"),
}
_INQUIRED = ("EXIST", "OPENED", "NUMBER")
_TEXT_SPECS = ("FILE", "STATUS", "ACCESS", "FORM", "POSITION")


class InputOutput:
    """I/O statements; mixed into ``UnitTranslator``, whose state it uses."""

    # ---------------------------------------------------------------- I/O

    def io(self, s: ir.Io) -> None:
        em = self.em
        if s.kind == "format":
            return
        specs = dict(s.specs)
        allowed = _SPECS.get(s.kind, ())
        bad = [k for k, _ in s.specs if k not in allowed and not (s.kind == "inquire" and k in _INQUIRED)]
        if bad:
            raise unsupported(f"the {bad[0]}= specifier of {s.kind.upper()}", s.span)
        if s.kind in ("print", "write", "read") and s.fmt is None:
            raise unsupported(f"an unformatted {s.kind.upper()}", s.span)
        for k, ok in (("FORM", "FORMATTED"), ("ACCESS", "SEQUENTIAL")):
            v = specs.get(k)
            if s.kind == "open" and isinstance(v, ir.Const) and str(v.value).strip().upper() != ok:
                raise unsupported(f"{k}='{str(v.value).strip().upper()}' (only {ok.lower()} files)", s.span)
        caught = [k for k in ("IOSTAT", "END", "ERR") if k in specs]
        ios = em.fresh("ios")
        if caught:
            em(f"{ios} = 0")
            em("try:")
            with em.indent():
                self.io_body(s, specs)
            em("except _IoCondition as _e:")
            with em.indent():
                em(f"{ios} = _e.iostat")
                if "IOSTAT" not in specs and ("END" not in specs or "ERR" not in specs):
                    em(f"if {'_e.iostat > 0' if 'END' in specs else '_e.iostat < 0'}:")
                    em("    raise")
            if "IOSTAT" in specs:
                self.store_io(specs["IOSTAT"], ios, ir.INTEGER)
            for k, test in (("END", "< 0"), ("ERR", "> 0")):
                if k in specs:
                    em(f"if {ios} {test}:")
                    with em.indent():
                        self.goto(specs[k].value)
        else:
            self.io_body(s, specs)

    def io_body(self, s: ir.Io, specs: dict) -> None:
        em = self.em
        internal = self.internal_unit(s)
        unit = "None" if s.unit is None or internal else self.ex.int_expr(s.unit)
        if s.kind in ("print", "write"):
            fmt = self.format_ref(s)
            lst = em.fresh("io")
            em(f"{lst} = []")
            for item in s.items:
                self.io_item(item, lst)
            if internal and isinstance(s.unit, ir.Name) and self.is_array(s.unit.name):
                em(f"_rt.write_internal_array({fmt}, {lst}, a_{s.unit.name})")
            elif internal:
                t = self.ex.type_of(s.unit)
                length = str(t.size) if t.size else f"len({self.ex.expr(s.unit)[0]})"
                self.store_io(s.unit, f"_rt.write_internal({fmt}, {lst}, {length})", t)
            else:
                em(f"_rt.write({unit}, {fmt}, {lst})")
        elif s.kind == "read":
            fmt = self.format_ref(s)
            rd = em.fresh("rd")
            if internal and isinstance(s.unit, ir.Name) and self.is_array(s.unit.name):
                source = f", a_{s.unit.name}"
            else:
                source = f", {self.ex.expr(s.unit)[0]}" if internal else ""
            em(f"{rd} = _rt.reader({unit}, {fmt}{source})")
            for item in s.items:
                self.read_item(item, rd)
            em(f"{rd}.finish()")
        elif s.kind == "inquire":
            given = {k: self.ex.expr(v)[0] for k, v in s.specs if k == "FILE"}
            res = em.fresh("iq")
            em(f"{res} = _rt.file_op('inquire', {unit}{''.join(f', {k}={v}' for k, v in given.items())})")
            for k, target in s.specs:
                if k in _INQUIRED:
                    t = ir.LOGICAL if k in ("EXIST", "OPENED") else ir.INTEGER
                    self.store_io(target, f"{res}[{k!r}]", t)
        else:
            given = {k: f"{self.ex.expr(v)[0]}.strip().upper()" if k != "FILE" else f"{self.ex.expr(v)[0]}.rstrip()"
                     for k, v in s.specs if k in _TEXT_SPECS}
            em(f"_rt.file_op({s.kind!r}, {unit}{''.join(f', {k}={v}' for k, v in given.items())})")

    def internal_unit(self, s: ir.Io) -> bool:
        if s.unit is None or s.kind not in ("read", "write"):
            return False
        if isinstance(s.unit, ir.Name) and self.is_array(s.unit.name):
            return self.ex.type_of_name(s.unit.name).base == "character"
        _, t, _ = self.ex.expr(s.unit)
        return t.base == "character"

    def store_io(self, target: ir.Expr, code: str, t: ir.Type) -> None:
        """``target = code`` where ``code`` is Python of type ``t``."""
        saved = self.ex.subst
        self.ex.subst = {**saved, "$IO": (code, t, False)}
        try:
            self.assign(target, ir.Name("$IO"))
        finally:
            self.ex.subst = saved

    def implied_do(self, item: ir.ImpliedDo, each) -> None:
        """The loop of an implied DO in an I/O list, ``each`` of its items inside."""
        em = self.em
        r, _ = self.trip_range(item.start, item.end, item.step, "implied DO")
        em(f"for v_{item.var} in {r}:")
        with em.indent():
            for x in item.items:
                each(x)
        em(f"v_{item.var} = {r}.start + len({r}) * {r}.step")  # as after a DO loop

    def read_item(self, item: ir.Expr, rd: str) -> None:
        em = self.em
        if isinstance(item, ir.ImpliedDo):
            self.implied_do(item, lambda x: self.read_item(x, rd))
            return
        if isinstance(item, ir.Name) and self.is_array(item.name):
            em(f"_rt.read_array({rd}, a_{item.name})")
            return
        name = item.name if isinstance(item, (ir.Name, ir.Index)) else getattr(item.base, "name", None)
        if name is None:
            raise unsupported("this READ item", self.ex.span)
        t = self.ex.type_of_name(name)
        if isinstance(item, ir.Substring):
            length = "None"
        else:
            length = "None" if t.base != "character" else str(t.size) if t.size else f"len({self.ex.expr(item)[0]})"
        v = em.fresh("rv")
        em(f"{v} = {rd}.next({ic.io_kind(t)!r}, {length})")
        em(f"if {v} is not _rt.NULL:")
        with em.indent():
            self.store_io(item, v, t if not isinstance(item, ir.Substring) else ir.Type("character", 0))

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
        elif isinstance(s.fmt, ir.Expr) and not isinstance(s.fmt, ir.Const) and \
                self.ex.type_of(s.fmt).base == "character":  # a format held in a variable: parsed when it runs
            return f"_fmt_of({self.ex.expr(s.fmt)[0]})"
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
            self.implied_do(item, lambda x: self.io_item(x, lst))
            return
        if isinstance(item, ir.Name) and self.is_array(item.name):
            em(f"{lst}.append((a_{item.name}, 'array'))")
            return
        c, t, _ = self.ex.expr(item)
        em(f"{lst}.append(({c}, {ic.io_kind(t)!r}))")
