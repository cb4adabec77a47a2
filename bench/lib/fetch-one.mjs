// The baseline of `merch products list --json`: the same GET with Node's built-in fetch,
// printing the body. Usage: node fetch-one.mjs URL (token from $MERCH_TOKEN).
const response = await fetch(process.argv[2], { headers: { authorization: `Bearer ${process.env.MERCH_TOKEN}` } });
if (!response.ok) throw new Error(`HTTP ${response.status}`);
process.stdout.write(await response.text());
