import { EmbedderUnavailableError, classifyLoadError } from './errors.js';
import { candidateFolders, missingModelFiles, type EmbedderDtype } from './model-files.js';
import { meanPoolNormalized } from './pooling.js';

/** Something that turns texts into fixed-size, L2-normalised vectors. Tests use fakes. */
export interface Embedder {
  /** Model identifier recorded with every vector, so a model change can re-embed "missing". */
  modelId: string;
  dims: number;
  /** One vector per input text, in order. Texts past the model's token limit are truncated. */
  embed(texts: string[]): Promise<number[][]>;
  /** Frees the inference session. Optional so fakes need not implement it. */
  dispose?(): Promise<void>;
}

/** Options for {@link createTransformersEmbedder}. */
export interface TransformersEmbedderOptions {
  /** Model id such as `Xenova/all-MiniLM-L6-v2` (a folder under `modelDir`), or an absolute folder path. */
  modelId: string;
  /** Folder holding `<modelId>/config.json`, `tokenizer*.json`, `onnx/model*.onnx`. Default: the library's own (inside node_modules) — always pass one. */
  modelDir?: string;
  /** Where downloads are stored (same `<modelId>/…` layout). Default: `modelDir`, so a model downloaded once becomes a local model. */
  cacheDir?: string;
  /** Whether missing files may be fetched from the model hub. No default: the caller decides. */
  allowDownload: boolean;
  /** Texts per inference call. Default 16. */
  batchSize?: number;
  /** ONNX Runtime intra-op threads. Default: the runtime's choice (all cores). */
  threads?: number;
  /** `fp32` loads `onnx/model.onnx`, `q8` loads `onnx/model_quantized.onnx` (smaller, faster). Default `fp32`. */
  dtype?: EmbedderDtype;
}

interface TensorLike {
  dims: number[];
  data: ArrayLike<number> | ArrayLike<bigint>;
}

/**
 * The slice of a transformers.js feature-extraction pipeline that we use: its tokenizer and
 * model are called directly and the pooling is ours (see pooling.ts).
 */
interface FeatureExtractor {
  tokenizer(
    texts: string[],
    opts: { padding: boolean; truncation: boolean },
  ): Record<string, TensorLike> & { attention_mask: TensorLike };
  model(inputs: Record<string, TensorLike>): Promise<Record<string, TensorLike | undefined>>;
  dispose(): Promise<void>;
}

/** Tokenise with padding and truncation, run the model, mean-pool and normalise. */
async function sentenceVectors(extractor: FeatureExtractor, texts: string[]): Promise<number[][]> {
  const inputs = extractor.tokenizer(texts, { padding: true, truncation: true });
  const out = await extractor.model(inputs);
  const hidden = out.last_hidden_state ?? out.logits ?? out.token_embeddings;
  if (!hidden) throw new Error('model gave no hidden state');
  return meanPoolNormalized(hidden.data as ArrayLike<number>, hidden.dims, inputs.attention_mask.data);
}

type TransformersModule = typeof import('@huggingface/transformers');

/**
 * Points transformers.js at the configured folders. `env` is a process-wide object inside the
 * library, so one process runs with one embedding configuration: creating a second embedder with
 * different folders or download policy changes them for the first as well. The lead wires exactly
 * one embedder (through one loader) per process.
 */
function configureEnv(tf: TransformersModule, opts: TransformersEmbedderOptions): void {
  const env = tf.env;
  env.allowLocalModels = true;
  env.allowRemoteModels = opts.allowDownload;
  if (opts.modelDir) env.localModelPath = opts.modelDir;
  const cacheDir = opts.cacheDir ?? opts.modelDir;
  if (cacheDir) env.cacheDir = cacheDir;
  env.useFSCache = true;
  env.useBrowserCache = false;
}

/**
 * Loads a sentence-embedding model with transformers.js on onnxruntime-node (CPU) and returns an
 * {@link Embedder} doing mean pooling + L2 normalisation (the same vectors as the library's
 * `pooling: 'mean', normalize: true`, with far less garbage). Runs one probe text so that a model that
 * loads but cannot run fails here, and to learn the output size.
 *
 * @throws EmbedderUnavailableError when the model cannot be loaded; `reason` says why.
 */
