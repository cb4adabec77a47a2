/**
 * How one received event is shown: a readable line, or the raw delivery as one JSON line.
 * Everything in a delivery comes from the network, so no server-provided character that
 * a terminal would interpret (escape sequences, C0/C1 controls, bidirectional overrides)
 * reaches the output.
 */

import { singleLine } from '../output/sanitize.js';
import { visible } from '../output/terminal-gate.js';

export interface PrintableEvent {
  received_at: string;
  hook: { event: string };
  data: Record<string, unknown>;
}

const MAX_VALUE = 80;

/** `HH:MM:SS  order.changed  order 42  status=In Production payment=Paid` (local time). */
export function formatEventLine(event: PrintableEvent): string {
  const kind = clean(event.hook.event);
  const data = event.data;
  const resource = kind.includes('.') ? kind.slice(0, kind.indexOf('.')) : 'resource';
  const id = scalar(data['id']);
  const parts = [clock(event.received_at), kind, id === undefined ? resource : `${resource} ${id}`];

  const details: string[] = [];
  const parent = scalar(data['order']);
  if (resource === 'shipping_order' && parent !== undefined) details.push(`order=${parent}`);
  for (const [field, label] of STATUS_FIELDS) {
    const name = nameOf(data[field]);
    if (name !== undefined) details.push(`${label}=${name}`);
  }
  const tracking = scalar(data['tracking_number']);
  if (tracking !== undefined) details.push(`tracking=${tracking}`);
  if (details.length > 0) parts.push(details.join(' '));
  return parts.join('  ');
}

/**
 * The raw delivery as one line of JSON. JSON.stringify already escapes C0 controls; C1
 * controls, DEL, line separators and bidi overrides are escaped too (visible(), the gate's
 * own rule: src/output/terminal-gate.ts), which keeps the value identical for a JSON reader
 * and inert for a terminal.
 */
export function formatEventJson(delivery: { hook: unknown; data: unknown }): string {
  return visible(JSON.stringify({ hook: delivery.hook, data: delivery.data }));
}

const STATUS_FIELDS = [
  ['status', 'status'],
  ['payment_status', 'payment'],
  ['design_status', 'design'],
] as const;

function clock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '--:--:--';
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}

function nameOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return scalar((value as Record<string, unknown>)['name']);
}

/** A string or number as shown text; anything else (null, objects) is left out. */
function scalar(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = clean(value);
  return text === '' ? undefined : text;
}

function clean(text: string): string {
  const stripped = singleLine(text).trim();
  return stripped.length > MAX_VALUE ? `${stripped.slice(0, MAX_VALUE - 1)}…` : stripped;
}
