"""``python -m autodist ...`` (used under ``mpiexec`` on clusters)."""

import sys

from .cli import main

sys.exit(main())
