import { readRegularFile } from '../../../lib/safe-files.js';
import { ApiError } from '../../../api/errors.js';
import { getCustomProduct, listCustomProducts } from '../../../api/resources/custom-products.js';
import type { CustomProduct, PaymentMethod } from '../../../api/schemas.js';
import { ADDRESS_FIELDS, USUAL_RECIPIENT_FIELDS, type AddressField } from '../../../contract/address.js';
import { attributeName, findOffered, matchValue, offeredAttributes } from '../../../contract/attributes.js';
import { AuthError } from '../../../auth/errors.js';
import type { Context } from '../../../context.js';
import type { RunAccount } from '../../../orders/create/ports.js';
import { CancelledError, CliError, ShownError, UsageError } from '../../../errors.js';
import { exactIntegerOf } from '../../../lib/exact-json.js';
import { errnoWords } from '../../../lib/path-checks.js';
import { MAX_ID, positiveIdProblem } from '../../../lib/positive-integer.js';
import { countryProblem, emailProblem } from '../../../orders/create/address-checks.js';
import type { ItemInput, OrderPieces } from '../../../orders/create/builder.js';
import { NoDefaultPaymentMethod } from '../../../orders/create/errors.js';
import { defaultPaymentMethod, describePaymentMethod } from '../../../orders/payment-method.js';
import { csvLocation, CsvError, parseRecipientsCsv, type RecipientRow, type RecipientsCsv } from '../../../orders/create/recipients-csv.js';
import { errorText } from '../../../output/error-text.js';
import { money } from '../../../output/format.js';
import { asCliError } from '../../exit-codes.js';
import type { ServiceSettings } from '../../hints.js';
import { GoBack, isPromptCancel, type Prompter, type Unless } from '../../../prompter.js';

/**
 * The interactive path: asks for what the flags did not give (product, recipients,
 * attributes from what the product offers, quantity, payment method). Every answer is
 * checked as it is given, by the rules the flags and files meet (and, where the service
 * decides, a little more: an email that looks like one, a two-letter country code), and
 * asked again when it does not pass, so nothing typed is lost at the end. It returns
 * builder pieces: the order is then built, validated, priced and confirmed by the same code
 * as every other input path (src/orders/create/prepare.ts, command.ts).
 *
 * Only prompts whose answer is complete when Enter is pressed are used (no search-as-you-type:
 * an Enter typed while its results load was dropped, and the next answers went to the wrong
 * prompts).
 *
 * A request to the service that fails, at any step, is shown as every command shows it
 * (`error: GET ... failed: 500 Server Error`, and its hint), then the wizard asks: try again,
 * or stop (the run ends with the failure's exit code, as the same failure would end any
 * command).
 */

/** The wizard runs only where a person can answer (command.ts decides); were it asked elsewhere, this is what to do. */
const WIZARD: Unless = { message: 'the order is incomplete', hint: 'give the order with flags, --file or --recipients (see merch orders create --help)' };

/** What of the run's context the wizard uses: the terminal, the person at it, and the service (for products and payment methods). */
export type WizardTerminal = Pick<Context, 'io' | 'prompter' | 'settings' | 'api'>;

export async function runWizard(ctx: WizardTerminal, given: OrderPieces, lookups: RunAccount): Promise<OrderPieces> {
  try {
    return await askAll(ctx, given, lookups);
  } catch (error) {
    // Ctrl-C at any question reads as it does at "Place this order?" with flags (issue 42.4): exit 130.
    if (isPromptCancel(error)) throw new CancelledError(CANCELLED);
    throw error;
  }
}

/** What a cancelled order says, in the wizard and at the question before placing (orders/create/place-order.ts). */
const CANCELLED = 'cancelled: no order was created';

/**
 * The questions in order, each a step; Esc (GoBack) at a question asks the one before it again
 * (the steps that asked nothing, given by flags, are passed over), its earlier answer the
 * default; at the first question, it is asked again.
 */
