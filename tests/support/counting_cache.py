"""A read cache for tests that says which reads it had to do: the `cached` loader the engine's board reads take."""

from __future__ import annotations

from typing import Any, Callable


class CountingCache:
    """Keeps each key's value; `loads` names (by the key's first part) every read it could not serve from memory."""

    def __init__(self) -> None:
        self.kept: dict[Any, Any] = {}
        self.loads: list[Any] = []

    def __call__(self, key: tuple, load: Callable[[], Any]) -> Any:
        if key not in self.kept:
            self.loads.append(key[0])
            self.kept[key] = load()
        return self.kept[key]
