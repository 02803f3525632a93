// Invented vocabularies for people, firms, places and goods. Nothing here is taken from real
// documents; names are common given names and surnames combined at random.

export const FIRST = [
  'James', 'Maria', 'Oliver', 'Sophie', 'Liam', 'Emma', 'Noah', 'Hannah', 'Lukas', 'Lea', 'Jonas',
  'Amelie', 'Pierre', 'Camille', 'Julien', 'Chloé', 'Javier', 'Lucía', 'Carlos', 'Sofía', 'Ahmed',
  'Fatima', 'Wei', 'Mei', 'Raj', 'Priya', 'Tomasz', 'Anna', 'Erik', 'Ingrid', 'Daniel', 'Grace',
  'Samuel', 'Olivia', 'Ethan', 'Zoe', 'Marco', 'Giulia', 'Kofi', 'Ama', 'Sean', 'Niamh', 'David',
  'Rachel', 'Michael', 'Laura', 'Peter', 'Claire', 'Hugo', 'Inès', 'Mateo', 'Valentina',
];
export const LAST = [
  'Smith', 'Müller', 'Dubois', 'García', 'Johnson', 'Schmidt', 'Martin', 'Fernández', 'Brown',
  'Schneider', 'Bernard', 'López', 'Taylor', 'Fischer', 'Moreau', 'Martínez', 'Wilson', 'Weber',
  'Laurent', 'Sánchez', 'Evans', 'Becker', 'Lefèvre', 'Romero', 'Okafor', 'Nguyen', 'Patel',
  'Kowalski', 'Andersson', 'Rossi', "O'Brien", 'Murphy', 'Chen', 'Kim', 'Hoffmann', 'Roux',
  'Navarro', 'Clarke', 'Walsh', 'Jensen', 'Novak', 'Mensah', 'Hughes', 'Baker', 'Wright',
];

const CO_WORDS = [
  'Northwind', 'Bluebird', 'Cedar', 'Summit', 'Harbor', 'Granite', 'Silverline', 'Brightpath',
  'Oakridge', 'Meridian', 'Atlas', 'Pioneer', 'Evergreen', 'Keystone', 'Lumen', 'Vantage',
  'Redwood', 'Nordlicht', 'Rheintal', 'Alpen', 'Sonnenberg', 'Lavande', 'Horizon', 'Belvédère',
  'Sol', 'Mirador', 'Costa', 'Quantum', 'Riverside', 'Falcon', 'Copperleaf', 'Ironbridge',
  'Kestrel', 'Maple', 'Pinecrest', 'Sapphire', 'Tidewater', 'Westgate', 'Zenith', 'Orchard',
];
const CO_TRADES = [
  'Consulting', 'Logistics', 'Supplies', 'Software', 'Design Studio', 'Engineering', 'Media',
  'Trading', 'Systems', 'Solutions', 'Analytics', 'Print', 'Foods', 'Industrial', 'Labs',
  'Facilities', 'Digital', 'Textiles', 'Freight', 'Electrical', 'Plumbing', 'Catering',
  'Technik', 'Handel', 'Services', 'Conseil', 'Distribución', 'Office Products', 'Networks',
];
const SUFFIX = {
  us: ['Inc.', 'LLC', 'Corp.', 'Co.', ''],
  uk: ['Ltd', 'Ltd.', 'LLP', 'plc', ''],
  ie: ['Ltd', 'DAC', ''],
  au: ['Pty Ltd', 'Pty. Ltd.', ''],
  ca: ['Inc.', 'Ltd.', ''],
  de: ['GmbH', 'GmbH & Co. KG', 'AG', 'e.K.', 'UG'],
  fr: ['SARL', 'SAS', 'S.A.', ''],
  es: ['S.L.', 'S.A.', ''],
  nl: ['B.V.', 'N.V.', ''],
};

export function company(rng, loc = 'us') {
  const style = rng.int(0, 3);
  let base;
  if (style === 0) base = `${rng.pick(CO_WORDS)} ${rng.pick(CO_TRADES)}`;
  else if (style === 1) base = `${rng.pick(LAST)} & ${rng.pick(LAST)}`;
  else if (style === 2) base = `${rng.pick(CO_WORDS)}${rng.pick(['', ' Group', ' Partners', ' & Sons', ' Works'])}`;
  else base = `${rng.pick(LAST)} ${rng.pick(CO_TRADES)}`;
  const suf = rng.pick(SUFFIX[loc] ?? SUFFIX.us);
  return suf ? `${base} ${suf}` : base;
}

export function person(rng) {
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}