async function askAll(ctx: WizardTerminal, given: OrderPieces, lookups: RunAccount): Promise<OrderPieces> {
  const ask = ctx.prompter;
  const pieces: OrderPieces = { ...given };
  const base: ItemInput = { ...(given.items?.[0] ?? {}), attributes: { ...(given.items?.[0]?.attributes ?? {}) } };
  let product: CustomProduct | undefined;
  const productOf = () => product!;
  const given0 = given.items?.[0];
  let recipientsHow: 'typed' | 'csv' = 'typed';

  const steps: Step[] = [
    // 1. The product.
    async () => {
      const asking = given0?.product === undefined;
      const earlier = product;
      product = asking ? await askProduct(ctx, ask) : await retrying(ctx, ask, () => getCustomProduct(ctx.api(), String(given0.product)));
      lookups.remember(product);
      // Another product (back, then another answer): the attributes chosen for the first are not its.
      if (earlier !== undefined && String(earlier.id) !== String(product.id)) base.attributes = { ...(given0?.attributes ?? {}) };
      // Exactly as the service shows it: an id beyond 2^53 is a BigInt (lib/exact-json.ts).
      base.product = typeof product.id === 'bigint' ? product.id : exactIntegerOf(String(product.id)) ?? Number(product.id);
      return asking;
    },
    // 2. The recipients: typed in, one or more, or a CSV.
    async (fromBehind) => {
      if (given.recipient || given.recipients) return false;
      const earlier = { recipient: pieces.recipient, recipients: pieces.recipients };
      delete pieces.recipient;
      delete pieces.recipients;
      await inOrder([
        async () => {
          const how = await ask.select<'typed' | 'csv'>(
            {
              message: 'Recipients',
              choices: [
                { name: 'Type the addresses', value: 'typed' },
                { name: 'Many recipients from a CSV file', value: 'csv' },
              ],
              default: earlier.recipients && earlier.recipients.file !== 'recipient' ? 'csv' : earlier.recipient || earlier.recipients ? 'typed' : undefined,
            },
            WIZARD,
          );
          recipientsHow = how;
          return true;
        },
        async (detailsFromBehind) => {
          if (recipientsHow === 'csv') pieces.recipients = await askCsv(ask, productOf());
          else {
            const before = earlier.recipient ? [earlier.recipient] : earlier.recipients?.file === 'recipient' ? earlier.recipients.rows.map((row) => row.recipient) : [];
            const typed = await askRecipients(ask, before, detailsFromBehind);
            if (typed.length === 1) pieces.recipient = typed[0];
            else pieces.recipients = typedRecipients(typed);
          }
          return true;
        },
      ], 'up', fromBehind ? 1 : 0);
      return true;
    },
    // 3. Each attribute the product offers in several values (not those the CSV gives per row): one step each, laid out once the product is known.
    async (fromBehind) => {
      const kinds = offeredAttributes(productOf().available_attributes).filter(
        (kind) => !pieces.recipients?.attributeColumns.includes(kind.name) && !Object.keys(given0?.attributes ?? {}).some((name) => findOffered([kind], name)) && kind.values.length > 1,
      );
      if (kinds.length === 0) return false;
      await inOrder(
        kinds.map((kind) => async () => {
          base.attributes[kind.name] = await ask.select<string>({ message: capital(kind.name), choices: kind.values.map((v) => ({ name: v, value: v })), default: base.attributes[kind.name] }, WIZARD);
          return true;
        }),
        'up',
        fromBehind ? kinds.length - 1 : 0,
      );
      return true;
    },
    // 4. Quantity (per recipient with many, unless the CSV has a quantity column).
    async () => {
      const csv = pieces.recipients;
      if (given0?.quantity !== undefined || csv?.hasQuantity) {
        base.quantity = given0?.quantity;
        return false;
      }
      const answer = await ask.input(
        { message: csv ? 'Quantity for each recipient' : 'Quantity', default: base.quantity === undefined ? '1' : String(base.quantity), validate: (value) => quantityProblem(value) ?? true },
        WIZARD,
      );
      base.quantity = Number(answer.trim());
      return true;
    },
    // 5. Payment method, the account's default preselected (the one rule of orders/payment-method.ts).
    async () => {
      pieces.items = [base, ...(given.items?.slice(1) ?? [])];
      if (given.paymentMethodId !== undefined) return false;
      const methods = await retrying(ctx, ask, () => lookups.paymentMethods());
      if (methods.length === 0) throw new UsageError('the account has no payment method', 'add one in the service, then run again');
      const preferred = accountDefault(methods);
      pieces.paymentMethodId = await ask.select<string>(
        {
          message: preferred ? 'Payment method' : 'Payment method (the account has no default: choose one)',
          choices: methods.map((m) => ({ name: `${describePaymentMethod(m)}${m.id === preferred?.id ? ' (default)' : ''}  ${m.id}`, value: m.id })),
          default: pieces.paymentMethodId ?? preferred?.id,
        },
        WIZARD,
      );
      return true;
    },
  ];
  await inOrder(steps, 'stay');
  return pieces;
}

