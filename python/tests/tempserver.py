"""A throwaway PostgreSQL server for the Python tests and benchmarks.

The Python twin of harness/oracle/temp_server.cpp: initdb into a fresh
temporary directory, listen on a Unix socket only (listen_addresses=''), run
as the non-root ``postgres`` user when started by root, and remove every trace
when done -- on exit from the ``with`` block, at interpreter exit, and through
a guardian process when this one is killed (SIGKILL, a ctest timeout).

    with TempServer.start() as server:
        psycopg.connect(server.dsn)

``server_dsn()`` is what a test module uses: $PGCODEC_DSN if set (an existing
server; nothing is started), else a throwaway server started on first use and
stopped at exit.
"""

from __future__ import annotations

import atexit
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["TempServer", "find_server_bindir", "server_dsn"]


def _has_server_binaries(bindir: Path) -> bool:
    return all(os.access(bindir / name, os.X_OK) for name in ("initdb", "postgres"))


def find_server_bindir() -> Path:
    """$PGCODEC_PG_BINDIR, then `pg_config --bindir`, then the newest of
    Debian's /usr/lib/postgresql/N/bin; RuntimeError naming what was tried."""
    tried = []
    env = os.environ.get("PGCODEC_PG_BINDIR")
    if env:
        if _has_server_binaries(Path(env)):
            return Path(env)
        tried.append(f"$PGCODEC_PG_BINDIR={env}")
    try:
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True,
                             check=False).stdout.strip()
    except OSError:
        out = ""
    if out:
        if _has_server_binaries(Path(out)):
            return Path(out)
        tried.append(f"pg_config --bindir ({out})")
    versions = []
    root = Path("/usr/lib/postgresql")
    if root.is_dir():
        for entry in root.iterdir():
            if entry.name.isdigit() and _has_server_binaries(entry / "bin"):
                versions.append((int(entry.name), entry / "bin"))
    if versions:
        return max(versions)[1]
    tried.append("/usr/lib/postgresql/*/bin")
    raise RuntimeError("no PostgreSQL server binaries (initdb, postgres) found; tried: "
                       + "; ".join(tried)
                       + "; install postgresql (ci/setup does), set PGCODEC_PG_BINDIR,"
                       " or point PGCODEC_DSN at a server")


def _tail(path: Path, lines: int = 20) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return f"(no {path.name})"


# The guardian: waits for EOF on its stdin, whose only writer is this
# process, and if the directory is still there stops the server and removes
# it. It runs in its own session so a terminal's ^C reaches it only as EOF.
_GUARDIAN = (
    'cat >/dev/null; if [ -d "$1" ]; then kill -QUIT "$2" 2>/dev/null; i=0; '
    'while kill -0 "$2" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; '
    'kill -KILL "$2" 2>/dev/null; rm -rf "$1"; fi'
)


class TempServer:
    """One throwaway server. Use start(); stop() is idempotent."""

    def __init__(self) -> None:
        self.dir: Path | None = None
        self.dsn = ""
        self.version = ""
        self._postmaster: subprocess.Popen | None = None
        self._guardian: subprocess.Popen | None = None

    @classmethod
    def start(cls) -> "TempServer":
        bindir = find_server_bindir()
        run_as = {}
        uid = gid = None
        if os.geteuid() == 0:
            try:
                pw = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no 'postgres' user to run "
                                   "the server as (the postgresql package creates it)") from None
            uid, gid = pw.pw_uid, pw.pw_gid
            run_as = {"user": uid, "group": gid, "extra_groups": []}
        # A short base keeps the socket path under sun_path's 107 bytes.
        base = os.environ.get("TMPDIR") or "/tmp"
        if len(base) >= 60:
            base = "/tmp"
        server = cls()
        server.dir = Path(tempfile.mkdtemp(prefix="pgcodec-pg-", dir=base))
        try:
            if uid is not None:
                os.chown(server.dir, uid, gid)
            data = server.dir / "data"
            initdb_log = server.dir / "initdb.log"
            with open(initdb_log, "wb") as log:
                rc = subprocess.run(
                    [str(bindir / "initdb"), "-D", str(data), "-E", "UTF8", "--locale=C",
                     "-U", "postgres", "--auth=trust", "--no-sync"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    cwd=server.dir, check=False, **run_as).returncode
            if rc != 0:
                raise RuntimeError(f"initdb failed (exit {rc}):\n{_tail(initdb_log)}")
            server_log = server.dir / "server.log"
            with open(server_log, "wb") as log:
                server._postmaster = subprocess.Popen(
                    [str(bindir / "postgres"), "-D", str(data), "-c", "listen_addresses=",
                     "-c", f"unix_socket_directories={server.dir}", "-c", "port=5432",
                     "-c", "fsync=off", "-c", "synchronous_commit=off",
                     "-c", "full_page_writes=off", "-c", "max_connections=40"],
                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    cwd=server.dir, start_new_session=True, **run_as)
            server._guardian = subprocess.Popen(
                ["/bin/sh", "-c", _GUARDIAN, "pgcodec-guardian", str(server.dir),
                 str(server._postmaster.pid)],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                cwd="/", start_new_session=True)
            server.dsn = f"host={server.dir} port=5432 user=postgres dbname=postgres"
            server._wait_ready(bindir, server_log)
            server.version = (data / "PG_VERSION").read_text().strip()
        except BaseException:
            server.stop()
            raise
        atexit.register(server.stop)
        return server

    def _wait_ready(self, bindir: Path, log: Path) -> None:
        socket = self.dir / ".s.PGSQL.5432"
        deadline = time.monotonic() + 60
        while True:
            if socket.exists():
                rc = subprocess.run([str(bindir / "pg_isready"), "-q", "-h", str(self.dir),
                                     "-p", "5432"], check=False).returncode
                if rc == 0:
                    return
            if self._postmaster.poll() is not None:
                raise RuntimeError(f"the server exited during start-up:\n{_tail(log)}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server did not accept connections within 60 s:\n"
                                   f"{_tail(log)}")
            time.sleep(0.05)

    def stop(self) -> None:
        """Fast shutdown (SIGINT: disconnect clients, exit), SIGKILL after 15 s,
        then remove the directory."""
        if self._postmaster is not None:
            if self._postmaster.poll() is None:
                self._postmaster.send_signal(signal.SIGINT)
                try:
                    self._postmaster.wait(15)
                except subprocess.TimeoutExpired:
                    self._postmaster.kill()
                    self._postmaster.wait()
            self._postmaster = None
        if self.dir is not None:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None
        if self._guardian is not None:
            self._guardian.stdin.close()
            self._guardian.wait()
            self._guardian = None

    def __enter__(self) -> "TempServer":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


_shared: TempServer | None = None


def server_dsn() -> str:
    """$PGCODEC_DSN, else the DSN of a throwaway server shared by this process
    (started on first call, stopped at exit)."""
    global _shared
    env = os.environ.get("PGCODEC_DSN")
    if env:
        return env
    if _shared is None:
        _shared = TempServer.start()
    return _shared.dsn


def stop_shared() -> None:
    """Stops the shared server now (tearDownModule); the next server_dsn()
    starts a new one."""
    global _shared
    if _shared is not None:
        _shared.stop()
        _shared = None


if __name__ == "__main__":
    # A quick self-check: start, query, stop, and leave nothing behind.
    import sys
    with TempServer.start() as s:
        where = s.dir
        out = subprocess.run([str(find_server_bindir() / "psql"), s.dsn, "-Atc",
                              "SELECT version()"], capture_output=True, text=True, check=True)
        print(out.stdout.strip())
    sys.exit(0 if not where.exists() else 1)
