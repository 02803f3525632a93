// Letters: formal correspondence on many topics, including hard negatives that talk about
// invoices, orders, accounts, contracts and job applications without being those documents.
import { address, company, person, city } from './data.mjs';
import { fmtDate, randomDate, addDays, money, iban, round2 } from './format.mjs';
import { doc, maybe, EN_LOCS } from './common.mjs';

function topics(rng, loc, ctx) {
  const amt = money(rng, round2(rng.float(80, 9000)), loc, 0);
  const ref = `${rng.letters(2)}-${rng.digits(5)}`;
  const d = fmtDate(rng, addDays(ctx.date, -rng.int(10, 60)), loc);
  return [
    {
      subject: `Invoice ${ref}`,
      body: [`We refer to your invoice ${ref} dated ${d} for ${amt}.`, rng.pick(['Having reviewed the charges, we believe the hours billed exceed those agreed in our engagement letter. We would be grateful if you could issue a corrected invoice.', 'Our records show that this invoice was settled in full on ' + fmtDate(rng, addDays(ctx.date, -5), loc) + '. Please check your records and confirm that the account is clear.', 'Unfortunately the goods delivered did not match the order, and we are therefore withholding payment until the matter is resolved.']), 'We look forward to hearing from you.'],
    },
    {
      subject: rng.pick(['Overdue account', 'Payment reminder', 'Outstanding balance']),
      body: [`According to our records, the sum of ${amt} relating to invoice ${ref} remains unpaid, although it fell due on ${d}.`, 'Perhaps this has been overlooked. If payment has already been made, please disregard this letter.', `Otherwise we kindly ask you to settle the balance within fourteen days.${rng.chance(0.5) ? ` Our bank details are IBAN ${iban(rng, 'DE')}.` : ''}`],
    },
    {
      subject: 'Changes to your account terms',
      body: [`We are writing to let you know about changes to the terms of your ${rng.pick(['current account', 'savings account', 'credit card'])} ending ${rng.digits(4)}.`, `From ${fmtDate(rng, addDays(ctx.date, 60), loc)} the ${rng.pick(['monthly fee', 'interest rate', 'overdraft rate'])} will change as set out in the enclosed leaflet. You do not need to do anything.`, 'If you are unhappy with the changes you may close your account at any time without charge before they take effect.'],
    },
    {
      subject: `Reference for ${person(rng)}`,
      body: [`I am pleased to provide a reference for ${ctx.other}, who worked with us as ${rng.pick(['an accounts assistant', 'a software developer', 'a staff nurse', 'a project coordinator'])} from ${rng.int(2014, 2020)} until ${rng.int(2021, 2025)}.`, 'During that time they were reliable, well organised and well liked by colleagues and clients. They took on additional responsibility for training new starters and handled it very well.', 'I recommend them without hesitation and am happy to be contacted for further information.'],
    },
    {
      subject: `Application for the position of ${rng.pick(['Marketing Coordinator', 'Junior Accountant', 'Warehouse Supervisor', 'Software Developer', 'Ward Manager'])}`,
      body: [`I am writing to apply for the position advertised on your website. I have ${rng.int(2, 12)} years of experience in ${rng.pick(['finance', 'logistics', 'healthcare', 'software development', 'marketing'])} and believe my skills match your requirements.`, 'In my current role I have led several projects from planning to delivery and improved team processes. My CV is enclosed for your consideration.', 'I would welcome the opportunity to discuss my application at interview.'],
    },
    {
      subject: rng.pick(['Complaint regarding recent service', 'Formal complaint', 'Poor service at your branch']),
      body: [`On ${d} I ${rng.pick(['visited your store', 'took delivery of a washing machine', 'travelled on your service', 'contacted your helpline'])} and was very disappointed with the experience.`, rng.pick(['The item arrived damaged and nobody has responded to my three e-mails.', 'I was kept waiting for over an hour and then told to come back another day.', 'I was charged twice and have still not received a refund.']), 'I would like a full explanation and a proposal to put this right within fourteen days.'],
    },
    {
      subject: `Your order ${ref}`,
      body: [`Thank you for your purchase order ${ref}, which we received on ${d}.`, `We confirm that the goods will be dispatched on ${fmtDate(rng, addDays(ctx.date, rng.int(3, 20)), loc)}. ${rng.pick(['Two items are on back order and will follow separately.', 'Delivery will be made to the address given on the order.', 'Our invoice will be sent once the goods have shipped.'])}`, 'Please do not hesitate to contact us if you have any questions.'],
    },
    {
      subject: rng.pick(['Notice of termination', 'Termination of agreement', 'Non-renewal of contract']),
      body: [`We hereby give notice that we wish to terminate the ${rng.pick(['maintenance agreement', 'service contract', 'lease of the premises', 'membership'])} dated ${d}, in accordance with the notice period in the agreement.`, `Accordingly, the agreement will end on ${fmtDate(rng, addDays(ctx.date, rng.pick([30, 60, 90])), loc)}.`, 'Please confirm receipt of this letter and let us know the arrangements for returning any equipment.'],
    },
    {
      subject: 'Rent review',
      body: [`Following the annual review provided for in your tenancy, the monthly rent for ${address(rng, loc)[0]} will increase to ${money(rng, rng.int(7, 30) * 100, loc, 0)} from ${fmtDate(rng, addDays(ctx.date, 60), loc)}.`, 'This reflects increases in insurance and maintenance costs over the past year.', 'If you would like to discuss this, please call the office.'],
    },
    {
      subject: 'Resignation',
      body: [`Please accept this letter as formal notice of my resignation from my position as ${rng.pick(['Team Leader', 'Analyst', 'Teacher', 'Sales Executive'])}.`, `In line with my contract, my last working day will be ${fmtDate(rng, addDays(ctx.date, 30), loc)}.`, 'Thank you for the support and opportunities I have had during my time here. I will do everything I can to ensure a smooth handover.'],
    },
    {
      subject: rng.pick(['Thank you', 'With thanks', 'Your support']),
      body: [`On behalf of everyone at ${ctx.org}, I would like to thank you for ${rng.pick(['your generous donation to our appeal', 'speaking at our annual conference', 'hosting our visit last week', 'your years of service on the board'])}.`, 'It made a real difference, and the feedback we have received has been overwhelmingly positive.', 'We hope to welcome you again soon.'],
    },
    {
      subject: `Your claim ${ref}`,
      body: [`We have received your claim for ${rng.pick(['storm damage to your roof', 'water damage in the kitchen', 'the theft of your bicycle', 'lost luggage'])} reported on ${d}.`, `A loss adjuster will contact you within ${rng.int(3, 10)} working days. Please keep any damaged items and receipts until then.`, 'If you need emergency assistance, call our 24-hour line.'],
    },
    {
      subject: rng.pick(['School trip', 'Parents\' evening', 'Term dates']),
      body: [`Dear Parents and Carers, we are pleased to announce ${rng.pick(['a Year 8 trip to the science museum', 'parents\' evening for Year 10', 'the new term dates for next year'])} on ${fmtDate(rng, addDays(ctx.date, 20), loc)}.`, 'Further details, including times and what pupils should bring, are on the reply slip below.', 'Please return the slip to the school office by Friday.'],
    },
    {
      subject: 'Agreed payment plan',
      body: [`Further to our telephone conversation, we confirm that you may repay the outstanding balance of ${amt} in ${rng.int(3, 6)} monthly instalments as follows:`, Array.from({ length: rng.int(3, 5) }, (_, i) => `  ${fmtDate(rng, addDays(ctx.date, 30 * (i + 1)), loc)}   ${money(rng, round2(rng.float(50, 900)), loc)}`).join('\n'), 'Provided each instalment is received on time, no further interest or charges will be added to the account.'],
    },
    {
      subject: 'Your new account',
      body: [`Welcome, and thank you for opening a ${rng.pick(['business current account', 'savings account', 'joint account'])} with us.`, `Your account details are: account number ${rng.digits(8)}, IBAN ${iban(rng, rng.pick(['GB', 'IE', 'NL', 'DE']))}. Your debit card will arrive separately within seven days.`, 'Your first statement will be sent at the end of the month. You can also view your balance at any time in online banking.'],
    },
    {
      subject: 'Confirmation of balance',
      body: [`At the request of your auditors, we confirm that as at ${d} the balance on account ${rng.digits(8)} held in the name of ${ctx.org} was ${amt} in credit.`, 'No other accounts, loans or guarantees are held in that name at this branch.', 'This confirmation is given without any responsibility on the part of the bank or its officials.'],
    },
    {
      subject: 'Tax reference ' + rng.digits(10),
      body: [`Our records show that your ${rng.pick(['self-assessment return', 'annual tax return', 'VAT return'])} for the year ending ${d} has not yet been received.`, 'If you have already sent it, you do not need to do anything. Otherwise please file it online as soon as possible to avoid a penalty.', 'You can find more guidance on our website.'],
    },
  ];
}

