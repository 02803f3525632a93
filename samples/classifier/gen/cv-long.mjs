// Long resumes as produced by online resume builders and exported to PDF: a headline title,
// summary, skills, several positions with dates and duty lines, education, certifications.
// Many professions, two to four pages, often with the employer anonymised.
import { FIRST, LAST, company } from './data.mjs';
import { cap, fill, wrap } from './prose.mjs';

// Per profession: job titles, things the person works on, and skills.
const JOBS = {
  accountant: [['Staff Accountant', 'Senior Accountant', 'Accounting Manager', 'Tax Preparer'], ['general ledger entries', 'month-end close', 'accounts receivable', 'payroll', 'fixed asset schedules', 'sales tax filings', 'bank reconciliations', 'audit schedules'], ['QuickBooks', 'Peachtree', 'GAAP', 'Excel pivot tables', 'Account reconciliation', 'Payroll processing', 'Financial reporting']],
  advocate: [['Patient Advocate', 'Legal Advocate', 'Victim Advocate', 'Consumer Advocate'], ['case files', 'client intake interviews', 'court accompaniment', 'benefit applications', 'grievance procedures', 'community referrals'], ['Crisis intervention', 'Case management', 'Conflict resolution', 'Bilingual Spanish', 'Legal research', 'Confidentiality']],
  agriculture: [['Farm Manager', 'Agricultural Technician', 'Crop Consultant', 'Field Supervisor'], ['irrigation schedules', 'pesticide applications', 'harvest crews', 'soil samples', 'livestock records', 'greenhouse operations'], ['Crop scouting', 'GPS mapping', 'Pesticide applicator license', 'Tractor operation', 'Soil science', 'Inventory control']],
  apparel: [['Store Manager', 'Visual Merchandiser', 'Apparel Buyer', 'Sales Associate'], ['floor sets', 'seasonal assortments', 'vendor negotiations', 'inventory counts', 'markdown plans', 'fitting room operations'], ['Merchandising', 'Retail math', 'Loss prevention', 'Trend forecasting', 'POS systems', 'Customer service']],
  arts: [['Art Instructor', 'Gallery Coordinator', 'Program Director', 'Graphic Artist'], ['exhibitions', 'art classes', 'grant applications', 'youth programs', 'collection records', 'community workshops'], ['Adobe Photoshop', 'Curriculum development', 'Event planning', 'Painting', 'Fundraising', 'Public speaking']],
  automobile: [['Automotive Technician', 'Service Advisor', 'Parts Manager', 'Service Manager'], ['engine diagnostics', 'brake repairs', 'warranty claims', 'repair orders', 'parts inventory', 'customer estimates'], ['ASE certified', 'Diagnostic scanners', 'Electrical systems', 'Customer relations', 'Shop management software']],
  aviation: [['Aircraft Mechanic', 'Flight Operations Specialist', 'Avionics Technician', 'Aviation Maintenance Supervisor'], ['scheduled inspections', 'maintenance records', 'flight schedules', 'avionics troubleshooting', 'FAA compliance documentation', 'ground support equipment'], ['A&P license', 'FAA regulations', 'Technical manuals', 'Hydraulics', 'Safety management systems', 'Logistics']],
  banking: [['Bank Teller', 'Personal Banker', 'Branch Manager', 'Loan Officer'], ['cash drawers', 'loan applications', 'new account openings', 'branch audits', 'customer portfolios', 'compliance reviews'], ['Cash handling', 'BSA/AML', 'Sales and referrals', 'Lending', 'Customer relationship management', 'Microsoft Office']],
  bpo: [['Customer Service Representative', 'Team Leader', 'Call Center Agent', 'Quality Analyst'], ['inbound calls', 'customer escalations', 'quality audits', 'average handle time', 'service level targets', 'ticket queues'], ['CRM software', 'Typing 60 WPM', 'Problem solving', 'Coaching', 'Bilingual', 'Workforce management']],
  business: [['Business Development Manager', 'Account Executive', 'Sales Director', 'Partnership Manager'], ['new client accounts', 'sales pipelines', 'strategic partnerships', 'proposals', 'market analyses', 'trade shows'], ['Salesforce', 'Negotiation', 'Market research', 'Lead generation', 'Contract management', 'Forecasting']],
  chef: [['Executive Chef', 'Sous Chef', 'Line Cook', 'Kitchen Manager'], ['menu development', 'food cost', 'kitchen staff', 'food safety inspections', 'catering events', 'supplier orders'], ['ServSafe certified', 'Menu planning', 'Inventory control', 'Knife skills', 'Banquet operations', 'Staff training']],
  construction: [['Project Manager', 'Site Superintendent', 'Estimator', 'Construction Foreman'], ['subcontractor schedules', 'site safety meetings', 'change orders', 'cost estimates', 'building inspections', 'material deliveries'], ['OSHA 30', 'Blueprint reading', 'Scheduling', 'Procore', 'Budgeting', 'Quality control']],
  consultant: [['Management Consultant', 'IT Consultant', 'Senior Consultant', 'Independent Consultant'], ['client workshops', 'process assessments', 'implementation roadmaps', 'stakeholder interviews', 'change management plans', 'business cases'], ['Project management', 'Process improvement', 'Data analysis', 'Presentation skills', 'Six Sigma', 'ERP implementation']],
  designer: [['Graphic Designer', 'Interior Designer', 'UX Designer', 'Web Designer'], ['brand guidelines', 'marketing collateral', 'wireframes', 'client presentations', 'print production', 'website layouts'], ['Adobe Creative Suite', 'Sketch', 'Typography', 'AutoCAD', 'HTML/CSS', 'Colour theory']],
  media: [['Digital Media Specialist', 'Social Media Manager', 'Video Producer', 'Content Producer'], ['social media calendars', 'video shoots', 'web analytics reports', 'content campaigns', 'editorial schedules', 'podcast episodes'], ['Final Cut Pro', 'Google Analytics', 'SEO', 'Copywriting', 'WordPress', 'Photography']],
  engineering: [['Mechanical Engineer', 'Project Engineer', 'Electrical Engineer', 'Process Engineer'], ['design reviews', 'test procedures', 'CAD drawings', 'root cause analyses', 'production line upgrades', 'technical specifications'], ['SolidWorks', 'MATLAB', 'AutoCAD', 'FMEA', 'Lean manufacturing', 'PLC programming']],
  finance: [['Financial Analyst', 'Finance Manager', 'Budget Analyst', 'Controller'], ['annual budgets', 'variance reports', 'financial models', 'cash flow forecasts', 'board presentations', 'cost allocations'], ['Financial modelling', 'Hyperion', 'SAP', 'Forecasting', 'Excel VBA', 'Variance analysis']],
  fitness: [['Personal Trainer', 'Fitness Instructor', 'Gym Manager', 'Wellness Coach'], ['training programs', 'group classes', 'member assessments', 'nutrition plans', 'membership sales', 'facility maintenance'], ['CPR/AED', 'NASM certified', 'Strength training', 'Nutrition', 'Motivational coaching', 'Group fitness']],
  healthcare: [['Registered Nurse', 'Medical Assistant', 'Health Services Coordinator', 'Clinical Supervisor'], ['patient assessments', 'medication administration', 'care plans', 'electronic medical records', 'infection control audits', 'patient education'], ['Patient care', 'EMR systems', 'HIPAA', 'Phlebotomy', 'Vital signs', 'Medical terminology']],
  hr: [['HR Generalist', 'Recruiter', 'HR Manager', 'Benefits Administrator'], ['recruitment campaigns', 'onboarding', 'benefits enrolment', 'employee relations cases', 'performance reviews', 'HR policies'], ['HRIS', 'ADP', 'Employment law', 'Talent acquisition', 'Compensation', 'Training and development']],
  it: [['Systems Administrator', 'Network Engineer', 'Help Desk Technician', 'IT Manager'], ['server patching', 'network upgrades', 'help desk tickets', 'backup procedures', 'user accounts', 'security audits'], ['Active Directory', 'VMware', 'Cisco', 'Linux', 'ITIL', 'PowerShell']],
  pr: [['Public Relations Manager', 'Communications Specialist', 'Press Officer', 'Media Relations Coordinator'], ['press releases', 'media inquiries', 'crisis communications', 'press events', 'internal newsletters', 'speaking engagements'], ['Media relations', 'AP style', 'Crisis communication', 'Social media', 'Event management', 'Cision']],
  sales: [['Sales Representative', 'Sales Manager', 'Inside Sales Associate', 'Territory Manager'], ['sales quotas', 'customer accounts', 'product demonstrations', 'cold calls', 'distributor relationships', 'sales reports'], ['Consultative selling', 'CRM', 'Negotiation', 'Territory planning', 'Closing', 'Product knowledge']],
  teacher: [['Teacher', 'Special Education Teacher', 'Substitute Teacher', 'Instructional Coach'], ['lesson plans', 'classroom instruction', 'parent conferences', 'student assessments', 'IEP meetings', 'after-school programs'], ['Classroom management', 'Differentiated instruction', 'Smart Board', 'Curriculum mapping', 'Student engagement', 'Reading intervention']],
  logistics: [['Logistics Specialist', 'Warehouse Supervisor', 'Material Handler', 'Supply Technician'], ['shipping and receiving', 'inventory records', 'supply requisitions', 'forklift operations', 'cycle counts', 'vendor returns'], ['Inventory management', 'Forklift certified', 'SAP', 'Data entry', 'Safety compliance', 'Scheduling']],
};

