import { z } from 'zod';
import { listCustomProducts, getCustomProduct } from '../../api/resources/custom-products.js';
import { requestSmartlink } from '../../api/resources/design-tool.js';
import { isMerchSandbox } from '../../auth/sandbox-check.js';
import { designToolKey } from '../../config/design-tool-key.js';
import { getOrder, listOrders } from '../../api/resources/orders.js';
import { listParts } from '../../api/resources/parts.js';
import { listPaymentMethods } from '../../api/resources/payment-methods.js';
import { getSupplierProduct, listSupplierProducts } from '../../api/resources/supplier-products.js';
import type { Context } from '../../context.js';
import { CliError, ExitCode, UsageError } from '../../errors.js';
import { parseSince, SinceError } from '../../lib/since.js';
import { readSend } from '../../orders/track/send-tracker.js';
import { countByStatus } from '../../orders/track/shipment-record.js';
import { followPorts } from '../orders/follow-ports.js';
import { DEFAULT_CONCURRENCY } from '../../api/paginate.js';
import { filterParameters, isFiltering, keepPassing, type FilterTally, type OrderListFilter } from '../../orders/list-filter.js';
import { count } from '../../lib/count.js';
import { named } from '../../output/format.js';
import { answer, firstOf, type ToolSet } from './tool-kit.js';

/** The read tools of `merch mcp`: what the CLI's read commands ask the service, as structured content. */

const ID = z.union([z.number(), z.string()]);
const LIMIT = z.number().min(1).max(100).optional().describe('default 20');
const OFFSET = z.number().min(0).optional();
const RECORD = z.looseObject({});
const RECORDS = z.array(RECORD);
const READ = { readOnlyHint: true, destructiveHint: false } as const;

