// The baseline of `merch products list --all --jsonl`: the same records fetched page by
// page, one request after the other, with Node's built-in fetch, printed one per line.
// Usage: node fetch-pages.mjs BASE_URL PATH LIMIT (token from $MERCH_TOKEN).
const [base, path, limit] = process.argv.slice(2);
const headers = { authorization: `Bearer ${process.env.MERCH_TOKEN}` };
for (let offset = 0; ; offset += Number(limit)) {
  const response = await fetch(`${base}${path}?limit=${limit}&offset=${offset}`, { headers });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const page = await response.json();
  let text = '';
  for (const record of page.results) text += `${JSON.stringify(record)}\n`;
  if (text && !process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  if (page.results.length === 0 || page.next === null) break;
}
