"""``python -m regiment.tools.cli``: the command line."""

from . import main

raise SystemExit(main())
