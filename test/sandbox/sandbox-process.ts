import { spawn } from 'node:child_process';
import { onTestFinished } from 'vitest';
import { BIN, ROOT } from '../support/process.js';
import { ACME, call } from './helpers.js';
import { recipient } from './order-fixtures.js';

/** `merch sandbox` as a real process (bin/merch.js), for the tests whose subject is the process: signals, SIGKILL, a busy event loop. */
export interface SandboxProcess {
  url: string;
  /** Resolves when the process has ended, with its exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** Everything written to stderr so far. */
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `merch sandbox --port 0 --quiet ARGS` and resolves once it listens; killed when the test ends, if still running. */
export async function startSandboxProcess(args: string[]): Promise<SandboxProcess> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--quiet', '--catalog', '20', ...args], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const found = /listening on (http:\/\/\S+?);/.exec(stderr);
      if (found) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`merch sandbox exited (${code}) before listening: ${stderr}`)));
  });
  return { url, exited, stderr: () => stderr, kill: (signal) => child.kill(signal) };
}

/** An order of `count` shipping orders, one shirt each, of the account's first product (as `orders create --recipients` sends a batch). */
export async function orderOf(sandbox: { url: string }, count: number): Promise<object> {
  const methods = (await call(sandbox, '/v1/payment-methods/', { token: ACME })).body;
  const products = (await call(sandbox, '/v1/custom-products', { token: ACME })).body.results;
  const product = products[0];
  return {
    payment_method_id: methods.card[0].id,
    line_items: [
      {
        id: 1,
        product: product.id,
        quantity: count,
        attributes: { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name },
      },
    ],
    shipping_orders: Array.from({ length: count }, (_, index) => ({ recipient: recipient(`Row${index}`), line_items: [{ id: 1, quantity: 1 }] })),
  };
}