/**
 * A question (or several): whether it asked anything (a step given by flags asks nothing, and
 * Esc passes over it). `fromBehind`: run again by Esc at the question after it, a step of
 * several questions starts at its last.
 */
type Step = (fromBehind: boolean) => Promise<boolean>;

/**
 * Steps in order (from `start`); GoBack at one runs the last one before it that asked again. At the first,
 * GoBack goes up to the caller (the steps before these), or with `stay`, asks it again.
 */
async function inOrder(steps: Step[], atFirst: 'up' | 'stay' = 'up', start = 0): Promise<void> {
  // The steps before `start` count as asked (a recipient resumed at its last field).
  const asked: number[] = Array.from({ length: start }, (_, i) => i);
  let at = start;
  let fromBehind = false;
  while (at < steps.length) {
    try {
      if (await steps[at]!(fromBehind)) asked.push(at);
      at++;
      fromBehind = false;
    } catch (error) {
      if (!(error instanceof GoBack)) throw error;
      const previous = asked.pop();
      if (previous !== undefined) [at, fromBehind] = [previous, true];
      else if (atFirst === 'up') throw error;
      else fromBehind = false;
    }
  }
}

/** The account's default payment method, or none when the account has several and none is marked. */
function accountDefault(methods: PaymentMethod[]): PaymentMethod | undefined {
  try {
    return defaultPaymentMethod(methods);
  } catch (error) {
    if (error instanceof NoDefaultPaymentMethod) return undefined;
    throw error;
  }
}

/**
 * `call`, a request to the service; when it fails, the failure is shown and the user
 * chooses: try again, or stop (ShownError: the run ends with the failure's exit code). A
 * failure already met (`failed`, e.g. in a prompt's check) is shown first.
 */
async function retrying<T>(ctx: WizardTerminal, ask: Prompter, call: () => Promise<T>, failed?: unknown): Promise<T> {
  let failure = failed;
  for (;;) {
    if (failure !== undefined) {
      const error = serviceFailure(failure, ctx.settings);
      if (error === undefined) throw failure;
      ctx.io.stderr.write(errorText(error, ctx.io.color && ctx.io.stderrIsTTY));
      const next = await ask.select<'again' | 'stop'>(
        {
          message: 'What now?',
          choices: [
            { name: 'Try again', value: 'again' },
            { name: `Stop (exit ${error.exitCode})`, value: 'stop' },
          ],
        },
        WIZARD,
      );
      if (next === 'stop') throw new ShownError(error);
    }
    try {
      return await call();
    } catch (error) {
      failure = error;
    }
  }
}

/** A failure of a request to the service (or of the sign-in it needs), as the CLI reports it; undefined for anything else. */
function serviceFailure(error: unknown, service?: ServiceSettings): CliError | undefined {
  return error instanceof ApiError || error instanceof AuthError ? asCliError(error, service) : undefined;
}

/**
 * A name to search for (or an id), then a choice among the matches. The search runs as the
 * answer is checked, so that "no match" asks again at once; a search that fails ends the
 * prompt and is offered again (retrying), never reported as "no match".
 */
