#!/usr/bin/env python3
"""Build data/address/street_types.txt: street-type words in many languages,
data/address/place_types.txt: kinds of place, of area and compass words in many languages,
data/address/unit_types.txt: unit designators (flat, suite, apartment) in many languages,
data/address/directionals.txt: the compass words alone, full forms only (selatan, nord, west), and
data/address/company_types.txt: kinds of company and association, full forms only (groupe,
gesellschaft, empresa, sociedad, companhia, yayasan, koperasi, spółka, foundation).

Usage:
    python3 scripts/build_street_types.py

Sources, both npm packages pinned below by version and by the sha512 of their tarball,
fetched with the ordinary client (`npm pack`) into a temporary folder and read without
running any of their code:

* @mapbox/geocoder-abbreviations (MIT): `tokens/<lang>.json`; every entry typed "way" (a
  street type: "Calle", "Rua", "Viale", "Chemin", "Soseaua", "Gatan", "Laneway" ...)
  gives its spellings. Mapbox leaves many street types untyped (Romanian "intrarea",
  Italian "piazza", Spanish "rambla"), so they are taken from the second source.
* pelias-parser (MIT), which ships libpostal's language dictionaries (MIT, openvenues/
  libpostal): `resources/libpostal/dictionaries/<lang>/street_types.txt`, one street type a
  line with its abbreviations after '|' ("aleea|ale|alea|al", "piazza|p.zza|pza"): the full
  form of each line (its first spelling and the ones that fold to the same letters: "piaţa|
  piata|piață"), 60 languages, street types that come first ("Aleea", "Calle", "Piazza") as
  well as last ("Street", "gatan"); abbreviations ("ale", "vic", "sal") are names as often.

Output: one folded word per line (NFKD, combining marks removed, lowercase, letters only;
two letters or more), and a spelling with accents also as written in lower case (NFC), sorted; multi-word spellings and the Swedish suffix patterns
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
OUT_PLACE_TYPES = os.path.join(ROOT, "data", "address", "place_types.txt")
OUT_UNIT_TYPES = os.path.join(ROOT, "data", "address", "unit_types.txt")
OUT_DIRECTIONALS = os.path.join(ROOT, "data", "address", "directionals.txt")
OUT_COMPANY_TYPES = os.path.join(ROOT, "data", "address", "company_types.txt")
PACKAGE = "@mapbox/geocoder-abbreviations"
VERSION = "4.6.9"
INTEGRITY = "sha512-O4GkntmjpCqEo9dLoS7+4HxgSdnleU92hUQYsvxYmCtXet7YfPbIt2RgH9GtS+lrZKAs3ttL62cRHxTVBpyT7A=="
LIBPOSTAL_PACKAGE = "pelias-parser"
LIBPOSTAL_VERSION = "4.1.0"
LIBPOSTAL_INTEGRITY = "sha512-u06qqHmHSyBF0oFWu6MHJLP9tyL+irKp1wswMbeRTIOWHL38LT5E6fj21lEUQWd7GPrLsAFG5wudDN7ovSilEw=="
LIBPOSTAL_DIR = "package/resources/libpostal/dictionaries/"
COMMAND = "python3 scripts/build_street_types.py"


def fold(s):
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


def spellings(t):
    """The folded spelling of one token and, when it has accents, the token in lower case as
    written (NFC): a word written with accents is a street type only with the same accents
    ("cañada"; Vietnamese "dương", a surname, is not "đường", road). None for a multi-word
    token, a regular expression, one with digits or a dot, or a single letter."""
    t = t.strip()
    f = fold(t)
    if len(f) < 2 or not f.isalpha():
        return []
    low = unicodedata.normalize("NFC", t.lower())
    return [f, low] if low != f and low.isalpha() else [f]


def add_group(group, tag, words, plain):
    """Add the spellings of one group of equivalent spellings ("đường|duong|d") to words;
    plain[f] tells whether some group giving the folded spelling f has no spelling with
    accents (Mapbox writes Spanish "Canada" for "Cañada": any accents may be written)."""
    group = [t.strip() for t in group if t and t.strip()]
    accented = any(not t.isascii() for t in group if spellings(t))
    for t in group:
        sp = spellings(t)
        for f in sp:
            words.setdefault(f, set()).add(tag)
        if sp:
            plain[sp[0]] = plain.get(sp[0], False) or not accented


def libpostal_only(tags):
    return all(t.startswith("libpostal:") for t in tags)


def npm_pack(tmp, package, version, integrity):
    """The path of the checked tarball of package@version, fetched into tmp."""
    dest = os.path.join(tmp, package.replace("/", "+"))
    os.makedirs(dest)
    subprocess.run(["npm", "pack", f"{package}@{version}", "--pack-destination", dest, "--silent"],
                   check=True, stdout=subprocess.DEVNULL)
    tgz = [f for f in os.listdir(dest) if f.endswith(".tgz")]
    if len(tgz) != 1:
        sys.exit(f"npm pack: expected one tarball in {dest}, found {tgz}")
    path = os.path.join(dest, tgz[0])
    with open(path, "rb") as f:
        data = f.read()
    got = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if got != integrity:
        sys.exit(f"{tgz[0]}: integrity {got}, pinned {integrity}")
    return path


def libpostal_street_types(path, words, plain, langs):
    """Add the spellings of libpostal's street_types.txt of every language to words."""
    with tarfile.open(path) as tar:
        licence = tar.extractfile("package/LICENSE").read().decode("utf-8")
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            if not (m.name.startswith(LIBPOSTAL_DIR) and m.name.endswith("/street_types.txt")):
                continue
            lang = m.name[len(LIBPOSTAL_DIR):].split("/")[0]
            for line in tar.extractfile(m).read().decode("utf-8").splitlines():
                # The full form only: the first (canonical) spelling and the spellings that fold
                # to the same letters ("piaţa|piata|piață"); the abbreviations after it ("ale",
                # "vic", "sal") are names as often as street types and are written with a dot.
                group = line.split("|")
                full = fold(group[0].strip())
                group = [t for t in group if fold(t.strip()) == full]
                if any(spellings(t) for t in group):
                    add_group(group, "libpostal:" + lang, words, plain)
                    langs.add(lang)
    return licence


