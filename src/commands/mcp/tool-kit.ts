import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { ZodRawShape } from 'zod';
import type { Context } from '../../context.js';
import { CliError, ExitCode } from '../../errors.js';
import { OutcomeUnknown } from '../../orders/create/errors.js';
import { redactUrlCredentials } from '../../output/redact-url.js';
import { singleLine } from '../../output/sanitize.js';
import { asCliError } from '../exit-codes.js';
import { cliErrorOf } from '../orders/create/outcomes.js';

/**
 * What every tool of `merch mcp` answers: structured content (the output schema's) and one
 * short line of text; a failure as a tool error in the CLI's words, its one line and its
 * hint (src/commands/exit-codes.ts, hints.ts, orders/create/outcomes.ts), secrets hidden,
 * never a stack trace.
 */

/** A tool as merch declares it: registered by server.ts. */
export interface ToolDefinition {
  description: string;
  inputSchema: ZodRawShape;
  outputSchema: ZodRawShape;
  annotations: ToolAnnotations;
  run(args: Record<string, unknown>): Promise<CallToolResult>;
}

export type ToolSet = Record<string, ToolDefinition>;

/** A record as JSON can carry it: an id beyond 2^53 (a BigInt, lib/exact-json.ts) as a string. */
function jsonSafe<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : String(v)) : v))) as T;
}

export function answer(ctx: Context, line: string, data: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: hidden(ctx, singleLine(line)) }], structuredContent: jsonSafe(data) };
}

/** A failed call as the CLI says it: `error: ...` and `hint: ...`. */
export function failure(ctx: Context, err: unknown): CallToolResult {
  const said = err instanceof OutcomeUnknown ? outcomeUnknown(err) : asCliError(cliErrorOf(err), ctx.settings);
  const lines =
    said instanceof CliError
      ? [`error: ${singleLine(said.message)}`, ...(said.hint === undefined ? [] : [`hint: ${singleLine(said.hint)}`])]
      : [`error: ${singleLine(unexpected(err))}`];
  return { isError: true, content: [{ type: 'text', text: hidden(ctx, lines.join('\n')) }] };
}

/** A placing whose outcome is unknown, said so, with what an agent can do: the CLI's "run the same command again" is a call. */
function outcomeUnknown(err: OutcomeUnknown): CliError {
  return new CliError(
    `the outcome is unknown: ${err.message}`,
    ExitCode.failed,
    `call place_order again with the same plan_id to finish it safely: it looks external id ${err.externalId} up before sending anything again`,
  );
}

function unexpected(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return (text.split('\n')[0] ?? '').trim() || 'unexpected failure';
}

function hidden(ctx: Context, text: string): string {
  return ctx.secrets.redact(redactUrlCredentials(text));
}

/** Runs a tool's work; what it throws is answered as a tool error. */
export async function guarded(ctx: Context, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (err) {
    return failure(ctx, err);
  }
}

/** The first `limit` records of a list (one page's worth). */
export async function firstOf<T>(records: AsyncIterable<T>, limit: number): Promise<T[]> {
  const kept: T[] = [];
  if (limit <= 0) return kept;
  for await (const record of records) {
    kept.push(record);
    if (kept.length >= limit) break;
  }
  return kept;
}
