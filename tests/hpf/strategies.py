"""Hypothesis strategies: directives of every form, and layouts that HPF can express."""

from __future__ import annotations

from hypothesis import strategies as st

from autodist import ir
from autodist.hpf import model as m
from autodist.hpf.parse import INTRINSICS, KEYWORDS, UNMODELLED
from autodist.layout.model import Axis, Fixed, Format, Layout, REPLICATED

_RESERVED = KEYWORDS + ("WITH", "ONTO", "NEW", "REDUCTION", "ON", "HOME", "BLOCK", "CYCLIC", "GEN_BLOCK", "INDIRECT")

names = st.from_regex(r"[A-Z][A-Z0-9_]{0,7}", fullmatch=True).filter(
    lambda n: not n.startswith(_RESERVED) and n not in INTRINSICS and n not in UNMODELLED
)


def _ints(lo: int = -40, hi: int = 60):
    return st.integers(lo, hi).map(lambda v: ir.Const(v, ir.INTEGER))


def _combine(children):
    binop = st.builds(ir.BinOp, st.sampled_from(["+", "-", "*", "/", "**"]), children, children)
    unop = st.builds(ir.UnOp, st.just("-"), children.filter(lambda e: not isinstance(e, ir.Const)))
    call = st.builds(
        ir.FuncRef,
        st.sampled_from(["MAX", "MIN", "MOD", "SIZE"]),
        st.lists(children, min_size=1, max_size=3).map(tuple),
        st.just("intrinsic"),
    )
    return binop | unop | call


exprs = st.recursive(
    _ints() | names.map(ir.Name) | st.just(ir.FuncRef("NUMBER_OF_PROCESSORS", (), "intrinsic")),
    _combine,
    max_leaves=6,
)
triplets = st.builds(m.Triplet, st.none() | exprs, st.none() | exprs, st.none() | exprs)
subscripts = exprs | triplets | st.just(m.STAR)


def _shapes():
    extent = st.builds(m.Extent, exprs, st.none() | exprs)
    return st.builds(m.Shape, names, st.lists(extent, max_size=3).map(tuple))


def _names(max_size: int = 30):
    return st.lists(names, min_size=1, max_size=max_size).map(tuple)


def _form(draw, many):
    attribute = draw(st.booleans())
    return attribute, (draw(_names()) if attribute else (draw(names),))


@st.composite
def aligns(draw, realign: bool = False):
    attribute, alignees = _form(draw, True)
    source = draw(st.none() | st.lists(names | st.just(m.COLON) | st.just(m.STAR), min_size=1, max_size=4).map(tuple))
    subs = draw(st.none() | st.lists(subscripts, min_size=1, max_size=4).map(tuple))
    target = draw(names)
    if realign:
        return m.Realign(alignees, source, target, subs, attribute)
    return m.Align(alignees, source, target, subs, attribute, draw(st.booleans()))


formats = st.builds(m.DistFormat, st.sampled_from(["BLOCK", "CYCLIC"]), st.none() | exprs) | st.just(m.DistFormat("*"))


@st.composite
def distributes(draw, redistribute: bool = False):
    attribute, who = _form(draw, True)
    fmts = draw(st.lists(formats, min_size=1, max_size=4).map(tuple))
    if redistribute:
        return m.Redistribute(who, fmts, draw(st.none() | names), attribute)
    transcriptive = draw(st.booleans())
    onto = draw(st.none() | names | st.just("*"))
    return m.Distribute(
        who,
        None if transcriptive else fmts,
        onto,
        attribute,
        descriptive=not transcriptive and draw(st.booleans()),
        onto_descriptive=onto not in (None, "*") and draw(st.booleans()),
    )


@st.composite
def name_lists(draw, cls):
    return cls(draw(_names()), draw(st.booleans()))


homes = names.map(ir.Name) | st.builds(ir.Index, names, st.lists(exprs | triplets, min_size=1, max_size=3).map(tuple))
independents = st.builds(
    m.Independent,
    st.lists(names, max_size=3).map(tuple),
    st.lists(names, max_size=12).map(tuple),
    st.lists(names, max_size=3).map(tuple),
    st.none() | homes,
)

directives = st.one_of(
    st.builds(m.Processors, st.lists(_shapes(), min_size=1, max_size=8).map(tuple)),
    st.builds(m.Template, st.lists(_shapes(), min_size=1, max_size=8).map(tuple)),
    aligns(),
    aligns(realign=True),
    distributes(),
    distributes(redistribute=True),
    name_lists(m.Inherit),
    name_lists(m.Dynamic),
    independents,
)


# --------------------------------------------------------------------------- layouts


@st.composite
def layouts_on_one_template(draw):
    """1-3 arrays (or scalars) aligned with one template that HPF can express."""
    trank = draw(st.integers(1, 3))
    template = []
    for _ in range(trank):
        lo = draw(st.integers(-2, 2))
        template.append((lo, lo + draw(st.integers(0, 11))))
    fmts, grid = [], []
    for lo, hi in template:
        kind = draw(st.sampled_from(["*", "BLOCK", "CYCLIC"]))
        if kind == "*":
            fmts.append(Format("*"))
            continue
        p = draw(st.integers(1, 4))
        grid.append(p)
        k = None
        if draw(st.booleans()):
            least = -(-(hi - lo + 1) // p) if kind == "BLOCK" else 1
            k = draw(st.integers(least, least + 3))
        fmts.append(Format(kind, k))
    out = {}
    for a in range(draw(st.integers(1, 3))):
        rank = draw(st.integers(0, 3))
        free_dims = list(range(rank))
        bounds: list[tuple[int, int] | None] = [None] * rank
        align = []
        for t, (tlo, thi) in enumerate(template):
            choice = draw(st.sampled_from(["axis", "rep", "fixed"]) if free_dims else st.sampled_from(["rep", "fixed"]))
            if choice == "rep":
                align.append(REPLICATED)
            elif choice == "fixed":
                align.append(Fixed(draw(st.integers(tlo, thi))))
            else:
                d = draw(st.sampled_from(free_dims))
                free_dims.remove(d)
                s = draw(st.sampled_from([-2, -1, 1, 2, 3]))
                e = draw(st.integers(1, (thi - tlo) // abs(s) + 1))
                la = draw(st.integers(-2, 2))
                t0 = draw(st.integers(tlo, thi - abs(s) * (e - 1)))
                o = t0 - s * la if s > 0 else t0 - s * (la + e - 1)
                bounds[d] = (la, la + e - 1)
                align.append(Axis(d, s, o))
        for d in range(rank):
            if bounds[d] is None:
                la = draw(st.integers(-2, 2))
                bounds[d] = (la, la + draw(st.integers(0, 5)))
        out[f"A{a}"] = Layout(tuple(bounds), tuple(template), tuple(align), tuple(fmts), tuple(grid))  # type: ignore[arg-type]
    return out
