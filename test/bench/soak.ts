// `npm run bench -- soak [minutes=60] [--rate N] [--snapshots DIR]`: runs `docpipe start` (API,
// workers and parser children in one tree, embedded PGlite, as `npm start`) for `minutes` under a
// steady mixed load (text, one-page PDFs, PNG images that go through OCR, and e-mails with a PDF
// attachment; `rate` documents a minute, default 30), and samples each minute the resident
// memory of every process in the tree and the main process's V8 heap. Prints a table and a
// chart of the tree's RSS and the heap. With --snapshots the main process writes a heap snapshot
// after the first minute and at the end (compare them in Chrome DevTools' Comparison view).
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildMessage, multipart as mime, textPart, attachmentPart } from '../helpers/mail-fixtures.js';
import { makeTextPdf, renderTextPng } from '../helpers/pdf-fixtures.js';
import { multipart } from '../helpers/multipart.js';
import { freePort, waitForPort } from '../helpers/net.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import { benchRedis, benchTmpDir, CLI, SECRETS, seed, table } from './harness.js';

const SAMPLER = pathToFileURL(fileURLToPath(new URL('./heap-sampler.js', import.meta.url))).href;
const MINUTE = 60_000;

interface Doc {
  name: string;
  data: Buffer;
  type: string;
}

/** The process and its descendants (Redis is not one: it is started apart), RSS in kB. */
function treeRss(root: number): { pid: number; kb: number }[] {
  const parent = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/status`, 'utf8');
      parent.set(Number(d), Number(/PPid:\s+(\d+)/.exec(s)?.[1]));
      rss.set(Number(d), Number(/VmRSS:\s+(\d+)/.exec(s)?.[1] ?? 0));
    } catch {
      /* exited while listed */
    }
  }
  const out: { pid: number; kb: number }[] = [];
  const walk = (pid: number) => {
    out.push({ pid, kb: rss.get(pid) ?? 0 });
    for (const [c, p] of parent) if (p === pid) walk(c);
  };
  walk(root);
  return out;
}

/** The n-th document of the mix: text, PDF, e-mail, text, PDF, image, … (images are the costly ones). */
async function makeDoc(n: number, images: Buffer[]): Promise<Doc> {
  switch (n % 6) {
    case 0:
    case 3:
      return {
        name: `note-${n}.txt`,
        data: Buffer.from(
          `Note ${n}: invoice INV-${n} for ${n}.00 EUR, due 2026-12-01.\nShipped to warehouse ${n % 7}.\n`,
        ),
        type: 'text/plain',
      };
    case 1:
    case 4:
      return {
        name: `letter-${n}.pdf`,
        data: await makeTextPdf({ pages: [[`Letter ${n}`, `Order ${n} was shipped on 2026-11-${(n % 28) + 1}.`]] }),
        type: 'application/pdf',
      };
    case 2:
      return {
        name: `mail-${n}.eml`,
        data: buildMessage({
          subject: `Invoice ${n}`,
          body: mime('mixed', [
            textPart(`Please find invoice ${n} attached.\r\n`),
            attachmentPart({
              filename: `invoice-${n}.pdf`,
              contentType: 'application/pdf',
              content: await makeTextPdf({ pages: [[`Invoice ${n}`, `Total ${n}.50 EUR`]] }),
            }),
          ]),
        }),
        type: 'message/rfc822',
      };
    default:
      return { name: `scan-${n}.png`, data: images[n % images.length], type: 'image/png' };
  }
}

async function upload(url: string, key: string, projectId: string, d: Doc): Promise<void> {
  const body = multipart({ project_id: projectId, allow_duplicate: 'true' }, d);
  const res = await fetch(`${url}/api/v1/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...body.headers },
    body: new Uint8Array(body.payload),
  });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

async function finished(url: string, key: string, projectId: string): Promise<Record<string, number>> {
  const res = await fetch(`${url}/api/v1/projects/${projectId}/stats`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { data: { documents_by_status: Record<string, number> } }).data.documents_by_status;
}

/** A terminal chart: one column per sample, `height` rows, the values' range on the axis. */
function chart(title: string, values: number[], height = 10): void {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = Math.max(1, hi - lo);
  console.log(`\n${title} (MB; ${lo}–${hi})`);
  for (let r = height - 1; r >= 0; r--) {
    const level = lo + (span * r) / (height - 1);
    const axis = String(Math.round(level)).padStart(5);
    console.log(`${axis} ┤${values.map((v) => (v >= level - span / (2 * (height - 1)) ? '█' : ' ')).join('')}`);
  }
  console.log(`      └${'─'.repeat(values.length)} minutes 0…${values.length - 1}`);
}

