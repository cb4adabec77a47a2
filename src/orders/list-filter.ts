import type { OrderFilters } from '../api/resources/orders.js';
import type { Order } from '../api/schemas.js';
import { named } from '../output/format.js';

/**
 * Which orders a list keeps: those with one of some statuses (by name, without regard to
 * case; `in-production` is `In Production`) created at or after an instant. The order
 * list's filters are not shown in the specification: the parameters are sent (`status`,
 * `created_at__gte`, which the sandbox honours), and every record that comes back is
 * checked, so a service that ignores them is filtered here instead.
 */
export interface OrderListFilter {
  statuses?: readonly string[];
  createdSince?: Date;
}

/** A status name as compared: lower case, `-` and `_` as spaces, spaces single. */
export function statusKey(name: string): string {
  return name.trim().toLowerCase().replace(/[-_\s]+/g, ' ');
}

export function isFiltering(filter: OrderListFilter): boolean {
  return (filter.statuses?.length ?? 0) > 0 || filter.createdSince !== undefined;
}

/** The query parameters that ask the service to filter. */
export function filterParameters(filter: OrderListFilter): OrderFilters {
  return {
    ...(filter.statuses?.length ? { status: filter.statuses.map(statusKey).join(',') } : {}),
    ...(filter.createdSince ? { created_at__gte: filter.createdSince.toISOString() } : {}),
  };
}

/** Whether the order passes. An order without a readable `created_at` does not pass a `createdSince`. */
export function passes(order: Order, filter: OrderListFilter): boolean {
  if (filter.statuses?.length && !filter.statuses.map(statusKey).includes(statusKey(named(order.status)))) return false;
  if (filter.createdSince) {
    const created = Date.parse(order.created_at ?? '');
    if (Number.isNaN(created) || created < filter.createdSince.getTime()) return false;
  }
  return true;
}

/** What filtering saw: records read and kept, and whether every record the service sent passed (it honoured the filter, as far as anyone can tell). */
export interface FilterTally {
  read: number;
  kept: number;
  serviceFiltered: boolean;
}

/** The records that pass, as they come; `tally` is updated as they go by. */
export async function* keepPassing(records: AsyncIterable<Order>, filter: OrderListFilter, tally: FilterTally): AsyncGenerator<Order> {
  for await (const order of records) {
    tally.read++;
    if (!passes(order, filter)) {
      tally.serviceFiltered = false;
      continue;
    }
    tally.kept++;
    yield order;
  }
}
