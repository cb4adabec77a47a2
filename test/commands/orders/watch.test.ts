import { describe, expect, it } from 'vitest';
import { run as watch } from '../../../src/commands/orders/watch.js';
import { ExitCode } from '../../../src/errors.js';
import { advanceShipment, cancelOrder, FakeClock, followRun, orderInProduction, refusal } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// `orders watch` as its run takes it: the flags it reads and only the parts of the run it
// uses, here the in-memory service on a fake clock (the CLI end to end over HTTP, with a
// listener's journal and on a terminal, is test/orders/follow/watch.test.ts).

const service = useMemoryService({ retries: 0 });
let made = 0;
const newOrder = () => orderInProduction(service(), `watch-run-${++made}`);

const options = (id: string) => ({ id, interval: 15_000, journal: undefined, events: undefined });

describe('orders watch, as its run', () => {
  it('piped: one JSON line per change, stamped with the run clock, exit 0 once every shipment is delivered', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    clock.at(20_000, () => Promise.all(order.shipments.map((id) => advanceShipment(service(), id, 3))));
    const { streams, deps } = followRun(service(), clock);

    expect(await watch(options(order.id), deps)).toBe(ExitCode.ok);
    const lines = streams.out().trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => line.shipments.map((s: { status: string }) => s.status))).toEqual([
      ['Created', 'Created'],
      ['Delivered', 'Delivered'],
    ]);
    expect(lines[0].at).toBe('2026-11-01T09:00:00.000Z');
    expect(lines.every((line) => line.order === Number(order.id))).toBe(true);
    expect(streams.errors()).toBe('');
  });

  it('exits 5 when the order is cancelled', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    clock.at(20_000, () => cancelOrder(service(), order.id));
    const { streams, deps } = followRun(service(), clock);
    const error = await refusal(watch(options(order.id), deps));

    expect(error.exitCode).toBe(ExitCode.refused);
    expect(error.message).toBe(`order ${order.id} is cancelled: its shipments will never be delivered`);
    expect(streams.out().trim().split('\n').map((line) => JSON.parse(line).status)).toEqual(['In Production', 'Cancelled']);
  });
});
