import type { Context } from '../../context.js';
import type { OrderView } from '../../orders/follow/follower.js';
import { isMachineOutput, printJson } from '../../output/render.js';
import { table } from '../../output/table.js';
import { cell, singleLine } from '../../output/sanitize.js';

/** How `orders watch` shows each change. */
export interface WatchView {
  change(view: OrderView, at: Date): Promise<void>;
  /** A passing problem (the service busy or unreachable): under the table on a terminal, else a line on stderr. */
  notice(text: string): Promise<void>;
}

/** A live table on a terminal; otherwise (piped, --json, --jsonl, --query) one JSON line per change. */
export function watchView(ctx: Context): WatchView {
  if (!ctx.io.stdoutIsTTY || isMachineOutput(ctx.format)) return jsonLines(ctx);
  return liveTable(ctx);
}

/** `{"at", "order", "status", "shipments": [{"id", "status", "tracking_number", "tracking_url"}]}` */
function jsonLines(ctx: Context): WatchView {
  const target = { io: ctx.io, format: { ...ctx.format, json: false, jsonl: true } };
  return {
    change: (view, at) => printJson(target, { at: at.toISOString(), ...view }),
    notice: async (text) => ctx.io.err(text),
  };
}

/** The order and its shipments, drawn again in place at every change. */
function liveTable(ctx: Context): WatchView {
  const { io } = ctx;
  let drawnRows = 0;
  let shown: { view: OrderView; at: Date } | undefined;
  const draw = async (view: OrderView, at: Date, notice?: string) => {
    const rows = view.shipments.map((s) => [cell(s.id), cell(s.status), cell(s.tracking_number), cell(s.tracking_url)]);
    const heading = singleLine(`order ${view.order}: ${view.status ?? 'status unknown'} (updated ${at.toLocaleTimeString()}; Ctrl-C to stop)`);
    const footer = notice === undefined ? '' : `${singleLine(notice)}\n`;
    const text = `${heading}\n${await table(io, ['Shipment', 'Status', 'Tracking number', 'Tracking URL'], rows)}\n${footer}`;
    const erase = drawnRows > 0 ? `\u001b[${drawnRows}A\r\u001b[0J` : '';
    io.stdout.write(erase + text);
    drawnRows = terminalRows(text, io.columns ?? 80);
  };
  return {
    async change(view, at) {
      shown = { view, at };
      await draw(view, at);
    },
    async notice(text) {
      if (shown) await draw(shown.view, shown.at, text);
      else io.err(singleLine(text));
    },
  };
}

/** Rows the text takes on a terminal that wraps at `columns` (escape codes take no room). */
function terminalRows(text: string, columns: number): number {
  const lines = text.replace(/\u001b\[[0-9;]*m/g, '').split('\n').slice(0, -1);
  return lines.reduce((rows, line) => rows + Math.max(1, Math.ceil([...line].length / columns)), 0);
}
