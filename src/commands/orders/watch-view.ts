import { formatDuration } from '../../lib/duration.js';
import type { OrderView } from '../../orders/follow/follower.js';
import type { ServiceChange } from '../../orders/follow/service-health.js';
import { timestamp } from '../../output/format.js';
import { isMachineOutput, printJson, type OutputTarget } from '../../output/render.js';
import { table, truncate } from '../../output/table.js';
import { cell, singleLine } from '../../output/sanitize.js';
import { redrawFrom } from '../../output/style.js';

/** How `orders watch` shows each change. */
export interface WatchView {
  change(view: OrderView, at: Date): Promise<void>;
  /** The service fails the polls (in a way that passes), or answers again: under the table on a terminal, else a line on stderr. */
  service(change: ServiceChange): Promise<void>;
  /** An event the service did not confirm: under the table on a terminal (the latest few), else a line on stderr. */
  note(text: string): Promise<void>;
  /** The watch is over (delivered, cancelled, Ctrl-C or an error). */
  finish(): Promise<void>;
}

/** A live table on a terminal; otherwise (piped, --json, --jsonl, --query) one JSON line per change. */
export function watchView(ctx: OutputTarget): WatchView {
  if (!ctx.io.stdoutIsTTY || isMachineOutput(ctx.format)) return jsonLines(ctx);
  return liveTable(ctx);
}

/** What a change of the service's answers says, in one line. */
function serviceNotice(change: ServiceChange): string {
  if (change.kind === 'answering') return `the service answers again, after ${formatDuration(change.failedForMs)} of failures`;
  return `${change.error.message}; polling on`;
}

/** `{"at", "order", "status", "shipments": [{"id", "status", "tracking_number", "tracking_url"}]}` */
function jsonLines(ctx: OutputTarget): WatchView {
  const target = { io: ctx.io, format: { ...ctx.format, json: false, jsonl: true } };
  return {
    change: (view, at) => printJson(target, { at: at.toISOString(), ...view }),
    service: async (change) => ctx.io.err(singleLine(serviceNotice(change))),
    note: async (text) => ctx.io.err(singleLine(text)),
    finish: async () => undefined,
  };
}

/**
 * The order and its shipments, drawn again in place at every change: every line is cut
 * to the terminal's width and the drawing to its height (a drawing taller than the screen
 * cannot be gone back over, and each redraw would leave a copy behind), so the cursor can
 * always go back to its first line. Times are the CLI's one format (src/output/format.ts).
 */
function liveTable(ctx: OutputTarget): WatchView {
  const { io } = ctx;
  const width = io.columns ?? 80;
  let drawnRows = 0;
  let shown: { view: OrderView; at: Date } | undefined;
  /** The service's failure while it fails (shown under the table). */
  let failing: Extract<ServiceChange, { kind: 'failing' }> | undefined;
  /** The latest events the service did not confirm (shown under the table). */
  let notes: string[] = [];
  let over = false;
  const draw = async () => {
    if (!shown) return;
    const { view, at } = shown;
    const heading = singleLine(`order ${view.order}: ${view.status ?? 'status unknown'} (updated ${timestamp(at.toISOString())}${over ? '' : '; Ctrl-C to stop'})`);
    // Once the watch is over, a failure is the last one met, no longer something being polled through.
    const footer = [...notes, ...(failing === undefined ? [] : [singleLine(over ? failing.error.message : serviceNotice(failing))])];
    // Room for the heading, the table's header, the footer, a line for what does not fit, and the cursor's line.
    const room = io.rows === undefined ? Infinity : Math.max(1, io.rows - 4 - footer.length);
    const fits = view.shipments.length <= room ? view.shipments : view.shipments.slice(0, room);
    const rows = fits.map((s) => [cell(s.id), cell(s.status), cell(s.tracking_number), cell(s.tracking_url)]);
    const rest = view.shipments.slice(fits.length);
    const more = rest.length === 0 ? [] : [singleLine(`... and ${rest.length} more shipments (${countByStatus(rest)})`)];
    const lines = [heading, ...(await table(io, ['Shipment', 'Status', 'Tracking number', 'Tracking URL'], rows, ['fixed', 'fixed', 'text', 'text'])).split('\n'), ...more, ...footer];
    const text = lines.map((line) => truncate(line, width)).join('\n');
    const erase = drawnRows > 0 ? redrawFrom(drawnRows) : '';
    io.stdout.write(`${erase}${text}\n`);
    drawnRows = lines.length;
  };
  return {
    async change(view, at) {
      shown = { view, at };
      await draw();
    },
    async service(change) {
      failing = change.kind === 'failing' ? change : undefined;
      if (shown) await draw();
      else io.err(singleLine(serviceNotice(change)));
    },
    async note(text) {
      notes = [...notes, singleLine(text)].slice(-MAX_NOTES);
      if (shown) await draw();
      else io.err(singleLine(text));
    },
    async finish() {
      over = true;
      await draw();
    },
  };
}

/** How many notes of unconfirmed events stay under the table. */
const MAX_NOTES = 3;

/** `12 Delivered, 3 Shipped` */
function countByStatus(shipments: OrderView['shipments']): string {
  const counts = new Map<string, number>();
  for (const { status } of shipments) counts.set(status ?? 'status unknown', (counts.get(status ?? 'status unknown') ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
}
