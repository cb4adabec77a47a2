/** The sandbox's complete status value lists (the specification shows only some values). */
export interface NamedRef<Id = number> {
  id: Id;
  name: string;
}

const ref = <Id>(id: Id, name: string): NamedRef<Id> => ({ id, name });

export const ORDER_STATUSES = [
  ref(1, 'Pending'),
  ref(2, 'In Production'),
  ref(3, 'Shipped'),
  ref(4, 'Delivered'),
  ref(5, 'Cancelled'),
];
export const ORDER_TYPES = [ref(1, 'Draft'), ref(2, 'Submitted')];
export const PAYMENT_PENDING = ref('pending_payment', 'Pending payment');
export const PAYMENT_PAID = ref('paid', 'Paid');
export const SHIPPING_STATUSES = [
  ref(1, 'Created'),
  ref(2, 'Scheduled'),
  ref(3, 'Shipped'),
  ref(4, 'Delivered'),
];
export const LINE_ITEM_STATUSES = [ref(1, 'Pending'), ref(2, 'Fulfilled')];
export const DESIGN_STATUSES = [
  ref(1, 'Pending'),
  ref(2, 'In Review'),
  ref(3, 'Changes Requested'),
  ref(4, 'Approved'),
];

/** A copy of the status with that id (records must not share objects). */
export function status<Id>(list: readonly NamedRef<Id>[], id: Id): NamedRef<Id> {
  const found = list.find((item) => item.id === id);
  if (!found) throw new Error(`unknown status ${String(id)}`);
  return { ...found };
}
