#!/usr/bin/env python3
"""Generate the names benchmark in tests/data/names_bench/ (issue 14, item 5).

Usage:
    python3 scripts/gen_names_bench.py                 # temporary venv, pinned faker, write the benchmark
    python3 scripts/gen_names_bench.py --venv DIR      # reuse (or create) the venv DIR and keep it
    python3 scripts/gen_names_bench.py --out DIR       # write somewhere else (default tests/data/names_bench)
    python3 scripts/gen_names_bench.py --seed 15 --out tests/data/names_bench_heldout
                                                       # the held-out set: same generator, other seed

The script creates a virtual environment in a temporary folder, installs the pinned
faker wheel there (`pip install --require-hashes --no-deps`; faker has no runtime
dependency), and re-runs itself inside it with `--inner`. Nothing is installed into the
calling Python. Every random choice comes from fixed seeds (SEED below and one faker
instance per locale seeded from it), so the same faker version gives byte-identical
files.

The person names come from faker's per-locale name lists only, never from the project's
own vocabularies under data/names/: the benchmark measures whether the extractor finds
names it was never shown. Output (all UTF-8, "\\n" line ends, keys sorted):

    corpus.jsonl       {"id", "content"} per line (clam's .jsonl corpus format)
    mentions.jsonl     the gold NAME mentions: {"doc", "start", "end", "text", "type": "NAME",
                       "key_start", "key_end", "given", "surname", "form", "locale",
                       "odd_char", "template"}; offsets in code points, end exclusive,
                       text == content[start:end]; key_* is the token a hit must cover
    distractors.jsonl  the capitalised non-names placed on purpose (city, company, street,
                       product, ...): {"doc", "start", "end", "text", "kind"}; for diagnostics
    README.md          what the benchmark is, its sources, seeds, counts and the command
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "names_bench")

FAKER_VERSION = "40.63.0"
FAKER_WHEEL = "faker-40.63.0-py3-none-any.whl"
FAKER_SHA256 = "36627c20b575b4138f54b6c21f8703e9ab122fd487aca11319beec2aa6ca7232"
COMMAND = "python3 scripts/gen_names_bench.py"

DEFAULT_SEED = 14  # the number; every other seed is derived from it
SEED = DEFAULT_SEED  # set from --seed in main()
N_NAMES = 600  # full-name mentions in name documents (surname back-references come on top)
N_NAME_FREE = 300  # documents without any person name

# --------------------------------------------------------------------------------------
# Outer run: a throw-away venv with the pinned faker, then this script again inside it.
# --------------------------------------------------------------------------------------


def run_in_faker_venv(script, out, seed, venv=None, prefix="clam-namesbench-", extra=()):
    """Run `script --inner --out OUT --seed SEED [EXTRA...]` in a virtual environment holding the
    pinned faker wheel (VENV, kept, or a temporary one, removed). Its exit code."""
    tmp = None
    if venv is not None:
        venv = os.path.abspath(venv)
    else:
        tmp = tempfile.mkdtemp(prefix=prefix)
        venv = os.path.join(tmp, "venv")
    py = os.path.join(venv, "bin", "python")
    try:
        if not os.path.exists(py):
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        req = os.path.join(tmp or venv, "requirements-faker.txt")
        with open(req, "w") as f:
            f.write(f"faker=={FAKER_VERSION} --hash=sha256:{FAKER_SHA256}\n")
        subprocess.run(
            [py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
             "--no-deps", "--only-binary", ":all:", "--require-hashes", "-r", req],
            check=True,
        )
        cmd = [py, os.path.abspath(script), "--inner", "--out", os.path.abspath(out),
               "--seed", str(seed), *extra]
        # faker's it_IT cities depend on set order: a fixed hash seed makes the sets
        # reproducible byte for byte.
        env = dict(os.environ, PYTHONHASHSEED="0")
        return subprocess.run(cmd, env=env).returncode
    finally:
        if tmp is not None:
            import shutil

            shutil.rmtree(tmp, ignore_errors=True)


def outer(args):
    return run_in_faker_venv(__file__, args.out, args.seed, args.venv)


# --------------------------------------------------------------------------------------
# Locales
# --------------------------------------------------------------------------------------

# (locale, how names are made). "std": first_name_<g>() + last_name_<g>() (gendered where
# the locale has gendered lists, e.g. cs_CZ Novák / Nováková); "roman": faker's
# romanized names (ja_JP, zh_CN, zh_TW); "vi": Vietnamese, family name first.
# fil_PH has no person provider in faker 40.63.0: faker falls back to its default
# (en_US) lists there; it is kept because the issue lists it, and said so in the README.
PERSON_LOCALES = [
    ("en_US", "std"), ("en_GB", "std"), ("de_DE", "std"), ("fr_FR", "std"),
    ("es_ES", "std"), ("es_MX", "std"), ("it_IT", "std"), ("pt_BR", "std"),
    ("pl_PL", "std"), ("nl_NL", "std"), ("sv_SE", "std"), ("tr_TR", "std"),
    ("cs_CZ", "std"), ("hu_HU", "std"), ("ro_RO", "std"), ("fi_FI", "std"),
    ("da_DK", "std"), ("no_NO", "std"), ("en_IN", "std"), ("vi_VN", "vi"),
    ("id_ID", "std"), ("fil_PH", "std"), ("zu_ZA", "std"),
    # further Latin-script locales
    ("pt_PT", "std"), ("sk_SK", "std"), ("sl_SI", "std"), ("hr_HR", "std"),
    ("lv_LV", "std"), ("lt_LT", "std"), ("et_EE", "std"), ("ga_IE", "std"),
    ("en_IE", "std"), ("en_NZ", "std"), ("fr_CA", "std"), ("de_AT", "std"),
    ("de_CH", "std"), ("fr_CH", "std"), ("nl_BE", "std"), ("fr_BE", "std"),
    ("es_CO", "std"), ("es_AR", "std"), ("es_CL", "std"), ("is_IS", "std"),
    ("az_AZ", "std"), ("uz_UZ", "std"), ("sw", "std"), ("yo_NG", "std"),
    ("ig_NG", "std"), ("ha_NG", "std"), ("tw_GH", "std"), ("en_KE", "std"),
    ("en_PK", "std"), ("en_TH", "std"),
    # romanized variants of non-Latin locales
    ("ja_JP", "roman"), ("zh_CN", "roman"), ("zh_TW", "roman"),
]

PLACE_LOCALES = ["en_US", "en_GB", "de_DE", "it_IT", "pl_PL", "es_ES", "pt_PT", "nl_NL",
                 "sv_SE", "fi_FI", "hu_HU", "da_DK", "de_AT", "cs_CZ", "ro_RO", "en_IN",
                 "es_MX", "zu_ZA", "id_ID", "en_NZ"]
COMPANY_LOCALES = ["en_US", "en_US", "de_DE", "de_CH", "fr_FR", "es_ES", "es_MX", "it_IT",
                   "pt_BR", "pl_PL", "nl_NL", "sv_SE", "fi_FI", "da_DK", "no_NO", "hu_HU",
                   "cs_CZ", "ro_RO", "tr_TR", "id_ID", "fil_PH"]
STREET_LOCALES = ["en_US", "en_US", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT", "pt_BR",
                  "nl_NL", "sv_SE", "ro_RO", "pl_PL", "da_DK", "en_AU", "fr_CA", "en_IE"]
STATE_LOCALES = ["en_US", "en_US", "de_DE", "en_CA", "en_AU", "es_MX", "pt_BR", "en_IN",
                 "it_IT"]

# lowercase particles in a surname ("van Hagen", "da Cunha", "de la Cruz"): not part of
# the key token a hit must cover
PARTICLES = {"van", "von", "der", "den", "de", "da", "das", "do", "dos", "di", "del",
             "della", "la", "le", "du", "des", "ten", "ter", "te", "y", "e", "zu", "af",
             "bin", "binti", "al", "el", "het", "op", "in", "'t"}


def is_latin_text(s):
    for ch in s:
        if ch.isalpha() and "LATIN" not in unicodedata.name(ch, ""):
            return False
    return True


def fix_caps(s):
    """zh_TW romanized names come all caps ("YU-HSUAN HSIEH"): title-case them."""
    if s.isupper():
        return "-".join(p.capitalize() for p in s.split("-"))
    return s


class People:
    def __init__(self, Faker, rng):
        self.rng = rng
        self.fakers = {}
        for i, (loc, _) in enumerate(PERSON_LOCALES):
            f = Faker(loc)
            f.seed_instance(SEED * 1000 + i)
            self.fakers[loc] = f

    def person(self, loc, kind):
        f = self.fakers[loc]
        for _ in range(50):
            g = self.rng.choice(["female", "male"])
            if kind == "roman":
                given = fix_caps(getattr(f, f"first_romanized_name_{g}", f.first_romanized_name)())
                sur = fix_caps(f.last_romanized_name())
                order = "gs"
            elif kind == "vi":
                first = getattr(f, f"first_name_{g}")()
                sur = f.last_name()
                # Vietnamese order: family name, middle name, given name ("Lê Văn Tùng");
                # a third of them in the Western order used abroad ("Tùng Lê")
                if self.rng.random() < 0.67:
                    mid = f.middle_name() if g == "male" else self.rng.choice(["Thị", "Ngọc", "Thu", ""])
                    given = (mid + " " + first).strip()
                    order = "sg"
                else:
                    given, order = first, "gs"
            else:
                given = getattr(f, f"first_name_{g}")()
                sur = getattr(f, f"last_name_{g}")()
                order = "gs"
            given, sur = given.strip(), sur.strip()
            if not given or not sur or not is_latin_text(given + sur):
                continue
            words = sur.split()
            if not words[-1][0].isupper() or any(
                    not w[0].isupper() and (w not in PARTICLES or (i and words[i - 1][0].isupper()))
                    for i, w in enumerate(words)):
                continue  # only leading lowercase particles ("van Hagen"; not "X recte Y")
            return {"given": given, "surname": sur, "order": order, "locale": loc, "gender": g}
        raise RuntimeError(f"no Latin-script name from {loc}")

    def extra_surname(self, loc):
        f = self.fakers[loc]
        roman = dict(PERSON_LOCALES)[loc] == "roman"
        for _ in range(50):
            s = (f.last_romanized_name() if roman else f.last_name()).strip()
            if s and is_latin_text(s) and " " not in s and s[0].isupper():
                return fix_caps(s)
        return "Lindqvist"


# --------------------------------------------------------------------------------------
# Capitalised non-names
# --------------------------------------------------------------------------------------

ONSETS = ["z", "v", "x", "k", "l", "m", "n", "r", "t", "d", "b", "p", "c", "f", "s", "qu",
          "tr", "br", "cl", "pr", "st", "gl", "fl", "ph", "sc"]
VOWELS = ["a", "e", "i", "o", "u", "y", "ae", "io", "ei", "ou"]
CODAS = ["", "", "n", "x", "l", "r", "s", "m", "v"]
DRUG_ENDS = ["trin", "vax", "zole", "mab", "lex", "dra", "nix", "vant", "tide", "pril",
             "sera", "dex", "lyn", "ora", "eon", "tavir", "plex", "cor", "zine", "fen"]
PRODUCT_TAILS = ["", "", "", " XR", " Plus", " 20", " SR", " Duo", " Forte", " Max"]
TRIAL_WORDS = ["BRIDGE", "ATLAS", "BEACON", "SUMMIT", "HORIZON", "COMPASS", "HARBOR",
               "LANTERN", "MERIDIAN", "CASCADE", "PINNACLE", "VANGUARD", "EMBER", "ORBIT",
               "QUARTZ", "TRELLIS", "KESTREL", "FALCON", "GLACIER", "PRISM", "ANCHOR",
               "ZENITH", "CANOPY", "TIDEWATER", "SPARROW", "CORAL", "VECTOR", "NIMBUS"]
TITLE_A = ["Quarterly", "Annual", "Monthly", "Spring", "Autumn", "Year-End", "Open",
           "Summer", "Winter", "Weekly", "Mid-Year", "Regional"]
TITLE_B = ["Benefits", "Enrollment", "Wellness", "Safety", "Compliance", "Claims",
           "Pharmacy", "Provider", "Member", "Payroll", "Retirement", "Coverage", "Dental"]
TITLE_C = ["Update", "Notice", "Bulletin", "Digest", "Review", "Report", "Newsletter",
           "Summary", "Briefing", "Guide", "Checklist"]
FORM_TITLES = ["Direct Deposit Authorization", "Change of Address Form",
               "Prior Authorization Request", "Explanation of Benefits",
               "Beneficiary Designation Form", "Leave of Absence Request",
               "Return to Work Certificate", "Dependent Verification Form",
               "Coordination of Benefits Questionnaire", "Incident Report Form",
               "Travel Expense Claim", "Hardship Withdrawal Request",
               "Medical Records Release", "Summary Plan Description",
               "Notice of Privacy Practices", "Wage and Tax Statement"]
DEPTS = ["Claims Department", "Member Services", "Human Resources", "Accounts Payable",
         "Benefits Office", "Payroll Team", "Compliance Unit", "Facilities Management",
         "Provider Relations", "Customer Care", "Legal Department", "Underwriting Desk",
         "Pharmacy Benefits Team", "Records Office", "Quality Assurance", "IT Service Desk",
         "Appeals Unit", "Finance Office", "Occupational Health", "Wellness Committee"]
JOBS = ["Benefits Coordinator", "Claims Adjuster", "Senior Underwriter", "Payroll Specialist",
        "Case Manager", "Office Manager", "Compliance Analyst", "Warehouse Supervisor",
        "Shift Lead", "Data Steward", "Account Executive", "Facilities Technician",
        "Quality Auditor", "Regional Director", "Customer Service Representative",
        "Records Clerk", "Project Coordinator", "Safety Officer", "Billing Specialist"]
HOLIDAYS = ["Thanksgiving", "Memorial Day", "Labor Day", "Christmas Eve", "Independence Day",
            "Good Friday", "Easter Monday", "Veterans Day", "Boxing Day", "New Year's Day",
            "Whit Monday", "Canada Day", "Bastille Day", "Diwali", "Lunar New Year",
            "Juneteenth", "Ascension Day", "St. Patrick's Day", "Midsummer Eve", "Eid al-Fitr"]
AWARDS = ["Spirit of Service Award", "Golden Ladder Award", "Safety Star Award",
          "Customer Champion Award", "Innovation Prize", "Above and Beyond Award",
          "Team Excellence Award", "President's Circle"]
PLANS = ["Silver Choice PPO", "Bronze Saver", "Gold Plus HMO", "Platinum Select",
         "Essential Care", "Premier Flex", "Value Advantage", "Horizon Basic"]
CONDITIONS = ["chronic lower back pain", "type 2 diabetes", "a torn meniscus", "asthma",
              "hypertension", "a fractured wrist", "migraine", "sleep apnea",
              "a rotator cuff tear", "plantar fasciitis", "COPD", "an ankle sprain",
              "carpal tunnel syndrome", "a herniated disc", "seasonal allergies"]
STATUSES = ["approved", "pending", "denied", "returned", "closed", "on hold", "paid"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
ORG_MARKERS = {"Inc", "Inc.", "LLC", "Ltd", "PLC", "Group", "GmbH", "AG", "KG", "SA", "S.A.",
               "SpA", "SPA", "S.p.A.", "BV", "NV", "AB", "HB", "Oy", "Oyj", "ApS", "AS", "ASA",
               "Kft.", "Zrt.", "Bt.", "SRL", "S.R.L.", "A.Ş.", "s.r.o.", "v.o.s.", "a.s.",
               "S.C.", "S/A", "Ltda.", "S.L.", "S.Coop.", "Sons", "Tbk", "PT", "CV", "Corp."}


def faker_name_sets(Faker):
    """All given names and surnames in faker's person lists of the person locales (to keep
    places and companies that read as a person's name out of the name-free prose)."""
    given, sur = set(), set()
    for loc, _ in PERSON_LOCALES:
        for prov in Faker(loc).factories[0].providers:
            if ".person." not in type(prov).__module__:
                continue
            for attr in dir(prov):
                if not (attr.startswith("first_names") or attr.startswith("last_names")
                        or attr.startswith("first_romanized") or attr.startswith("last_romanized")):
                    continue
                v = getattr(prov, attr)
                if callable(v) or not isinstance(v, (list, tuple, dict)):
                    continue
                target = given if attr.startswith("first") else sur
                target.update(fix_caps(str(x)) for x in v)
    return given, sur


