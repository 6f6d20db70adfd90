#!/usr/bin/env python3
"""Whether the Windows program wrote what the Linux program wrote: `same_output.py LINUX WINDOWS` exits 0 when
the two files say the same, else prints where they differ and exits 1.

Paths are the one thing allowed to differ: the Windows program names `Z:\\work\\x.smd` what the Linux one names
`/work/x.smd` (Wine's drive Z: is the Linux root). Only a value that differs is looked at again, with drive
letters dropped and backslashes read as slashes on both sides; everything else (numbers, names, order, counts)
must be equal as written.

JSON files (`info --json`, `pose --json`, `check --json`) are compared value by value; binary glTF (`export`)
chunk by chunk: the JSON chunk as JSON, the binary chunk byte for byte; any other file line by line.
"""

import json
import re
import struct
import sys

DRIVE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]:(?=[\\/])")


def as_posix(text):
    return DRIVE.sub("", text).replace("\\", "/")


def same_text(a, b):
    return a == b or as_posix(a) == as_posix(b)


def compare(a, b, where, out):
    if len(out) >= 12:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            out.append(f"{where}: keys {list(a)} != {list(b)}")
            return
        for k in a:
            compare(a[k], b[k], f"{where}/{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{where}: {len(a)} items != {len(b)} items")
            return
        for i, (x, y) in enumerate(zip(a, b)):
            compare(x, y, f"{where}/{i}", out)
    elif isinstance(a, str) and isinstance(b, str):
        if not same_text(a, b):
            out.append(f"{where}: {a!r} != {b!r}")
    elif type(a) is not type(b) or a != b:
        out.append(f"{where}: {a!r} != {b!r}")


def glb_chunks(data):
    """The chunks of a binary glTF: [(type, bytes)], or None when it is not one."""
    if len(data) < 12 or data[:4] != b"glTF":
        return None
    chunks, at = [], 12
    while at + 8 <= len(data):
        length, kind = struct.unpack_from("<I4s", data, at)
        chunks.append((kind, data[at + 8 : at + 8 + length]))
        at += 8 + length
    return chunks


def main():
    linux_path, windows_path = sys.argv[1:3]
    linux, windows = (open(p, "rb").read() for p in (linux_path, windows_path))
    out = []
    lg, wg = glb_chunks(linux), glb_chunks(windows)
    if lg is not None or wg is not None:
        if lg is None or wg is None or [k for k, _ in lg] != [k for k, _ in wg]:
            out.append("not both binary glTF with the same chunks")
        else:
            for (kind, a), (_, b) in zip(lg, wg):
                if kind == b"JSON":
                    compare(json.loads(a), json.loads(b), "JSON chunk", out)
                elif a != b:
                    out.append(f"{kind.decode(errors='replace')} chunk: {len(a)} bytes != {len(b)} bytes, or other bytes")
    else:
        try:
            compare(json.loads(linux), json.loads(windows), "", out)
        except ValueError:
            la, wa = linux.decode(errors="replace").split("\n"), windows.decode(errors="replace").split("\n")
            if len(la) != len(wa):
                out.append(f"{len(la)} lines != {len(wa)} lines")
            for i, (a, b) in enumerate(zip(la, wa)):
                if not same_text(a, b) and len(out) < 12:
                    out.append(f"line {i + 1}: {a!r} != {b!r}")
    if out:
        print(f"{windows_path} differs from {linux_path}:", *out, sep="\n  ")
        sys.exit(1)


if __name__ == "__main__":
    main()
