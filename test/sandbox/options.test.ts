import { describe, expect, it } from 'vitest';
import { SandboxOptionError, startSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

describe('startSandbox options', () => {
  it('refuses a bad option with the sandbox\'s own error, its message starting with the flag', async () => {
    const bad: [SandboxOptions, string][] = [
      [{ faults: 2 }, '--faults'],
      [{ faultKinds: ['status_503', 'boom'] }, '--fault-kinds'],
      [{ faultKinds: [] }, '--fault-kinds'],
      [{ port: 70_000 }, '--port'],
      [{ catalog: 0 }, '--catalog'],
      [{ duplicateOrder: 'sometimes' as SandboxOptions['duplicateOrder'] }, '--duplicate-order'],
      [{ orderRecords: ['slim-list', 'bogus'] }, '--order-records'],
      [{ orderRecords: ['no-shipping-orders', 'shipping-orders-absent'] }, '--order-records'],
      [{ createAnswer: 'maybe' as SandboxOptions['createAnswer'] }, '--create-answer'],
      [{ pageCap: 0 }, '--page-cap'],
      [{ pageCap: Number.NaN }, '--page-cap'],
      [{ pageLimitMax: 2.5 }, '--page-limit-max'],
      [{ pageCount: 'some' as SandboxOptions['pageCount'] }, '--page-count'],
      [{ money: 'cents' as SandboxOptions['money'] }, '--money'],
      [{ orderFilters: 'sometimes' as SandboxOptions['orderFilters'] }, '--order-filters'],
    ];
    for (const [options, flag] of bad) {
      const error = await startSandbox({ port: 0, ...options }).catch((caught: unknown) => caught);
      expect(error, flag).toBeInstanceOf(SandboxOptionError);
      expect((error as SandboxOptionError).flag).toBe(flag);
      expect((error as Error).message.startsWith(`${flag} must `), (error as Error).message).toBe(true);
    }
  });
});
