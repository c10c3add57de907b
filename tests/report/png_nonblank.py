#!/usr/bin/env python3
"""Is a PNG screenshot more than a blank page? Decodes the PNG with the standard library only
(zlib + the five PNG filters) and fails unless enough pixels differ from the most common
colour (the page background) and there are several colours (text, bars, lines).
usage: png_nonblank.py FILE.png [MIN_INK_FRACTION]"""
import struct
import sys
import zlib
from collections import Counter


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit(f"{path}: unexpected PNG layout (depth {depth}, type {ctype})")
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path = sys.argv[1]
    need = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    width, height, bpp, rows = pixels(path)
    colours = Counter()
    for line in rows[::2]:
        for x in range(0, width * bpp, bpp * 2):
            colours[line[x:x + 3]] += 1
    total = sum(colours.values())
    bg, bg_n = colours.most_common(1)[0]
    ink = 1 - bg_n / total
    print(f"{path}: {width}x{height}, {len(colours)} colours, {ink:.1%} not background")
    if ink < need or len(colours) < 8:
        print("FAIL: the screenshot is blank or nearly so")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
