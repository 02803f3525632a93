// Raw e-mail messages (RFC 5322 with MIME parts), written as `.eml` files: the sample loader reads
// them through the same conversion as an uploaded message, so the model trains on what it will
// see. Newsletters, spam, list announcements and questions, reply threads, bounces, service
// notifications and business mails with attachments, in English, German, French, Italian,
// Spanish and Russian. They are labelled `other`: an e-mail is not a letter on paper, and a mail
// that carries an invoice as an attachment is not itself the invoice.
import { FIRST, LAST, company, person } from './data.mjs';
import { cap, fill, paragraph, wrap } from './prose.mjs';

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TLDS = ['com', 'org', 'net', 'de', 'fr', 'it', 'es', 'ru', 'co.uk', 'io'];
const p2 = (n) => String(n).padStart(2, '0');

function rfcDate(rng) {
  return `${rng.pick(DAYS)}, ${rng.int(1, 28)} ${rng.pick(MONTHS)} ${rng.int(2003, 2024)} ${p2(rng.int(0, 23))}:${p2(rng.int(0, 59))}:${p2(rng.int(0, 59))} ${rng.pick(['+0000', '+0100', '+0200', '-0500', '-0800', '+0300', '+0530'])}`;
}

function slug(s) {
  return s.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '').slice(0, 12) || 'mail';
}

function mailbox(rng, name, domain) {
  const [f, l = 'x'] = name.split(' ');
  const local = rng.pick([`${slug(f)}.${slug(l)}`, `${slug(f)[0]}${slug(l)}`, slug(f), `${slug(l)}${rng.int(1, 99)}`]);
  return `${local}@${domain}`;
}

function domainOf(rng, org) {
  return `${slug(org ?? rng.pick(LAST))}.${rng.pick(TLDS)}`;
}

