#!/usr/bin/env python3
"""Generate the direct-identifier leak benchmark in tests/data/leak_bench/ (issue 14).

Usage:
    python3 scripts/gen_leak_bench.py                  # temporary venv, pinned faker, tuning set
    python3 scripts/gen_leak_bench.py --seed 19 --out tests/data/leak_bench_heldout
                                                       # the held-out set: other seed
    python3 scripts/gen_leak_bench.py --venv DIR       # reuse (or create) the venv DIR

Issue 14's first target is that no direct identifier of a person (SPEC §2: NAME,
PATIENT_ID, ADDRESS, PHONE_NUMBER, EMAIL) is readable after `clam run` with the
defaults. This benchmark measures that on documents clam was never built with:
insurance, HR, legal and clinical documents in many layouts (prose, forms, tables, CSV
lines, letters, e-mails, signatures, all-caps headers) whose people, addresses, phones
and e-mail addresses come from faker (pinned, the same wheel as the names benchmark)
in many locales, and whose ids are random strings of the shapes such documents use.
Nothing here comes from a labelled set or from clam's own vocabularies.

`scripts/leak_bench.sh` runs `clam run` on corpus.jsonl and looks, as an attacker
would, for each gold identifier in the redacted documents (scripts/leak_bench.py).

Output: corpus.jsonl ({"id", "content"}), gold.jsonl ({"doc", "type", "value",
"parts"}: parts are the pieces an attacker can read on their own, e.g. a surname or a
street line), README.md.
"""
import argparse
import json
import os
import random
import re
import string
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen_names_bench as nb  # noqa: E402  (People, locales, faker pin)
from leak_templates_k import TEMPLATES_K  # noqa: E402
from leak_templates_l import TEMPLATES_L  # noqa: E402
from leak_templates_m import TEMPLATES_M  # noqa: E402
from leak_templates_n import TEMPLATES_N  # noqa: E402
from leak_templates_o import TEMPLATES_O  # noqa: E402

DEFAULT_OUT = os.path.join(ROOT, "tests", "data", "leak_bench")
COMMAND = "python3 scripts/gen_leak_bench.py"
N_DOCS = 300

ADDRESS_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "en_GB", "en_CA", "en_AU", "en_IE",
                   "en_NZ", "de_DE", "fr_FR", "es_ES", "it_IT", "nl_NL", "pt_PT"]
PHONE_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "en_CA", "en_AU", "en_IE", "de_DE",
                 "fr_FR", "nl_NL", "en_IN"]
EMPLOYERS = ["the warehouse", "the distribution centre", "the call centre", "head office",
             "the plant", "the regional office", "the store", "the depot"]
CONDITIONS = ["a lumbar strain", "a fractured ankle", "whiplash", "a concussion",
              "tendonitis", "a dislocated shoulder", "a second-degree burn",
              "a crush injury to the left hand", "a torn ACL", "a hernia"]
INCIDENTS = ["slipped on a wet floor", "was struck by a reversing forklift",
             "fell from a step ladder", "was rear-ended at a junction",
             "lifted a heavy carton", "tripped over a trailing cable",
             "was bitten by a dog during a delivery", "cut a hand on a box cutter"]
ROLES = ["claimant", "insured", "policyholder", "employee", "applicant", "tenant",
         "respondent", "defendant", "plaintiff", "witness", "member", "beneficiary"]
