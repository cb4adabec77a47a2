import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxApi, useSandbox } from '../support/sandbox.js';
import { tempDir } from '../support/temp-dir.js';
import { CONTRACT_EXIT_CODES, crashSigns, FULL, int, merchWithin, pick, pool, recordFigures, replayHint, rng, SEED, seedOf } from './helpers.js';

// Mutated order files and recipient CSVs through `orders create --file F --yes` and
// `orders create --recipients F --product ID --yes`: whatever the bytes, an exit code of the
// contract, no stack trace, and nothing written to the service on a usage error (2).

const COUNT = FULL ? 1000 : 60;
const LANES = 4;
const lanes = Array.from({ length: LANES }, () => useSandbox());

type R = () => number;

const WEIRD: unknown[] = [null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, '', ' ', '1', 'x', '日本語', '🧢', '\u202E', 'a'.repeat(100_000), [], {}, [1, 2], { a: 1 }, '\u0000', 'NaN', '9999999999999999999999'];

/** Every path (as keys) of a JSON value. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function parentOf(root: any, path: (string | number)[]): [any, string | number] | undefined {
  if (path.length === 0) return undefined;
  let node = root;
  for (const key of path.slice(0, -1)) node = node[key];
  return [node, path[path.length - 1]!];
}

function mutateJson(r: R, base: unknown): unknown {
  let root: any = structuredClone(base);
  for (let n = int(r, 1, 3); n > 0; n--) {
    const target = pick(r, paths(root));
    const slot = parentOf(root, target);
    const op = int(r, 0, 6);
    if (!slot) {
      if (op < 2) root = pick(r, WEIRD);
      continue;
    }
    const [parent, key] = slot;
    if (op === 0) {
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete parent[key];
    } else if (op === 1 || op === 2) parent[key] = structuredClone(pick(r, WEIRD));
    else if (op === 3 && Array.isArray(parent[key])) parent[key].push(...structuredClone(parent[key]));
    else if (op === 4) parent[key] = Array.isArray(parent[key]) ? [] : typeof parent[key] === 'number' ? -parent[key] : String(parent[key]);
    else if (op === 5 && parent[key] && typeof parent[key] === 'object' && !Array.isArray(parent[key])) parent[key][pick(r, ['extra', '__proto__', 'constructor', 'id', ''])] = pick(r, WEIRD);
    else parent[key] = typeof parent[key] === 'string' ? parent[key] + pick(r, ['é', '\u0000', '"', '\n', ',', '🧢']) : parent[key];
  }
  return root;
}

function mutateText(r: R, text: string): Buffer {
  let bytes = Buffer.from(text, 'utf8');
  for (let n = int(r, 1, 3); n > 0; n--) {
    const at = int(r, 0, bytes.length);
    switch (int(r, 0, 9)) {
      case 0:
        bytes = bytes.subarray(0, at); // truncated
        break;
      case 1:
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([pick(r, [0x00, 0xff, 0xfe, 0xc3, 0x80, 0x22, 0x2c, 0x0d, 0x0a, 0x7b, 0x5b])]), bytes.subarray(at)]);
        break;
      case 2:
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + int(r, 1, 40)))]);
        break;
      case 3:
        bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]); // BOM
        break;
      case 4:
        bytes = Buffer.from(bytes.toString('latin1').replace(/\n/g, '\r\n'), 'latin1');
        break;
      case 5: {
        const lines = bytes.toString('utf8').split('\n');
        const i = int(r, 0, lines.length - 1);
        lines.splice(i, 0, ...Array.from({ length: int(r, 1, 50) }, () => lines[i]!));
        bytes = Buffer.from(lines.join('\n'));
        break;
      }
      case 6:
        bytes = Buffer.from(pick(r, ['', '\n', '\u0000\u0000', '[]', '{}', 'null', '"x"', '[' .repeat(50_000), '{"a":'.repeat(20_000), 'x'.repeat(3_000_000)]));
        break;
      case 7:
        bytes = Buffer.from(Array.from({ length: int(r, 1, 300) }, () => int(r, 0, 255)));
        break;
      default:
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(r, ['"', '""', ',,,', '\r', '\n\n', 'é', '🧢', '\u202E', '=cmd|x', '\t'])), bytes.subarray(at)]);
    }
  }
  return bytes;
}

describe('mutated order files and recipient CSVs', () => {
  it(`${COUNT} seeded files: contract exit codes, no stack trace, no write on a usage error`, async () => {
    replayHint('fuzz: files');
    const r = rng(seedOf('fuzz-files'));
    const product = (await sandboxApi(lanes[0]!(), '/v1/custom-products/')).body.results[0];
    const pm = (await sandboxApi(lanes[0]!(), '/v1/payment-methods/')).body.card[0].id as string;
    const color = product.available_attributes.colors[0].name as string;
    const size = product.available_attributes.sizes[0].name as string;
    const recipient = (first: string) => ({ first_name: first, last_name: 'Fuzz', line_1: '1 Main St', city: 'Boston', state: 'MA', postal_code: '02101', country: 'US', email: 'a@example.com' });
    const order = {
      payment_method_id: pm,
      line_items: [
        { id: 1, product: product.id, quantity: 3, attributes: { color, size } },
        { id: 2, product: product.id, quantity: 1, attributes: { color: product.available_attributes.colors[1].name, size } },
      ],
      shipping_orders: [
        { recipient: recipient('Ada'), line_items: [{ id: 1, quantity: 2 }, { id: 2, quantity: 1 }] },
        { recipient: recipient('Grace'), line_items: [{ id: 1, quantity: 1 }] },
      ],
    };
    const csv = `first_name,last_name,email,line_1,line_2,city,state,postal_code,country,size,color,quantity\nAda,Lovelace,ada@example.com,1 Main St,,Boston,MA,02101,US,${size},${color},2\n"Grace, Jr",Hopper,,"2 Elm St, Apt 3",,Denver,CO,80202,US,${size},${color},1\n`;

    const dir = tempDir('merch-rel-fuzzfiles-');
    const cases = Array.from({ length: COUNT }, (_, i) => {
      const kind = i % 2 === 0 ? 'json' : 'csv';
      const file = join(dir, `case-${i}.${kind}`);
      const structured = kind === 'json' && r() < 0.6;
      const content = structured ? Buffer.from(JSON.stringify(mutateJson(r, order), null, r() < 0.5 ? 2 : undefined)) : mutateText(r, kind === 'json' ? JSON.stringify(order, null, 2) : csv);
      writeFileSync(file, content);
      const args =
        kind === 'json'
          ? ['orders', 'create', '--file', file, '--yes']
          : ['orders', 'create', '--recipients', file, '--product', String(product.id), '--yes', ...(r() < 0.3 ? ['--attr', `color=${color}`] : [])];
      return { kind, file, args };
    });

    const started = Date.now();
    const codes: Record<string, Record<string, number>> = { json: {}, csv: {} };
    const failures: string[] = [];
    await pool(COUNT, LANES, async (i, lane) => {
      const sandbox = lanes[lane]!();
      const { kind, args, file } = cases[i]!;
      const before = sandbox.requests.length;
      const run = await merchWithin(sandbox.url, args, { deadlineMs: 30_000 });
      const sent = sandbox.requests.slice(before);
      codes[kind]![run.code] = (codes[kind]![run.code] ?? 0) + 1;
      const where = `case ${i} (seed ${SEED}, file ${file}): merch ${args.join(' ')}`;
      if (run.timedOut) return void failures.push(`${where}: still running after 30 s`);
      if (!CONTRACT_EXIT_CODES.has(run.code)) failures.push(`${where}: exit ${run.code}\n${run.stderr.slice(0, 2000)}`);
      const signs = crashSigns(run.stderr + run.stdout);
      if (signs.length > 0) failures.push(`${where}: ${signs.join(', ')}\n${run.stderr.slice(0, 2000)}`);
      // Reading the products to validate against is allowed; sending the order is not.
      if (run.code === 2 && sent.some((q) => q.method !== 'GET')) failures.push(`${where}: exit 2 but sent ${sent.map((q) => `${q.method} ${q.url}`).join(', ')}`);
      if (run.code !== 2 && run.code !== 0 && !/^error: /m.test(run.stderr)) failures.push(`${where}: exit ${run.code} without an error line\n${run.stderr.slice(0, 2000)}`);
    });
    expect(failures, failures.slice(0, 5).join('\n\n')).toEqual([]);
    recordFigures('fuzz-files', { cases: COUNT, parallel: LANES, exit_codes: codes, duration_ms: Date.now() - started });
  }, FULL ? 1_200_000 : 300_000);
});
