import { Option } from '@commander-js/extra-typings';
import { defineCommand } from '../define-command.js';
import { requires } from '../flag-rules.js';
import { duration, listenPort, nonEmpty, positiveInt } from '../parse.js';

export const designLinkCommand = defineCommand({
  name: 'design-link',
  description: 'get a link to the external design tool (POST {design_tool_url}/api/smartlink with X-Api-Key)',
  declare: (command) =>
    command
      .requiredOption('--sku <sku>', 'design tool sku of a supplier product or product part', nonEmpty)
      .requiredOption('--user-id <id>', 'your id for the customer who designs', nonEmpty)
      .option('--language <code>', 'language of the editor', nonEmpty, 'en')
      .option('--country <code>', 'country of the customer', nonEmpty, 'US')
      .option('--currency <code>', 'currency of the prices shown', nonEmpty, 'USD')
      .option('--quantity <n>', 'quantity to design for', positiveInt, 1)
      .option('--no-enable', 'send productOptions.enable = false')
      .option('--open-on-start', 'send productOptions.openOnStart = true')
      .option('--open', 'open the link in a browser ($BROWSER, xdg-open, open or start)')
      .option('--wait', 'serve a one-shot cart endpoint on 127.0.0.1, wait for the browser to return there, complete and print the custom product')
      .addOption(new Option('--cart-port <n>', 'with --wait: port of the cart endpoint; for the real provider, the port of the cart URL registered with them (default: any free port)').argParser(listenPort))
      .addOption(new Option('--timeout-wait <duration>', 'with --wait: give up after this long: 90s, 10m, 1h; a bare number is seconds (default: 10m)').argParser(duration({ bare: 's' }))),
  rules: [requires(['--cart-port', '--timeout-wait'], '--wait')],
  examples: [
    'merch design-link --sku DT-000001 --user-id customer-42',
    'merch design-link --sku DT-000001 --user-id customer-42 --open',
    'merch design-link --sku DT-000001 --user-id customer-42 --wait --open',
    'merch design-link --sku DT-000001 --user-id customer-42 --wait --cart-port 8788 --json',
  ],
  seeAlso: 'See docs/design-tool.md for the whole hand-off.',
  run: async (ctx, options): Promise<void> => (await import('./run.js')).run(options, { io: ctx.io, format: ctx.format, env: ctx.env, interrupts: ctx.interrupts, settings: ctx.settings, api: ctx.api }),
});