function encodeWord(rng, s) {
  if (/^[\x20-\x7e]*$/.test(s)) return s;
  return rng.chance(0.5) ? `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=` : `=?utf-8?Q?${[...Buffer.from(s)].map((b) => (b > 32 && b < 127 && b !== 61 && b !== 63 && b !== 95 ? String.fromCharCode(b) : b === 32 ? '_' : `=${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('')}?=`;
}

function qp(text) {
  const out = [];
  for (const line of text.split('\n')) {
    let enc = [...Buffer.from(line)].map((b) => (b === 61 || b > 126 ? `=${b.toString(16).toUpperCase().padStart(2, '0')}` : String.fromCharCode(b))).join('');
    while (enc.length > 76) {
      let cut = 75;
      while (enc[cut - 1] === '=' || enc[cut - 2] === '=') cut--;
      out.push(`${enc.slice(0, cut)}=`);
      enc = enc.slice(cut);
    }
    out.push(enc);
  }
  return out.join('\n');
}

function b64(buf) {
  return buf.toString('base64').replace(/(.{76})/g, '$1\n');
}

/** A text part with a transfer encoding chosen like real mailers do. */
function textPart(rng, body, subtype = 'plain') {
  const ascii = /^[\x00-\x7e]*$/.test(body);
  const enc = ascii ? rng.pick(['7bit', '7bit', 'quoted-printable']) : rng.pick(['quoted-printable', 'base64', '8bit']);
  const charset = ascii && rng.chance(0.3) ? 'us-ascii' : rng.pick(['utf-8', 'UTF-8']);
  const payload = enc === 'quoted-printable' ? qp(body) : enc === 'base64' ? b64(Buffer.from(body)) : body;
  return `Content-Type: text/${subtype}; charset="${charset}"\nContent-Transfer-Encoding: ${enc}\n\n${payload}`;
}

function htmlOf(text) {
  return `<html><head><meta charset="utf-8"></head><body>${text.split('\n\n').map((p) => `<p>${p.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>')}</p>`).join('\n')}</body></html>`;
}

function boundary(rng) {
  return `----=_Part_${rng.digits(6)}_${rng.digits(9)}.${rng.digits(13)}`;
}

function headers(rng, h) {
  const lines = [];
  if (rng.chance(0.6)) lines.push(`Return-Path: <${h.fromAddr}>`);
  if (rng.chance(0.5)) lines.push(`Delivered-To: ${h.toAddr}`);
  for (let i = 0; i < rng.int(0, 4); i++) {
    lines.push(`Received: from ${rng.pick(['mail', 'smtp', 'mx', 'out'])}${rng.int(1, 40)}.${h.fromAddr.split('@')[1]} (${rng.pick(['mail', 'smtp'])}.${h.fromAddr.split('@')[1]} [${rng.int(10, 220)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}])\n\tby mx.${h.toAddr.split('@')[1]} with ${rng.pick(['ESMTP', 'ESMTPS', 'SMTP'])} id ${rng.letters(4)}${rng.digits(6)}\n\tfor <${h.toAddr}>; ${h.date}`);
  }
  if (rng.chance(0.3)) lines.push(`DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${h.fromAddr.split('@')[1]}; s=${rng.pick(['s1', 'default', 'google', 'mail'])};\n\th=from:to:subject:date:message-id; bh=${Buffer.from(rng.digits(24)).toString('base64')};\n\tb=${Buffer.from(rng.digits(60)).toString('base64')}`);
  lines.push(`Message-ID: <${rng.digits(10)}.${rng.letters(6).toLowerCase()}@${h.fromAddr.split('@')[1]}>`);
  lines.push(`Date: ${h.date}`);
  lines.push(`From: ${h.fromName ? `${/[^\x20-\x7e]/.test(h.fromName) ? encodeWord(rng, h.fromName) : `"${h.fromName}"`} ` : ''}<${h.fromAddr}>`);
  lines.push(`To: ${h.toName && rng.chance(0.6) ? `${encodeWord(rng, h.toName)} ` : ''}<${h.toAddr}>`);
  if (h.cc) lines.push(`Cc: ${h.cc}`);
  lines.push(`Subject: ${encodeWord(rng, h.subject)}`);
  if (h.inReplyTo) lines.push(`In-Reply-To: <${h.inReplyTo}>`, `References: <${h.inReplyTo}>`);
  if (h.list) lines.push(`List-Id: <${h.list}>`, `List-Unsubscribe: <mailto:${h.list.replace(/\./, '-request@')}?subject=unsubscribe>`, 'Precedence: bulk');
  if (h.bulk) lines.push(`List-Unsubscribe: <https://${h.fromAddr.split('@')[1]}/u/${rng.digits(8)}>`, `X-Campaign-ID: ${rng.digits(7)}`);
  if (rng.chance(0.5)) lines.push(`X-Mailer: ${rng.pick(['Microsoft Outlook 16.0', 'Apple Mail (2.3654)', 'Thunderbird 102.4', 'Roundcube Webmail/1.4', 'Zimbra 8.8', 'The Bat! 9.1'])}`);
  lines.push('MIME-Version: 1.0');
  return lines.join('\n');
}

