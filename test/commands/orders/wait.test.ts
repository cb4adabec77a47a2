import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import { run as wait } from '../../../src/commands/orders/wait.js';
import { ExitCode } from '../../../src/errors.js';
import { advanceShipment, FakeClock, followRun, orderInProduction, refusal } from '../../support/memory-follow.js';
import { useMemoryService } from '../../support/memory-service.js';

// `orders wait` as its run takes it: the flags it reads and only the parts of the run it
// uses (where to print, the service's settings, Ctrl-C, the ports), here the in-memory
// service on a fake clock. What it prints and the exit code it chooses, in milliseconds;
// the CLI end to end over HTTP is test/orders/follow/wait.test.ts.

const service = useMemoryService({ retries: 0 });
let made = 0;
const newOrder = () => orderInProduction(service(), `wait-run-${++made}`);

describe('orders wait, as its run', () => {
  it('prints the order as orders get does once it is there, and nothing before', async () => {
    const order = await newOrder();
    const clock = new FakeClock();
    clock.at(40_000, () => Promise.all(order.shipments.map((id) => advanceShipment(service(), id, 2))));
    const { streams, deps: parts } = followRun(service(), clock);
    await wait({ id: order.id, until: 'shipped', maxWait: 30 * 60_000, interval: 15_000 }, parts);

    expect(streams.out()).toMatch(new RegExp(`^ID\\t${order.id}\\n`));
    expect(streams.out()).toContain('\n# shipping_orders\n');
    expect(streams.out().match(/\tShipped\t/g)).toHaveLength(2);
    expect(streams.errors()).toBe('');
  });

  it('exits 6 at --max-wait saying where the order stands, with the hint to wait longer', async () => {
    const order = await newOrder();
    const { streams, deps: parts } = followRun(service(), new FakeClock());
    const error = await refusal(wait({ id: order.id, until: 'delivered', maxWait: 5 * 60_000, interval: 15_000 }, parts));

    expect(error.exitCode).toBe(ExitCode.timedOut);
    expect(error.message).toBe(`order ${order.id} is not delivered after 5m: In Production; 0 of 2 shipments shipped, 0 delivered`);
    expect(error.hint).toMatch(/--max-wait/);
    expect(streams.out()).toBe('');
  });

  it('passes on the 404 of an order the service does not know', async () => {
    const { deps: parts } = followRun(service(), new FakeClock());
    const error = await wait({ id: '999999', until: 'shipped', maxWait: 60_000, interval: 15_000 }, parts).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});
