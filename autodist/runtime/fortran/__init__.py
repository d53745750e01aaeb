"""Fortran semantics the generated code runs against: arithmetic, intrinsics, formatted I/O."""