def libpostal_lines(path, files):
    """The lines of the libpostal dictionaries named in files, of every language, in member
    order: (file name, language, line)."""
    with tarfile.open(path) as tar:
        for m in sorted(tar.getmembers(), key=lambda m: m.name):
            base = m.name.rsplit("/", 1)[-1]
            if not (m.name.startswith(LIBPOSTAL_DIR) and base in files):
                continue
            lang = m.name[len(LIBPOSTAL_DIR):].split("/")[0]
            for line in tar.extractfile(m).read().decode("utf-8").splitlines():
                yield base, lang, line


def libpostal_words(path, files, min_len):
    """The folded one-word spellings (min_len letters or more) of the libpostal dictionaries
    named in files, of every language, and a spelling with accents also as written in lower
    case (NFC), as spellings() writes them: {word: set of "file:lang"}."""
    words = {}
    for base, lang, line in libpostal_lines(path, files):
        for t in line.split("|"):
            f = fold(t.strip())
            if len(f) >= min_len and f.isalpha():
                for sp in spellings(t):
                    words.setdefault(sp, set()).add(base[:-4] + ":" + lang)
    return words


PLACE_TYPE_FILES = ("place_names.txt", "directionals.txt", "qualifiers.txt")
UNIT_TYPE_FILES = ("unit_types_numbered.txt", "level_types_numbered.txt")
DIRECTIONAL_FILES = ("directionals.txt",)
COMPANY_TYPE_FILES = ("company_types.txt",)


def letters(t):
    return "".join(c for c in fold(t) if c.isalpha())


def abbreviates(short, long):
    """short (folded letters) is an abbreviation of long: the same first letter and its letters
    in order in long ("assoc" of "association", "ges" of "gesellschaft", "ou" of "osaühing")."""
    if len(short) >= len(long) or not short or short[0] != long[0]:
        return False
    it = iter(long)
    return all(c in it for c in short)


def libpostal_full_forms(path, files, min_len):
    """The full forms of the libpostal dictionaries named in files, of every language: the
    one-word spellings of each line that abbreviate no other spelling of it (not "assoc" of
    "association", "ag" of "aktiengesellschaft", "sel" of "selatan") and, on a line that also
    has a spelling of several words, have 5 letters or more (not "cia" of "sociedad en nombre
    colectivo", "ano" of "avtonomnaya nekommercheskaya organizatsiya"); min_len characters or
    more as written (NFC), as spellings() writes them (folded, and as written in lower case
    when accented): {word: set of "file:lang"}."""
    words = {}
    for base, lang, line in libpostal_lines(path, files):
        group = [t.strip() for t in line.split("|") if t.strip()]
        longs = [letters(t) for t in group]
        several = any(" " in t for t in group)
        for t in group:
            if " " in t or any(abbreviates(letters(t), l) for l in longs):
                continue
            n = len(unicodedata.normalize("NFC", t))
            if n < min_len or several and len(letters(t)) < 5:
                continue
            for f in spellings(t):
                words.setdefault(f, set()).add(base[:-4] + ":" + lang)
    return words


