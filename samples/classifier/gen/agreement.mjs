// Long commercial agreements as filed as exhibits to company reports: exhibit header, preamble,
// recitals, a definitions article, a dozen or more numbered articles, redaction markers,
// signature blocks and schedules. 10k–60k characters, sometimes paginated like a PDF.
import { FIRST, LAST, company, person } from './data.mjs';
import { cap, fill, paginate, paragraph, wrap } from './prose.mjs';

const KINDS = ['Distribution', 'License', 'Collaboration', 'Supply', 'Hosting', 'Maintenance and Support', 'Endorsement', 'Franchise', 'Sponsorship', 'Consulting', 'Services', 'Strategic Alliance', 'Joint Venture', 'Manufacturing', 'Reseller', 'Marketing', 'Outsourcing', 'Development', 'Co-Branding', 'Transportation', 'Agency', 'Non-Competition', 'Promotion', 'Affiliate', 'Intellectual Property Assignment', 'Transition Services', 'Master Services', 'Software License', 'Loan', 'Credit'];
const STATES = ['Delaware', 'Nevada', 'New York', 'California', 'Texas', 'Florida', 'Massachusetts', 'Colorado', 'British Columbia', 'Ontario'];
const ENTITY = ['corporation', 'limited liability company', 'limited partnership', 'company'];
const CITIES = ['New York, New York', 'San Diego, California', 'Houston, Texas', 'Boston, Massachusetts', 'Wilmington, Delaware', 'Denver, Colorado', 'Miami, Florida', 'Vancouver, British Columbia', 'Las Vegas, Nevada'];

const TERMS = ['Affiliate', 'Confidential Information', 'Effective Date', 'Territory', 'Products', 'Services', 'Net Sales', 'Intellectual Property Rights', 'Licensed Patents', 'Term', 'Change of Control', 'Business Day', 'Deliverables', 'Specifications', 'Marks', 'Customer Data', 'Minimum Purchase Requirement', 'Launch Date', 'Royalty', 'Field', 'Know-How', 'Third Party', 'Force Majeure Event', 'Fees', 'Service Levels'];
const DEFS = [
  'means any entity that directly or indirectly controls, is controlled by, or is under common control with a Party',
  'means all non-public information disclosed by one Party to the other, whether orally or in writing, that is designated as confidential or that reasonably should be understood to be confidential',
  'shall have the meaning set forth in the preamble',
  'means the geographic area described in Schedule A',
  'means the products listed in Exhibit B, as amended from time to time by mutual written agreement',
  'means the gross amounts invoiced for the Products less returns, rebates, freight and sales taxes',
  'means any day other than a Saturday, Sunday or a day on which banks in {city} are authorized to close',
  'means all patents, copyrights, trademarks, trade secrets and other proprietary rights anywhere in the world',
  'means the event described in Section {sec}',
  'means the technical and functional requirements set out in the Statement of Work',
];

