"""`autodist profiles`: list the bundled machine profiles."""

from __future__ import annotations

from ..machine import DEFAULT_PROFILE, bundled_profiles, load_profile


def configure(parser) -> None:
    pass


def run(args) -> int:
    rows = []
    for path in bundled_profiles():
        prof = load_profile(path)
        rows.append((path.stem + (" (default)" if path.stem == DEFAULT_PROFILE else ""), prof))
    width = max(len(name) for name, _ in rows)
    print(f"{'profile':<{width}}  procs  model              description")
    for name, prof in rows:
        print(f"{name:<{width}}  {prof.processors:>5}  {prof.communication_model:<17}  {prof.description}")
    return 0
