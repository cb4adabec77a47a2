import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe } from 'vitest';
import { collect } from '../support/process.js';
import { TOKEN } from '../support/run-merch.js';
import { useSandbox } from '../support/sandbox.js';
import { itRunsTheBasics } from '../support/executable-basics.js';
import { useTempDirs } from '../support/temp-dir.js';

// The release's Linux arm64 executable (npm run release) for real, on an x64 machine: under
// qemu's user-mode emulation, with Debian's arm64 C libraries (libc6-arm64-cross,
// libstdc++6-arm64-cross, libatomic1-arm64-cross) as its root. The sandbox runs in this
// process. Runs when MERCH_RELEASE_DIR names the release's directory (CI, after
// `npm run release`) and qemu-user-static and those libraries are installed.
const RELEASE_DIR = process.env.MERCH_RELEASE_DIR;
const ARM64_ROOT = '/usr/aarch64-linux-gnu';
const QEMU = spawnSync('sh', ['-c', 'command -v qemu-aarch64-static'], { encoding: 'utf8' }).stdout.trim();

describe.skipIf(!RELEASE_DIR || !QEMU || !existsSync(ARM64_ROOT))(`merch-linux-arm64 under qemu-aarch64-static (runs when MERCH_RELEASE_DIR is set, qemu-aarch64-static is on PATH and ${ARM64_ROOT} exists)`, () => {
  const sandbox = useSandbox();
  const newDir = useTempDirs('merch-arm64-');
  let dir: string;

  beforeAll(() => {
    dir = newDir();
  });

  // No Node on PATH, as on a machine that has only the executable.
  const exe = (args: string[]) =>
    collect(
      spawn(QEMU, ['-L', ARM64_ROOT, join(RELEASE_DIR!, 'merch-linux-arm64'), ...args], {
        cwd: dir,
        env: { PATH: '', HOME: dir, MERCH_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', MERCH_BASE_URL: sandbox().url, MERCH_TOKEN: TOKEN },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );

  itRunsTheBasics(exe, sandbox, 90_000);
});
