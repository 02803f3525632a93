// Contracts: service agreements, NDAs, leases, employment contracts, supply agreements,
// amendments and plain-language freelance agreements. Several carry payment terms, invoice and
// order vocabulary on purpose (hard negatives for invoice and purchase_order).
import { address, company, person, city } from './data.mjs';
import { fmtDate, randomDate, addDays, money, round2 } from './format.mjs';
import { doc, maybe, EN_LOCS } from './common.mjs';

function numbered(rng, clauses) {
  const style = rng.int(0, 3);
  return clauses.map(([title, body], i) => {
    const n = i + 1;
    const head = style === 0 ? `${n}. ${title.toUpperCase()}` : style === 1 ? `${n}. ${title}` : style === 2 ? `Article ${n} – ${title}` : `Section ${n}. ${title}.`;
    return `${head}\n${body}`;
  }).join('\n\n');
}

function signatures(rng, a, b, loc) {
  const style = rng.int(0, 2);
  if (style === 0) return `IN WITNESS WHEREOF the parties have executed this Agreement on the date first written above.\n\nFor ${a}: ____________________  Name: ${person(rng)}  Title: ${rng.pick(['Director', 'CEO', 'Managing Partner', 'Owner'])}\n\nFor ${b}: ____________________  Name: ${person(rng)}  Title: ${rng.pick(['Director', 'Head of Operations', 'CFO', 'Owner'])}`;
  if (style === 1) return `Signed by the parties:\n\n${a}\nSignature: ______________  Date: ______\n\n${b}\nSignature: ______________  Date: ______`;
  return `Agreed and accepted.\n\n_______________________\n${a}\n\n_______________________\n${b}\n\nSigned at ${city(rng, loc)} on ${fmtDate(rng, randomDate(rng), loc)}`;
}

function common(rng, loc) {
  const law = { us: rng.pick(['the State of New York', 'the State of Delaware', 'the State of California', 'the State of Texas']), uk: 'England and Wales', ie: 'Ireland', au: 'New South Wales', ca: 'the Province of Ontario', nl: 'the Netherlands' }[loc];
  return {
    law: ['Governing Law', `This Agreement is governed by the laws of ${law}. ${rng.pick(['The courts of that jurisdiction have exclusive jurisdiction over any dispute.', 'Any dispute shall first be referred to mediation before either party issues proceedings.', 'The parties submit to the non-exclusive jurisdiction of those courts.'])}`],
    entire: ['Entire Agreement', rng.pick(['This Agreement constitutes the entire agreement between the parties and supersedes all prior discussions, proposals and understandings relating to its subject matter.', 'This document, together with its schedules, is the whole agreement between the parties. No variation is effective unless made in writing and signed by both parties.'])],
    conf: ['Confidentiality', rng.pick(['Each party shall keep confidential all information received from the other party that is marked confidential or would reasonably be regarded as confidential, and shall use it only for the purposes of this Agreement.', 'Neither party shall disclose the other\'s confidential information except to employees and advisers who need to know it and who are bound by equivalent obligations.'])],
    liab: ['Limitation of Liability', `Neither party shall be liable for indirect or consequential loss. Each party's total liability under this Agreement shall not exceed ${rng.pick(['the fees paid in the twelve months preceding the claim', 'the total fees payable under this Agreement', 'one hundred and fifty percent of the annual fees'])}.`],
    term: ['Term and Termination', `This Agreement commences on the Effective Date and continues for ${rng.pick(['twelve (12) months', 'an initial term of two years', 'a period of six months', 'an indefinite period'])}. Either party may terminate it by giving ${rng.pick(['thirty (30)', 'sixty (60)', 'ninety (90)'])} days' written notice${rng.chance(0.5) ? ', or immediately if the other party commits a material breach that is not remedied within fourteen days of notice' : ''}.`],
    force: ['Force Majeure', 'Neither party is liable for failure to perform caused by events beyond its reasonable control, provided it notifies the other party promptly and uses reasonable efforts to resume performance.'],
    notices: ['Notices', 'Notices under this Agreement must be in writing and delivered by hand, by recorded post or by e-mail to the addresses set out above.'],
    assign: ['Assignment', 'Neither party may assign or transfer its rights under this Agreement without the prior written consent of the other party, which shall not be unreasonably withheld.'],
  };
}