const LANG = {
  en: {
    hi: ['Dear {name},', 'Hi {first},', 'Hello {first},', 'Dear Sir or Madam,', 'Hi all,', 'Good morning {first},'],
    bye: ['Kind regards,', 'Best regards,', 'Thanks,', 'Cheers,', 'Regards,', 'Many thanks,', 'Best,'],
    attach: ['Please find attached {doc}.', 'Attached you will find {doc} as discussed.', 'I am sending you {doc} in the attachment.', 'As promised, here is {doc}.'],
    docs: ['our offer for the new project', 'the signed copy of the agreement', 'the invoice for last month', 'my CV for the position', 'the minutes of yesterday\'s meeting', 'the updated price list', 'the report you asked for', 'the presentation slides'],
    ask: ['Could you please confirm receipt?', 'Let me know if you have any questions.', 'Please get back to me by Friday.', 'Can we schedule a call next week to discuss?', 'I look forward to hearing from you.', 'Please forward this to the right person if needed.'],
    news: ['This week in our newsletter: {topic}.', 'Don\'t miss our spring offers on {topic}!', 'Only until Sunday: up to {n}0% off {topic}.', 'Read the latest stories about {topic} on our blog.', 'Click here to view this e-mail in your browser.', 'You are receiving this e-mail because you subscribed on our website.', 'To unsubscribe, click the link at the bottom of this message.'],
    topics: ['garden furniture', 'new running shoes', 'cloud backup plans', 'city breaks in Europe', 'our autumn collection', 'home fitness', 'coffee machines'],
  },
  de: {
    hi: ['Sehr geehrte Damen und Herren,', 'Hallo {first},', 'Sehr geehrter Herr {last},', 'Liebe Kolleginnen und Kollegen,', 'Guten Tag {name},'],
    bye: ['Mit freundlichen Grüßen', 'Viele Grüße', 'Beste Grüße', 'Freundliche Grüße', 'Gruß'],
    attach: ['Anbei erhalten Sie {doc}.', 'im Anhang finden Sie {doc}.', 'wie besprochen sende ich Ihnen {doc}.'],
    docs: ['unser Angebot', 'die unterschriebene Vereinbarung', 'die Rechnung für den Vormonat', 'meine Bewerbungsunterlagen', 'das Protokoll der Besprechung', 'die aktuelle Preisliste'],
    ask: ['Bitte bestätigen Sie kurz den Eingang.', 'Bei Fragen stehe ich Ihnen gerne zur Verfügung.', 'Können wir nächste Woche telefonieren?', 'Ich freue mich auf Ihre Rückmeldung.'],
    news: ['Unsere Angebote der Woche: {topic}.', 'Nur bis Sonntag: bis zu {n}0 % Rabatt auf {topic}.', 'Sie erhalten diesen Newsletter, weil Sie sich auf unserer Website angemeldet haben.', 'Hier können Sie sich abmelden.', 'Wird diese E-Mail nicht richtig angezeigt? Im Browser ansehen.'],
    topics: ['Gartenmöbel', 'Laufschuhe', 'Kaffeevollautomaten', 'Städtereisen', 'die Herbstkollektion'],
  },
  fr: {
    hi: ['Bonjour {first},', 'Madame, Monsieur,', 'Chers collègues,', 'Bonjour à tous,', 'Cher {first},'],
    bye: ['Cordialement,', 'Bien cordialement,', 'Bonne journée,', 'Merci et à bientôt,', 'Sincères salutations,'],
    attach: ['Veuillez trouver ci-joint {doc}.', 'Je vous transmets en pièce jointe {doc}.', 'Comme convenu, voici {doc}.'],
    docs: ['notre devis', 'le contrat signé', 'la facture du mois dernier', 'mon CV', 'le compte rendu de la réunion', 'la nouvelle grille tarifaire'],
    ask: ['Pourriez-vous me confirmer la bonne réception ?', 'Je reste à votre disposition pour toute question.', 'Pouvons-nous en parler la semaine prochaine ?', 'Dans l\'attente de votre retour.'],
    news: ['Cette semaine : {topic} à prix doux !', 'Jusqu\'à dimanche seulement : -{n}0 % sur {topic}.', 'Problème d\'affichage ? Consultez la version en ligne.', 'Vous recevez cet e-mail car vous êtes inscrit à notre lettre d\'information.', 'Se désinscrire'],
    topics: ['les soins du visage', 'le mobilier de jardin', 'les week-ends à la mer', 'la nouvelle collection', 'les cafetières'],
  },
  it: {
    hi: ['Buongiorno {first},', 'Gentile {name},', 'Ciao {first},', 'Spett.le Ditta,', 'Ciao a tutti,'],
    bye: ['Cordiali saluti', 'Distinti saluti', 'Un saluto', 'Grazie e a presto', 'Saluti'],
    attach: ['In allegato trovate {doc}.', 'Vi invio in allegato {doc}.', 'Come d\'accordo, allego {doc}.'],
    docs: ['la nostra offerta', 'il contratto firmato', 'la fattura del mese scorso', 'il mio curriculum', 'il verbale della riunione', 'il listino prezzi aggiornato', 'il programma della settimana'],
    ask: ['Potete confermare la ricezione?', 'Resto a disposizione per qualsiasi chiarimento.', 'Possiamo sentirci la prossima settimana?', 'Attendo un vostro riscontro.'],
    news: ['Questa settimana: {topic} in offerta!', 'Solo fino a domenica: sconti fino al {n}0% su {topic}.', 'Se non visualizzi correttamente questa email clicca qui.', 'Ricevi questa email perché sei iscritto alla nostra newsletter.', 'Cancellati'],
    topics: ['le piante aromatiche', 'i mobili da giardino', 'i viaggi in Toscana', 'la nuova collezione', 'le macchine da caffè'],
  },
  es: {
    hi: ['Estimado {name}:', 'Hola {first},', 'Buenos días,', 'Estimados señores:'],
    bye: ['Saludos cordiales,', 'Un saludo,', 'Atentamente,', 'Gracias y saludos,'],
    attach: ['Adjunto le envío {doc}.', 'Le remito en archivo adjunto {doc}.', 'Como acordamos, adjunto {doc}.'],
    docs: ['nuestra oferta', 'el contrato firmado', 'la factura del mes pasado', 'mi currículum', 'el acta de la reunión'],
    ask: ['¿Podría confirmar la recepción?', 'Quedo a su disposición para cualquier consulta.', '¿Podemos hablar la semana que viene?'],
    news: ['Esta semana: {topic} con descuento.', 'Solo hasta el domingo: hasta un {n}0% en {topic}.', 'Si no ves bien este correo, haz clic aquí.', 'Para darte de baja, pulsa aquí.'],
    topics: ['muebles de jardín', 'zapatillas de running', 'escapadas de fin de semana', 'la nueva colección'],
  },
  ru: {
    hi: ['Здравствуйте, {first}!', 'Добрый день!', 'Уважаемые коллеги,', 'Привет, {first}!'],
    bye: ['С уважением,', 'Спасибо,', 'Всего доброго,', 'С наилучшими пожеланиями,'],
    attach: ['Во вложении {doc}.', 'Направляю вам {doc}.', 'Как договаривались, высылаю {doc}.'],
    docs: ['наше коммерческое предложение', 'подписанный договор', 'счёт за прошлый месяц', 'моё резюме', 'протокол совещания', 'обновлённый прайс-лист'],
    ask: ['Подтвердите, пожалуйста, получение.', 'Если будут вопросы, пишите.', 'Можем созвониться на следующей неделе?', 'Жду вашего ответа.'],
    news: ['На этой неделе: скидки на {topic}.', 'Только до воскресенья: скидка до {n}0% на {topic}.', 'Если письмо отображается некорректно, откройте его в браузере.', 'Вы получили это письмо, потому что подписались на рассылку.', 'Отписаться от рассылки'],
    topics: ['садовую мебель', 'беговые кроссовки', 'туры выходного дня', 'новую коллекцию', 'кофемашины'],
  },
};

