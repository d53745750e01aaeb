"""Reading HPF directive text into :mod:`autodist.hpf.model` directives.

:func:`parse_directive` takes one :class:`autodist.ir.Directive` (the text after
the sentinel, continuation lines joined) and returns the directives it holds:
several when they are separated by ``;`` and one per attribute of a combined
directive (``TEMPLATE, DISTRIBUTE(BLOCK) :: T(100)``).  Case does not matter
and blanks may stand between any two tokens (they are optional after a
keyword, as fixed form allows: ``DISTRIBUTET(BLOCK)ONTOP``).

A malformed directive raises :class:`~autodist.errors.HpfError` naming
``file:line``; a directive of HPF that autodist does not model (``SEQUENCE``,
``SHADOW``, ``GEN_BLOCK`` ...) becomes :class:`~autodist.hpf.model.Unsupported`
with the reason, never an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .. import ir
from ..errors import HpfError
from . import model as m

#: Directive keywords autodist models.
KEYWORDS = (
    "REDISTRIBUTE", "DISTRIBUTE", "REALIGN", "ALIGN", "PROCESSORS", "TEMPLATE",
    "INHERIT", "DYNAMIC", "INDEPENDENT", "DIMENSION",
)

#: HPF words autodist reads but does not model, with the reason recorded.
UNMODELLED = {
    "SEQUENCE": "storage-sequence directive (HPF 1.1) has no effect on the mapping model",
    "NOSEQUENCE": "storage-sequence directive (HPF 1.1) has no effect on the mapping model",
    "NO": "storage-sequence directive (HPF 1.1) has no effect on the mapping model",
    "PURE": "PURE is a program-unit prefix, not a directive",
    "ON": "the ON directive (HPF 2 approved extension) is not modelled",
    "END": "block end of an HPF 2 approved extension (END ON, END TASK_REGION) is not modelled",
    "RESIDENT": "RESIDENT (HPF 2 approved extension) is not modelled",
    "SHADOW": "SHADOW (HPF 2 approved extension) is not modelled: ghost cells are computed",
    "RANGE": "RANGE (HPF 2 approved extension) is not modelled",
    "TASK_REGION": "TASK_REGION (HPF 2 approved extension) is not modelled",
    "ASYNCHRONOUS": "asynchronous I/O (HPF 2 approved extension) is not modelled",
    "WAIT": "asynchronous I/O (HPF 2 approved extension) is not modelled",
    "LOCAL": "LOCAL (HPF 2 approved extension) is not modelled",
}

#: Distribution formats of HPF 2 approved extensions.
UNMODELLED_FORMATS = ("GEN_BLOCK", "INDIRECT")

#: Names read as intrinsic function references (not array elements) in expressions.
INTRINSICS = frozenset(
    "NUMBER_OF_PROCESSORS PROCESSORS_SHAPE SIZE LBOUND UBOUND MAX MIN MOD ABS "
    "MAX0 MIN0 IABS ISIGN SIGN INT NINT".split()
)

_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z][A-Za-z0-9_$]*)|(?P<int>\d+)|(?P<op>::|\*\*|[():,*+\-/=]))")


@dataclass(frozen=True)
class _Tok:
    kind: str  # "name" | "int" | "op" | "end"
    text: str


class _Unsupported(Exception):
    """Raised inside the reader to turn a directive into model.Unsupported."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class _Reader:
    """A cursor over the tokens of one directive."""

    def __init__(self, text: str, where: ir.Span | None, toks: list[_Tok] | None = None):
        self.text = text.strip()
        self.where = where
        self.toks = self._tokenize(self.text) if toks is None else toks
        self.pos = 0

    # ---------------------------------------------------------------- tokens

    def _tokenize(self, text: str) -> list[_Tok]:
        toks: list[_Tok] = []
        i = 0
        while i < len(text):
            if text[i:].strip() == "":
                break
            mt = _TOKEN.match(text, i)
            if mt is None:
                bad = text[i:].lstrip()[0]
                raise self.error(f"unexpected character {bad!r}")
            kind = mt.lastgroup or "op"
            value = mt.group(kind)
            toks.append(_Tok(kind, value.upper() if kind == "name" else value))
            i = mt.end()
        return toks

    def error(self, message: str) -> HpfError:
        where = self.where
        return HpfError(
            f"{message} in HPF directive '{self.text}'",
            where.file if where else None,
            where.first if where else None,
        )

    @property
    def tok(self) -> _Tok:
        return self.toks[self.pos] if self.pos < len(self.toks) else _Tok("end", "")

    def peek(self, offset: int = 1) -> _Tok:
        i = self.pos + offset
        return self.toks[i] if i < len(self.toks) else _Tok("end", "")

    def at(self, text: str) -> bool:
        return self.tok.kind != "end" and self.tok.text == text

    def at_end(self) -> bool:
        return self.tok.kind == "end"

    def take(self) -> _Tok:
        t = self.tok
        self.pos += 1
        return t

    def accept(self, text: str) -> bool:
        if self.at(text):
            self.pos += 1
            return True
        return False

    def expect(self, text: str, what: str = "") -> None:
        if not self.accept(text):
            found = f"'{self.tok.text}'" if not self.at_end() else "the end of the directive"
            raise self.error(f"expected '{text}'{what} but found {found}")

    def keyword(self, word: str) -> bool:
        """Accept the keyword ``word``, also when a name follows without a blank."""
        t = self.tok
        if t.kind != "name" or not t.text.startswith(word):
            return False
        rest = t.text[len(word):]
        if rest and not rest[0].isalpha():
            return False
        if rest:
            self.toks[self.pos] = _Tok("name", rest)
        else:
            self.pos += 1
        return True

    def name(self, what: str) -> str:
        t = self.tok
        if t.kind != "name":
            found = f"'{t.text}'" if t.kind != "end" else "the end of the directive"
            raise self.error(f"expected {what} but found {found}")
        self.pos += 1
        return t.text

    def done(self) -> None:
        if not self.at_end():
            raise self.error(f"unexpected '{self.tok.text}'")

    def name_list(self, what: str) -> tuple[str, ...]:
        names = [self.name(what)]
        while self.accept(","):
            names.append(self.name(what))
        return tuple(names)

    def paren_names(self, what: str) -> tuple[str, ...]:
        self.expect("(")
        names = self.name_list(what)
        self.expect(")")
        return names

    # ---------------------------------------------------------------- expressions

    def expr(self) -> ir.Expr:
        if self.at("+") or self.at("-"):
            op = self.take().text
            first = self.term()
            left: ir.Expr = _negate(first) if op == "-" else first
        else:
            left = self.term()
        while self.at("+") or self.at("-"):
            op = self.take().text
            left = ir.BinOp(op, left, self.term())
        return left

    def term(self) -> ir.Expr:
        left = self.factor()
        while self.at("*") or self.at("/"):
            op = self.take().text
            left = ir.BinOp(op, left, self.factor())
        return left

    def factor(self) -> ir.Expr:
        base = self.primary()
        if self.accept("**"):
            return ir.BinOp("**", base, self.factor())
        return base

    def primary(self) -> ir.Expr:
        t = self.tok
        if t.kind == "int":
            self.pos += 1
            return ir.Const(int(t.text), ir.INTEGER)
        if t.kind == "name":
            self.pos += 1
            if not self.at("("):
                return ir.Name(t.text)
            self.pos += 1
            args: list[ir.Expr] = []
            if not self.at(")"):
                args.append(self.subscript(allow_star=False))
                while self.accept(","):
                    args.append(self.subscript(allow_star=False))
            self.expect(")")
            if t.text in INTRINSICS:
                return ir.FuncRef(t.text, tuple(args), "intrinsic")
            if not args:
                raise self.error(f"empty subscript list after {t.text}")
            return ir.Index(t.text, tuple(args))
        if self.accept("("):
            inner = self.expr()
            self.expect(")")
            return inner
        found = f"'{t.text}'" if t.kind != "end" else "the end of the directive"
        raise self.error(f"expected an expression but found {found}")

    def subscript(self, allow_star: bool = True) -> m.AlignSubscript:
        """An expression, a triplet ``lo:hi:st`` or (when allowed) ``*``."""
        if allow_star and self.at("*") and self.peek().text in (",", ")"):
            self.pos += 1
            return m.STAR
        lower = None if self.at(":") or self.at("::") else self.expr()
        if self.accept("::"):  # lower::stride
            return m.Triplet(lower, None, self.expr())
        if not self.accept(":"):
            assert lower is not None
            return lower
        upper = None if self.at(":") or self.at(",") or self.at(")") else self.expr()
        stride = self.expr() if self.accept(":") else None
        return m.Triplet(lower, upper, stride)

    def extent(self) -> m.Extent:
        first = self.expr()
        if self.accept(":"):
            return m.Extent(self.expr(), first)
        return m.Extent(first)

    def shape(self) -> tuple[m.Extent, ...]:
        self.expect("(")
        dims = [self.extent()]
        while self.accept(","):
            dims.append(self.extent())
        self.expect(")")
        return tuple(dims)

    def shaped(self, what: str) -> m.Shape:
        name = self.name(what)
        return m.Shape(name, self.shape() if self.at("(") else ())

    # ---------------------------------------------------------------- clauses

    def align_source(self) -> tuple[m.AlignSource, ...]:
        self.expect("(")
        items: list[m.AlignSource] = []
        while True:
            if self.accept(":"):
                items.append(m.COLON)
            elif self.accept("*"):
                items.append(m.STAR)
            else:
                items.append(self.name("an align-dummy, ':' or '*'"))
            if not self.accept(","):
                break
        self.expect(")")
        return tuple(items)

    def with_clause(self) -> tuple[str, tuple[m.AlignSubscript, ...] | None, bool]:
        if not self.keyword("WITH"):
            found = f"'{self.tok.text}'" if not self.at_end() else "the end of the directive"
            raise self.error(f"expected 'WITH' but found {found}")
        descriptive = self.accept("*")
        target = self.name("an align target")
        subs = None
        if self.accept("("):
            items = [self.subscript()]
            while self.accept(","):
                items.append(self.subscript())
            self.expect(")")
            subs = tuple(items)
        return target, subs, descriptive

    def dist_format(self) -> m.DistFormat:
        if self.accept("*"):
            return m.DistFormat("*")
        kind = self.name("BLOCK, CYCLIC or '*'")
        if kind in UNMODELLED_FORMATS:
            raise _Unsupported(f"{kind} distribution (HPF 2 approved extension) is not modelled")
        if kind not in ("BLOCK", "CYCLIC"):
            raise self.error(f"unknown distribution format {kind}")
        k = None
        if self.accept("("):
            k = self.expr()
            self.expect(")")
        return m.DistFormat(kind, k)

    def dist_formats(self) -> tuple[m.DistFormat, ...]:
        self.expect("(")
        items = [self.dist_format()]
        while self.accept(","):
            items.append(self.dist_format())
        self.expect(")")
        return tuple(items)

    def dist_stuff(self, executable: bool) -> tuple[tuple[m.DistFormat, ...] | None, bool, str | None, bool]:
        """``[*](formats) | *`` then ``[ONTO [*]P | ONTO *]``."""
        descriptive = False
        if self.at("("):
            formats: tuple[m.DistFormat, ...] | None = self.dist_formats()
        elif not executable and self.accept("*"):
            descriptive = self.at("(")
            formats = self.dist_formats() if descriptive else None
        elif self.at_onto() or self.at_end():  # DISTRIBUTE T [ONTO P]: the compiler's choice (HPF 2.0)
            raise _Unsupported("DISTRIBUTE without formats (left to the compiler) is not modelled")
        else:
            found = f"'{self.tok.text}'" if not self.at_end() else "the end of the directive"
            raise self.error(f"expected a distribution format list '(...)' but found {found}")
        onto, onto_descriptive = None, False
        if self.keyword("ONTO"):
            if self.accept("*"):
                if executable:
                    raise self.error("'ONTO *' is not allowed in REDISTRIBUTE")
                if self.tok.kind == "name":
                    onto, onto_descriptive = self.name("a processor arrangement"), True
                else:
                    onto = "*"
            else:
                onto = self.name("a processor arrangement")
            if self.at("("):
                raise _Unsupported(f"a processor subset ONTO {onto}(...) (HPF 2 approved extension) is not modelled")
        return formats, descriptive, onto, onto_descriptive

    def at_onto(self) -> bool:
        return self.tok.kind == "name" and self.tok.text.startswith("ONTO")