function services(rng) {
  const loc = rng.pick(EN_LOCS);
  const a = company(rng, loc);
  const b = company(rng, loc);
  const dt = randomDate(rng);
  const c = common(rng, loc);
  const fee = round2(rng.int(20, 400) * 100);
  const what = rng.pick(['software development and maintenance services', 'marketing and communications services', 'facilities management services', 'IT support services', 'payroll processing services', 'architectural design services', 'cleaning services for the premises']);
  const fees = ['Fees and Payment', rng.pick([
    `The Client shall pay the Provider ${money(rng, fee, loc, 0)} per month. The Provider shall invoice monthly in arrears and the Client shall pay each undisputed invoice within ${rng.pick([14, 30, 45])} days of receipt.`,
    `Fees are set out in Schedule 2. Invoices are payable within thirty days. Late payments bear interest at ${rng.int(2, 8)}% per annum above the base rate.`,
    `In consideration of the Services the Client shall pay a fixed fee of ${money(rng, fee, loc, 0)}, payable in three instalments against invoices issued on signature, on acceptance and on completion.`,
  ])];
  const clauses = rng.shuffle([c.conf, c.liab, c.force, c.notices, c.assign]).slice(0, rng.int(2, 5));
  return doc(
    rng.pick(['SERVICES AGREEMENT', 'Master Services Agreement', 'CONSULTANCY AGREEMENT', 'Agreement for the Provision of Services', 'Service Level Agreement']),
    `This Agreement is made on ${fmtDate(rng, dt, loc)} (the "Effective Date")\n\nBETWEEN:\n(1) ${a}, ${address(rng, loc).join(', ')} (the "${rng.pick(['Provider', 'Supplier', 'Contractor'])}"); and\n(2) ${b}, ${address(rng, loc).join(', ')} (the "${rng.pick(['Client', 'Customer', 'Company'])}").`,
    maybe(rng, 0.6, () => `WHEREAS the Client wishes to obtain ${what} and the Provider has agreed to provide them on the terms of this Agreement.\n\nNOW IT IS AGREED as follows:`),
    numbered(rng, [
      ['Definitions', '"Services" means the services described in Schedule 1. "Deliverables" means all documents and materials produced by the Provider in performing the Services.'],
      ['Services', `The Provider shall perform ${what} with reasonable skill and care and in accordance with good industry practice.`],
      fees, c.term, ...clauses, c.law, c.entire,
    ]),
    signatures(rng, a, b, loc),
  );
}

function nda(rng) {
  const loc = rng.pick(EN_LOCS);
  const a = company(rng, loc);
  const b = rng.chance(0.5) ? company(rng, loc) : person(rng);
  const c = common(rng, loc);
  return doc(
    rng.pick(['MUTUAL NON-DISCLOSURE AGREEMENT', 'Non-Disclosure Agreement', 'CONFIDENTIALITY AGREEMENT', 'NDA']),
    `This ${rng.pick(['Agreement', 'NDA'])} is entered into as of ${fmtDate(rng, randomDate(rng), loc)} by and between ${a} ("Disclosing Party") and ${b} ("Receiving Party"), together the "Parties".`,
    numbered(rng, [
      ['Purpose', `The Parties wish to explore ${rng.pick(['a potential business relationship', 'a joint venture in renewable energy', 'the acquisition of certain assets', 'a software integration project'])} (the "Purpose").`],
      ['Confidential Information', 'Confidential Information means any information disclosed by one Party to the other, in any form, that is designated as confidential or ought reasonably to be understood as confidential, including business plans, customer lists, pricing and technical data.'],
      ['Obligations', 'The Receiving Party shall hold Confidential Information in strict confidence, shall not disclose it to any third party and shall use it solely for the Purpose.'],
      ['Exclusions', 'These obligations do not apply to information that is or becomes public through no fault of the Receiving Party, or that was lawfully known to it before disclosure.'],
      ['Duration', `The obligations under this Agreement survive for ${rng.pick(['two', 'three', 'five'])} years from the date of disclosure.`],
      ['Return of Materials', 'On request, the Receiving Party shall promptly return or destroy all materials containing Confidential Information.'],
      c.law,
    ]),
    signatures(rng, a, b, loc),
  );
}

