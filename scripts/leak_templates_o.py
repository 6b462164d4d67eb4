"""Family o of the direct-identifier leak benchmark (issue 14): a HELD-OUT family for
measuring clam on unseen layouts. Report results on it; do not tune the extractor on it.

These templates were written without reading the extractor's code, notes or tests, only
scripts/gen_leak_bench.py and scripts/leak_templates_k.py, _l.py, _m.py and _n.py (for
the template format, the slots `build()` fills, and the layouts the earlier families
already use, so as not to repeat them). Every organisation, court, clinic and firm in
them is invented. Nobody is to change the extractor to pass documents of this family:
once it is tuned on, it no longer measures unseen layouts, and a new family must be
written.

Layouts: documents a privacy officer at an insurer, a hospital, an employer or a law
firm finds in a corpus to be indexed for retrieval. Case management exports with other
field-name conventions ("CLAIMANT_NAME=", "Insured.Name:", "name (last, first):"),
meeting notes with "ACTION:" items, transcriptions of handwritten notes with
abbreviated and misspelt labels ("Pt nme:", "adress:", "ph#", "employe no."),
narratives that introduce a person by a role and name them later ("The injured worker,
a 34-year-old ... named X"), nested quotations, bilingual notes (English with Spanish,
French or German around the identifiers), complaint letters and e-mails in the first
person with a signature and contact block, call-centre verification scripts, CRM and
applicant-tracking timelines with bullets, intake and enrolment forms with check boxes,
dental, optical and pharmacy records, occupational health case notes, fraud
investigation summaries, legal billing narratives ("Telephone attendance on X re:"),
court cause lists, probate inventories, conflict-check intakes, attendance notes, SMS in
capitals, team chat in German, lower-case notes; addresses on one line or across lines,
with flat, unit and apartment numbers; phones after "ph#", "m:", "tel (home/mob)", with
extensions; ids after varied labels; a few documents that name nobody.

Each template: (domain, text with {slots}); the slots are those of `build()` in
scripts/gen_leak_bench.py.
"""