async function askProduct(ctx: WizardTerminal, ask: Prompter): Promise<CustomProduct> {
  let matches: CustomProduct[] = [];
  let failed: { term: string; error: unknown } | undefined;
  await ask.input(
    {
      message: 'Custom product (a name to search for, or its id)',
      validate: async (value) => {
        const term = value.trim();
        if (term === '') return 'Type part of the product name, or its id';
        const badId = idProblem(term);
        if (badId) return badId;
        try {
          matches = await lookUp(ctx, term);
        } catch (error) {
          if (serviceFailure(error) === undefined) throw error;
          failed = { term, error };
          return true;
        }
        return matches.length > 0 || noMatch(term);
      },
    },
    WIZARD,
  );
  if (failed) {
    const { term, error } = failed;
    matches = await retrying(ctx, ask, () => lookUp(ctx, term), error);
    if (matches.length === 0) {
      ctx.io.stdout.write(`${noMatch(term)}\n`);
      return askProduct(ctx, ask);
    }
  }
  if (matches.length === 1) {
    // Say which product the answer found, as a choice among several would show it.
    ctx.io.stdout.write(`  ${productLabel(matches[0]!)}\n`);
    return matches[0]!;
  }
  const id = await ask.select<string>(
    { message: 'Which one', choices: matches.map((p) => ({ name: productLabel(p), value: String(p.id) })) },
    WIZARD,
  );
  return matches.find((p) => String(p.id) === id)!;
}

function noMatch(term: string): string {
  return `No custom product matches "${term}"; try another name`;
}

/** An answer of digits is an id: refused here when no product can have it (as --product refuses it), before anything is sent. */
function idProblem(term: string): string | undefined {
  if (!/^\d+$/.test(term) || positiveIdProblem(term) === undefined) return undefined;
  return `"${term}" is not a product id: an id is a whole number from 1 to ${MAX_ID}`;
}

/** The products an answer names: the one with that id (none when the service has no such product), or those a search finds. */
async function lookUp(ctx: WizardTerminal, term: string): Promise<CustomProduct[]> {
  return /^\d+$/.test(term) ? byId(ctx, term) : bySearch(ctx, term);
}

/** `Team Tee (100003)  12.50 USD` */
function productLabel(p: CustomProduct): string {
  return `${p.name ?? 'product'} (${p.id})  ${money(p.prices?.price ? { ...p.prices.price, currency: p.prices.currency } : undefined)}`;
}