def write_libpostal_words(path, about, files, words):
    """A sorted word list from libpostal's dictionaries, with its header: `about` says what
    the words are and how the reader uses them, `files` which dictionaries they come from."""
    header = about + [
        f"# Source: npm {LIBPOSTAL_PACKAGE}@{LIBPOSTAL_VERSION} (tarball integrity {LIBPOSTAL_INTEGRITY}),",
        *files,
        "# Licence: MIT (Pelias contributors; libpostal MIT).",
        f"# Counts: {len(words)} words.",
        f"# Rebuild: {COMMAND}",
    ]
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(header) + "\n")
        for w in sorted(words):
            f.write(w + "\n")
    print(f"{path}: {len(words)} words")


def write_unit_types(words):
    write_libpostal_words(OUT_UNIT_TYPES, [
        "# Unit and floor designators in many languages (flat, apartment, suite, lot, étage, piano, piso ...), folded (NFKD, no",
        "# combining marks, lowercase) and, when accented, also as written in lower case (NFC), letters only, 2 letters",
        "# or more, one per line, sorted. Generated - do",
        "# not edit. A capitalised run after one, its number and a comma (\"Flat 4b, Rose Court\") is a",
        "# building or a street, not a person.",
    ], [
        "#   resources/libpostal/dictionaries/<lang>/unit_types_numbered.txt and level_types_numbered.txt",
        "#   (libpostal's dictionaries, MIT, openvenues/libpostal): every '|'-separated spelling of one word.",
    ], words)


def write_place_types(words):
    write_libpostal_words(OUT_PLACE_TYPES, [
        "# Kinds of place and compass words in many languages, folded (NFKD, no combining marks, lowercase)",
        "# and, when accented, also as written in lower case (NFC), letters only, 3 letters or more, one per",
        "# line, sorted. Generated - do not edit. A word written with accents is one of these only when its",
        "# accented spelling is listed ('Löwer' is no 'lower'); in ASCII any listed spelling goes.",
        "# A capitalised run that starts with one (\"Praia ...\", \"Castello ...\", \"Øster ...\", \"Nord ...\")",
        "# is a place, not a person, unless the word is also a personal name (the reader checks).",
    ], [
        "#   resources/libpostal/dictionaries/<lang>/place_names.txt, directionals.txt and qualifiers.txt",
        "#   (libpostal's dictionaries, MIT, openvenues/libpostal): every '|'-separated spelling of one word.",
    ], words)


def write_directionals(words):
    write_libpostal_words(OUT_DIRECTIONALS, [
        "# Compass words in many languages (north, nord, norte, selatan, utara, timur ...), full forms only,",
        "# folded (NFKD, no combining marks, lowercase) and, when accented, also as written in lower case",
        "# (NFC), 3 letters or more, one per line, sorted. Generated - do not edit. A capitalised run that",
        "# ends in one (\"Tangerang Selatan\", \"Frankfurt Süd\") is a place, not a person, unless the word",
        "# is also a personal name (the reader checks: \"West\", \"North\").",
    ], [
        "#   resources/libpostal/dictionaries/<lang>/directionals.txt (libpostal's dictionaries, MIT,",
        "#   openvenues/libpostal): the one-word spellings of each line that abbreviate no other spelling",
        "#   of it (not \"sel\" of \"selatan\", \"nrth\" of \"north\") and, on a line with a spelling",
        "#   of several words, have 5 letters or more.",
    ], words)


def write_company_types(words):
    write_libpostal_words(OUT_COMPANY_TYPES, [
        "# Kinds of company and association in many languages (groupe, gesellschaft, empresa, sociedad,",
        "# companhia, yayasan, koperasi, spółka, foundation ...), full forms only, folded (NFKD, no combining",
        "# marks, lowercase) and, when accented, also as written in lower case (NFC), 3 letters or more, one",
        "# per line, sorted. Generated - do not edit. A capitalised run that starts or ends with one",
        "# (\"Groupe Lefebvre\", \"Koperasi Sinaga\", \"Keller Gesellschaft\") is an organisation, not a",
        "# person, unless the word is also a personal name (the reader checks).",
    ], [
        "#   resources/libpostal/dictionaries/<lang>/company_types.txt (libpostal's dictionaries, MIT,",
        "#   openvenues/libpostal): the one-word spellings of each line that abbreviate no other spelling",
        "#   of it (not \"assoc\" of \"association\", \"ag\" of \"aktiengesellschaft\") and, on a line",
        "#   with a spelling of several words, have 5 letters or more (not \"cia\", \"snc\").",
    ], words)


