"""pgcodec for asyncpg: what its codec API allows, and where it stops.

    conn = await asyncpg.connect(..., server_settings={"client_encoding": "SJIS"})
    await pgcodec.drivers.asyncpg.install(conn)

What asyncpg (0.27.0) does with client_encoding: it does not force UTF8.
The server_settings client_encoding is sent at start-up and every
ParameterStatus the server reports (also after SET client_encoding) sets
the connection's text codec to codecs.lookup() of asyncpg's name for it
(asyncpg/protocol/encodings.pyx: SJIS -> shift_jis, SHIFT_JIS_2004 ->
euc_jis_2004, EUC_TW and MULE_INTERNAL -> no Python codec, LookupError).
But with any encoding other than UTF8 asyncpg 0.27.0 is broken on its own:
its text decoder returns codecs.CodecInfo.decode()'s (str, length) tuple
instead of the str, and str parameters fail with "expected bytes, tuple
found" (the upstream pull request MagicStack/asyncpg#999, with
MagicStack/py-pgproto#20, is about this). And it always sends the query text as UTF-8, whatever the client
encoding: a non-ASCII character written in the SQL text reaches the server
misread. Nothing on the codec API can change that.

What install() does on a UTF8 connection: nothing but leave (or put back,
with reset_type_codec) asyncpg's own text codecs. asyncpg decodes UTF-8
with PyUnicode_DecodeUTF8 and nothing around it; a codec set through its
API is a Python call per value, which made a UTF8 fetch of 100-character
strings take 3.6 times the client CPU. install() looks at the client
encoding when it is called: after SET client_encoding to another encoding,
call it again.

What install() does on any other connection: Connection.set_type_codec(format="binary") for text,
varchar and bpchar (not name, "char" or arrays, see TEXT_TYPES), whose binary form is the text in the
client encoding, with a decoder and encoder that use the pgcodec Codec of
the connection's current client_encoding (read from get_settings() per
value: asyncpg passes no context to a codec, and the value follows SET
client_encoding; the Codec itself is cached per encoding name). Values and
parameters of those types are then exactly PostgreSQL's text.
A parameter the client encoding cannot hold raises asyncpg's DataError
("invalid input for query argument $1 ...") whose __cause__ is the
pgcodec.EncodeError. Still asyncpg's: the SQL text (UTF-8, see above),
column names and messages, name values, text arrays and text inside
composite types.
"""

from __future__ import annotations

from typing import Any

import pgcodec

from . import UnsupportedEncoding, codec_for_parameter

__all__ = ["install", "TEXT_TYPES", "UnsupportedEncoding"]

TEXT_TYPES = ("text", "varchar", "bpchar")
# Not among them: name, whose pg_type row has an element type, so
# set_type_codec() refuses it ("cannot use custom codec on non-scalar type");
# "char", one byte that asyncpg returns as bytes (a codec set for it is not
# used); arrays of text, which asyncpg decodes with its built-in array codec
# around its built-in text codec whatever codec is set for the element.


def _setting_reader(settings: Any) -> Any:
    """A callable(name) giving a ConnectionSettings value as attribute access
    does. asyncpg 0.27's ConnectionSettings serves its settings through a
    Cython __getattr__, which Python reaches only after the ordinary lookup
    has failed and made an AttributeError: 250-480 ns a read, more than a
    100-character decode. Its bound __getattr__ goes straight there (60 ns).
    Used only when it answers as the attribute does."""
    reader = getattr(settings, "__getattr__", None)
    try:
        if reader is not None and reader("client_encoding") == settings.client_encoding:
            return reader
    except Exception:
        pass
    return lambda name: getattr(settings, name)


async def install(connection: Any) -> None:
    """Sets pgcodec's binary codecs for the text types on an asyncpg
    connection whose client_encoding is not UTF8 (asyncpg's codec settings
    are per connection; for a pool, call this from the pool's init=
    callback). On a UTF8 connection it keeps asyncpg's own, faster, UTF-8
    decoding (and restores it if an earlier install() replaced it); call it
    again after SET client_encoding."""
    settings = connection.get_settings()
    if settings.client_encoding == "UTF8":
        for name in TEXT_TYPES:
            await connection.reset_type_codec(name, schema="pg_catalog")
        return
    read = _setting_reader(settings)
    decoders: dict[str, Any] = {}  # client_encoding -> its Codec's bound decode
    encoders: dict[str, Any] = {}

    def fill(name: str) -> Any:
        c = codec_for_parameter(name, "asyncpg")
        decoders[name], encoders[name] = c.decode, c.encode
        return c

    # One Python frame a value: the client_encoding as it is now (it follows
    # SET client_encoding; see _setting_reader), a dict, the Codec's C method.
    def decode(data: bytes) -> str:
        name = read("client_encoding")
        d = decoders.get(name)
        if d is None:
            d = fill(name).decode
        return d(data)

    def encode(text: str) -> bytes:
        name = read("client_encoding")
        e = encoders.get(name)
        if e is None:
            e = fill(name).encode
        return e(text)

    fill(settings.client_encoding)  # an unknown client_encoding raises here, not at the first value
    for name in TEXT_TYPES:
        await connection.set_type_codec(name, schema="pg_catalog", encoder=encode,
                                        decoder=decode, format="binary")
