"""SPMD execution: the executor, the program's arrays, the planning and running of loop phases."""