function greet(rng, L, name) {
  return fill(rng, rng.pick(L.hi), { name, first: name.split(' ')[0], last: name.split(' ').pop() });
}

function business(rng, lang) {
  const L = LANG[lang];
  const sender = person(rng);
  const org = company(rng, rng.pick(['us', 'uk', 'de', 'fr', 'es']));
  const to = person(rng);
  const body = [greet(rng, L, to), '', fill(rng, rng.pick(L.attach), { doc: L.docs }), rng.chance(0.6) ? fill(rng, rng.pick(L.ask)) : '', '', rng.pick(L.bye), sender, rng.chance(0.6) ? `${org}\n${rng.pick(['Tel', 'Tel.', 'Mob', 'T'])}: +${rng.int(1, 49)} ${rng.digits(3)} ${rng.digits(7)}` : ''].filter((x, i, a) => x !== '' || a[i - 1] !== '').join('\n');
  const attachName = `${rng.pick(['Offer', 'Angebot', 'Devis', 'Offerta', 'contract', 'Vertrag', 'Rechnung', 'Fattura', 'facture', 'CV', 'minutes', 'report', 'Protokoll', 'listino', 'price_list', 'document', 'scan'])}_${rng.digits(rng.int(3, 6))}.${rng.pick(['pdf', 'pdf', 'doc', 'docx', 'xlsx'])}`;
  return { sender, org, to, subject: rng.pick([`${cap(fill(rng, rng.pick(L.docs)))}`, `Re: ${cap(fill(rng, rng.pick(L.docs)))}`, `Fwd: ${attachName}`, attachName.replace(/_\d+\..*$/, ` ${rng.digits(4)}`)]), body, attachments: rng.chance(0.8) ? [attachName] : [] };
}

