"""Writing output files safely: never a half-written file, never the input."""

from __future__ import annotations

from pathlib import Path


def write_atomically(path: Path, lines: tuple[str, ...]) -> None:
    """Write ``lines`` to ``path`` through a temporary file and a rename."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=str(path.parent))
    text = "".join(line if line.endswith(("\n", "\r")) else line + "\n" for line in lines)
    try:
        with os.fdopen(fd, "w", newline="") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
