import { expect } from 'vitest';
import { CliError } from '../../src/errors.js';
import type { Clock } from '../../src/orders/follow/ports.js';
import type { TrackPorts } from '../../src/orders/track/ports.js';
import { commandIO } from '../../src/output/io.js';
import type { MemoryService } from './memory-service.js';
import { testInterrupts, testStreams } from './test-io.js';

/**
 * Following orders (`orders wait`, `watch`, `track`) as use cases over the in-memory
 * service (memory-service.ts), on a fake clock: half an hour of polling runs in
 * milliseconds, and what the service does at a moment of the wait is scheduled on the
 * same clock, so every run of a test sees the same polls.
 */

/** When a fake clock starts: a fixed moment, so the timestamps a test sees are its own. */
export const CLOCK_START = Date.parse('2026-11-01T09:00:00.000Z');

/**
 * Time that moves only when a wait sleeps: a sleep of 15 s moves it 15 s on at once,
 * running on the way what was scheduled (`at`, and each `timeout`'s abort) in time order.
 * A sleep whose signal aborts returns at once, as the system clock's does.
 */
export class FakeClock implements Clock {
  private time = CLOCK_START;
  private readonly due: { at: number; action: () => unknown }[] = [];

  now(): number {
    return this.time;
  }

  /** Milliseconds since the clock started. */
  get elapsed(): number {
    return this.time - CLOCK_START;
  }

  /** Runs `action` (awaited) once the clock reaches `ms` after its start. */
  at(ms: number, action: () => unknown): void {
    this.due.push({ at: CLOCK_START + ms, action });
    this.due.sort((a, b) => a.at - b.at);
  }

  async sleep(ms: number, signal: AbortSignal): Promise<void> {
    const until = this.time + ms;
    while (!signal.aborted && this.due.length > 0 && this.due[0]!.at <= until) {
      const next = this.due.shift()!;
      this.time = Math.max(this.time, next.at);
      await next.action();
    }
    if (!signal.aborted) this.time = Math.max(this.time, until);
    // As a timer would: whatever else was waiting gets its turn.
    await new Promise((resolve) => setImmediate(resolve));
  }

  timeout(ms: number): AbortSignal {
    const controller = new AbortController();
    this.at(this.elapsed + ms, () => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')));
    return controller.signal;
  }
}

/** The ports of following and tracking: the in-memory service's orders, and the clock. */
export function followPortsOf(service: MemoryService, clock: Clock): TrackPorts {
  return { orders: service.followed, clock };
}

/** An order of the in-memory service, its id and its shipping orders' ids (one per recipient). */
export interface PlacedOrder {
  id: string;
  shipments: number[];
}

/** A new order (one shirt per recipient, default Ada and Grace), paid and In Production, as the service's own lifecycle would leave it. */
export async function orderInProduction(service: MemoryService, externalId: string, recipients: string[] = ['Ada', 'Grace']): Promise<PlacedOrder> {
  const methods = (await service.call('/v1/payment-methods/')).body;
  const product = (await service.call('/v1/custom-products/')).body.results[0];
  const attributes = { color: product.available_attributes.colors[0].name, size: product.available_attributes.sizes[0].name };
  const created = await service.call('/v1/orders/', {
    body: {
      external_id: externalId,
      payment_method_id: methods.card[0].id,
      line_items: [{ id: 1, product: product.id, quantity: recipients.length, attributes }],
      shipping_orders: recipients.map((first_name) => ({
        recipient: { first_name, last_name: 'Tester', line_1: '1 Main St', city: 'Boston', state: 'MA', postal_code: '02101', country: 'US' },
        line_items: [{ id: 1, quantity: 1 }],
      })),
    },
  });
  if (created.status !== 201) throw new Error(`creating an order failed with ${created.status}: ${JSON.stringify(created.body)}`);
  const advanced = await control(service, `/_sandbox/orders/${created.body.id}/advance`);
  return { id: String(advanced.id), shipments: advanced.shipping_orders.map((s: { id: number }) => s.id) };
}

/** A shipping order one status further (Created, Scheduled, Shipped with tracking, Delivered). */
export async function advanceShipment(service: MemoryService, id: number, steps = 1): Promise<void> {
  for (let step = 0; step < steps; step++) await control(service, `/_sandbox/shipping-orders/${id}/advance`);
}

export async function cancelOrder(service: MemoryService, id: string): Promise<void> {
  await control(service, `/_sandbox/orders/${id}/cancel`);
}

/** A test control of the sandbox (`/_sandbox/...`), which must succeed. */
async function control(service: MemoryService, path: string): Promise<any> {
  const answer = await service.call(path, { method: 'POST' });
  if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** What the runs of `orders wait`, `watch` and `track` are given, piped, over the in-memory service on `clock`; and the streams they print to. */
export function followRun(service: MemoryService, clock: Clock) {
  const streams = testStreams();
  const io = commandIO(streams, { noColor: true, env: {} });
  const settings = { baseUrl: 'http://localhost', baseUrlSource: 'default' as const, profile: 'default' };
  return { streams, deps: { io, format: { json: false, jsonl: false }, settings, interrupts: testInterrupts(), ports: followPortsOf(service, clock) } };
}

/** What a run threw, which must be a CliError (its message and exit code are the run's verdict). */
export async function refusal(running: Promise<unknown>): Promise<CliError> {
  const error = await running.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CliError);
  return error as CliError;
}
