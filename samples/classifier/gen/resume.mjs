// Resumes and CVs across professions: chronological, skills-first, graduate, academic, and a few
// German/French/Spanish CVs. Section names and their order vary.
import { address, company, person, phone, emailFor, city } from './data.mjs';
import { doc, maybe, EN_LOCS } from './common.mjs';

const FIELDS = {
  software: {
    titles: ['Software Engineer', 'Senior Backend Developer', 'Full-Stack Developer', 'DevOps Engineer', 'Frontend Engineer'],
    bullets: ['Designed and shipped a payments service handling 2M requests per day', 'Reduced CI build times by 60% by parallelising test suites', 'Migrated a monolith to containerised services on Kubernetes', 'Mentored four junior developers and ran weekly code reviews', 'Built a React dashboard used by 300 internal users', 'Introduced observability with tracing and structured logs', 'Led the move from REST polling to event-driven webhooks'],
    skills: ['TypeScript', 'Node.js', 'Python', 'Go', 'PostgreSQL', 'Redis', 'Docker', 'Kubernetes', 'AWS', 'React', 'GraphQL', 'CI/CD', 'Terraform'],
  },
  finance: {
    titles: ['Accountant', 'Financial Analyst', 'Accounts Payable Clerk', 'Finance Manager', 'Auditor'],
    bullets: ['Processed 400+ supplier invoices per month with 99.8% accuracy', 'Prepared monthly management accounts and variance analysis', 'Led the year-end close and liaised with external auditors', 'Reconciled bank statements and intercompany balances', 'Implemented a purchase order approval workflow in the ERP', 'Cut days sales outstanding from 52 to 38'],
    skills: ['IFRS', 'US GAAP', 'Excel (advanced)', 'SAP', 'Xero', 'QuickBooks', 'Budgeting', 'Forecasting', 'Power BI', 'VAT returns'],
  },
  nursing: {
    titles: ['Registered Nurse', 'Staff Nurse', 'Clinical Nurse Specialist', 'Charge Nurse'],
    bullets: ['Provided care for up to 8 patients per shift on a busy surgical ward', 'Administered medication and maintained accurate patient records', 'Trained new staff on infection-control procedures', 'Coordinated discharge planning with families and social services', 'Recognised for compassionate patient communication'],
    skills: ['Patient assessment', 'Wound care', 'IV therapy', 'BLS/ALS', 'Electronic health records', 'Triage', 'Medication management'],
  },
  marketing: {
    titles: ['Marketing Manager', 'Content Strategist', 'Digital Marketing Specialist', 'Brand Manager'],
    bullets: ['Grew organic traffic by 180% in 12 months', 'Managed a paid social budget of 400k per year', 'Launched three product campaigns across 6 markets', 'Built the company newsletter to 45,000 subscribers', 'Ran A/B tests that lifted conversion by 22%'],
    skills: ['SEO', 'Google Analytics', 'Copywriting', 'HubSpot', 'Social media', 'Campaign planning', 'Figma', 'Market research'],
  },
  logistics: {
    titles: ['Logistics Coordinator', 'Warehouse Manager', 'Supply Chain Analyst', 'Procurement Specialist'],
    bullets: ['Coordinated inbound shipments from 40 suppliers', 'Raised and tracked purchase orders and resolved delivery discrepancies', 'Cut stock-outs by 35% through better forecasting', 'Managed a team of 15 warehouse operatives', 'Negotiated freight contracts saving 12% annually'],
    skills: ['Inventory management', 'SAP MM', 'Forklift licence', 'Lean', 'Vendor management', 'Excel', 'Incoterms'],
  },
  teaching: {
    titles: ['Secondary School Teacher', 'Primary Teacher', 'Teaching Assistant', 'Lecturer'],
    bullets: ['Taught mathematics to classes of 30 students aged 11–16', 'Raised exam pass rates from 64% to 81%', 'Organised an annual science fair for the district', 'Developed differentiated lesson plans for mixed-ability groups', 'Served as head of year for 180 pupils'],
    skills: ['Curriculum design', 'Classroom management', 'Safeguarding', 'Assessment', 'Google Classroom', 'Mentoring'],
  },
  hospitality: {
    titles: ['Sous Chef', 'Restaurant Manager', 'Barista', 'Hotel Receptionist', 'Event Coordinator'],
    bullets: ['Ran the pass for a 120-cover restaurant', 'Designed a seasonal menu that raised margins by 8%', 'Trained front-of-house staff on allergen procedures', 'Handled check-in for up to 200 guests per day', 'Managed weekly stock orders and supplier relationships'],
    skills: ['Food safety level 3', 'Menu costing', 'Rota planning', 'Customer service', 'Opera PMS', 'Wine knowledge'],
  },
};