function lease(rng) {
  const loc = rng.pick(EN_LOCS);
  const landlord = person(rng);
  const tenant = person(rng);
  const rent = rng.int(6, 35) * 100;
  const c = common(rng, loc);
  const start = randomDate(rng);
  return doc(
    rng.pick(['RESIDENTIAL TENANCY AGREEMENT', 'Lease Agreement', 'ASSURED SHORTHOLD TENANCY AGREEMENT', 'Commercial Lease']),
    `Landlord: ${landlord}\nTenant: ${tenant}\nProperty: ${address(rng, loc).join(', ')}\nTerm: ${rng.pick([6, 12, 24])} months commencing ${fmtDate(rng, start, loc)}`,
    numbered(rng, [
      ['Rent', `The Tenant shall pay rent of ${money(rng, rent, loc, 0)} per month in advance on the ${rng.pick(['1st', '5th', '15th'])} day of each month by standing order to the Landlord's nominated account.`],
      ['Deposit', `The Tenant shall pay a security deposit of ${money(rng, rent * rng.pick([1, 1.5, 2]), loc, 0)}, which will be protected in an approved scheme and returned at the end of the tenancy less any lawful deductions.`],
      ['Use of the Property', 'The Tenant shall use the Property as a private residence only and shall not sublet without the Landlord\'s written consent.'],
      ['Repairs', 'The Landlord is responsible for structural repairs and for keeping installations for water, gas and electricity in working order. The Tenant shall keep the interior clean and in good condition.'],
      ['Access', 'The Landlord may enter the Property to inspect or carry out repairs on giving at least twenty-four hours\' notice.'],
      c.term,
    ]),
    signatures(rng, `Landlord ${landlord}`, `Tenant ${tenant}`, loc),
  );
}

function employment(rng) {
  const loc = rng.pick(EN_LOCS);
  const employer = company(rng, loc);
  const employee = person(rng);
  const role = rng.pick(['Senior Software Engineer', 'Account Manager', 'Registered Nurse', 'Warehouse Supervisor', 'Marketing Coordinator', 'Financial Analyst', 'Chef de Partie']);
  const salary = rng.int(28, 140) * 1000;
  return doc(
    rng.pick(['CONTRACT OF EMPLOYMENT', 'Employment Agreement', 'Statement of Terms and Conditions of Employment']),
    `Employer: ${employer}, ${address(rng, loc).join(', ')}\nEmployee: ${employee}\nJob title: ${role}\nStart date: ${fmtDate(rng, randomDate(rng), loc)}`,
    numbered(rng, [
      ['Duties', `The Employee is employed as ${role} and shall perform the duties reasonably assigned by the Employer.`],
      ['Remuneration', `The Employee shall receive an annual gross salary of ${money(rng, salary, loc, 0)}, paid ${rng.pick(['monthly in arrears', 'every two weeks'])} by bank transfer.`],
      ['Hours of Work', `Normal working hours are ${rng.pick([35, 37.5, 40])} hours per week, Monday to Friday.`],
      ['Holidays', `The Employee is entitled to ${rng.int(20, 30)} days of paid annual leave in addition to public holidays.`],
      ['Probation', `The first ${rng.pick(['three', 'six'])} months of employment are a probationary period.`],
      ['Notice', `After probation, either party may terminate employment by giving ${rng.pick(['one month', 'four weeks', 'three months'])}' written notice.`],
      ['Confidentiality', 'The Employee shall not, during or after employment, disclose any confidential information of the Employer.'],
    ]),
    signatures(rng, employer, employee, loc),
  );
}

