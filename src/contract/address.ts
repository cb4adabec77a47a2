/**
 * Recipient and billing address fields (spec 4.4: one field set for both, all strings).
 *
 * Which fields are individually required is "not shown" by the interface, so neither the
 * CLI nor the sandbox refuses an address for a missing field: the CLI warns about the fields
 * a parcel needs to arrive (USUAL_RECIPIENT_FIELDS) and the service decides.
 */
export const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'company',
  'line_1',
  'line_2',
  'city',
  'state',
  'postal_code',
  'country',
] as const;

export type AddressField = (typeof ADDRESS_FIELDS)[number];
export type Address = Partial<Record<AddressField, string>>;

/** What a shipment needs to reach someone: warned about when missing, never refused locally. */
export const USUAL_RECIPIENT_FIELDS = [
  'first_name',
  'last_name',
  'line_1',
  'city',
  'postal_code',
  'country',
] as const satisfies readonly AddressField[];
