"""Test configuration: Hypothesis profiles.

- ``ci`` (the default): derandomized, 200 examples a property, no deadline, failing examples printed as blobs.
- ``dev``: more, random examples; select it with ``HYPOTHESIS_PROFILE=dev``.

The random-tree strategies and the reference implementation live in ``tests/strategies.py``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=200,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _show_tree(node: object, printer: object, cycle: bool) -> None:
    """Print trees in failing examples as their notation, not as nested dataclass fields."""
    from expectviz.notation import to_text

    try:
        text = f"parse({to_text(node)!r})"  # type: ignore[arg-type]
    except Exception:  # an unchecked tree the printer cannot write
        text = repr(node)
    printer.text(text)  # type: ignore[attr-defined]


try:
    from hypothesis.vendor import pretty as _pretty

    _pretty.for_type_by_name("expectviz.tree", "Node", _show_tree)
except (ImportError, AttributeError):  # pragma: no cover - a Hypothesis without this hook
    pass