def _negate(e: ir.Expr) -> ir.Expr:
    if isinstance(e, ir.Const) and type(e.value) is int:
        return ir.Const(-e.value, e.type)
    return ir.UnOp("-", e)


# --------------------------------------------------------------------------- directives


def _statement(r: _Reader, word: str) -> tuple[m.Directive, ...]:
    if word in ("ALIGN", "REALIGN"):
        return _align_list(r, word)
    return (_single(r, word),)


def _align_list(r: _Reader, word: str) -> tuple[m.Directive, ...]:
    """``ALIGN A(I), B(I,*) WITH T(I)``: the list form of HPF 1.x, one
    directive per alignee, each with its own dimension list and the one WITH."""
    alignees = []
    while True:
        alignee = r.name("an alignee")
        alignees.append((alignee, r.align_source() if r.at("(") else None))
        if not r.accept(","):
            break
    target, subs, descriptive = r.with_clause()
    r.done()
    if word == "REALIGN":
        if descriptive:
            raise r.error("'WITH *' is not allowed in REALIGN")
        return tuple(m.Realign((a,), source, target, subs) for a, source in alignees)
    return tuple(m.Align((a,), source, target, subs, descriptive=descriptive) for a, source in alignees)


def _single(r: _Reader, word: str) -> m.Directive:
    if word in ("PROCESSORS", "TEMPLATE"):
        items = [r.shaped("a name")]
        while r.accept(","):
            items.append(r.shaped("a name"))
        r.done()
        return m.Processors(tuple(items)) if word == "PROCESSORS" else m.Template(tuple(items))
    if word in ("DISTRIBUTE", "REDISTRIBUTE"):
        name = r.name("a distributee")
        formats, descriptive, onto, onto_d = r.dist_stuff(word == "REDISTRIBUTE")
        r.done()
        if word == "REDISTRIBUTE":
            assert formats is not None
            return m.Redistribute((name,), formats, onto)
        return m.Distribute((name,), formats, onto, descriptive=descriptive, onto_descriptive=onto_d)
    if word in ("INHERIT", "DYNAMIC"):
        names = r.name_list("a name")
        r.done()
        return m.Inherit(names) if word == "INHERIT" else m.Dynamic(names)
    if word == "INDEPENDENT":
        return _independent(r)
    raise r.error(f"{word} needs '::' and a list of names")  # DIMENSION


