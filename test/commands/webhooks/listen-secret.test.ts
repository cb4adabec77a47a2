import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { cliEnv, runMerch, startMerch, type RunningMerch } from '../../support/run-merch.js';
import { createOrder, requestsDuring, sandboxApi, useSandbox } from '../../support/sandbox.js';
import { tempDir } from '../../support/temp-dir.js';
import { waitFor } from '../../support/wait-for.js';
import { startTarget as startHelperTarget } from '../../webhooks/helpers.js';

/** A forwarding target, closed when the test ends. */
async function startTarget() {
  const target = await startHelperTarget();
  onTestFinished(() => target.close());
  return target;
}

// `webhooks listen`: the secret never on the command line (ps shows it), made up for
// --print-target, shown only in that line; posts a web page can make refused.

const sandbox = useSandbox();
const event = (id: number) => JSON.stringify({ hook: { id: 1, event: 'order.changed', target: 'x' }, data: { id } });

async function listening(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<{ run: RunningMerch; target: string; file: string }> {
  const file = join(tempDir(), 'events.jsonl');
  const run = startMerch(['webhooks', 'listen', '--port', '0', '--journal', file, ...args], { env: cliEnv(sandbox().url, options.env), stdin: options.stdin });
  await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), run.done]);
  return { run, target: run.io.out().split('\n')[0]!, file };
}

async function stopped(run: RunningMerch) {
  run.interrupt();
  return run.done;
}

