import { IMAGE_ORIGIN, type Color, type Size, type SupplierProduct } from './catalog.js';
import { partsOf, type PartSource } from './parts.js';
import { DESIGN_STATUSES, status, type NamedRef } from './statuses.js';

/** A Custom Product record in the full shape of spec section 2.2 (plus created_at). */
export interface CustomProduct {
  id: number;
  name: string;
  description: string;
  brand: string;
  prices: { currency: string; price: { amount: number; display: string } };
  category: NamedRef;
  categories: NamedRef[];
  type: NamedRef;
  slug: string;
  image: string;
  minimum: number;
  production_time: number;
  sellable: boolean;
  tags: string[];
  rating: null;
  default_part: unknown;
  storage_category: NamedRef<string>;
  weight: string;
  weight_unit: NamedRef<string>;
  is_pod: boolean;
  design_status: NamedRef;
  available_attributes: { colors: Color[]; sizes: Size[] };
  unavailable_variants: unknown[];
  can_be_container: boolean;
  can_be_filler: boolean;
  unavailable_inventory_parts: unknown[];
  decorations: unknown[];
  blank_image: string | null;
  design_lab_ready: boolean;
  max_sample_quantity: number;
  sample_price: number;
  selected_mockup: { design_status: NamedRef; [key: string]: unknown };
  number_of_variants: number;
  requires_design: boolean;
  created_at: string;
  supplier_product: number;
}

export interface NewCustomProduct {
  id: number;
  supplier: SupplierProduct;
  name: string;
  tags: string[];
  createdAt: string;
  designStatusId: number;
}

/** What decorating a product adds to the supplier's price, in cents. */
export const DECORATION_PRICE = 500;

export function customPartSource(product: CustomProduct): PartSource {
  return {
    id: product.id,
    name: product.name,
    colors: product.available_attributes.colors,
    sizes: product.available_attributes.sizes,
    sku: null,
    designStatus: product.design_status,
    weight: product.weight,
    weightUnit: product.weight_unit,
    productionTime: product.production_time,
  };
}

function locationDecoration(supplierId: number) {
  return {
    id: supplierId * 10 + 1,
    supplier: 1,
    active: true,
    location: { id: 1, name: 'Front' },
    imprint_method: { id: 1, name: 'Direct to Garment' },
    supplier_imprint_method: 'DTG',
    max_imprint_colors: 8,
    default: true,
    default_number_colors: 1,
  };
}

export function buildCustomProduct(input: NewCustomProduct): CustomProduct {
  const { id, supplier } = input;
  const amount = supplier.price.amount + DECORATION_PRICE;
  const designStatus = status(DESIGN_STATUSES, input.designStatusId);
  const image = `${IMAGE_ORIGIN}/custom-products/${id}.png`;
  const slug = `${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}-${id}`;
  const product: CustomProduct = {
    id,
    name: input.name,
    description: `${input.name}, made from ${supplier.name}.`,
    brand: supplier.brand,
    prices: { currency: supplier.price.currency, price: { amount, display: (amount / 100).toFixed(2) } },
    category: { ...supplier.category },
    categories: supplier.categories.map((category) => ({ ...category })),
    type: { id: 1, name: 'Custom Product' },
    slug,
    image,
    minimum: supplier.minimum,
    production_time: supplier.production_time,
    sellable: true,
    tags: [...input.tags],
    rating: null,
    default_part: null,
    storage_category: { id: 'standard', name: 'Standard' },
    weight: supplier.weight,
    weight_unit: { ...supplier.weight_unit },
    is_pod: supplier.is_pod,
    design_status: designStatus,
    available_attributes: {
      colors: supplier.colors.map((color) => ({ ...color })),
      sizes: supplier.sizes.map((size) => ({ ...size })),
    },
    unavailable_variants: [],
    can_be_container: false,
    can_be_filler: false,
    unavailable_inventory_parts: [],
    decorations: [{ mockup_image: image, notes: null, location_decoration: locationDecoration(supplier.id) }],
    blank_image: supplier.image,
    design_lab_ready: true,
    max_sample_quantity: 5,
    sample_price: amount,
    selected_mockup: {
      id: id * 10 + 1,
      product: id,
      type: { id: 1, name: 'Mockup' },
      image,
      needs_design: false,
      design_status: { ...designStatus },
      mockup_location_details: [
        { id: id * 10 + 1, image, artwork: null, dimensions: null, location_decoration: locationDecoration(supplier.id), design_lab_info: {} },
      ],
      children: [],
      mockup_pdf_url: null,
    },
    number_of_variants: supplier.colors.length * supplier.sizes.length,
    requires_design: true,
    created_at: input.createdAt,
    supplier_product: supplier.id,
  };
  product.default_part = defaultPart(product);
  return product;
}

function defaultPart(product: CustomProduct) {
  const part = partsOf(customPartSource(product))[0]!;
  return {
    id: part.id,
    blank_image: part.blank_image,
    image: part.image,
    variant: part.variant,
    imprint_area: null,
    supplier_inventories: [{ id: part.id, quantity: 1000, is_available: true, is_pod: product.is_pod }],
  };
}

/** Moves a product's design to another status, in the record and its mockup. */
export function setDesignStatus(product: CustomProduct, id: number): void {
  product.design_status = status(DESIGN_STATUSES, id);
  product.selected_mockup.design_status = status(DESIGN_STATUSES, id);
}
