import { IMAGE_ORIGIN, type Color, type Size, type SupplierProduct } from './catalog.js';
import { DESIGN_STATUSES, status, type NamedRef } from './statuses.js';

/** Product parts: one per color x size of a product, computed from the product on demand. */
export interface PartSource {
  id: number;
  name: string;
  colors: Color[];
  sizes: Size[];
  /** The design tool sku of the product; parts of custom products have none. */
  sku: string | null;
  designStatus: NamedRef;
  weight: string;
  weightUnit: NamedRef<string>;
  productionTime: number;
}

export interface Part {
  id: number;
  product_id: number;
  product_name: string;
  code: string;
  design_tool_sku?: string;
  attributes: Record<string, string>;
  variant: { color: Color; size: Size };
  image: string;
  blank_image: string;
  part_type: NamedRef;
  items: unknown[];
  imprint_area: null;
  design_status: NamedRef;
  mockup_pdf_url: null;
  product_weight: string;
  product_weight_unit: NamedRef<string>;
  storage_category: NamedRef<string>;
  product_production_time: number;
  media_contents?: unknown[];
  imprint_areas?: unknown[];
}

export const EXPANSIONS = ['media_contents', 'imprint_areas'] as const;
export type Expansion = (typeof EXPANSIONS)[number];

/** Part ids are `product id * 100 + index`, so a part id names its product. */
const PARTS_PER_PRODUCT = 100;

export function supplierPartSource(product: SupplierProduct): PartSource {
  return {
    id: product.id,
    name: product.name,
    colors: product.colors,
    sizes: product.sizes,
    sku: product.design_tool_sku,
    designStatus: status(DESIGN_STATUSES, 4),
    weight: product.weight,
    weightUnit: product.weight_unit,
    productionTime: product.production_time,
  };
}

export function partsOf(source: PartSource): Part[] {
  const parts: Part[] = [];
  for (const color of source.colors) {
    for (const size of source.sizes) {
      const index = parts.length + 1;
      const id = source.id * PARTS_PER_PRODUCT + index;
      const image = `${IMAGE_ORIGIN}/parts/${id}.png`;
      parts.push({
        id,
        product_id: source.id,
        product_name: source.name,
        code: `P${source.id}-${String(index).padStart(2, '0')}`,
        ...(source.sku === null ? {} : { design_tool_sku: `${source.sku}-${String(index).padStart(2, '0')}` }),
        attributes: { color: color.name, size: size.name },
        variant: { color: { ...color }, size: { ...size } },
        image,
        blank_image: `${IMAGE_ORIGIN}/parts/${id}-blank.png`,
        part_type: { id: 1, name: 'Product' },
        items: [],
        imprint_area: null,
        design_status: { ...source.designStatus },
        mockup_pdf_url: null,
        product_weight: source.weight,
        product_weight_unit: { ...source.weightUnit },
        storage_category: { id: 'standard', name: 'Standard' },
        product_production_time: source.productionTime,
      });
    }
  }
  return parts;
}

/** The part with those attribute values (case-insensitive), if any. */
export function findPart(parts: Part[], attributes: Record<string, string>): Part | undefined {
  return parts.find((part) =>
    Object.entries(attributes).every(
      ([name, value]) => part.attributes[name]?.toLowerCase() === value.toLowerCase(),
    ),
  );
}

export function expandPart(part: Part, expand: readonly Expansion[]): Part {
  const expanded = { ...part };
  if (expand.includes('media_contents')) {
    expanded.media_contents = [
      { id: part.id * 10 + 1, type: 'image', url: part.image, is_primary: true },
      { id: part.id * 10 + 2, type: 'image', url: part.blank_image, is_primary: false },
    ];
  }
  if (expand.includes('imprint_areas')) {
    expanded.imprint_areas = [
      imprintArea(part.id * 10 + 1, { id: 1, name: 'Front' }, 3.5, 3, 8, 10),
      imprintArea(part.id * 10 + 2, { id: 2, name: 'Back' }, 3.5, 2.5, 8, 11),
    ];
  }
  return expanded;
}

function imprintArea(id: number, location: NamedRef, x: number, y: number, width: number, height: number) {
  return { id, name: location.name, location, coordinates: { x, y, width, height, unit: 'in' } };
}
