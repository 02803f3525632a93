// `npm run bench -- NAME`: runs test/bench/NAME.ts (compiled) and prints its numbers.
const name = process.argv[2];
const known = [
  'api',
  'pipeline',
  'webhooks',
  'mail',
  'sheets',
  'quality',
  'quality-calibration',
  'quality-classify',
  'classify-cv',
  'workflows',
  'extract',
  'reports',
  'scale',
  'inbound',
  'search',
  'memory',
  'reprocess',
  'soak',
];
if (!name || !known.includes(name)) {
  console.error(`usage: npm run bench -- <${known.join('|')}>`);
  process.exit(2);
}
const mod = (await import(`./${name}.js`)) as { main(args: string[]): Promise<void> };
await mod.main(process.argv.slice(3));
process.exit(0);
