import { stat } from 'node:fs/promises';
import path from 'node:path';

/** Weight precision of the ONNX file to load; maps to the file name transformers.js looks for. */
export type EmbedderDtype = 'fp32' | 'q8';

/** Files a feature-extraction model needs, relative to its folder. */
export function requiredModelFiles(dtype: EmbedderDtype): string[] {
  return [
    'config.json',
    'tokenizer.json',
    'tokenizer_config.json',
    dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx',
  ];
}

/**
 * Folders where transformers.js will look for `modelId`'s files without downloading: the local
 * model folder and the download cache (both use `<root>/<modelId>/<file>`). An absolute model id
 * is used as the folder itself, as the library does.
 */
export function candidateFolders(modelId: string, roots: (string | undefined)[]): string[] {
  if (path.isAbsolute(modelId)) return [modelId];
  const out: string[] = [];
  for (const root of roots) {
    if (root && !out.includes(path.join(root, modelId))) out.push(path.join(root, modelId));
  }
  return out;
}

async function isNonEmptyFile(p: string): Promise<boolean> {
  try {
    const s = await stat(p);
    return s.isFile() && s.size > 0;
  } catch {
    return false;
  }
}

/**
 * Returns the required files that exist in none of the folders (empty array = all present).
 * Checked up front because the library memoises "file does not exist" answers for the life of
 * the process, so letting it probe a half-installed folder would poison later retries; it also
 * gives a clearer message than the library's.
 */
export async function missingModelFiles(folders: string[], dtype: EmbedderDtype): Promise<string[]> {
  const missing: string[] = [];
  for (const file of requiredModelFiles(dtype)) {
    let found = false;
    for (const folder of folders) {
      if (await isNonEmptyFile(path.join(folder, file))) {
        found = true;
        break;
      }
    }
    if (!found) missing.push(file);
  }
  return missing;
}
