// Prints the size of the built dashboard: every file, the total, and what the first load of `/`
// fetches (index.html, its entry script, the chunks it preloads and its styles), raw and gzipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = 'dist/web';
const files = [];
(function walk(d) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else files.push(p);
  }
})(dir);

const sum = (list, k) => list.reduce((n, r) => n + r[k], 0);
const kb = (n) => `${(n / 1024).toFixed(1).padStart(8)} KiB`;
const rows = files
  .map((f) => {
    const body = readFileSync(f);
    return { name: relative(dir, f), raw: statSync(f).size, gz: gzipSync(body, { level: 9 }).length };
  })
  .sort((a, b) => b.raw - a.raw);

const html = readFileSync(join(dir, 'index.html'), 'utf8');
const initial = new Set(['index.html', ...[...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1])]);

console.log('dashboard bundle (dist/web):');
// pdf.js's fonts, CMaps and decoders are fetched only by the PDF viewer, and only the ones a PDF needs.
const isData = (r) => /^assets\/pdfjs-[^/]+\//.test(r.name);
for (const r of rows.filter((x) => !isData(x)))
  console.log(`  ${r.name.padEnd(48)} ${kb(r.raw)} ${kb(r.gz)} gzip${initial.has(r.name) ? '  (first load)' : ''}`);
const data = rows.filter(isData);
if (data.length)
  console.log(
    `  ${`pdf.js fonts, CMaps, decoders (${data.length} files)`.padEnd(48)} ${kb(sum(data, 'raw'))} ${kb(sum(data, 'gz'))} gzip  (on demand)`,
  );
const first = rows.filter((r) => initial.has(r.name));
console.log(`  total ${rows.length} files: ${kb(sum(rows, 'raw')).trim()} (${kb(sum(rows, 'gz')).trim()} gzip)`);
console.log(
  `  first load of /: ${first.length} files, ${kb(sum(first, 'raw')).trim()} (${kb(sum(first, 'gz')).trim()} gzip)`,
);
