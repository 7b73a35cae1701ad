// A webhook receiver that verifies every delivery, the first ping included. The secret comes with
// the answer to POST /webhooks and the ping follows at once, so the receiver creates its own
// webhook when it starts, and each delivery waits until the secret is known.
// Run it with the mock's API base, a token and a port (0: a free one) in the environment:
//   BASE=http://127.0.0.1:4010/api/v2 TOKEN=ivs_acme_owner PORT=3000 node receiver.mjs
import { createServer } from 'node:http'
import { verifySignature } from 'ivs-mock/webhooks'

const { BASE = 'http://127.0.0.1:4010/api/v2', TOKEN = 'ivs_acme_owner', PORT = '3000' } = process.env
let secretIs
const secret = new Promise((resolve) => (secretIs = resolve))

async function receive(rawBody, signature, res) {
  // Verify the bytes as received: parsed and serialised again, JSON is not the same bytes.
  if (!verifySignature(rawBody, signature, await secret)) return res.writeHead(401).end()
  const { event, data } = JSON.parse(rawBody)
  console.log(event, JSON.stringify(data))
  res.writeHead(204).end()
}

async function subscribe(url) {
  const answer = await fetch(`${BASE}/webhooks`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ url, events: ['record.*'] }),
  })
  const webhook = await answer.json()
  if (answer.status !== 201) throw new Error(`POST /webhooks answered ${answer.status}: ${JSON.stringify(webhook)}`)
  secretIs(webhook.secret)
  console.log(`webhook ${webhook.id} created; deliveries go to ${url}`)
}

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => void receive(Buffer.concat(chunks), req.headers['x-svc-signature'], res))
})
server.listen(Number(PORT), '127.0.0.1', () => void subscribe(`http://127.0.0.1:${server.address().port}/hooks`))