const CLAUSES = {
  'Appointment': ['{a} hereby appoints {b} as its {exclusive|non-exclusive} {distributor|reseller|agent} for the Products in the Territory, and {b} accepts such appointment on the terms of this Agreement.', '{b} shall not solicit customers outside the Territory without the prior written consent of {a}.', '{b} shall use commercially reasonable efforts to promote and sell the Products throughout the Term.'],
  'Grant of License': ['Subject to the terms and conditions of this Agreement, {a} hereby grants to {b} a {non-exclusive|exclusive}, non-transferable license under the Licensed Patents to make, use and sell Products in the Field.', '{b} shall not sublicense any of the rights granted hereunder without the prior written consent of {a}, which shall not be unreasonably withheld.', 'All rights not expressly granted herein are reserved by {a}.'],
  'Term and Termination': ['This Agreement shall commence on the Effective Date and continue for an initial term of {num} years, unless earlier terminated as provided herein.', 'Either Party may terminate this Agreement upon {num}0 days\' written notice if the other Party materially breaches this Agreement and fails to cure such breach within such period.', 'Upon expiration or termination, each Party shall return or destroy the Confidential Information of the other Party.', 'Sections {sec}, {sec} and {sec} shall survive any expiration or termination of this Agreement.'],
  'Payment Terms': ['{b} shall pay {a} the fees set forth in Schedule {sched} within {num}0 days after receipt of an invoice.', 'Late payments shall bear interest at the rate of {one|one and one-half} percent ({pct}) per month or the maximum rate permitted by law, whichever is less.', 'All amounts are exclusive of taxes, which shall be borne by {b}.', 'In consideration of the rights granted, {b} shall pay {a} a royalty of [***] percent of Net Sales.'],
  'Confidentiality': ['Each Party shall hold the Confidential Information of the other Party in strict confidence and shall not disclose it to any Third Party except as permitted herein.', 'The obligations of this Section shall not apply to information that is or becomes publicly available through no fault of the receiving Party.', 'The receiving Party may disclose Confidential Information to the extent required by law, provided that it gives the disclosing Party prompt notice.'],
  'Intellectual Property': ['As between the Parties, {a} shall retain all right, title and interest in and to its Intellectual Property Rights.', 'Any improvements made by {b} shall be owned by {b}, subject to a royalty-free license in favour of {a}.', '{b} shall not challenge the validity of the Marks or register any confusingly similar mark.'],
  'Representations and Warranties': ['Each Party represents and warrants that it has full corporate power and authority to enter into and perform this Agreement.', '{a} warrants that the Products will conform to the Specifications for a period of {num} months following delivery.', 'EXCEPT AS EXPRESSLY SET FORTH HEREIN, NEITHER PARTY MAKES ANY OTHER WARRANTY, EXPRESS OR IMPLIED, INCLUDING ANY WARRANTY OF MERCHANTABILITY OR FITNESS FOR A PARTICULAR PURPOSE.'],
  'Indemnification': ['{a} shall indemnify, defend and hold harmless {b} and its Affiliates from and against any and all losses, damages, liabilities and expenses arising out of any claim that the Products infringe the Intellectual Property Rights of a Third Party.', 'The indemnified Party shall give prompt written notice of any claim and shall cooperate with the indemnifying Party in its defence.'],
  'Limitation of Liability': ['IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT, INCIDENTAL, SPECIAL OR CONSEQUENTIAL DAMAGES ARISING OUT OF THIS AGREEMENT.', 'EACH PARTY\'S AGGREGATE LIABILITY SHALL NOT EXCEED THE AMOUNTS PAID UNDER THIS AGREEMENT DURING THE TWELVE (12) MONTHS PRECEDING THE CLAIM.'],
  'Insurance': ['{b} shall maintain commercial general liability insurance with limits of not less than ${num},000,000 per occurrence.', 'Certificates of insurance shall be furnished to {a} upon request.'],
  'Force Majeure': ['Neither Party shall be liable for any failure or delay in performance caused by a Force Majeure Event, including acts of God, war, strikes, epidemics or governmental action.', 'The affected Party shall notify the other Party promptly and use reasonable efforts to resume performance.'],
  'Governing Law': ['This Agreement shall be governed by and construed in accordance with the laws of the State of {state}, without regard to its conflict of laws principles.', 'Each Party submits to the exclusive jurisdiction of the state and federal courts located in {city}.'],
  'Dispute Resolution': ['Any dispute arising out of or relating to this Agreement shall first be referred to senior executives of the Parties for resolution.', 'Disputes not so resolved within thirty (30) days shall be finally settled by binding arbitration administered by the American Arbitration Association.'],
  'Notices': ['All notices under this Agreement shall be in writing and delivered by hand, by courier or by certified mail to the addresses set forth below.', 'Notices shall be deemed given upon receipt.'],
  'Assignment': ['Neither Party may assign this Agreement without the prior written consent of the other Party, except to a successor in connection with a Change of Control.', 'This Agreement shall be binding upon and inure to the benefit of the Parties and their permitted successors and assigns.'],
  'Miscellaneous': ['This Agreement constitutes the entire agreement between the Parties and supersedes all prior agreements and understandings.', 'If any provision of this Agreement is held invalid, the remaining provisions shall remain in full force and effect.', 'No waiver of any breach shall be deemed a waiver of any subsequent breach.', 'This Agreement may be executed in counterparts, each of which shall be deemed an original.', 'The Parties are independent contractors and nothing herein creates a partnership, joint venture or agency relationship.'],
  'Minimum Purchases': ['During each Contract Year, {b} shall purchase Products having an aggregate value of not less than the Minimum Purchase Requirement.', 'If {b} fails to meet the Minimum Purchase Requirement, {a} may convert the appointment to a non-exclusive one upon written notice.'],
  'Delivery and Acceptance': ['{a} shall deliver the Products FCA {a}\'s facility (Incoterms 2020).', '{b} shall inspect the Products within ten (10) Business Days after delivery and notify {a} of any non-conformity.'],
  'Service Levels': ['{a} shall make the hosted services available at least 99.{num}% of the time in each calendar month, excluding scheduled maintenance.', 'If availability falls below the service level, {b} shall be entitled to the service credits set out in Schedule {sched}.'],
  'Marketing Obligations': ['{b} shall feature the Marks in its advertising and promotional materials in accordance with the guidelines provided by {a}.', 'The Parties shall jointly develop an annual marketing plan no later than {num}0 days before the start of each Contract Year.'],
  'Non-Solicitation': ['During the Term and for one (1) year thereafter, neither Party shall solicit for employment any employee of the other Party engaged in the performance of this Agreement.'],
  'Audit Rights': ['{b} shall keep complete and accurate books and records relating to Net Sales and shall permit an independent accountant to inspect them once per calendar year.'],
};