export async function main(args: string[]): Promise<void> {
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  const rate = Number(opt('--rate') ?? 30);
  const snapshots = opt('--snapshots');
  const minutes = Number(args[0] ?? 60);
  if (!(minutes > 0) || !(rate > 0)) throw new Error('usage: soak [minutes>0] [--rate N>0] [--snapshots DIR]');

  const modelDir = benchTmpDir('docpipe-bench-model-');
  await generateTinyModel(modelDir);
  const samples = benchTmpDir('docpipe-bench-heap-');
  if (snapshots) mkdirSync(resolve(snapshots), { recursive: true });
  const images = await Promise.all(
    [0, 1, 2].map((i) => renderTextPng([`Receipt ${i + 1}`, `Total ${12 + i}.40 EUR`], { dpi: 150 })),
  );
  const redis = await benchRedis();
  const env = {
    ...SECRETS,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `benchsoak${Date.now()}`,
    LOG_LEVEL: 'warn',
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    EMBEDDING_MODEL_DIR: modelDir,
    ALLOW_MODEL_DOWNLOAD: 'false',
    CLASSIFY_KNN: 'false',
    DATA_DIR: benchTmpDir('docpipe-bench-soak-'),
  };
  const { key, projectId } = await seed(env, { projects: 1 });
  const port = await freePort();
  const srv = spawn(process.execPath, [CLI, 'start'], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      NODE_OPTIONS: `--import ${SAMPLER}`,
      DOCPIPE_HEAP_SAMPLES: samples,
      DOCPIPE_HEAP_EVERY_MS: '5000',
      ...(snapshots ? { DOCPIPE_HEAP_SNAPSHOTS: resolve(snapshots) } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const rows: Record<string, string | number>[] = [];
  const rssSeries: number[] = [];
  const heapSeries: number[] = [];
  let sent = 0;
  try {
    await waitForPort(port, 120_000);
    const started = Date.now();
    const heapOf = (): { used: number; total: number; external: number } => {
      try {
        const lines = readFileSync(join(samples, `${srv.pid}.jsonl`), 'utf8')
          .trim()
          .split('\n');
        const last = JSON.parse(lines[lines.length - 1]) as { heapUsed: number; heapTotal: number; external: number };
        const mb = (b: number) => Math.round(b / 1048576);
        return { used: mb(last.heapUsed), total: mb(last.heapTotal), external: mb(last.external) };
      } catch {
        return { used: 0, total: 0, external: 0 };
      }
    };
    const takeSample = async (minute: number) => {
      const procs = treeRss(srv.pid!);
      const main = procs[0];
      const children = procs.slice(1);
      const by = await finished(url, key, projectId);
      const done = (by.completed ?? 0) + (by.failed ?? 0) + (by.needs_review ?? 0);
      const tree = Math.round(procs.reduce((s, p) => s + p.kb, 0) / 1024);
      const heap = heapOf();
      rssSeries.push(tree);
      heapSeries.push(heap.used);
      rows.push({
        minute,
        sent,
        done,
        failed: by.failed ?? 0,
        tree_rss_mb: tree,
        main_rss_mb: Math.round(main.kb / 1024),
        children: children.map((c) => Math.round(c.kb / 1024)).join('+') || '-',
        heap_used_mb: heap.used,
        heap_total_mb: heap.total,
        // Buffers and wasm memories outside V8's heap (PGlite's database memory among them).
        external_mb: heap.external,
        load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
      });
      console.log(`minute ${minute}: tree ${tree} MB, heap ${heap.used} MB, ${done}/${sent} done`);
    };
    await takeSample(0);
    // Documents go out evenly over each minute; a backlog is not built up (the machine is small):
    // a new one waits while more than `rate` are unfinished.
    const gap = MINUTE / rate;
    let nextSample = started + MINUTE;
    let minute = 0;
    while (minute < minutes) {
      const by = await finished(url, key, projectId);
      const done = (by.completed ?? 0) + (by.failed ?? 0) + (by.needs_review ?? 0);
      if (sent - done < rate) await upload(url, key, projectId, await makeDoc(sent++, images));
      const wait = Math.min(gap, nextSample - Date.now());
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (Date.now() >= nextSample) {
        minute++;
        nextSample += MINUTE;
        await takeSample(minute);
        if (snapshots && (minute === 1 || minute === minutes)) srv.kill('SIGUSR2');
      }
    }
  } finally {
    await new Promise<void>((r) => {
      if (srv.exitCode !== null) return r();
      srv.once('exit', () => r());
      // A heap snapshot being written holds the process; give it time before the signal lands.
      setTimeout(() => srv.kill('SIGTERM'), snapshots ? 20_000 : 0);
    });
    await redis.stop();
  }
  console.log(`\nsoak: docpipe start, ${minutes} min, ${rate} documents/min offered (text, PDF, e-mail, PNG/OCR)`);
  table(rows);
  chart('start tree RSS per minute', rssSeries);
  chart('main process V8 heap used per minute', heapSeries);
  const after = rssSeries.slice(Math.min(2, rssSeries.length - 1));
  console.log(
    `\nRSS after warm-up (minute ${Math.min(2, rssSeries.length - 1)}) ${after[0]} MB → end ${after[after.length - 1]} MB (${after[after.length - 1] - after[0] >= 0 ? '+' : ''}${after[after.length - 1] - after[0]} MB); max ${Math.max(...after)} MB`,
  );
}
