// Everything else a mailbox or scanner delivers: meeting notes, recipes, news, manuals, casual
// e-mails, delivery notes, quotations, itineraries, lists, blog posts, press releases. Several
// mention invoices, budgets, orders or accounts so "other" is not just "no business words".
import { address, company, person, city } from './data.mjs';
import { fmtDate, randomDate, addDays, money, table, round2 } from './format.mjs';
import { doc, maybe, items, sum, EN_LOCS } from './common.mjs';

function meeting(rng) {
  const loc = rng.pick(EN_LOCS);
  const people = Array.from({ length: rng.int(3, 7) }, () => person(rng));
  const topics = rng.sample(['Q3 budget review', 'Office move', 'Supplier invoices backlog', 'Hiring plan', 'Website relaunch', 'Customer churn', 'Health and safety audit', 'New purchase approval process', 'Contract renewal with cleaning firm', 'Team offsite'], rng.int(2, 4));
  return doc(
    rng.pick(['Meeting notes', 'Minutes of the meeting', 'MINUTES', 'Weekly sync – notes', 'Board meeting minutes']),
    `${rng.pick(['Date', 'When'])}: ${fmtDate(rng, randomDate(rng), loc)}\n${rng.pick(['Attendees', 'Present', 'Participants'])}: ${people.join(', ')}\n${maybe(rng, 0.5, () => `Apologies: ${person(rng)}`)}`,
    topics.map((t, i) => `${i + 1}. ${t}\n${rng.pick(['Discussed current status; no blockers.', `${people[0].split(' ')[0]} reported that ${rng.pick(['costs are 8% over plan', 'the vendor has not replied', 'three candidates are in final interviews', 'the draft is ready for review'])}.`, 'Agreed to revisit next week once numbers are in.', 'Decision: go ahead with option B.'])}`).join('\n\n'),
    `${rng.pick(['Action items', 'Actions', 'Next steps'])}:\n${topics.map((t) => `- ${rng.pick(people).split(' ')[0]}: follow up on ${t.toLowerCase()}${rng.chance(0.5) ? ` by ${fmtDate(rng, randomDate(rng), loc)}` : ''}`).join('\n')}`,
    maybe(rng, 0.5, () => `Next meeting: ${fmtDate(rng, randomDate(rng), loc)}, ${rng.pick(['room 2.14', 'video call', 'the boardroom'])}`),
  );
}

