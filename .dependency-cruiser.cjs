/**
 * The layers of src/, as a gate (`npm run lint`, run by .ci/run). Each rule names a floor
 * that must not look up:
 *
 *   contract/  the shapes both sides agree on: imports nothing else of src/
 *   sandbox/   the emulator: only contract/ and lib/ (and itself)
 *   lib/       the lowest floor, small mechanisms of every room: imports nothing else of src/
 *   orders/ api/ auth/ webhooks/ config/ output/ lib/: the domain and its tools, never the
 *              CLI (commands/, and the CLI's context.ts, which sits above them)
 *              nor the CLI's exit codes (src/errors.ts): they throw errors of their own, by
 *              kind, and src/commands/exit-codes.ts chooses each kind's exit code
 *   orders/    reaches the service through its ports alone (src/orders/create/ports.ts),
 *              which the commands build over api/resources/: of api/ it takes the records'
 *              and the resources' types (type-only imports of api/schemas.ts and
 *              api/resources/) and the errors the ports throw (api/errors.ts,
 *              api/field-errors.ts), which it reads to tell a refusal from a lost answer;
 *              follow/ and track/ through theirs (src/orders/follow/ports.ts,
 *              src/orders/track/ports.ts): of api/ only the records' types and the
 *              errors, nothing of api/resources/
 *   context.ts the CLI's context, given to every command: takes nothing from commands/
 *   prompts    @inquirer/prompts is loaded by the terminal's prompter alone (commands ask ctx.prompter)
 *   own codes  text is marked as merch's own terminal codes (src/output/own-codes.ts: written
 *              as they are by the gate for text from outside, src/output/terminal-gate.ts) by
 *              style.ts, the gate and the terminal's prompter alone: nothing else can let a
 *              service's escape sequence reach a terminal
 *   no circles, type-only imports included: a circle of types is still two files that
 *              must change together. A command file (NAME.command.ts) loads its
 *              implementation by import(), and the implementation takes nothing back from
 *              it: it exports its own options' type (src/commands/define-command.ts)
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */

const NO_CIRCLES = 'A circle (type-only imports count) is a type in the wrong file: move it to where both sides can take it.';

module.exports = {
  forbidden: [
    {
      name: 'contract-stands-alone',
      comment: 'contract/ is what the CLI and the sandbox share: it imports nothing else of src/.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'sandbox-only-contract-and-lib',
      comment: 'The sandbox is the service, not the CLI: it builds on contract/ and lib/ only.',
      severity: 'error',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/', pathNot: '^src/(sandbox|contract|lib)/' },
    },
    {
      name: 'lib-stands-alone',
      comment: 'lib/ is the floor every room stands on, the sandbox included: it imports nothing else of src/. Take what it needs as a parameter (a function, or an interface of its own).',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'domain-never-cli',
      comment: 'The domain speaks no CLI: commands/ and the CLI context are above it. Pass what it needs instead.',
      severity: 'error',
      from: { path: '^src/(orders|api|auth|webhooks|config|output|lib)/' },
      to: { path: '^src/(commands/|context\\.ts$|main\\.ts$)' },
    },
    {
      name: 'exit-codes-at-the-edge',
      comment:
        "The CLI's exit codes (src/errors.ts) are chosen at its edge (src/commands/exit-codes.ts): the layers below throw errors of their own that say what happened.",
      severity: 'error',
      from: { path: '^src/(orders|api|auth|webhooks|config|output|lib)/' },
      to: { path: '^src/errors\\.ts$' },
    },
    {
      name: 'orders-no-api-client',
      comment:
        "The domain talks to the service through its ports (src/orders/create/ports.ts, built by src/commands/orders/service-ports.ts): no client, no paging, nothing of api/ but the records' and resources' types and the errors the ports throw.",
      severity: 'error',
      from: { path: '^src/orders/' },
      to: { path: '^src/api/', pathNot: '^src/api/(schemas\\.ts|errors\\.ts|field-errors\\.ts|resources/)' },
    },
    {
      name: 'orders-api-types-only',
      comment:
        "Of api/schemas.ts and api/resources/ the domain takes types only (`import type`): reading and paging the service's answers is the ports' side, behind them.",
      severity: 'error',
      from: { path: '^src/orders/' },
      to: { path: '^src/api/(schemas\\.ts|resources/)', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'follow-track-through-ports',
      comment:
        "Following an order and tracking a send reach the service through their ports (src/orders/follow/ports.ts, src/orders/track/ports.ts, built by src/commands/orders/follow-ports.ts), which name every call they make: of api/ they take the records' types and the errors the ports throw, nothing of api/resources/.",
      severity: 'error',
      from: { path: '^src/orders/(follow|track)/' },
      to: { path: '^src/api/', pathNot: '^src/api/(schemas|errors)\\.ts$' },
    },
    {
      name: 'cli-context-below-commands',
      comment: "The CLI's context is what commands are given: it takes nothing from them.",
      severity: 'error',
      from: { path: '^src/(context|run-environment)\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'prompts-in-commands',
      comment: 'A person is asked through the run\'s prompter (src/prompter.ts), whose terminal side is src/commands/terminal-prompter.ts: nothing else loads @inquirer/prompts.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/commands/terminal-prompter\\.ts$' },
      to: { path: 'node_modules/@inquirer/prompts/' },
    },
    {
      name: 'own-codes-in-style',
      comment:
        "merch's own terminal codes are made in src/output/style.ts and read by the gate for text from outside (src/output/terminal-gate.ts); the terminal's prompter marks @inquirer/prompts' output with them. Nothing else marks text as merch's own: print through ctx.io, style with style.ts.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(output/(own-codes|style|terminal-gate)\\.ts|commands/terminal-prompter\\.ts)$' },
      to: { path: '^src/output/own-codes\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: `${NO_CIRCLES} A command's implementation exports its own options' type: it takes nothing from its command file.`,
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Only src/'s own modules (node's and the packages' are not layers of ours), and the one
    // package a rule keeps to one file: @inquirer/prompts' entry point.
    includeOnly: '(^src/|node_modules/@inquirer/prompts/)',
    // `import type` counts: a circle through types is still a circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
