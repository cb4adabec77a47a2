import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import type { ItemInput, OrderPieces } from './builder.js';
import { KeyValueError, parseKeyValues, parsePositiveInt } from './key-values.js';
import { CsvError, parseRecipientsCsv } from './recipients-csv.js';

/** The flags of `orders create` that give the order, as commander parses them. */
export interface OrderFlags {
  file?: string;
  product?: string;
  quantity?: string;
  attr?: string[];
  item?: string[];
  recipient?: string;
  recipients?: string;
  billing?: string;
  paymentMethod?: string;
  externalId?: string;
  dryRun?: boolean;
  batchSize?: number;
  concurrency?: number;
  results?: string;
}

/** Reads the flags into builder pieces: files are read and parsed, nothing is sent. */
export async function piecesFromFlags(options: OrderFlags, stdin: Readable, { readRecipients = true } = {}): Promise<OrderPieces> {
  try {
    const pieces: OrderPieces = {};
    if (options.file !== undefined) {
      pieces.fileName = options.file;
      pieces.file = await readJson(options.file, stdin);
    }
    if (options.externalId !== undefined) {
      if (options.externalId.trim() === '') throw new UsageError('--external-id: must not be empty');
      pieces.externalId = options.externalId.trim();
    }
    if (options.paymentMethod !== undefined) pieces.paymentMethodId = options.paymentMethod.trim();
    if (options.billing !== undefined) pieces.billing = parseKeyValues(options.billing, '--billing');
    if (options.recipient !== undefined) pieces.recipient = parseKeyValues(options.recipient, '--recipient');
    if (options.recipients !== undefined && readRecipients) {
      let data: Buffer;
      try {
        data = await readFile(options.recipients);
      } catch (err) {
        throw new UsageError(`--recipients: cannot read ${options.recipients}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      pieces.recipients = parseRecipientsCsv(data, options.recipients);
    }
    const items = itemsFromFlags(options);
    if (items.length > 0) pieces.items = items;
    return pieces;
  } catch (err) {
    if (err instanceof KeyValueError || err instanceof CsvError) throw new UsageError(err.message);
    throw err;
  }
}

function itemsFromFlags(options: OrderFlags): ItemInput[] {
  const items: ItemInput[] = [];
  const attrs = options.attr ?? [];
  if (options.product !== undefined || options.quantity !== undefined || attrs.length > 0) {
    const attributes: Record<string, string> = {};
    for (const a of attrs) {
      const at = a.indexOf('=');
      const name = a.slice(0, at).trim();
      if (at <= 0 || name === '') throw new UsageError(`--attr: expected NAME=VALUE, got "${a}"`);
      if (Object.hasOwn(attributes, name)) throw new UsageError(`--attr ${name}: is given twice`);
      attributes[name] = a.slice(at + 1).trim();
    }
    const item: ItemInput = { attributes };
    if (options.product !== undefined) item.product = parsePositiveInt(options.product, '--product');
    if (options.quantity !== undefined) item.quantity = parsePositiveInt(options.quantity, '--quantity');
    if (item.product === undefined && options.recipients === undefined && options.file === undefined) {
      throw new UsageError(`${options.quantity !== undefined ? '--quantity' : '--attr'} needs --product`);
    }
    items.push(item);
  }
  (options.item ?? []).forEach((spec, i) => {
    const flag = `--item #${i + 1}`;
    const kv = parseKeyValues(spec, flag);
    const { product, quantity, ...attributes } = kv;
    if (product === undefined) throw new UsageError(`${flag}: key "product" is required (product=ID)`);
    const item: ItemInput = { product: parsePositiveInt(product, flag, 'product'), attributes, flag };
    if (quantity !== undefined) item.quantity = parsePositiveInt(quantity, flag, 'quantity');
    items.push(item);
  });
  return items;
}

async function readJson(file: string, stdin: Readable): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`--file ${file}: not valid JSON: ${(err as Error).message}`);
  }
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
