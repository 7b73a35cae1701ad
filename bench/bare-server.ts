// The yardstick: a bare Hono handler on the same adapter, answering the fixed JSON it is given.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const body = JSON.parse(process.env.BARE_BODY ?? '{"ok":true}') as Record<string, unknown>
const app = new Hono()
app.get('*', (c) => c.json(body))
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`))