const UNIS = ['University of Leeds', 'Technische Universität München', 'Universidad de Sevilla', 'Université de Lyon', 'University College Dublin', 'Ohio State University', 'University of Toronto', 'Monash University', 'Open University', 'Riverside Community College'];
const DEGREES = ['BSc Computer Science', 'BA Accounting and Finance', 'BSc Nursing', 'MA Marketing', 'MSc Supply Chain Management', 'PGCE Secondary Mathematics', 'BA (Hons) English Literature', 'MBA', 'Diploma in Culinary Arts', 'BEng Mechanical Engineering'];
const LANGS = ['English (native)', 'German (fluent)', 'French (B2)', 'Spanish (conversational)', 'Polish (native)', 'Mandarin (basic)', 'Italian (B1)'];

function years(rng) {
  const end = rng.int(2016, 2025);
  const start = end - rng.int(1, 6);
  const m = () => rng.pick(['Jan', 'Feb', 'Mar', 'Apr', 'Jun', 'Sep', 'Oct', 'Nov', '01/', '06/', '09/']);
  const cur = rng.chance(0.3);
  const fmt = rng.int(0, 2);
  if (fmt === 0) return `${start} – ${cur ? 'present' : end}`;
  if (fmt === 1) return `${m()} ${start} - ${cur ? 'Present' : `${m()} ${end}`}`.replace('/ ', '/');
  return `${start}–${cur ? 'now' : end}`;
}

function contact(rng, name, loc) {
  const parts = [emailFor(rng, name, rng.pick(['mail', 'inbox', 'post'])), phone(rng, loc), rng.pick([city(rng, loc), address(rng, loc).join(', ')])];
  if (rng.chance(0.5)) parts.push(`linkedin.com/in/${name.toLowerCase().replace(/[^a-z]+/g, '-')}`);
  if (rng.chance(0.2)) parts.push(`github.com/${name.split(' ')[0].toLowerCase()}${rng.digits(2)}`);
  return rng.chance(0.5) ? parts.join(' | ') : parts.join('\n');
}

function experience(rng, field, loc, n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const title = rng.pick(field.titles);
    const co = company(rng, loc);
    const head = rng.pick([`${title}, ${co}`, `${title} | ${co} | ${city(rng, loc)}`, `${co} — ${title}`, `${title}\n${co}, ${city(rng, loc)}`]);
    const bullet = rng.pick(['- ', '• ', '* ', '']);
    out.push(`${head}\n${years(rng)}\n${rng.sample(field.bullets, rng.int(1, 4)).map((b) => bullet + b).join('\n')}`);
  }
  return out.join('\n\n');
}

function education(rng) {
  const n = rng.int(1, 2);
  const out = [];
  for (let i = 0; i < n; i++) out.push(`${rng.pick(DEGREES)}${rng.chance(0.4) ? ` (${rng.pick(['First Class', '2:1', 'GPA 3.7', 'Distinction', 'cum laude'])})` : ''}\n${rng.pick(UNIS)}, ${rng.int(2000, 2022)}`);
  return out.join('\n');
}

function sectionTitle(rng, names) {
  const n = rng.pick(names);
  return rng.pick([n, n.toUpperCase(), `${n}:`, `== ${n} ==`]);
}

