"""Imported by ``simulate``'s fork server before it forks a worker: every rulebook loaded once
(its machine, geometry, numpy, shapely), so that each worker plays its first game at once."""

from __future__ import annotations

from regiment.core.geometry import lazy_shapely
from regiment.core.protocols import PRESETS
from regiment.phases import PRESETS as _registered  # noqa: F401 - registers the presets

PRESETS.load_all()
lazy_shapely.load()   # imported when a shape is first asked; every worker's games ask one