def main():
    with tempfile.TemporaryDirectory(prefix="clam-streettypes-") as tmp:
        path = npm_pack(tmp, PACKAGE, VERSION, INTEGRITY)
        lp_path = npm_pack(tmp, LIBPOSTAL_PACKAGE, LIBPOSTAL_VERSION, LIBPOSTAL_INTEGRITY)
        words = {}
        plain = {}
        langs = set()
        lp_langs = set()
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
                    group = list(entry.get("tokens", [])) + [entry.get("full", "")]
                    if any(spellings(t) for t in group):
                        add_group(group, lang, words, plain)
                        langs.add(lang)
        n_mapbox = len(words)
        lp_licence = libpostal_street_types(lp_path, words, plain, lp_langs)
        write_place_types(libpostal_words(lp_path, PLACE_TYPE_FILES, 3))
        write_unit_types(libpostal_words(lp_path, UNIT_TYPE_FILES, 2))
        write_directionals(libpostal_full_forms(lp_path, DIRECTIONAL_FILES, 3))
        write_company_types(libpostal_full_forms(lp_path, COMPANY_TYPE_FILES, 3))
    accents_only = sorted(f for f, p in plain.items() if not p)
    first_line = licence.strip().splitlines()[0:3]
    lp_first = lp_licence.strip().splitlines()[0:3]
    header = [
        "# Street-type words in many languages (calle, rua, viale, chemin, soseaua, gatan, laneway ...),",
        "# folded (NFKD, no combining marks, lowercase), letters only, one per line, sorted; a spelling with accents",
        "# also as written in lower case (NFC), so that a reader can ask for the accents to agree. Generated - do not edit.",
        f"# Source: npm {PACKAGE}@{VERSION} (tarball integrity {INTEGRITY}),",
        "#   tokens/<lang>.json, entries of type \"way\": every spelling; multi-word spellings and regular",
        "#   expressions left out.",
        f"# Licence: MIT ({' '.join(l.strip() for l in first_line if l.strip())}).",
        f"# Languages: {len(langs)} ({', '.join(sorted(langs))}). Counts: {n_mapbox} words.",
        f"# And: npm {LIBPOSTAL_PACKAGE}@{LIBPOSTAL_VERSION} (tarball integrity {LIBPOSTAL_INTEGRITY}),",
        "#   resources/libpostal/dictionaries/<lang>/street_types.txt (libpostal's dictionaries, MIT,",
        "#   openvenues/libpostal): the full form of each line (its first spelling, and the others that fold to",
        "#   the same letters), not the abbreviations after it; multi-word ones and ones with a dot left out.",
        f"# Licence: MIT ({' '.join(l.strip() for l in lp_first if l.strip())}; libpostal MIT).",
        f"# Languages: {len(lp_langs)} ({', '.join(sorted(lp_langs))}).",
        f"# Counts: {len(words)} words in all, {len(words) - n_mapbox} of them from libpostal only: these are",
        "#   in their own section, each line starting with '+' (libpostal lists many street types that are",
        "#   also surnames - 'banda', 'corso', 'lang' - so a reader should not take them at a name's end).",
        "# Last section, each line starting with '=': the folded spellings whose every source group writes",
        "#   the street type with accents (libpostal 'đường|duong', 'praça|praca'): a word written with",
        "#   accents is that street type only when its accented spelling is listed ('Dương', a surname, is",
        f"#   not 'đường'); in ASCII any listed spelling goes. Counts: {len(accents_only)}.",
        f"# Rebuild: {COMMAND}",
    ]
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(header) + "\n")
        for w in sorted(w for w in words if not libpostal_only(words[w])):
            f.write(w + "\n")
        f.write("\n# --- libpostal only (a reader may trust them less after a name)\n")
        for w in sorted(w for w in words if libpostal_only(words[w])):
            f.write("+" + w + "\n")
        f.write("\n# --- folded spellings of street types written with accents in every source group\n")
        for w in accents_only:
            f.write("=" + w + "\n")
    print(f"{OUT}: {len(words)} words ({n_mapbox} from Mapbox's {len(langs)} languages, the rest from "
          f"libpostal's {len(lp_langs)})")


if __name__ == "__main__":
    main()
