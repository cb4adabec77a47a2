import { readRegularFile } from '../../../lib/safe-files.js';
import type { Readable } from 'node:stream';
import { attributeName } from '../../../contract/attributes.js';
import { UsageError } from '../../../errors.js';
import { parseExact } from '../../../lib/exact-json.js';
import { errnoWords } from '../../../lib/path-checks.js';
import type { BuildError, ItemInput, MissingPiece, OrderPieces, Origin } from '../../../orders/create/builder.js';
import { CsvError, parseRecipientsCsv } from '../../../orders/create/recipients-csv.js';
import { KeyValueError, parseKeyValues, parsePositiveInt, parseProductId } from './key-values.js';

/**
 * The flags of `orders create` that give the order, and their translation to and from the
 * order domain (src/orders/): flags become builder pieces, each piece carrying the flag it
 * came from (`--attr size`, `--item #2, key quantity`, `--recipient, key postal_code`), so
 * the domain's findings name the flag; and what the domain says is missing becomes the flags
 * that would give it.
 */

/** The flags of `orders create` (declared in ../create.command.ts, which checks they agree). */
export interface OrderFlags {
  file: string | undefined;
  product: string | undefined;
  quantity: string | undefined;
  attr: string[] | undefined;
  item: string[] | undefined;
  recipient: string | undefined;
  recipients: string | undefined;
  billing: string | undefined;
  paymentMethod: string | undefined;
  externalId: string | undefined;
  dryRun: true | undefined;
  batchSize: number | undefined;
  concurrency: number | undefined;
  results: string | undefined;
  force: true | undefined;
  assumeUnsent: true | undefined;
}

/** Reads the flags into builder pieces: files are read and parsed, nothing is sent. */
export async function piecesFromFlags(options: Partial<OrderFlags>, stdin: Readable, { readRecipients = true } = {}): Promise<OrderPieces> {
  try {
    const pieces: OrderPieces = {};
    if (options.file !== undefined) {
      // The name errors give it: `-` alone would read as `error: -: expected a JSON object`.
      pieces.fileName = options.file === '-' ? 'standard input (--file -)' : options.file;
      pieces.file = await readJson(options.file, stdin);
    }
    if (options.externalId !== undefined) {
      if (options.externalId.trim() === '') throw new UsageError('--external-id: must not be empty');
      pieces.externalId = options.externalId.trim();
    }
    if (options.paymentMethod !== undefined) pieces.paymentMethodId = options.paymentMethod.trim();
    const origins: NonNullable<OrderPieces['origins']> = {};
    if (options.billing !== undefined) {
      pieces.billing = parseKeyValues(options.billing, '--billing');
      origins.billing = keyOf('--billing');
    }
    if (options.recipient !== undefined) {
      pieces.recipient = parseKeyValues(options.recipient, '--recipient');
      origins.recipient = keyOf('--recipient');
    }
    pieces.origins = origins;
    if (options.recipients !== undefined && readRecipients) {
      let data: Buffer;
      try {
        data = await readRegularFile(options.recipients);
      } catch (err) {
        throw new UsageError(`--recipients: cannot read ${options.recipients}: ${errnoWords(err)}`);
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

/** `--billing, key city` */
function keyOf(flag: string): Origin {
  return (field) => `${flag}, key ${field}`;
}

/** Where the fields of the item of --product, --quantity and --attr came from. */
const FLAG_ITEM: Origin = (field) => (field === 'product' ? '--product' : field === 'quantity' ? '--quantity' : `--attr ${field}`);

function itemsFromFlags(options: Partial<OrderFlags>): ItemInput[] {
  const items: ItemInput[] = [];
  const attrs = options.attr ?? [];
  if (options.product !== undefined || options.quantity !== undefined || attrs.length > 0) {
    const attributes: Record<string, string> = {};
    const named = new Map<string, string>();
    for (const a of attrs) {
      const at = a.indexOf('=');
      const name = a.slice(0, at).trim();
      if (at <= 0 || name === '') throw new UsageError(`--attr: expected NAME=VALUE, got "${a}"`);
      // `size`, `Size` and `sizes` name one attribute: a second value would silently win.
      const earlier = named.get(attributeName(name));
      if (earlier !== undefined) throw new UsageError(`--attr ${name}: is given twice${earlier === name ? '' : ` (also as ${earlier})`}`);
      named.set(attributeName(name), name);
      attributes[name] = a.slice(at + 1).trim();
    }
    const item: ItemInput = { attributes, origin: FLAG_ITEM };
    if (options.product !== undefined) item.product = parseProductId(options.product, '--product');
    if (options.quantity !== undefined) item.quantity = parsePositiveInt(options.quantity, '--quantity');
    // One recipient gets one unless --quantity says otherwise, as each of a --recipients list does (issue 42.5).
    else if (options.recipient !== undefined && item.product !== undefined) item.quantity = 1;
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
    const item: ItemInput = { product: parseProductId(product, flag, 'product'), attributes, origin: keyOf(flag) };
    if (quantity !== undefined) item.quantity = parsePositiveInt(quantity, flag, 'quantity');
    items.push(item);
  });
  return items;
}

/** What the order lacks, as the flags that would give it: `--quantity; --recipient or --recipients`. */
export function missingFlags(missing: readonly MissingPiece[]): string {
  return missing
    .map((m) => {
      if (m.piece === 'product' || m.piece === 'quantity') return m.origin ?? `line_items[${m.item}].${m.piece}`;
      return m.piece === 'line items' ? '--product and --quantity (or --item, or --file)' : '--recipient or --recipients';
    })
    .join('; ');
}

/** The domain's reason the pieces make no order, as a usage error with the flags that fix it. */
export function buildUsageError(err: BuildError): UsageError {
  const hints: Record<BuildError['problem'], string | undefined> = {
    'file-not-object': undefined,
    'recipient-and-list': 'give one of --recipient and --recipients',
    'items-replace-file-items': 'give the recipient with --recipient or --recipients',
    'list-with-several-items': `use one --product (or a "product" column in ${err.file ?? 'the file'})`,
    'row-without-product': 'add a "product" column or pass --product',
  };
  return new UsageError(err.message, hints[err.problem]);
}

async function readJson(file: string, stdin: Readable): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : (await readRegularFile(file)).toString('utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--file: cannot read ${file === '-' ? 'standard input' : file}: ${errnoWords(err)}`);
  }
  try {
    // A product id beyond 2^53 stays exact (a BigInt: src/lib/exact-json.ts).
    return parseExact(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new UsageError(`--file ${file}: not valid JSON: ${(err as Error).message}`);
  }
}

/** The most of standard input `--file -` reads: an order's body, however many shipping orders, is far less; /dev/zero would never end. */
export const MAX_STDIN_BYTES = 64 * 1024 * 1024;

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of stream) {
    const piece = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += piece.length;
    if (bytes > MAX_STDIN_BYTES) {
      stream.destroy();
      throw new UsageError(`--file -: standard input holds more than ${MAX_STDIN_BYTES / 1024 / 1024} MiB; an order's JSON body is far smaller`);
    }
    chunks.push(piece);
  }
  return Buffer.concat(chunks).toString('utf8');
}
