#!/usr/bin/env python3
"""Whether a viewer screenshot shows a character: `viewer_shot.py SHOT.png WIDTH HEIGHT` exits 0 when the PNG has
that size and the middle of its viewport is drawn (a textured, shaded model has hundreds of colours there; an
empty or failed viewport, one or a few), else says what is wrong and exits 1.

Reads the 8-bit RGB/RGBA PNGs the viewer writes with the standard library alone (zlib and the five PNG row
filters), so the Wine test needs no image package.
"""

import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack_from(">I4s", data, at)
        body = data[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"{path}: {depth}-bit colour type {colour} (interlace {interlace}) is not read here")
    channels = 3 if colour == 2 else 4
    stride = width * channels
    raw = zlib.decompress(idat)
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 255
            elif kind == 2:
                line[x] = (line[x] + up) & 255
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    width, height, channels, rows = read_png(path)
    if (width, height) != (want_w, want_h):
        sys.exit(f"{path}: {width}×{height}, not {want_w}×{want_h}")
    # The viewport's middle: between the outliner (left) and the tabs (right), above the timeline.
    colours = set()
    for y in range(height * 25 // 100, height * 60 // 100, 2):
        row = rows[y]
        for x in range(width * 35 // 100, width * 55 // 100, 2):
            colours.add(row[x * channels : x * channels + 3])
    if len(colours) < 200:
        sys.exit(f"{path}: the middle of the viewport has {len(colours)} colours: nothing drawn there?")
    print(f"{path}: {width}×{height}, {len(colours)} colours in the middle of the viewport")


if __name__ == "__main__":
    main()
