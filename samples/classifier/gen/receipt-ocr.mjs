// Receipts as OCR returns them from a photo or scan of a till slip: one text box per line, so
// labels and values land on separate lines, columns come apart, words get misread. Many are
// South-East-Asian GST slips headed "TAX INVOICE" or "CASH BILL" (they are receipts all the
// same), others are petrol, restaurant, pharmacy and supermarket slips from elsewhere.
import { ocrTypos } from './noise.mjs';

const NAME_A = ['SIN', 'KEDAI', 'PASAR', 'MEGA', 'GOLDEN', 'LIAN', 'HUP', 'SENG', 'JAYA', 'MAJU', 'BESTARI', 'UNITED', 'PERMAI', 'RESTORAN', 'SRI', 'AIK', 'HENG', 'WAH', 'KIM', 'TECK', 'FAMILY', 'HOME', 'BOOK', 'SYARIKAT'];
const NAME_B = ['HARDWARE', 'TRADING', 'ENTERPRISE', 'MINI MARKET', 'STATIONERY', 'BAKERY', 'FARMASI', 'ELECTRICAL', 'RESTAURANT', 'FOOD CORNER', 'SUPERMARKET', 'BOOKSTORE', 'MACHINERY', 'PAINT CENTRE', 'CAFE', 'DEPARTMENT STORE', 'AUTO PARTS'];
const ROAD = ['JALAN', 'JLN', 'LORONG', 'PERSIARAN', 'LEBUH'];
const AREA = ['TAMAN', 'BANDAR', 'KAMPUNG', 'SEKSYEN'];
const TOWN = [['KAJANG', 'SELANGOR', '43000'], ['PETALING JAYA', 'SELANGOR', '47301'], ['KUALA LUMPUR', 'W.P.', '53000'], ['SHAH ALAM', 'SELANGOR', '40150'], ['JOHOR BAHRU', 'JOHOR', '81100'], ['SERI KEMBANGAN', 'SELANGOR', '43300'], ['PUCHONG', 'SELANGOR', '47100'], ['IPOH', 'PERAK', '30450'], ['KLANG', 'SELANGOR', '41200']];
const GOODS = {
  hardware: ['PVC PIPE 1/2"', 'WALL PLUG 6MM', 'CABLE TIE 8"', 'MASKING TAPE 24MM', 'PAINT BRUSH 2"', 'SCREW 8X1', 'SILICONE SEALANT', 'HOSE CLIP', 'SANDPAPER #120', 'EXTENSION CORD 3M', 'PADLOCK 40MM'],
  food: ['NASI LEMAK', 'MEE GORENG', 'TEH TARIK', 'KOPI O', 'ROTI CANAI', 'CHICKEN RICE', 'WAN TAN MEE', 'ICE LEMON TEA', 'FRIED RICE', 'BAK KUT TEH', 'WHITE RICE', 'VEG', 'SOUP OF DAY'],
  shop: ['MINERAL WATER 1.5L', 'BREAD WHITE', 'EGG GRADE A 10S', 'SUGAR 1KG', 'COOKING OIL 2KG', 'DETERGENT 900G', 'TISSUE 10PKT', 'MILO 1KG', 'INSTANT NOODLE 5S', 'SHAMPOO 400ML', 'BISCUIT CRACKER'],
  stationery: ['A4 PAPER 70GSM', 'BALL PEN BLUE', 'FILE RING 2D', 'CORRECTION TAPE', 'STAPLER NO.10', 'ENVELOPE BROWN', 'NOTE BOOK A5', 'GLUE STICK', 'HIGHLIGHTER'],
  pharmacy: ['PANADOL 500MG', 'VITAMIN C 1000', 'PLASTER STRIP', 'COUGH SYRUP', 'HAND SANITIZER', 'FACE MASK 50S', 'ANTISEPTIC CREAM'],
};

const p2 = (n) => String(n).padStart(2, '0');
const money = (v) => v.toFixed(2);

