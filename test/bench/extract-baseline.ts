// The extraction code of an earlier commit, loaded next to the current one so that a benchmark
// can time both in the same run (this machine's speed drifts by tens of percent over minutes,
// so a figure from another day is no baseline). The commit's src/pipeline and src/lib are
// taken with `git archive` into a temporary folder (no worktree, nothing in the repository
// changes), compiled with the project's TypeScript compiler, and imported.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/lib/package-root.js';

/** What the benchmark calls of the earlier code (only what the extract stage called then). */
export interface BaselineExtraction {
  commit: string;
  extractFields: (input: { text: string; type: string; templates?: unknown[]; templateText?: string }) => {
    fields: Record<string, unknown>;
  };
  parseTemplateYaml: (
    text: string,
    opts: { name: string },
  ) => { ok: true; templates: unknown[] } | { ok: false; errors: unknown[] };
  packLayout: (pages: unknown[], ...rest: unknown[]) => unknown;
  layoutText: (stored: unknown, text: string) => string;
  dispose: () => void;
}

/**
 * Compiles and loads the extraction code of `ref`. Throws with the reason (no git, unknown
 * commit, compile failure) so the caller can print it instead of a figure.
 */
export async function loadBaselineExtraction(ref: string): Promise<BaselineExtraction> {
  const root = packageRoot();
  const dir = mkdtempSync(join(tmpdir(), 'docpipe-extract-baseline-'));
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', `${ref}^{commit}`], {
      cwd: root,
      encoding: 'utf8',
    }).trim();
    const tar = execFileSync('git', ['archive', commit, 'src/pipeline', 'src/lib'], {
      cwd: root,
      maxBuffer: 256 << 20,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
    // The compiled files resolve their packages through this link to the current node_modules.
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
    const entries = ['src/pipeline/extract/index.ts', 'src/pipeline/parse/pdf-layout.ts'].filter((f) =>
      existsSync(join(dir, f)),
    );
    // Type errors do not matter here (only the emitted JavaScript is run): tsc still emits.
    try {
      execFileSync(
        process.execPath,
        [
          tsc,
          '--ignoreConfig',
          '--target',
          'ES2022',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--lib',
          'ES2023',
          '--types',
          'node',
          '--skipLibCheck',
          '--esModuleInterop',
          '--resolveJsonModule',
          '--outDir',
          'out',
          '--rootDir',
          '.',
          ...entries,
        ],
        { cwd: dir, stdio: 'pipe' },
      );
    } catch (e) {
      if (!existsSync(join(dir, 'out', 'src', 'pipeline', 'extract', 'index.js')))
        throw new Error(`compiling ${commit}'s extraction failed: ${String((e as { stdout?: Buffer }).stdout ?? e)}`, {
          cause: e,
        });
    }
    const extract = await import(pathToFileURL(join(dir, 'out', 'src', 'pipeline', 'extract', 'index.js')).href);
    const layout = await import(pathToFileURL(join(dir, 'out', 'src', 'pipeline', 'parse', 'pdf-layout.js')).href);
    return {
      commit,
      extractFields: extract.extractFields,
      parseTemplateYaml: extract.parseTemplateYaml,
      packLayout: layout.packLayout,
      layoutText: layout.layoutText,
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
