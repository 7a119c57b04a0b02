"""Imported by ``simulate``'s fork server before it forks a worker: every rulebook loaded once
(its machine, geometry, numpy, shapely), so that each worker plays its first game at once."""

from __future__ import annotations

from regiment.core.protocols import PRESETS
from regiment.phases import PRESETS as _registered  # noqa: F401 - registers the presets

PRESETS.load_all()
