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

Text values at C speed: psycopg2 decodes a value with the connection's
codec before a Python typecaster sees it (typecast.c), and for a codec other
than UTF-8 and Latin-1 that costs a bytes object, a Python call and a tuple
per value. install(connection) also registers on the connection typecasters
for text, varchar, bpchar, name, "char" and unknown (and their arrays) whose
C cast function is pgcodec's: psycopg2's fetch loop then hands pgcodec the
raw bytes, one C call a value. (Arrays of them are psycopg2's own parser
over those casts, except where a character's trail byte can be a backslash,
a quote, a brace or a comma -- SJIS, SHIFT_JIS_2004, BIG5, GBK, GB18030 --
which psycopg2's parser, splitting the encoded literal, misreads:
there a Python typecaster gets the whole literal decoded and parses it as a
str, as the server does; see pgcodec.drivers._arrays.) The cast decodes with the Codec of the
connection's current codec (so it follows set_client_encoding() where that
codec is pgcodec's, and gives psycopg2's own answer where it is not). psycopg2
has no C API for this: the setup finds the typecaster's, cursor's and
connection's fields by pointer identity on live objects and refuses (leaving
the codec route above, which is exact too) when they are not laid out as in
psycopg2 2.0-2.9. text_casts_in_c(connection) says which one a connection got.
UTF8 and LATIN1 connections keep psycopg2's own C decoders (PyUnicode_Decode-
UTF8 / Latin1), which need no such help.

Scope: psycopg2 keeps the codec in the connection, so the finest scope is a
connection; a cursor means its connection. A per-connection install lasts
until the connection's next set_client_encoding(), which looks the codec up
again (install() globally to cover that). psycopg2 does not notice a
SET client_encoding sent as SQL (it keeps its codec; the next query is
encoded wrongly): use connection.set_client_encoding().
"""

from __future__ import annotations

import codecs
import contextlib
import weakref
from typing import Any, Iterator, Optional

import pgcodec
import psycopg2
import psycopg2.extensions as _ext
from pgcodec import _pgcodec

from . import UnsupportedEncoding
from ._arrays import ASCII_SYNTAX_TRAIL_ENCODINGS, parse_text_array

__all__ = ["install", "uninstall", "codec_name", "text_casts_in_c", "UnsupportedEncoding"]

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


# psycopg2's text oids (its STRING and UNICODE typecasters, and unknown), and
# their arrays' oids.
TEXT_OIDS = (25, 1043, 1042, 19, 18, 705)
TEXT_ARRAY_OIDS = (1009, 1015, 1014, 1003, 1002)

_in_c: "weakref.WeakSet[Any]" = weakref.WeakSet()


def _never_called(value: Any, cursor: Any) -> Any:
    raise RuntimeError("pgcodec: psycopg2 called the Python cast of a typecaster whose C cast is set")


def _text_array_cast(value: Optional[str], cursor: Any) -> Optional[list]:
    # psycopg2 hands a Python cast the literal decoded with the connection's
    # codec (pgcodec's, after install): parsed here as a str.
    return None if value is None else parse_text_array(value, str, psycopg2.DataError)


_TEXT_ARRAY = _ext.new_type(TEXT_ARRAY_OIDS, "PGCODEC_TEXTARRAY_STR", _text_array_cast)


def _register_text_casts(conn: Any) -> bool:
    """Registers the C-cast text typecasters on conn, whose codec is pgcodec's;
    False (nothing registered) if psycopg2's layout is not the expected one."""
    decoder = codecs.getdecoder(codec_name(pgcodec.lookup(conn.encoding).name))
    text = _ext.new_type(TEXT_OIDS, "PGCODEC_TEXT", _never_called)
    with conn.cursor() as cur:
        if not _pgcodec._psycopg2_text_cast(text, text.name, text.values, _never_called, cur, decoder,
                                            _ext.UNICODE):
            return False
    _ext.register_type(text, conn)
    if pgcodec.lookup(conn.encoding).name not in ASCII_SYNTAX_TRAIL_ENCODINGS:
        _ext.register_type(_ext.new_array_type(TEXT_ARRAY_OIDS, "PGCODEC_TEXTARRAY", text), conn)
    _in_c.add(conn)
    return True


def text_casts_in_c(conn: Any) -> bool:
    """Whether install(conn) gave conn the C-cast text typecasters."""
    return conn in _in_c


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
    name = pgcodec.lookup(enc).name
    if name not in ("UTF8", "LATIN1", "SQL_ASCII") and conn not in _in_c:
        _register_text_casts(conn)
    if name in ASCII_SYNTAX_TRAIL_ENCODINGS:
        _ext.register_type(_TEXT_ARRAY, conn)


def uninstall() -> None:
    """Puts psycopg2's own encoding table back (connections keep the codec
    they have until their next set_client_encoding())."""
    global _saved
    if _saved is not None:
        _ext.encodings.clear()
        _ext.encodings.update(_saved)
        _saved = None
