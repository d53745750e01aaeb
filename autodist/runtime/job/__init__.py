"""The job: launching ranks, one run, its report, verification, profiling, the API for other commands."""
