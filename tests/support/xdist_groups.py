"""`--dist loadgroup` that keeps a group on one xdist worker again: the groups travel in a file, not in node ids.

pytest-xdist 3.8 tells its scheduler a test's group (`@pytest.mark.xdist_group`) by appending `@group` to
`item._nodeid` on the worker. pytest 9.2 no longer reads a node's id from `_nodeid` (it keeps a structured
`_id`), so the suffix never reached the scheduler: every test was scheduled on its own, and a module's
module-scoped fixture (an app server, a data folder built with the real engine) was set up on both workers,
and set up again whenever a worker's next test came from another module.

Here each worker writes the group of every test it collected ({node id: group}) to a file the controller
names in the worker's `workerinput`, and the controller's scheduler (xdist's `LoadScopeScheduling`, whose
scope of a test is its group, else the test alone) reads it once all workers have collected.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from xdist.scheduler import LoadScopeScheduling

GROUPS_FILE = "xdist_groups_file"
"""The `workerinput` key naming the file of groups."""
_FOLDER = pytest.StashKey[Path]()


def group_of(item: pytest.Item) -> str | None:
    """The test's group as `--dist loadgroup` names it (several marks: their names joined), None without one."""
    names = {str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
             for mark in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) or None


def groups_file(config: pytest.Config) -> Path:
    """(On the controller) the file the workers write the groups to, in a folder made on first use."""
    if _FOLDER not in config.stash:
        config.stash[_FOLDER] = Path(tempfile.mkdtemp(prefix="xdist-groups-"))
    return config.stash[_FOLDER] / "groups.json"


def name_groups_file(config: pytest.Config, workerinput: dict) -> None:
    """(On the controller, for each worker) tell the worker where to write the groups."""
    workerinput[GROUPS_FILE] = str(groups_file(config))


def write_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """(On a worker) write every collected test's group; the workers collect alike, so either file is right."""
    path = getattr(config, "workerinput", {}).get(GROUPS_FILE)
    if path is None:
        return
    groups = {item.nodeid: group for item in items if (group := group_of(item)) is not None}
    written = Path(f"{path}.{os.getpid()}")
    written.write_text(json.dumps(groups), encoding="utf-8")
    os.replace(written, path)  # whole or not at all, whichever worker writes last


def remove_groups_file(config: pytest.Config) -> None:
    """(On the controller) remove the folder of the groups file, if one was made."""
    if _FOLDER in config.stash:
        shutil.rmtree(config.stash[_FOLDER], ignore_errors=True)


class GroupScheduling(LoadScopeScheduling):
    """xdist's scope scheduling with a test's scope read from the workers' groups file: its group, else itself."""

    def __init__(self, config: pytest.Config, log: object = None) -> None:
        super().__init__(config, log)  # type: ignore[arg-type]
        self._groups_path = groups_file(config)
        self._groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._groups is None:  # first asked once every worker has collected, so written by then
            self._groups = json.loads(self._groups_path.read_text(encoding="utf-8"))
        return self._groups.get(nodeid, nodeid)