export function readTools(ctx: Context): ToolSet {
  return {
    find_products: {
      description: 'Find products: supplier (catalog) or custom (the account\'s, orderable).',
      inputSchema: {
        kind: z.enum(['supplier', 'custom']).optional().describe('default custom'),
        search: z.string().optional(),
        categories: z.string().optional().describe('supplier: category ids, comma separated'),
        tags: z.string().optional().describe('custom: tags, comma separated'),
        ordering: z.string().optional(),
        limit: LIMIT,
        offset: OFFSET,
      },
      outputSchema: { products: RECORDS },
      annotations: READ,
      async run(args: { kind?: 'supplier' | 'custom'; search?: string; categories?: string; tags?: string; ordering?: string; limit?: number; offset?: number }) {
        if (args.kind === 'supplier' && args.tags !== undefined) throw new UsageError('tags: only for custom products', 'use categories for supplier products');
        if (args.kind !== 'supplier' && args.categories !== undefined) throw new UsageError('categories: only for supplier products (kind "supplier")', 'use tags for custom products');
        const page = { limit: args.limit ?? 20, offset: args.offset };
        const records =
          args.kind === 'supplier'
            ? listSupplierProducts(ctx.api(), { search: args.search, categories: args.categories, ordering: args.ordering }, page)
            : listCustomProducts(ctx.api(), { search: args.search, tags: args.tags, ordering: args.ordering }, page);
        const products = await firstOf<Record<string, unknown>>(records, page.limit);
        return answer(ctx, count(products.length, `${args.kind ?? 'custom'} product`), { products });
      },
    },
    get_product: {
      description: 'One product: a custom product with its attributes and prices, or a supplier product with its parts.',
      inputSchema: { id: ID, kind: z.enum(['supplier', 'custom']).optional().describe('default custom') },
      outputSchema: { product: RECORD, parts: RECORDS.optional() },
      annotations: READ,
      async run(args: { id: number | string; kind?: 'supplier' | 'custom' }) {
        const id = idOf(args.id);
        if (args.kind === 'supplier') {
          const [product, parts] = await Promise.all([getSupplierProduct(ctx.api(), id), firstOf<Record<string, unknown>>(listParts(ctx.api(), id, {}, { limit: 100 }), 100)]);
          return answer(ctx, `supplier product ${id}: ${String(product.name ?? '')}, ${count(parts.length, 'part')}`, { product, parts });
        }
        const product = await getCustomProduct(ctx.api(), id);
        return answer(ctx, `custom product ${id}: ${String(product.name ?? '')}`, { product });
      },
    },
    list_orders: {
      description: "The account's orders, newest first.",
      inputSchema: {
        status: z.array(z.string()).optional().describe('status names, e.g. shipped'),
        since: z.string().optional().describe('7d, 24h or an ISO date'),
        limit: LIMIT,
        offset: OFFSET,
      },
      outputSchema: { orders: RECORDS },
      annotations: READ,
      async run(args: { status?: string[]; since?: string; limit?: number; offset?: number }) {
        const filter: OrderListFilter = { statuses: args.status, createdSince: args.since === undefined ? undefined : sinceOf(args.since) };
        const limit = args.limit ?? 20;
        const tally: FilterTally = { read: 0, kept: 0, serviceFiltered: true };
        const records = listOrders(ctx.api(), { limit, offset: args.offset }, filterParameters(filter));
        const orders = await firstOf<Record<string, unknown>>(isFiltering(filter) ? keepPassing(records, filter, tally) : records, limit);
        return answer(ctx, count(orders.length, 'order'), { orders });
      },
    },
    get_order: {
      description: 'One order: line items, shipping orders, statuses, totals.',
      inputSchema: { id: ID },
      outputSchema: { order: RECORD },
      annotations: READ,
      async run(args: { id: number | string }) {
        const order = await getOrder(ctx.api(), idOf(args.id));
        return answer(ctx, `order ${String(order.id)}: ${named(order.status)}`, { order });
      },
    },
    track_order: {
      description: 'Every shipment of an order, or of a run (external id RUN or RUN-n): recipient, status, tracking.',
      inputSchema: { id: ID.optional(), run: z.string().optional().describe("a plan's external_id") },
      outputSchema: { shipments: RECORDS, missing: z.array(z.string()) },
      annotations: READ,
      async run(args: { id?: number | string; run?: string }) {
        if ((args.id === undefined) === (args.run === undefined)) throw new UsageError('give one of id and run');
        const state = await readSend(
          {
            orders: args.id === undefined ? [] : [{ id: idOf(args.id), rows: [] }],
            ...(args.run === undefined ? {} : { run: args.run }),
            concurrency: DEFAULT_CONCURRENCY,
          },
          followPorts(ctx.api).orders,
        );
        const named = args.id === undefined ? `run ${String(args.run)}` : `order ${idOf(args.id)}`;
        if (state.emptyRun !== undefined) throw new CliError(`no orders of run ${state.emptyRun}: none has the external id ${state.emptyRun} or ${state.emptyRun}-<n>`, ExitCode.notFound);
        if (state.missing.length > 0 && state.shipments.length === 0) throw new CliError(`no order ${state.missing.join(', ')}`, ExitCode.notFound);
        const shipments = state.shipments.map(({ row: _row, ...s }) => s);
        const tracked = shipments.filter((s) => s.tracking_number !== null || s.tracking_url !== null).length;
        const statuses = countByStatus(state.shipments).map((c) => `${c.count} ${c.status}`).join(', ');
        return answer(ctx, `${named}: ${count(shipments.length, 'shipment')}${statuses === '' ? '' : ` (${statuses})`}, ${tracked} tracked`, { shipments, missing: state.missing });
      },
    },
    payment_methods: {
      description: "The account's payment methods (the default pays when a plan names none).",
      inputSchema: {},
      outputSchema: { payment_methods: RECORDS },
      annotations: READ,
      async run() {
        const methods = await listPaymentMethods(ctx.api());
        return answer(ctx, count(methods.length, 'payment method'), { payment_methods: methods });
      },
    },
    design_link: {
      description: 'A link for a customer to design a product in the design tool.',
      inputSchema: {
        sku: z.string().describe('e.g. DT-000001'),
        user_id: z.string().describe("your id for the customer"),
        quantity: z.number().optional(),
      },
      outputSchema: { url: z.string() },
      annotations: READ,
      async run(args: { sku: string; user_id: string; quantity?: number }) {
        const key = await designToolKey(ctx.settings, (url) => isMerchSandbox(url, { timeoutMs: ctx.settings.timeoutMs, configDir: ctx.settings.configDir }));
        const url = await requestSmartlink(ctx.api(), ctx.settings.designToolUrl, key, {
          userId: args.user_id,
          sku: args.sku,
          language: 'en',
          country: 'US',
          currency: 'USD',
          quantity: positive('quantity', args.quantity ?? 1),
          productOptions: { enable: true, openOnStart: false },
        });
        return answer(ctx, `design link for ${args.sku}: ${url}`, { url });
      },
    },
  };
}

/** An id as the CLI takes one (`merch orders get 1001`): a positive whole number, exactly. */
export function idOf(value: number | string): string {
  const text = String(value).trim();
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) throw new UsageError(`id: expected a positive integer, got ${JSON.stringify(value)}`);
  return text;
}

function positive(name: string, n: number): number {
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name}: expected a positive integer`);
  return n;
}

function sinceOf(text: string): Date {
  try {
    return parseSince(text);
  } catch (err) {
    if (err instanceof SinceError) throw new UsageError(`since: ${err.message}`);
    throw err;
  }
}
