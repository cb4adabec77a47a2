/**
 * The list endpoints' shared shape (spec sections 3, 4.1, 4.2; real-service.md): limit/offset
 * pages whose `count` is the size of the whole filtered result, and the fields a list can be
 * ordered by (`ordering=-created_at`). The sandbox serves it; the CLI's `--all` and `--sort`
 * read it.
 */

/** The orderable fields of supplier and custom products. */
export const ORDERING_FIELDS = ['id', 'created_at', 'name'] as const;

/** Orders are ordered newest first by `ordering=-created_at` (DRF's OrderingFilter). */
export const ORDER_ORDERING_FIELDS = ['id', 'created_at'] as const;

/** One page of a list, as the service sends it. */
export interface PageEnvelope<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}
