import { summariseIssues, type ValidationIssue } from './validate.js';
import type { MissingPiece } from './builder.js';

/**
 * Why an order was not placed, as the order domain says it: typed, so the command layer
 * chooses the exit code and the flags to name. Nothing here knows of flags or exit codes.
 */

/** The order breaks the contract's rules (src/contract/order-rules.ts): nothing was sent. */
export class OrderInvalid extends Error {
  constructor(
    readonly issues: readonly ValidationIssue[],
    /** The attribute columns of its recipients list, if it has one (a hint tells a missing column from a row's empty cell). */
    readonly attributeColumns?: readonly string[],
  ) {
    super(summariseIssues(issues));
    this.name = 'OrderInvalid';
  }
}

/** The external id is already an order of the service, and that order is not this one. */
export class ExternalIdTaken extends Error {
  constructor(
    readonly externalId: string,
    readonly orderId: number | bigint | string,
    readonly difference: string,
  ) {
    super(`external id ${externalId} is already order ${orderId}, which differs from this order (${difference})`);
    this.name = 'ExternalIdTaken';
  }
}

/**
 * The service answered the create (2xx, not 201) with an order that is not the one sent:
 * another external id, or other content (a service that answers a repeated external id with
 * its earlier order, or stores what it was sent otherwise). Not reported placed: a person
 * checks it.
 */
export class AnsweredWithAnotherOrder extends ExternalIdTaken {
  constructor(externalId: string, orderId: number | bigint | string, difference: string) {
    super(externalId, orderId, difference);
    this.message = `the service answered the create of external id ${externalId} with order ${orderId}, which is not what was sent (${difference}): an earlier order under this external id, or this one stored otherwise; it is not reported placed`;
    this.name = 'AnsweredWithAnotherOrder';
  }
}

/**
 * This machine's journal says the order was created as order N, and the service does not
 * show it (404, or that id is now another external id's order): doubt, never a reason to
 * place it again on that ground alone.
 */
export class CreatedOrderMissing extends Error {
  constructor(
    readonly externalId: string,
    readonly orderId: number | bigint | string,
  ) {
    super(`this machine's journal says external id ${externalId} was created as order ${orderId}, but the service does not show that order; it was not placed again`);
    this.name = 'CreatedOrderMissing';
  }
}

/** The external id is already an order whose record lacks a field needed to tell whether it is this one. */
export class RecordIncomparable extends Error {
  constructor(
    readonly externalId: string,
    readonly orderId: number | bigint | string,
    readonly missing: string,
  ) {
    super(`external id ${externalId} is already order ${orderId}, and the service's record of it has no ${missing}, so it cannot be compared with this order`);
    this.name = 'RecordIncomparable';
  }
}

/**
 * What merch cannot tell of a run's earlier orders, so nothing of the run is sent (issue 28:
 * doubt never sends): an order whose record cannot show which rows it holds (`order`), a
 * shipping order that matches no row while rows are left to send (`shipment`), or a service
 * whose records carry no external id, so a run's orders cannot be found at all (`unfindable`).
 */
export class RunInDoubt extends Error {
  constructor(
    readonly reason: 'order' | 'shipment' | 'unfindable',
    message: string,
    /** The order to look at, when there is one. */
    readonly orderId?: number | bigint | string,
  ) {
    super(message);
    this.name = 'RunInDoubt';
  }
}

/**
 * The service's answer was lost, or it could not be told whether an attempt created the
 * order: nothing more is sent, and a rerun of the same command, which uses the same
 * external id, finishes it safely.
 */
export class OutcomeUnknown extends Error {
  constructor(
    message: string,
    readonly externalId: string,
  ) {
    super(message);
    this.name = 'OutcomeUnknown';
  }
}

/** The run was stopped on purpose (a port said so: a confirmation answered no, a test's crash). */
export class PlacingStopped extends Error {
  constructor(message = 'no order was created') {
    super(message);
    this.name = 'PlacingStopped';
  }
}

/** No payment method was given and the account has no default one (`methodIds`: the ones it has). */
export class NoDefaultPaymentMethod extends Error {
  constructor(readonly methodIds: readonly string[]) {
    super(methodIds.length === 0 ? 'the account has no payment method' : 'the account has no default payment method');
    this.name = 'NoDefaultPaymentMethod';
  }
}

/** The pieces make no whole order, and nothing completed them (`completed`: even what the wizard was told left these missing): nothing was sent. */
export class OrderIncomplete extends Error {
  constructor(
    readonly missing: readonly MissingPiece[],
    readonly completed: boolean,
  ) {
    super('the order is incomplete');
    this.name = 'OrderIncomplete';
  }
}

/** What is to be placed is no longer what was planned (`merch mcp`: plan_order, then place_order): nothing was sent. */
export class PlanChanged extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlanChanged';
  }
}
