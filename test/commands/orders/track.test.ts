import { describe, expect, it } from 'vitest';
import { run as track } from '../../../src/commands/orders/track.js';
import { ExitCode } from '../../../src/errors.js';
import { advanceShipment, FakeClock, followRun, orderInProduction, refusal } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// `orders track` as its run takes it: the flags it reads and only the parts of the run it
// uses, here the in-memory service on a fake clock (the CLI end to end over HTTP is
// test/orders/track/).

const service = useMemoryService({ retries: 0 });
let made = 0;
const newOrder = (recipients: string[]) => orderInProduction(service(), `track-run-${++made}`, recipients);

describe('orders track --until, as its run', () => {
  it('exits 6 on a partial send: every recipient printed as it stands, the error naming the one not there', async () => {
    const first = await newOrder(['Ada', 'Grace']);
    const second = await newOrder(['Lin']);
    const clock = new FakeClock();
    clock.at(30_000, () => Promise.all(first.shipments.map((id) => advanceShipment(service(), id, 2))));
    const { streams, deps: parts } = followRun(service(), clock);
    const options = { ids: [first.id, second.id], results: undefined, run: undefined, until: 'shipped' as const, maxWait: 5 * 60_000, interval: 15_000, concurrency: undefined };
    const error = await refusal(track(options, parts));

    expect(error.exitCode).toBe(ExitCode.timedOut);
    expect(error.message).toBe(`1 of 3 shipments not shipped after 5m: shipment ${second.shipments[0]} (order ${second.id}): Created`);
    const rows = streams.out().trim().split('\n').slice(1).map((line) => line.split('\t'));
    expect(rows.map((cells) => [cells[1], cells[3], cells[5]])).toEqual([
      [first.id, 'Ada Tester', 'Shipped'],
      [first.id, 'Grace Tester', 'Shipped'],
      [second.id, 'Lin Tester', 'Created'],
    ]);
    // Where the send stands, once per change, then the summary.
    expect(streams.errors().split('\n')).toEqual([
      '3 shipments: 3 Created (waiting for shipped, 0ms)',
      // The first poll after 30 s, on the run's clock.
      expect.stringMatching(/^3 shipments: 1 Created, 2 Shipped \(waiting for shipped, (3\d|4[0-6])(\.\d)?s\)$/),
      '3 shipments: 1 Created, 2 Shipped',
      '',
    ]);
  });
});