class Things:
    """Capitalised non-names, each with its kind (recorded in distractors.jsonl).

    A place that is a single word found in faker's name lists ("Santana", "Larsen") and a
    company holding a given name followed by a surname ("Durdu Ertaş Ltd. Şti.") are
    drawn again: read in isolation they are a person's name, so they could not be
    scored fairly as non-names."""

    def __init__(self, Faker, rng):
        self.rng = rng
        self.given_names, self.surnames = faker_name_sets(Faker)
        self.f = {}
        locs = sorted(set(PLACE_LOCALES + COMPANY_LOCALES + STREET_LOCALES + STATE_LOCALES))
        for i, loc in enumerate(locs):
            fk = Faker(loc)
            fk.seed_instance(SEED * 1000 + 500 + i)
            self.f[loc] = fk

    def _latin(self, fn, tries=30):
        for _ in range(tries):
            s = fn().strip()
            if s and is_latin_text(s):
                return s
        raise RuntimeError("no Latin-script value")

    def _not_a_name(self, fn):
        for _ in range(50):
            s = self._latin(fn)
            if s[0].islower():
                continue  # pt_BR "da Costa": a surname, not a place
            if " " in s or "-" in s or (s not in self.given_names and s not in self.surnames):
                return s
        raise RuntimeError("only name-like places")

    def city(self):
        return self._not_a_name(lambda: self.f[self.rng.choice(PLACE_LOCALES)].city())

    def state(self):
        def one():
            f = self.f[self.rng.choice(STATE_LOCALES)]
            for m in ("state", "province", "administrative_unit"):
                if hasattr(f, m):
                    return getattr(f, m)()
            return f.city()
        return self._not_a_name(one)

    def country(self):
        return self._latin(lambda: self.f["en_US"].country())

    def person_like(self, toks):
        return any(a in self.given_names and b in self.surnames for a, b in zip(toks, toks[1:]))

    def company(self):
        loc = self.rng.choice(COMPANY_LOCALES)
        f = self.f[loc]
        for _ in range(50):
            c = self._latin(f.company)
            toks = c.replace(",", " ").split()
            if not self.person_like(toks):
                break
        suffixes = set(ORG_MARKERS)
        for prov in f.factories[0].providers:
            if ".company." in type(prov).__module__ and hasattr(prov, "company_suffixes"):
                suffixes.update(str(x) for x in prov.company_suffixes)
        marked = any(c.endswith(" " + x) for x in suffixes if x) or any(
            w in toks for w in ("and", "und", "y", "e", "és", "&", "og", "och", "ja", "și", "ve"))
        if not marked or len(toks) == 1:
            # a bare surname ("Kramer") or two hyphenated ones ("Lawson-Wang") cannot be
            # told from a person out of context: give it the locale's legal suffix
            suf = ""
            for _ in range(10):
                suf = f.company_suffix().strip()
                if suf and is_latin_text(suf):
                    break
            c = f"{c} {suf or 'Group'}"
        return c

    def street(self):
        return self._latin(lambda: self.f[self.rng.choice(STREET_LOCALES)].street_name())

    def street_address(self):
        loc = self.rng.choice(["en_US", "en_US", "en_GB", "en_AU", "en_NZ"])
        return self._latin(lambda: self.f[loc].street_address().replace("\n", ", "))

    def syll(self):
        return self.rng.choice(ONSETS) + self.rng.choice(VOWELS) + self.rng.choice(CODAS)

    def product(self):
        r = self.rng.random()
        if r < 0.55:
            w = (self.syll() + self.syll() + self.rng.choice(DRUG_ENDS)).capitalize()
            tail = self.rng.choice(PRODUCT_TAILS)
            if self.rng.random() < 0.3:
                tail = f"-{self.rng.randint(2, 12)}"
            return w + tail
        if r < 0.8:
            letters = "".join(self.rng.choice("ABCDEFGHJKLMNPRSTVXZ") for _ in range(self.rng.randint(2, 4)))
            return f"{letters}-{self.rng.randint(10, 9999)}"
        w = (self.syll() + self.rng.choice(DRUG_ENDS)).upper()
        return f"{w} {self.rng.choice(['Pro', 'Care', 'Link', 'One', 'Go'])}"

    def trial(self):
        if self.rng.random() < 0.7:
            return f"{self.rng.choice(TRIAL_WORDS)}-{self.rng.randint(1, 40)}"
        return f"{self.syll().upper()}{self.rng.choice(['-HF', '-CV', '-2', '-ONE', '-PD'])}"

    def title(self):
        if self.rng.random() < 0.6:
            return f"{self.rng.choice(TITLE_A)} {self.rng.choice(TITLE_B)} {self.rng.choice(TITLE_C)}"
        return self.rng.choice(FORM_TITLES)


