import { formatPath, type FieldPath } from '../../contract/field-path.js';
import type { OrderRequest } from '../../contract/order-request.js';
import { checkOrderRequest, type AccountData, type Finding } from '../../contract/order-rules.js';
import { addressProblems } from './address-checks.js';
import type { OrderSources } from './builder.js';

/**
 * Local validation of an order request body, before anything is sent: the contract's rules
 * (src/contract/order-rules.ts, the same the sandbox applies), each finding named by its JSON
 * path and, when the builder knows where the value came from, by that place
 * (`recipients.csv row 5, column postal_code`).
 */

export interface ValidationIssue {
  /** JSON path in the request body, e.g. `shipping_orders[3].recipient.postal_code`. */
  path: string;
  message: string;
  /** Where the user wrote it, when known: `recipients.csv row 5, column postal_code`. */
  where?: string;
}

export interface ValidateOptions extends AccountData {
  sources?: OrderSources;
}

export type ValidationResult =
  | { ok: true; body: OrderRequest; issues: []; warnings: ValidationIssue[] }
  | { ok: false; body?: undefined; issues: ValidationIssue[]; warnings: ValidationIssue[] };

export function validateOrder(body: unknown, options: ValidateOptions = {}): ValidationResult {
  const result = checkOrderRequest(body, options);
  const describe = (finding: Finding): ValidationIssue => {
    const where = whereOf(finding.path, options.sources);
    const path = formatPath(finding.path);
    return where === undefined ? { path, message: finding.message } : { path, message: finding.message, where };
  };
  const warnings = [...result.warnings, ...addressWarnings(body)].map(describe);
  if (!result.ok) return { ok: false, issues: result.errors.map(describe), warnings };
  return { ok: true, body: result.body, issues: [], warnings };
}

/** Emails and countries that do not look right, in the billing address and every recipient (a path made only for a finding: a list has 10,000 recipients). */
function addressWarnings(body: unknown): Finding[] {
  if (typeof body !== 'object' || body === null) return [];
  const { billing_address: billing, shipping_orders: shippingOrders } = body as Record<string, unknown>;
  const findings: Finding[] = [];
  const check = (address: unknown, path: () => FieldPath) => {
    if (typeof address !== 'object' || address === null) return;
    for (const { field, problem } of addressProblems(address as Record<string, unknown>)) findings.push({ path: [...path(), field], message: `${problem}: the service may refuse it` });
  };
  check(billing, () => ['billing_address']);
  if (Array.isArray(shippingOrders)) {
    for (let i = 0; i < shippingOrders.length; i++) check((shippingOrders[i] as { recipient?: unknown } | null)?.recipient, () => ['shipping_orders', i, 'recipient']);
  }
  return findings;
}

function whereOf(path: FieldPath, sources?: OrderSources): string | undefined {
  if (!sources) return undefined;
  const [top, index, field, sub] = path;
  if (top === 'shipping_orders' && typeof index === 'number' && field === 'recipient' && typeof sub === 'string') {
    return sources.shippingOrders.get(index)?.(sub);
  }
  if (top === 'line_items' && typeof index === 'number') {
    const origin = sources.lineItems.get(index);
    if (field === 'attributes' && typeof sub === 'string') return origin?.(sub);
    if (field === 'product' || field === 'quantity') return origin?.(field);
  }
  if (top === 'billing_address' && typeof index === 'string') return sources.billing?.(index);
  return undefined;
}

/** `recipients.csv row 5, column postal_code: is required` */
export function formatIssue(issue: ValidationIssue): string {
  return `${issue.where ?? issue.path}: ${issue.message}`;
}

/** The first issue, and how many others there are; for a one-line usage error. */
export function summariseIssues(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return '';
  const rest = issues.length - 1;
  return rest > 0 ? `${formatIssue(first)} (and ${rest} other problem${rest === 1 ? '' : 's'})` : formatIssue(first);
}

/** Warnings for stderr: the first few one a line, then how many more (10,000 CSV rows may each have one). */
export function formatWarnings(warnings: readonly ValidationIssue[], most = 5): string[] {
  const lines = warnings.slice(0, most).map((w) => `warning: ${formatIssue(w)}`);
  if (warnings.length > most) lines.push(`warning: ... and ${warnings.length - most} more like these`);
  return lines;
}
