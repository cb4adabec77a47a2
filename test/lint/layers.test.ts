import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';

// `npm run lint` is dependency-cruiser with .dependency-cruiser.cjs: the layers of src/ as a
// gate. The gate's exit code is the subject, so its real command line runs, on a copy of
// this tree with one violation of each rule planted. It must report exactly those: so the
// tree itself passes (as .ci/run's lint step checks too).

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Lint {
  code: number;
  output: string;
}

/** `depcruise src --output-type err-long` in `dir`, with the repository's config (as `npm run lint`). */
function lint(dir: string): Promise<Lint> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'src', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err-long'],
      { cwd: dir, env: { PATH: process.env.PATH, NO_COLOR: '1' }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

/** One planted violation: the rule that must name it, and its files (the first is where it is reported). */
const PLANTED: { rule: string; files: Record<string, string> }[] = [
  { rule: 'contract-stands-alone', files: { 'src/contract/zz-planted.ts': "import type { Settings } from '../config/settings.js';\nexport type Planted = Settings;\n" } },
  { rule: 'sandbox-only-contract-and-lib', files: { 'src/sandbox/zz-planted.ts': "import { ExitCode } from '../errors.js';\nexport const planted = ExitCode.ok;\n" } },
  { rule: 'lib-stands-alone', files: { 'src/lib/zz-planted-up.ts': "import type { IO } from '../output/io.js';\nexport type Planted = IO;\n" } },
  { rule: 'domain-never-cli', files: { 'src/orders/zz-planted.ts': "import type { Context } from '../context.js';\nexport type Planted = Context;\n" } },
  { rule: 'domain-never-cli', files: { 'src/lib/zz-planted.ts': "import { positiveInt } from '../commands/parse.js';\nexport const planted = positiveInt;\n" } },
  { rule: 'orders-no-api-client', files: { 'src/orders/zz-planted-client.ts': "import type { ApiClient } from '../api/client.js';\nexport type Planted = ApiClient;\n" } },
  { rule: 'follow-track-through-ports', files: { 'src/orders/follow/zz-planted.ts': "import type { ExternalIdLookup } from '../../api/resources/orders.js';\nexport type Planted = ExternalIdLookup;\n" } },
  { rule: 'orders-api-types-only', files: { 'src/orders/zz-planted-resources.ts': "import { listOrders } from '../api/resources/orders.js';\nexport const planted = listOrders;\n" } },
  { rule: 'exit-codes-at-the-edge', files: { 'src/api/zz-planted.ts': "import { UsageError } from '../errors.js';\nexport const planted = new UsageError('no');\n" } },
  { rule: 'prompts-in-commands', files: { 'src/commands/zz-planted.ts': "export const planted = () => import('@inquirer/prompts');\n" } },
  { rule: 'own-codes-in-style', files: { 'src/commands/zz-planted-own.ts': "import { ownCode } from '../output/own-codes.js';\nexport const planted = ownCode('\\u001b[2J');\n" } },
  {
    // A circle of types only: still a circle.
    rule: 'no-circular',
    files: {
      'src/commands/zz-planted-a.ts': "import type { B } from './zz-planted-b.js';\nexport interface A { b?: B }\n",
      'src/commands/zz-planted-b.ts': "import type { A } from './zz-planted-a.js';\nexport interface B { a?: A }\n",
    },
  },
  {
    // The circle command files once made (issue 45.4): the command file's import() of its
    // implementation, and the implementation's type-only import of its options' type back.
    rule: 'no-circular',
    files: {
      'src/commands/zz-planted-lazy.command.ts': "export const plantedLazy = { name: 'planted', run: async () => (await import('./zz-planted-lazy.js')).run() };\n",
      'src/commands/zz-planted-lazy.ts': "import type { plantedLazy } from './zz-planted-lazy.command.js';\nexport const run = (definition?: typeof plantedLazy) => definition;\n",
    },
  },
];

describe('npm run lint (the layers of src/)', () => {
  it('fails on each rule broken, naming the rule and the file, and on nothing else', async () => {
    const dir = tempDir('merch-layers-');
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    cpSync(join(ROOT, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    // The packages, as the repository's (a rule keeps one package to one file).
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    for (const { files } of PLANTED) for (const [file, source] of Object.entries(files)) writeFileSync(join(dir, file), source);
    // The CLI's context takes something from the commands above it.
    appendFileSync(join(dir, 'src/context.ts'), "\nimport type { MerchProgram } from './commands/program.js';\nexport type Planted = MerchProgram;\n");

    const result = await lint(dir);
    expect(result.code, result.output).not.toBe(0);
    for (const { rule, files } of PLANTED) expect(result.output, rule).toMatch(new RegExp(`error ${rule}: ${Object.keys(files)[0]} →`));
    expect(result.output).toMatch(/error no-circular: src\/commands\/zz-planted-a\.ts → \s*src\/commands\/zz-planted-b\.ts →\s*src\/commands\/zz-planted-a\.ts/);
    expect(result.output).toMatch(/error cli-context-below-commands: src\/context\.ts → src\/commands\/program\.ts/);
    expect(result.output).toMatch(/error no-circular: src\/commands\/zz-planted-lazy\.command\.ts → \s*src\/commands\/zz-planted-lazy\.ts →\s*src\/commands\/zz-planted-lazy\.command\.ts/);
    // lib/'s plant of domain-never-cli is lib-stands-alone's too.
    expect(result.output).toMatch(/error lib-stands-alone: src\/lib\/zz-planted\.ts → src\/commands\/parse\.ts/);
    // Those fifteen and no other: the tree as it is passes.
    expect(result.output).toMatch(/x 15 dependency violations \(15 errors, 0 warnings\)/);
  }, 120_000);
});
