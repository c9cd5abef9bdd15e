"""pgcodec for psycopg 3: text loaders and str dumpers.

    import psycopg, pgcodec.drivers.psycopg
    conn = psycopg.connect(dsn, client_encoding="SJIS")
    pgcodec.drivers.psycopg.install(conn)     # or a cursor, or an AdaptersMap

Values of the text types (text, varchar, bpchar, name, "char", unknown, and
every type psycopg has no loader for, which it loads as text) are decoded,
and str parameters encoded, with the pgcodec Codec of the connection's
current client_encoding. Arrays of them: in binary format psycopg's array
loaders and dumpers ask the context for the element's; in text format
pgcodec parses and builds the literal as a str, since psycopg's work on the
encoded bytes and take a trail byte 0x5C for a backslash.

When the codec is resolved: psycopg makes loader and dumper instances per
Transformer, that is per query (a cursor makes a new Transformer for each
execute(), unless the same query object is executed again) and per
oid/format. Loaders read client_encoding from libpq (PQparameterStatus,
which follows every SET client_encoding the server reports) once per
result, dumpers once per instance, and take the Codec from a dict keyed by
that value; a value then costs one call of the cached Codec's decode or
encode.

COPY in text form: psycopg escapes each value's bytes (and reads escapes)
byte by byte, so in the client-only encodings, whose trail bytes may be
0x5C, it doubles the backslash that is the second byte of 表 (SJIS 95 5C)
and the server stores something else or rejects the row (docs/python.md).
Once install() has run on a connection's adapters, its text COPY escapes
and unescapes by character, with pgcodec's char_length, as the server
parses it; other connections and the binary format are left as psycopg
does them.

What stays with psycopg's Python codec: the query text itself, column names,
error and notice messages, and loaders psycopg keeps for other types (enum,
json, hstore ...). For the encodings psycopg has no
Python codec for (EUC_TW, MULE_INTERNAL), enable_missing_encodings() makes
pgcodec's codecs psycopg's own, through its private encoding table, and
they then cover those too.
"""

from __future__ import annotations

from typing import Any, Optional

import pgcodec
from psycopg import errors, postgres
from psycopg.adapt import AdaptersMap, Dumper, Loader
from psycopg.pq import Format

from . import UnsupportedEncoding, codec_for_parameter

__all__ = ["install", "enable_missing_encodings", "TextLoader", "TextBinaryLoader", "TextArrayLoader", "ListDumper",
           "UnsupportedEncoding"]

UNKNOWN_OID = 705  # pg_type 'unknown': not in psycopg's type registry

# client_encoding parameter value (bytes, as libpq reports it) -> Codec.
_codecs: dict[bytes, Any] = {}


def _codec(context: Any):
    """The Codec for the context's connection now; UTF8 without a connection
    (as psycopg's own loaders default)."""
    conn = context.connection if context is not None else None
    if conn is None or conn.closed:
        raw = b"UTF8"
    else:
        raw = conn.pgconn.parameter_status(b"client_encoding") or b"UTF8"
    try:
        return _codecs[raw]
    except KeyError:
        codec = _codecs[raw] = codec_for_parameter(raw, "psycopg")
        return codec


class TextLoader(Loader):
    """Loads a text value with the pgcodec Codec of the client_encoding.

    `load` is looked up once per result (Transformer.set_pgresult() makes
    the row's list of load functions), so it is a property: it reads
    client_encoding then and returns the cached Codec's decode itself, with
    nothing in between per value. A Transformer that psycopg keeps for the
    same query object executed again still gets the encoding of each result.

    SQL_ASCII is psycopg's special case kept: "no encoding", the value is
    returned as bytes."""

    @property
    def load(self):  # type: ignore[override]
        codec = _codec(self)
        return bytes if codec.name == "SQL_ASCII" else codec.decode


class TextBinaryLoader(TextLoader):
    # A text type's binary form is its text in the client encoding too.
    format = Format.BINARY


