"""autodist: automatic HPF data distribution for Fortran 77.

The pipeline is one-way (see README, "Package layout"):

    frontend -> ir -> analysis -> mapping -> hpf (emit) -> annotated source -> runtime

Every stage takes an immutable value and returns a new one.
"""

__version__ = "0.1.0"