function salutation(rng, to) {
  return rng.pick([`Dear ${to},`, 'Dear Sir or Madam,', 'Dear Sirs,', `Dear ${to.split(' ')[0]},`, 'To whom it may concern,', `Dear Mr ${to.split(' ').pop()},`, `Dear Ms ${to.split(' ').pop()},`]);
}

function closing(rng) {
  return rng.pick(['Yours sincerely,', 'Yours faithfully,', 'Kind regards,', 'Best regards,', 'Sincerely,', 'With best wishes,', 'Yours truly,']);
}

function english(rng) {
  const loc = rng.pick(EN_LOCS);
  const date = randomDate(rng);
  const org = company(rng, loc);
  const to = person(rng);
  const ctx = { date, org, other: person(rng) };
  const t = rng.pick(topics(rng, loc, ctx));
  const sender = person(rng);
  const fromLines = rng.chance(0.6) ? [org, ...address(rng, loc)] : [sender, ...address(rng, loc)];
  return doc(
    maybe(rng, 0.85, () => fromLines.join('\n')),
    rng.chance(0.5) ? fmtDate(rng, date, loc) : `${city(rng, loc)}, ${fmtDate(rng, date, loc)}`,
    maybe(rng, 0.8, () => [to, rng.chance(0.5) ? company(rng, loc) : '', ...address(rng, loc)].filter(Boolean).join('\n')),
    maybe(rng, 0.4, () => `Our ref: ${rng.letters(3)}/${rng.digits(4)}${rng.chance(0.5) ? `   Your ref: ${rng.letters(2)}${rng.digits(3)}` : ''}`),
    maybe(rng, 0.75, () => `${rng.pick(['Re: ', 'RE: ', 'Subject: ', ''])}${t.subject}`),
    salutation(rng, to),
    t.body,
    `${closing(rng)}\n\n${sender}\n${maybe(rng, 0.7, () => rng.pick(['Customer Services Manager', 'Director', 'Head of Finance', 'Headteacher', 'Claims Handler', 'Office Manager', 'Credit Control']))}`,
    maybe(rng, 0.2, 'Enc.'),
  );
}