def _independent(r: _Reader) -> m.Independent:
    loops = r.paren_names("a loop variable") if r.at("(") else ()
    new: tuple[str, ...] = ()
    reduction: tuple[str, ...] = ()
    home = None
    seen: set[str] = set()
    # the ',' before a clause may be left out, as HPF compilers read it (INDEPENDENT NEW(K))
    while r.accept(",") or _at_clause(r):
        for clause in ("NEW", "REDUCTION", "ON"):
            if r.keyword(clause):
                break
        else:
            found = f"'{r.tok.text}'" if not r.at_end() else "the end of the directive"
            raise r.error(f"expected NEW, REDUCTION or ON HOME after ',' but found {found}")
        if clause in seen:
            raise r.error(f"{clause} given twice")
        seen.add(clause)
        if clause == "NEW":
            new = r.paren_names("a variable")
        elif clause == "REDUCTION":
            reduction = r.paren_names("a reduction variable")
        else:
            if not r.keyword("HOME"):
                raise _Unsupported("ON clause other than ON HOME(...) is not modelled")
            r.expect("(")
            home = r.expr()
            r.expect(")")
            if not isinstance(home, (ir.Index, ir.Name)):
                raise r.error("ON HOME needs an array element or array name")
    r.done()
    return m.Independent(loops, new, reduction, home)


