// `npm run bench -- pipeline [count]`: 200 two-page PDFs through the real pipeline (API upload,
// BullMQ stages, database) against the same four stage functions called directly in one process
// (the floor); single-document latency; worker RSS over 1,000 documents; classifier quality.
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { packageRoot } from '../../src/lib/package-root.js';
import {
  classify,
  evaluate,
  loadBuiltinModel,
  loadSampleSet,
  splitDeterministic,
  trainClassifier,
  type ClassifierModel,
} from '../../src/pipeline/classify/index.js';
import { createTransformersEmbedder, embedDocument } from '../../src/pipeline/embed/index.js';
import { extractFields } from '../../src/pipeline/extract/index.js';
import { createPdfEngine, parseDocument } from '../../src/pipeline/parse/index.js';
import { multipart, type MultipartBody } from '../helpers/multipart.js';
import { makeTextPdf } from '../helpers/pdf-fixtures.js';
import { generateTinyModel } from '../helpers/tiny-model.js';
import {
  benchPostgres,
  benchRedis,
  benchTmpDir,
  cpuSecs,
  seed,
  SECRETS,
  cpuSpent,
  postgresCpuSecs,
  treeCpuSecs,
  startDocpipe,
  table,
} from './harness.js';

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const round = (x: number) => Math.round(x * 10) / 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds per thread name of a process (BENCH_THREADS=1 prints where the CPU went). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = `${f.slice(f.indexOf('(') + 1, f.lastIndexOf(')'))}#${tid}`;
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      out.set(name, (out.get(name) ?? 0) + (Number(rest[11]) + Number(rest[12])) / 100);
    } catch {
      /* thread ended */
    }
  }
  return out;
}

/** Two-page PDFs from the labelled samples (mixed types), each made unique by a serial line. */
async function makeCorpus(n: number): Promise<{ name: string; pdf: Buffer }[]> {
  const samples = await loadSampleSet(join(packageRoot(), 'samples', 'classifier'));
  const out: { name: string; pdf: Buffer }[] = [];
  for (let i = 0; i < n; i++) {
    const s = samples[(i * 7) % samples.length];
    const lines = s.text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.slice(0, 110).replace(/[^\x20-\x7E\xA0-\xFF€]/g, '?')); // standard PDF fonts encode WinAnsi only
    const half = Math.ceil(lines.length / 2);
    const pages = [
      [...lines.slice(0, half), `Reference ${i}`],
      lines.slice(half).length ? lines.slice(half) : ['(continued)'],
    ];
    out.push({ name: `${s.type}-${i}.pdf`, pdf: await makeTextPdf({ pages }) });
  }
  return out;
}

/** Both sides first process this many documents untimed, so the JIT has compiled the hot code. */
const WARMUP = 50;
/** Floor / pipeline pairs measured back to back. */
const PAIRS = 3;

interface FloorPass {
  perMinute: number;
  times: Record<string, number[]>;
  cpuMsPerDoc: number;
}