function chronological(rng) {
  const loc = rng.pick(EN_LOCS);
  const name = person(rng);
  const field = FIELDS[rng.pick(Object.keys(FIELDS))];
  const sections = [
    maybe(rng, 0.75, () => `${sectionTitle(rng, ['Profile', 'Summary', 'Professional Summary', 'About me', 'Objective'])}\n${rng.pick([
      `${rng.pick(field.titles)} with ${rng.int(2, 15)} years of experience. ${rng.pick(['Known for reliability and clear communication.', 'Looking for a role with more ownership.', 'Passionate about quality and continuous improvement.', 'Comfortable in fast-paced, multicultural teams.'])}`,
      `Motivated professional seeking a ${rng.pick(field.titles).toLowerCase()} position.`,
    ])}`),
    `${sectionTitle(rng, ['Experience', 'Work Experience', 'Professional Experience', 'Employment History', 'Career'])}\n${experience(rng, field, loc, rng.int(1, 4))}`,
    `${sectionTitle(rng, ['Education', 'Education & Training', 'Qualifications'])}\n${education(rng)}`,
    `${sectionTitle(rng, ['Skills', 'Key Skills', 'Technical Skills', 'Core Competencies'])}\n${rng.sample(field.skills, rng.int(3, 8)).join(rng.pick([', ', ' · ', '\n- ', ' | ']))}`,
    maybe(rng, 0.4, () => `${sectionTitle(rng, ['Languages'])}\n${rng.sample(LANGS, rng.int(1, 3)).join(', ')}`),
    maybe(rng, 0.3, () => `${sectionTitle(rng, ['Certifications', 'Courses'])}\n${rng.pick(['First Aid at Work', 'PRINCE2 Foundation', 'AWS Solutions Architect', 'CIMA Certificate', 'Food Hygiene Level 2', 'Google Ads certified'])} (${rng.int(2015, 2024)})`),
    maybe(rng, 0.25, () => `${sectionTitle(rng, ['Interests', 'Hobbies'])}\n${rng.sample(['running', 'chess', 'volunteering at a food bank', 'photography', 'climbing', 'choir', 'cooking'], 2).join(', ')}`),
    maybe(rng, 0.2, 'References available on request.'),
  ];
  const [first, ...rest] = sections.filter(Boolean);
  const body = rng.chance(0.3) ? [first, ...rng.shuffle(rest)] : [first, ...rest];
  return doc(
    maybe(rng, 0.3, () => rng.pick(['CURRICULUM VITAE', 'Résumé', 'RESUME', 'CV'])),
    rng.chance(0.5) ? name.toUpperCase() : name,
    maybe(rng, 0.4, () => rng.pick(field.titles)),
    contact(rng, name, loc),
    body,
  );
}

function skillsFirst(rng) {
  const loc = rng.pick(EN_LOCS);
  const name = person(rng);
  const field = FIELDS[rng.pick(Object.keys(FIELDS))];
  return doc(
    `${name}\n${contact(rng, name, loc)}`,
    `${sectionTitle(rng, ['Highlights', 'Key Achievements', 'Selected Accomplishments'])}\n${rng.sample(field.bullets, rng.int(2, 4)).map((b) => `• ${b}`).join('\n')}`,
    `${sectionTitle(rng, ['Skills', 'Areas of Expertise'])}\n${rng.sample(field.skills, 6).join(', ')}`,
    `${sectionTitle(rng, ['Career History', 'Roles'])}\n${Array.from({ length: rng.int(2, 4) }, () => `${rng.pick(field.titles)} — ${company(rng, loc)} (${years(rng)})`).join('\n')}`,
    `${sectionTitle(rng, ['Education'])}\n${education(rng)}`,
  );
}

function graduate(rng) {
  const loc = rng.pick(EN_LOCS);
  const name = person(rng);
  const field = FIELDS[rng.pick(Object.keys(FIELDS))];
  return doc(
    name,
    contact(rng, name, loc),
    `${sectionTitle(rng, ['Education'])}\n${rng.pick(DEGREES)}, ${rng.pick(UNIS)} (expected ${rng.int(2023, 2026)})\nRelevant modules: ${rng.sample(['Statistics', 'Databases', 'Operations Management', 'Pharmacology', 'Microeconomics', 'Algorithms', 'Consumer Behaviour'], 3).join(', ')}\nDissertation: "${rng.pick(['Queueing models for hospital admissions', 'Sustainable packaging in e-commerce', 'Sentiment analysis of product reviews', 'Cash-flow forecasting for SMEs'])}"`,
    `${sectionTitle(rng, ['Internships', 'Work Experience', 'Placements'])}\n${rng.pick(field.titles)} intern, ${company(rng, loc)}, summer ${rng.int(2020, 2025)}\n- ${rng.pick(field.bullets)}`,
    maybe(rng, 0.6, () => `${sectionTitle(rng, ['Projects', 'Volunteering', 'Activities'])}\n- ${rng.pick(['Treasurer of the student hiking society', 'Built a mobile app for campus events', 'Volunteer tutor for refugees learning English', 'Captain of the university netball team'])}`),
    `${sectionTitle(rng, ['Skills'])}\n${rng.sample(field.skills, 5).join(', ')}; ${rng.sample(LANGS, 2).join(', ')}`,
  );
}

