"""Code generation: Fortran procedures and loop phases as Python source."""