/** The four stage functions in this process, no queue, no database: one pass per call. */
async function createFloor(files: { pdf: Buffer }[], modelDir: string, model: ClassifierModel, others: () => number[]) {
  const embedder = await createTransformersEmbedder({
    modelId: 'docpipe-test/tiny-bert',
    modelDir,
    allowDownload: false,
    threads: loadConfig({ ...SECRETS, NODE_ENV: 'production' }).EMBEDDING_THREADS,
  }); // as the service runs it
  const pdf = createPdfEngine({ workers: 1 });
  for (const f of files.slice(0, WARMUP)) {
    const parsed = await parseDocument({ bytes: f.pdf, filename: 'x.pdf', maxPages: 500 }, { pdf });
    await embedDocument(parsed.text, embedder);
    extractFields({ text: parsed.text, type: classify(model, parsed.text).type });
  }
  return {
    async pass(): Promise<FloorPass> {
      const times: Record<string, number[]> = { parse: [], embed: [], classify: [], extract: [] };
      const started = performance.now();
      const cpu0 = process.cpuUsage();
      // The parser process is this process's child; the service's processes are excluded.
      const parser0 = treeCpuSecs(process.pid, { withRoot: false, exclude: others() });
      for (const f of files) {
        let t = performance.now();
        const parsed = await parseDocument({ bytes: f.pdf, filename: 'x.pdf', maxPages: 500 }, { pdf });
        times.parse.push(performance.now() - t);
        t = performance.now();
        await embedDocument(parsed.text, embedder);
        times.embed.push(performance.now() - t);
        t = performance.now();
        const c = classify(model, parsed.text);
        times.classify.push(performance.now() - t);
        t = performance.now();
        extractFields({ text: parsed.text, type: c.type });
        times.extract.push(performance.now() - t);
      }
      const secs = (performance.now() - started) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const parser = cpuSpent(parser0, treeCpuSecs(process.pid, { withRoot: false, exclude: others() }));
      return {
        perMinute: (files.length / secs) * 60,
        times,
        cpuMsPerDoc: ((cpu.user + cpu.system) / 1000 + parser * 1000) / files.length,
      };
    },
    close: () => pdf.close(),
  };
}

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as any;
}

/**
 * The load generator shares the two cores with the service it measures, so it is kept cheap:
 * prebuilt bodies over kept-alive sockets with node:http (fetch + FormData cost ~2 ms of this
 * process's CPU per upload, about a tenth of what the whole service spends on a document).
 */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** A document upload, built before anything is timed. */
const upload = (projectId: string, name: string, data: Buffer, type = 'application/pdf') =>
  multipart({ project_id: projectId, allow_duplicate: 'true' }, { name, data, type });

function post(url: string, key: string, u: MultipartBody): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/v1/documents`,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${key}`, ...u.headers, 'content-length': u.payload.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res
          .on('data', (c: Buffer) => chunks.push(c))
          .on('end', () => {
            try {
              resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
            } catch (err) {
              reject(err);
            }
          })
          .on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(u.payload);
  });
}

async function uploadAll(url: string, key: string, uploads: MultipartBody[], concurrency = 8): Promise<string[]> {
  const ids: string[] = [];
  let i = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (i < uploads.length) {
        const { status, json } = await post(url, key, uploads[i++]);
        if (status !== 201) throw new Error(`upload failed: ${status} ${JSON.stringify(json.error)}`);
        ids.push(json.data.id);
      }
    }),
  );
  return ids;
}

const TERMINAL = ['completed', 'failed', 'needs_review'];

/**
 * Waits until `expected` documents of the project are terminal. With `last` (the document
 * uploaded last), it first polls only that one (a key lookup) and lets the project's stats, three
 * aggregate queries over all its documents, confirm the end: polling the stats every 100 ms
 * throughout cost the server a few percent of its event loop during the timed run.
 */