function malaysianHeader(rng) {
  const name = `${rng.pick(NAME_A)} ${rng.pick(NAME_A)} ${rng.pick(NAME_B)}${rng.chance(0.6) ? ` ${rng.pick(['SDN BHD', 'SDN. BHD.', '(M) SDN BHD', 'ENTERPRISE', 'TRADING'])}` : ''}`;
  const town = rng.pick(TOWN);
  const lines = [name];
  if (rng.chance(0.7)) lines.push(rng.pick([`(${rng.digits(6)}-${rng.letters(1)})`, `CO. REG. NO: ${rng.digits(6)}-${rng.letters(1)}`, `COMPANY NO. ${rng.digits(7)}-${rng.letters(1)}`, `(${rng.digits(9)}-${rng.letters(1)})`]));
  lines.push(`${rng.pick(['NO. ', 'LOT ', '', 'G-'])}${rng.int(1, 300)}, ${rng.pick(ROAD)} ${rng.pick(NAME_A)} ${rng.int(1, 12)}/${rng.int(1, 9)},`);
  if (rng.chance(0.7)) lines.push(`${rng.pick(AREA)} ${rng.pick(NAME_A)} ${rng.pick(NAME_A)},`);
  lines.push(`${town[2]} ${town[0]}, ${town[1]}${rng.chance(0.5) ? '.' : ''}`);
  if (rng.chance(0.8)) lines.push(`TEL${rng.pick([':', ' :', ' NO:', '.'])} ${rng.pick(['03', '012', '016', '07', '05'])}-${rng.digits(rng.int(7, 8))}${rng.chance(0.3) ? ` FAX: 03-${rng.digits(8)}` : ''}`);
  if (rng.chance(0.7)) lines.push(`GST ${rng.pick(['REG NO', 'ID', 'NO', 'REG. NO.', 'ID NO'])}${rng.pick([':', ' :', ''])} ${rng.digits(12)}`);
  return lines;
}

function otherHeader(rng, kind) {
  if (kind === 'fuel') {
    return [rng.pick(['STATION SERVICE', 'ESTACION DE SERVICIO', 'STATION', 'FUEL STOP', 'TANKSTELLE']) + ` ${rng.pick(NAME_A)}`, rng.pick(['AV. HASSAN II', 'ROUTE NATIONALE 7', 'AUTOROUTE A6 AIRE DE', 'BUNDESSTRASSE 27', 'HIGHWAY 101 EXIT']) + ` ${rng.int(1, 99)}`, `${rng.pick(['TEL', 'Tél', 'Tel.'])} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)}`];
  }
  return [rng.pick(['FRESH CORNER MARKET', 'DAILY MART #' + rng.int(100, 999), 'CITY PHARMACY', 'THE NOODLE BAR', 'SUPERMARCHE DU CENTRE', 'MARKT ' + rng.pick(NAME_A)]), `${rng.int(1, 900)} ${rng.pick(['MAIN ST', 'RUE DE LA GARE', 'HAUPTSTR.', 'MARKET RD'])}`, `${rng.pick(['STORE', 'MAGASIN', 'FILIALE'])} ${rng.int(10, 9999)}`];
}

function itemsBlock(rng, goods, split) {
  const n = rng.int(1, 9);
  const rows = [];
  let total = 0;
  for (let i = 0; i < n; i++) {
    const name = rng.pick(goods);
    const qty = rng.chance(0.7) ? 1 : rng.int(2, 12);
    const unit = Math.round(rng.float(0.5, 60) * 100) / 100;
    const amt = Math.round(qty * unit * 100) / 100;
    total += amt;
    const code = rng.chance(0.4) ? rng.digits(rng.int(6, 13)) : '';
    const tax = rng.chance(0.5) ? rng.pick(['SR', 'ZR', 'S', 'Z', 'T']) : '';
    if (split) rows.push(...[code, name, String(qty), money(unit), money(amt), tax].filter(Boolean));
    else rows.push([code, `${name}`, `${qty}${rng.chance(0.5) ? ' X' : ''}`, money(unit), money(amt), tax].filter(Boolean).join(' '));
  }
  return { rows, total: Math.round(total * 100) / 100, n };
}

