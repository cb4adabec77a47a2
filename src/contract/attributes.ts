/**
 * How a product's `available_attributes` (`{colors: [{name, hex}], sizes: [{name}]}`) become
 * the attributes a line item names (`{color: "Navy", size: "M"}`): each list key in the
 * singular, each value by its `name` (or itself, when a plain string). Matching is
 * case-insensitive; the product's spelling is the canonical one.
 */

export interface OfferedAttribute {
  /** The line item's attribute name: `color` for `colors`. */
  name: string;
  values: string[];
}

export function offeredAttributes(available: Record<string, unknown> | null | undefined): OfferedAttribute[] {
  const out: OfferedAttribute[] = [];
  for (const [key, list] of Object.entries(available ?? {})) {
    if (!Array.isArray(list)) continue;
    const values = list
      .map((v: unknown) => (typeof v === 'string' ? v : isNamed(v) ? v.name : undefined))
      .filter((v): v is string => v !== undefined);
    if (values.length > 0) out.push({ name: attributeName(key), values });
  }
  return out;
}

/** `colors` -> `color`, `Sizes` -> `size`. */
export function attributeName(key: string): string {
  const lower = key.toLowerCase();
  return lower.endsWith('s') ? lower.slice(0, -1) : lower;
}

/** The offered attribute a line item's attribute name means (`color`, `Color` or `colors`). */
export function findOffered(offered: readonly OfferedAttribute[], name: string): OfferedAttribute | undefined {
  const wanted = attributeName(name);
  return offered.find((o) => o.name === wanted);
}

/** The product's spelling of a value (`m` -> `M`), or undefined when it is not offered. */
export function matchValue(attribute: OfferedAttribute, value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  return attribute.values.find((v) => v.toLowerCase() === wanted);
}

function isNamed(v: unknown): v is { name: string } {
  return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';
}
