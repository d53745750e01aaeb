"""One module per CLI command: ``configure(parser)`` and ``run(args) -> int``.

Commands only parse options, call the pipeline's pure functions and print; the
work lives in the stage packages.
"""
