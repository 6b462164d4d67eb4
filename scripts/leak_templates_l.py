"""Family l of the direct-identifier leak benchmark (issue 14): a HELD-OUT family for
measuring clam on unseen layouts. Report results on it; do not tune the extractor on it.

These templates were written without reading the extractor's code, notes or tests, only
scripts/gen_leak_bench.py and scripts/leak_templates_k.py (for the template format, the
slots `build()` fills, and the layouts the earlier families already use, so as not to
repeat them). Nobody is to change the extractor to pass documents of this family: once
it is tuned on, it no longer measures unseen layouts, and a new family must be written.

Layouts: adjuster diaries and narrative reports, e-mail replies with quoted text
("On ..., X <e-mail> wrote:", "> "), Outlook reply headers, workers' compensation first
reports, CSV with quoted fields and spreadsheets pasted as tab-separated text, benefit
decision and social-care letters, letters in Nigerian, Indian, Australian and British
English, surveillance logs, first-person grievances and complaints ("My name is ... and
I live at ..."), hearing transcripts with speaker turns and Q./A. testimony, Markdown
reports with headings, OCR'd scanned forms with broken words and split fields, court
orders, witness lists, a will, a lasting power of attorney, tenancy agreements, an
affidavit and a bail order, discharge letters, pharmacy labels, lab reports, referral
letters, district-nurse and ambulance notes, out-patient slips, Teams and Zoom
transcripts, a WhatsApp export, lower-case team chat and community posts; names with and
without titles, as subjects and objects of verbs and in apposition; addresses on one
line or split over lines, with flat and unit numbers, PO boxes and rural routes; phone
numbers with extensions.

Each template: (domain, text with {slots}); the slots are those of `build()` in
scripts/gen_leak_bench.py.
"""

