// The yardstick: a bare Hono handler on the same adapter, answering the fixed JSON it is given
// (serialised on every request, as the mock serialises its answers). A POST parses its JSON body
// and answers 201 with the same JSON: the yardstick of the mock's writes.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const body = JSON.parse(process.env.BARE_BODY ?? '{"ok":true}') as Record<string, unknown>
const app = new Hono()
app.get('*', (c) => c.json(body))
app.post('*', async (c) => {
  const parsed: unknown = await c.req.json()
  if (typeof parsed !== 'object' || parsed === null) return c.json({ message: 'expected a JSON object' }, 422)
  return c.json(body, 201)
})
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`))
// An exit rather than death by the signal: a server run under --cpu-prof writes its profile (npm run bench:profile).
process.once('SIGTERM', () => process.exit(0))
