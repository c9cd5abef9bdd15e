"""pgcodec.register(): pgcodec's codecs in Python's codecs machinery.

After register(), "pgcodec-<name>" is a Python codec for every name
PostgreSQL accepts (any spelling: Python lowercases codec names and may turn
'-' or ' ' into '_', and PostgreSQL's rule ignores all of that):

    b"\\x82\\xa0".decode("pgcodec-sjis")
    codecs.getincrementaldecoder("pgcodec-euc_jp")()
    io.TextIOWrapper(open(path, "rb"), encoding="pgcodec-euc_jp")

The incremental decoder runs on StreamDecoder, the incremental encoder on
Codec._encode_partial, so text read or written through io.TextIOWrapper is
exactly one conversion of the whole file, however the reads split it. Every
errors= value works as in Python's own codecs: 'strict', 'replace', and any
error handler ('ignore', 'surrogateescape', 'backslashreplace', ...). IncrementalDecoder.getstate() returns the bytes kept for the
next chunk, which is the decoder's whole state, so TextIOWrapper.tell() and
seek() are exact. (Error offsets count from the last reset or setstate().)
"""

from __future__ import annotations

import codecs
import threading

from ._pgcodec import Codec, StreamDecoder, lookup

__all__ = ["register", "codec_info", "PREFIX"]

PREFIX = "pgcodec"

_lock = threading.Lock()
_registered = False
_infos: dict[str, codecs.CodecInfo] = {}


def codec_info(codec: Codec) -> codecs.CodecInfo:
    """The codecs.CodecInfo for a pgcodec.Codec (made once per encoding)."""
    info = _infos.get(codec.name)
    if info is not None:
        return info

    # (output, input consumed), in C: a driver that decodes through the codecs
    # machinery per value (psycopg2 with pgcodec's codecs) calls these.
    encode = codec._codecs_encode
    decode = codec._codecs_decode

    class IncrementalDecoder(codecs.IncrementalDecoder):
        """Decodes in chunks through a pgcodec.StreamDecoder."""

        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._stream = StreamDecoder(codec, errors)

        def decode(self, input, final: bool = False) -> str:
            text = self._stream.feed(input)
            if final:
                text += self._stream.finish()
                self._stream = StreamDecoder(codec, self.errors)
            return text

        def reset(self) -> None:
            self._stream = StreamDecoder(codec, self.errors)

        def getstate(self) -> tuple[bytes, int]:
            # The bytes of a character cut off so far are all the state there is.
            return (self._stream.pending, 0)

        def setstate(self, state: tuple[bytes, int]) -> None:
            self._stream = StreamDecoder(codec, self.errors)
            self._stream.feed(state[0])

    class IncrementalEncoder(codecs.IncrementalEncoder):
        """Encodes in chunks: each chunk after the text the previous one left
        (a character a combined pair could still take, in EUC_JIS_2004 and
        SHIFT_JIS_2004), through Codec._encode_partial; any errors= value."""

        def __init__(self, errors: str = "strict") -> None:
            super().__init__(errors)
            self._pending = ""

        def encode(self, input: str, final: bool = False) -> bytes:
            text = self._pending + input if self._pending else input
            if final:
                self._pending = ""
                return codec.encode(text, self.errors)
            data, consumed = codec._encode_partial(text, self.errors)
            self._pending = text[consumed:]
            return data

        def reset(self) -> None:
            self._pending = ""

        def getstate(self) -> int:
            if self._pending:
                # Held-back text (EUC_JIS_2004 / SHIFT_JIS_2004 pairs) is not an int.
                raise ValueError("pgcodec: the encoder holds back text that may combine with the next "
                                 "character; its state cannot be saved")
            return 0

        def setstate(self, state: int) -> None:
            if state != 0:
                raise ValueError("pgcodec: the only encoder state is 0")
            self.reset()

    class StreamWriter(codecs.StreamWriter):
        def encode(self, input: str, errors: str = "strict") -> tuple[bytes, int]:
            return codec.encode(input, errors), len(input)

    class StreamReader(codecs.StreamReader):
        def decode(self, input, errors: str = "strict") -> tuple[str, int]:
            # A character cut off by the end of what was read is left for the next read.
            return codec._decode_partial(input, errors)

    for cls in (IncrementalDecoder, IncrementalEncoder, StreamWriter, StreamReader):
        cls.__qualname__ = cls.__name__ = f"{cls.__name__}[{codec.name}]"
    info = codecs.CodecInfo(
        name=f"{PREFIX}-{codec.name.lower()}",
        encode=encode,
        decode=decode,
        incrementalencoder=IncrementalEncoder,
        incrementaldecoder=IncrementalDecoder,
        streamreader=StreamReader,
        streamwriter=StreamWriter,
    )
    _infos[codec.name] = info
    return info


def _search(name: str) -> codecs.CodecInfo | None:
    if not name.startswith(PREFIX) or len(name) == len(PREFIX) or name[len(PREFIX)] not in "-_ .":
        return None
    try:
        codec = lookup(name[len(PREFIX) + 1:])
    except LookupError:
        return None
    return codec_info(codec)


def register() -> None:
    """Add pgcodec's search function to Python's codecs (once; calling again does nothing).

    Names are "pgcodec-" followed by any spelling of a PostgreSQL encoding name:
    "pgcodec-sjis", "pgcodec_sjis", "pgcodec-Shift-JIS", "pgcodec-euc_jp".
    """
    global _registered
    with _lock:
        if not _registered:
            codecs.register(_search)
            _registered = True