const STREETS = {
  us: ['Main St', 'Oak Avenue', 'Elm Street', 'Maple Dr', 'Washington Blvd', 'Lake Road', 'Pine St', 'Market Street', '5th Avenue', 'Sunset Blvd'],
  uk: ['High Street', 'Station Road', 'Church Lane', 'Victoria Road', 'Mill Lane', 'King Street', 'Park Road', 'Queens Way'],
  ie: ['Main Street', 'Dame Street', 'Patrick Street', 'Shop Street'],
  au: ['George St', 'Collins Street', 'Queen St', 'Chapel Street'],
  ca: ['Yonge Street', 'Rue Sainte-Catherine', 'Granville St', 'Bank Street'],
  de: ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Schillerstraße', 'Lindenallee', 'Goethestraße', 'Industriestr.'],
  fr: ['rue de la République', 'avenue Victor Hugo', 'boulevard Saint-Michel', 'rue des Lilas', 'place de la Gare'],
  es: ['Calle Mayor', 'Avenida de la Constitución', 'Calle del Sol', 'Paseo de Gracia', 'Calle Real'],
  nl: ['Kerkstraat', 'Dorpsstraat', 'Prinsengracht', 'Stationsweg'],
};
const CITIES = {
  us: [['Springfield', 'IL', '62701'], ['Austin', 'TX', '78701'], ['Portland', 'OR', '97205'], ['Columbus', 'OH', '43215'], ['Denver', 'CO', '80202'], ['Raleigh', 'NC', '27601']],
  uk: [['Leeds', 'LS1 4AP'], ['Bristol', 'BS1 5TR'], ['Manchester', 'M2 3WQ'], ['Norwich', 'NR2 1NT'], ['Cardiff', 'CF10 1EP'], ['York', 'YO1 7HH']],
  ie: [['Dublin 2', 'D02 X285'], ['Cork', 'T12 RX87'], ['Galway', 'H91 E2K3']],
  au: [['Sydney', 'NSW', '2000'], ['Melbourne', 'VIC', '3000'], ['Brisbane', 'QLD', '4000']],
  ca: [['Toronto', 'ON', 'M5V 2T6'], ['Ottawa', 'ON', 'K1P 5G8'], ['Vancouver', 'BC', 'V6B 1A1']],
  de: [['Berlin', '10115'], ['München', '80331'], ['Hamburg', '20095'], ['Köln', '50667'], ['Leipzig', '04109'], ['Freiburg', '79098']],
  fr: [['Paris', '75011'], ['Lyon', '69002'], ['Toulouse', '31000'], ['Nantes', '44000'], ['Lille', '59000']],
  es: [['Madrid', '28013'], ['Barcelona', '08007'], ['Sevilla', '41001'], ['Valencia', '46002'], ['Bilbao', '48001']],
  nl: [['Amsterdam', '1016 AB'], ['Utrecht', '3511 LX'], ['Rotterdam', '3011 AD']],
};
const COUNTRY = { us: 'USA', uk: 'United Kingdom', ie: 'Ireland', au: 'Australia', ca: 'Canada', de: 'Deutschland', fr: 'France', es: 'España', nl: 'Nederland' };

/** Address as an array of lines in the local order. */
export function address(rng, loc = 'us', withCountry = false) {
  const street = rng.pick(STREETS[loc]);
  const no = rng.int(1, 240);
  const c = rng.pick(CITIES[loc]);
  const lines = [];
  if (['de', 'es', 'nl'].includes(loc)) lines.push(`${street} ${no}`);
  else if (loc === 'fr') lines.push(`${no} ${street}`);
  else lines.push(`${no} ${street}${rng.chance(0.2) ? `, Suite ${rng.int(100, 900)}` : ''}`);
  if (loc === 'us' || loc === 'au' || loc === 'ca') lines.push(`${c[0]}, ${c[1]} ${c[2]}`);
  else if (loc === 'uk' || loc === 'ie') lines.push(c[0], c[1]);
  else lines.push(`${c[1]} ${c[0]}`);
  if (withCountry) lines.push(COUNTRY[loc]);
  return lines;
}

export function city(rng, loc = 'us') {
  return rng.pick(CITIES[loc])[0];
}

export function phone(rng, loc = 'us') {
  const d = rng.digits;
  switch (loc) {
    case 'uk': return `+44 ${rng.int(11, 20)}${d(2)} ${d(3)} ${d(4)}`;
    case 'de': return `+49 ${rng.int(30, 89)} ${d(7)}`;
    case 'fr': return `+33 ${rng.int(1, 9)} ${d(2)} ${d(2)} ${d(2)} ${d(2)}`;
    case 'es': return `+34 9${d(2)} ${d(3)} ${d(3)}`;
    case 'ie': return `+353 1 ${d(3)} ${d(4)}`;
    case 'au': return `(0${rng.int(2, 8)}) ${d(4)} ${d(4)}`;
    case 'nl': return `+31 20 ${d(3)} ${d(4)}`;
    default: return `(${rng.int(201, 989)}) ${d(3)}-${d(4)}`;
  }
}

