#!/usr/bin/env python3
"""Writes the licence texts of every crate the program links, for shipping beside a binary build.

Usage: scripts/third-party-licenses.py TARGET OUT   (e.g. x86_64-pc-windows-gnu THIRD-PARTY-LICENSES.txt)

The crates are those `cargo metadata --filter-platform TARGET` resolves for the default features, reached from
bonescope through normal dependencies (what is compiled into the program; build and dev dependencies are not).
Each crate's own licence files are taken from its source as cargo downloaded it: LICENSE*, LICENCE*, COPYING*,
NOTICE*, COPYRIGHT* at its root, and licence notes of the fonts it bundles (a `.txt` beside a `.ttf` or `.otf`
of the same name, `OFL.txt`, `UFL.txt`). Identical texts are written once, under the list of crates they cover.

Some crates are published without a licence file of their own (egui's crates, for one). For those the standard text of
their licence is used: Apache-2.0 from this repository's LICENSE-APACHE, MIT from LICENSE-MIT with the crate's
authors as copyright holders, any other licence from a crate of the same build that ships exactly that licence
alone. For a choice ("MIT OR Apache-2.0") Apache-2.0 is preferred, as its text names no copyright holder. A
crate whose licence text cannot be found this way stops the script with its name, so that nothing ships without.

(`cargo about` does the same job with SPDX templates; this script needs nothing installed beyond Python, where
`cargo about` would be compiled from source on every CI run.)
"""

import json
import os
import re
import subprocess
import sys

ROOT_NAMES = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE|COPYRIGHT|UNLICENSE)", re.IGNORECASE)
FONT_NOTES = {"OFL.TXT", "UFL.TXT"}
SKIPPED_FOLDERS = {"src", "tests", "benches", "examples", "target", ".git"}
PREFERRED = ["Apache-2.0", "MIT", "Zlib", "BSL-1.0", "Unicode-3.0", "BSD-3-Clause", "BSD-2-Clause", "ISC"]


def linked_packages(target):
    meta = json.loads(
        subprocess.check_output(
            ["cargo", "metadata", "--format-version", "1", "--locked", "--filter-platform", target],
            cwd=os.path.join(os.path.dirname(__file__), ".."),
        )
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    root = meta["resolve"]["root"]
    seen, stack = set(), [root]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for dep in nodes[node]["deps"]:
            if any(kind["kind"] is None for kind in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    seen.discard(root)
    return packages[root], sorted((packages[i] for i in seen), key=lambda p: (p["name"], p["version"]))


def licence_files(package):
    """The licence files a crate ships, as (shown name, path, whether it is the crate's own licence: at its root,
    not a note on something it bundles)."""
    folder = os.path.dirname(package["manifest_path"])
    found = []
    if package.get("license_file"):
        found.append((os.path.join(folder, package["license_file"]), True))
    for entry in sorted(os.listdir(folder)):
        path = os.path.join(folder, entry)
        if os.path.isfile(path) and ROOT_NAMES.match(entry):
            found.append((path, True))
        elif os.path.isdir(path) and entry not in SKIPPED_FOLDERS:
            names = sorted(os.listdir(path))
            fonts = {os.path.splitext(n)[0] for n in names if n.lower().endswith((".ttf", ".otf"))}
            for name in names:
                stem, ext = os.path.splitext(name)
                notes = ext.lower() == ".txt" and (stem in fonts or name.upper() in FONT_NOTES)
                if notes or ROOT_NAMES.match(name) or re.search("licen[cs]e", name, re.IGNORECASE):
                    found.append((os.path.join(path, name), False))
    unique = []
    for path, own in found:
        if os.path.realpath(path) not in (os.path.realpath(p) for p, _ in unique):
            unique.append((path, own))
    return [(os.path.relpath(p, folder), p, own) for p, own in unique]


def licence_ids(expression):
    """The licence names of an SPDX expression (old `MIT/Apache-2.0` spelling included)."""
    return [w for w in re.split(r"[\s()/]+|\bOR\b|\bAND\b", expression or "") if w and w not in ("OR", "AND")]


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().replace("\r\n", "\n").strip() + "\n"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    target, out = sys.argv[1], sys.argv[2]
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    own, packages = linked_packages(target)

    shipped = {p["id"]: licence_files(p) for p in packages}
    # Standard texts for crates that ship none.
    mit = read(os.path.join(repo, "LICENSE-MIT"))
    mit_terms = mit[mit.index("Permission is hereby granted") :]
    standard = {"Apache-2.0": lambda p: read(os.path.join(repo, "LICENSE-APACHE"))}
    standard["MIT"] = lambda p: "MIT License\n\nCopyright (c) the {} authors{}\n\n{}".format(
        p["name"], " (" + ", ".join(p["authors"]) + ")" if p["authors"] else "", mit_terms
    )
    for p in packages:
        ids = licence_ids(p["license"])
        if len(ids) == 1 and len(shipped[p["id"]]) == 1 and shipped[p["id"]][0][2] and ids[0] not in standard:
            text = read(shipped[p["id"]][0][1])
            standard[ids[0]] = lambda _p, text=text: text

    groups = {}  # text -> [(crate, file name)]
    order = []
    for p in packages:
        label = f'{p["name"]} {p["version"]}'
        files = shipped[p["id"]]
        texts = [(name, read(path)) for name, path, _ in files]
        if not any(own for _, _, own in files):
            ids = licence_ids(p["license"])
            choice = next((i for i in PREFERRED if i in ids and i in standard), None)
            choice = choice or next((i for i in ids if i in standard), None)
            if choice is None:
                sys.exit(f"error: {label} ({p['license']}) ships no licence file and no standard text is known")
            texts.insert(0, (f"{choice} (standard text; the crate ships no licence file)", standard[choice](p)))
        for name, text in texts:
            if text not in groups:
                groups[text] = []
                order.append(text)
            groups[text].append(f"{label}: {name}")

    with open(out, "w", encoding="utf-8", newline="\n") as f:
        f.write(f"Third-party software in {own['name']} {own['version']} ({target})\n")
        f.write("=" * 72 + "\n\n")
        f.write(f"{own['name']} is licensed under {own['license']} (LICENSE-MIT, LICENSE-APACHE). It links the\n")
        f.write("Rust crates below; each crate's licence is the one it declares (listed first), and the texts it\n")
        f.write("ships follow, each written once under the crates it covers.\n\n")
        for p in packages:
            f.write(f'  {p["name"]} {p["version"]}: {p["license"]}' + (f' ({p["repository"]})' if p["repository"] else "") + "\n")
        for text in order:
            f.write("\n" + "-" * 72 + "\n")
            for who in groups[text]:
                f.write(f"{who}\n")
            f.write("-" * 72 + "\n\n")
            f.write(text)
    print(f"{len(packages)} crates, {len(order)} distinct licence texts", file=sys.stderr)


if __name__ == "__main__":
    main()