function sectionNumber(rng, art, sub, style) {
  if (style === 0) return `${art}.${sub}`;
  if (style === 1) return `Section ${art}.${sub}`;
  return `(${String.fromCharCode(96 + sub)})`;
}

export function generateAgreement(rng) {
  const kind = rng.pick(KINDS);
  const amendment = rng.chance(0.12);
  const title = `${amendment ? `${rng.pick(['FIRST', 'SECOND', 'THIRD'])} AMENDMENT TO ` : ''}${kind.toUpperCase()} AGREEMENT`;
  const aName = company(rng, 'us');
  const bName = company(rng, rng.pick(['us', 'us', 'ca', 'uk']));
  const aShort = rng.pick(['Company', 'Licensor', 'Supplier', 'Provider', aName.split(' ')[0]]);
  const bShort = rng.pick(['Distributor', 'Licensee', 'Customer', 'Client', 'Consultant', bName.split(' ')[0]]);
  const year = rng.int(1996, 2021);
  const dateStr = `${rng.pick(['January', 'March', 'April', 'June', 'August', 'October', 'December'])} ${rng.int(1, 28)}, ${year}`;
  const slots = { a: aShort, b: bShort, num: () => String(rng.int(1, 9)), pct: () => `${rng.int(1, 2)}%`, sec: () => `${rng.int(2, 14)}.${rng.int(1, 6)}`, sched: ['A', 'B', 'C', '1', '2'], state: STATES, city: CITIES };
  const width = rng.pick([70, 80, 95, 200]);
  const parts = [];
  const head = [];
  if (rng.chance(0.8)) head.push(rng.pick([`Exhibit 10.${rng.int(1, 40)}`, `EXHIBIT 10.${rng.int(1, 40)}`, `EX-10.${rng.int(1, 40)}`, `Exhibit 99.${rng.int(1, 5)}`]));
  if (rng.chance(0.5)) head.push(wrap(rng, rng.pick(['INFORMATION IN THIS EXHIBIT MARKED [***] HAS BEEN OMITTED BECAUSE IT IS NOT MATERIAL AND WOULD HARM THE COMPANY COMPETITIVELY IF IT WERE DISCLOSED.', 'THE COMPANY HAS ASKED FOR CONFIDENTIAL TREATMENT OF PARTS OF THIS EXHIBIT; THOSE PARTS ARE MARKED [***] AND WERE SUBMITTED TO THE COMMISSION SEPARATELY.', 'Portions of this exhibit marked [*] are requested to be treated confidentially.']), width));
  head.push(title);
  parts.push(head.join('\n'));
  parts.push(wrap(rng, `This ${cap(kind.toLowerCase())} Agreement (this "Agreement") is ${rng.pick(['made and entered into', 'entered into', 'dated'])} as of ${dateStr} (the "Effective Date") by and between ${aName}, a ${rng.pick(STATES)} ${rng.pick(ENTITY)} with its principal place of business at ${rng.int(10, 9000)} ${rng.pick(['Commerce Drive', 'Park Avenue', 'Technology Way', 'Main Street', 'Industrial Blvd'])}, ${rng.pick(CITIES)} ("${aShort}"), and ${bName}, a ${rng.pick(STATES)} ${rng.pick(ENTITY)} ("${bShort}"). ${aShort} and ${bShort} are each referred to herein as a "Party" and together as the "Parties".`, width));
  const recitals = ['RECITALS', ...Array.from({ length: rng.int(2, 4) }, () => wrap(rng, `WHEREAS, ${fill(rng, rng.pick(['{a} is engaged in the business of developing, manufacturing and selling {goods};', '{b} has expertise in the marketing and distribution of {goods} in the Territory;', '{a} owns certain Intellectual Property Rights relating to {goods} and wishes to license such rights to {b};', 'the Parties wish to collaborate on the development of {goods} on the terms set forth herein;', '{b} desires to obtain, and {a} is willing to provide, the services described herein;']), { ...slots, goods: ['medical diagnostic products', 'software and related services', 'consumer electronics', 'specialty chemicals', 'recreational vehicles', 'financial information services', 'e-commerce hosting services', 'nutritional supplements'] })}`, width)), wrap(rng, 'NOW, THEREFORE, in consideration of the mutual covenants and agreements set forth herein, and for other good and valuable consideration, the receipt and sufficiency of which are hereby acknowledged, the Parties agree as follows:', width)];
  parts.push(recitals.join('\n\n'));
  const style = rng.int(0, 2);
  const artWord = rng.pick(['ARTICLE', 'Article', 'Section', '']);
  const defs = rng.sample(TERMS, rng.int(5, 14)).map((t, i) => wrap(rng, `${sectionNumber(rng, 1, i + 1, style)} "${t}" ${fill(rng, rng.pick(DEFS), slots)}.`, width));
  parts.push(`${artWord} 1${artWord ? '' : '.'} DEFINITIONS`.trim() + '\n' + defs.join('\n'));
  const names = rng.shuffle(Object.keys(CLAUSES)).slice(0, rng.int(9, Object.keys(CLAUSES).length));
  // Boilerplate articles cluster at the end in real agreements.
  const tail = ['Governing Law', 'Notices', 'Assignment', 'Miscellaneous'].filter((n) => names.includes(n));
  const order = [...names.filter((n) => !tail.includes(n)), ...tail];
  const repeats = rng.int(1, 3);
  order.forEach((name, i) => {
    const art = i + 2;
    const out = [`${artWord} ${art}${artWord ? '' : '.'} ${rng.chance(0.6) ? name.toUpperCase() : name}`.trim()];
    const sentences = CLAUSES[name];
    const n = rng.int(1, Math.min(5, sentences.length + repeats));
    for (let s = 1; s <= n; s++) {
      out.push(wrap(rng, `${sectionNumber(rng, art, s, style)} ${paragraph(rng, sentences, slots, rng.int(1, 3 + repeats))}`, width));
    }
    parts.push(out.join('\n'));
  });
  parts.push(wrap(rng, 'IN WITNESS WHEREOF, the Parties have caused this Agreement to be executed by their duly authorized representatives as of the Effective Date.', width));
  const sig = (name) => [name, `By: ${rng.chance(0.5) ? '/s/ ' : '______________________'}${rng.chance(0.5) ? person(rng) : ''}`, `Name: ${rng.pick(FIRST)} ${rng.pick(LAST)}`, `Title: ${rng.pick(['Chief Executive Officer', 'President', 'Chief Financial Officer', 'General Counsel', 'Vice President, Business Development', 'Managing Member'])}`, rng.chance(0.5) ? `Date: ${dateStr}` : ''].filter(Boolean).join('\n');
  parts.push(`${sig(aName.toUpperCase())}\n\n${sig(bName.toUpperCase())}`);
  if (rng.chance(0.6)) {
    const sched = [`${rng.pick(['SCHEDULE', 'EXHIBIT', 'Schedule', 'Exhibit'])} ${rng.pick(['A', 'B', '1'])}`, rng.pick(['PRODUCTS AND PRICING', 'FEES', 'TERRITORY', 'STATEMENT OF WORK', 'SERVICE LEVELS', 'LICENSED PATENTS'])];
    for (let i = 0; i < rng.int(3, 10); i++) sched.push(`${rng.pick(['Model', 'Item', 'Patent No.', 'Phase', 'Region'])} ${rng.letters(2)}-${rng.digits(4)}    ${rng.chance(0.4) ? '[***]' : `$${rng.int(1, 900)},${rng.digits(3)}`}`);
    parts.push(sched.join('\n'));
  }
  let body = parts.join('\n\n');
  // Plain-language drafting avoids "shall"; many recent agreements say "will" or "must".
  if (rng.chance(0.35)) {
    const modal = rng.pick(['will', 'must']);
    body = body.replace(/\bshall\b/g, modal).replace(/\bSHALL\b/g, modal.toUpperCase());
  }
  const source = `Source: ${aName.toUpperCase()}, ${rng.pick(['8-K', '10-Q', '10-K', 'S-1', '10-K405'])}, ${rng.int(1, 12)}/${rng.int(1, 28)}/${year}`;
  if (rng.chance(0.4)) return body;
  return paginate(rng, body, rng.int(40, 60), (page) => ({
    top: null,
    bottom: rng.chance(0.5) ? `${source}${rng.chance(0.5) ? `\n${page}` : ''}` : rng.chance(0.5) ? `${page}` : `-${page}-`,
  }));
}
