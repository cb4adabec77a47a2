import { readFile } from 'node:fs/promises';
import { input, number, search, select } from '@inquirer/prompts';
import { getCustomProduct, listCustomProducts } from '../../../api/resources/custom-products.js';
import { listPaymentMethods } from '../../../api/resources/payment-methods.js';
import { ADDRESS_FIELDS, USUAL_RECIPIENT_FIELDS } from '../../../contract/address.js';
import { attributeName } from '../../../contract/attributes.js';
import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import type { ItemInput, OrderPieces } from '../../../orders/builder.js';
import { CsvError, parseRecipientsCsv, type RecipientsCsv } from '../../../orders/recipients-csv.js';
import { describePaymentMethod } from '../../../orders/summary.js';
import { money } from '../../../output/format.js';

/**
 * The interactive path: asks for what the flags did not give (product, recipients,
 * attributes from what the product offers, quantity, payment method). It returns builder
 * pieces: the order is then built, validated, summarised and confirmed by the same code as
 * every other input path (src/orders/prepare.ts, command.ts).
 */
export async function runWizard(ctx: Context, given: OrderPieces): Promise<OrderPieces> {
  const io = { input: ctx.io.stdin, output: ctx.io.stdout };
  const client = ctx.api();
  const pieces: OrderPieces = { ...given };
  const base: ItemInput = { ...(given.items?.[0] ?? {}), attributes: { ...(given.items?.[0]?.attributes ?? {}) } };

  // 1. The product.
  if (base.product === undefined) {
    base.product = await search<number>(
      {
        message: 'Custom product (type to search)',
        source: async (term) => {
          const found: { name: string; value: number; description?: string }[] = [];
          for await (const p of listCustomProducts(client, { search: term || undefined }, { limit: 20 })) {
            const id = Number(p.id);
            found.push({ name: `${p.name ?? 'product'} (${id})`, value: id, description: money(p.prices?.price ? { ...p.prices.price, currency: p.prices.currency } : undefined) });
          }
          return found;
        },
      },
      io,
    );
  }
  const product = await getCustomProduct(client, String(base.product));

  // 2. The recipients: one typed in, or a CSV.
  if (!pieces.recipient && !pieces.recipients) {
    const how = await select<'one' | 'csv'>(
      {
        message: 'Recipients',
        choices: [
          { name: 'One recipient (type the address)', value: 'one' },
          { name: 'Many recipients from a CSV file', value: 'csv' },
        ],
      },
      io,
    );
    if (how === 'one') pieces.recipient = await askRecipient(io);
    else pieces.recipients = await askCsv(io);
  }
  const csv = pieces.recipients;

  // 3. Each attribute the product offers (not those the CSV gives per row).
  for (const [key, values] of Object.entries(product.available_attributes ?? {})) {
    const names = (values ?? []).map((v) => v.name);
    const name = attributeName(key);
    if (names.length === 0 || csv?.attributeColumns.includes(name)) continue;
    if (Object.keys(base.attributes).some((k) => k.toLowerCase() === name)) continue;
    if (names.length === 1) {
      base.attributes[name] = names[0]!;
      continue;
    }
    base.attributes[name] = await select<string>({ message: capital(name), choices: names.map((n) => ({ name: n, value: n })) }, io);
  }

  // 4. Quantity (per recipient with a CSV, unless it has a quantity column).
  if (base.quantity === undefined && !csv?.hasQuantity) {
    const q = await number(
      { message: csv ? 'Quantity for each recipient' : 'Quantity', default: 1, min: 1, step: 1, required: true },
      io,
    );
    base.quantity = q ?? 1;
  }
  pieces.items = [base, ...(given.items?.slice(1) ?? [])];

  // 5. Payment method, the default preselected.
  if (pieces.paymentMethodId === undefined) {
    const methods = await listPaymentMethods(client);
    if (methods.length === 0) throw new UsageError('the account has no payment method');
    const preferred = methods.find((m) => m.is_default === true) ?? methods[0]!;
    pieces.paymentMethodId = await select<string>(
      {
        message: 'Payment method',
        choices: methods.map((m) => ({ name: `${describePaymentMethod(m)}${m.is_default ? ' (default)' : ''}  ${m.id}`, value: m.id })),
        default: preferred.id,
      },
      io,
    );
  }

  return pieces;
}

type PromptIO = { input: NodeJS.ReadableStream; output: NodeJS.WritableStream };

async function askRecipient(io: PromptIO): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const required = new Set<string>(USUAL_RECIPIENT_FIELDS);
  for (const field of ADDRESS_FIELDS) {
    const label = `${capital(field.replace(/_/g, ' '))}${required.has(field) ? '' : ' (optional)'}`;
    const value = (await input({ message: label, required: required.has(field) }, io)).trim();
    if (value !== '') out[field] = value;
  }
  return out;
}

async function askCsv(io: PromptIO): Promise<RecipientsCsv> {
  let parsed: RecipientsCsv | undefined;
  await input(
    {
      message: 'Recipients CSV file',
      required: true,
      validate: async (path) => {
        try {
          parsed = parseRecipientsCsv(await readFile(path.trim()), path.trim());
          return true;
        } catch (err) {
          if (err instanceof CsvError) return err.message;
          return `cannot read ${path.trim()}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
        }
      },
    },
    io,
  );
  return parsed!;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
