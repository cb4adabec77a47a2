import type { ApiClient } from '../client.js';
import { ApiError } from '../errors.js';
import { redactSecret } from '../trace.js';
import { httpUrl, looseObject } from '../../lib/shapes.js';

// The external design tool's own API (spec 4.7, 5). It is not the service: requests go to
// the design tool URL with `X-Api-Key`, never with the service's bearer token. Completing
// the cart is the service's endpoint: `completeDesignToolCart` in custom-products.ts.

/** The body of `POST {design_tool_url}/api/smartlink` (spec 4.7). */
export interface SmartlinkRequest {
  userId: string;
  sku: string;
  language: string;
  country: string;
  currency: string;
  quantity: number;
  productOptions: { enable: boolean; openOnStart: boolean };
  /** Where the browser returns after "Add to cart"; honoured by the sandbox, registered with the real provider. */
  cartUrl?: string;
}

const smartlinkResponseSchema = looseObject({ URL: httpUrl() });

/** Requests a design link; returns the URL the customer is sent to. */
export async function requestSmartlink(client: ApiClient, designToolUrl: string, apiKey: string, body: SmartlinkRequest): Promise<string> {
  try {
    const response = await client.request({
      method: 'POST',
      path: `${designToolUrl.replace(/\/+$/, '')}/api/smartlink`,
      body,
      auth: false,
      headers: { 'x-api-key': apiKey },
      schema: smartlinkResponseSchema,
    });
    return response.data.URL;
  } catch (error) {
    throw error instanceof ApiError ? designToolError(error, apiKey, designToolUrl, client.baseUrl) : error;
  }
}

/**
 * The design tool's error as the user sees it: the key redacted should the server echo it,
 * and the design tool's URL, for a hint about the design tool (its key, its URL) rather
 * than the service's (src/commands/hints.ts).
 */
function designToolError(error: ApiError, apiKey: string, designToolUrl: string, baseUrl: string): ApiError {
  const redact = (text: string) => redactSecret(text, apiKey);
  const designTool = { url: designToolUrl, apart: !designToolUrl.startsWith(`${baseUrl}/`) };
  return new ApiError(redact(error.message), error.kind, error.status, undefined, error.hint && redact(error.hint), error.afterAmbiguousAttempt, error.failure, error.request, {
    ...error.facts,
    designTool,
  });
}