function newsletter(rng, lang) {
  const L = LANG[lang];
  const org = company(rng, 'us').replace(/ (Inc\.|LLC|Corp\.|Co\.)$/, '');
  const lines = [rng.pick(L.news).replace('{topic}', rng.pick(L.topics)).replace('{n}', String(rng.int(1, 7)))];
  for (let i = 0; i < rng.int(3, 9); i++) {
    const r = rng.next();
    if (r < 0.4) lines.push(fill(rng, rng.pick(L.news), { topic: L.topics, n: () => String(rng.int(1, 7)) }));
    else if (r < 0.6) lines.push(`[Image: ${cap(rng.pick(L.topics))} <https://${slug(org)}.${rng.pick(TLDS)}/img/${rng.digits(6)}.jpg>]`);
    else if (r < 0.8) lines.push(`${cap(rng.pick(L.topics))} <https://t.${slug(org)}-mail.${rng.pick(TLDS)}/c/${rng.digits(7)}/${rng.letters(8).toLowerCase()}>`);
    else lines.push('-'.repeat(rng.int(20, 72)));
  }
  lines.push(`© ${rng.int(2010, 2024)} ${org}. ${rng.pick(['All rights reserved.', 'Tous droits réservés.', 'Alle Rechte vorbehalten.', 'Tutti i diritti riservati.', ''])}`);
  return { sender: org, org, to: person(rng), subject: fill(rng, rng.pick(L.news).replace(/[.!]$/, ''), { topic: L.topics, n: () => String(rng.int(1, 7)) }).slice(0, 70), body: lines.join('\n\n'), bulk: true, html: rng.chance(0.6) };
}

const SPAM = [
  'Congratulations! Your e-mail address has won {amount} in our international lottery draw. To claim your prize, reply with your full name, address and telephone number.',
  'Dear beneficiary, I am a bank manager and I need your assistance to transfer {amount} to your account. You will receive 30% of the total sum.',
  'Your mailbox has exceeded its storage limit. Click the link below to verify your account within 24 hours or it will be suspended.',
  'Buy cheap medication online without prescription. Discreet shipping worldwide. Best prices guaranteed!',
  'We noticed unusual sign-in activity on your account. Please confirm your password here to avoid suspension.',
  'Make money from home! Earn {amount} per week with only two hours of work per day. No experience needed.',
];

function spam(rng) {
  const amount = `${rng.pick(['$', 'USD ', '€', 'EUR '])}${rng.int(1, 9)},${rng.digits(3)},000.00`;
  const body = [rng.pick(['Dear Friend,', 'Attention:', 'Hello,', 'Dear user,', '']), wrap(rng, paragraph(rng, SPAM, { amount }, rng.int(1, 3)), rng.int(60, 100)), `http://${rng.letters(6).toLowerCase()}.${rng.pick(['top', 'xyz', 'ru', 'biz', 'info'])}/${rng.letters(5).toLowerCase()}`, rng.pick(['Best regards,', 'Sincerely,', 'Thanks,']), person(rng)].filter(Boolean).join('\n\n');
  return { sender: person(rng), org: rng.letters(7), to: person(rng), subject: rng.pick(['URGENT REPLY NEEDED', 'You have won!', 'Account verification required', 'Re: your payment', 'Cheap meds online', 'Business proposal', 'Security alert']), body };
}

