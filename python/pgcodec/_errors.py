"""pgcodec's exception classes (raised by the extension module pgcodec._pgcodec).

They subclass UnicodeDecodeError / UnicodeEncodeError, so existing
``except UnicodeError`` clauses catch them, and add what PostgreSQL's error
says: the SQLSTATE, the byte offset, the message in PostgreSQL's wording and
the kind of error.
"""

from __future__ import annotations

__all__ = ["DecodeError", "EncodeError"]


class _PostgresError:
    """What both classes add to Python's Unicode errors (their first base, so
    its __init__, __str__ and __reduce__ come before the Unicode error's)."""

    def __init__(self, encoding: str, object, start: int, end: int, reason: str,
                 *, sqlstate: str, offset: int, kind: str) -> None:
        super().__init__(encoding, object, start, end, reason)
        self.sqlstate = sqlstate
        self.offset = offset
        self.message = reason
        self.kind = kind

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):  # pickling keeps the extra attributes
        return (_rebuild, (type(self), (self.encoding, self.object, self.start, self.end, self.reason),
                           {"sqlstate": self.sqlstate, "offset": self.offset, "kind": self.kind}))


class DecodeError(_PostgresError, UnicodeDecodeError):
    """Bytes that do not decode, as PostgreSQL would reject them.

    Attributes beyond UnicodeDecodeError's (encoding, object, start, end, reason):

    sqlstate -- "22021" (invalid byte sequence) or "22P05" (no equivalent)
    offset   -- byte offset of the offending character in the whole input
                (for StreamDecoder: from the start of the stream)
    message  -- PostgreSQL's message, e.g.
                'invalid byte sequence for encoding "SJIS": 0x82'
    kind     -- "invalid" or "no-equivalent"

    ``object[start:end]`` are the offending bytes; str(error) is the message.
    """



class EncodeError(_PostgresError, UnicodeEncodeError):
    """Text that does not encode, as PostgreSQL would reject it.

    Attributes beyond UnicodeEncodeError's (encoding, object, start, end, reason):

    sqlstate -- "22P05" (no equivalent in the encoding) or "22021" (the text
                is not valid UTF-8: a lone surrogate, or NUL, which PostgreSQL
                never accepts)
    offset   -- byte offset of the offending character in the text's UTF-8 form
                (for StreamEncoder: from the start of the stream)
    message  -- PostgreSQL's message, e.g. 'character with byte sequence 0xe2
                0x82 0xac in encoding "UTF8" has no equivalent in encoding "LATIN1"'
    kind     -- "no-equivalent" or "invalid"

    ``object[start:end]`` is the offending character (str indexes); str(error)
    is the message.
    """



def _rebuild(cls, args, kwargs):
    return cls(*args, **kwargs)


DecodeError.__module__ = EncodeError.__module__ = "pgcodec"
