import { escapeHtml } from '../lib/escape-html.js';
import type { SupplierProduct } from './catalog.js';

/** The design tool's editor page: plain HTML, a form, no scripts and no external resources. */

const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; color: #222; }
.picture { height: 12rem; border: 2px dashed #999; display: flex; align-items: center; justify-content: center; color: #666; margin: 1rem 0; }
input[type=text] { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
button { margin-top: 1rem; padding: .6rem 1.2rem; font-size: 1rem; }
</style>
</head>
<body>
${body}
</body>
</html>
`;

export interface EditorPage {
  product: SupplierProduct;
  action: string;
  session: string;
  userToken: string;
}

export function editorPage({ product, action, session, userToken }: EditorPage): string {
  return page(
    `Design: ${product.name}`,
    `<h1>${escapeHtml(product.name)}</h1>
<p>Sandbox design tool. Sku <code>${escapeHtml(product.design_tool_sku)}</code>.</p>
<div class="picture" aria-label="Product picture">${escapeHtml(product.name)}</div>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="session" value="${escapeHtml(session)}">
<input type="hidden" name="userToken" value="${escapeHtml(userToken)}">
<label for="design-text">Your design (text)</label>
<input type="text" id="design-text" name="design" required maxlength="200" placeholder="Type your design">
<button type="submit" id="add-to-cart">Add to cart</button>
</form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
}
