#!/usr/bin/env python3
"""Build data/address/street_types.txt: street-type words in many languages.

Usage:
    python3 scripts/build_street_types.py

Source: the npm package @mapbox/geocoder-abbreviations (MIT), pinned below by version and
by the sha512 of its tarball. The script fetches it with the ordinary client
(`npm pack`) into a temporary folder, checks the hash, and reads `tokens/<lang>.json`
without running any of the package's code. Every entry typed "way" (a street type:
"Calle", "Rua", "Viale", "Chemin", "Soseaua", "Gatan", "Laneway" ...) gives its spellings.

Output: one folded word per line (NFKD, combining marks removed, lowercase, letters only;
two letters or more), sorted; multi-word spellings and the Swedish suffix patterns
(regular expressions) are left out. The name recognizer (src/extract/offline/person/)
reads a capitalised run that starts with, follows or ends in one of these words as a
street, not a person ("Via Adán Uribe", "avenue Julie Ledoux").
No value of any labelled set is used.
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "data", "address", "street_types.txt")
PACKAGE = "@mapbox/geocoder-abbreviations"
VERSION = "4.6.9"
INTEGRITY = "sha512-O4GkntmjpCqEo9dLoS7+4HxgSdnleU92hUQYsvxYmCtXet7YfPbIt2RgH9GtS+lrZKAs3ttL62cRHxTVBpyT7A=="
COMMAND = "python3 scripts/build_street_types.py"


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def main():
    with tempfile.TemporaryDirectory(prefix="clam-streettypes-") as tmp:
        subprocess.run(["npm", "pack", f"{PACKAGE}@{VERSION}", "--pack-destination", tmp, "--silent"],
                       check=True, stdout=subprocess.DEVNULL)
        tgz = [f for f in os.listdir(tmp) if f.endswith(".tgz")]
        if len(tgz) != 1:
            sys.exit(f"npm pack: expected one tarball in {tmp}, found {tgz}")
        path = os.path.join(tmp, tgz[0])
        data = open(path, "rb").read()
        got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if got != INTEGRITY:
            sys.exit(f"{tgz[0]}: integrity {got}, pinned {INTEGRITY}")
        words = {}
        langs = set()
        with tarfile.open(path) as tar:
            licence = tar.extractfile("package/LICENSE").read().decode("utf-8")
            for m in sorted(tar.getmembers(), key=lambda m: m.name):
                name = m.name
                if not (name.startswith("package/tokens/") and name.endswith(".json")):
                    continue
                lang = os.path.basename(name)[:-5]
                for entry in json.loads(tar.extractfile(m).read().decode("utf-8")):
                    if entry.get("type") != "way":
                        continue
                    for t in list(entry.get("tokens", [])) + [entry.get("full", "")]:
                        f = fold(t.strip())
                        if len(f) < 2 or not f.isalpha():
                            continue  # multi-word, regex, digits, one letter
                        words.setdefault(f, set()).add(lang)
                        langs.add(lang)
    first_line = licence.strip().splitlines()[0:3]
    header = [
        "# Street-type words in many languages (calle, rua, viale, chemin, soseaua, gatan, laneway ...),",
        "# folded (NFKD, no combining marks, lowercase), letters only, one per line, sorted. Generated - do not edit.",
        f"# Source: npm {PACKAGE}@{VERSION} (tarball integrity {INTEGRITY}),",
        "#   tokens/<lang>.json, entries of type \"way\": every spelling; multi-word spellings and regular",
        "#   expressions left out.",
        f"# Licence: MIT ({' '.join(l.strip() for l in first_line if l.strip())}).",
        f"# Languages: {len(langs)} ({', '.join(sorted(langs))}). Counts: {len(words)} words.",
        f"# Rebuild: {COMMAND}",
    ]
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(header) + "\n")
        for w in sorted(words):
            f.write(w + "\n")
    print(f"{OUT}: {len(words)} words from {len(langs)} languages")


if __name__ == "__main__":
    main()