# --------------------------------------------------------------------------------------
# Templates
# --------------------------------------------------------------------------------------

# Name templates. {N}, {N2}, {N3}: person names. "R" marks record-like templates where
# the inverted forms ("KELLER, Maria") read naturally; "S" sentence templates (no
# inverted form: a comma inside the name would change the sentence). No honorific, no
# field label and no role word right before a name.
NAME_TEMPLATES = [
    ("S", "Claim submitted for {N} ({id}) on {date}."),
    ("S", "{N}, a {age}-year-old with {condition}, was seen at the {city} office on {date}."),
    ("R", "Records were forwarded to {company} ({N}, DOB {dob})."),
    ("S", "Congratulations to {N}, night-shift lead at the {city} warehouse, on ten years with {company}!"),
    ("S", "{N} called on {weekday} about the {product} refill and asked for a call back."),
    ("S", "We spoke with {N} about the {title} and the changes coming in {month}."),
    ("R", "Signed: {N}"),
    ("R", "cc: {N}; {dept}"),
    ("S", "The file was reviewed by {N} and {N2}."),
    ("S", "{N}'s claim was approved on {date} after review by the {dept}."),
    ("S", "Thanks again to {N}, {N2} and {N3} for covering the {holiday} weekend in {city}."),
    ("S", "According to {N}, the shipment from {company} reached {city} on {weekday}."),
    ("S", "Please send the signed {title} to {N} before {month} {day}."),
    ("S", "A refund of ${amount} was issued to {N} on {date}."),
    ("S", "Present at the {city} meeting were {N}, {N2} and {N3}."),
    ("S", "{N} moved from {city} to {city2} in {month} and asked that mail go to {street_address}."),
    ("S", "When {N} returned from {country}, the {trial} study visit was rebooked."),
    ("S", "In {month}, {N} joined the {dept} in {city}."),
    ("S", "The appeal filed by {N} on {date} is still pending with {company}."),
    ("S", "Per {N}, the {product} dosage was unchanged."),
    ("R", "{N} (ID {id}) has not yet returned the {title}."),
    ("S", "Voicemail from {N} at {time}: asking about the {month} statement."),
    ("S", "On {weekday}, {N} confirmed the appointment at {company}."),
    ("S", "Our thanks to {N}, who organised the {holiday} food drive in {city}."),
    ("S", "Payment for {N} was held because the {title} was incomplete."),
    ("S", "{N} and {N2} will share the {dept} on-call rota through {month}."),
    ("S", "Forwarded to {N} for a second opinion on {date}."),
    ("S", "{N} declined the {product} offer and kept the {plan} plan."),
    ("S", "Questions about this notice can go to {N} at extension {ext}."),
    ("S", "Invoice {id} was approved by {N}; payment will reach {company} by {weekday}."),
    ("S", "Hi {N}, your {title} is attached."),
    ("S", "{N} was born in {city} on {dob} and lives on {street}."),
    ("S", "Both {N} and {N2} signed the {title} at the {city} branch."),
    ("S", "The {company} account has been handled by {N} since {month} {year}."),
    ("R", "Best regards,\n{N}\n{dept}, {company}"),
    ("R", "{N} \u2014 {city}, {country} \u2014 {date}"),
    ("S", "After {N} left {company} in {year}, the {product} project moved to {city}."),
    ("S", "The {title} for {N} lists {city} as the home address."),
    ("S", "Transferred from {N} to {N2} on {date}."),
    ("S", "Feedback from {N}: \"The {city} staff were very kind.\""),
    ("R", "{N} ({age}) of {city} was approved for the {product} programme."),
    ("R", "Next review: {date} ({N})."),
    ("S", "{city} \u2014 {N} received the {award} on {weekday}."),
    ("S", "The letter to {N} came back from {city} marked undeliverable."),
    ("S", "Spoke to {N} re {product} shipment; will call back {weekday}."),
    ("S", "Documents for {N} were scanned by {N2} on {date}."),
    ("S", "Yesterday {N} asked whether {trial} visits in {city} are reimbursed."),
    ("S", "Coverage under {plan} ends for {N} on {date}."),
    ("S", "{N} will present the {title} at the {month} all-hands in {city}."),
    ("S", "A {job} from {company} met {N} at {street_address} on {weekday}."),
    ("S", "{N} ({id}), {N2} ({id2}) and {N3} ({id3}) were added to the {plan} plan."),
    ("S", "The {dept} thanks {N} for the quick turnaround on the {title}."),
]
# one-line rows for table-like documents
NAME_ROW_TEMPLATES = [
    "{N} | {date} | {status}",
    "{N} | {id} | {city} | {status}",
    "- {N}, {city}",
    "{N}\t{date}\t{status}",
]
# a later sentence naming the person by surname alone ({S})
BACKREF_TEMPLATES = [
    "{S} confirmed the {weekday} appointment.",
    "A copy went to {S} on {date}.",
    "{S} asked for the {title} to be resent.",
    "The {dept} will call {S} again on {weekday}.",
    "Until then {S} stays on the {plan} plan.",
    "{S}'s paperwork is complete.",
]
# prose without any person name, with many capitalised non-names
NONAME_TEMPLATES = [
    "The {title} for {month} {year} is now available from the {dept}.",
    "{company} will move its {city} office to {street_address} on {date}.",
    "Enrollment for the {product} programme closes on {weekday}, {month} {day}.",
    "Shipments from {city} to {city2} were delayed by the {holiday} closure.",
    "{company} has renewed its contract with {company2} for another {n} years.",
    "The {dept} in {city}, {state} now opens at 8 a.m.",
    "Trial {trial} enrolled {n} participants across {country} and {country2}.",
    "{product} is not covered under the {plan} plan after {month}.",
    "Please return the {title} to {street_address}, {city}.",
    "Our {city} and {city2} branches are closed on {holiday}.",
    "The {job} position in the {dept} has been filled.",
    "Claim {id} was submitted on {date} and approved on {date2}.",
    "{weekday} sessions of the {title} workshop move to {city}.",
    "{trial} results will be presented in {city} in {month}.",
    "Visit {company} at {street_address} for the {product} demo.",
    "From the {dept}: {title}.",
    "The {city} depot on {street} reopened on {weekday}.",
    "Residents of {state} and {country} may call the {dept} helpline.",
    "A new {job} will join the {city} team in {month}.",
    "{product} and {product2} are listed on the {plan} formulary.",
    "Reminder: the {holiday} schedule starts {weekday}.",
    "{company} reported a {n}% increase in {city} claims.",
    "The {title} was mailed to all {state} members on {date}.",
    "Parking at {street_address} is closed until {month} {day}.",
    "Signed on behalf of {company}",
    "cc: {dept}; {company}",
    "Reviewed by the {dept} and {company} on {date}.",
    "{company}'s invoice {id} was paid on {date}.",
    "Training in {city}: {title}, {weekday} {date}.",
    "{street} will be closed for repairs between {city} and {city2}.",
    "Thanks to the {city} team for covering the {holiday} weekend.",
    "The {product} recall affects lots shipped to {country} in {month}.",
    "{month} newsletter: {title}.",
    "Welcome to the {dept} at {company}!",
    "Questions? Call the {dept} at {phone}.",
    "{trial} ({product}) phase {phase} starts in {city} on {date}.",
    "The {company} warehouse in {city} moved to {street}.",
    "Every {job} must complete the {title} by {weekday}.",
    "{city}, {state} \u2014 {company} opened a new office on {date}.",
    "Congratulations to the {dept} for winning the {award}!",
    "We spoke with {company} about the {product} shipment.",
    "{company} called on {weekday} about the {title}.",
    "According to {company}, the {trial} sites in {city} are on schedule.",
    "Payment for invoice {id} was held because the {title} was incomplete.",
    "The {award} goes to the {city} branch this year.",
    "In {month}, the {dept} moved from {city} to {street_address}.",
]
NONAME_ROW_TEMPLATES = [
    "{company} | {date} | {status}",
    "{id} | {city} | {product} | {status}",
    "- {company}, {city}",
    "{street_address} | {city} | {status}",
    "{trial}\t{city}\t{status}",
]
HEADINGS = ["{title}", "{title} \u2014 {month} {year}", "{dept}: {title}", "{company} \u2014 {title}",
            "{city} office, {month} {year}"]