TEMPLATES_O = [
    # insurance
    ("insurance", "### cms_export v4 | batch 0193 | Penmarric Assurance ###\nCASE_ID={cid}\nCLAIMANT_NAME={name_upper}\nCLAIMANT_DOB={dob}\nCLAIMANT_ADDR_LINE1={street}\nCLAIMANT_ADDR_CITY={city}\nCLAIMANT_ADDR_POSTCODE={postcode}\nCLAIMANT_TEL={phone}\nMEMBER_NO={mid}\nHANDLER=ops.queue.7\nSTATUS=AWAITING_DOCS\n### end of record ###"),
    ("insurance", "Insured.Name: {name}\nInsured.MemberId: {mid}\nInsured.Contact.Email: {email}\nInsured.Contact.Mobile: {phone}\nLoss.Date: {month} {year}\nLoss.Narrative: insured {incident} while visiting a friend; ED attendance same day\nRouting.Queue: LIABILITY-TRIAGE"),
    ("insurance", "SPECIAL INVESTIGATIONS UNIT - CASE SUMMARY (Ferncastle Indemnity)\nSubject: {name}, insured member {mid}\nAllegation: staged theft of two e-bikes reported {month} {year}\nFindings:\n(a) The address given on the proposal, {street}, {city}, is a parcel-forwarding unit, not a residence.\n(b) Photographs posted publicly after the reported theft show {sur} riding what appears to be one of the bikes.\n(c) Mobile {phone} was also supplied by {name2}, claimant on an unrelated file opened six weeks earlier.\nRecommendation: decline, refer to the fraud register, no further contact with the subject until legal review."),
    ("insurance", "INBOUND CALL - verification script v2.3 (Larkspur Health Plans)\nAgent: Thanks for calling, can I take your full name please?\nCaller verified: full name {name_upper}, DOB {dob}, postcode {postcode}\n[x] name  [x] date of birth  [x] postcode  [ ] security word (not set)\nAgent: Thank you {given}. Is {phone} still the best number for you?\nCaller: Yes, that's the one.\nOutcome: subscriber {mid} - replacement card ordered, 5-7 working days."),
    ("insurance", "To the Complaints Manager, Harrowgate Mutual\n\nI am writing for the third time about my travel claim. I sent every receipt you asked for back in {month} and since then I have had nothing except an automated e-mail telling me my case is 'in progress'. I have been a member of yours for eleven years and I am frankly disappointed by the way I have been treated. If I do not receive a proper answer within 14 days I will be taking this to the Ombudsman.\n\nSincerely,\n\n{name}\nMembership no. {mid}\nApt 4C, {street}\n{city}, {postcode}\nMob. {phone}  |  {email}"),
    ("insurance", "Activity timeline - Contact: {name} - Owner: Team Pelican\n{year}-03-02 10:14 \u2022 Call with {name} \u2022 inbound, 6m12s \u2022 asked about the no-claims discount\n{year}-03-02 10:31 \u2022 Email sent to {email} \u2022 template RENEWAL_QUOTE_B\n{year}-03-05 16:02 \u2022 Note \u2022 {given} says {name2} is now the main driver\n{year}-03-09 09:00 \u2022 Task due \u2022 call back on {phone} re: revised quote"),
    ("insurance", "HOME CLAIM - FIRST NOTICE (paper form, scanned)\nCompleted by: [x] policyholder  [ ] broker  [ ] other\nName (last, first): {name_lastfirst}\nSubscriber / member no.: {mid}\nProperty type: [ ] house  [x] flat/apartment  [ ] other\nRisk address: Flat 12, {street}, {city} {postcode}\nCause: [ ] fire  [x] escape of water  [ ] theft  [ ] storm\nBest time to call: [x] am  [ ] pm    Phone: {phone}"),
    ("insurance", "Nota de llamada / call note - {month} 6\nEl asegurado {name} (member no. {mid}) called from Spain; says the car was hit while parked en la calle outside the holiday flat. Wants all papers sent to the home address, {street}, {city}, y no al apartamento. Habla ingl\u00e9s y espa\u00f1ol. Contacto: {phone}. Photos to follow por WhatsApp."),
    ("insurance", "ATTN MOTOR CLAIMS. OUR REF {cid}. INSURED {name_upper} REPORTS VEHICLE TAKEN FROM OUTSIDE {street} OVERNIGHT. KEYS STILL WITH INSURED. POLICE INFORMED. INSURED CONTACTABLE ON {phone} AFTER 1800 HRS. PLS ACK."),
    ("insurance", "The policyholder's lodger, a {age}-year-old {job} named {name}, discovered the leak when water began dripping through the light fitting in the hall. {given} turned off the stopcock, photographed the ceiling and telephoned the landlord, {name2}, who notified us the next morning. The lodger has since moved to {street}, {city} and is willing to give a statement."),
    ("insurance", "IVR session 88213-07 | caller ANI {phone} | menu path 2>4>1 | member number keyed: {mid} | DOB check failed twice | transferred to agent queue HEALTH-2 | abandoned after 11 min"),
    # hr
    ("hr", "People-ops weekly sync - {month} 14\nPresent: {given2} {sur2} (chair), payroll, HR advisory\n1. Phased return for {name} after {cond}: adjustments agreed in principle.\n2. Overtime cap for nights: no change.\nACTION: {given2} to send the updated rota to {name} at {email} by Thursday.\nACTION: HR advisory to book the OH appointment for staff no. {eid}.\nACTION: {given2} to ring {sur} on {phone} before Friday to confirm start times."),
    ("hr", "[transcribed from a handwritten note in the exit-interview folder; spelling as in the original]\nemp nme: {name}\nemploye no.: {eid}\nadress: {street}\n        {city}\nph#: {phone}\nreason 4 leaving: 'manager {sur2} never listend to nights' (sic)\nwould return? Y / N / maybe"),
    ("hr", "Subject: what happened on Tuesday\n\nHi,\nI don't really know who else to send this to. On Tuesday the shift lead shouted at me in front of the whole line because I asked to leave early for my son's hospital appointment. It isn't the first time and I have the texts to prove it. Please contact me at home and not through work.\n\nThanks,\n{given}\n\n--\n{name}\nStaff no {eid} (nights, goods-in)\n{street}, {city}\nm: {phone}\ne: {email}"),
    ("hr", "Candidate: {name_lastfirst} | Req #7741 {job_title} | Source: careers site\n\u25b8 {month} 03 - applied, contact e-mail {email}\n\u25b8 {month} 07 - phone screen by {name2}: 'strong, wants hybrid, notice 4 weeks'\n\u25b8 {month} 12 - panel interview; {given} asked about the parental leave policy\n\u25b8 {month} 15 - verbal offer; candidate mobile {phone}\n\u25b8 {month} 16 - references requested"),
    ("hr", "PAYROLL EXCEPTIONS - RUN {year}/11 - FOR REVIEW BEFORE BACS SUBMISSION\nEMPLOYEE NO {eid}  {sur_upper}, {given_upper}  BANK DETAILS CHANGED LESS THAN 3 DAYS BEFORE RUN\nEMPLOYEE NO 004417  {sur2_upper}, {given2}  NEGATIVE NET PAY\nAPPROVER: PAYROLL SUPERVISOR  STATUS: HELD"),
    ("hr", "The injured worker, a {age}-year-old {job} named {name}, had been on the early shift at {employer} for less than a week when the worker {incident}. No induction record could be found. The first-aider on duty, {name2}, applied a dressing and drove the worker to the walk-in centre. The worker's employee no. is {eid}; the investigation report was shared with the worker on {month} 9."),
    ("hr", "Personalakte / personnel note - Mitarbeiter {name}, Personalnummer (employee no.) {eid}, wohnhaft {street}, {postcode} {city}. Seit {month} krankgeschrieben (off sick) with {cond}; return-to-work Gespr\u00e4ch with {name2} planned for next week. Bitte vertraulich behandeln."),
    ("hr", "Payroll ref {eid}: P60 for tax year {year} re-issued at the former employee's request; PDF sent to {email}, paper copy not required."),
    ("hr", "BENEFITS ENROLMENT - plan year {year}\nEmployee: {name}    Employee ID: {eid}    Date of birth: {dob}\nMedical: [ ] waive  [x] employee + spouse  [ ] family\nDental: [x] yes  [ ] no     Vision: [ ] yes  [x] no\nSpouse / partner: {name2}, born {dob2}\nSend confirmation to (personal e-mail): {email}"),
    # legal
    ("legal", "Matter 20417-003 - {sur_upper} v Callowmere Haulage Ltd - time narrative\n{month} 02  RJT  0.3  Telephone attendance on {name} re: updated schedule of loss\n{month} 02  RJT  0.2  Email to client at {email} enclosing draft witness statement\n{month} 05  PLM  0.6  Attendance on {name2} (Defendant's solicitors), tel {phone2}, re: extension of time\n{month} 09  RJT  0.1  Perusing letter from client confirming change of address to {street}, {city}"),
    ("legal", "DAILY CAUSE LIST - BRACKENFIELD COUNTY COURT\nCourt 3 - before District Judge Amersley - sitting at 10 am\n10:00  F00BK221  Tidewater Housing Association v {name_upper}  Possession (rent arrears)\n10:30  F00BK307  {sur2_upper} v {sur_upper}  Small claim - final hearing\n11:30  F00BK119  Re {name2} (a protected party)  Directions\nLitigant in person in F00BK221: {name}, {street}, {city}"),
    ("legal", "INVENTORY OF THE ESTATE OF {name_upper}, DECEASED\nlate of Flat 3, {street}, {city} {postcode}\nDate of birth: {dob}    Date of death: {month} {year}    Executor: {name2}\nItem  Description                                               Value\n1     Current account, Wexford & Lowe Bank                        4,218.77\n2     Household contents at the above address                     1,500.00\n3     Refund of premium, Stannary Life, member no. {mid}            312.40\n4     Wedding ring (left to the deceased's sister)                  650.00\nTotal gross estate                                                6,681.17"),
    ("legal", "Attendance note - client {name}, seen in office, 40 min.\nClient says the landlord's agent left a voicemail: \"Tell {given} we know they're at {street} now and we'll be round on Friday.\" The neighbour, {name2}, heard it on speaker and told client: 'If it comes to court, I'll say what I heard.' Client's new number is {phone}; not to write to the old address."),
    ("legal", "Note d'entretien / interview note - {month} 11\nClient: {name}, n\u00e9(e) le {dob}, domicili\u00e9(e) {street}, {postcode} {city}. T\u00e9l. {phone}.\nThe client wants to contest the licenciement pour faute grave; the employer ({employer}) relies on one late clock-in. Prochaine \u00e9tape: request the dossier disciplinaire."),
    ("legal", "The deceased's niece, who appeared in person and gave her name to the court as {name}, told the judge that she had cared for her aunt for the last six years of her life at {street}, {city}. She produced no documents. The court adjourned the application to allow her to file a statement setting out her claim."),
    ("legal", "MATTER INTAKE - conflict check\nclient - name (last, first): {name_lastfirst}\nclient - d.o.b.: {dob}\nclient - addr.: {street} / {city} / {postcode}\nclient - tel (home/mob): {phone}\nadverse party - name (last, first): {sur2}, {given2}\nconflict?  [ ] yes  [x] no     cleared by: knw"),
    ("legal", "NOTICE OF INTENDED PROSECUTION\nTO: {name_upper}\nOF: {street}, {city} {postcode}\nIT IS ALLEGED THAT ON {month} 14 THE DRIVER OF A VEHICLE REGISTERED TO YOU EXCEEDED THE SPEED LIMIT ON THE A614. YOU ARE REQUIRED TO IDENTIFY THE DRIVER WITHIN 28 DAYS."),
    ("legal", "Dear Ms Okonjo,\nThanks for your letter. I've read the draft statement and two things are wrong. First, I started at the depot in {year}, not later. Second, it wasn't my supervisor who found me, it was {name2}, one of the drivers.\nI'm at home most days so please ring rather than write.\nBest wishes\n{name}\n___\ntel {phone} (landline) \u00b7 email {email}\n{street}, {city}"),
    ("legal", "PROCESS SERVER'S RETURN - attempted service, 3 visits: premises at {street}, {city} appear vacant, post piling up behind the door; telephone number on the claim form ({phone}) rings out. Recommend an application for alternative service."),
    # clinical
    ("clinical", "BRIGHTSMILE DENTAL CARE - treatment record\nPatient: {name}    Patient no.: {pid}    DOB: {dob}\nRecall: 6/12    Exemption: none\nUR6 MOD composite; LL7 fractured cusp, temporary dressing placed\nPt reports cold sensitivity since {month}. Next appt: crown prep (60 min). Reminder SMS to {phone}."),
    ("clinical", "Harlow & Vance Opticians - sight test record\nName {name_nbsp}    DOB {dob}    Hospital ref. (if referred): {pid}\nR  -1.25 / -0.50 x 180    L  -1.00 DS    Add +1.50\nIOP 14/15    Fundus NAD\nOccupation: {job} (screen user)\nSpectacles collected? [ ]    E-mail receipt to {email}"),
    ("clinical", "PMR - Quayside Pharmacy\nPt: {sur_upper}, {given}    DOB {dob}\nAddr: {street}, {city}\nTel: {phone}\n{month} 04  Naproxen 500mg tabs x56  - Dr {sur2}\n{month} 04  Omeprazole 20mg caps x28 - Dr {sur2}\nNote: collected by partner ({name2}); photo ID checked."),
    ("clinical", "[scan of handwritten triage card - transcribed, spelling as written]\nPt nme: {name}\nd.o.b {dob}\nadress: {street}\n        {city} {postcode}\nph# {phone}\nNOK: {name2} (mum?) {phone2}\nc/o: {cond} after {incident_ing}\nhosp # {pid}"),
    ("clinical", "OH CASE NOTE - Cairnlea Occupational Health, for Tollgate Foods\nEmployee: {name} | Payroll no. {eid} | Role: {job}\nManager referral rec'd {month} 2. Telephone consultation today (employee called on {phone}), consent to report confirmed verbally.\nHx: {incident} at {employer} approx. 6/52 ago, since then {cond}. Sleeping poorly. Driving OK.\nOpinion: fit for modified duties; no lifting > 10 kg for 4 weeks. Report to manager {name2} once employee has seen it."),
    ("clinical", "Paciente {name}, {age} a\u00f1os, MRN {pid}. Came in with su cu\u00f1ada {name2}, who interpreted. Dolor lumbar desde hace 3 d\u00edas after {incident_ing}. Domicilio: {street}, {city}. Tel\u00e9fono {phone}. Plan: physio referral, volver en 2 semanas si no mejora."),
    ("clinical", "The patient, a {age}-year-old {job} brought in by ambulance without identification, was later named by a relative as {name} and registered under hospital number {pid}. The relative, {name2}, can be reached on {phone2} and asked to be called before any procedure."),
    ("clinical", "pt {name_lower} rang re repeat rx, mrn {pid}, wants it sent to the pharmacy near {street} not the usual one. ok'd by gp."),
    ("clinical", "ID check before results given:\n\u2714 name ({name})\n\u2714 DOB {dob}\n\u2714 first line of address ({street})\n\u2718 mobile - caller gave {phone2}, record shows {phone}\nResults NOT given; advised caller to attend with photo ID."),
    ("clinical", "Critical value call-back: potassium 6.4 on sample for MRN {pid}; ward not answering, please ring the duty biochemist on {phone} ext. 4402."),
    ("clinical", "Home delivery run 3 - Apt 2B, {street}, {city} {postcode} - cold-chain item, ring {phone} on arrival, do not leave with neighbour."),
    # chat
    ("chat", "> from {name2}: the neighbour said '{given} told me she lives at {street} now', can you update?\nok updated the file for {given} {sur}. new mob {phone} too"),
    ("chat", "{given2}: kannst du {name} zur\u00fcckrufen? Nummer {phone}, es geht um Schaden {cid}\nme: mach ich nach dem Meeting, danke"),
    ("chat", "THIS IS {name_upper}. IM OUTSIDE {street} AND NOBODY HAS COME TO FIX THE BOILER. CALL ME BACK ON {phone}"),
    ("chat", "just met {name_zw} at the site visit - says to use {email} from now on, the old hotmail is dead"),
    ("chat", "\U0001F7E2 ticket opened by {email}\n\U0001F7E1 auto-reply sent\n\U0001F534 escalated: sender says someone else's letter arrived at {street}"),
    ("chat", "[{month} 3, 18:02] {name}: bonjour, c'est {given} - my new address is Unit 7, {street}, {city} {postcode}, merci !\n[{month} 3, 18:05] Support: merci {given}, c'est not\u00e9.\n[{month} 3, 18:05] {name}: \U0001F44D"),
    ("chat", "anyone know whose number {phone} is? rang the switchboard 4 times asking for 'the claims lady'"),
]