export function emailFor(rng, name, org) {
  const [f, l] = name.toLowerCase().normalize('NFKD').replace(/[^a-z ]/g, '').split(' ');
  const dom = org.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '').slice(0, 14) || 'mail';
  const tld = rng.pick(['com', 'co.uk', 'de', 'fr', 'es', 'io', 'net', 'eu']);
  const local = rng.pick([`${f}.${l}`, `${f[0]}${l}`, f, `${f}_${l}`]);
  return `${local}@${dom}.${tld}`;
}

export const PRODUCTS = {
  office: ['A4 copy paper, box of 5 reams', 'Toner cartridge black 305A', 'Ergonomic office chair', 'Whiteboard markers (12 pack)', 'Heavy duty stapler', 'LED desk lamp', 'Lever arch files (10)', 'Filing cabinet, 3 drawer', 'Dual monitor arm', 'Sticky notes 76x76', 'Laminating pouches A4', 'Shredder cross-cut'],
  it: ['Laptop 14" i7 16GB 512GB', '27-inch IPS monitor', 'USB-C docking station', 'Wireless keyboard and mouse', '24-port gigabit switch', 'NVMe SSD 1TB', 'Cat6 patch cable 2m', 'Firewall appliance', 'Software licence (12 months)', 'Rack server 1U', 'Webcam 1080p', 'UPS 1500VA'],
  services: ['Consulting services', 'Website redesign (phase 2)', 'Monthly bookkeeping', 'Legal advice', 'Graphic design work', 'Cloud hosting', 'Support retainer', 'Translation EN>DE', 'Photography session', 'Office cleaning', 'Plumbing repair labour', 'Garden maintenance', 'Software development', 'SEO audit', 'Training workshop (1 day)', 'Copywriting', 'Project management', 'On-site IT support'],
  industrial: ['Steel bolts M8x40 (box 100)', 'Hydraulic hose 1/2"', 'Pallet stretch wrap', 'Safety gloves size L', 'Cable ties 300mm (pack 100)', 'Welding rods 2.5mm', 'Corrugated boxes 40x30x30', 'Hi-vis vests', 'Bearing 6204-2RS', 'Lubricant spray 400ml', 'Copper pipe 15mm x 3m'],
};

export const SERVICE_DE = ['Beratungsleistung', 'Webdesign', 'Buchhaltung Monat', 'Wartungsvertrag', 'Montagearbeiten', 'Softwareentwicklung', 'Reinigung Büroräume', 'Fahrtkosten', 'Schulung', 'Hosting Paket'];
export const SERVICE_FR = ['Prestation de conseil', 'Conception graphique', 'Maintenance informatique', 'Frais de déplacement', 'Formation', 'Développement logiciel', 'Nettoyage des locaux', 'Hébergement web'];
export const SERVICE_ES = ['Servicios de consultoría', 'Diseño gráfico', 'Mantenimiento informático', 'Gastos de desplazamiento', 'Formación', 'Desarrollo de software', 'Limpieza de oficinas', 'Alojamiento web'];