function announce(rng) {
  const project = rng.pick(['Libfoo', 'GnuWidget', 'OpenTally', 'Parsekit', 'Mailsieve', 'Cryptbox', 'Netmon', 'Docflow', 'Pixeltool']);
  const ver = `${rng.int(0, 4)}.${rng.int(0, 30)}.${rng.int(0, 20)}`;
  const changes = ['Fixed a crash when reading malformed input.', 'Added support for IPv6 addresses in the configuration file.', 'Improved performance of the key lookup by about 30%.', 'The deprecated --legacy option has been removed.', 'Updated translations (de, fr, ja, ru).', 'Fixed a memory leak in the TLS code.', 'New command "export" to write reports as CSV.', 'Build system now requires a C99 compiler.', 'Security: fixed an out-of-bounds read (CVE-20' + rng.int(10, 24) + '-' + rng.digits(4) + ').'];
  const list = `${slug(project)}-announce.lists.${slug(project)}.org`;
  const body = [`Hello!`, wrap(rng, `We are pleased to announce the availability of ${project} ${ver}. This is a ${rng.pick(['maintenance', 'bug fix', 'feature', 'security'])} release.`, 72), `What is new in ${ver}\n${'-'.repeat(15 + ver.length)}\n\n${rng.sample(changes, rng.int(3, 8)).map((c) => ` * ${c}`).join('\n')}`, `Download\n--------\n\n ${project.toLowerCase()}-${ver}.tar.bz2 (${rng.int(1, 9)}${rng.int(100, 999)}k)\n ${project.toLowerCase()}-${ver}.tar.bz2.sig\n\nSHA-1 checksums:\n${rng.digits(20)}${rng.digits(20)}  ${project.toLowerCase()}-${ver}.tar.bz2`, `Happy hacking,\n\n  ${person(rng)} for the ${project} team`, rng.chance(0.5) ? `-----BEGIN PGP SIGNATURE-----\n\n${b64(Buffer.from(rng.digits(150)))}\n-----END PGP SIGNATURE-----` : '', `_______________________________________________\n${project}-announce mailing list\n${project}-announce@lists.${slug(project)}.org\nhttp://lists.${slug(project)}.org/mailman/listinfo/${slug(project)}-announce`].filter(Boolean).join('\n\n');
  return { sender: person(rng), org: project, to: `${project} announce`, subject: `[Announce] ${project} ${ver} released`, body, list };
}

function listQuestion(rng) {
  const tool = rng.pick(['the mail parser', 'rsync', 'my Postfix setup', 'the Ruby gem', 'the Python bindings', 'the build on FreeBSD', 'the IMAP client', 'the LDAP module']);
  const body = [rng.pick(['Hi all,', 'Hello list,', 'Hi everyone,', 'Hi,']), wrap(rng, `I'm trying to get ${tool} working with ${rng.pick(['UTF-8 headers', 'attachments larger than 10 MB', 'a self-signed certificate', 'encoded subjects', 'a shared mailbox'])} but I keep getting the following error:`, 72), `    ${rng.pick(['Error: invalid byte sequence in US-ASCII', 'RangeError: maximum call stack size exceeded', 'Connection reset by peer', 'undefined method `decoded\' for nil:NilClass', 'ParseException: unexpected end of header'])}`, wrap(rng, `I'm using version ${rng.int(1, 5)}.${rng.int(0, 20)} on ${rng.pick(['Debian', 'Ubuntu 20.04', 'macOS', 'Windows 10', 'CentOS 7'])}. ${rng.pick(['Has anyone seen this before?', 'Any idea what I am doing wrong?', 'Is this a known bug?', 'How do I unsubscribe from this list?', 'Is there a workaround?'])}`, 72), rng.pick(['Thanks in advance,', 'Thanks,', 'Cheers,']), rng.pick(FIRST)].join('\n\n');
  const list = `${slug(tool)}-users.lists.${rng.pick(['sourceforge.net', 'gnu.org', 'example.org'])}`;
  return { sender: person(rng), org: rng.pick(LAST), to: 'users list', subject: rng.pick([`Problem with ${tool}`, `help`, `[users] error when parsing`, `Question about ${tool}`]), body, list };
}

function replyThread(rng, lang) {
  const L = LANG[lang];
  const a = person(rng);
  const b = person(rng);
  const quoted = wrap(rng, `${greet(rng, L, a)} ${fill(rng, rng.pick(L.ask))} ${fill(rng, rng.pick(L.attach), { doc: L.docs })}`, 70).split('\n').map((l) => `> ${l}`).join('\n');
  const body = [greet(rng, L, b), rng.pick(['Thanks, that works for me.', 'Sounds good, see you on Tuesday.', 'I have forwarded it to the team.', 'Sorry for the late reply, I was travelling.', fill(rng, rng.pick(L.ask))]), rng.pick(L.bye), a.split(' ')[0], `${rng.pick(['On', 'Am', 'Le', 'Il'])} ${rfcDate(rng)}, ${b} <${mailbox(rng, b, domainOf(rng))}> ${rng.pick(['wrote:', 'schrieb:', 'a écrit :', 'ha scritto:'])}`, quoted].join('\n\n');
  return { sender: a, org: rng.pick(LAST), to: b, subject: `${rng.pick(['Re: ', 'RE: ', 'AW: ', 'R: '])}${rng.pick(['meeting next week', 'project update', 'your request', 'dinner on Friday', 'quick question', 'the draft'])}`, body, reply: true };
}

