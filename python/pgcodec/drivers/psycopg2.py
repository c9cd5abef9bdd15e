"""pgcodec for psycopg2: every decode and encode psycopg2 does, through pgcodec.

    import psycopg2, pgcodec.drivers.psycopg2
    pgcodec.drivers.psycopg2.install()          # global: connections made from now on
    pgcodec.drivers.psycopg2.install(conn)      # one connection (or a cursor's connection)

The mechanism: psycopg2 turns a PostgreSQL encoding name into a Python codec
name through the public dict psycopg2.extensions.encodings, and resolves
that codec once per connection (at connect and at set_client_encoding()),
then uses it for everything: the query text, str parameters, column names,
messages and the text values of every type. install() points that dict at
pgcodec's codecs ("pgcodec-sjis", registered by pgcodec.register()), so the
connection's one cached codec is pgcodec's. It also makes EUC_TW usable,
which psycopg2 refuses ("no Python encoding"), and MULE_INTERNAL where the
database's encoding converts to it.

Why not typecasters: psycopg2 decodes a value with the connection's codec
before a Python typecaster sees it (typecast.c: a Python typecaster gets a
str), so a typecaster cannot read the raw bytes; with the wrong codec they
are already misread or rejected.

Scope: psycopg2 keeps the codec in the connection, so the finest scope is a
connection; a cursor means its connection. A per-connection install lasts
until the connection's next set_client_encoding(), which looks the codec up
again (install() globally to cover that). psycopg2 does not notice a
SET client_encoding sent as SQL (it keeps its codec; the next query is
encoded wrongly): use connection.set_client_encoding().
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

import pgcodec
import psycopg2
import psycopg2.extensions as _ext

from . import UnsupportedEncoding

__all__ = ["install", "uninstall", "codec_name", "UnsupportedEncoding"]

_saved: Optional[dict] = None  # psycopg2's own table, while installed globally


def codec_name(pg_name: str) -> str:
    """The Python codec name pgcodec.register() serves for a PostgreSQL name."""
    return "pgcodec-" + pg_name.lower()


def _pgcodec_table() -> dict:
    """psycopg2's keys (its aliases and spellings) plus pgcodec's 42 names, each
    mapped to the pgcodec codec of the encoding it names."""
    table = {}
    for key in list(_saved if _saved is not None else _ext.encodings):
        try:
            table[key] = codec_name(pgcodec.lookup(key).name)
        except LookupError:
            pass  # psycopg2 knows a spelling PostgreSQL does not: keep psycopg2's
    for name in pgcodec.encodings():
        table[name] = codec_name(name)
        table[name.replace("_", "")] = codec_name(name)  # psycopg2 strips '_' and '-'
    return table


@contextlib.contextmanager
def _patched() -> Iterator[None]:
    before = dict(_ext.encodings)
    _ext.encodings.update(_pgcodec_table())
    try:
        yield
    finally:
        _ext.encodings.clear()
        _ext.encodings.update(before)


def install(scope: Any = None) -> None:
    """scope None: every connection made (or set_client_encoding()) from now
    on uses pgcodec; existing connections keep their codec until their next
    set_client_encoding(). scope a connection or cursor: that connection now.

    A connection must not be in a transaction: re-resolving psycopg2's codec
    takes set_client_encoding(), which would end it; that raises
    psycopg2.ProgrammingError instead."""
    global _saved
    pgcodec.register()
    if scope is None:
        if _saved is None:
            _saved = dict(_ext.encodings)
            _ext.encodings.update(_pgcodec_table())
        return
    conn = getattr(scope, "connection", scope) if isinstance(scope, _ext.cursor) else scope
    if not isinstance(conn, _ext.connection):
        raise TypeError(f"install() needs a psycopg2 connection or cursor, not {type(scope).__name__}")
    if conn.get_transaction_status() != _ext.TRANSACTION_STATUS_IDLE:
        raise psycopg2.ProgrammingError(
            "pgcodec.drivers.psycopg2.install(connection): the connection is in a transaction; "
            "commit or roll back first (switching its codec takes set_client_encoding())")
    enc = conn.encoding
    try:
        pgcodec.lookup(enc)
    except LookupError:
        raise UnsupportedEncoding(f"psycopg2: client_encoding {enc!r} has no pgcodec codec") from None
    with _patched():
        # psycopg2 skips set_client_encoding() to the encoding it has, so step
        # through another one: UTF8, or SQL_ASCII when UTF8 is current.
        conn.set_client_encoding("SQL_ASCII" if enc == "UTF8" else "UTF8")
        conn.set_client_encoding(enc)


def uninstall() -> None:
    """Puts psycopg2's own encoding table back (connections keep the codec
    they have until their next set_client_encoding())."""
    global _saved
    if _saved is not None:
        _ext.encodings.clear()
        _ext.encodings.update(_saved)
        _saved = None
