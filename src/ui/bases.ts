// Where the pages are served, in a module of their own: app.ts routes these paths at start-up and
// loads the pages themselves (src/ui/index.ts) with the first request for one.
export const PERFORM_BASE = '/perform'
export const DASHBOARD_BASE = '/_mock/ui'
export const DOCS_BASE = '/docs'