# distractor kinds by placeholder
KINDS = {"city": "CITY", "city2": "CITY", "state": "STATE", "country": "COUNTRY",
         "country2": "COUNTRY", "company": "COMPANY", "company2": "COMPANY",
         "street": "STREET", "street_address": "ADDRESS", "product": "PRODUCT",
         "product2": "PRODUCT", "trial": "TRIAL", "title": "TITLE", "dept": "DEPARTMENT",
         "job": "JOB_TITLE", "holiday": "HOLIDAY", "award": "AWARD", "plan": "PLAN",
         "month": "MONTH", "weekday": "WEEKDAY"}

# --------------------------------------------------------------------------------------
# Name forms
# --------------------------------------------------------------------------------------

FORMS = [  # (form, weight)
    ("plain", 44), ("middle_initial", 8), ("last_first", 6), ("last_first_caps", 5),
    ("all_caps", 5), ("initial_surname", 8), ("given_initial", 6), ("hyphenated", 8),
]
ODD_CHARS = [("U+00A0", "\u00a0"), ("U+2009", "\u2009"), ("U+200B", "\u200b"),
             ("U+202F", "\u202f")]


def initial(word):
    return word[0].upper() + "."


def render_name(p, form, rng, people, odd=None):
    """Render person p in a form. Returns (text, key_start, key_end, given_words, surname).

    given_words: the given-name words written in full (none for "I. Carvalho");
    surname: the surname as written in full (None for "Ines C.").
    The key is the surname without leading lowercase particles ("van Hagen" -> "Hagen")
    when it is written in full, else the given name."""
    given, sur = p["given"], p["surname"]
    if form == "hyphenated":
        sur = sur + "-" + people.extra_surname(p["locale"])
    parts = []  # (text, role): role in given, surname, sep, initial

    def sur_parts(s, caps=False):
        words = s.split(" ")
        out = []
        lead = True
        for i, w in enumerate(words):
            if i:
                out.append((" ", "sep"))
            role = "particle" if (lead and w in PARTICLES and i < len(words) - 1) else "surname"
            if role == "surname":
                lead = False
            out.append((w.upper() if caps else w, role))
        return out

    def given_parts(s, caps=False):
        out = []
        for i, w in enumerate(s.split(" ")):
            if i:
                out.append((" ", "sep"))
            out.append((w.upper() if caps else w, "given"))
        return out

    written_given, written_sur = given.split(" "), sur
    if p["order"] == "sg":  # Vietnamese order; only plain and all-caps forms
        caps = form == "all_caps"
        parts = sur_parts(sur, caps) + [(" ", "sep")] + given_parts(given, caps)
    elif form in ("plain", "hyphenated"):
        parts = given_parts(given) + [(" ", "sep")] + sur_parts(sur)
    elif form == "middle_initial":
        mid = people.fakers[p["locale"]].first_name()
        mid = mid if is_latin_text(mid) and mid[:1].isalpha() else "J"
        parts = given_parts(given) + [(" ", "sep"), (initial(mid), "initial"), (" ", "sep")] + sur_parts(sur)
    elif form == "last_first":
        parts = sur_parts(sur) + [(", ", "sep")] + given_parts(given)
    elif form == "last_first_caps":
        parts = sur_parts(sur, True) + [(", ", "sep")] + given_parts(given, rng.random() < 0.5)
    elif form == "all_caps":
        parts = given_parts(given, True) + [(" ", "sep")] + sur_parts(sur, True)
    elif form == "initial_surname":
        parts = [(initial(given), "initial"), (" ", "sep")] + sur_parts(sur)
        written_given = []
    elif form == "given_initial":
        last_word = [w for w in sur.split(" ") if w not in PARTICLES][0]
        parts = given_parts(given) + [(" ", "sep"), (initial(last_word), "initial")]
        written_sur = None
    elif form == "surname_only":
        parts = sur_parts(sur)
        written_given = []
    else:
        raise ValueError(form)

    if odd is not None:
        code, ch = odd
        if ch == "\u200b":
            # inside the surname: "Carv\u200balho"
            k = max(i for i, (_, r) in enumerate(parts) if r == "surname")
            w = parts[k][0]
            cut = max(1, len(w) // 2)
            parts[k] = (w[:cut] + ch + w[cut:], "surname")
        else:
            # the space between given name and surname
            k = next(i for i, (t, r) in enumerate(parts) if r == "sep" and t == " "
                     and parts[i + 1][1] in ("surname", "particle"))
            parts[k] = (ch, "sep")

    text, pos, ks, ke = "", 0, None, None
    key_role = "surname" if any(r == "surname" for _, r in parts) else "given"
    for t, r in parts:
        if r == key_role:
            if ks is None:
                ks = pos
            ke = pos + len(t)
        text += t
        pos += len(t)
    if key_role == "given":
        # the key is the (first) given name word only
        first = next((i for i, (_, r) in enumerate(parts) if r == "given"))
        ks = sum(len(t) for t, _ in parts[:first])
        ke = ks + len(parts[first][0])
    return text, ks, ke, written_given, written_sur


# --------------------------------------------------------------------------------------
# Document assembly
# --------------------------------------------------------------------------------------


class Builder:
    def __init__(self, rng, people, things):
        self.rng = rng
        self.people = people
        self.things = things
        self.locale_cycle = []

    def next_locale(self):
        if not self.locale_cycle:
            self.locale_cycle = list(PERSON_LOCALES)
            self.rng.shuffle(self.locale_cycle)
        return self.locale_cycle.pop()

    def date(self, lo=2021, hi=2025):
        y, m, d = self.rng.randint(lo, hi), self.rng.randint(1, 12), self.rng.randint(1, 28)
        style = self.rng.randrange(5)
        if style == 0:
            return f"{m:02d}/{d:02d}/{y}"
        if style == 1:
            return f"{MONTHS[m - 1]} {d}, {y}"
        if style == 2:
            return f"{y}-{m:02d}-{d:02d}"
        if style == 3:
            return f"{d} {MONTHS[m - 1]} {y}"
        return f"{d:02d}.{m:02d}.{y}"

    def ident(self):
        r = self.rng
        return r.choice([
            lambda: f"PR-{r.randint(1000, 9999)}-{r.randint(100, 999)}",
            lambda: f"CLM-{r.randint(2021, 2025)}-{r.randint(10000, 99999)}",
            lambda: f"MBR{r.randint(100000, 999999)}",
            lambda: f"EMP-{r.randint(10000, 99999)}",
            lambda: f"case {r.randint(10, 99)}-{r.randint(1000, 9999)}",
            lambda: f"#{r.randint(100000, 999999)}",
        ])()

    def value(self, key):
        r, t = self.rng, self.things
        base = key.rstrip("0123456789")
        fns = {
            "city": t.city, "state": t.state, "country": t.country, "company": t.company,
            "street": t.street, "street_address": t.street_address, "product": t.product,
            "trial": t.trial, "title": t.title,
            "dept": lambda: r.choice(DEPTS), "job": lambda: r.choice(JOBS),
            "holiday": lambda: r.choice(HOLIDAYS), "award": lambda: r.choice(AWARDS),
            "plan": lambda: r.choice(PLANS), "month": lambda: r.choice(MONTHS),
            "weekday": lambda: r.choice(WEEKDAYS), "condition": lambda: r.choice(CONDITIONS),
            "status": lambda: r.choice(STATUSES), "date": self.date,
            "dob": lambda: self.date(1940, 2004), "id": self.ident,
            "age": lambda: str(r.randint(19, 88)), "day": lambda: str(r.randint(1, 28)),
            "year": lambda: str(r.randint(2015, 2025)), "n": lambda: str(r.randint(2, 40)),
            "ext": lambda: str(r.randint(2000, 7999)), "phase": lambda: r.choice(["1", "2", "3", "II", "III"]),
            "amount": lambda: f"{r.randint(12, 4800):,}.{r.randint(0, 99):02d}",
            "time": lambda: f"{r.randint(7, 17)}:{r.randint(0, 59):02d}",
            "phone": lambda: f"(555) {r.randint(100, 999)}-{r.randint(1000, 9999)}",
        }
        return fns[base]()

    def fill(self, template, doc, names=None, record=False, surname=None):
        """Fill a template; returns (text, mentions, distractors) with offsets relative to
        the start of the returned text."""
        out, pos = [], 0
        mentions, distractors = [], []
        i = 0
        while i < len(template):
            j = template.find("{", i)
            if j < 0:
                out.append(template[i:])
                pos += len(template) - i
                break
            out.append(template[i:j])
            pos += j - i
            k = template.index("}", j)
            key = template[j + 1:k]
            i = k + 1
            if key in ("N", "N2", "N3"):
                text, m = names(record)
                if j == 0 and text[:1].islower():  # "van Hagen, Aimée" opening a line
                    text = text[0].upper() + text[1:]
                    m = dict(m, text=text)
                m = dict(m, start=pos, end=pos + len(text), key_start=pos + m["key_start"],
                         key_end=pos + m["key_start"] + (m["key_end"] - m["key_start"]))
                mentions.append(m)
                # "Ines C." at the end of a sentence: one full stop
                if text.endswith(".") and template[i:i + 1] == ".":
                    i += 1
            elif key == "S":
                text, m = surname
                m = dict(m, start=pos, end=pos + len(text), key_start=pos + m["key_start"],
                         key_end=pos + m["key_end"])
                mentions.append(m)
            else:
                text = self.value(key)
                if j == 0 and text[:1].islower():  # "rue Victor Hugo" opening a sentence
                    text = text[0].upper() + text[1:]
                if key in KINDS or key.rstrip("0123456789") in KINDS:
                    kind = KINDS.get(key) or KINDS[key.rstrip("0123456789")]
                    distractors.append({"start": pos, "end": pos + len(text), "text": text, "kind": kind})
            out.append(text)
            pos += len(text)
        return "".join(out), mentions, distractors


def build(Faker):
    rng = random.Random(SEED)
    people = People(Faker, rng)
    things = Things(Faker, rng)
    b = Builder(rng, people, things)

    forms, weights = zip(*FORMS)
    state = {"names": 0, "odd_left": 24}
    firsts = []  # persons of the current document (for back-references)

    def make_name(record):
        loc, kind = b.next_locale()
        p = people.person(loc, kind)
        if p["order"] == "sg":
            form = rng.choice(["plain"] * 5 + ["all_caps"])
        else:
            form = rng.choices(forms, weights)[0]
            if not record and form in ("last_first", "last_first_caps"):
                form = "plain"
        odd = None
        if form == "plain" and p["order"] == "gs" and state["odd_left"] > 0 and rng.random() < 0.12:
            odd = ODD_CHARS[state["odd_left"] % len(ODD_CHARS)]
            state["odd_left"] -= 1
        text, ks, ke, gw, sw = render_name(p, form, rng, people, odd)
        state["names"] += 1
        firsts.append((p, form, sw))
        return text, {"text": text, "type": "NAME", "key_start": ks, "key_end": ke,
                      "given": gw, "surname": sw, "form": form, "locale": loc,
                      "odd_char": odd[0] if odd else None}

    docs = []  # (content, mentions, distractors)

    def assemble(pieces):
        """pieces: list of (text, mentions, distractors, joiner-after)"""
        content, ms, ds = "", [], []
        # record-like lines ("Signed: …", "cc: …", "Best regards,\n…", a line without a
        # closing full stop) stand on lines of their own
        openers = ("Signed", "cc:", "Best regards")
        fixed = []
        for k, (text, m, d, sep) in enumerate(pieces):
            nxt = pieces[k + 1][0] if k + 1 < len(pieces) else ""
            if sep == " " and ("\n" in text or not text.endswith((".", "!", "?", '"'))
                               or text.startswith(openers) or nxt.startswith(openers)):
                sep = "\n"
            fixed.append((text, m, d, sep))
        for text, m, d, sep in fixed:
            off = len(content)
            for x in m:
                ms.append(dict(x, start=x["start"] + off, end=x["end"] + off,
                               key_start=x["key_start"] + off, key_end=x["key_end"] + off))
            for x in d:
                ds.append(dict(x, start=x["start"] + off, end=x["end"] + off))
            content += text + sep
        return content.rstrip("\n ") + "\n", ms, ds

    def noname_sentences(k):
        out = []
        for _ in range(k):
            t = rng.choice(NONAME_TEMPLATES)
            text, _, d = b.fill(t, None)
            ends = text.endswith((".", "!", "?", '"'))
            out.append((text, [], d, " " if ends and rng.random() < 0.6 else "\n"))
        return out

    def heading():
        text, _, d = b.fill(rng.choice(HEADINGS), None)
        return (text, [], d, "\n\n")

    # ---- name documents
    while state["names"] < N_NAMES:
        firsts.clear()
        style = rng.random()
        pieces = []
        if style < 0.12:
            # table-like: heading, rows
            pieces.append(heading())
            for _ in range(rng.randint(2, 5)):
                t = rng.choice(NAME_ROW_TEMPLATES)
                text, m, d = b.fill(t, None, names=make_name, record=True)
                for x in m:
                    x["template"] = "row:" + t
                pieces.append((text, m, d, "\n"))
        else:
            if rng.random() < 0.3:
                pieces.append(heading())
            n_name = 1 if rng.random() < 0.7 else 2
            body = []
            for _ in range(n_name):
                kind, t = rng.choice(NAME_TEMPLATES)
                text, m, d = b.fill(t, None, names=make_name, record=(kind == "R"))
                for x in m:
                    x["template"] = t
                body.append((text, m, d, " " if rng.random() < 0.6 else "\n"))
            body += noname_sentences(rng.randint(0, 3))
            rng.shuffle(body)
            pieces += body
            # surname back-reference after the full name
            cand = [(p, f, s) for p, f, s in firsts if f in ("plain", "middle_initial", "hyphenated")
                    and p["order"] == "gs" and s and " " not in s]
            if cand and rng.random() < 0.15:
                p, f, s = cand[0]
                t = rng.choice(BACKREF_TEMPLATES)
                sm = {"text": s, "type": "NAME", "key_start": 0, "key_end": len(s), "given": [],
                      "surname": s, "form": "surname_only", "locale": p["locale"], "odd_char": None,
                      "template": "backref:" + t}
                text, m, d = b.fill(t, None, surname=(s, sm))
                pieces.append((text, m, d, "\n"))
        docs.append(assemble(pieces))

    # ---- name-free documents
    for _ in range(N_NAME_FREE):
        pieces = []
        if rng.random() < 0.35:
            pieces.append(heading())
        if rng.random() < 0.15:
            for _ in range(rng.randint(2, 5)):
                text, _, d = b.fill(rng.choice(NONAME_ROW_TEMPLATES), None)
                pieces.append((text, [], d, "\n"))
        else:
            pieces += noname_sentences(rng.randint(2, 5))
        docs.append(assemble(pieces))

    rng.shuffle(docs)
    return docs


def write(out_dir, docs, faker_version):
    os.makedirs(out_dir, exist_ok=True)
    corpus, mentions, distractors = [], [], []
    for i, (content, ms, ds) in enumerate(docs):
        doc_id = f"doc-{i + 1:04d}"
        corpus.append({"id": doc_id, "content": content})
        for m in sorted(ms, key=lambda x: x["start"]):
            m = dict(m, doc=doc_id)
            assert content[m["start"]:m["end"]] == m["text"], (doc_id, m)
            assert m["start"] <= m["key_start"] < m["key_end"] <= m["end"], (doc_id, m)
            mentions.append(m)
        for d in sorted(ds, key=lambda x: x["start"]):
            d = dict(d, doc=doc_id)
            assert content[d["start"]:d["end"]] == d["text"], (doc_id, d)
            distractors.append(d)

    def dump(name, rows):
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")

    dump("corpus.jsonl", corpus)
    dump("mentions.jsonl", mentions)
    dump("distractors.jsonl", distractors)

    docs_with = {m["doc"] for m in mentions}
    from collections import Counter

    forms = Counter(m["form"] for m in mentions)
    odd = Counter(m["odd_char"] for m in mentions if m["odd_char"])
    kinds = Counter(d["kind"] for d in distractors)
    kinds_free = Counter(d["kind"] for d in distractors if d["doc"] not in docs_with)
    locales = Counter(m["locale"] for m in mentions)
    stats = {
        "documents": len(corpus), "name_documents": len(docs_with),
        "name_free_documents": len(corpus) - len(docs_with), "mentions": len(mentions),
        "forms": forms, "odd": odd, "kinds": kinds, "kinds_free": kinds_free, "locales": locales,
    }
    with open(os.path.join(out_dir, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(readme(stats, faker_version, out_dir))
    return stats


def table(counter):
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def readme(s, faker_version, out_dir):
    rel = os.path.relpath(os.path.abspath(out_dir), ROOT)
    command = COMMAND
    if SEED != DEFAULT_SEED or os.path.abspath(out_dir) != DEFAULT_OUT:
        command = f"{COMMAND} --seed {SEED} --out {rel}"
    score = f"python3 scripts/names_bench.py {rel} SNAPSHOT.json"
    run_all = "`scripts/names_bench.sh`"
    if os.path.abspath(out_dir) != DEFAULT_OUT:
        run_all = f"`NAMES_BENCH={rel} scripts/names_bench.sh`"
    n_templates = len(NAME_TEMPLATES) + len(NAME_ROW_TEMPLATES) + len(BACKREF_TEMPLATES)
    return f"""# Names benchmark (issue 14, item 5)

Generated by `{command}` — do not edit by hand; change the script and run it again.
Scored by `{score}`, or all
in one go with {run_all} (builds nothing: it runs the release binary).

## What it measures

Whether the offline extractor finds person names **it was never shown**, written in
running administrative prose **without any cue** (no honorific, no "Name:" label, no
role word such as "patient" right before the name), and whether it leaves alone the
capitalised words that are not names (places, companies, streets, coined product and
trial names, form and newsletter titles, departments, job titles, holidays, months,
weekdays).

The person names come from the PyPI package **faker {faker_version}** (MIT licence,
<https://github.com/joke2k/faker>), from its per-locale name lists — never from
clam's own name vocabularies (`data/names/`), which are built from other sources
(US Census name files and other public lists). A recognizer that only looks names up
cannot pass it: the evaluator reports recall separately for names whose tokens are all
in those vocabularies and for names with at least one token outside them (target for
the latter: ≥ 0.95, with precision ≥ 0.95).

## Files

| file | content |
|---|---|
| `corpus.jsonl` | {s['documents']} documents, `{{"id", "content"}}` per line (clam's `.jsonl` corpus format) |
| `mentions.jsonl` | {s['mentions']} gold NAME mentions (below) |
| `distractors.jsonl` | the capitalised non-names placed on purpose, `{{"doc", "start", "end", "text", "kind"}}` — for diagnostics only: the evaluator names the kind a false positive overlaps |
| `README.md` | this file |

Documents: {s['name_documents']} contain names, **{s['name_free_documents']} are name-free**
(every NAME the extractor emits there is a false positive). Ids are `doc-0001`… in a
shuffled order, so an id does not tell which kind a document is.

A mention: `{{"doc", "start", "end", "text", "type": "NAME", "key_start", "key_end",
"given", "surname", "form", "locale", "odd_char", "template"}}`. Offsets are Unicode
code points into `content`, end exclusive, `text == content[start:end]`. The mention
covers the whole name as written, including an invisible character or odd space inside
it, and excluding a possessive `'s` and any punctuation after it (the full stop of
"Ines C." belongs to the name). `key_start`/`key_end` is the **key token**: the surname
as written (both halves of a hyphenated one; without a leading lowercase particle:
"van Hagen" → "Hagen"; in the Vietnamese order the family name comes first), or, in the
form "Ines C." where the surname is only an initial, the first given name. `given` is
the list of given-name words written in full (empty for "I. Carvalho"), `surname` the
surname written in full (null for "Ines C."); the evaluator checks these against the
vocabularies. `odd_char` is the code point of the invisible or odd character in the
name, if any.

## Names

{s['mentions']} mentions from {len(s['locales'])} faker locales: {table(s['locales'])}.

- Made with `first_name_<gender>()` + `last_name_<gender>()` of the locale (gendered
  surnames where the locale has them: Novák / Nováková). faker's `name()`, prefixes and
  suffixes are not used, so there is no "Dr.", "Mr.", "Jr.", "MD".
- ja_JP, zh_CN and zh_TW: faker's romanized names (`first_romanized_name`,
  `last_romanized_name`), Western order; zh_TW's all-caps romanizations are title-cased.
- vi_VN: two thirds in the Vietnamese order family – middle – given ("Lê Văn Tùng"),
  the rest given – family ("Tùng Lê").
- fil_PH: faker {faker_version} has no Filipino person provider, so these names come
  from faker's default (en_US) lists.
- Names with a letter outside the Latin script are skipped (no non-Latin locale is
  used except through its romanized names).

Forms: {table(s['forms'])}.
`plain` "Ines Carvalho"; `middle_initial` "Ines M. Carvalho"; `last_first`
"Carvalho, Ines"; `last_first_caps` "CARVALHO, INES" or "CARVALHO, Ines";
`all_caps` "INES CARVALHO"; `initial_surname` "I. Carvalho"; `given_initial`
"Ines C."; `hyphenated` "Ines Carvalho-Lindqvist" (the second surname from the same
locale); `surname_only` a later sentence of the same document naming the person by
surname alone ("Carvalho confirmed …"). The inverted forms appear only in record-like
lines (tables, "Signed:", "cc:", parentheses, sign-offs), where they read naturally.
Odd characters (in `plain` names): {table(s['odd'])} — U+00A0, U+2009 and U+202F
replace the space between given name and surname, U+200B (zero-width space) sits
inside the surname.

## Sentences

{len(NAME_TEMPLATES)} sentence templates with names, {len(NAME_ROW_TEMPLATES)} table/list row templates
and {len(BACKREF_TEMPLATES)} surname back-reference templates ({n_templates} in all), {len(NONAME_TEMPLATES)} name-free
sentence templates and {len(NONAME_ROW_TEMPLATES)} name-free row templates (all in
`scripts/gen_names_bench.py`). A name document has one or two name sentences (or a table
of 2–5 rows) mixed with 0–3 name-free sentences and sometimes a heading; some sentences
hold two or three names. Names stand at sentence start, after commas, in lists, in
parentheses, after "for", "to", "with", "by", before "'s", before "(ID …)", ", a NN-year-old",
", DOB …", at line start in "name | date | status" rows, after "Signed:" and "cc:", and
alone on a sign-off line.

Capitalised non-names around them ({sum(s['kinds'].values())} in all; in the name-free
documents {sum(s['kinds_free'].values())}): {table(s['kinds'])}.

- Non-names that read as a person's name in isolation are drawn again: a one-word
  place that is in faker's given-name or surname lists ("Santana", "Larsen"), a place
  starting with a lowercase particle (pt_BR "da Costa"), a company holding a given
  name followed by a surname ("Durdu Ertaş Ltd. Şti."). The gold would be contestable
  there. A surname inside a company or a street stays (below).
- Places: faker `city()` of {len(PLACE_LOCALES)} locales (many real towns; en_US cities are invented and
  often contain a given name — "Lake Jennifer", "South Anthonyfurt" — and stay places),
  `state()`/`administrative_unit()`, `country()`.
- Streets: faker `street_name()` / `street_address()`; many contain a surname or a whole
  person's name ("Keller Street", "avenue Julie Ledoux", "Praça André Sampaio"): that
  is an ADDRESS, not a NAME mention, and a NAME found inside it is a false positive.
- Companies: faker `company()`; many are made of surnames ("Schmidt GmbH", "Johnson,
  Smith and Lee"). **A company name is not a person's NAME mention**: a NAME found
  inside it is a false positive. A company that would be a bare surname or two
  hyphenated surnames ("Kramer", "Lawson-Wang") gets its locale's legal suffix
  ("Kramer GmbH", "Lawson-Wang LLC"), since out of context it could not be told from
  a person at all.
- Coined product and trial names made from random syllables ("Zelvatrin-4",
  "ORX-311", "BRIDGE-12", "KLAEDEX Care"), form and newsletter titles ("Quarterly
  Benefits Update", "Change of Address Form"), departments, job titles, awards, plan
  names, holidays, months and weekdays from lists in the script.

## Scoring

`scripts/names_bench.py` (standard library only; its docstring is the reference) reads
this folder and a snapshot written by `clam extract corpus.jsonl --out SNAPSHOT.json`.
Every span of every NAME entity is one prediction. A prediction `[ps, pe)` **hits** a
gold mention `[gs, ge)` with key `[ks, ke)` when it overlaps the mention and covers the
key: `ps < ge`, `gs < pe`, `ps <= ks` and `ke <= pe` ("Carvalho" and "Ines Carvalho"
hit the gold "Ines Carvalho"; "Ines" alone does not). Recall: gold mentions hit by at
least one prediction, for all names, for names whose written-out tokens are all in
`data/names/given.tsv` / `data/names/surnames.tsv` (in-vocabulary; compared without
accents, letters only, case-insensitively) and for the others (out-of-vocabulary).
Precision: predictions overlapping a gold mention / all predictions, over all
documents; the report also lists the false positives in the name-free documents, the
most frequent false-positive strings and the kind of placed non-name they overlap.

## Two sets

`tests/data/names_bench` (seed 14) is the set to tune on; `tests/data/names_bench_heldout`
(seed 15, `--seed 15`) is the same generator with other draws — other names, places,
companies, templates and forms in other combinations — kept to check that a change
fixed a class of failure rather than the examples of the first set: report its figures,
do not read its misses while tuning. `NAMES_BENCH=tests/data/names_bench_heldout
scripts/names_bench.sh` scores it.

## Reproducing

```sh
{command}
```

creates a temporary virtual environment, installs `faker=={faker_version}` there by
hash (`{FAKER_WHEEL}`, sha256 `{FAKER_SHA256}`), writes these files and removes the
environment. Seeds: Python `random.Random({SEED})` for every structural choice
(templates, forms, locales, odd characters, fillers); faker instances seeded with
`seed_instance({SEED} * 1000 + i)` for the i-th person locale and
`seed_instance({SEED} * 1000 + 500 + i)` for the i-th place/company/street locale
(sorted). faker's it_IT city list is built from a Python set, so the generator runs
with `PYTHONHASHSEED=0` (it re-executes itself with it). The same faker version gives
byte-identical files.
"""


def inner(args):
    if os.environ.get("PYTHONHASHSEED") != "0":
        # faker's it_IT city list is built from a set: fix the hash seed so its order,
        # and so every later random choice, is the same on every run
        env = dict(os.environ, PYTHONHASHSEED="0")
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    import faker
    from faker import Faker

    if faker.VERSION != FAKER_VERSION:
        sys.exit(f"faker {faker.VERSION} found, {FAKER_VERSION} pinned")
    import warnings

    warnings.simplefilter("ignore")
    docs = build(Faker)
    stats = write(args.out, docs, faker.VERSION)
    print(f"{args.out}: {stats['documents']} documents ({stats['name_documents']} with names, "
          f"{stats['name_free_documents']} name-free), {stats['mentions']} NAME mentions")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED,
                    help=f"the seed every random choice derives from (default {DEFAULT_SEED}; "
                    "tests/data/names_bench_heldout uses 15)")
    ap.add_argument("--venv", help="use (and keep) this virtual environment")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    global SEED
    SEED = args.seed
    sys.exit(inner(args) if args.inner else outer(args))


if __name__ == "__main__":
    main()
