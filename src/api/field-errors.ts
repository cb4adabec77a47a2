import { formatPath, type FieldPath } from '../contract/field-path.js';

/**
 * Validation error bodies, as Django REST Framework writes them and the sandbox answers:
 * a map from field to a list of messages, nested like the request
 * (`{"line_items": [{}, {"attributes": {"color": ["Select a valid choice."]}}]}`), with
 * `non_field_errors` for object-level rules. Flat keys (`shipping_orders[0].line_items[1].id`)
 * and plain strings are read too. This is the one reader of such bodies: the CLI's error
 * messages (errors.ts), the order sender's duplicate check and the agreement test between
 * the CLI and the sandbox use it.
 */

export interface FieldError {
  /** Where in the request; empty for the whole request (`non_field_errors`, `detail`). */
  path: FieldPath;
  message: string;
}

/** Object-level keys: their messages are about the whole object they sit in. */
const OBJECT_LEVEL = new Set(['non_field_errors', 'detail']);

/** Every message of an error body with the path it is attached to, in the body's order. */
export function fieldErrorsOf(body: unknown, path: FieldPath = []): FieldError[] {
  if (typeof body === 'string') return [{ path, message: body }];
  if (typeof body === 'number' || typeof body === 'boolean') return [{ path, message: String(body) }];
  if (Array.isArray(body)) {
    // A list of messages for one field, or one entry per item of a list field ({} for an item without errors).
    if (body.every((item) => typeof item === 'string')) return body.map((message) => ({ path, message }));
    return body.flatMap((item, index) => fieldErrorsOf(item, [...path, index]));
  }
  if (typeof body === 'object' && body !== null) {
    return Object.entries(body).flatMap(([key, value]) => fieldErrorsOf(value, OBJECT_LEVEL.has(key) ? path : [...path, key]));
  }
  return [];
}

/** `line_items[1].attributes.color: Select a valid choice.`; a message about the whole request stands alone. */
export function formatFieldError(error: FieldError): string {
  return error.path.length === 0 ? error.message : `${formatPath(error.path)}: ${error.message}`;
}
