"""What a generated kernel module refers to that a kernel cannot run.

The translators of compiled code reuse the Python path's expression and
statement writers, which reach for Python objects wherever Fortran needs
them (strings, complex numbers, the executor, the I/O helpers).
:func:`foreign_names` reads the generated source back and lists every
global name, attribute and call outside what kernels have: their own module's
functions and locals, the helpers of :mod:`.helpers`, a few builtins and
numpy functions.  A unit or phase whose source names one is not compiled.
"""

from __future__ import annotations

import ast

#: Names of :mod:`.helpers` that kernels use (kept in step with its ``HELPERS``; the
#: helpers module itself imports numba, this one must not).
HELPER_NAMES = frozenset({
    "i4", "i8", "idiv_at", "imod_at", "ipow_at", "isign", "ishft", "btest", "ibits", "ishift", "ddiv",
    "rmod", "rmod8", "rsign", "dim", "nint", "aint", "anint", "powi", "imodulo_at", "rmodulo", "rmodulo8", "at", "check", "span_check",
    "clip", "values_in", "member", "m_sqrt8", "rd", "wr", "clock", "timeup", "JitFault", "JitStop", "ZERO4", "ONE4", "F4", "np", "njit",
})
_LIBM = ("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "exp", "log", "log10",
         "erf", "erfc", "tgamma", "lgamma", "asinh", "acosh", "atanh", "j0", "j1", "y0", "y1",
         "atan2", "pow", "hypot")
LIBM_NAMES = frozenset(f"m_{b}{k}" for b in _LIBM for k in "48")
BUILTINS = frozenset({"int", "float", "bool", "abs", "max", "min", "range", "len", "True", "False", "None"})
NUMPY = frozenset({"float32", "float64", "int32", "int64", "uint64", "int8", "int16", "bool_", "sqrt", "abs", "trunc",
                   "empty", "zeros", "fmod", "copysign"})
#: Attributes of kernel values (ranges, arrays) the generated code reads.
ATTRIBUTES = frozenset({"start", "step", "stop", "size", "shape", "dtype", "ctypes"})


def foreign_names(source: str, known: frozenset[str] = frozenset()) -> list[str]:
    """The names ``source`` uses that a kernel does not have (sorted), besides
    ``known`` (the module's other globals)."""
    tree = ast.parse(source)
    defined = set(known)
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.Assign)):
            defined |= {node.name} if isinstance(node, ast.FunctionDef) else {
                t.id for t in node.targets if isinstance(t, ast.Name)}
    allowed = HELPER_NAMES | LIBM_NAMES | BUILTINS | defined
    bad: set[str] = set()
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef)):
        local = {a.arg for a in fn.args.args}
        local |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for n in ast.walk(fn):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in local and n.id not in allowed:
                bad.add(n.id)
            elif isinstance(n, ast.Attribute):
                if isinstance(n.value, ast.Name) and n.value.id == "np":
                    if n.attr not in NUMPY:
                        bad.add(f"np.{n.attr}")
                elif n.attr not in ATTRIBUTES:
                    bad.add(f".{n.attr}")
            elif isinstance(n, ast.With):
                bad.add("With")
            elif isinstance(n, (ast.NamedExpr, ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.Try,
                                ast.JoinedStr, ast.Dict, ast.Set)):
                bad.add(type(n).__name__)
            elif isinstance(n, ast.Constant) and isinstance(n.value, (str, complex, bytes)):
                bad.add("a string" if isinstance(n.value, (str, bytes)) else "a complex constant")
    return sorted(bad)
