import { causeOf, type ApiError } from '../../api/errors.js';

/** A change in how the service answers a follower's polls: it started failing (or fails differently now), or it answers again. */
export type ServiceChange = { kind: 'failing'; error: ApiError; retryInMs: number } | { kind: 'answering'; failedForMs: number };

/** The service has failed every poll for `forMs`; `last` is the latest failure. */
export interface Failing {
  forMs: number;
  last: ApiError;
}

/**
 * How the service has been answering the polls of `orders wait` and `orders watch`: each
 * passing failure (5xx, 429, no answer) and each answer is recorded, and `onChange` hears
 * of a change only (failing, failing in another way, answering again), not of every poll.
 * Until the first answer, the failing time counts from the start of the wait.
 */
export class ServiceHealth {
  private readonly started: number;
  private failingSince: number | undefined;
  private last: ApiError | undefined;
  private lastCause: string | undefined;
  private answeredOnce = false;

  constructor(
    private readonly onChange: (change: ServiceChange) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Whether any poll was answered. */
  get everAnswered(): boolean {
    return this.answeredOnce;
  }

  /** While the polls fail: for how long, and the latest failure. */
  get failing(): Failing | undefined {
    if (this.failingSince === undefined || this.last === undefined) return undefined;
    return { forMs: this.now() - (this.answeredOnce ? this.failingSince : this.started), last: this.last };
  }

  /** A poll failed in a way that passes; polling goes on in `retryInMs`. */
  failed(error: ApiError, retryInMs: number): void {
    this.failingSince ??= this.now();
    this.last = error;
    const cause = causeOf(error);
    if (cause === this.lastCause) return;
    this.lastCause = cause;
    this.onChange({ kind: 'failing', error, retryInMs });
  }

  /** A poll was answered. */
  answered(): void {
    this.answeredOnce = true;
    if (this.failingSince === undefined) return;
    const failedForMs = this.now() - this.failingSince;
    this.failingSince = undefined;
    this.last = undefined;
    this.lastCause = undefined;
    this.onChange({ kind: 'answering', failedForMs });
  }
}
