import { randomFillSync } from 'node:crypto';

// Crockford base32: time-sortable ids that survive case-insensitive systems.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export type IdPrefix =
  | 'org'
  | 'usr'
  | 'key'
  | 'prj'
  | 'doc'
  | 'wf'
  | 'run'
  | 'rpt'
  | 'exe'
  | 'whk'
  | 'dlv'
  | 'evt'
  | 'tpl'
  | 'mbx'
  | 'req'
  | 'rtk'
  | 'fam'
  | 'bat'
  | 'msg'
  | 'shc'
  | 'shx'
  | 'att'
  | 'inb';

let lastTime = 0;
let lastRandom: Uint8Array = new Uint8Array(10);

// Random bytes are drawn 4 KB at a time: each draw pays a native call and a Buffer allocation,
// which cost more than the rest of making an id (a pipeline run makes about ten per document).
const POOL = new Uint8Array(4096);
let poolAt = POOL.length;
function random10(): Uint8Array {
  if (poolAt + 10 > POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  poolAt += 10;
  return POOL.slice(poolAt - 10, poolAt);
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
  }
  return out;
}

/**
 * ULID-style identifier with a type prefix (`prj_01J…`). Ids made in the same millisecond by
 * one process stay ordered because the random part is incremented rather than redrawn.
 */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  if (now === lastTime) {
    const next = new Uint8Array(lastRandom);
    for (let i = next.length - 1; i >= 0; i--) {
      if (next[i] === 255) {
        next[i] = 0;
        continue;
      }
      next[i]++;
      break;
    }
    lastRandom = next;
  } else {
    lastTime = now;
    lastRandom = random10();
  }
  return `${prefix}_${encodeTime(now)}${encodeRandom(lastRandom)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`);
}
