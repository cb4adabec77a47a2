import { createOrder } from '../../support/sandbox.js';

/** A new order on the sandbox, with an external id of its own (two recipients, so two shipping orders). */
export function orderMaker(prefix: string): (sandbox: { url: string }) => Promise<any> {
  let made = 0;
  return (sandbox) => createOrder(sandbox, `${prefix}-${process.pid}-${++made}`);
}

/** A set-up request again while a sandbox's injected faults refuse it (a refused request does nothing). */
export async function despiteFaults<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}
