// The stated Node requirement (package.json engines, README), the installed dependencies and the
// install settings must agree; a dependency bump that raises the Node floor fails here, not on a
// user's `npm install`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  allowScripts?: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[]; hasInstallScript?: boolean }>;
};

describe('install requirements', () => {
  it('every installed dependency supports every Node version package.json engines allows', () => {
    const ours = pkg.engines.node;
    const conflicts: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // Only what npm installed on this platform: platform-specific optional packages that were
      // skipped never warn.
      if (!path || !existsSync(join(root, path))) continue;
      const theirs = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!theirs) continue;
      if (!semver.subset(ours, theirs, { includePrerelease: false }))
        conflicts.push(`${path}@${entry.version} wants node ${theirs}`);
    }
    expect(conflicts).toEqual([]);
  });

  it('this Node satisfies engines', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });

  it('the README states the same requirement', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`\`${pkg.engines.node}\``);
  });

  it("onnxruntime-node's download is switched off for new and old npm alike", () => {
    // npm >= 11.16 honours allowScripts; npm 10 (bundled with Node 20) passes .npmrc settings to
    // the install script as npm_config_* variables.
    expect(pkg.allowScripts?.['onnxruntime-node']).toBe(false);
    const npmrc = readFileSync(join(root, '.npmrc'), 'utf8');
    expect(npmrc).toMatch(/^onnxruntime-node-install=skip$/m);
  });

  it('every dependency with an install script is either allowed or denied explicitly', () => {
    const policy = pkg.allowScripts ?? {};
    const names = new Set(Object.keys(policy).map((k) => k.replace(/(.)@.*$/, '$1')));
    const unreviewed = Object.entries(lock.packages)
      .filter(([path, e]) => path && e.hasInstallScript && existsSync(join(root, path)))
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length))
      .filter((name) => !names.has(name));
    expect(unreviewed).toEqual([]);
  });
});