async function byId(ctx: WizardTerminal, id: string): Promise<CustomProduct[]> {
  try {
    return [await getCustomProduct(ctx.api(), id)];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

async function bySearch(ctx: WizardTerminal, term: string): Promise<CustomProduct[]> {
  const found: CustomProduct[] = [];
  for await (const p of listCustomProducts(ctx.api(), { search: term }, { limit: 20 })) found.push(p);
  return found;
}

/**
 * One recipient after another, each field checked as it is typed. Esc at a field asks the
 * field before it again; at the first field, the recipient before (or, for the first, the
 * question before the recipients); at "Add another recipient?", the last recipient's last
 * field. A recipient asked again has its earlier answers as defaults (`before`).
 */
async function askRecipients(ask: Prompter, before: Record<string, string>[] = [], fromBehind = false): Promise<Record<string, string>[]> {
  // Back from the question after them: "Add another recipient?" again, after the last.
  const recipients: Record<string, string>[] = fromBehind && before.length > 0 ? [...before] : [];
  let resume: AddressField | undefined;
  for (let first = true; ; first = false) {
    const n = recipients.length + 1;
    if (!(first && recipients.length > 0)) {
      try {
        recipients.push(await askRecipient(ask, n, before[n - 1], resume));
        resume = undefined;
      } catch (error) {
        if (!(error instanceof GoBack) || recipients.length === 0) throw error;
        before[recipients.length - 1] = recipients.pop()!;
        resume = ADDRESS_FIELDS.at(-1);
        continue;
      }
    }
    try {
      if (!(await ask.confirm({ message: 'Add another recipient?', default: false }, WIZARD))) return recipients;
    } catch (error) {
      if (!(error instanceof GoBack)) throw error;
      before[recipients.length - 1] = recipients.pop()!;
      resume = ADDRESS_FIELDS.at(-1);
    }
  }
}

const NEEDED = new Set<string>(USUAL_RECIPIENT_FIELDS);

/** A recipient's fields in order (from `resume`, the earlier ones kept), `before`'s answers the defaults; GoBack at the first field goes up. */
async function askRecipient(ask: Prompter, n: number, before: Record<string, string> = {}, resume?: AddressField): Promise<Record<string, string>> {
  const out: Record<string, string> = { ...before };
  const steps = ADDRESS_FIELDS.map((field): Step => async () => {
    const label = `${n > 1 ? `Recipient ${n}: ` : ''}${capital(field.replace(/_/g, ' '))}${NEEDED.has(field) ? '' : ' (optional)'}`;
    // A country is shown as it is stored: `ie` is IE.
    const transformer = field === 'country' ? (answer: string) => answer.toUpperCase() : undefined;
    const preset = out[field];
    const value = (await ask.input({ message: label, validate: (answer) => fieldProblem(field, answer) ?? true, transformer, ...(preset === undefined ? {} : { default: preset }) }, WIZARD)).trim();
    if (value !== '') out[field] = field === 'country' ? value.toUpperCase() : value;
    else delete out[field];
    return true;
  });
  // Resumed at a later field (Esc from after the recipient), the fields before it count as asked: Esc there still reaches them.
  await inOrder(steps, 'up', resume === undefined ? 0 : ADDRESS_FIELDS.indexOf(resume));
  return out;
}

/** Why an answer for an address field will not do, in the wizard's words. */
function fieldProblem(field: AddressField, answer: string): string | undefined {
  const value = answer.trim();
  if (value === '') return NEEDED.has(field) ? `${capital(field.replace(/_/g, ' '))} is needed for the parcel to arrive` : undefined;
  if (field === 'email') return emailProblem(value);
  if (field === 'country') return countryProblem(value.toUpperCase());
  return undefined;
}

function quantityProblem(answer: string): string | undefined {
  const value = answer.trim();
  return /^\d+$/.test(value) && Number(value) >= 1 && Number.isSafeInteger(Number(value)) ? undefined : 'Enter a whole number, 1 or more';
}

/** Several typed recipients, as the CSV reader gives rows: one shipping order each. */
function typedRecipients(recipients: Record<string, string>[]): RecipientsCsv {
  const rows: RecipientRow[] = recipients.map((recipient, i) => ({ row: i + 1, recipient, attributes: {} }));
  return { file: 'recipient', attributeColumns: [], hasQuantity: false, hasProduct: false, recipientsInAddressOrder: false, rows };
}

/** The path of a recipients CSV, read and checked against the product when it is given. */
async function askCsv(ask: Prompter, product: CustomProduct): Promise<RecipientsCsv> {
  let parsed: RecipientsCsv | undefined;
  await ask.input(
    {
      message: 'Recipients CSV file',
      validate: async (answer) => {
        const path = answer.trim();
        if (path === '') return 'Type the path of a CSV file';
        let data: Buffer;
        try {
          data = await readRegularFile(path);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          return code === 'ENOENT' ? `file not found: ${path}` : code === 'EISDIR' ? `${path} is a directory` : `cannot read ${path}: ${errnoWords(err)}`;
        }
        try {
          parsed = parseRecipientsCsv(data, path);
        } catch (err) {
          if (err instanceof CsvError) return err.message;
          throw err;
        }
        return csvProblem(parsed, product) ?? true;
      },
    },
    WIZARD,
  );
  return parsed!;
}

/** The first cell of the CSV that the product or the wizard's checks refuse. */
function csvProblem(csv: RecipientsCsv, product: CustomProduct): string | undefined {
  const offered = offeredAttributes(product.available_attributes);
  for (const row of csv.rows) {
    for (const [name, value] of Object.entries(row.attributes)) {
      const kind = findOffered(offered, name);
      const where = csvLocation(csv.file, row.row, name);
      if (!kind) return `${where}: ${product.name ?? 'the product'} has no attribute "${name}"`;
      if (matchValue(kind, value) === undefined) return `${where}: "${value}" is not a ${attributeName(name)} of ${product.name ?? 'the product'} (offered: ${kind.values.join(', ')})`;
    }
    for (const field of ['email', 'country'] as const) {
      const value = row.recipient[field];
      const problem = value === undefined ? undefined : fieldProblem(field, value);
      if (problem) return `${csvLocation(csv.file, row.row, field)}: ${problem}`;
    }
  }
  return undefined;
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