export const GROCERY = {
  en: ['MILK 2L', 'WHOLEMEAL BREAD', 'BANANAS LOOSE', 'FREE RANGE EGGS 12', 'CHEDDAR 400G', 'GALA APPLES', 'COFFEE BEANS 1KG', 'VINE TOMATOES', 'PENNE PASTA 500G', 'OLIVE OIL 1L', 'GREEK YOGHURT', 'CHICKEN BREAST', 'BASMATI RICE', 'ORANGE JUICE', 'WASHING UP LIQ', 'TOILET ROLL 9PK', 'CARRIER BAG', 'AVOCADO', 'BUTTER 250G', 'DARK CHOC 100G', 'SPARKLING WATER', 'CEREAL 500G'],
  de: ['Vollmilch 1L', 'Brötchen', 'Butter', 'Gouda Scheiben', 'Äpfel', 'Mineralwasser', 'Kaffee gemahlen', 'Bananen', 'Joghurt Natur', 'Pfand', 'Vollkornbrot', 'Tomaten', 'Nudeln', 'Eier 10 St.', 'Spülmittel'],
  fr: ['Baguette', 'Lait demi-écrémé', 'Comté 200g', 'Pommes', 'Eau minérale', 'Café moulu', 'Croissant', 'Beurre doux', 'Yaourt nature', 'Tomates', 'Pâtes', 'Jambon', 'Vin rouge'],
  es: ['Pan de barra', 'Leche entera', 'Huevos docena', 'Aceite de oliva', 'Tomates', 'Queso manchego', 'Agua mineral', 'Café molido', 'Naranjas', 'Arroz', 'Jamón serrano', 'Yogur'],
};
export const RESTAURANT = ['Margherita pizza', 'Caesar salad', 'Burger & fries', 'Pint of lager', 'Glass house red', 'Espresso', 'Flat white', 'Tiramisu', 'Sparkling water 750ml', 'Fish tacos', 'Pad thai', 'Soup of the day', 'Garlic bread', 'Cheesecake', 'Lemonade', 'Steak frites', 'Veggie bowl', 'Iced tea'];
export const RETAIL = ['Wood screws 4x40', 'Paint brush set', 'Masking tape 25mm', 'Sandpaper P120', 'Drill bit set', 'LED bulb E27', 'Ibuprofen 200mg', 'Plasters assorted', 'Vitamin C 1000', 'Sunscreen SPF50', 'Toothpaste', 'T-shirt navy M', 'Jeans slim 32/32', 'Socks 3-pack', 'Phone charger USB-C', 'AA batteries 8pk', 'Notebook A5', 'Gel pens 4pk', 'Dog food 2kg', 'Houseplant pot'];
export const STORES = ['FreshMart', 'ValueGrocer', 'Corner Deli', 'City Hardware', 'QuickFuel', 'Green Basket', 'Pharma Plus', 'BuildIt Depot', 'Urban Threads', 'Daily Needs', 'Supermercado Sol', 'Marché Central', 'Bäckerei Korn', 'Drogerie Blau', 'Café Lumen', 'The Copper Kettle', 'Trattoria Rossi', 'Noodle House', 'Harbor Books', 'TechCorner'];

export const TXN = {
  en: ['CARD PAYMENT FRESHMART', 'DIRECT DEBIT CITY ENERGY', 'SALARY {co}', 'ATM WITHDRAWAL', 'TRANSFER TO SAVINGS', 'STANDING ORDER RENT', 'ONLINE MKTPLACE', 'STREAMING SUBSCR', 'INTEREST PAID', 'MONTHLY ACCOUNT FEE', 'CARD PAYMENT QUICKFUEL', 'FASTER PAYMENT FROM {p}', 'DD COUNCIL TAX', 'MOBILE PHONE PLAN', 'CONTACTLESS CAFE LUMEN', 'REFUND URBAN THREADS', 'INSURANCE PREMIUM', 'GYM MEMBERSHIP', 'CHQ DEPOSIT', 'INTL TRANSFER FEE'],
  de: ['Kartenzahlung BÄCKEREI KORN', 'SEPA-Lastschrift Stadtwerke', 'Gehalt {co}', 'Bargeldauszahlung Geldautomat', 'Dauerauftrag Miete', 'Überweisung an {p}', 'Gutschrift {p}', 'Kontoführungsgebühr', 'Zinsen', 'SEPA-Lastschrift Versicherung', 'Kartenzahlung Drogerie Blau'],
  fr: ['CB MARCHE CENTRAL', 'PRLV SEPA EDF', 'VIR SALAIRE {co}', 'RETRAIT DAB', 'VIR PERMANENT LOYER', 'VIR SEPA {p}', 'FRAIS TENUE DE COMPTE', 'CB PHARMACIE', 'PRLV ASSURANCE'],
  es: ['PAGO TARJETA SUPERMERCADO SOL', 'RECIBO LUZ', 'NOMINA {co}', 'RETIRADA CAJERO', 'TRANSFERENCIA A {p}', 'COMISION MANTENIMIENTO', 'BIZUM {p}', 'RECIBO SEGURO HOGAR'],
};

export const BANKS = {
  uk: ['Thornbury Bank', 'Albion Building Society', 'Northgate Bank plc'],
  us: ['First Prairie Bank', 'Harborview Credit Union', 'Liberty National Bank'],
  de: ['Sparkasse Rheintal', 'Volksbank Alpenland', 'Nordlicht Bank AG'],
  fr: ['Banque de la Vallée', 'Crédit Lavande', 'Caisse Mutuelle du Centre'],
  es: ['Banco Mirador', 'Caja Costa Sol'],
  nl: ['Polder Bank N.V.'],
  ie: ['Shannon Bank'],
  au: ['Southern Cross Bank'],
  ca: ['Maple Trust Bank'],
};
