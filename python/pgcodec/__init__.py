"""pgcodec: every PostgreSQL encoding, converted exactly as the server converts it.

    >>> import pgcodec
    >>> sjis = pgcodec.lookup("Shift-JIS")   # PostgreSQL's name rule; one object per encoding
    >>> sjis.decode(b"\\x82\\xa0")
    'あ'
    >>> sjis.encode("あ")
    b'\\x82\\xa0'

Resolve a codec once (a connection's client_encoding) and keep it: its
methods do no lookup. Errors raise DecodeError / EncodeError, subclasses of
UnicodeDecodeError / UnicodeEncodeError carrying PostgreSQL's SQLSTATE, byte
offset and message. StreamDecoder / StreamEncoder convert data that arrives
in chunks. register() makes the codecs available to Python's codecs machinery
as "pgcodec-<name>" (bytes.decode, open, io.TextIOWrapper).
"""

from __future__ import annotations

from ._errors import DecodeError, EncodeError
from ._pgcodec import Codec, StreamDecoder, StreamEncoder, __version__, aliases, encodings, lookup
from ._registry import register

__all__ = [
    "Codec",
    "DecodeError",
    "EncodeError",
    "StreamDecoder",
    "StreamEncoder",
    "aliases",
    "encodings",
    "lookup",
    "register",
]
