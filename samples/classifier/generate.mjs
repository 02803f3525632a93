#!/usr/bin/env node
// Regenerates the classifier training set: samples/classifier/<type>/NNN.txt.
// Plain Node, no dependencies, fully deterministic: every document gets its own seeded random
// stream derived from (base seed, type, index), so editing one template only changes that type.
//
//   node samples/classifier/generate.mjs [--per-type 60] [--seed 20240611] [--out DIR]
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from './gen/rng.mjs';
import { applyNoise } from './gen/noise.mjs';
import { generateInvoice } from './gen/invoice.mjs';
import { generateReceipt } from './gen/receipt.mjs';
import { generatePurchaseOrder } from './gen/purchase-order.mjs';
import { generateContract } from './gen/contract.mjs';
import { generateResume } from './gen/resume.mjs';
import { generateBankStatement } from './gen/bank-statement.mjs';
import { generateLetter } from './gen/letter.mjs';
import { generateOther } from './gen/other.mjs';

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
  for (const f of readdirSync(dir)) if (/^\d+\.txt$/.test(f)) rmSync(join(dir, f));
  for (let i = 1; i <= perType; i++) {
    const rng = createRng((seed ^ hashString(type)) + i * 7919);
    const text = applyNoise(rng, gen(rng)).trim() + '\n';
    writeFileSync(join(dir, `${String(i).padStart(3, '0')}.txt`), text);
  }
  console.log(`${type}: ${perType} documents`);
}