function recipe(rng) {
  const dish = rng.pick(['Lemon drizzle cake', 'Vegetable lasagne', 'Chicken curry', 'Banana bread', 'Shakshuka', 'Minestrone soup', 'Apple crumble', 'Paella', 'Quiche lorraine', 'Pancakes']);
  const ingredients = rng.sample(['200 g plain flour', '3 eggs', '150 g butter', '1 onion, chopped', '2 cloves garlic', '400 g chopped tomatoes', '1 tsp cumin', '250 ml milk', '100 g sugar', '1 lemon, zested', 'salt and pepper', '2 tbsp olive oil', '300 g rice', '1 tsp baking powder', 'handful of parsley', '500 ml stock'], rng.int(5, 10));
  const steps = rng.sample(['Preheat the oven to 180°C.', 'Heat the oil in a large pan and soften the onion for 5 minutes.', 'Mix the dry ingredients in a bowl.', 'Whisk the eggs and milk together.', 'Add the tomatoes and simmer for 20 minutes.', 'Pour into a lined tin and bake for 40–45 minutes.', 'Season to taste and serve warm.', 'Leave to cool before slicing.', 'Stir in the herbs just before serving.', 'Fold everything together gently.'], rng.int(3, 6));
  return doc(
    dish,
    maybe(rng, 0.7, () => `${rng.pick(['Serves', 'Makes', 'Portions:'])} ${rng.int(2, 8)}  ·  ${rng.pick(['Prep', 'Preparation'])} ${rng.int(10, 30)} min  ·  ${rng.pick(['Cook', 'Cooking time'])} ${rng.int(15, 90)} min`),
    `${rng.pick(['Ingredients', 'INGREDIENTS', 'You will need'])}\n${ingredients.map((i) => `- ${i}`).join('\n')}`,
    `${rng.pick(['Method', 'Instructions', 'Steps', 'Directions'])}\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
    maybe(rng, 0.4, () => `Tip: ${rng.pick(['it freezes well for up to a month.', 'swap the butter for oil to make it dairy-free.', 'add a pinch of chilli for heat.'])}`),
  );
}

function news(rng) {
  const loc = rng.pick(EN_LOCS);
  const story = rng.pick([
    ['Central bank holds interest rates steady', ['The central bank kept its main rate unchanged on Thursday, citing slowing inflation and a cooling labour market.', 'Mortgage lenders said borrowers on variable deals would see no change in their monthly payments for now.', 'Analysts expect the first cut later in the year, although some warned that energy prices remain a risk.']],
    ['Council approves new cycle lanes', [`${city(rng, loc)} council has approved plans for six kilometres of protected cycle lanes through the city centre.`, 'Local businesses were divided, with some worried about deliveries and others welcoming more foot traffic.', 'Construction is due to begin in the spring.']],
    ['Local team reaches cup final', ['A late goal sent the home side through to their first final in twenty years.', 'The manager praised the supporters, who travelled in record numbers.', 'Tickets for the final go on sale next week.']],
    ['Small firms struggle with late payments', ['A survey of 1,200 small businesses found that more than half are waiting on overdue invoices, with the average owed now above 20,000.', 'Trade bodies are calling for stricter payment terms for large companies that buy from smaller suppliers.', 'The government said it was reviewing the evidence.']],
    ['Tech company unveils new phone', ['The company showed off a thinner handset with a longer-lasting battery at its annual event.', 'Reviewers noted that prices have risen again, with the base model costing more than last year.', 'Pre-orders open on Friday.']],
    ['Heatwave warning issued', ['Forecasters have issued an amber warning as temperatures are expected to exceed 33°C this weekend.', 'People are advised to stay hydrated, check on elderly neighbours and avoid the sun at midday.', 'Rail operators warned of possible speed restrictions.']],
  ]);
  return doc(
    story[0],
    maybe(rng, 0.7, () => `By ${person(rng)}${rng.chance(0.5) ? `, ${rng.pick(['Business reporter', 'Staff writer', 'Political correspondent'])}` : ''} | ${fmtDate(rng, randomDate(rng), loc)}`),
    story[1],
    maybe(rng, 0.4, () => `"${rng.pick(['We are cautiously optimistic', 'This is a big moment for the city', 'Nobody saw this coming', 'It has been a difficult year'])}," said ${person(rng)}, ${rng.pick(['a local resident', 'the chief economist at ' + company(rng, loc), 'a spokesperson'])}.`),
  );
}

function manual(rng) {
  const product = rng.pick(['Coffee machine CM-200', 'Wireless router AX3000', 'Cordless drill 18V', 'Robot vacuum R5', 'Electric kettle EK-17', 'Baby monitor BM2', 'Smart thermostat T4']);
  return doc(
    `${product} – ${rng.pick(['User manual', 'Quick start guide', 'Operating instructions', 'Installation guide'])}`,
    `${rng.pick(['Safety information', 'IMPORTANT SAFETY INSTRUCTIONS', 'Warnings'])}\n${rng.sample(['Read all instructions before use.', 'Do not immerse the appliance in water.', 'Keep out of reach of children.', 'Unplug before cleaning.', 'Use only the supplied charger.', 'Do not operate with a damaged cable.'], 3).map((s) => `- ${s}`).join('\n')}`,
    `${rng.pick(['Getting started', 'Setup', 'Installation'])}\n${rng.sample(['Remove all packaging and protective film.', 'Connect the power cable and switch on.', 'Download the companion app and follow the pairing steps.', 'Fill the tank to the MAX line.', 'Press and hold the power button for 3 seconds.', 'Wait until the indicator turns solid green.'], 4).map((s, i) => `${i + 1}. ${s}`).join('\n')}`,
    `${rng.pick(['Troubleshooting', 'Problems and solutions'])}\n${rng.sample(['Indicator flashes red: the battery is low; recharge fully.', 'No power: check the fuse and the wall socket.', 'Cannot connect: move closer to the router and restart both devices.', 'Noise during operation: descale the unit.'], 2).join('\n')}`,
    maybe(rng, 0.6, () => `Warranty: ${rng.int(1, 3)} years from the date of purchase. Keep your receipt as proof of purchase. ${rng.pick(['Register online to extend cover.', 'The warranty does not cover wear parts.'])}`),
  );
}

function email(rng) {
  const loc = rng.pick(EN_LOCS);
  const from = person(rng);
  const to = person(rng);
  const t = rng.pick([
    ['Lunch on Friday?', `Are you free for lunch on Friday? Thinking of the new place near ${address(rng, loc)[0]}. Let me know!`],
    ['Laptops for new starters', 'We have two new starters next month. Could you raise a purchase request for two laptops? Finance says anything under the threshold does not need the director to sign off.'],
    ['Re: slides for Tuesday', 'Thanks, the slides look great. I changed the chart on page 4 and added the numbers from last quarter. Can you check the speaker notes?'],
    ['Holiday cover', `I'm off from ${fmtDate(rng, randomDate(rng), loc)} for two weeks. ${person(rng).split(' ')[0]} will cover the supplier queries and the invoice approvals while I'm away.`],
    ['Wi-Fi in the meeting room', 'The Wi-Fi in room 3 keeps dropping. IT say a new access point is on order. Use the cable in the meantime.'],
    ['Bank details change?', 'We received an e-mail claiming a supplier changed their bank account. This looks like a scam – please do not update anything until we call them on a known number.'],
    ['Party planning', 'Ideas for the summer party: picnic in the park, bowling, or a boat trip. Vote in the poll by Wednesday.'],
  ]);
  return doc(
    `From: ${from}\nTo: ${to}\n${maybe(rng, 0.5, () => `Date: ${fmtDate(rng, randomDate(rng), loc)}\n`)}Subject: ${t[0]}`,
    `${rng.pick(['Hi', 'Hey', 'Hello', 'Dear'])} ${to.split(' ')[0]},`,
    t[1],
    `${rng.pick(['Cheers', 'Thanks', 'Best', 'Speak soon'])},\n${from.split(' ')[0]}${rng.chance(0.3) ? '\n\nSent from my phone' : ''}`,
  );
}

function deliveryNote(rng) {
  const loc = rng.pick(EN_LOCS);
  const list = items(rng, ['office', 'industrial', 'it'], rng.int(2, 8));
  return doc(
    rng.pick(['DELIVERY NOTE', 'Packing slip', 'Dispatch note', 'Goods received note']),
    `${company(rng, loc)}\n${address(rng, loc).join('\n')}`,
    `${rng.pick(['Delivery no.', 'Shipment'])}: ${rng.digits(7)}\n${rng.pick(['Your order', 'Order ref'])}: ${rng.letters(2)}${rng.digits(5)}\n${rng.pick(['Dispatch date', 'Shipped'])}: ${fmtDate(rng, randomDate(rng), loc)}\n${rng.pick(['Carrier', 'Courier'])}: ${rng.pick(['Parcel Express', 'Own van', 'FastFreight'])}  Parcels: ${rng.int(1, 9)}`,
    table(rng, ['Item', 'Qty ordered', 'Qty shipped'], list.map((it) => [it.desc, String(it.qty), String(rng.chance(0.85) ? it.qty : Math.max(0, it.qty - rng.int(1, 3)))])),
    rng.pick(['Please check goods on receipt and report any damage within 48 hours.', 'Received in good condition: ____________ (signature)', 'Back-ordered items will follow.']),
  );
}

function quote(rng) {
  const loc = rng.pick(EN_LOCS);
  const list = items(rng, ['services', 'it', 'office'], rng.int(1, 6));
  const total = sum(list);
  return doc(
    rng.pick(['QUOTATION', 'Estimate', 'Price quote', 'Proposal and estimate']),
    `${company(rng, loc)}\n${address(rng, loc).join('\n')}`,
    `${rng.pick(['Quote no.', 'Estimate #'])}: Q-${rng.digits(5)}\n${rng.pick(['Date', 'Prepared'])}: ${fmtDate(rng, randomDate(rng), loc)}\n${rng.pick(['Prepared for', 'Customer'])}: ${company(rng, loc)}`,
    table(rng, ['Description', 'Qty', 'Price', 'Amount'], list.map((it) => [it.desc, String(it.qty), money(rng, it.unit, loc, 3), money(rng, it.amount, loc, 3)])),
    `${rng.pick(['Estimated total', 'Quote total', 'Total (estimate)'])}: ${money(rng, total, loc, 0)}`,
    rng.pick([`This quote is valid for ${rng.pick([14, 30, 60])} days.`, 'Prices are estimates and may change once the scope is confirmed.', 'To accept this quote, please sign and return a copy.']),
  );
}

function itinerary(rng) {
  const loc = rng.pick(EN_LOCS);
  const dt = randomDate(rng);
  return doc(
    rng.pick(['Your trip itinerary', 'Booking confirmation', 'E-ticket itinerary', 'Hotel reservation']),
    `${rng.pick(['Booking reference', 'Confirmation code', 'PNR'])}: ${rng.letters(6)}\nTraveller: ${person(rng)}`,
    rng.chance(0.6)
      ? `Flight ${rng.letters(2)}${rng.int(100, 9999)}  ${rng.pick(['LHR', 'DUB', 'FRA', 'CDG', 'MAD', 'JFK'])} → ${rng.pick(['AMS', 'BCN', 'LIS', 'YYZ', 'SYD', 'MUC'])}\nDeparts ${fmtDate(rng, dt, loc)} ${rng.int(6, 21)}:${rng.pick(['05', '20', '45'])}  Seat ${rng.int(1, 40)}${rng.pick(['A', 'C', 'F'])}\nBaggage: 1 × 23 kg`
      : `Hotel: ${rng.pick(['Harbour View Hotel', 'Hotel Alpenblick', 'Casa del Sol'])}\nCheck-in: ${fmtDate(rng, dt, loc)} from 15:00\nCheck-out: ${fmtDate(rng, addDays(dt, rng.int(1, 7)), loc)} by 11:00\nRoom: ${rng.pick(['Double', 'Twin', 'Suite'])}, breakfast included`,
    rng.pick(['Online check-in opens 24 hours before departure.', 'Free cancellation until 48 hours before arrival.', 'Please bring a valid photo ID.']),
  );
}

function list(rng) {
  const kind = rng.int(0, 2);
  if (kind === 0) return doc(rng.pick(['Shopping list', 'To buy', 'Groceries']), rng.sample(['milk', 'eggs', 'bread', 'coffee', 'apples', 'cat food', 'bin bags', 'pasta', 'cheese', 'tomatoes', 'light bulbs', 'birthday card'], rng.int(4, 10)).map((x) => `- ${x}`).join('\n'));
  if (kind === 1) return doc(rng.pick(['TODO', 'To do this week', 'Tasks']), rng.sample(['call the plumber', 'renew passport', 'pay the gas bill', 'book dentist', 'return library books', 'fix bike brakes', 'send invoice reminder to Sam', 'file receipts for tax', 'email landlord about boiler'], rng.int(3, 7)).map((x) => `[ ] ${x}`).join('\n'));
  return doc('Packing list', rng.sample(['passport', 'charger', 'sunscreen', 'swimwear', 'walking boots', 'rain jacket', 'adapter', 'first aid kit', 'book'], 6).map((x) => `* ${x}`).join('\n'));
}

function blog(rng) {
  const t = rng.pick([
    ['Five things I learned running a small business', ['Cash flow matters more than profit in the first year. Chase invoices early and politely.', 'Write everything down: processes, suppliers, passwords (in a manager).', 'Say no to customers who only want the lowest price.', 'Take a day off. Really.']],
    ['Why we switched to a four-day week', ['Six months ago our team of twelve moved to a four-day week. Productivity held steady and sick days fell.', 'Meetings were the first thing to go: we cut recurring meetings by half.', 'It is not for everyone, but it worked for us.']],
    ['A beginner\'s guide to sourdough', ['A starter is just flour and water, fed daily until it bubbles.', 'Patience is the main ingredient; long cold proofs give better flavour.', 'Do not worry if the first loaf is flat.']],
    ['FAQ: returns and exchanges', ['How long do I have? You can return most items within 30 days.', 'Do I need the receipt? A proof of purchase helps us find your order quickly.', 'When will I get my refund? Usually within five working days.']],
  ]);
  return doc(t[0], maybe(rng, 0.5, () => `Posted ${fmtDate(rng, randomDate(rng), 'uk')} by ${person(rng)}`), t[1]);
}

function press(rng) {
  const loc = rng.pick(EN_LOCS);
  const co = company(rng, loc);
  return doc(
    rng.pick(['PRESS RELEASE', 'For immediate release', 'News release']),
    `${co} ${rng.pick(['opens new distribution centre', 'announces partnership with ' + company(rng, loc), 'appoints new chief executive', 'reports record annual growth', 'launches recycling programme'])}`,
    `${city(rng, loc)}, ${fmtDate(rng, randomDate(rng), loc)} – ${co} today announced ${rng.pick(['a major expansion that will create 120 jobs', 'a strategic partnership to serve customers across Europe', 'the appointment of ' + person(rng) + ' as CEO', 'revenue growth of 34% year on year'])}.`,
    `"${rng.pick(['This is an exciting milestone for us', 'Our customers are at the heart of everything we do', 'We are proud of what the team has achieved'])}," said ${person(rng)}.`,
    `About ${co}\n${co} is a ${rng.pick(['family-owned', 'fast-growing', 'leading'])} provider of ${rng.pick(['logistics', 'software', 'food', 'engineering'])} services.\nMedia contact: press@${co.split(' ')[0].toLowerCase()}.com`,
  );
}

function remittance(rng) {
  const loc = rng.pick(EN_LOCS);
  const list = Array.from({ length: rng.int(1, 6) }, () => [`INV-${rng.digits(5)}`, fmtDate(rng, randomDate(rng), loc), money(rng, round2(rng.float(50, 6000)), loc, 3)]);
  return doc(
    rng.pick(['REMITTANCE ADVICE', 'Payment advice', 'Remittance advice – payment notification']),
    `${rng.pick(['From', 'Payer'])}: ${company(rng, loc)}\n${rng.pick(['To', 'Payee'])}: ${company(rng, loc)}\n${rng.pick(['Payment date', 'Value date'])}: ${fmtDate(rng, randomDate(rng), loc)}\n${rng.pick(['Payment reference', 'Ref'])}: ${rng.letters(3)}${rng.digits(6)}`,
    `${rng.pick(['The following invoices have been paid', 'This payment covers', 'Invoices settled'])}:\n${table(rng, ['Invoice', 'Date', 'Amount'], list)}`,
    `${rng.pick(['Total paid', 'Payment amount'])}: ${money(rng, round2(rng.float(100, 20000)), loc, 0)}`,
    rng.pick(['Funds should reach your account within 2 working days.', 'Please allocate this payment against the invoices listed.', 'Queries to accounts payable.']),
  );
}

function expenses(rng) {
  const loc = rng.pick(EN_LOCS);
  const rows = Array.from({ length: rng.int(2, 8) }, () => [fmtDate(rng, randomDate(rng), loc), rng.pick(['Taxi to client site', 'Hotel (1 night)', 'Train ticket', 'Team lunch', 'Parking', 'Mileage 84 km', 'Conference fee', 'Printer ink']), money(rng, round2(rng.float(4, 400)), loc, 3), rng.pick(['receipt attached', 'receipt', 'no receipt', '✓'])]);
  return doc(
    rng.pick(['Expense claim', 'EXPENSE REPORT', 'Travel expenses']),
    `${rng.pick(['Employee', 'Claimant', 'Name'])}: ${person(rng)}\n${rng.pick(['Department', 'Cost centre'])}: ${rng.pick(['Sales', 'Engineering', 'Marketing', 'CC-' + rng.digits(3)])}\n${rng.pick(['Period', 'Month'])}: ${fmtDate(rng, randomDate(rng), loc)}`,
    table(rng, ['Date', 'Description', 'Amount', 'Receipt'], rows),
    `${rng.pick(['Total claimed', 'Total'])}: ${money(rng, round2(rng.float(20, 1500)), loc, 0)}\n${rng.pick(['Approved by', 'Manager approval'])}: ____________`,
    maybe(rng, 0.5, 'All receipts must be attached. Claims older than 60 days will not be reimbursed.'),
  );
}

function timesheet(rng) {
  const loc = rng.pick(EN_LOCS);
  const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];
  return doc(
    rng.pick(['Timesheet', 'WEEKLY TIMESHEET', 'Hours worked']),
    `${rng.pick(['Contractor', 'Employee', 'Name'])}: ${person(rng)}\n${rng.pick(['Client', 'Project'])}: ${company(rng, loc)}\n${rng.pick(['Week ending', 'Week of'])}: ${fmtDate(rng, randomDate(rng), loc)}`,
    table(rng, ['Day', 'Project', 'Hours'], days.map((d) => [d, rng.pick(['Migration', 'Support', 'Design', 'Meetings', 'Site visit']), String(rng.pick([0, 4, 6, 7.5, 8, 8, 9]))])),
    `${rng.pick(['Total hours', 'Total'])}: ${rng.int(20, 45)}\n${rng.pick(['Supervisor signature', 'Approved'])}: ____________`,
  );
}

function jobAd(rng) {
  const loc = rng.pick(EN_LOCS);
  const role = rng.pick(['Accounts Payable Clerk', 'Senior Software Engineer', 'Registered Nurse', 'Warehouse Operative', 'Marketing Manager', 'Teaching Assistant']);
  return doc(
    rng.pick([`We're hiring: ${role}`, `Job vacancy – ${role}`, role]),
    `${company(rng, loc)} | ${city(rng, loc)} | ${rng.pick(['Full-time', 'Part-time', 'Contract, 6 months', 'Hybrid'])}${rng.chance(0.6) ? ` | ${money(rng, rng.int(25, 120) * 1000, loc, 0)} per year` : ''}`,
    `${rng.pick(['About the role', 'The job', 'What you will do'])}\n${rng.sample(['Process supplier invoices and purchase orders', 'Build and maintain backend services', 'Deliver high-quality patient care', 'Pick, pack and dispatch customer orders', 'Plan and run campaigns across channels', 'Support pupils in the classroom', 'Reconcile bank statements', 'Work closely with a friendly team'], 3).map((x) => `- ${x}`).join('\n')}`,
    `${rng.pick(['About you', 'Requirements', 'What we are looking for'])}\n${rng.sample(['At least 2 years of experience', 'Strong communication skills', 'A university degree or equivalent experience', 'Excellent attention to detail', 'Right to work in the country', 'Experience with Excel'], 3).map((x) => `- ${x}`).join('\n')}`,
    `${rng.pick(['To apply, send your CV and a cover letter to', 'Apply with your resume at', 'Send applications to'])} jobs@${company(rng, loc).split(' ')[0].toLowerCase()}.com ${rng.pick(['by the end of the month.', 'quoting the job title.', ''])}`,
  );
}