function supply(rng) {
  const loc = rng.pick(EN_LOCS);
  const a = company(rng, loc);
  const b = company(rng, loc);
  const c = common(rng, loc);
  return doc(
    rng.pick(['SUPPLY AGREEMENT', 'Framework Supply Agreement', 'DISTRIBUTION AGREEMENT', 'Agreement for the Supply of Goods']),
    `Dated ${fmtDate(rng, randomDate(rng), loc)}\nParties: (1) ${a} ("Supplier") (2) ${b} ("Buyer")`,
    numbered(rng, [
      ['Orders', 'The Buyer may from time to time issue purchase orders for the Products. Each purchase order accepted by the Supplier forms a separate contract incorporating these terms.'],
      ['Prices', `Prices are set out in the Price Schedule and are fixed for ${rng.pick(['the first year', 'twelve months', 'the Initial Term'])}. Prices exclude VAT, which is payable in addition.`],
      ['Delivery', `The Supplier shall deliver the Products ${rng.pick(['DAP', 'to the Buyer\'s premises', 'EXW'])} within ${rng.int(5, 30)} working days of acceptance of an order. Risk passes on delivery; title passes on payment.`],
      ['Payment', `The Supplier shall invoice on dispatch. The Buyer shall pay invoices within ${rng.pick([30, 60])} days of the invoice date.`],
      ['Warranty', 'The Supplier warrants that the Products conform to the Specification and are free from defects in material and workmanship for twelve months from delivery.'],
      c.term, c.law,
    ]),
    signatures(rng, a, b, loc),
  );
}

function amendment(rng) {
  const loc = rng.pick(EN_LOCS);
  const a = company(rng, loc);
  const b = company(rng, loc);
  const dt = randomDate(rng);
  return doc(
    rng.pick(['AMENDMENT No. ' + rng.int(1, 4), 'Addendum to Agreement', 'Deed of Variation', 'Contract Extension']),
    `This ${rng.pick(['Amendment', 'Addendum'])} is made on ${fmtDate(rng, dt, loc)} between ${a} and ${b} and amends the ${rng.pick(['Services Agreement', 'Lease', 'Supply Agreement', 'Licence Agreement'])} dated ${fmtDate(rng, addDays(dt, -rng.int(100, 900)), loc)} (the "Agreement").`,
    numbered(rng, rng.sample([
      ['Extension', `The term of the Agreement is extended until ${fmtDate(rng, addDays(dt, rng.int(180, 900)), loc)}.`],
      ['Fees', `With effect from ${fmtDate(rng, addDays(dt, 30), loc)} the monthly fee is increased to ${money(rng, round2(rng.int(5, 90) * 100), loc, 0)}.`],
      ['Scope', 'Schedule 1 is deleted and replaced by the schedule attached to this Amendment.'],
      ['Continuation', 'Except as amended by this document, the Agreement remains in full force and effect.'],
      ['Definitions', 'Capitalised terms used but not defined here have the meanings given in the Agreement.'],
    ], rng.int(2, 4))),
    signatures(rng, a, b, loc),
  );
}

function plain(rng) {
  const loc = rng.pick(EN_LOCS);
  const client = company(rng, loc);
  const me = person(rng);
  const fee = rng.int(5, 120) * 100;
  return doc(
    rng.pick(['Freelance Agreement', 'Simple Consulting Contract', 'Letter of Engagement and Terms', 'Independent Contractor Agreement']),
    `This agreement is between ${client} ("you") and ${me} ("me"). By signing below we both agree to the following.`,
    [
      `What I will do: ${rng.pick(['design and build a five-page website', 'write twelve blog articles', 'produce a 3-minute promotional video', 'audit your accounting processes'])}.`,
      `When: work starts on ${fmtDate(rng, randomDate(rng), loc)} and should be finished within ${rng.int(2, 12)} weeks.`,
      `Payment: the total fee is ${money(rng, fee, loc, 0)}. I will send an invoice for 50% up front and 50% on completion; each invoice is due within ${rng.pick([7, 14, 30])} days.`,
      'Changes: extra work outside this scope will be quoted separately and agreed in writing before it starts.',
      'Ownership: once paid in full, you own the final deliverables. I may show the work in my portfolio.',
      'Ending the agreement: either of us can end this agreement with 14 days\' written notice. You pay for work done up to that date.',
    ].join('\n\n'),
    `Signed: ____________ (${client})    Signed: ____________ (${me})`,
  );
}

export function generateContract(rng) {
  return rng.weighted([[5, services], [3, nda], [3, lease], [3, employment], [3, supply], [2, amendment], [2, plain]])(rng);
}
