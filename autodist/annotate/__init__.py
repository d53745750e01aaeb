"""Annotating a plan: the layer above :mod:`autodist.mapping` that joins the
optimizer's decisions to the HPF language in :mod:`autodist.hpf`.

:mod:`.source` writes a solution into the original source as HPF directives;
:mod:`.written` reads the mapping a program's own directives describe (as
constraints for the optimizer, or evaluated as they stand by
``compare --as-written``).
"""