describe('the listener secret', () => {
  it('--secret VALUE is refused with one line saying where the secret goes, before anything starts', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const result = await runMerch(['webhooks', 'listen', '--port', '0', '--journal', file, '--secret', 'hunter2-secret'], { env: cliEnv(sandbox().url) });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --secret shows the secret to everyone on this machine (ps): put it in MERCH_WEBHOOK_SECRET, or pipe it to --secret-stdin\n');
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    ['MERCH_WEBHOOK_SECRET', [], { env: { MERCH_WEBHOOK_SECRET: 'env-secret-4b1d' } }, 'env-secret-4b1d'],
    ['--secret-stdin', ['--secret-stdin'], { stdin: 'stdin-secret-9e2a\n' }, 'stdin-secret-9e2a'],
  ])('from %s: only deliveries carrying it are accepted', async (_name, args, options, secret) => {
    const { run, target } = await listening(['--print-target', ...args], options);
    expect(target).toMatch(new RegExp(`\\?token=${secret}$`));
    const bare = target.replace(/\?.*$/, '');
    const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(1) }).then((r) => r.status);
    expect(await post(bare)).toBe(401);
    expect(await post(target)).toBe(204);
    const { code, stdout, stderr } = await stopped(run);
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(1).join('\n')).not.toContain(secret);
    expect(stderr).not.toContain(secret);
  });

  it('--print-target without a secret makes one up: printed in the target line only', async () => {
    const { run, target } = await listening(['--print-target', '--json']);
    const made = new URL(JSON.parse(target).target).searchParams.get('token');
    expect(made).toMatch(/^[\w-]{24}$/);
    expect(await fetch(JSON.parse(target).target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(2) }).then((r) => r.status)).toBe(204);
    await waitFor(() => run.io.out().split('\n').length > 2, 'the event printed');
    const { stdout, stderr } = await stopped(run);
    const [first, ...rest] = stdout.trimEnd().split('\n');
    expect(first).toContain(made!);
    expect(JSON.parse(rest[0]!).hook).toEqual({ id: 1, event: 'order.changed', target: 'x' });
    expect(rest.join('\n') + stderr).not.toContain(made!);
  });

  it('a secret by default: with --subscribe, unauthenticated posts are refused (401) and the sandbox deliveries to the subscribed target accepted', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--journal', file, '--subscribe', '--events', 'order.changed'], { env: cliEnv(sandbox().url) });
    await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), run.done]);
    const url = /listening on (http:\S+) for/.exec(run.io.errors())![1]!;
    const subscribed = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results.filter((hook: { target: string }) => hook.target.startsWith(url));
    expect(subscribed).toHaveLength(1);
    const secret = new URL(subscribed[0].target).searchParams.get('token')!;
    expect(secret).toMatch(/^[\w-]{24}$/);
    expect(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(4) }).then((r) => r.status)).toBe(401);
    const order = await createOrder(sandbox(), `listen-secret-${process.pid}`);
    expect((await sandboxApi(sandbox(), '/_sandbox/events', { method: 'POST', body: { event: 'order.changed', id: order.id } })).status).toBe(200);
    await waitFor(() => readFileSync(file, 'utf8').includes(`"id":${order.id}`), 'the delivery journaled');
    const { code, stdout, stderr } = await stopped(run);
    expect(code).toBe(0);
    expect(stderr).toContain("the subscriptions' target carries ?token= with a secret made up for this run; other posts are refused (401)\n");
    expect(stderr).toContain('refused 401 from 127.0.0.1: missing ?token=\n');
    expect(stdout + stderr).not.toContain(secret);
    // Only the sandbox's deliveries (the order's changes: the one triggered, perhaps its payment too).
    expect(new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line).data.id))).toEqual(new Set([order.id]));
  });

  it('--subscribe --verbose: the traces of the subscriptions made and deleted never show the secret', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--journal', file, '--subscribe', '--events', 'order.changed', '--verbose'], { env: cliEnv(sandbox().url) });
    await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), run.done]);
    const url = /listening on (http:\S+) for/.exec(run.io.errors())![1]!;
    const subscribed = (await sandboxApi(sandbox(), '/v1/core/webhooks/')).body.results.filter((hook: { target: string }) => hook.target.startsWith(url));
    const secret = new URL(subscribed[0].target).searchParams.get('token')!;
    expect(secret).toMatch(/^[\w-]{24}$/);
    const { code, stdout, stderr } = await stopped(run);
    expect(code).toBe(0);
    // It traced: the subscription made, and deleted on exit.
    expect(stderr).toMatch(/^> POST http:\S+\/v1\/core\/webhooks\/$/m);
    expect(stderr).toMatch(/^> DELETE http:\S+\/v1\/core\/webhooks\/\d+\/?$/m);
    expect(stdout + stderr).not.toContain(secret);
  });

  it('a secret by default: without --subscribe or --print-target, stderr says how to subscribe with it, never showing it', async () => {
    const file = join(tempDir(), 'events.jsonl');
    const run = startMerch(['webhooks', 'listen', '--port', '0', '--journal', file], { env: cliEnv(sandbox().url) });
    await Promise.race([run.io.written((_out, err) => /ready; Ctrl-C to stop/.test(err)), run.done]);
    const url = /listening on (http:\S+) for/.exec(run.io.errors())![1]!;
    expect(await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(5) }).then((r) => r.status)).toBe(401);
    const { code, stdout, stderr } = await stopped(run);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'deliveries must carry a secret made up for this run, as ?token= in the URL they are posted to; other posts are refused (401). To subscribe yourself, --print-target prints the URL to subscribe with, or choose the secret with MERCH_WEBHOOK_SECRET\n',
    );
  });

  it('--no-secret: every post accepted, and stderr says what that means', async () => {
    const { run, target } = await listening(['--print-target', '--no-secret'], { env: { MERCH_WEBHOOK_SECRET: 'ignored-secret-77' } });
    expect(target).not.toContain('token=');
    expect(await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: event(6) }).then((r) => r.status)).toBe(204);
    const { code, stderr } = await stopped(run);
    expect(code).toBe(0);
    expect(stderr).toContain('--no-secret: MERCH_WEBHOOK_SECRET is ignored\n');
    expect(stderr).toContain('no secret (--no-secret): any program on this machine can post events here');
  });

  it.each([
    [
      ['--subscribe', '--public-url', 'https://hooks.example.com/', '--no-secret'],
      'error: --no-secret with --public-url: anyone who learns that public URL could post forged events (an order "Delivered") and be believed\n' +
        'hint: drop --no-secret: --subscribe puts the secret in the target it subscribes, and the service posts to that target as given\n',
    ],
    [['--no-secret', '--secret-stdin'], 'error: --no-secret and --secret-stdin contradict each other: pass one of them\n'],
  ])('%j is a usage error (exit 2): nothing listens, nothing is sent', async (args, message) => {
    const file = join(tempDir(), 'events.jsonl');
    const { result, requests } = await requestsDuring(sandbox(), () => runMerch(['webhooks', 'listen', '--port', '0', '--journal', file, ...args], { env: cliEnv(sandbox().url), stdin: 'x\n' }));
    expect(result).toEqual({ code: 2, stdout: '', stderr: message });
    expect(requests).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('a target URL with token= is logged with it hidden', async () => {
    const forward = await startTarget();
    const { run } = await listening(['--forward-to', `${forward.url}?token=their-secret`]);
    const { stderr } = await stopped(run);
    expect(stderr).toContain(`forwarding to ${forward.url}?token=***`);
    expect(stderr).not.toContain('their-secret');
  });
});

describe('posts a web page can make', () => {
  it.each([
    ['a text/plain body', { 'content-type': 'text/plain' }, 'content type text/plain is not JSON'],
    ['an Origin header', { 'content-type': 'application/json', origin: 'https://evil.example' }, 'sent by a web page (Origin: https://evil.example)'],
  ])('%s: 403, one line on stderr, nothing saved, printed or forwarded', async (_name, headers, reason) => {
    const forward = await startTarget();
    const { run, target, file } = await listening(['--print-target', '--forward-to', forward.url]);
    expect(await fetch(target, { method: 'POST', headers, body: event(3) }).then((r) => r.status)).toBe(403);
    await waitFor(() => run.io.errors().includes('refused 403'), 'the refusal on stderr');
    const { stdout, stderr } = await stopped(run);
    expect(stderr.split('\n').filter((line) => line.startsWith('refused'))).toEqual([`refused 403 from 127.0.0.1: ${reason}`]);
    expect(stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(forward.received).toEqual([]);
  });
});
