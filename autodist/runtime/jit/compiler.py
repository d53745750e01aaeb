"""Generated kernel modules: written once to the cache, imported, compiled by numba.

numba caches a compiled function next to the file that defines it, keyed by
that file's path and time stamp, so a kernel's source must live in a real
file that never changes.  :class:`Module` writes each generated module to
``$AUTODIST_CACHE/jit`` (else ``~/.cache/autodist/jit``) under the hash of
its text, once (created whole by a hard link, never rewritten, so that ranks
writing the same module at the same time leave one file), and imports it
when a kernel of it is first needed;
numba's own cache then sits in the folder's ``__pycache__``, and a second
run of the same program loads every kernel instead of compiling it; a kernel
numba could not compile is recorded beside it (``.failed``, with the reason),
and later runs take the other path at once instead of failing again.  The
text starts with a stamp of the helpers' source and of the numba and numpy
versions, so that changing either makes new files rather than stale hits.
The ranks of a job run the same program and want the same kernels at about
the same time: :meth:`Module.compiling` lets one process compile a module's
kernels at a time (a lock file beside the module), so that the others then
load what it saved instead of each compiling it again on the same cores.

:func:`numba_missing` says why compiled execution is not available (numba
not importable), without importing numba when it is not wanted.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from types import ModuleType

from .check import HELPER_NAMES, LIBM_NAMES


@lru_cache(maxsize=None)
def numba_missing() -> str | None:
    """None when numba is installed, else why compiled execution is off (one line).
    Importing numba takes a few tenths of a second: it happens when a kernel is
    first needed, and a numba that fails then leaves the other paths running
    (the report says why)."""
    if importlib.util.find_spec("numba") is None:
        return "numba is not installed: compiled execution is off"
    return None


def cache_dir() -> Path:
    """Where generated modules and numba's cache go (created if needed)."""
    return _cache_dir(os.environ.get("AUTODIST_CACHE"))


@lru_cache(maxsize=None)
def _cache_dir(base: str | None) -> Path:
    root = Path(base) if base else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "autodist"
    folder = root / "jit"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
    except OSError:  # not writable: a folder of this process (nothing is kept across runs)
        folder = Path(tempfile.mkdtemp(prefix="autodist-jit-"))
    return folder


@lru_cache(maxsize=None)
def _stamp() -> str:
    from importlib.metadata import version

    helpers = Path(__file__).with_name("helpers.py").read_bytes()
    digest = hashlib.sha256(helpers).hexdigest()[:16]
    return f"# autodist kernels: helpers {digest}, numba {version('numba')}, numpy {version('numpy')}\n"


def header() -> str:
    """The lines every generated module starts with."""
    names = ", ".join(sorted((HELPER_NAMES | LIBM_NAMES) - {"np"}))
    return _stamp() + "import numpy as np\n" + f"from autodist.runtime.jit.helpers import ({names})\n\n"


class Module:
    """A generated module: its text and hash now, the imported module (and numba)
    when first needed (:meth:`load`)."""

    _loaded: dict[str, ModuleType] = {}

    def __init__(self, body: str):
        self.text = header() + body
        self.digest = hashlib.sha256(self.text.encode()).hexdigest()[:24]
        self._warm: dict[str, bool] = {}
        self._failed: dict[str, str] = {}

    def warm(self, name: str) -> bool:
        """Whether a run before this one compiled function ``name`` of the module
        (numba's cache has it: loading it costs little); asked once per run."""
        if name not in self._warm:
            self._warm[name] = (cache_dir() / f"k{self.digest}.{name}.ok").exists()
        return self._warm[name]

    def wanted(self, name: str) -> bool:
        """Whether a run before this one spent long enough in function ``name``
        uncompiled to want it compiled from the start (see :meth:`want`)."""
        key = f"?{name}"
        if key not in self._warm:
            self._warm[key] = (cache_dir() / f"k{self.digest}.{name}.hot").exists()
        return self._warm[key]

    def want(self, name: str) -> None:
        """Record that ``name`` ran ``--jit-after`` seconds uncompiled without being
        compiled in this run (a routine called once, a phase that runs once): the
        next run compiles it before it first runs, and the runs after that load it."""
        if self._warm.get(f"?{name}"):
            return
        self._warm[f"?{name}"] = True
        try:
            (cache_dir() / f"k{self.digest}.{name}.hot").touch()
        except OSError:
            pass

    def failure(self, name: str) -> str:
        """Why numba could not compile function ``name`` in a run before this one
        ("" if none failed): the same text fails the same way, and a failure can
        take numba minutes (a long procedure), so it is tried once, not every run."""
        if name not in self._failed:
            try:
                self._failed[name] = (cache_dir() / f"k{self.digest}.{name}.failed").read_text().strip()
            except OSError:
                self._failed[name] = ""
        return self._failed[name]

    def fail(self, name: str, why: str) -> None:
        """Record that numba could not compile ``name`` (see :meth:`failure`)."""
        self._failed[name] = why
        try:
            (cache_dir() / f"k{self.digest}.{name}.failed").write_text(why + "\n")
        except OSError:
            pass

    def compiled(self, name: str) -> None:
        """Record that ``name`` is now in numba's cache (see :meth:`warm`)."""
        try:
            (cache_dir() / f"k{self.digest}.{name}.ok").touch()
        except OSError:
            pass

    @contextmanager
    def compiling(self, shared: bool = False):
        """Held while numba compiles (or loads) a kernel: one process at a time,
        waiting for the one before (whose work it then finds in the cache);
        ``shared``: only loading a kernel a run before compiled, which any number
        of processes may do at once, none compiling meanwhile.  One
        lock for the whole cache, not one per module: the kernels of every module
        call the same helpers (:mod:`.helpers`), whose specializations numba adds
        to one index on disk that two processes must not write at once (4 ranks
        compiling different kernels made numba fail to type a helper call)."""
        try:
            import fcntl
            f = open(cache_dir() / "compiling.lock", "a")
        except (ImportError, OSError):  # no locks here: each process compiles on its own
            yield
            return
        with f:
            fcntl.flock(f, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(f, fcntl.LOCK_UN)

    def load(self) -> ModuleType:
        module = self._loaded.get(self.digest)
        if module is not None:
            return module
        folder = cache_dir()
        path = folder / f"k{self.digest}.py"
        if not path.exists():
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".k", suffix=".py")
            with os.fdopen(fd, "w") as f:
                f.write(self.text)
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
            finally:
                os.unlink(tmp)
        name = f"autodist_kernels_{self.digest}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        self._loaded[self.digest] = module
        return module

    def function(self, name: str):
        return getattr(self.load(), name)
