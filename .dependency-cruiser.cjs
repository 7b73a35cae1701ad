// The layers of src/ (README "Architecture"), checked by `npm run lint`. Type-only imports count
// (tsPreCompilationDeps), so a type cannot smuggle a dependency the code would not be allowed.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-knows-only-contracts',
      comment: 'kernel/ is resource-agnostic: it imports src/contracts/ and packages only; what it needs from state is passed in by app.ts.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: '^src/', pathNot: '^src/(kernel|contracts)/' },
    },
    {
      name: 'contracts-stand-alone',
      comment: 'src/contracts/ is the bottom layer (the harness ships with it): it imports only itself and paths.ts.',
      severity: 'error',
      from: { path: '^src/contracts/' },
      to: { path: '^src/', pathNot: '^src/(contracts/|paths\\.ts$)' },
    },
    {
      name: 'harness-knows-only-contracts',
      comment: "harness/ talks to any deployment over HTTP: it imports src/contracts/ (and itself), node built-ins and packages only, and the package's published receiver check (ivs-mock/webhooks), which depends on nothing of the mock.",
      severity: 'error',
      from: { path: '^src/harness/' },
      to: { path: '^src/', pathNot: ['^src/(harness|contracts)/', '^src/webhook-delivery/verify\\.js$'] },
    },
    {
      name: 'resources-meet-through-index',
      comment: "A resource's files are its own: anyone else imports the resource through its index.ts (app.ts wires each resource's routes.ts).",
      severity: 'error',
      from: { path: '^src/(resources/[^/]+|[^/]+)', pathNot: '^src/app\\.ts$' },
      to: { path: '^src/resources/[^/]+/', pathNot: ['^src/$1/', '^src/resources/[^/]+/index\\.ts$'] },
    },
    {
      name: 'control-wired-only-by-app',
      comment: 'The control API (/_mock) is wired by app.ts alone; nothing else depends on it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app\\.ts$|control/)' },
      to: { path: '^src/control/' },
    },
    {
      name: 'ui-wired-only-by-app',
      comment: 'The pages (src/ui/: the perform page, the dashboard, the API reference) are wired by app.ts alone.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(app\\.ts$|ui/)' },
      to: { path: '^src/ui/' },
    },
    {
      name: 'ui-reaches-state-through-services',
      comment:
        "src/ui/ changes state only through the services the API uses (resources through their index.ts, the lifecycle engine, webhook delivery's clock, the API's own operations): never the store's tables, persistence or blobs, the seed, the build, the control API or OAuth. It may name the world's types (store/world.ts).",
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/(store|seed|build|control|oauth)/', pathNot: '^src/store/world\\.ts$' },
    },
    {
      name: 'store-knows-no-resource',
      comment: 'store/ keeps tables of rows it does not know: each resource declares its own tables.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/resources/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No folder imports another that imports it back, directly or around a loop.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'No module imports another that imports it back (this also covers the files at the top of src/).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
}