class _StrDumperBase(Dumper):
    def __init__(self, cls: type, context: Optional[Any] = None):
        super().__init__(cls, context)
        codec = _codec(self)
        # SQL_ASCII: psycopg sends UTF-8, and so do we.
        self._encode = (lambda s: s.encode("utf-8")) if codec.name == "SQL_ASCII" else codec.encode


class _StrBinaryDumper(_StrDumperBase):
    format = Format.BINARY

    def dump(self, obj: str) -> bytes:
        return self._encode(obj)


class _StrDumper(_StrDumperBase):
    def dump(self, obj: str) -> bytes:
        if "\x00" in obj:  # as psycopg: the text format cannot carry NUL
            raise errors.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return self._encode(obj)


# The same oids as psycopg.types.string's dumpers.
class StrBinaryDumper(_StrBinaryDumper):
    oid = postgres.types["text"].oid


class StrBinaryDumperVarchar(_StrBinaryDumper):
    oid = postgres.types["varchar"].oid


class StrBinaryDumperName(_StrBinaryDumper):
    oid = postgres.types["name"].oid


class StrDumper(_StrDumper):
    oid = postgres.types["text"].oid


class StrDumperVarchar(_StrDumper):
    oid = postgres.types["varchar"].oid


class StrDumperName(_StrDumper):
    oid = postgres.types["name"].oid


class StrDumperUnknown(_StrDumper):
    pass  # oid 0: the server infers the type, as psycopg's default str dumper


_TEXT_TYPES = ("text", "varchar", "bpchar", "name", '"char"')


def install(context: Any) -> None:
    """Registers pgcodec's text loaders and str dumpers on a psycopg
    Connection, AsyncConnection, Cursor, AsyncCursor or AdaptersMap.

    Registration order follows psycopg.types.string: the last str dumper
    registered (text format, unknown oid) stays the default, the others are
    found by oid. Text COPY through these adapters escapes by character
    from then on (see the module's documentation)."""
    adapters = context if isinstance(context, AdaptersMap) else getattr(context, "adapters", None)
    if not isinstance(adapters, AdaptersMap):
        raise TypeError(f"install() needs a psycopg connection, cursor or AdaptersMap, "
                        f"not {type(context).__name__}")
    for dumper in (StrBinaryDumperName, StrBinaryDumperVarchar, StrBinaryDumper, StrDumperName,
                   StrDumperVarchar, StrDumper, StrDumperUnknown):
        adapters.register_dumper(str, dumper)
    # INVALID_OID in text format: psycopg's fallback for every type without a
    # loader of its own (enums without register, citext, domains ...).
    adapters.register_loader(postgres.INVALID_OID, TextLoader)
    adapters.register_loader(UNKNOWN_OID, TextLoader)
    adapters.register_loader(UNKNOWN_OID, TextBinaryLoader)
    for name in _TEXT_TYPES:
        adapters.register_loader(name, TextLoader)
        adapters.register_loader(name, TextBinaryLoader)
    # Text-format arrays of them: parsed and built as str (the binary format
    # carries each element whole and stays psycopg's).
    for name in _TEXT_TYPES:
        adapters.register_loader(adapters.types[name].array_oid, TextArrayLoader)
    adapters.register_dumper(list, ListDumper)
    _patch_copy()


# --- arrays of text, text format ---------------------------------------------
#
# psycopg's text-format ListDumper quotes and escapes each element's encoded
# bytes, and its array loader tokenizes the encoded literal, both before any
# decode: a trail byte 0x5C is then taken for a backslash (see
# pgcodec.drivers._arrays). Here the literal is built, and parsed, as a str.

from psycopg.types.array import ListDumper as _ListDumper  # noqa: E402

from ._arrays import build_text_array, parse_text_array  # noqa: E402


def _latin1_bytes(s: str) -> bytes:
    return s.encode("latin-1")


class TextArrayLoader(Loader):
    """Loads a text-format array of a text type: the whole literal decoded
    with the client_encoding's Codec, then parsed as a str. SQL_ASCII keeps
    psycopg's rule (elements as bytes): the literal is split on its bytes."""

    @property
    def load(self):  # type: ignore[override]
        codec = _codec(self)
        if codec.name == "SQL_ASCII":
            return lambda data: parse_text_array(bytes(data).decode("latin-1"), _latin1_bytes, errors.DataError)
        decode = codec.decode
        return lambda data: parse_text_array(decode(data), str, errors.DataError)


