"""A real PostgreSQL server for the tests and ``make load``: Debian's ``postgresql`` package,
started in a temporary directory on a free port, as an unprivileged user where the tests run
as root (PostgreSQL refuses to run as root), and stopped after. ``make test`` installs the
package where it is missing; ``REGIMENT_NO_POSTGRES=1`` leaves out the tests that need it."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

SKIP = "REGIMENT_NO_POSTGRES"


def _binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempPostgres:
    """``with TempPostgres() as pg: pg.url``; ``pg.fresh()`` is the URL of a new schema, so
    that each test has empty tables without a new database."""

    def __init__(self) -> None:
        initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
        if not initdb or not pg_ctl:
            raise RuntimeError("PostgreSQL is not installed (Debian's postgresql package: "
                               "`make test` installs it; REGIMENT_NO_POSTGRES=1 skips its tests)")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.dir = Path(tempfile.mkdtemp(prefix="regiment-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.user: str | None = "nobody" if os.geteuid() == 0 else None
        self.url = f"postgresql://regiment@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str) -> None:
        cmd = list(argv)
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, cwd=self.dir)
        if done.returncode:
            raise RuntimeError(f"{' '.join(argv[:2])} failed: {done.stderr.strip()[-600:]}")

    def start(self) -> TempPostgres:
        if self.user:
            shutil.chown(self.dir, self.user)
            os.chmod(self.dir, 0o700)
        self._run(self.initdb, "-D", str(self.data), "-U", "regiment", "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")
        # fsync off: the tests never lose the machine, only the server process; commits stay
        # synchronous, so that a server killed with -m immediate keeps every commit it made
        self.options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                        "-c fsync=off -c full_page_writes=off -c max_connections=300")
        self._run(self.pg_ctl, "-D", str(self.data), "-o", self.options, "-l",
                  str(self.dir / "log"), "-w", "-t", "60", "start")
        return self

    def restart(self, down: float = 0.0) -> None:
        """A crash and a restart of the database (``-m immediate``: no shutdown checkpoint,
        every connection cut), with ``down`` seconds in between."""
        import time

        self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        time.sleep(down)
        self._run(self.pg_ctl, "-D", str(self.data), "-o", self.options, "-l",
                  str(self.dir / "log"), "-w", "-t", "60", "start")

    def fresh(self) -> str:
        """The URL of an empty schema of its own."""
        import psycopg

        name = "t" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return f"{self.url}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():   # (a test may have stopped it)
                self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> TempPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