const VERBS = ['Managed', 'Coordinated', 'Prepared', 'Oversaw', 'Maintained', 'Reviewed', 'Developed', 'Processed', 'Supervised', 'Handled', 'Planned', 'Organized', 'Monitored', 'Trained staff on', 'Streamlined', 'Implemented improvements to', 'Reported on', 'Assisted with'];
const OUTCOMES = ['resulting in a {n}% reduction in errors', 'for a team of {n} employees', 'across {n} locations', 'while meeting all deadlines', 'in line with company policy', 'saving approximately ${n},000 per year', 'for over {n}00 customers', 'ensuring compliance with state and federal regulations', ''];
const DETAIL = [
  'Worked closely with management to improve {area}.',
  'Responsible for {area} and {area} on a daily basis.',
  'Answered questions from customers and staff regarding {area}.',
  'Trained and mentored {n} new team members.',
  'Maintained accurate records of {area} using {skill}.',
  'Recognized by supervisors for consistent performance and reliability.',
  'Ensured all work met quality standards and safety procedures.',
  'Communicated with vendors, clients and other departments to resolve issues.',
];
const SUMMARY = [
  '{adj} {title} with {n} years of experience in {area}.',
  'Dedicated professional skilled in {skill} and {skill}.',
  'Proven ability to manage {area} in fast-paced environments.',
  'Seeking a position as {title} where I can use my experience in {area}.',
  'Known for strong communication skills, attention to detail and a commitment to quality.',
  'Experienced in {area}, {area} and {area}.',
  'Team player who works well independently and under pressure.',
];
const ADJ = ['Results-oriented', 'Detail-oriented', 'Highly motivated', 'Dependable', 'Dynamic', 'Experienced', 'Accomplished', 'Energetic'];
const SCHOOLS = ['State University', 'Community College', 'Technical Institute', 'University', 'College of Arts and Sciences', 'High School'];
const DEGREE = ['Bachelor of Science', 'Bachelor of Arts', 'Associate of Applied Science', 'Master of Business Administration', 'Master of Science', 'High School Diploma', 'Certificate', 'Associate of Arts'];
const MONTH = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const PLACES = ['Dallas , TX', 'Atlanta , GA', 'Chicago , IL', 'Phoenix , AZ', 'Columbus , OH', 'Seattle , WA', 'Tampa , FL', 'Denver , CO', 'Raleigh , NC', 'San Antonio , TX', 'City , State'];