function shipping(rng) {
  const loc = rng.pick(EN_LOCS);
  return doc(
    `Subject: ${rng.pick(['Your order has shipped', 'Out for delivery', 'Shipping confirmation', 'Your parcel is on its way'])}`,
    `${rng.pick(['Hi', 'Hello', 'Dear'])} ${person(rng).split(' ')[0]},`,
    `${rng.pick(['Good news! Your order', 'Your order', 'Order'])} #${rng.digits(8)} ${rng.pick(['has been dispatched', 'is on its way', 'left our warehouse today'])}.\n${rng.pick(['Carrier', 'Shipped with'])}: ${rng.pick(['Parcel Express', 'FastFreight', 'National Post'])}\n${rng.pick(['Tracking number', 'Tracking'])}: ${rng.letters(2)}${rng.digits(9)}${rng.letters(2)}\n${rng.pick(['Estimated delivery', 'Expected'])}: ${fmtDate(rng, randomDate(rng), loc)}`,
    `${rng.pick(['Items in this shipment', 'In this parcel'])}:\n${rng.sample(['Wireless keyboard', 'Running shoes', 'Desk lamp', 'Coffee grinder', 'Phone case', 'Paperback novel'], rng.int(1, 3)).map((x) => `- ${x}`).join('\n')}`,
    rng.pick(['Your invoice will be available in your account.', 'Thanks for shopping with us!', 'Track your parcel in the app.']),
  );
}

