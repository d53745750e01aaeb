"""Owner computes, shared by the cost model and the runtime.

Which iterations of each statement a rank executes under a mapping
(:mod:`.iterations`), the index sets its references then touch
(:mod:`.images`), and what it reads but does not hold (:mod:`.needs`).  The
optimizer (:mod:`autodist.mapping`) counts these; the runtime
(:mod:`autodist.runtime`) executes and receives exactly them.  This layer
imports only :mod:`autodist.ir`, :mod:`autodist.analysis` and
:mod:`autodist.layout`.
"""
