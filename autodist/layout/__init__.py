"""The HPF data layout of arrays and its index mathematics.

``model`` says where each element of an array lives (template, alignment,
distribution, processor arrangement); the other modules are pure functions on
it: ownership and global/local index maps in closed form, section
intersections, and exact communication volumes.  Both the cost model
(:mod:`autodist.mapping`) and the runtime (:mod:`autodist.runtime`) use them, so
the volume autodist predicts is the volume the runtime sends.
"""
