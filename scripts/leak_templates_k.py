"""Family k of the direct-identifier leak benchmark (issue 14): layouts for measuring
clam on documents it was not fitted to.

These templates were written without reading the extractor's code or notes, only
scripts/gen_leak_bench.py (for the template format and the slots `build()` fills), so
that `--layouts k` measures clam on unseen layouts: court captions, "COMES NOW"
pleadings, docket entries, affidavit jurats, police report fields, subpoenas, leases,
explanations of benefits, subrogation demands, pipe-separated key=value records, ticket
fields, YAML, deposition Q/A, payslip headers, timesheets, rotas, sign-in sheets,
disciplinary letters, bilingual and Spanish forms, triage shorthand, prescriptions,
radiology requests, medical certificates, SMS reminders, HL7 segments, voicemail notes,
text-message threads, mail log lines, XML attributes, shipping labels, JSON exports,
iCalendar events, and names in running text after verbs and prepositions, in
possessives, and in lists joined by "&" or "/".

Each template: (domain, text with {slots}); the slots are those of `build()` in
scripts/gen_leak_bench.py.
"""

TEMPLATES_K = [
    # insurance
    ("insurance", "EXPLANATION OF BENEFITS - THIS IS NOT A BILL\nPatient: {name}    Subscriber ID: {mid}\nDate of service  Provider          Billed   Allowed  Plan paid  You owe\n{month} 04         Eastside Physio   180.00   140.00   112.00     28.00"),
    ("insurance", "RE: Subrogation demand - our file {cid}\n\nThis office has paid benefits on behalf of its insured, {name}, arising from an accident in which {sur} {incident}. Demand is hereby made for reimbursement of 7,812.40 within thirty (30) days."),
    ("insurance", "claim_ref={cid}|member={mid}|tel={phone}|loss_city={city}|state=OPEN"),
    ("insurance", "Other driver (details taken at the scene): mob {phone2}, resides at {street}, {city}; reg. LD19 KXE. Our insured says the other driver admitted fault."),
    ("insurance", "Insured is working overseas until {month}; please send all post care of {name2}; {street}; {city}; {postcode}."),
    ("insurance", "NorthCover: policy {mid} renews on the 14th. Reply YES to renew or call 0345 600 1122. Txt STOP to opt out"),
    ("insurance", "Ticket: CLM-OPS-4471\nReporter: {name2}\nAssignee: {name}\nSummary: duplicate payment issued on {cid}\nPriority: High"),
    ("insurance", "- insured:\n    family_name: {sur}\n    given_names: {given}\n    tel: \"{phone}\"\n  vehicle: 2017 hatchback, garaged overnight"),
    ("insurance", "Refund cheque returned undelivered from {street}, {city} {postcode}. Member {mid} to be contacted on {phone} to confirm a new address."),
    # hr
    ("hr", "PAY ADVICE  Period 07/{year}\nEmployee: {name_upper}  No.: {eid}\nTax code 1257L  NI cat A\nGross 2,418.50  Deductions 516.39  Net 1,902.11"),
    ("hr", "Timesheet - week ending {month} 14\nName  Mon  Tue  Wed  Thu  Fri  Total\n{name}  8  8  7.5  8  6  37.5\n{name2}  8  0  8  8  8  32"),
    ("hr", "PRIVATE AND CONFIDENTIAL\n{name}\n{street}\n{city}\n{postcode}\n\nInvitation to a disciplinary hearing"),
    ("hr", "{given} has exceeded target in each of the last three quarters. {sur}'s supervisor, {name2}, recommends a step increase from {month}."),
    ("hr", "The complaint was escalated by {name} after two emails to facilities went unanswered."),
    ("hr", "NIGHTS {month} 12-18\n22:00-06:00  {sur}, {given}  (bleep 4412)\n22:00-06:00  {sur2}, {given2}  (bleep 4417)"),
    ("hr", "No. | Print name | Staff no. | Signature\n1 | {name} | {eid} | [signed]\n2 | {name2} | agency | [signed]"),
    ("hr", "Reference check: spoke to {name2} yesterday, who managed {name} for four years and would re-employ without hesitation."),
    ("hr", "{eid} {sur_upper} {given} - probation extended to {month}; see note from {name2}."),
    ("hr", "Bank details change for staff no. {eid}: payslips now to {email}; home address unchanged ({street}, {city} {postcode})."),
    ("hr", "Emergency contact form\nNom / Name: {sur}\nPrénom / First name: {given}\nPortable / Mobile: {phone}"),
    # legal
    ("legal", "SUPERIOR COURT OF THE STATE OF CALIFORNIA\nCOUNTY OF ALAMEDA\n\n{name_upper},\n            Plaintiff,\n      v.                          Case No. {cid}\nMERIDIAN FREIGHT, INC.,\n            Defendant."),
    ("legal", "COMES NOW the Plaintiff, {name}, by and through undersigned counsel, and for the Complaint states:\n1. Plaintiff is an adult individual who resides at {street}, {city}."),
    ("legal", "{year}-03-14  17  NOTICE of Appearance by {name2} on behalf of {name}. (Entered: {year}-03-15)"),
    ("legal", "Further affiant sayeth naught.\n\n_______________________\n{name}, Affiant\n\nSubscribed and sworn to before me this 4th day of {month}, {year}."),
    ("legal", "INCIDENT NO. 24-118833\nR/P: {name_lastfirst}  DOB {dob}\nADDR: {street} {city}\nPH: {phone}\nNARR: R/P advised that at {employer} R/P {incident}."),
    ("legal", "YOU ARE COMMANDED to appear and testify at a deposition.\nTO: {name}; {street}; {city} {postcode}"),
    ("legal", "This Agreement is made between Harbour Lets LLC (\"Landlord\") and {name} (\"Tenant\") of {street}, {city}, for a term of twelve months."),
    ("legal", "Apellido(s): {sur}\nNombre: {given}\nDomicilio: {street}, {city} {postcode}\nTeléfono: {phone}"),
    ("legal", "Respondent is domiciled at {street}, {city} {postcode}; last known e-mail {email}. Attempts at personal service have failed."),
    # clinical
    ("clinical", "{age} y/o {sex} c/o {cond} since yesterday, states {incident_ing} at work. hx asthma. NKDA. ph {phone}"),
    ("clinical", "Rx\n{name}    DOB {dob}\n{street}, {city}\nAmoxicillin 500 mg caps #21\nSig: 1 cap PO TID x 7 days\nPrescriber: Dr {sur2}"),
    ("clinical", "RADIOLOGY REQUEST\nExam: XR lumbar spine AP/lat\nClinical hx: {cond}, ?fracture\nPt: {name_upper} / {pid}\nRequested by: {name2}, ext. 4471"),
    ("clinical", "This is to certify that I examined {name_nbsp} on {month} 3 and that in my opinion the patient is unfit for work for 14 days owing to {cond}."),
    ("clinical", "To {phone}: Reminder - appt Tue 09:40 at Riverside Clinic (ref {pid}). Reply Y to confirm or N to cancel."),
    ("clinical", "PID|1||{pid}^^^MRN||{sur_upper}^{given_upper}||{dob}|{sex}|||{street}^^{city}^^{postcode}||{phone}"),
    ("clinical", "VM 14:02 from daughter ({name2}) - per her, mum {given} {sur}'s meds were changed at the pharmacy; callback on cell {phone2}"),
    ("clinical", "Seen jointly with physio. {name}, who lives alone at {street}, manages the stairs with one rail."),
    ("clinical", "Vaccine: Tdap  Lot: U7731AA  Site: L deltoid  Pt ID: {pid}  DOB: {dob}  Pt tel.: {phone}"),
    # chat
    ("chat", "Me: is {name_zw} in today?\nThem: nope off sick, try her cell {phone}"),
    ("chat", "2024-06-02T08:14:55Z WARN mailer bounce rcpt=<{email}> code=550 reason=\"mailbox full\""),
    ("chat", "<contact kind=\"mobile\" value=\"{phone}\" owner=\"{eid}\" verified=\"false\"/>"),
    ("chat", "SHIP TO:\n{name_upper}\n{street}\n{city}  {postcode}\nTEL {phone}"),
    ("chat", "{given} {sur}'s off sick so {given2} & I are covering the phones - anything urgent to {email2}"),
    ("chat", "[{{\"login\": \"{email}\", \"display_name\": \"{name}\", \"last_seen\": \"{year}-02-11\"}}]"),
    ("chat", "BEGIN:VEVENT\nSUMMARY:Return to work - {given}\nORGANIZER;CN={name2}:mailto:{email2}\nATTENDEE;CN={name}:mailto:{email}\nEND:VEVENT"),
    ("chat", "distribution: {sur} / {sur2} / records - please do not forward"),
    ("chat", "{name} called back at 4 and said the assessor never showed up."),
    ("chat", "fwd'd the form to {email} + left a vm on {phone}, will chase tmrw"),
]
