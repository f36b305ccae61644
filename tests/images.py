"""Real image files, made in a few bytes, for tests that need a card to show one."""

from __future__ import annotations

import struct
import zlib


def png(width: int = 1, height: int = 1, *, tag: bytes = b"") -> bytes:
    """A valid grey PNG of ``width`` x ``height`` pixels; ``tag`` (in a text chunk) makes
    two images of one size different files. Its pixel rows are deflated, so a huge image
    is still a few KB: what a hostile bank sends."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data))

    compressor = zlib.compressobj(9)
    row = b"\0" + b"\x80" * width
    pixels = b"".join(compressor.compress(row) for _ in range(min(height, 64)))
    if height > 64:  # the same row again, deflated as it is made: no big buffer
        pixels += b"".join(compressor.compress(row) for _ in range(height - 64))
    pixels += compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit grey
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + (chunk(b"tEXt", b"Comment\0" + tag) if tag else b"")
            + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))