function academic(rng) {
  const loc = rng.pick(EN_LOCS);
  const name = `Dr ${person(rng)}`;
  const topic = rng.pick(['computational linguistics', 'marine ecology', 'medieval history', 'condensed matter physics', 'public health economics']);
  const pubs = Array.from({ length: rng.int(2, 5) }, () => `${person(rng).split(' ')[1]}, ${name.split(' ').pop()[0]}. et al. (${rng.int(2010, 2025)}). ${rng.pick(['On the', 'Towards', 'A study of', 'Evidence for', 'Revisiting'])} ${rng.pick(['robust', 'seasonal', 'regional', 'sparse', 'early'])} ${topic.split(' ').pop()}. ${rng.pick(['Journal of Applied Research', 'Annals of Science', 'Proceedings of ICML', 'Review of Studies'])}, ${rng.int(2, 60)}(${rng.int(1, 12)}), ${rng.int(1, 300)}-${rng.int(301, 600)}.`);
  return doc(
    rng.pick(['Curriculum Vitae', 'ACADEMIC CV']),
    `${name}\n${rng.pick(['Senior Lecturer', 'Postdoctoral Research Fellow', 'Associate Professor'])} in ${topic}\n${rng.pick(UNIS)}\n${emailFor(rng, name.slice(3), 'university')}`,
    `${sectionTitle(rng, ['Education'])}\nPhD, ${topic}, ${rng.pick(UNIS)}, ${rng.int(2005, 2020)}\n${rng.pick(DEGREES)}, ${rng.pick(UNIS)}`,
    `${sectionTitle(rng, ['Appointments', 'Academic Positions'])}\n${years(rng)} ${rng.pick(['Lecturer', 'Research Associate'])}, ${rng.pick(UNIS)}\n${years(rng)} ${rng.pick(['Teaching Fellow', 'Postdoc'])}, ${rng.pick(UNIS)}`,
    `${sectionTitle(rng, ['Publications', 'Selected Publications'])}\n${pubs.join('\n')}`,
    maybe(rng, 0.7, () => `${sectionTitle(rng, ['Grants', 'Funding'])}\n${rng.pick(['Research council grant', 'Early career fellowship', 'Industry partnership award'])} (${rng.int(50, 900)}k, ${rng.int(2015, 2024)})`),
    maybe(rng, 0.6, () => `${sectionTitle(rng, ['Teaching'])}\n${rng.pick(['Introductory statistics (200 students)', 'Field methods', 'Research seminar'])}; supervised ${rng.int(2, 12)} PhD students`),
  );
}

function foreign(rng) {
  const lang = rng.pick(['de', 'fr', 'es']);
  const name = person(rng);
  const field = FIELDS[rng.pick(Object.keys(FIELDS))];
  const w = {
    de: { t: 'Lebenslauf', pers: 'Persönliche Daten', born: 'Geburtsdatum', exp: 'Berufserfahrung', edu: 'Ausbildung', sk: 'Kenntnisse', lang: 'Sprachen', langs: 'Deutsch (Muttersprache), Englisch (fließend)' },
    fr: { t: 'Curriculum Vitae', pers: 'Informations personnelles', born: 'Date de naissance', exp: 'Expérience professionnelle', edu: 'Formation', sk: 'Compétences', lang: 'Langues', langs: 'Français (langue maternelle), Anglais (courant)' },
    es: { t: 'Currículum Vitae', pers: 'Datos personales', born: 'Fecha de nacimiento', exp: 'Experiencia laboral', edu: 'Formación académica', sk: 'Habilidades', lang: 'Idiomas', langs: 'Español (nativo), Inglés (avanzado)' },
  }[lang];
  return doc(
    w.t,
    `${w.pers}\n${name}\n${address(rng, lang).join(', ')}\n${phone(rng, lang)}\n${emailFor(rng, name, 'mail')}\n${w.born}: ${rng.int(1, 28)}.${rng.int(1, 12)}.${rng.int(1965, 2001)}`,
    `${w.exp}\n${Array.from({ length: rng.int(1, 3) }, () => `${years(rng)}  ${rng.pick(field.titles)}, ${company(rng, lang)}`).join('\n')}`,
    `${w.edu}\n${rng.int(2000, 2020)}  ${rng.pick(UNIS)}`,
    `${w.sk}\n${rng.sample(field.skills, 5).join(', ')}`,
    `${w.lang}\n${w.langs}`,
  );
}

export function generateResume(rng) {
  return rng.weighted([[8, chronological], [3, skillsFirst], [3, graduate], [2, academic], [2, foreign]])(rng);
}