def _at_clause(r: _Reader) -> bool:
    """At an INDEPENDENT clause written without its ',': ``NEW(``, ``REDUCTION(``, ``ON HOME``."""
    t, after = r.tok, r.peek()
    if t.kind != "name":
        return False
    return (t.text in ("NEW", "REDUCTION") and after.text == "(") or (t.text == "ON" and after.text == "HOME")


def _split_top(toks: list[_Tok], sep: str) -> list[list[_Tok]]:
    parts: list[list[_Tok]] = [[]]
    depth = 0
    for t in toks:
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        if t.text == sep and t.kind == "op" and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def _combined(r: _Reader, attrs: list[list[_Tok]], entities: list[list[_Tok]]) -> tuple[m.Directive, ...]:
    """``attr, attr, ... :: entity, entity, ...`` into one directive per attribute.

    An entity's parenthesised list is its shape for TEMPLATE and PROCESSORS; for
    ALIGN and REALIGN it is the alignee's own align-source list (``ALIGN WITH
    T(I,*) :: S(I)``, ``ALIGN WITH T(*) :: X(*)``), which splits the directive
    into one ALIGN per distinct list.
    """
    readers: list[tuple[str, _Reader]] = []
    for toks in attrs:
        a = _Reader(r.text, r.where, toks)
        word = next((k for k in KEYWORDS if a.keyword(k)), None)
        if word is None:
            if a.tok.kind == "name" and a.tok.text in UNMODELLED:
                raise _Unsupported(UNMODELLED[a.tok.text])
            raise r.error(f"expected a directive attribute before '::' but found '{a.tok.text}'")
        if any(w == word for w, _ in readers):
            raise r.error(f"attribute {word} given twice")
        readers.append((word, a))
    words = [w for w, _ in readers]
    shaped_kind = "TEMPLATE" in words or "PROCESSORS" in words
    aligning = not shaped_kind and ("ALIGN" in words or "REALIGN" in words)
    shapes: list[m.Shape] = []
    sources: list[tuple[m.AlignSource, ...] | None] = []
    for toks in entities:
        e = _Reader(r.text, r.where, toks)
        if aligning:
            shapes.append(m.Shape(e.name("an alignee")))
            sources.append(e.align_source() if e.at("(") else None)
        else:
            shapes.append(e.shaped("a name"))
        e.done()
    names = tuple(s.name for s in shapes)
    if ("REDISTRIBUTE" in words or "REALIGN" in words) and len(words) > 1:
        raise r.error("REDISTRIBUTE and REALIGN cannot be combined with other attributes")
    if "INDEPENDENT" in words:
        raise r.error("INDEPENDENT does not take '::'")
    if not shaped_kind:
        if "DIMENSION" in words:
            raise r.error("DIMENSION applies only to TEMPLATE or PROCESSORS")
        for s in shapes:
            if s.shape:
                raise r.error(f"a shape is given for {s.name} but it is not a TEMPLATE or PROCESSORS")
    dimension: tuple[m.Extent, ...] = ()
    for word, a in readers:
        if word == "DIMENSION":
            dimension = a.shape()
            a.done()
    # as in Fortran, an explicit shape overrides DIMENSION
    full = [s if s.shape else m.Shape(s.name, dimension) for s in shapes]
    out: list[m.Directive] = []
    for word, a in readers:
        if word == "DIMENSION":
            continue
        if word in ("ALIGN", "REALIGN"):
            source = a.align_source() if a.at("(") else None
            target, subs, descriptive = a.with_clause()
            if word == "REALIGN" and descriptive:
                raise r.error("'WITH *' is not allowed in REALIGN")
            for group, own in _by_source(r, names, sources, source):
                if word == "REALIGN":
                    out.append(m.Realign(group, own, target, subs, attribute=True))
                else:
                    out.append(m.Align(group, own, target, subs, attribute=True, descriptive=descriptive))
        elif word in ("DISTRIBUTE", "REDISTRIBUTE"):
            formats, descriptive, onto, onto_d = a.dist_stuff(word == "REDISTRIBUTE")
            if word == "REDISTRIBUTE":
                assert formats is not None
                out.append(m.Redistribute(names, formats, onto, attribute=True))
            else:
                out.append(m.Distribute(names, formats, onto, True, descriptive, onto_d))
        elif word == "INHERIT":
            out.append(m.Inherit(names, attribute=True))
        elif word == "DYNAMIC":
            out.append(m.Dynamic(names, attribute=True))
        elif word == "TEMPLATE":
            out.append(m.Template(tuple(full)))
        else:
            out.append(m.Processors(tuple(full)))
        a.done()
    return tuple(out)