function label(rng, text, value, split) {
  const sep = rng.pick([':', ' :', '', ' : ']);
  if (split || rng.chance(0.3)) return [`${text}${sep}`.trim(), value];
  return [`${text}${sep} ${value}`];
}

export function generateOcrReceipt(rng) {
  const region = rng.weighted([[6, 'my'], [1, 'fuel'], [2, 'other']]);
  const goodsKind = region === 'fuel' ? 'fuel' : rng.pick(Object.keys(GOODS));
  const split = rng.chance(0.55);
  const lines = region === 'my' ? malaysianHeader(rng) : otherHeader(rng, region);
  const title = region === 'my' ? rng.weighted([[5, 'TAX INVOICE'], [2, 'SIMPLIFIED TAX INVOICE'], [2, 'CASH BILL'], [2, 'RECEIPT'], [1, 'OFFICIAL RECEIPT'], [1, 'CASH SALES'], [1, '']]) : rng.pick(['TICKET', 'RECU', 'RECEIPT', 'KASSENBON', 'TICKET CLIENT', '']);
  if (title) lines.push(title);
  const d = `${p2(rng.int(1, 28))}/${p2(rng.int(1, 12))}/${rng.pick([String(rng.int(2015, 2019)), String(rng.int(15, 19))])}`;
  const t = `${p2(rng.int(7, 22))}:${p2(rng.int(0, 59))}${rng.chance(0.4) ? `:${p2(rng.int(0, 59))}` : ''}${rng.chance(0.3) ? rng.pick([' AM', ' PM']) : ''}`;
  lines.push(...label(rng, rng.pick(['INVOICE NO', 'INV NO.', 'RECEIPT NO', 'BILL NO', 'DOC NO', 'NO', 'TRANS NO']), `${rng.pick(['CS', 'INV', 'R', 'T', ''])}${rng.digits(rng.int(5, 10))}`, split));
  lines.push(...(rng.chance(0.5) ? [`${d} ${t}`] : [...label(rng, 'DATE', d, split), ...label(rng, 'TIME', t, split)]));
  if (rng.chance(0.6)) lines.push(...label(rng, rng.pick(['CASHIER', 'SALESPERSON', 'OPERATOR', 'STAFF']), rng.pick(['ADMIN', 'LINA', 'AHMAD', 'SITI', '01', 'MANAGER', rng.digits(3)]), split));
  if (goodsKind === 'food' && rng.chance(0.6)) lines.push(...label(rng, rng.pick(['TABLE', 'TABLE NO', 'PAX']), String(rng.int(1, 30)), split));
  if (region === 'fuel') {
    const litres = rng.float(10, 60);
    const price = rng.float(1.8, 14);
    lines.push(`${rng.pick(['POMPE', 'PUMP', 'ZAPFSAEULE'])} ${rng.int(1, 12)}`, rng.pick(['GASOIL', 'SANS PLOMB 95', 'DIESEL', 'SUPER E10', 'PRIMAX 95', 'RON 95']), `${litres.toFixed(2)} L`, `${price.toFixed(2)} /L`);
    const total = Math.round(litres * price * 100) / 100;
    lines.push(...label(rng, rng.pick(['MONTANT', 'TOTAL', 'BETRAG', 'AMOUNT']), money(total), split), rng.pick(['CARTE BANCAIRE', 'ESPECES', 'CASH', 'BAR', 'CREDIT CARD']), rng.pick(['MERCI DE VOTRE VISITE', 'BONNE ROUTE', 'THANK YOU', 'GUTE FAHRT', 'A BIENTOT']));
  } else {
    if (rng.chance(0.6)) lines.push(...(split ? [rng.pick(['ITEM', 'DESCRIPTION', 'ITEM DESC', 'PRODUCT']), 'QTY', rng.pick(['PRICE', 'U.PRICE', 'U/P']), rng.pick(['AMOUNT', 'AMT', 'TOTAL'])] : [rng.pick(['ITEM QTY PRICE AMOUNT', 'DESCRIPTION QTY U/P AMT', 'QTY DESC AMOUNT'])]));
    const items = itemsBlock(rng, GOODS[goodsKind], split);
    lines.push(...items.rows);
    const gstRate = region === 'my' ? rng.pick([0, 6, 6, 6]) : rng.pick([0, 5.5, 7, 10, 20]);
    const gst = Math.round(items.total * gstRate) / 100;
    const total = Math.round((items.total + (rng.chance(0.5) ? gst : 0)) * 100) / 100;
    const rounded = Math.round(total * 20) / 20;
    if (rng.chance(0.4)) lines.push(...label(rng, rng.pick(['TOTAL QTY', 'ITEM(S)', 'NO. OF ITEMS', 'ITEM COUNT']), String(items.n), split));
    if (rng.chance(0.6)) lines.push(...label(rng, rng.pick(['SUB TOTAL', 'SUBTOTAL', 'GROSS AMOUNT', 'TOTAL SALES (EXCLUDING GST)', 'TOTAL EXCL GST']), money(items.total), split));
    if (gstRate > 0 && rng.chance(0.7)) lines.push(...label(rng, rng.pick([`GST @${gstRate}%`, `GST ${gstRate}%`, 'TOTAL GST', 'GST AMT', `TAX ${gstRate}%`]), money(gst), split));
    if (region === 'my' && rng.chance(0.5)) lines.push(...label(rng, rng.pick(['ROUNDING ADJ', 'ROUNDING', 'ROUNDING ADJUSTMENT', 'RND ADJ']), money(rounded - total), split));
    lines.push(...label(rng, rng.pick(['TOTAL', 'TOTAL (RM)', 'TOTAL AMOUNT', 'NETT TOTAL', 'ROUNDED TOTAL', 'TOTAL INCL GST', 'GRAND TOTAL', 'TOTAL SALES (INCLUSIVE OF GST)', 'AMOUNT']), `${rng.chance(0.3) ? 'RM' : ''}${money(rounded)}`, split || rng.chance(0.3)));
    const paid = rng.chance(0.5) ? rounded : Math.ceil(rounded / 10) * 10;
    lines.push(...label(rng, rng.pick(['CASH', 'CASH RECEIVED', 'TENDERED', 'PAID', 'VISA', 'MASTER', 'AMOUNT PAID', 'DEBIT CARD']), money(paid), split));
    lines.push(...label(rng, rng.pick(['CHANGE', 'CHANGE DUE', 'BALANCE', 'CHANGE (RM)']), money(paid - rounded), split));
    if (region === 'my' && gstRate > 0 && rng.chance(0.5)) lines.push(rng.pick(['GST SUMMARY', 'GST ANALYSIS', 'TAX CODE AMOUNT GST']), `SR @ ${gstRate}%`, money(items.total), money(gst), ...(rng.chance(0.3) ? ['ZR @ 0%', '0.00', '0.00'] : []));
    lines.push(...rng.sample(['THANK YOU', 'THANK YOU. PLEASE COME AGAIN', 'GOODS SOLD ARE NOT RETURNABLE', 'GOODS SOLD ARE NOT RETURNABLE & REFUNDABLE', 'THANK YOU FOR SHOPPING WITH US', 'PLEASE KEEP THIS RECEIPT FOR EXCHANGE', 'TERIMA KASIH', 'SILA DATANG LAGI', '*** CUSTOMER COPY ***', 'PRICES INCLUSIVE OF GST'], rng.int(1, 3)));
    if (rng.chance(0.3)) lines.push(d, t);
  }
  let text = lines.join('\n');
  if (rng.chance(0.6)) text = ocrTypos(rng, text, rng.float(0.02, 0.12));
  // Box-level OCR sometimes glues neighbouring boxes or drops the space inside a label.
  if (rng.chance(0.3)) text = text.replace(/ (?=[A-Z]{3,})/g, () => (rng.chance(0.15) ? '' : ' '));
  return text;
}
