import type { Catalog } from './catalog.js';
import { emptyOAuthState } from './oauth/records.js';
import { buildCustomProduct } from './custom-product.js';
import type { Address, PaymentMethod } from './records.js';
import { alphanumeric, createRng, deriveSeed, intBetween, pick, sample, type Rng } from './rng.js';
import { STATE_VERSION, type AccountState, type Owned, type State } from './state.js';
import type { CustomProduct } from './custom-product.js';

/** The seeded starting state: two accounts with payment methods and custom products. */
export const SEEDED_ACCOUNTS = [
  { id: 'acme', token: 'sandbox-token', company: 'Acme', city: 'Springfield', state: 'IL', postal: '62701' },
  { id: 'globex', token: 'sandbox-token-2', company: 'Globex', city: 'Portland', state: 'OR', postal: '97201' },
] as const;

/** Custom product ids start here, so they never collide with supplier product ids. */
export const FIRST_CUSTOM_PRODUCT_ID = 100001;
const CUSTOM_PRODUCTS_PER_ACCOUNT = 5;
const THEMES = ['Team', 'Summer Party', 'Launch', 'Staff', 'Conference', 'Holiday'];
export const CUSTOM_TAGS = ['summer', 'team', 'promo', 'staff', 'event'];
const SEED_EPOCH = Date.UTC(2025, 0, 1);
const DAY = 86_400_000;

function address(city: string, state: string, postal: string): Address {
  return {
    line_1: '1 Market Street',
    line_2: null,
    city,
    state,
    postal_code: postal,
    country: 'US',
    is_po_box: false,
    is_valid: true,
    is_business_address: true,
  };
}

function paymentMethods(rng: Rng, name: string, email: string, billing: Address): PaymentMethod[] {
  const customer = `cus_${alphanumeric(rng, 14)}`;
  const details = {
    name,
    email,
    phone: null,
    address: { line1: billing.line_1, line2: null, city: billing.city, state: billing.state, postal_code: billing.postal_code, country: billing.country },
  };
  const digits = () => String(intBetween(rng, 0, 9999)).padStart(4, '0');
  const created = Math.floor(SEED_EPOCH / 1000);
  return [
    {
      id: `pm_${alphanumeric(rng, 24)}`,
      type: 'card',
      billing_details: details,
      customer,
      is_default: true,
      created,
      card: { brand: pick(rng, ['visa', 'mastercard', 'amex']), country: 'US', exp_month: intBetween(rng, 1, 12), exp_year: intBetween(rng, 2028, 2032), last4: digits() },
    },
    {
      id: `pm_${alphanumeric(rng, 24)}`,
      type: 'us_bank_account',
      billing_details: details,
      customer,
      is_default: false,
      created: created + 60,
      us_bank_account: { account_type: 'checking', bank_name: 'STRIPE TEST BANK', last4: digits(), routing_number: '110000000' },
    },
  ];
}

export function seedState(seed: number, catalog: Catalog): State {
  const rng = createRng(deriveSeed(seed, 0xacc0));
  let nextCustomProduct = FIRST_CUSTOM_PRODUCT_ID;
  const accounts: AccountState[] = [];
  const customProducts: Owned<CustomProduct>[] = [];
  for (const seeded of SEEDED_ACCOUNTS) {
    const billing = address(seeded.city, seeded.state, seeded.postal);
    accounts.push({
      id: seeded.id,
      token: seeded.token,
      billing_address: billing,
      payment_methods: paymentMethods(rng, `${seeded.company} Inc.`, `billing@${seeded.id}.example`, billing),
      cart_url: null,
    });
    for (let i = 0; i < CUSTOM_PRODUCTS_PER_ACCOUNT; i++) {
      const supplier = catalog.get(intBetween(rng, 1, catalog.products.length))!;
      const record = buildCustomProduct({
        id: nextCustomProduct++,
        supplier,
        name: `${seeded.company} ${THEMES[i % THEMES.length]} ${supplier.name}`,
        tags: sample(rng, CUSTOM_TAGS, intBetween(rng, 1, 3)),
        createdAt: new Date(SEED_EPOCH + intBetween(rng, 0, 180) * DAY).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        designStatusId: 4,
      });
      customProducts.push({ account: seeded.id, record });
    }
  }
  return {
    version: STATE_VERSION,
    next_ids: { order: 1001, shipping_order: 5001, line_item: 1, recipient: 1, custom_product: nextCustomProduct, webhook: 1 },
    accounts,
    custom_products: customProducts,
    orders: [],
    webhooks: [],
    design_sessions: [],
    carts: [],
    oauth: emptyOAuthState(),
  };
}
