"""What compiled code hands to the rest of the program while it runs.

Two things leave a kernel without returning to Python: a PRINT or WRITE,
whose values the kernel computes and passes to the executor through a ctypes
callback (static storage ``OUTPUT``), and a call of a ``--link`` routine, made
through its ctypes function pointer (static storage ``("X", name, ...)``).
The functions here write that code for a :class:`~.units.KernelTranslator`
(``tr``: its emitter, expressions, module and storage; not imported here, as
that module imports this one).
"""

from __future__ import annotations

from ... import ir
from ..codegen import intrinsic_code as ic
from ..fortran.foreign import RESULT_TYPES, abi_code
from .eligible import io_reason
from .kernelmodule import REAL_KINDS, OUTPUT_FAILED, NotCompiled
from .positions import unsigned
from .statics import OUTPUT

#: numpy's type of a one-element buffer of each ABI code a kernel passes.
_ABI_DTYPES = {"i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "f4": "float32", "f8": "float64",
               "l1": "int8", "l2": "int16", "l4": "int32", "l8": "int64"}


def _from_abi(code: str, abi: str) -> str:
    """A value of ABI code ``abi`` as the kernel's scalar of its type."""
    return f"int({code})" if abi[0] == "i" else f"({code} != 0)" if abi[0] == "l" else code


def write_output(tr: "KernelTranslator", s: ir.Io) -> None:
    """PRINT and WRITE: the kernel computes the values and calls the executor
    back with them (static storage ``OUTPUT``, a ctypes callback: the INTEGER and
    LOGICAL ones in an int64 buffer after the unit, the REAL ones in a float64
    buffer; :meth:`~.kernelmodule.KernelModule.output`), which writes them."""
    why = io_reason(s, tr.unit)
    if why:
        raise NotCompiled(f"line {s.span.first}: {why}")
    if s.kind == "format":
        tr.em("pass")
        return
    em = tr.em
    fmt = tr.format_ref(s)
    ints, reals, items = [tr.ex.int_expr(s.unit) if s.unit is not None else "0"], [], []
    for item in s.items:
        if isinstance(item, ir.Const) and isinstance(item.value, str):
            items.append((None, item.value, "s"))
            continue
        c, t, _ = tr.ex.expr(item)
        kind = ic.io_kind(t)
        into = reals if kind in REAL_KINDS else ints
        items.append((len(into), None, kind))
        into.append(c)
    fmt_obj = None if fmt == "None" else tr.formats[int(fmt[len("_FMT["):-1])]
    k = tr.mod.output(s.unit is not None, fmt_obj, items, em.where)
    ib, fb = em.fresh("ob"), em.fresh("ob")
    em(f"{ib} = np.empty({len(ints)}, np.int64)")
    em(f"{fb} = np.empty({max(len(reals), 1)}, np.float64)")
    for buf, codes in ((ib, ints), (fb, reals)):
        for j, c in enumerate(codes):
            em(f"{buf}[{j}] = {c}")
    em(f"if {tr.mod.static(OUTPUT)}({k}, {ib}.ctypes, {fb}.ctypes) != 0:")
    em(f"    raise JitFault({OUTPUT_FAILED}, 0, 0, 0, -1)")


def call_linked(tr: "KernelTranslator", name: str, result: ir.Type | None, args: tuple[ir.Expr, ...],
                span: ir.Span) -> str:
    """A call of routine ``name`` of the ``--link`` libraries (a FUNCTION of
    type ``result``, a subroutine when None), made from the kernel through
    its ctypes function pointer (static storage ``("X", ...)``), as
    :class:`~autodist.runtime.fortran.foreign.Foreign` calls it: every
    argument by reference — an array from the element passed on, a scalar
    in a one-element buffer of its type whose value a variable takes back.
    Returns the code of the result (None for a subroutine)."""
    em = tr.em
    res = None if result is None else abi_code(result)
    if result is not None and res not in RESULT_TYPES:
        raise NotCompiled(f"a {result} result of --link function {name}")
    pointers, back = [], []
    for k, a in enumerate(args):
        sym = tr.sym(a.name) if isinstance(a, (ir.Name, ir.Index)) else None
        if sym is not None and sym.is_array:
            if sym.type.base not in ("integer", "real") or abi_code(sym.type) is None:
                raise NotCompiled(f"passes {a.name} ({sym.type}) to --link routine {name}")
            if isinstance(a, ir.Name):
                ka = tr.arrays.get(a.name)
                if ka is None:
                    raise NotCompiled(f"array {a.name} is not reachable here")
                pos = ka.off
            else:
                ka, pos = tr.position(a)
            pointers.append(f"{ka.buf}[{unsigned(pos)}:].ctypes")
            continue
        code, t, _ = tr.ex.expr(a)
        abi = abi_code(t)
        if abi is None or abi[0] not in "ifl":
            raise NotCompiled(f"argument {k + 1} ({t}) of --link routine {name}")
        buf = em.fresh("xb")
        em(f"{buf} = np.empty(1, np.{_ABI_DTYPES[abi]})")
        em(f"{buf}[0] = {f'1 if {code} else 0' if abi[0] == 'l' else code}")
        pointers.append(f"{buf}.ctypes")
        if isinstance(a, ir.Name) and tr.assignable(a.name):
            back.append((_from_abi(f"{buf}[0]", abi), a))
    counter = tr.mod.linked_counter(name)
    t0 = em.fresh("t")
    em(f"{t0} = clock(_N)")
    fn = tr.mod.static(("X", name, (res, len(args))))
    r = em.fresh("xr") if res is not None else None
    em(f"{r + ' = ' if r else ''}{fn}({', '.join(pointers)})")
    em(f"_T[{counter}] += clock(_N) - {t0}")
    em(f"_N[{3 + counter}] += 1")
    for code, target in back:
        tr.store_result(code, target)
    if any(t.name in {m for m, _, _ in tr.common_scalars} for _, t in back):
        tr.store_commons()
    return None if r is None else _from_abi(r, res)