async function waitAll(
  url: string,
  key: string,
  projectId: string,
  expected: number,
  opts: { last?: string; timeoutMs?: number } = {},
): Promise<Record<string, number>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
  const late = () => {
    if (Date.now() > deadline) throw new Error('timed out waiting for the pipeline');
  };
  if (opts.last) {
    while (!TERMINAL.includes((await api(url, key, 'GET', `/documents/${opts.last}`)).data.status)) {
      late();
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  for (;;) {
    const stats = (await api(url, key, 'GET', `/projects/${projectId}/stats`)).data;
    const by = stats.documents_by_status as Record<string, number>;
    const terminal = (by.completed ?? 0) + (by.failed ?? 0) + (by.needs_review ?? 0);
    if (terminal >= expected) return by;
    late();
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function main(args: string[]): Promise<void> {
  const total = Number(args[0] ?? 1000);
  const N = 200;
  const modelRoot = benchTmpDir('docpipe-bench-model-');
  await generateTinyModel(modelRoot);
  console.log(`generating ${N} two-page PDFs…`);
  const files = await makeCorpus(N);
  const builtin = await loadBuiltinModel(join(packageRoot(), 'samples', 'classifier'));

  console.log('floor: the four stage functions in one process, no queue, no database (warm-up)…');
  const servicePids: number[] = [];
  const floor = await createFloor(files, modelRoot, builtin, () => servicePids);

  const redis = await benchRedis();
  const pgdb = process.env.DATABASE_URL ? await benchPostgres() : null;
  const env: Record<string, string> = {
    ...SECRETS,
    REDIS_URL: redis.url,
    REDIS_PREFIX: `benchpipe${Date.now()}`,
    LOG_LEVEL: 'warn',
    DATA_DIR: benchTmpDir('docpipe-bench-pipe-'),
    EMBEDDING_MODEL: 'docpipe-test/tiny-bert',
    EMBEDDING_MODEL_DIR: modelRoot,
    ALLOW_MODEL_DOWNLOAD: 'false',
    CLASSIFY_KNN: 'false',
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
  };
  const { key, projectId } = await seed(env, { projects: 1 });
  const srv = await startDocpipe('start', env);
  const pid = srv.child.pid!;
  servicePids.push(pid, ...(redis.pid ? [redis.pid] : []));
  const results: Record<string, string | number>[] = [];
  try {
    // Warm-up: one document so models are loaded before anything is timed.
    const bodies = files.map((f) => upload(projectId, f.name, f.pdf));
    await uploadAll(srv.url, key, bodies.slice(0, 1));
    await waitAll(srv.url, key, projectId, 1);
    const rssBefore = rssMb(pid);
    console.log(`warm-up: ${WARMUP} documents, untimed…`);
    await uploadAll(srv.url, key, bodies.slice(0, WARMUP));
    await waitAll(srv.url, key, projectId, WARMUP + 1);

    // This machine's speed drifts over minutes, so the floor and the pipeline are measured in
    // back-to-back pairs (a floor pass, then the same documents through the service) and the
    // ratio is the median of the pairs' ratios.
    /** One timed pass of `uploads` through the service, with the CPU each process spent on it. */
    const servicePass = async (uploads: MultipartBody[], project: string, expectedAfter: number) => {
      const t0 = performance.now();
      const cpu0 = cpuSecs(pid);
      const redisCpu0 = redis.pid ? cpuSecs(redis.pid) : NaN;
      const benchCpu0 = process.cpuUsage();
      const threads0 = threadCpu(pid);
      const children0 = treeCpuSecs(pid, { withRoot: false });
      const postgres0 = pgdb ? postgresCpuSecs() : new Map<number, number>();
      const uploaded = await uploadAll(srv.url, key, uploads);
      const by = await waitAll(srv.url, key, project, expectedAfter, { last: uploaded[uploaded.length - 1] });
      const secs = (performance.now() - t0) / 1000;
      const benchCpu = process.cpuUsage(benchCpu0);
      const childrenSecs = cpuSpent(children0, treeCpuSecs(pid, { withRoot: false }));
      const postgresSecs = pgdb ? cpuSpent(postgres0, postgresCpuSecs()) : 0;
      const n = uploads.length;
      if (process.env.BENCH_THREADS)
        for (const [name, s] of [...threadCpu(pid)].filter(([t, v]) => v - (threads0.get(t) ?? 0) > 0.05))
          console.log(`  thread ${name}: ${round(((s - (threads0.get(name) ?? 0)) * 1000) / n)} ms/doc`);
      return {
        perMinute: (n / secs) * 60,
        by,
        wallMs: (secs * 1000) / n,
        serverCpuMs: ((cpuSecs(pid) - cpu0) * 1000) / n,
        redisCpuMs: redis.pid ? ((cpuSecs(redis.pid) - redisCpu0) * 1000) / n : NaN,
        childrenCpuMs: (childrenSecs * 1000) / n,
        postgresCpuMs: (postgresSecs * 1000) / n,
        benchCpuMs: (benchCpu.user + benchCpu.system) / 1000 / n,
      };
    };
    // What the service costs around the stages: one-line text documents (parse, embedding and
    // extraction next to nothing; a project threshold of 0 so every one goes through all four
    // stages). The probe's CPU per document plus the floor's stage CPU bounds what two cores can
    // do, however the work is scheduled. It runs inside each pair, right after the pipeline
    // pass, because the machine's speed drifts: a bound mixing a fast moment's probe with a slow
    // moment's floor would say little.
    const probeProject = (
      await api(srv.url, key, 'POST', '/projects', { name: 'overhead probe', classification_threshold: 0 })
    ).data.id as string;
    const notes = Array.from({ length: N }, (_, i) =>
      upload(probeProject, `note-${i}.txt`, Buffer.from(`Note ${i}: the delivery arrived on time.\n`), 'text/plain'),
    );
    await uploadAll(srv.url, key, notes.slice(0, 20));
    await waitAll(srv.url, key, probeProject, 20);
    let probed = 20;

    type Pass = Awaited<ReturnType<typeof servicePass>>;
    const pairs: (Pass & { floor: FloorPass; probe: Pass; ceiling: number })[] = [];
    let expected = WARMUP + 1;
    for (let pass = 1; pass <= PAIRS; pass++) {
      console.log(`pair ${pass}: floor pass, ${N} documents uploaded through the API, then the overhead probe…`);
      const fl = await floor.pass();
      expected += N;
      const pipe = await servicePass(bodies, projectId, expected);
      probed += N;
      const probe = await servicePass(notes, probeProject, probed);
      const probeCpu =
        probe.serverCpuMs +
        probe.childrenCpuMs +
        probe.postgresCpuMs +
        (Number.isFinite(probe.redisCpuMs) ? probe.redisCpuMs : 0) +
        probe.benchCpuMs;
      pairs.push({ floor: fl, ...pipe, probe, ceiling: (2 * 60_000) / (probeCpu + fl.cpuMsPerDoc) / fl.perMinute });
    }
    await floor.close();
    const ratioOf = (p: (typeof pairs)[number]) => p.perMinute / p.floor.perMinute;
    const mid = [...pairs].sort((x, y) => ratioOf(x) - ratioOf(y))[Math.floor(pairs.length / 2)];
    const fl = mid.floor;

    // Stage gaps from the stored timestamps (queue wait included).
    const docs = (await api(srv.url, key, 'GET', `/documents?project_id=${projectId}&per_page=100`)).data as any[];
    const gap = (a: string, b: string) =>
      docs
        .map((d) => new Date(d.timestamps[b]).getTime() - new Date(d.timestamps[a]).getTime())
        .filter((x) => Number.isFinite(x));
    const gaps = {
      parse: gap('uploaded_at', 'parsed_at'),
      embed: gap('parsed_at', 'embedded_at'),
      classify: gap('embedded_at', 'classified_at'),
      extract: gap('classified_at', 'extracted_at'),
    };

    console.log('single-document latency: 20 one-page PDFs, one at a time…');
    const single: number[] = [];
    for (let i = 0; i < 20; i++) {
      const one = upload(
        projectId,
        `lat-${i}.pdf`,
        await makeTextPdf({
          pages: [
            [`Invoice No: LAT-${i}`, 'Invoice date: 01.02.2024', 'Total: 12.00 EUR', 'Thank you for your business'],
          ],
        }),
      );
      const t = performance.now();
      const [id] = await uploadAll(srv.url, key, [one], 1);
      for (;;) {
        const d = (await api(srv.url, key, 'GET', `/documents/${id}`)).data;
        if (TERMINAL.includes(d.status)) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      single.push(performance.now() - t);
    }

    const done = WARMUP + PAIRS * N + 21;
    if (total > done) {
      console.log(`RSS soak: ${total - done} more documents…`);
      const more: MultipartBody[] = [];
      for (let i = 0; i < total - done; i++) more.push(bodies[i % bodies.length]);
      const soaked = await uploadAll(srv.url, key, more);
      await waitAll(srv.url, key, projectId, total, { last: soaked[soaked.length - 1], timeoutMs: 1_200_000 });
    }
    const rssAfter = rssMb(pid);

    console.log(
      '\nPipeline benchmark (2 cores, tiny generated embedding model, default WORKER_CONCURRENCY=2, ' +
        (pgdb ? 'PostgreSQL' : 'PGlite') +
        ')\n',
    );
    table(
      pairs.map((p, i) => ({
        pair: i + 1,
        'floor docs/min': Math.round(p.floor.perMinute),
        'pipeline docs/min': Math.round(p.perMinute),
        ratio: `${(ratioOf(p) * 100).toFixed(1)}%`,
        'floor CPU ms/doc': round(p.floor.cpuMsPerDoc),
        'server CPU ms/doc': round(p.serverCpuMs),
        'children ms/doc': round(p.childrenCpuMs),
        'PostgreSQL ms/doc': round(p.postgresCpuMs),
        'Redis ms/doc': round(p.redisCpuMs),
        'load gen ms/doc': round(p.benchCpuMs),
        'wall ms/doc': round(p.wallMs),
      })),
    );
    console.log(
      `\nmedian pair: pipeline ${Math.round(mid.perMinute)} docs/min = ${(ratioOf(mid) * 100).toFixed(1)}% of the floor's ${Math.round(fl.perMinute)} (${JSON.stringify(mid.by)})`,
    );
    console.log(
      'CPU per document: all threads of each process during its pass; floor = this process and its parser process, server = the docpipe process, children = its parser processes, PostgreSQL = every postgres process on the machine',
    );
    console.log(
      '\noverhead probe, right after each pipeline pass: one-line text documents through all four stages; ceiling = both cores at 100%',
    );
    console.log(
      "divided by (the probe's CPU per document with its children, PostgreSQL, Redis and the load generator + the pair's floor CPU per document), as a share of that floor",
    );
    table(
      pairs.map((p, i) => ({
        pair: i + 1,
        'probe docs/min': Math.round(p.probe.perMinute),
        'probe server CPU ms/doc': round(p.probe.serverCpuMs),
        'probe children ms/doc': round(p.probe.childrenCpuMs),
        'probe PostgreSQL ms/doc': round(p.probe.postgresCpuMs),
        'probe Redis ms/doc': round(p.probe.redisCpuMs),
        'probe load gen ms/doc': round(p.probe.benchCpuMs),
        ceiling: `${(p.ceiling * 100).toFixed(1)}%`,
        'pipeline ÷ ceiling': `${((ratioOf(p) / p.ceiling) * 100).toFixed(1)}%`,
      })),
    );
    console.log(`median ceiling: ${(median(pairs.map((p) => p.ceiling)) * 100).toFixed(1)}% of the floor`);
    console.log('');
    for (const s of ['parse', 'embed', 'classify', 'extract'] as const) {
      results.push({
        stage: s,
        'floor p50 ms': round(pct(fl.times[s], 50)),
        'floor p95 ms': round(pct(fl.times[s], 95)),
        'pipeline gap p50 ms': round(pct(gaps[s], 50)),
        'pipeline gap p95 ms': round(pct(gaps[s], 95)),
      });
    }
    table(results);
    console.log(
      `\nsingle 1-page PDF upload→completed: p50 ${round(pct(single, 50))} ms, p95 ${round(pct(single, 95))} ms (n=20)`,
    );
    console.log(
      `worker RSS: ${round(rssBefore)} MB before, ${round(rssAfter)} MB after ${Math.max(total, done)} PDFs and ${probed} probe text documents (growth ${round(rssAfter - rssBefore)} MB)`,
    );
  } finally {
    agent.destroy();
    await srv.stop();
    await redis.stop();
    await pgdb?.drop();
  }

  const all = await loadSampleSet(join(packageRoot(), 'samples', 'classifier'));
  const { train, test } = splitDeterministic(all, 0.25, 42);
  const model = trainClassifier(train);
  const report = evaluate(model, test);
  console.log(
    `classifier on a held-out 25% of samples/ (n=${report.n}): macro-F1 ${report.macroF1.toFixed(3)}, accuracy ${report.accuracy.toFixed(3)}, ECE ${report.ece.toFixed(3)}`,
  );
}