function span(rng, end) {
  const start = end - rng.int(1, 6);
  const m = () => rng.pick(MONTH);
  const cur = end >= 2020 && rng.chance(0.3);
  return rng.pick([`${m()} ${start} to ${cur ? 'Current' : `${m()} ${end}`}`, `${String(rng.int(1, 12)).padStart(2, '0')}/${start} to ${cur ? 'Current' : `${String(rng.int(1, 12)).padStart(2, '0')}/${end}`}`, `${start} - ${cur ? 'Present' : end}`, `${m().slice(0, 3)} ${start} - ${m().slice(0, 3)} ${end}`]);
}

export function generateLongResume(rng) {
  const key = rng.pick(Object.keys(JOBS));
  const [titles, areas, skills] = JOBS[key];
  // Some people file under one profession and write about another.
  const [titles2, areas2, skills2] = rng.chance(0.2) ? JOBS[rng.pick(Object.keys(JOBS))] : [titles, areas, skills];
  const anonymous = rng.chance(0.35);
  const title = rng.pick(titles);
  const slots = { title: titles, area: areas, skill: skills, adj: ADJ, n: () => String(rng.int(2, 20)) };
  const width = rng.pick([90, 110, 140, 160]);
  const parts = [];
  const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  if (!anonymous) parts.push(`${rng.chance(0.5) ? name.toUpperCase() : name}\n${rng.pick(PLACES)}${rng.chance(0.6) ? ` | (${rng.int(200, 989)}) ${rng.digits(3)}-${rng.digits(4)}` : ''}${rng.chance(0.5) ? ` | ${name.split(' ')[0].toLowerCase()}.${name.split(' ')[1].toLowerCase().replace(/[^a-z]/g, '')}@${rng.pick(['gmail.com', 'yahoo.com', 'outlook.com', 'mail.com'])}` : ''}`);
  parts.push(rng.chance(0.6) ? title.toUpperCase() : title);
  parts.push(`${rng.pick(['Summary', 'Professional Summary', 'Career Overview', 'Executive Profile', 'Profile', 'Objective', 'Qualifications Summary'])}\n${wrap(rng, Array.from({ length: rng.int(2, 5) }, () => cap(fill(rng, rng.pick(SUMMARY), slots))).join(' '), width)}`);
  const skillList = rng.sample([...skills, ...skills2, ...rng.sample(['Microsoft Office', 'Time management', 'Leadership', 'Customer service', 'Budgeting', 'Training', 'Scheduling', 'Team building', 'Written communication'], 4)], rng.int(6, 12));
  const skillsBlock = rng.chance(0.5) ? skillList.join(rng.pick(['\n', ', ', '    '])) : skillList.map((s) => `${s}${rng.chance(0.3) ? ` - ${rng.pick(['expert', 'advanced', 'proficient'])}` : ''}`).join('\n');
  const skillsHeading = rng.pick(['Skills', 'Skill Highlights', 'Core Qualifications', 'Highlights', 'Areas of Expertise', 'Key Skills']);
  const experience = [rng.pick(['Experience', 'Professional Experience', 'Work History', 'Work Experience', 'Employment History'])];
  let end = rng.int(2012, 2024);
  for (let j = 0; j < rng.int(2, 7); j++) {
    const jt = rng.pick(j === 0 ? titles : titles2);
    const employer = anonymous ? 'Company Name' : company(rng, 'us');
    const header = rng.pick([
      `${jt}\n${span(rng, end)}\n${employer}${rng.pick(['   ', ' - ', ' ', '\t'])}${rng.pick(PLACES)}`,
      `${span(rng, end)}\n${jt}\n${employer} ${rng.pick(PLACES)}`,
      `${employer} ${rng.pick(PLACES)} ${jt} ${span(rng, end)}`,
    ]);
    const duties = Array.from({ length: rng.int(3, 10) }, () => wrap(rng, `${rng.pick(VERBS)} ${rng.pick(j === 0 ? areas : areas2)} ${fill(rng, rng.pick(OUTCOMES), slots)}`.trim() + '.' + (rng.chance(0.4) ? ` ${fill(rng, rng.pick(DETAIL), slots)}` : ''), width));
    experience.push(`${header}\n${duties.join('\n')}`);
    end -= rng.int(1, 5);
  }
  const education = [rng.pick(['Education', 'Education and Training', 'Education & Training', 'EDUCATION'])];
  for (let e = 0; e < rng.int(1, 3); e++) {
    education.push(`${rng.pick(DEGREE)}${rng.chance(0.6) ? ` : ${cap(rng.pick([...areas, 'Business Administration', 'Communications', 'Biology', 'General Studies']))}` : ''} ${rng.int(1985, 2020)}\n${rng.pick(LAST)} ${rng.pick(SCHOOLS)}${rng.chance(0.7) ? ` - ${rng.pick(PLACES)}` : ''}${rng.chance(0.3) ? `\nGPA: ${rng.int(2, 3)}.${rng.int(0, 9)}` : ''}`);
  }
  const extra = [];
  if (rng.chance(0.5)) extra.push(`${rng.pick(['Certifications', 'Licenses', 'Certifications and Licenses'])}\n${rng.sample([...skills, 'First Aid', 'CPR', 'Notary Public', 'PMP', 'CompTIA A+'], rng.int(1, 4)).map((c) => `${c} ${rng.chance(0.5) ? rng.int(2005, 2022) : ''}`.trim()).join('\n')}`);
  if (rng.chance(0.4)) extra.push(`${rng.pick(['Accomplishments', 'Achievements'])}\n${Array.from({ length: rng.int(1, 4) }, () => `${rng.pick(['Awarded', 'Recognized as', 'Selected for', 'Promoted to'])} ${rng.pick(['Employee of the Month', 'top performer in the region', 'the leadership development program', rng.pick(titles)])} ${rng.chance(0.5) ? `in ${rng.int(2005, 2022)}` : ''}`.trim()).join('\n')}`);
  if (rng.chance(0.35)) extra.push(`${rng.pick(['Interests', 'Activities', 'Affiliations', 'Professional Affiliations'])}\n${wrap(rng, rng.sample(['Volunteer at the local food bank', 'Member of the National Association', 'Youth soccer coach', 'Hiking and photography', 'Church choir', 'Habitat for Humanity volunteer'], rng.int(1, 3)).join('; '), width)}`);
  if (rng.chance(0.3)) extra.push(`Languages\n${rng.sample(['English', 'Spanish', 'French', 'Tagalog', 'Vietnamese', 'German', 'Arabic'], rng.int(1, 3)).join(', ')}`);
  if (rng.chance(0.3)) extra.push(`Additional Information\n${wrap(rng, rng.pick(['Willing to relocate and travel.', 'Available for weekend and evening shifts.', 'References available upon request.', 'Security clearance: Secret.']), width)}`);
  const order = rng.chance(0.5) ? [skillsHeading + '\n' + skillsBlock, experience.join('\n'), education.join('\n')] : [experience.join('\n'), education.join('\n'), skillsHeading + '\n' + skillsBlock];
  parts.push(...order, ...extra);
  return parts.join(rng.chance(0.5) ? '\n' : '\n\n');
}