class ListDumper(_ListDumper):
    """psycopg's text-format list dumper, but a list whose elements go
    through pgcodec's str dumpers is written as a str and encoded once; any
    other list is psycopg's."""

    def dump(self, obj: list) -> bytes:
        sub = self.sub_dumper
        if not isinstance(sub, _StrDumper):
            return super().dump(obj)
        literal = build_text_array(obj, self.delimiter.decode("ascii"), errors.DataError)
        if literal is None:  # not all str: psycopg's way
            return super().dump(obj)
        return sub._encode(literal)


# --- COPY, text format ------------------------------------------------------

_TEXT_OID = postgres.types["text"].oid


def _copy_codec(tx: Any):
    """The Codec by which this COPY's text must be escaped by character: the
    client-only encoding (PostgreSQL's rule for COPY, PG_ENCODING_IS_CLIENT_
    ONLY) of a connection whose adapters have pgcodec installed; else None,
    and psycopg's own functions run."""
    adapters = getattr(tx, "adapters", None)
    if adapters is None or adapters.get_loader(_TEXT_OID, Format.TEXT) is not TextLoader:
        return None
    codec = _codec(tx)
    return None if codec.server else codec


def _patch_copy() -> None:
    """Points psycopg.copy's text row functions (its C ones, where psycopg_c
    is loaded, or its Python ones) at wrappers that escape by character for
    the connections _copy_codec() picks. Once per process; TextFormatter
    looks them up on every row."""
    from psycopg import copy as psycopg_copy
    from psycopg.adapt import PyFormat

    if getattr(psycopg_copy.format_row_text, "_pgcodec", False):
        return
    psycopg_format = psycopg_copy.format_row_text
    psycopg_parse = psycopg_copy.parse_row_text

    def format_row_text(row: Any, tx: Any, out: Optional[bytearray] = None) -> bytearray:
        codec = _copy_codec(tx)
        if codec is None:
            return psycopg_format(row, tx, out)
        if out is None:
            out = bytearray()
        if not row:
            out += b"\n"
            return out
        escape = codec._copy_escape
        for item in row:
            if item is None:
                out += b"\\N"
            else:
                out += escape(tx.get_dumper(item, PyFormat.TEXT).dump(item))
            out += b"\t"
        out[-1:] = b"\n"
        return out

    def parse_row_text(data: Any, tx: Any) -> tuple:
        codec = _copy_codec(tx)
        if codec is None:
            return psycopg_parse(data, tx)
        fields = bytes(data).split(b"\t")  # no trail byte is 0x09 or 0x0A
        fields[-1] = fields[-1][:-1]  # the newline
        unescape = codec._copy_unescape
        return tx.load_sequence([None if f == b"\\N" else unescape(f) for f in fields])

    format_row_text._pgcodec = True  # type: ignore[attr-defined]
    psycopg_copy.format_row_text = format_row_text
    psycopg_copy.parse_row_text = parse_row_text


def enable_missing_encodings() -> list[str]:
    """Makes the client encodings psycopg refuses (those without a Python
    codec: EUC_TW, MULE_INTERNAL) usable, by pointing psycopg's encoding
    table at pgcodec's codecs ("pgcodec-euc_tw", after pgcodec.register()).

    This writes into psycopg._encodings, a private module of psycopg 3.1:
    psycopg encodes the query text with the Python codec named there before
    any dumper runs, so no public API can do it. Returns the encodings added;
    encodings psycopg already maps are left alone."""
    from psycopg import _encodings

    pgcodec.register()
    added = []
    for name in pgcodec.encodings():
        key = name.encode()
        if key in _encodings.py_codecs:
            continue
        pyname = "pgcodec-" + name.lower()
        _encodings.py_codecs[key] = pyname
        _encodings.py_codecs[key.replace(b"_", b"")] = pyname
        added.append(name)
    _encodings.pg2pyenc.cache_clear()
    return added