function foreign(rng) {
  const lang = rng.pick(['de', 'fr', 'es']);
  const date = randomDate(rng);
  const sender = person(rng);
  const ref = `${rng.letters(2)}-${rng.digits(5)}`;
  const amt = money(rng, round2(rng.float(80, 5000)), lang, 0);
  const w = {
    de: { hi: 'Sehr geehrte Damen und Herren,', bye: 'Mit freundlichen Grüßen', subjects: [[`Ihre Rechnung ${ref}`, [`wir beziehen uns auf Ihre Rechnung ${ref} über ${amt}.`, 'Leider entspricht die gelieferte Ware nicht unserer Bestellung. Wir bitten um Prüfung und eine korrigierte Rechnung.']], ['Kündigung', ['hiermit kündige ich meinen Vertrag fristgerecht zum nächstmöglichen Zeitpunkt.', 'Bitte senden Sie mir eine schriftliche Bestätigung der Kündigung.']], ['Terminbestätigung', ['vielen Dank für Ihre Anfrage. Gerne bestätigen wir den vereinbarten Termin.', 'Bei Rückfragen stehen wir Ihnen jederzeit zur Verfügung.']]] },
    fr: { hi: 'Madame, Monsieur,', bye: 'Veuillez agréer, Madame, Monsieur, l\'expression de mes salutations distinguées.', subjects: [[`Facture ${ref}`, [`nous avons bien reçu votre facture ${ref} d'un montant de ${amt}.`, 'Après vérification, le montant ne correspond pas au devis accepté. Nous vous remercions de bien vouloir nous adresser un avoir.']], ['Résiliation de contrat', ['par la présente, je vous informe de ma décision de résilier mon abonnement.', 'Je vous remercie de bien vouloir m\'en accuser réception.']], ['Demande de renseignements', ['je me permets de vous contacter afin d\'obtenir des informations sur vos services.', 'Dans l\'attente de votre réponse, je reste à votre disposition.']]] },
    es: { hi: 'Estimados señores:', bye: 'Atentamente,', subjects: [[`Factura ${ref}`, [`nos ponemos en contacto con ustedes en relación con la factura ${ref} por importe de ${amt}.`, 'Les rogamos revisen el importe, ya que no coincide con el presupuesto aceptado.']], ['Baja del servicio', ['por medio de la presente solicito la baja del servicio contratado.', 'Les agradecería que me confirmaran la baja por escrito.']], ['Reclamación', ['les escribo para presentar una reclamación por el retraso en la entrega.', 'Quedo a la espera de su respuesta.']]] },
  }[lang];
  const [subject, body] = rng.pick(w.subjects);
  return doc(
    [sender, ...address(rng, lang)].join('\n'),
    [company(rng, lang), ...address(rng, lang)].join('\n'),
    `${city(rng, lang)}, ${fmtDate(rng, date, lang)}`,
    subject,
    w.hi,
    body,
    `${w.bye}\n\n${sender}`,
  );
}

export function generateLetter(rng) {
  return rng.weighted([[8, english], [1.5, foreign]])(rng);
}
