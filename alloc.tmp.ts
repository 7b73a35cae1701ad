import { createTestMock } from './test/support/mock.ts'
const mock = createTestMock()
const team = mock.newTeam({ generate: { clients: 100000 } })
const token = team.tokens.owner
const paths = process.argv.slice(2)
for (const path of paths) {
  const call = async () => { const res = await mock.app.request('http://127.0.0.1/api/v2' + path, { headers: { Authorization: `Bearer ${token}`, Host: '127.0.0.1' } }); await res.text(); return res.status }
  for (let i = 0; i < 200; i++) await call()
  const t = performance.now()
  for (let i = 0; i < 3000; i++) await call()
  console.log(path, await call(), ((performance.now() - t) / 3000).toFixed(3), 'ms/request')
}