def _by_source(
    r: _Reader,
    names: tuple[str, ...],
    sources: list[tuple[m.AlignSource, ...] | None],
    common: tuple[m.AlignSource, ...] | None,
) -> list[tuple[tuple[str, ...], tuple[m.AlignSource, ...] | None]]:
    """The alignees grouped by their align-source list, in order of first appearance:
    each alignee's own list (``:: S(I)``) or else the attribute's (``ALIGN (I) WITH``)."""
    groups: dict[tuple[m.AlignSource, ...] | None, list[str]] = {}
    for name, own in zip(names, sources):
        if own is not None and common is not None and own != common:
            raise r.error(f"two align-source lists are given for {name}")
        groups.setdefault(own if own is not None else common, []).append(name)
    return [(tuple(g), source) for source, g in groups.items()]


def _one(text: str, where: ir.Span | None) -> tuple[m.Directive, ...]:
    r = _Reader(text, where)
    if r.at_end():
        return ()
    try:
        halves = _split_top(r.toks, "::")
        if len(halves) > 2:
            raise r.error("'::' given twice")
        if len(halves) == 2:
            attrs = _split_top(halves[0], ",")
            entities = _split_top(halves[1], ",")
            if any(not e for e in entities) or not halves[1]:
                raise r.error("expected a list of names after '::'")
            if any(not a for a in attrs):
                raise r.error("empty attribute before '::'")
            out = _combined(r, attrs, entities)
        else:
            word = next((k for k in KEYWORDS if r.keyword(k)), None)
            if word is None:
                first = r.tok.text if r.tok.kind == "name" else ""
                if first in UNMODELLED:
                    raise _Unsupported(UNMODELLED[first])
                if first and r.tok.kind == "name":
                    raise r.error(f"unknown HPF directive {first} (HPF directives: {', '.join(sorted(KEYWORDS))})")
                raise r.error("expected a directive keyword")
            out = _statement(r, word)
    except _Unsupported as u:
        return (m.Unsupported(r.text, u.reason, span=where),)
    return tuple(replace(d, span=where) for d in out)


def parse_text(text: str, span: ir.Span | None = None) -> tuple[m.Directive, ...]:
    """The directives in directive text (sentinel removed); ``span`` locates errors."""
    out: list[m.Directive] = []
    for part in text.split(";"):
        out.extend(_one(part, span))
    return tuple(out)


def parse_directive(d: ir.Directive) -> tuple[m.Directive, ...]:
    """The directives of one front-end :class:`~autodist.ir.Directive` node."""
    return parse_text(d.text, d.span)


def parse_prefix(text: str, span: ir.Span | None = None) -> m.Prefix:
    """A program-unit prefix as recorded in :attr:`autodist.ir.Unit.prefixes`."""
    r = _Reader(text, span)
    kind = r.name("a prefix")
    model_name = None
    if r.accept("("):
        model_name = r.name("an EXTRINSIC kind")
        r.expect(")")
    r.done()
    return m.Prefix(kind, model_name)
