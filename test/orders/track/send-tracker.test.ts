import { describe, expect, it } from 'vitest';
import type { ResultsRow } from '../../../src/orders/track/results-rows.js';
import { readSend, waitForSend, type OrderToTrack, type TrackRequest } from '../../../src/orders/track/send-tracker.js';
import { advanceShipment, cancelOrder, FakeClock, followPortsOf, orderInProduction } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// `orders track` as a use case: a send's orders in the in-memory service, one record per
// recipient, read once or polled (every 15 s, on a fake clock) until every shipment is there.

const service = useMemoryService({ retries: 0 });
let runs = 0;

/** A send of two batches, as a results file names them: rows 2-3 in the first order (Ada, Grace), row 4 in the second (Lin). */
async function send() {
  const run = `track-use-case-${++runs}`;
  const first = await orderInProduction(service(), `${run}-1`, ['Ada', 'Grace']);
  const second = await orderInProduction(service(), `${run}-2`, ['Lin']);
  const row = (n: number, orderId: string): ResultsRow => ({ row: n, external_id: orderId === first.id ? `${run}-1` : `${run}-2`, order_id: orderId, status: 'created' });
  const orders: OrderToTrack[] = [
    { id: first.id, rows: [row(2, first.id), row(3, first.id)] },
    { id: second.id, rows: [row(4, second.id)] },
  ];
  return { run, first, second, orders };
}

const request = (orders: OrderToTrack[], extra: Partial<TrackRequest> = {}): TrackRequest => ({ orders, concurrency: 4, ...extra });

describe('readSend over the in-memory service', () => {
  it('gives one record per recipient, with its row, where each stands; an order the service does not know is missing, the others shown', async () => {
    const { first, second, orders } = await send();
    await advanceShipment(service(), first.shipments[0]!, 2);
    const state = await readSend(request([...orders, { id: '999999', rows: [{ row: 5, external_id: 'x', order_id: '999999', status: 'created' }] }]), service().followed);

    expect(state.shipments.map((s) => [s.row, String(s.order_id), s.recipient_name, s.status])).toEqual([
      [2, first.id, 'Ada Tester', 'Shipped'],
      [3, first.id, 'Grace Tester', 'Created'],
      [4, second.id, 'Lin Tester', 'Created'],
    ]);
    expect(state.shipments[0]!.tracking_number).toEqual(expect.any(String));
    expect(state.shipments.slice(1).map((s) => s.tracking_number)).toEqual([null, null]);
    expect(state.missing).toEqual(['999999']);
    expect(state.cancelled).toEqual([]);
  });

  it("finds a run's orders by listing the account's orders, batch by batch, telling each page listed", async () => {
    const { run, first, second } = await send();
    const listed: number[] = [];
    const state = await readSend(request([], { run, onListed: (fetched) => listed.push(fetched) }), service().followed);

    expect(state.shipments.map((s) => [s.row, String(s.order_id), s.recipient_name])).toEqual([
      [null, first.id, 'Ada Tester'],
      [null, first.id, 'Grace Tester'],
      [null, second.id, 'Lin Tester'],
    ]);
    expect(state.emptyRun).toBeUndefined();
    expect(listed.length).toBeGreaterThan(0);
  });
});

describe('waitForSend over the in-memory service', () => {
  const settings = (maxWaitMs = 30 * 60_000) => ({ until: 'shipped' as const, maxWaitMs, intervalMs: 15_000, interrupted: new AbortController().signal });

  it('reaches shipped at the first poll after the last recipient is shipped', async () => {
    const { first, second, orders } = await send();
    const clock = new FakeClock();
    clock.at(30_000, () => Promise.all(first.shipments.map((id) => advanceShipment(service(), id, 2))));
    clock.at(90_000, () => advanceShipment(service(), second.shipments[0]!, 2));
    const result = await waitForSend(request(orders), settings(), followPortsOf(service(), clock));

    expect(result.outcome).toBe('reached');
    expect(result.state.shipments.map((s) => s.status)).toEqual(['Shipped', 'Shipped', 'Shipped']);
    expect(clock.elapsed).toBeGreaterThanOrEqual(90_000);
    expect(clock.elapsed).toBeLessThanOrEqual(90_000 + 16_500);
  });

  it('times out with a partial send: the recipients shipped and the one still waiting, each by row', async () => {
    const { first, orders } = await send();
    const clock = new FakeClock();
    clock.at(30_000, () => Promise.all(first.shipments.map((id) => advanceShipment(service(), id, 2))));
    const polls: string[] = [];
    const result = await waitForSend(request(orders), { ...settings(5 * 60_000), onPoll: (state) => polls.push(state.shipments.map((s) => s.status).join('/')) }, followPortsOf(service(), clock));

    expect(result.outcome).toBe('timed-out');
    expect(clock.elapsed).toBe(5 * 60_000);
    expect(result.state.shipments.map((s) => [s.row, s.status])).toEqual([[2, 'Shipped'], [3, 'Shipped'], [4, 'Created']]);
    expect(result.waiting.shipments.map((s) => s.row)).toEqual([4]);
    expect(result.waiting.orders).toEqual([]);
    expect(new Set(polls)).toEqual(new Set(['Created/Created/Created', 'Shipped/Shipped/Created']));
  });

  it('ends as cancelled when an order of the send is cancelled, naming its recipients', async () => {
    const { second, orders } = await send();
    const clock = new FakeClock();
    clock.at(45_000, () => cancelOrder(service(), second.id));
    const result = await waitForSend(request(orders), settings(), followPortsOf(service(), clock));

    expect(result.outcome).toBe('cancelled');
    expect(result.state.cancelledOrders).toEqual([second.id]);
    expect(result.state.cancelled.map((s) => s.row)).toEqual([4]);
  });
});