JOBS = ["forklift operator", "night-shift nurse", "delivery driver", "line cook",
        "payroll clerk", "warehouse associate", "site engineer", "bus driver",
        "dental hygienist", "store manager", "electrician", "care assistant"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def rand_id(rng, kind):
    d = lambda n: "".join(rng.choice(string.digits) for _ in range(n))  # noqa: E731
    u = lambda n: "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))  # noqa: E731
    shapes = {
        "patient": [lambda: f"{u(2)}-{d(4)}-{d(3)}", lambda: f"MRN {d(8)}",
                    lambda: f"{u(3)}{d(6)}", lambda: f"{d(3)}-{d(3)}-{d(3)}",
                    lambda: f"P{d(7)}", lambda: f"{u(1)}{d(2)}-{u(2)}{d(4)}"],
        "member": [lambda: f"{u(3)}{d(9)}", lambda: f"{u(2)} {d(3)} {d(3)} {d(3)}",
                   lambda: f"M-{d(6)}-{d(2)}", lambda: f"{d(10)}"],
        "employee": [lambda: f"EMP{d(5)}", lambda: f"E-{d(6)}", lambda: f"{u(2)}{d(5)}",
                     lambda: f"{d(6)}"],
        "claim": [lambda: f"CLM-{rng.choice(['2023', '2024', '2025'])}-{d(6)}",
                  lambda: f"{u(2)}{d(8)}", lambda: f"C{d(7)}-{d(2)}"],
    }
    return rng.choice(shapes[kind])()


def dob(rng):
    y, m, day = rng.randint(1941, 2004), rng.randint(1, 12), rng.randint(1, 28)
    form = rng.randrange(5)
    if form == 0:
        return f"{m:02d}/{day:02d}/{y}"
    if form == 1:
        return f"{day} {MONTHS[m - 1]} {y}"
    if form == 2:
        return f"{MONTHS[m - 1]} {day}, {y}"
    if form == 3:
        return f"{y}-{m:02d}-{day:02d}"
    return f"{day:02d}.{m:02d}.{y}"


class Record:
    """One person with every identifier a document may mention."""

    def __init__(self, fk, people, rng):
        loc, kind = rng.choice(nb.PERSON_LOCALES)
        p = people.person(loc, kind)
        self.given, self.surname = p["given"], p["surname"]
        self.full = f"{p['surname']} {p['given']}" if p["order"] == "sg" else f"{p['given']} {p['surname']}"
        af = fk[rng.choice(ADDRESS_LOCALES)]
        self.street = af.street_address().replace("\n", ", ")
        self.city = af.city()
        self.postcode = af.postcode()
        self.addr_loc = af
        pf = fk[rng.choice(PHONE_LOCALES)]
        self.phone = pf.phone_number()
        user = rng.choice([
            f"{self.given.split()[0].lower()}.{self.surname.split()[-1].lower()}",
            f"{self.given[0].lower()}{self.surname.split()[-1].lower()}",
            f"{self.surname.split()[-1].lower()}{rng.randint(1, 99)}",
        ])
        user = "".join(c for c in nb.unicodedata.normalize("NFKD", user) if c.isascii())
        self.email = f"{user}@{rng.choice(['gmail.com', 'outlook.com', 'yahoo.co.uk', 'proton.me', 'gmx.de', 'icloud.com', 'example.org'])}"
        self.pid = rand_id(rng, "patient")
        self.mid = rand_id(rng, "member")
        self.eid = rand_id(rng, "employee")
        self.cid = rand_id(rng, "claim")
        self.dob = dob(rng)
        self.age = rng.randint(19, 80)
        self.job = rng.choice(JOBS)
        self.role = rng.choice(ROLES)
        self.cond = rng.choice(CONDITIONS)
        self.incident = rng.choice(INCIDENTS)
        self.employer = rng.choice(EMPLOYERS)
        self.month = rng.choice(MONTHS)

    @property
    def address(self):
        return f"{self.street}, {self.city} {self.postcode}"

    def names(self, rng):
        """Ways a document writes the name; the gold value stays the full name."""
        g, s = self.given, self.surname
        return rng.choice([
            self.full, self.full, self.full, f"{s}, {g}", f"{s.upper()}, {g}",
            f"{g} {s}".upper(), f"{g[0]}. {s}",
        ])


# Each template: (domain, text with {slots}). Slots: name, name2 (another person),
# street, city, postcode, phone, email, pid, mid, eid, cid, dob, age, job, role, cond,
# incident, employer, month, year. Every slot of a direct identifier that appears is
# recorded in the gold.
TEMPLATES = [
    ("insurance", "Claim {cid} was lodged on behalf of {name} after the {role} {incident} at {employer} in {month}. Treating notes describe {cond}. Contact on file: {phone}."),
    ("insurance", "We spoke with {name} ({pid}) on the phone today. {sur} confirmed the mailing address {street}, {city} {postcode} and asked that letters go there."),
    ("insurance", "Subrogation file {cid}\n\nOur insured, {name}, {incident}. The third party's insurer has been notified. Please direct all correspondence to {email}."),
    ("insurance", "| Member | ID | Phone |\n|---|---|---|\n| {name} | {mid} | {phone} |\n| {name2} | {mid2} | {phone2} |"),
    ("insurance", "{name}, a {age}-year-old {job}, reported {cond}. Member number {mid}; date of birth {dob}."),
    ("insurance", "Payment of the settlement was released to {name} by cheque, posted to {street}, {city}, {postcode}."),
    ("insurance", "member_id,name,dob,phone\n{mid},{name},{dob},{phone}\n{mid2},{name2},{dob2},{phone2}"),
    ("insurance", "Thanks to {name} for sending the receipts so quickly. I have forwarded them to {name2} in billing, who can be reached on {phone2}."),
    ("insurance", "The adjuster met {name} at the property ({street}) to inspect the water damage. {sur} said the leak started in {month}."),
    ("insurance", "Re: {cid} / {name}\nThe policyholder has asked us to use {email} for all future notices instead of post."),
    ("hr", "Congratulations to {name}, our {job} at {employer}, on ten years with the company! {given} will be celebrated at Friday's team lunch."),
    ("hr", "Employee {eid} - {name} - has requested parental leave starting in {month}. Manager: {name2}."),
    ("hr", "Following the investigation, {name} (employee no. {eid}) will receive a written warning. A copy has been sent to {street}, {city} {postcode}."),
    ("hr", "Hi all, please welcome {name} who joins the payroll team on Monday. You can reach {given} at {email} or on {phone}."),
    ("hr", "EMPLOYEE RECORD\n{name_upper}\nStaff ID: {eid}\nHome address: {street}\n{city} {postcode}\nEmergency contact: {name2}, {phone2}"),
    ("hr", "Exit interview notes: {name} cited the night rota as the main reason for leaving. Forwarding address {street}, {city}."),
    ("hr", "Overtime approved for {name} and {name2} for the stock take. Please log the hours against {eid}."),
    ("hr", "From: {name} <{email}>\nTo: HR Shared Inbox\nSubject: sick note\n\nHi, attaching my fit note for {cond}. Thanks, {given}"),
    ("hr", "Interview panel: {name2} (chair). Candidate {name} arrived on time and answered all competency questions well."),
    ("hr", "Reference request for {name}, who worked with us as a {job} until {month} {year}. Please reply to {email}."),
    ("legal", "Witness statement of {name}, of {street}, {city}, {job}.\n\nI was present when the {role} {incident}."),
    ("legal", "IN THE MATTER OF {name_upper}, Deceased. Notice is given that claims against the estate should be sent to {street}, {city} {postcode}."),
    ("legal", "Counsel for {name} filed a motion to compel on {month} 3. Opposing counsel, {name2}, may be reached at {phone2}."),
    ("legal", "The tenant, {name}, has failed to pay rent for the premises at {street}, {city} since {month}."),
    ("legal", "Deposition of {name} taken by {name2}. The deponent stated that {sur} {incident} while working at {employer}."),
    ("legal", "{name} v. Northgate Logistics - the claimant's date of birth is {dob} and the claimant lives at {street}."),
    ("legal", "Served on {name} personally at {street}, {city} {postcode} on {month} 14 by the process server."),
    ("legal", "Our client {name} instructs us that the vehicle was stationary. Please contact the writer by email ({email}) to arrange disclosure."),
    ("clinical", "Seen today: {name}, DOB {dob}, patient ID {pid}. Presents with {cond} after {incident_ing}."),
    ("clinical", "Referral for {name} ({pid}). {given} is a {age}-year-old {job} with {cond}. Please call {phone} to book."),
    ("clinical", "Discharge summary\nPatient: {name_lastfirst}\nMRN: {pid}\nAddress: {street}, {city} {postcode}\nGP informed."),
    ("clinical", "{name} was reviewed in clinic with {name2}. Physio to continue twice weekly; next review in {month}."),
    ("clinical", "Lab results for {pid} ({name}) were sent to the patient's e-mail {email} at {sur}'s request."),
    ("clinical", "Nursing handover: bed 4, {name}, {age}, {cond}, family contact {name2} on {phone2}."),
    ("chat", "[09:14] {name}: can someone check claim {cid}? it's been pending since {month}\n[09:16] {name2}: on it"),
    ("chat", "- {name} ({phone})\n- {name2} ({phone2})\nBoth confirmed for the site visit."),
    ("chat", "Kind regards,\n\n{name}\n{job_title}\n{phone}\n{email}"),
    ("chat", "Note to file: voicemail left for {name} on {phone}; no callback yet. Will try again after speaking to {name2}."),
    ("chat", "{name} and {name2} both live at {street}, {city}, so only one welcome pack was posted."),
    ("chat", "Called {name}. {given} wasn't available, so I spoke with {name2} instead and left my number."),
]
# A second family of layouts, written after the first was tuned on: `--layouts b` makes
# the sets that measure clam on layouts its recognizers were not fitted to
# (tests/data/leak_bench_b, seed 20, and tests/data/leak_bench_b_heldout, seed 21).
TEMPLATES_B = [
    ("insurance", "On {month} 2 the claims team received a call from {name}. Caller said the {role} {incident} and asked about the excess. Call-back number {phone}."),
    ("insurance", "Policy holder details\n  Full name ........ {name}\n  Date of birth .... {dob}\n  Telephone ........ {phone}\n  Correspondence ... {street}, {city} {postcode}"),
    ("insurance", "{name} phoned in again re {cid}; wants to know why the payout was reduced. Told {given} we would review by {month}."),
    ("insurance", "Fraud referral: the address given by {name} ({street}) matches two earlier claims. Investigator assigned: {name2}."),
    ("insurance", "name: {name}\nmember: {mid}\nemail: {email}\nstatus: pending review"),
    ("insurance", "{{\"claimant\": \"{name}\", \"member_id\": \"{mid}\", \"phone\": \"{phone}\"}}"),
    ("insurance", "Beneficiary: {name_lastfirst} | Relationship: spouse | Share: 50%"),
    ("hr", "Shout-out to {name} from {employer} who covered three extra shifts last week!"),
    ("hr", "Meeting notes - attendees: {name}, {name2}, and the HR manager. {given} raised concerns about {cond}."),
    ("hr", "Payroll correction for {name_upper} (ID {eid}): the {month} payslip omitted overtime."),
    ("hr", "Please update the bank details for {name}; new payslips to be emailed to {email}. Staff number {eid}."),
    ("hr", "Onboarding checklist\n[x] Contract signed - {name}\n[x] Equipment issued\n[ ] Emergency contact: {name2} {phone2}"),
    ("hr", "Grievance raised by {name} against {name2}, a {job} at {employer}. Hearing set for {month} 21."),
    ("legal", "The court heard that {name}, {age}, of {city}, {incident} while employed as a {job}."),
    ("legal", "Attn: {name}\n{street}\n{city} {postcode}\n\nRE: Notice of hearing"),
    ("legal", "Statement taken from {name} at {employer}. {sur} confirmed that no training had been given on the equipment."),
    ("legal", "Parties: {name} (Claimant) and Harbourside Foods Ltd (Respondent). Claimant's representative: {name2}."),
    ("legal", "cc: {name2}; {name}\nEnclosed please find the signed release for claim {cid}."),
    ("legal", "According to {name}'s own account, the {role} had reported {cond} weeks earlier."),
    ("clinical", "Pt {name} seen in ED. Hx of {cond}. NOK: {name2} ({phone2}). MRN {pid}."),
    ("clinical", "Appointment reminder: {name}, you are booked for physiotherapy in {month}. Questions? Reply to {email}."),
    ("clinical", "{name_upper}   DOB: {dob}   ID: {pid}\nVitals stable. Continue current plan."),
    ("clinical", "Letter copied to: {name}, {street}, {city} {postcode}"),
    ("clinical", "Handover - {given} {sur} in bay 2 is a {age}yo {job} admitted with {cond}; daughter {name2} visiting."),
    ("chat", "{name} wrote:\n> I still haven't received my reimbursement\nReplied with the tracking number. Their number: {phone}."),
    ("chat", "Missed call from {phone} ({name}) - 2 min voicemail about the site visit."),
    ("chat", "---------- Forwarded message ---------\nFrom: {email}\nDate: {month} 4\nHi team, it's {name} again about the ladder incident."),
    ("chat", "Spoke to {name} and {name2} this morning; both agreed to the revised schedule."),
    ("chat", "reminder - send {name} the claim form, address is {street} {city}"),
    ("chat", "{name} | {job} | ext. {phone}\n{name2} | Team Leader | {phone2}"),
]
# A third family, written after the second was tuned on, to measure layouts no rule was
# fitted to (tests/data/leak_bench_c_heldout, seed 23: reported, never tuned on).
TEMPLATES_C = [
    ("insurance", "Hello,\n\nI am writing on behalf of my mother, {name}, whose claim ({cid}) was declined last {month}. She can be reached on {phone}.\n\nRegards"),
    ("insurance", "Surname: {sur_upper}\nFirst name(s): {given}\nPolicy: {mid}\nPostal address: {street}, {city} {postcode}"),
    ("insurance", "Summary of call\nCaller identified as {name}, member {mid}. Caller reports {cond} following the incident and asks whether physio is covered."),
    ("insurance", "> On {month} 3, {name} <{email}> wrote:\n> Any update on my claim?\nNot yet - chasing the assessor today."),
    ("insurance", "Assessor's note. Visited the insured at home ({street}, {city}). Present: {name}, {name2} (neighbour)."),
    ("insurance", "Cheque no. 004417 issued to {name_lastfirst} for the amount agreed; posted {month} 9."),
    ("hr", "Minutes\nPresent: {name}; {name2}; J. Okafor (HR)\nApologies: none\n1. {given} outlined the rota change."),
    ("hr", "Dear {name},\n\nFurther to our meeting, I confirm your new start date in {month}. Your employee number remains {eid}.\n\nYours sincerely"),
    ("hr", "Absence log - {name} ({eid}): 3 days, {cond}. Return-to-work interview held with {name2}."),
    ("hr", "Nominations for the safety award: {name} ({employer}), {name2} (the depot)."),
    ("hr", "The payslip for employee {eid} was sent to the wrong address. Correct address: {street}, {city} {postcode}."),
    ("hr", "{name} has been with us since {year}; {given} now leads the night shift at {employer}."),
    ("legal", "BETWEEN\n{name_upper} (Claimant)\nand\nNORTHGATE LOGISTICS LIMITED (Respondent)"),
    ("legal", "I, {name}, of {street}, {city}, make this statement believing it to be true."),
    ("legal", "Exhibit 4: letter from {name} to {name2} dated {month} 12, {year}."),
    ("legal", "The witness ({name}, aged {age}) was cross-examined about the events of {month}."),
    ("legal", "Tel: {phone} | Email: {email} | Ref: {cid}\nFor the attention of {name}"),
    ("legal", "Following service on {name_lastfirst} at {street}, no acknowledgement has been filed."),
    ("clinical", "Triage: {age}{sex}, {cond}. Brought in by {name2}. Pt name: {name}. Hosp no. {pid}."),
    ("clinical", "Referral letter\nRe: {name}, d.o.b. {dob}, {street}, {city}\nThank you for seeing this {age}-year-old {job}."),
    ("clinical", "Clinic list {month} 7: 09:00 {name} ({pid}); 09:20 {name2} ({mid2})"),
    ("clinical", "{name} attended with {name2}. Plan discussed. Copy to GP and to the patient at {email}."),
    ("clinical", "Consent obtained from {name} ({dob}) for the procedure. Witness: {name2}."),
    ("chat", "hey {given} - is {name2} still on {phone2}? need to confirm the visit"),
    ("chat", "Ticket #{cid}: customer {name} reports the app shows someone else's claim. Contact: {email}."),
    ("chat", "{name} ({email}) joined the call. {name2} left the call."),
    ("chat", "Delivery to {name}, {street}, {city} {postcode} failed - nobody home. Card left."),
    ("chat", "Added {name} to the distribution list; their mobile is {phone}."),
    ("chat", "Reminder for {name}: appointment moved. Call {phone} if this does not suit."),
    ("chat", "Who is {name}? Their name keeps coming up in the {cid} file."),
]
# A fourth family, written on 2026-11-27 after the third was tuned on: machine-made
# records (YAML, key=value logs, HTML cells, CSV of another language), court papers,
# call logs and chat mentions (tests/data/leak_bench_d, seed 24, to tune on;
# tests/data/leak_bench_d_heldout, seed 25, reported only).
TEMPLATES_D = [
    ("insurance", "Policyholder {name_upper} ({dob}) - renewal notice sent to {email}."),
    ("insurance", "txt from {phone}: this is {given} {sur}, pls call back re {cid}"),
    ("insurance", "ts={year}-03-0{age_digit}T10:42 user=\"{name}\" member={mid} action=update_phone new={phone}"),
    ("insurance", "claimant:\n  name: {name}\n  dob: {dob}\n  address: {street}, {city} {postcode}"),
    ("insurance", "Loss adjuster's report - insured {name_lastfirst}; risk address {street}, {city}."),
    ("insurance", "Nom;Prénom;Téléphone\n{sur};{given};{phone}\n{sur2};{given2};{phone2}"),
    ("insurance", "Named driver: {name} (licence {pid}). Vehicle garaged at {street}."),
    ("hr", "{name} - {job_title} - started {month} {year} - line manager {name2}"),
    ("hr", "Re: Flexible working request ({name}, {eid})"),
    ("hr", "The disciplinary hearing for {name_upper} is adjourned; {given}'s representative, {name2}, asked for more time."),
    ("hr", "Leavers this month: {name} ({employer}); {name2} ({job})."),
    ("hr", "<tr><td>{name}</td><td>{eid}</td><td>{phone}</td></tr>"),
    ("hr", "Birthday wishes to {given} {sur} in accounts today!"),
    ("hr", "Signed for and on behalf of the employee: {name}, {month} {year}"),
    ("legal", "{name_upper}\nClaimant\n-v-\nNORTHGATE LOGISTICS LTD\nDefendant"),
    ("legal", "Sworn before me by the said {name} at {city} this 3rd day of {month} {year}."),
    ("legal", "Solicitors for {name}: Hale & Partners, {street}, {city} {postcode}. Tel {phone}."),
    ("legal", "Tenancy of {street}, {city} granted to {name} and {name2} as joint tenants."),
    ("legal", "Our ref: {cid}\nDear {name},\nWe act for your former employer."),
    ("clinical", "Pt: {sur_upper}, {given} | DOB {dob} | ID {pid}"),
    ("clinical", "Dx: {cond}. Seen by {name2}. Next of kin {name} tel {phone}."),
    ("clinical", "Prescription for {name} (age {age}) ready to collect; queries to {email}."),
    ("clinical", "{given} {sur}, {age}y, presented at triage with {cond}."),
    ("clinical", "Results: {pid} / {name_upper} / {dob}"),
    ("chat", "@{given} can you check with {name2} re {cid}?"),
    ("chat", "[{name}] 10:42: uploaded the photos\n[{name2}] 10:43: thanks"),
    ("chat", "ok so {name} says the ladder was already broken. their email is {email}"),
    ("chat", "FWD: {name} <{email}> - see below"),
    ("chat", "Call log\n{phone} - {name} - 4 min - re claim {cid}"),
    ("chat", "sorry, wrong person - I meant {name2}, not {name}"),
]
# A fifth family, written on 2026-11-27 after the fourth was tuned on: markup (XML,
# markdown bold labels, nested JSON), letters in other languages' conventions,
# dash-separated labels, police and incident narratives, rota and roster lines
# (tests/data/leak_bench_e, seed 26, to tune on; tests/data/leak_bench_e_heldout, seed
# 27, reported only).
TEMPLATES_E = [
    ("insurance", "<claimant><name>{name}</name><phone>{phone}</phone><member>{mid}</member></claimant>"),
    ("insurance", "**Policyholder:** {name}  \n**Member no.:** {mid}  \n**Address:** {street}, {city} {postcode}"),
    ("insurance", "{{\"claim\": {{\"id\": \"{cid}\", \"insured\": {{\"name\": \"{name}\", \"email\": \"{email}\"}}}}}}"),
    ("insurance", "Insured - {name}\nPolicy ref - {cid}\nContact number - {phone}"),
    ("insurance", "The vehicle belonging to {name} was struck while parked outside {street}, {city}."),
    ("insurance", "Mr {sur} (member {mid}) disputes the excess; his wife {name2} handles the paperwork."),
    ("hr", "ROTA wk 32: Mon {name} / Tue {name2} / Wed {name}"),
    ("hr", "Welcome aboard, {given}! Your buddy for the first month is {name2} ({email2})."),
    ("hr", "Absent without leave: {name_upper}, payroll {eid}, last seen {month} 3."),
    ("hr", "The panel found that {name} had been bullied by {name2} over a period of months."),
    ("hr", "Salary sacrifice form received from {name} ({eid}); forwarded to pensions."),
    ("hr", "cc {name2}, {name}; bcc payroll"),
    ("legal", "POLICE REPORT - Officer {name2} attended {street}, {city} where {name} reported the theft of a bicycle."),
    ("legal", "Let the record show that {name} was represented by counsel of her choosing."),
    ("legal", "Mediation between {name} and {name2} concluded without agreement on {month} 18."),
    ("legal", "Subject access request from {name} ({email}) received; statutory deadline in {month}."),
    ("legal", "Yours faithfully,\n\n{name}\nSolicitor\nDirect line: {phone}"),
    ("legal", "Name of deceased: {name_upper}\nLast address: {street}, {city} {postcode}\nExecutor: {name2}"),
    ("clinical", "Pt {sur}, {given} ({age}) - wound check, dressing changed. Tel {phone}."),
    ("clinical", "Seen with interpreter. {name} declined the flu vaccine; her son {name2} was present."),
    ("clinical", "Allergy alert: {name_upper} ({pid}) - penicillin."),
    ("clinical", "Dear Dr {sur2},\nI saw your patient {name} ({dob}) in clinic today."),
    ("clinical", "Incident: {name}, a visitor, slipped in the car park. First aid given by {name2}."),
    ("clinical", "Discharge to usual address ({street}, {city}) with district nurse follow-up for {name}."),
    ("chat", "{given}: did you send it?\n{given2}: yes, to {email} this morning"),
    ("chat", "Heads up - {name} is calling from {phone} again, 3rd time today"),
    ("chat", "thx {name2}! I'll let {name} know"),
    ("chat", "New lead: {name}, {city}, wants a quote for contents cover. Email {email}."),
    ("chat", "Who's covering for {name} while she's off? {name2} maybe?"),
    ("chat", "Parcel for {name_lastfirst} left with neighbour at {street}."),
]
# A sixth family, written on 2026-11-28 after the fifth was tuned on: names opening a
# sentence after an adverb or a cleft ("It was X who"), payee and owner lines, reviews,
# case citations by surname, affidavits and depositions, clinic shorthand ("c/o", "w/"),
# surname-first capitals with the given name in capitals, voicemail transcripts and chat
# with emoji (tests/data/leak_bench_f, seed 28, to tune on; tests/data/leak_bench_f_heldout,
# seed 29, reported only).
TEMPLATES_F = [
    ("insurance", "Yesterday {name} rang to say the roof had been repaired; the invoice went to {email}."),
    ("insurance", "Payee: {name_lastfirst}\nSort code 40-12-76  Account ****4412\nReference {cid}"),
    ("insurance", "Please find attached the estimate that {name} obtained from the garage. {given}'s policy number is {mid}."),
    ("insurance", "It was {name} who first noticed the crack in the ceiling, according to the loss adjuster."),
    ("insurance", "Claimant (name, address): {name}, {street}, {city} {postcode}"),
    ("insurance", "Vehicle owner {name_upper} | reg. KX19 ABC | tel. {phone}"),
    ("hr", "{given} from payroll ({email}) will run the session on pensions."),
    ("hr", "Performance review {year} - reviewee: {name}; reviewer: {name2}; rating: meets expectations."),
    ("hr", "Hi {given},\n\nJust checking you got the contract. Any questions, give me a ring on {phone2}.\n\n{name2}"),
    ("hr", "Disclosure: {name} is related to {name2}, who sits on the interview panel."),
    ("hr", "{name} (she/her) - Talent Acquisition - {phone}"),
    ("hr", "Employee: {sur_upper} {given_upper}  No. {eid}"),
    ("legal", "{sur} v {sur2} [2021] EWHC 1432 (QB) concerned a similar fall; {name} relies on it."),
    ("legal", "The applicant, Mx {name}, appeals the decision of {month} {year}."),
    ("legal", "Affidavit of service: I served {name} with the claim form by leaving it at {street}, {city}."),
    ("legal", "Notice to quit addressed to {name} & {name2}, {street}, {city} {postcode}."),
    ("legal", "Instructing solicitor: {name2}. Lay client: {name} (DOB {dob})."),
    ("legal", "{name}, being duly sworn, deposes and says that the {role} {incident}."),
    ("clinical", "Ms {sur} is a pleasant {age}-year-old lady referred with {cond}. Hospital no. {pid}."),
    ("clinical", "Pt seen w/ {name2} (wife). {name} c/o {cond} x3 days."),
    ("clinical", "Phoned {name} to relay results; no answer, left message on {phone}."),
    ("clinical", "Booked: {name} - physio - Tue 14:30 - {phone}"),
    ("clinical", "Blood results for {name_upper} reviewed by {name2}; repeat in {month}."),
    ("clinical", "Hospital number {pid}\nSurname {sur}\nForename {given}\nAddress {street}, {city}"),
    ("chat", "lol {name} just replied-all to the whole office \U0001F602"),
    ("chat", "can u send me {name}'s new number? old one {phone} bounces"),
    ("chat", "{name} (via WhatsApp): running late, stuck on {street}"),
    ("chat", "Re: {name} - moved to {city}, new address {street}, {postcode}"),
    ("chat", "Okay, {name} is confirmed for the 3pm slot. Reminder goes to {email}."),
    ("chat", "Voicemail transcription: \"Hi, it's {name}, calling about my claim, my number is {phone}, thanks\""),
]
# A seventh family, written on 2026-11-28 after the sixth was tuned on: maiden and
# late names, quoted speech, names after ordinary verbs, appositions, nicknames and
# suffixes, e-mail display names, glued labels ("MRN#"), tab-separated rows without a
# header, estates, honorifics of other languages, lower-case chat
# (tests/data/leak_bench_g, seed 30, to tune on; tests/data/leak_bench_g_heldout, seed
# 31, reported only).
TEMPLATES_G = [
    ("insurance", "Loss of use claim by Mrs {sur} (née {sur2}); payment to the account ending 4412."),
    ("insurance", "Estate of {name}, deceased - claim {cid} - executor {name2}, {phone2}"),
    ("insurance", "We reimbursed {name} in full on {month} 2 and closed file {cid}."),
    ("insurance", "\"I never saw the other car,\" said {name}, who was driving home from {employer}."),
    ("insurance", "The adjuster interviewed {name} on site; {given} showed the damage to the kitchen at {street}."),
    ("insurance", "{name}\t{dob}\t{phone}\n{name2}\t{dob2}\t{phone2}"),
    ("hr", "{name}, the team's first-aider, confirmed the {role} {incident}."),
    ("hr", "\"{sur}, {given}\" <{email}> has accepted the offer."),
    ("hr", "Name: {name} Emp#: {eid} Dept: Logistics"),
    ("hr", "Promotion panel notes: {given} \"{nick}\" {sur} is ready for the lead role."),
    ("hr", "{name} Jr. starts Monday; payroll number {eid}."),
    ("hr", "best,\n{given}\n\n--\n{name} | {job_title} | {phone}"),
    ("legal", "RE: {sur_upper} v {sur2_upper} - directions hearing listed for {month} 9."),
    ("legal", "Plaintiff {name}, pro se, filed an amended complaint."),
    ("legal", "Letter of authority signed by {name}, Esq., on behalf of the {role}."),
    ("legal", "The late {name} left the property at {street}, {city} to {name2}."),
    ("legal", "Sr. {sur} y Sra. {sur2} comparecen ante el notario en {city}."),
    ("legal", "Witness: Herr {name}, wohnhaft {street}, {city}."),
    ("clinical", "{name}, MRN#{pid}, DOB:{dob}, allergies: none known."),
    ("clinical", "Seen: {given} {sur} ({age}{sex}) - {cond}, follow-up in {month}."),
    ("clinical", "GP letter re {name_upper} ({dob}): please review {cond}."),
    ("clinical", "Physio discharged {name} today; home exercises given. Contact {phone} if worse."),
    ("clinical", "Mme {sur} a été vue en consultation pour {cond}. Tél : {phone}."),
    ("clinical", "Patient {sur} {given}, geb. {dob}, wohnhaft {street}, {city} {postcode}"),
    ("chat", "talked to {name_lower} today, she'll send the form to {email}"),
    ("chat", "{given}: ok\n{given2}: ok thanks, {name} is sorted\n{given}: \U0001F44D"),
    ("chat", "Just got off the phone with {name} - very upset about {cid}"),
    ("chat", "fyi {name} moved - new addr {street}, {city}"),
    ("chat", "Can someone ring {name} back on {phone}? I'm in meetings all day."),
    ("chat", "{name}'s claim is the one with the burst pipe at {street}."),
]
# An eighth family, written on 2026-11-28 after the seventh was tuned on: subject lines,
# SQL and log lines, names after ordinary verbs and prepositions ("told", "against",
# "witnessed by", "neither ... nor"), vocatives, numbered and bulleted lists, e-signatures
# ("/s/"), court lists in capitals, death notices, ward lists, names broken by an
# invisible character or a no-break space, chat reactions (tests/data/leak_bench_h, seed
# 32, to tune on; tests/data/leak_bench_h_heldout, seed 33, reported only).
TEMPLATES_H = [
    ("insurance", "Subject: {name} - windscreen claim {cid}\n\nPhotos attached; please call {phone}."),
    ("insurance", "INSERT INTO claimants (name, dob, phone) VALUES ('{name}', '{dob}', '{phone}');"),
    ("insurance", "2024-05-01 12:00:03 INFO claims.api lookup ok for {name} ({mid})"),
    ("insurance", "Thank you, {name}, for your patience while we reviewed claim {cid}."),
    ("insurance", "The cheque was made payable to {name_upper} and sent by recorded delivery to {street}, {city}."),
    ("insurance", "Diary: told {name} the valuation would follow; emailed {name2} the policy wording."),
    ("hr", "Good morning {given},\nYour rota is attached. Any swaps, talk to {name2} ({phone2}).\nThanks"),
    ("hr", "Attendees:\n* {name} (Ops)\n* {name2} (Legal)\n* HR"),
    ("hr", "1. {name} - {job}\n2. {name2} - {job}"),
    ("hr", "And the winner of this year's safety award is... {name}!"),
    ("hr", "Asked {name} to resubmit the timesheet for week 12; approved by {name2}."),
    ("hr", "{sur_upper} {given}\t{job_title}\t{email}"),
    ("legal", "/s/ {name}\n{name}\nAttorney for Plaintiff\n{street}, {city} {postcode}"),
    ("legal", "Case 12: {sur_upper}, {given_upper} (aged {age}) - theft - adjourned to {month} 4."),
    ("legal", "{name}, {age}, of {city}, died peacefully at home on {month} 2."),
    ("legal", "Neither {name} nor {name2} attended the hearing on {month} 8."),
    ("legal", "Judgment was entered against {name} in the sum of 4,200 plus costs."),
    ("legal", "The deed was witnessed by {name} and {name2}, both of {city}."),
    ("clinical", "{sur}, {given} - 3 West - bed 12 - nil by mouth from midnight"),
    ("clinical", "Telephone consultation with {name}'s daughter about {cond}; callback {phone}."),
    ("clinical", "Pt: {name_zw}  DOB {dob}  MRN {pid}"),
    ("clinical", "Lives with partner ({name2}) at {street}, {city}. {name} is independent with daily activities."),
    ("clinical", "Sample labelled {name_upper} {dob} received without a request form."),
    ("clinical", "Next of kin: {name2} (husband) - {phone2}. Patient {name_nbsp} prefers first names."),
    ("chat", "ping {name} about the {cid} photos pls"),
    ("chat", "{name} reacted \U0001F44D to your message"),
    ("chat", "Meeting with {name} moved to 3pm - room 2.14"),
    ("chat", "Forwarded by {name} on behalf of {name2}"),
    ("chat", "Shared the document with {email} ({name})"),
    ("chat", "Unknown caller {phone} claimed to be {name}'s brother."),
]
# A ninth family, written on 2026-11-28 after the eighth was tuned on: relatives in
# apposition, joint holders, arrows and org charts, recipient lists, matrimonial and
# probate captions, "y/o" shorthand, em-dash rows, "Name/DOB verified", channel events,
# e-mail headers on one line, quoted CSV, JSON arrays, markdown bold, underlined
# signatures, driver lists, letter address blocks without labels, social posts
# (tests/data/leak_bench_i, seed 34, to tune on; tests/data/leak_bench_i_heldout, seed
# 35, reported only).
TEMPLATES_I = [
    ("insurance", "The insured's son, {name}, was driving the vehicle at the time of the {role} report."),
    ("insurance", "Policy {mid} is held jointly by {name} and {name2} of {city}."),
    ("insurance", "Claim notes (adjuster {name2}): insured {name} confirmed receipt of the cheque."),
    ("insurance", "As per {name}'s email of {month} 3, the excess will be waived."),
    ("insurance", "Driver 1: {name}, licence {pid}; Driver 2: {name2}"),
    ("insurance", "{name}\n{street}\n{city} {postcode}\n\nDear Policyholder,\nYour renewal is due."),
    ("hr", "Reporting line: {name} -> {name2}"),
    ("hr", "Org chart: {name} (Head of Ops) > {name2} (Shift Lead)"),
    ("hr", "Holiday request {eid}: {given} {sur} - 5 days - approved by {name2}"),
    ("hr", "To: {name} <{email}>; {name2} <{email2}>"),
    ("hr", "{name} has joined the channel."),
    ("hr", "so proud of my colleague {name} \U0001F389 #teamwork"),
    ("legal", "In re the Marriage of {name} and {name2}, Case No. {cid}."),
    ("legal", "Respondent: {name_upper}\nRepresented by: {name2}"),
    ("legal", "Decedent {name} died intestate on {month} 9, {year}, domiciled at {street}, {city}."),
    ("legal", "The court grants {name}'s motion to dismiss."),
    ("legal", "Signed: ____{name}____  Date: {month} 2, {year}"),
    ("legal", "\"{sur}, {given}\",{dob},\"{street}, {city}\""),
    ("clinical", "Pt {given_upper} {sur_upper}, {age} y/o, presents with {cond}."),
    ("clinical", "Name/DOB verified: {name} / {dob}"),
    ("clinical", "{name} - {age} - {cond} - bed 7"),
    ("clinical", "Called pt's wife {name2} at {phone2} re: {name}'s discharge."),
    ("clinical", "Attending note: {name} tolerated the procedure well; family ({name2}) updated by phone."),
    ("clinical", "[\"{name}\", \"{name2}\"]"),
    ("chat", "{name} (External) shared a file with you"),
    ("chat", "- **{name}** ({job})\n- **{name2}** ({job})"),
    ("chat", "Sent: Monday; From: {name}; To: {name2}; Subject: site visit"),
    ("chat", "omg {name} again?? third claim this month"),
    ("chat", "Reassigned {cid} from {name2} to {name}."),
    ("chat", "{name} is out of office until {month} 12; urgent queries to {email2}."),
]
# A tenth family, written on 2026-11-28 after the ninth was tuned on: honorifics before
# LAST, FIRST, roles in brackets, statements and attention lines in capitals, forms on
# one line without colons, beneficiaries with shares, abbreviations ("fr", "pls", "@"),
# witnesses with addresses, square brackets, parents, couples, first-person statements
# (tests/data/leak_bench_j, seed 36, to tune on; tests/data/leak_bench_j_heldout, seed
# 37, reported only).
TEMPLATES_J = [
    ("insurance", "Insured: Mr. {sur}, {given}\nPolicy: {mid}"),
    ("insurance", "Claimant {name} (age {age}) alleges that the {role} {incident}."),
    ("insurance", "Beneficiaries: {name} (50%), {name2} (50%)"),
    ("insurance", "Rec'd call fr {name} re: {cid}, wants a call back on {phone}"),
    ("insurance", "Member {name} [{mid}] has two open claims."),
    ("insurance", "PAYEE NAME: {name_upper}\nAMOUNT: 1,250.00"),
    ("hr", "Employee Name {name} Employee ID {eid} Department Logistics"),
    ("hr", "per {name} (HR) the leave policy changed in {month}"),
    ("hr", "Pls contact {given} {sur} @ {phone} before Friday"),
    ("hr", "{name}, Claims Dept., {employer}"),
    ("hr", "Attendees - {name} ({job}), {name2} ({job})"),
    ("hr", "Interpreter {name2} present throughout; {name} answered all questions."),
    ("legal", "We write on behalf of our client, {name}, regarding the {role} {incident}."),
    ("legal", "The claimant ({name}) was employed as a {job} at {employer}."),
    ("legal", "STATEMENT OF {name_upper}\n\nI make this statement from my own knowledge."),
    ("legal", "Witnessed by: {name}, {job}, {street}, {city}"),
    ("legal", "Mother: {name2}; Father: {name}"),
    ("legal", "I am {name} and I was injured on {month} 3 at {employer}."),
    ("clinical", "{name} - DOB {dob} - MRN {pid}"),
    ("clinical", "NEXT OF KIN {name_upper} {phone}"),
    ("clinical", "Mr and Mrs {sur} attended together; {given} did most of the talking."),
    ("clinical", "Ref. {cid} ({name_upper})"),
    ("clinical", "The applicant's full name is {name}."),
    ("clinical", "Heir: {name}; relationship: son; address: {street}, {city}"),
    ("chat", "according to {name_lastfirst}'s statement the ladder slipped"),
    ("chat", "ATTN {name_upper} - your documents are ready"),
    ("chat", "ok {name} vs {employer}, hearing next week"),
    ("chat", "{given} {sur}'s claim got approved!!"),
    ("chat", "FYI: {name} = new adjuster for {cid}"),
    ("chat", "cc'd {name} and {name2} on the reply"),
]
NICKNAMES = ["Bobby", "Kit", "Jojo", "Sunny", "Max", "Bea", "Tito", "Lulu", "Ace", "Dede"]
LAYOUTS = {"a": TEMPLATES, "b": TEMPLATES_B, "c": TEMPLATES_C, "d": TEMPLATES_D, "e": TEMPLATES_E,
           "f": TEMPLATES_F, "g": TEMPLATES_G, "h": TEMPLATES_H, "i": TEMPLATES_I, "j": TEMPLATES_J,
           "k": TEMPLATES_K, "l": TEMPLATES_L, "m": TEMPLATES_M, "n": TEMPLATES_N,
           "o": TEMPLATES_O}
JOB_TITLES = ["Claims Handler", "HR Business Partner", "Senior Associate", "Practice Manager",
              "Case Officer", "Payroll Administrator", "Paralegal", "Team Leader"]
ING = {"slipped on a wet floor": "slipping on a wet floor",
       "was struck by a reversing forklift": "being struck by a reversing forklift",
       "fell from a step ladder": "falling from a step ladder",
       "was rear-ended at a junction": "being rear-ended at a junction",
       "lifted a heavy carton": "lifting a heavy carton",
       "tripped over a trailing cable": "tripping over a trailing cable",
       "was bitten by a dog during a delivery": "being bitten by a dog during a delivery",
       "cut a hand on a box cutter": "cutting a hand on a box cutter"}


def build(Faker, seed, templates):
    rng = random.Random(seed)
    nb.SEED = seed
    people = nb.People(Faker, rng)
    fk = {}
    for i, loc in enumerate(sorted(set(ADDRESS_LOCALES + PHONE_LOCALES))):
        f = Faker(loc)
        f.seed_instance(seed * 1000 + 700 + i)
        fk[loc] = f
    docs, gold = [], []
    for n in range(N_DOCS):
        domain, tpl = templates[n % len(templates)] if n < len(templates) else rng.choice(templates)
        a, b = Record(fk, people, rng), Record(fk, people, rng)
        name = a.names(rng)
        slots = {
            "name": name, "name2": b.full, "sur": a.surname, "given": a.given.split()[0],
            "name_upper": a.full.upper(), "name_lastfirst": f"{a.surname}, {a.given}",
            "street": a.street, "city": a.city, "postcode": a.postcode,
            "phone": a.phone, "phone2": b.phone, "email": a.email, "pid": a.pid,
            "mid": a.mid, "mid2": b.mid, "eid": a.eid, "cid": a.cid, "dob": a.dob,
            "dob2": b.dob, "age": a.age, "job": a.job, "role": a.role, "cond": a.cond,
            "incident": a.incident, "incident_ing": ING[a.incident], "employer": a.employer,
            "month": a.month, "year": rng.randint(2015, 2024),
            "job_title": rng.choice(JOB_TITLES),
            "sur_upper": a.surname.upper(), "given_upper": a.given.upper(),
            "sur2_upper": b.surname.upper(), "name_lower": a.full.lower(),
            "nick": NICKNAMES[sum(map(ord, a.full)) % len(NICKNAMES)], "sex": rng.choice(["M", "F"]),
            "sur2": b.surname, "given2": b.given.split()[0], "age_digit": a.age % 10,
            "email2": b.email,
            # An invisible character inside the surname, a no-break space between the
            # parts: the name is as readable as without them.
            "name_zw": f"{a.given} {a.surname[:2]}\u200b{a.surname[2:]}",
            "name_nbsp": f"{a.given}\u00a0{a.surname}",
        }
        text = tpl.format(**slots)
        doc = f"{domain}_{n:04d}"
        docs.append({"id": doc, "content": text})

        # As leak_bench.py reads: invisible format characters (zero-width spaces and
        # joiners) removed, no-break spaces as spaces.
        low = "".join(c for c in text if nb.unicodedata.category(c) != "Cf").replace("\u00a0", " ").lower()

        def written(v):
            # Case-insensitive and as a whole word, as the attacker of leak_bench.py
            # reads: a name written in capitals ("{name_upper}") or in lower case is a
            # gold identifier too. (Sets a and b were generated before this: there a
            # name counts only where it is written in its own case.)
            return re.search(r"(?<!\w)" + re.escape(v.lower()) + r"(?!\w)", low) is not None

        def add(typ, value, parts=()):
            if written(value) or any(written(p) for p in parts):
                gold.append({"doc": doc, "type": typ, "value": value,
                             "parts": [p for p in parts if written(p)]})

        used = set(s for s in string.Formatter().parse(tpl) for s in [s[1]] if s)
        if used & {"name", "name_upper", "name_lastfirst", "sur", "given", "sur_upper", "given_upper",
                    "name_lower", "name_zw", "name_nbsp"}:
            add("NAME", a.full, [a.surname])
        if used & {"name2", "sur2", "given2", "sur2_upper"}:
            add("NAME", b.full, [b.surname])
        if "street" in used:
            add("ADDRESS", a.street, [a.street])
        for key, typ, val in [("phone", "PHONE_NUMBER", a.phone), ("phone2", "PHONE_NUMBER", b.phone),
                              ("email", "EMAIL", a.email), ("email2", "EMAIL", b.email),
                              ("pid", "PATIENT_ID", a.pid),
                              ("mid", "PATIENT_ID", a.mid), ("mid2", "PATIENT_ID", b.mid),
                              ("eid", "PATIENT_ID", a.eid)]:
            if key in used:
                add(typ, val)
    return docs, gold


def write(out, docs, gold, seed, version, layouts):
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "corpus.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for d in docs:
            f.write(json.dumps(d, ensure_ascii=False, sort_keys=True) + "\n")
    with open(os.path.join(out, "gold.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for g in gold:
            f.write(json.dumps(g, ensure_ascii=False, sort_keys=True) + "\n")
    counts = {}
    for g in gold:
        counts[g["type"]] = counts.get(g["type"], 0) + 1
    rows = "\n".join(f"| {t} | {c} |" for t, c in sorted(counts.items()))
    rel = os.path.relpath(out, ROOT)
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(f"""# Direct-identifier leak benchmark ({rel})

Generated by `{COMMAND} --layouts {layouts} --seed {seed} --out {rel}` with faker {version} (MIT licence;
pinned wheel and hash in scripts/gen_names_bench.py). {len(docs)} invented insurance,
HR, legal, clinical and chat documents in {len(LAYOUTS[layouts])} layouts (family {layouts}); people, street
addresses, phone numbers and e-mail addresses from faker's locales, ids random. No value
comes from a labelled set or from clam's vocabularies; the templates were written for
this benchmark, not taken from any corpus.

Run: `cargo build --release && LEAK_BENCH={rel} scripts/leak_bench.sh`: `clam run`
with the defaults, then every gold direct identifier (SPEC §2: NAME, PATIENT_ID,
ADDRESS, PHONE_NUMBER, EMAIL) is looked for in the redacted documents as an attacker
would: case-insensitively, with spaces collapsed, and for numbers and ids by their
letters and digits alone. `parts` are pieces readable on their own (a surname, a
street line).

| type | gold identifiers |
|---|---|
{rows}
""")


def inner(args):
    from faker import Faker
    import faker
    docs, gold = build(Faker, args.seed, LAYOUTS[args.layouts])
    write(os.path.abspath(args.out), docs, gold, args.seed, faker.VERSION, args.layouts)
    print(f"wrote {len(docs)} documents, {len(gold)} gold identifiers to {args.out}")
    return 0


def outer(args):
    return nb.run_in_faker_venv(__file__, args.out, args.seed, args.venv, "clam-leakbench-",
                                ["--layouts", args.layouts])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--venv")
    ap.add_argument("--layouts", choices=sorted(LAYOUTS), default="a")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    return inner(args) if args.inner else outer(args)


if __name__ == "__main__":
    sys.exit(main())
