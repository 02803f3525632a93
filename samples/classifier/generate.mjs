#!/usr/bin/env node
// Regenerates the classifier training set: samples/classifier/<type>/NNN.txt.
// Plain Node, no dependencies, fully deterministic: every document gets its own seeded random
// stream derived from (base seed, type, index), so editing one template only changes that type.
//
//   node samples/classifier/generate.mjs [--per-type 60] [--seed 20240611] [--family-scale 1] [--out DIR]
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from './gen/rng.mjs';
import { applyNoise, flatten, ocrTypos } from './gen/noise.mjs';
import { generateInvoice } from './gen/invoice.mjs';
import { generateReceipt } from './gen/receipt.mjs';
import { generatePurchaseOrder } from './gen/purchase-order.mjs';
import { generateContract } from './gen/contract.mjs';
import { generateResume } from './gen/resume.mjs';
import { generateBankStatement } from './gen/bank-statement.mjs';
import { generateLetter } from './gen/letter.mjs';
import { generateOther } from './gen/other.mjs';
import { generateEInvoice } from './gen/einvoice.mjs';
import { generateOcrReceipt } from './gen/receipt-ocr.mjs';
import { generateAgreement } from './gen/agreement.mjs';
import { generateLongResume } from './gen/cv-long.mjs';
import { generatePaper } from './gen/paper.mjs';
import { generateMail } from './gen/mail.mjs';

const GENERATORS = {
  invoice: generateInvoice,
  receipt: generateReceipt,
  purchase_order: generatePurchaseOrder,
  contract: generateContract,
  resume: generateResume,
  bank_statement: generateBankStatement,
  letter: generateLetter,
  other: generateOther,
};

// Families written after the first set, shaped like real documents rather than tidy templates:
// `<type>/<family>-NNN.<ext>`, each family with its own random streams so the first set's files
// stay byte-identical. `.eml` files are raw messages (the sample loader converts them like an
// upload). `noise`: light damage on top (misread characters, collapsed layout) for the families
// that do not bring their own; never the cropping of applyNoise, since whole documents arrive.
const FAMILIES = [
  { type: 'invoice', family: 'einvoice', count: 80, ext: 'txt', gen: generateEInvoice, noise: true },
  { type: 'receipt', family: 'ocr', count: 80, ext: 'txt', gen: generateOcrReceipt, noise: false },
  { type: 'contract', family: 'exhibit', count: 40, ext: 'txt', gen: generateAgreement, noise: false },
  { type: 'resume', family: 'builder', count: 60, ext: 'txt', gen: generateLongResume, noise: true },
  { type: 'other', family: 'paper', count: 50, ext: 'txt', gen: generatePaper, noise: false },
  { type: 'other', family: 'mail', count: 70, ext: 'eml', gen: generateMail, noise: false },
];

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  return typeof fallback === 'number' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}

function hashString(s) {
  let h = 2166136261;
  for (const ch of s) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}

const perType = arg('per-type', 60);
const seed = arg('seed', 20240611);
const root = arg('out', dirname(fileURLToPath(import.meta.url)));

for (const [type, gen] of Object.entries(GENERATORS)) {
  const dir = join(root, type);
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (/^(?:[a-z]+-)?\d+\.(?:txt|eml)$/.test(f)) rmSync(join(dir, f));
  for (let i = 1; i <= perType; i++) {
    const rng = createRng((seed ^ hashString(type)) + i * 7919);
    const text = applyNoise(rng, gen(rng)).trim() + '\n';
    writeFileSync(join(dir, `${String(i).padStart(3, '0')}.txt`), text);
  }
  console.log(`${type}: ${perType} documents`);
}

function lightNoise(rng, text) {
  let t = text;
  if (rng.chance(0.3)) t = ocrTypos(rng, t, rng.float(0.01, 0.06));
  if (rng.chance(0.2)) t = flatten(rng, t);
  return t;
}

const scale = arg('family-scale', 1);
for (const { type, family, count, ext, gen, noise } of FAMILIES) {
  const dir = join(root, type);
  const n = Math.round(count * scale);
  for (let i = 1; i <= n; i++) {
    const rng = createRng((seed ^ hashString(`${type}:${family}`)) + i * 7919);
    const raw = gen(rng);
    const text = ext === 'eml' ? raw : `${(noise ? lightNoise(rng, raw) : raw).trim()}\n`;
    writeFileSync(join(dir, `${family}-${String(i).padStart(3, '0')}.${ext}`), text);
  }
  console.log(`${type}/${family}: ${n} documents`);
}