TEMPLATES_L = [
    # insurance
    ("insurance", "ADJUSTER DIARY   {cid}\n{month} 02  FNOL rec'd by phone. Insd reports {incident_ing} at {employer}; no police attended.\n{month} 04  Recorded statement taken from {name} (approx. 25 min), consistent with FNOL.\n{month} 09  Reservation of rights letter mailed to {street}, {city} {postcode}.\n{month} 15  LM for insd on {phone}, awaiting call back."),
    ("insurance", "NARRATIVE REPORT. On {month} 11 the undersigned met the claimant, {name}, at the claimant's home at {street}, {city}. The claimant, who is {age} and works as a {job}, explained that water had come through the ceiling of the back bedroom overnight and had been found the next morning by a lodger, {name2}. With the claimant's permission we inspected the loft and found a split compression joint on the cold feed. The claimant was asked to keep the damaged carpet until our contractor has measured the room; further contact will be by telephone on {phone}."),
    ("insurance", "Thanks {given}, received - I'll pass the invoice to the engineer today.\n\nOn Tue, {month} 11, {year} at 09:42, {name} <{email}> wrote:\n> Hello,\n> Attached is the repair invoice for claim {cid}.\n> My mobile has changed, it is now {phone}.\n> Best wishes"),
    ("insurance", "EMPLOYER'S FIRST REPORT OF OCCUPATIONAL INJURY OR DISEASE\n1. Employee (last, first, middle): {name_lastfirst}        2. Employee no.: {eid}\n3. Home address: {street}    City: {city}    ZIP: {postcode}\n4. Occupation: {job}    5. Age: {age}\n6. Describe how the injury occurred: employee {incident} near loading bay 3 and reported {cond}."),
    ("insurance", "claim_no,insured_name,risk_address,peril,reserve\n{cid},\"{name}\",\"Flat 4, {street}, {city}\",escape of water,\"12,500.00\"\nCLM-2024-118204,\"{name2}\",\"Unit 2, 18 Mill Lane, {city}\",storm,\"3,100.00\""),
    ("insurance", "Dear {name},\n\nShort-term disability claim - decision\n\nWe have reviewed the report from your physiotherapist and accept that {cond} prevents you from working as a {job}. Benefit will be paid fortnightly from {month} 3. If anything changes, write to us at PO Box 2210, {city} {postcode}, quoting member number {mid}."),
    ("insurance", "Sheet1\nPolicy\tRisk address\tPostcode\tSum insured\tFlood zone\n{mid}\t{street}, {city}\t{postcode}\t285,000\t2\n\t\t\tTOTAL\t285,000"),
    ("insurance", "Dear Sir/Ma,\n\nCOMPLAINT ON DELAY OF MY CLAIM\n\nI am {name}, holder of policy no. {mid}, residing at {street}, {city}. I wish to bring to your kind notice that my claim has been pending since {month} despite several visits to your office. I shall be grateful if this matter is treated with dispatch. I can be reached on {phone}.\n\nYours faithfully,\n{name}"),
    ("insurance", "SURVEILLANCE LOG - file {cid}\n06:55 Investigator in position opposite {street}.\n07:12 Subject left the address carrying two full refuse sacks to the kerb without apparent difficulty.\n07:40 Subject drove a silver estate to a builders' merchant and loaded timber into the boot.\n08:05 Subject returned home. Video 1-3 retained."),
    ("insurance", "Mailing address changed at member's request: old RR 2, {street}, {city} -> new PO Box 88, {city} {postcode}. Member {mid}; day phone {phone} ext. 214."),
    # hr
    ("hr", "Subject: Formal grievance - {name} - private and confidential\n\nMy name is {name} and I have worked at {employer} as a {job} since {year}. I am raising a formal grievance about the way my shift manager, {name2}, has spoken to me in front of customers since {month}. Please send any letters to my home address, {street}, {city} {postcode}, and not to my pigeonhole at work."),
    ("hr", "CHAIR: For the tape, present are the employee, {name}, and the investigating officer.\nMR. {sur_upper}: I was never told the rota had changed.\nMS. {sur2_upper}: It was on the noticeboard from the first of {month}.\nCHAIR: Noted. {sur}, do you want your union rep to say anything?"),
    ("hr", "# Investigation outcome\n\n## Parties\n- Complainant - {name}, staff no. {eid}\n- Respondent - {name2}\n\n## Finding\nThe allegation that {sur} was shouted at on the shop floor on {month} 6 is upheld."),
    ("hr", "To,\nThe HR Manager,\n{employer}\n\nSub: Application for medical leave\n\nRespected Madam,\nWith due respect I, {name}, employee code {eid}, working as {job}, want to inform you that I am suffering from {cond} and doctor has advised complete bed rest. Kindly grant me leave for 10 days. I will be available on my mobile {phone}.\n\nThanking you,\nYours obediently,\n{name}"),
    ("hr", "Before the final written warning, HR warned {name} twice about clocking in late, once in {month} and again after the stock take; {sur} signed both letters and did not appeal."),
    ("hr", "NEW  STARTER  F0RM            Pa ge 1 of 2\nSurn ame  {sur_upper}          F0renames  {given_upper}\nHome addr ess  {street}\n               {city}\nPost code  {postcode}      Te1  {phone}\nStaff  N o.  {eid}     Start date  {month} {year}"),
    ("hr", "G'day all, just a heads up that {name} is off on workers comp after {incident_ing} out the back of {employer} on Tuesday arvo. The card's at reception if you want to sign it, or drop something round to Unit 3/{street}, {city} - {given}'s happy to have visitors from the weekend."),
    ("hr", "Out-of-hours HR line this weekend: {phone} (option 2). If nobody picks up within 10 minutes, ring the duty manager's mobile on {phone2}. Please do not give these numbers to agency staff."),
    ("hr", "Locker 114 (changing room B) reassigned to staff no. {eid} from Monday; the previous padlock was cut off and the contents bagged. Payroll queries to {email}."),
    # legal
    ("legal", "UPON hearing counsel for the Applicant and the Respondent in person\nIT IS ORDERED THAT:\n1. The Respondent, {name}, shall vacate the property known as {street}, {city} {postcode} by 4 pm on 14 {month} {year}.\n2. The Respondent must not contact {name2} directly or indirectly.\n3. The Respondent shall pay the Applicant's costs, summarily assessed at 850."),
    ("legal", "PLAINTIFF'S PRELIMINARY WITNESS LIST\n1. {name}, {street}, {city}. Expected to testify regarding the condition of the rear stairwell.\n2. {name2}, c/o Kessler Property Management. Custodian of maintenance records.\n3. Any witness identified by Defendant."),
    ("legal", "THIS IS THE LAST WILL of me {name_upper} of {street} in the City of {city} which I make this {month} {year} and I revoke all earlier wills. I APPOINT my friend {name2} to be my executor and trustee. I GIVE all my estate to my nephew absolutely."),
    ("legal", "LASTING POWER OF ATTORNEY - property and financial affairs\nSection 1 The donor\nFull name: {name}\nDate of birth: {dob}\nAddress: Flat 2\n{street}\n{city}\n{postcode}\nSection 2 The attorney: {name2}, telephone {phone2}"),
    ("legal", "Q. Please state your full name for the record.\nA. {name}.\nQ. And where do you currently reside?\nA. {street}, in {city}.\nQ. How long have you lived there?\nA. Going on nine years."),
    ("legal", "RESIDENTIAL TENANCY AGREEMENT\nItem 1  Landlord: Coastal Realty Pty Ltd as agent\nItem 2  Tenant(s): (1) {name}  (2) {name2}\nItem 3  Premises: Unit 5/{street}, {city} {postcode}\nItem 4  Term: 12 months from {month} 1, {year}\nItem 5  Tenant's address for service: as above, or e-mail {email}"),
    ("legal", "The writer attended the address at 14:30 and spoke with a person who identified themselves as {name}. {sur} denies having been at the depot on the night of {month} 21 and states that the whole evening was spent at home with {name2}, who was not available to confirm this. A contact number, {phone}, was provided and is believed to be genuine."),
    ("legal", "We act for {name2}. Our client paid your client, {name}, a deposit of 1,450 on {month} 1 for the let of {street}, {city}, and has received neither the keys nor a refund. Unless the deposit is repaid within fourteen days we are instructed to issue proceedings without further notice."),
    ("legal", "AFFIDAVIT IN SUPPORT OF MOTION ON NOTICE\n\nI, {name}, Nigerian citizen, trader, of {street}, {city}, do hereby make oath and state as follows:\n1. That I am the Applicant in this suit and by virtue of that position I am conversant with the facts of this case.\n2. That the Respondent, {name2}, has refused to vacate my shop despite due notice."),
    ("legal", "ORDER\nThe accused {name}, aged about {age} years, R/o {street}, {city}, is admitted to bail on furnishing a personal bond of Rs. 25,000/- with one surety of the like amount (surety: {name2}). The accused shall not leave {city} without prior permission of this Court and shall furnish mobile number {phone} to the I.O."),
    ("legal", "Address for service of notices under clause 14: {street}, {city} {postcode}; e-mail for service: {email}. Notices sent to any other address are of no effect."),
    # clinical
    ("clinical", "DISCHARGE LETTER TO GENERAL PRACTITIONER\n\nRe: {name}   DOB {dob}   Hosp no. {pid}\n\nYour patient went home from Ward 9 today after a four-day admission with {cond}. Medication on discharge is unchanged. We would be grateful if you could arrange removal of sutures at the practice in ten days. The patient's daughter ({phone2}) has been informed."),
    ("clinical", "HIGHFIELD PHARMACY  01632 960442\nIBUPROFEN 400MG TABLETS                    24\nTake ONE tablet THREE times a day with or after food.\n{name_upper}                {month} {year}\nKeep out of the reach and sight of children."),
    ("clinical", "CLINICAL CHEMISTRY                         FINAL\nName {sur_upper}, {given_upper}    Sex {sex}    DOB {dob}\nHosp No {pid}    Loc: ED\nTEST          RESULT   UNITS    REF\nSodium        139      mmol/L   133-146\nPotassium     6.1 H    mmol/L   3.5-5.3\nCritical result phoned to {name2} at 07:58."),
    ("clinical", "Thank you for seeing this {age}-year-old {job}, who {incident} at work three weeks ago and has had {cond} ever since. {name} lives with a partner, {name2}, at {street}, {city}, and has not been able to drive since the accident. Simple analgesia has not helped."),
    ("clinical", "Dear {name},\n\nCare and support assessment\n\nThank you for letting us visit you at {street} on {month} 12. You told us that you find it hard to get in and out of the bath and that your neighbour, {name2}, helps with the shopping. We have agreed to arrange a bath board and a follow-up visit. If you have any questions, please ring your social worker on {phone} ext. 4417."),
    ("clinical", "DN visit 10:15. Let self in via key safe as agreed. {name} sat in armchair in front room, chatty and orientated. Leg ulcer redressed, no signs of infection. Daughter {name2} rang during visit and was updated; her mobile {phone2}. Next visit Thurs."),
    ("clinical", "Call received 02:14 to {street}, {city} for a {age}-year-old ({sex}) found on the kitchen floor by a neighbour. Pt alert, complaining of hip pain, unable to weight-bear. Conveyed to ED. Callback number left by caller: {phone}."),
    ("clinical", "OUT-PATIENT SLIP\nReg. No.: {pid}                  Date: {year}-06-11\nName: {name}       Age/Sex: {age}/{sex}\nAddress: {street}, {city}\nMob. No.: {phone}\nChief complaints: {cond} x 5 days"),
    ("clinical", "Specimen rejected: tube labelled with hospital number {pid} only, no second identifier. Please re-bleed and resend. Lab enquiries {phone} ext. 2231."),
    # chat
    ("chat", "#claims-intake\nmarta: does anyone know who {name_lower} is?? keeps emailing the general inbox\nraj: old claimant from 2019 i think, {email}\nmarta: ta, will reply from the shared box"),
    ("chat", "{name}   0:03\nOkay, can everybody hear me?\n\n{name2}   0:07\nYeah, you're fine.\n\n{name}   0:12\nGreat. First thing is the {cid} file, the one at {street}."),
    ("chat", "12/03/{year}, 21:14 - {name}: running late, be there by 10\n12/03/{year}, 21:15 - {name2}: no worries x\n12/03/{year}, 21:16 - {name}: <Media omitted>\n12/03/{year}, 21:20 - {name}: gate code is 4471, flat is above the bakery on {street}"),
    ("chat", "Sounds good - I'll book the room.\n\n________________________________\nFrom: Facilities Desk <{email2}>\nSent: 14 {month} {year} 09:12\nTo: Claims Team\nSubject: RE: handover\n\n>> Can we do Thursday instead?\n>> the old room has no projector"),
    ("chat", "Hi there, my name is {name} and I live at {street}, {city} {postcode}. I ordered a replacement card three weeks ago and it has still not arrived. Please call me on {phone} (work, ext. 22) between 9 and 5, or after 6 on my mobile."),
    ("chat", "LOST CAT near {street} \U0001F63F grey tabby, answers to \"{nick}\", very shy. Please ring or text {phone} if you see him - {given}"),
    ("chat", "{name} told us the keys would be under the mat but they weren't so we left. can u call {phone} and sort out another time"),
    ("chat", "10:04:11 From {name} to Everyone: my address for the courier is {street}, {city} {postcode}\n10:04:40 From {name2} to Everyone: thanks, noted\n10:05:02 From {name} to {name2} (Direct Message): pls don't share it further"),
    ("chat", "Automatic reply: I have left Northgate Logistics. For claims please write to {email2}; for anything urgent call {phone2} (Mon-Fri)."),
]