export async function createTransformersEmbedder(opts: TransformersEmbedderOptions): Promise<Embedder> {
  const { modelId, allowDownload } = opts;
  const dtype = opts.dtype ?? 'fp32';
  const batchSize = Math.max(1, Math.floor(opts.batchSize ?? 16));

  if (!allowDownload) {
    // Fail fast with a precise message, before the library touches anything.
    const folders = candidateFolders(modelId, [opts.modelDir, opts.cacheDir]);
    if (folders.length === 0) {
      throw new EmbedderUnavailableError(
        'not_found',
        modelId,
        `embedding model "${modelId}": no model folder configured and downloads are disabled`,
      );
    }
    const missing = await missingModelFiles(folders, dtype);
    if (missing.length > 0) {
      throw new EmbedderUnavailableError(
        'not_found',
        modelId,
        `embedding model "${modelId}" not found: missing ${missing.join(', ')} in ${folders.join(' or ')}; downloads are disabled`,
      );
    }
  }

  let tf: TransformersModule;
  try {
    tf = await import('@huggingface/transformers');
  } catch (err) {
    throw new EmbedderUnavailableError('runtime', modelId, `embedding runtime failed to load: ${messageOf(err)}`, {
      cause: err,
    });
  }
  configureEnv(tf, opts);

  let extractor: FeatureExtractor;
  let dims: number;
  try {
    const sessionOptions = opts.threads ? { intraOpNumThreads: opts.threads, interOpNumThreads: 1 } : undefined;
    extractor = (await tf.pipeline('feature-extraction', modelId, {
      local_files_only: !allowDownload,
      dtype,
      device: 'cpu',
      ...(sessionOptions ? { session_options: sessionOptions } : {}),
    })) as unknown as FeatureExtractor;
    const probe = await sentenceVectors(extractor, ['dimension probe']);
    dims = probe[0].length;
    if (probe.length !== 1 || !(dims > 0)) throw new Error(`unexpected output size ${dims}`);
  } catch (err) {
    const reason = classifyLoadError(err, allowDownload);
    throw new EmbedderUnavailableError(
      reason,
      modelId,
      `embedding model "${modelId}" could not be loaded (${reason}): ${messageOf(err)}`,
      { cause: err },
    );
  }

  // One model call at a time (ONNX Runtime already uses its threads for one batch; concurrent
  // runs on one session would contend for them and multiply memory), but texts from concurrent
  // callers share calls: whatever is waiting when a call starts goes into it, up to batchSize.
  // Each call costs a few turns of the event loop besides the inference; when the loop is busy
  // with other documents, one call per document made embedding the pipeline's queue (measured:
  // ~1.3 s of waiting in front of embed in the 200-document burst). A failing call fails the
  // texts of every caller in it; the stage's retry runs them again.
  const waiting: { text: string; resolve(v: number[]): void; reject(err: unknown): void }[] = [];
  let running: Promise<void> | null = null;
  let disposed = false;
  const drain = async (): Promise<void> => {
    while (waiting.length > 0) {
      const batch = waiting.splice(0, batchSize);
      try {
        const vectors = await sentenceVectors(
          extractor,
          batch.map((w) => w.text),
        );
        batch.forEach((w, i) => w.resolve(vectors[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
  };
  const start = (): void => {
    running ??= drain().finally(() => {
      running = null;
      // Texts queued after the loop's last look, before this ran.
      if (waiting.length > 0) start();
    });
  };

  return {
    modelId,
    dims,
    embed(texts: string[]): Promise<number[][]> {
      if (disposed) return Promise.reject(new Error('embedder disposed'));
      const out = Promise.all(
        texts.map((text) => new Promise<number[]>((resolve, reject) => waiting.push({ text, resolve, reject }))),
      );
      start();
      return out;
    },
    async dispose(): Promise<void> {
      disposed = true;
      while (running) await running;
      await extractor.dispose();
    },
  };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