function bounce(rng) {
  const rcpt = mailbox(rng, person(rng), domainOf(rng));
  const host = `mx${rng.int(1, 9)}.${rcpt.split('@')[1]}`;
  const human = [`Delivery report from ${rng.pick(['mail', 'smtp', 'relay'])}.${domainOf(rng)}.`, wrap(rng, rng.pick(['Your message could not be delivered to the recipients listed below. The original message is included as an attachment.', 'Delivery to the following recipient failed permanently. No further attempts will be made.', 'A message you sent could not be delivered. The reason is given below.']), 72), `<${rcpt}>: host ${host}[${rng.int(10, 200)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}] said: ${rng.pick(['550 5.1.1 User unknown', '552 5.2.2 Mailbox full', '554 5.7.1 Message rejected as spam', '450 4.2.0 Temporary failure'])} (in reply to RCPT TO command)`].join('\n\n');
  return { sender: 'Mail Delivery System', fromAddr: `MAILER-DAEMON@${domainOf(rng)}`, org: 'postmaster', to: person(rng), subject: rng.pick(['Undelivered Mail Returned to Sender', 'Delivery Status Notification (Failure)', 'Mail delivery failed: returning message to sender']), body: human, dsn: { rcpt, host } };
}

function notification(rng) {
  const svc = rng.pick(['Google', 'Dropbox', 'GitHub', 'LinkedIn', 'Slack', 'Zoom', 'Microsoft account', 'Your bank']);
  const who = person(rng);
  const body = rng.pick([
    `${who} has shared a document with you.\n\n"${rng.pick(['Budget 2024', 'Team offsite plan', 'Q3 report draft', 'Holiday rota'])}"\n\nOpen <https://drive.${slug(svc)}.com/d/${rng.letters(12)}>\n\nYou have received this email because ${who} shared a file with you.`,
    `New sign-in to your ${svc} account\n\nWe noticed a new sign-in on ${rng.pick(['Windows', 'a Mac', 'an Android phone', 'an iPhone'])}. If this was you, you don't need to do anything. If not, we'll help you secure your account.\n\nCheck activity <https://myaccount.${slug(svc)}.com/notifications>`,
    `${who} invited you to join the channel #${rng.pick(['general', 'project-x', 'support', 'random'])}.\n\nJoin now <https://${slug(svc)}.com/join/${rng.letters(10)}>`,
    `Invitation: ${rng.pick(['Weekly sync', 'Project kickoff', 'Design review', '1:1'])} @ ${rng.pick(DAYS)} ${rng.int(1, 28)} ${rng.pick(MONTHS)} ${rng.int(9, 17)}:00 - ${rng.int(10, 18)}:00\n\nOrganizer: ${who}\nJoin by phone: +1 ${rng.digits(3)}-${rng.digits(3)}-${rng.digits(4)}\n\nGoing? Yes - Maybe - No`,
    `You have ${rng.int(2, 40)} new notifications.\n\n${who} commented on your post: "${rng.pick(['Great work!', 'Thanks for sharing', 'Interesting, let\'s discuss'])}"\n\nView all notifications <https://www.${slug(svc)}.com/notifications>\n\nUnsubscribe | Help`,
  ]);
  return { sender: svc, fromAddr: `no-reply@${slug(svc)}.com`, org: svc, to: person(rng), subject: rng.pick([`${who} shared a document with you`, 'Security alert', 'New sign-in to your account', `Invitation from ${who}`, 'You have new notifications']), body, bulk: rng.chance(0.5) };
}

function short(rng, lang) {
  const L = LANG[lang];
  const body = rng.pick(['test', 'Test message, please ignore.', fill(rng, rng.pick(L.ask)), `${rng.pick(L.bye)}\n${rng.pick(FIRST)}`, 'See below.', 'Sent from my phone', '+1', 'ok, thanks!', 'Done.']);
  return { sender: person(rng), org: rng.pick(LAST), to: person(rng), subject: rng.pick(['test', 'hi', 'Re: quick question', 'FYI', '(no subject)', 'Fwd: photos', 'tomorrow']), body };
}

