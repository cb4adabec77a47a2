import { money, type Money } from './money.js';
import { createRng, deriveSeed, intBetween, pick, sample } from './rng.js';
import type { NamedRef } from './statuses.js';

/** The supplier catalog, generated deterministically from the seed; never persisted. */
export interface Color {
  hex: string;
  name: string;
}

export interface Size {
  name: string;
}

export interface SupplierProduct {
  id: number;
  name: string;
  description: string;
  brand: string;
  design_tool_sku: string;
  price: Money;
  category: NamedRef;
  categories: NamedRef[];
  colors: Color[];
  sizes: Size[];
  tags: string[];
  image: string;
  created_at: string;
  minimum: number;
  production_time: number;
  is_pod: boolean;
  weight: string;
  weight_unit: NamedRef<string>;
}

export const IMAGE_ORIGIN = 'https://images.merch-sandbox.invalid';

interface Kind {
  category: NamedRef;
  noun: string;
  sizes: string[];
  price: [number, number];
  weight: string;
}

const kind = (id: number, name: string, noun: string, sizes: string[], price: [number, number], weight: string): Kind => ({
  category: { id, name },
  noun,
  sizes,
  price,
  weight,
});

export const KINDS: Kind[] = [
  kind(1, 'T-Shirts', 'T-Shirt', ['S', 'M', 'L', 'XL', '2XL'], [1200, 2400], '0.40'),
  kind(2, 'Hoodies', 'Hoodie', ['S', 'M', 'L', 'XL'], [3000, 5000], '1.10'),
  kind(3, 'Mugs', 'Mug', ['11 oz', '15 oz'], [900, 1600], '0.90'),
  kind(4, 'Hats', 'Cap', ['One Size'], [1400, 2600], '0.25'),
  kind(5, 'Bags', 'Tote Bag', ['One Size'], [1100, 2200], '0.35'),
  kind(6, 'Stickers', 'Sticker', ['2 in', '3 in', '4 in'], [150, 400], '0.01'),
  kind(7, 'Notebooks', 'Notebook', ['A5', 'A6'], [800, 1500], '0.30'),
];

/** Secondary categories a product may also belong to. */
export const EXTRA_CATEGORIES: NamedRef[] = [
  { id: 8, name: 'Eco-Friendly' },
  { id: 9, name: 'Best Sellers' },
];

export const COLORS: Color[] = [
  { hex: '000000', name: 'Black' },
  { hex: 'FFFFFF', name: 'White' },
  { hex: '1F2A44', name: 'Navy' },
  { hex: '9EA3A8', name: 'Heather Grey' },
  { hex: 'C8102E', name: 'Red' },
  { hex: '2E5E3E', name: 'Forest Green' },
  { hex: '2251A3', name: 'Royal Blue' },
  { hex: '6C1F2E', name: 'Maroon' },
];

const ADJECTIVES = ['Classic', 'Premium', 'Vintage', 'Eco', 'Heavyweight', 'Soft', 'Sport', 'Urban', 'Retro', 'Essential'];
const BRANDS = ['Northwind', 'Gildan', 'Bella Canvas', 'Stanley', 'Moleskine'];
const TAGS = ['bestseller', 'new', 'organic', 'unisex', 'premium', 'budget'];
const CATALOG_START = Date.UTC(2024, 0, 1);
const DAY = 86_400_000;

export function skuOf(productId: number): string {
  return `DT-${String(productId).padStart(6, '0')}`;
}

function generateProduct(seed: number, id: number): SupplierProduct {
  const rng = createRng(deriveSeed(seed, id));
  const kind = pick(rng, KINDS);
  const adjective = pick(rng, ADJECTIVES);
  const extra = rng() < 0.3 ? [pick(rng, EXTRA_CATEGORIES)] : [];
  const colors = sample(rng, COLORS, intBetween(rng, 2, 4));
  const createdAt = new Date(CATALOG_START + Math.floor(rng() * 365 * DAY));
  return {
    id,
    name: `${adjective} ${kind.noun}`,
    description: `${adjective} ${kind.noun.toLowerCase()} from the ${kind.category.name.toLowerCase()} range, ready for your design.`,
    brand: pick(rng, BRANDS),
    design_tool_sku: skuOf(id),
    price: money(intBetween(rng, kind.price[0] / 10, kind.price[1] / 10) * 10),
    category: { ...kind.category },
    categories: [{ ...kind.category }, ...extra.map((category) => ({ ...category }))],
    colors: colors.map((color) => ({ ...color })),
    sizes: kind.sizes.map((name) => ({ name })),
    tags: sample(rng, TAGS, intBetween(rng, 1, 2)),
    image: `${IMAGE_ORIGIN}/supplier-products/${id}.png`,
    created_at: createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    minimum: pick(rng, [1, 1, 6, 12]),
    production_time: intBetween(rng, 2, 7),
    is_pod: rng() < 0.5,
    weight: kind.weight,
    weight_unit: { id: 'lb', name: 'Pound' },
  };
}

export class Catalog {
  readonly products: SupplierProduct[];
  private readonly bySkuMap: Map<string, SupplierProduct>;

  constructor(seed: number, size: number) {
    this.products = Array.from({ length: size }, (_, index) => generateProduct(seed, index + 1));
    this.bySkuMap = new Map(this.products.map((product) => [product.design_tool_sku, product]));
  }

  get(id: number): SupplierProduct | undefined {
    return this.products[id - 1];
  }

  /** The supplier product of a product sku or of one of its parts' skus (`DT-000001-...`). */
  bySku(sku: string): SupplierProduct | undefined {
    return this.bySkuMap.get(sku.split('-').slice(0, 2).join('-'));
  }
}