function priceList(rng) {
  const loc = rng.pick(EN_LOCS);
  const list = items(rng, rng.sample(['office', 'it', 'industrial', 'services'], 2), rng.int(4, 12));
  return doc(
    rng.pick(['PRICE LIST', `Price list ${rng.int(2021, 2025)}`, 'Product catalogue – trade prices', 'Rate card']),
    `${company(rng, loc)}\n${rng.pick(['Valid from', 'Effective'])} ${fmtDate(rng, randomDate(rng), loc)}. ${rng.pick(['Prices exclude VAT.', 'All prices are per unit.', 'Subject to change without notice.'])}`,
    table(rng, ['Code', 'Product', 'Price'], list.map((it) => [`${rng.letters(2)}${rng.digits(3)}`, it.desc, money(rng, it.unit, loc, 3)])),
    maybe(rng, 0.5, () => rng.pick(['Volume discounts available on request.', 'Minimum order value applies.', 'Contact sales for a tailored quote.'])),
  );
}

function bio(rng) {
  const name = person(rng);
  return doc(
    rng.pick(['Speaker bio', 'About the author', 'Our team', 'Meet the board']),
    `${name} ${rng.pick(['is a', 'has been a', 'works as a'])} ${rng.pick(['software engineer', 'chartered accountant', 'nurse educator', 'logistics consultant', 'chef and food writer'])} ${rng.pick(['based in', 'living in'])} ${city(rng, rng.pick(EN_LOCS))}. ${rng.pick(['Before that, she spent ten years in banking.', 'He studied at university before joining a start-up.', 'They have led teams across three continents.'])}`,
    `${rng.pick(['In her spare time', 'Outside work', 'When not at work'])} ${name.split(' ')[0]} ${rng.pick(['runs marathons', 'volunteers at the local food bank', 'restores old bicycles', 'sings in a choir'])}.`,
  );
}

export function generateOther(rng) {
  return rng.weighted([[1.5, remittance], [1.5, expenses], [1, timesheet], [1.5, jobAd], [1.5, shipping], [1, priceList], [1, bio],[3, meeting], [2, recipe], [2.5, news], [2, manual], [3, email], [1.5, deliveryNote], [1.5, quote], [1.5, itinerary], [1.5, list], [1.5, blog], [1, press]])(rng);
}