export function generateMail(rng) {
  const lang = rng.weighted([[5, 'en'], [2, 'de'], [2, 'fr'], [2, 'it'], [1, 'es'], [1, 'ru']]);
  const kind = rng.weighted([[5, 'business'], [3, 'newsletter'], [2, 'spam'], [2, 'announce'], [2, 'question'], [3, 'reply'], [1, 'bounce'], [2, 'notification'], [1, 'short']]);
  const m = kind === 'short' ? short(rng, lang) : kind === 'business' ? business(rng, lang) : kind === 'newsletter' ? newsletter(rng, lang) : kind === 'spam' ? spam(rng) : kind === 'announce' ? announce(rng) : kind === 'question' ? listQuestion(rng) : kind === 'reply' ? replyThread(rng, lang) : kind === 'bounce' ? bounce(rng) : notification(rng);
  const date = rfcDate(rng);
  const fromAddr = m.fromAddr ?? mailbox(rng, m.sender, domainOf(rng, m.org));
  const toAddr = m.list ? `${m.list.split('.')[0]}@${m.list.split('.').slice(1).join('.')}` : mailbox(rng, m.to, domainOf(rng));
  const head = headers(rng, { fromAddr, fromName: m.sender, toAddr, toName: m.to, subject: m.subject, date, list: m.list, bulk: m.bulk, inReplyTo: m.reply ? `${rng.digits(8)}@${domainOf(rng)}` : undefined, cc: rng.chance(0.15) ? mailbox(rng, person(rng), domainOf(rng)) : undefined });
  if (m.dsn) {
    const b = boundary(rng);
    return `${head}\nContent-Type: multipart/report; report-type=delivery-status; boundary="${b}"\n\n--${b}\nContent-Description: Notification\n${textPart(rng, m.body)}\n--${b}\nContent-Description: Delivery report\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; ${m.dsn.host}\nArrival-Date: ${date}\n\nFinal-Recipient: rfc822; ${m.dsn.rcpt}\nAction: failed\nStatus: 5.1.1\n\n--${b}--\n`;
  }
  const attachments = m.attachments ?? [];
  const plainOf = () => (rng.chance(0.7) ? textPart(rng, m.body) : textPart(rng, m.body.replace(/<https?:[^>]+>/g, '')));
  if (m.html && attachments.length === 0 && rng.chance(0.3)) return `${head}\n${textPart(rng, htmlOf(m.body), 'html')}\n`;
  if (m.html && attachments.length === 0) {
    const alt = boundary(rng);
    return `${head}\nContent-Type: multipart/alternative; boundary="${alt}"\n\n--${alt}\n${plainOf()}\n--${alt}\n${textPart(rng, htmlOf(m.body), 'html')}\n--${alt}--\n`;
  }
  if (attachments.length > 0) {
    const b = boundary(rng);
    const parts = [];
    if (m.html) {
      const alt = boundary(rng);
      parts.push(`Content-Type: multipart/alternative; boundary="${alt}"\n\n--${alt}\n${plainOf()}\n--${alt}\n${textPart(rng, htmlOf(m.body), 'html')}\n--${alt}--`);
    } else parts.push(textPart(rng, m.body));
    for (const name of attachments) {
      const type = name.endsWith('.pdf') ? 'application/pdf' : name.endsWith('.xlsx') ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : name.endsWith('.docx') ? 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' : 'application/msword';
      // A few hundred bytes stand in for the file: only its name reaches the message text.
      parts.push(`Content-Type: ${type}; name="${name}"\nContent-Disposition: attachment; filename="${name}"\nContent-Transfer-Encoding: base64\n\n${b64(Buffer.from(`%PDF-1.4 placeholder ${rng.digits(200)}`))}`);
    }
    return `${head}\nContent-Type: multipart/mixed; boundary="${b}"\n\nThis is a multi-part message in MIME format.\n\n${parts.map((p) => `--${b}\n${p}`).join('\n')}\n--${b}--\n`;
  }
  return `${head}\n${textPart(rng, m.body)}\n`;
}
