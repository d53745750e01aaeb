"""The intermediate representation and the services every stage uses on it.

* :mod:`.nodes` -- the frozen dataclasses the front end builds for expressions
  and statements; :mod:`.units` -- those for declarations, program units and
  the program;
* :mod:`.kinds` -- the kinds they carry, as string enums (:class:`Op`,
  :class:`UnaryOp`, :class:`FuncKind`, :class:`IoKind`, :class:`SymbolKind`,
  :class:`UnitKind`);
* :mod:`.queries` -- the walker, the transformer and the common queries (names, labels, jump
  targets, mentions);
* :mod:`.commons` -- COMMON blocks across units: declared alike, or storage
  associated (declared differently somewhere);
* :mod:`.evaluate` -- the one evaluator of integer expressions and affine forms,
  with Fortran semantics.

Everything is re-exported here: ``from autodist import ir; ir.Do``.
"""

from .evaluate import (
    Affine,
    IntEvaluator,
    affine,
    constant,
    eval_affine,
    int_intrinsic,
    int_mod,
    int_power,
    int_value,
    trips,
    trunc_div,
)
from .commons import WHOLE_BLOCK, AssociatedBlock, CommonLayouts, Slot, block_label, common_layouts
from .kinds import FuncKind, IoKind, Kind, Op, SymbolKind, UnaryOp, UnitKind
from .nodes import *  # noqa: F401,F403
from .nodes import __all__ as _nodes_all
from .units import *  # noqa: F401,F403
from .units import __all__ as _units_all
from .queries import (
    array_refs,
    assigned_name,
    branch_targets,
    external_calls,
    free_names,
    jump_targets,
    labels,
    map_exprs,
    map_nodes,
    mentions,
    names,
    stmt_exprs,
    stmt_names,
    stmts_mention,
    walk,
)

__all__ = list(_nodes_all) + list(_units_all) + [
    # commons
    "WHOLE_BLOCK", "AssociatedBlock", "CommonLayouts", "Slot", "block_label", "common_layouts",
    # kinds
    "FuncKind", "IoKind", "Kind", "Op", "SymbolKind", "UnaryOp", "UnitKind",
    # evaluate
    "Affine", "IntEvaluator", "affine", "constant", "eval_affine", "int_intrinsic", "int_mod",
    "int_power", "int_value", "trips", "trunc_div",
    # queries
    "array_refs", "assigned_name", "branch_targets", "external_calls", "free_names", "jump_targets", "labels", "map_exprs", "map_nodes", "mentions", "names",
    "stmt_exprs", "stmt_names", "stmts_mention", "walk",
]
