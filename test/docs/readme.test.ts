// The README is part of the product: its token table, options table and coverage count must say
// what the code does, its examples must be the ones the tests run, and it stands alone: a reader
// of the npm package or a clone has no file outside the repository.
import { existsSync, readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTROL_BASE } from '../../src/app.ts'
import { serveOptions } from '../../src/config.ts'
import { seedWorld } from '../../src/seed/index.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { servedOperations } from '../support/served.ts'
import { projectRoot } from '../../src/paths.ts'

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

function tableRow(firstCell: string): string | undefined {
  return readme.split('\n').find((line) => line.startsWith(`| ${firstCell} |`))
}

describe('README', () => {
  it('lists every fixture token with its user, team and role', () => {
    for (const token of fixture.tokens) {
      const row = tableRow(`\`${token.token}\``)
      expect(row, token.token).toBeDefined()
      const user = fixture.users.find((u) => u.key === token.user)
      const team = fixture.teams.find((t) => t.key === token.team)
      const role = user?.memberships.find((m) => m.team === token.team)?.role
      expect(row).toContain(user?.name)
      expect(row).toContain(team?.name)
      const label = token.state === 'revoked' || token.state === 'expired' ? token.state : role === null ? 'left the team' : role
      expect(row).toContain(label)
    }
  })

  it('describes each seeded team as the seed builds it: clients, organisations, credit history', () => {
    const world = seedWorld(fixture)
    for (const state of world.teams) {
      const row = tableRow(`${state.team.name} (id ${state.team.id})`)
      expect(row, state.team.name).toBeDefined()
      const archived = (rows: Array<{ archived_at: string | null }>) => rows.filter((r) => r.archived_at !== null).length
      const ids = state.clients.map((client) => client.id)
      const balance = state.credits.reduce((sum, entry) => sum + entry.credits, 0).toLocaleString('en-GB')
      expect(row).toContain(`| ${state.clients.length} (${archived(state.clients)}), ids ${Math.min(...ids)}–${Math.max(...ids)} |`)
      expect(row).toContain(`| ${state.organisations.length} (${archived(state.organisations)}) |`)
      expect(row).toContain(`| ${state.credits.length} entries (${balance}) |`)
      expect(row).toContain(`| ${state.members.filter((m) => m.role !== null).length}: `)
    }
  })

  it('documents every serve option with its environment variable and default', () => {
    for (const option of serveOptions()) {
      const row = readme.split('\n').find((line) => line.startsWith('| `') && (line.split('|')[1] ?? '').includes(`${option.long as string} `))
      expect(row, option.flags).toBeDefined()
      expect(row).toContain(`\`${option.envVar as string}\``)
      if (option.defaultValue !== undefined) expect(row).toContain(`\`${String(option.defaultValue)}\``)
    }
  })

  it('states how many contract operations are served', () => {
    const api = [...contracts.operations.values()].filter((op) => op.surface === 'api')
    const count = servedOperations().filter((op) => op.surface === 'api').length
    expect(readme).toContain(`**${count} of ${api.length} contract operations are served**`)
    expect(readme).toContain(`(${count} of the ${api.length} operations in \`contracts/operations/\``)
  })

  it('names no file outside the repository: the project notes it was written from are not shipped', () => {
    for (const outside of ['../shared', 'FACTS.md', 'DESIGN.md']) expect(readme.split(outside).length - 1, outside).toBe(0)
  })

  it('links only to files that exist in the repository', () => {
    const targets = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string).filter((target) => !/^(#|https?:)/.test(target))
    expect(targets.length).toBeGreaterThan(0)
    for (const target of targets) {
      const path = resolve(projectRoot, target.split('#')[0] as string)
      expect(relative(projectRoot, path).startsWith('..'), target).toBe(false)
      expect(existsSync(path), target).toBe(true)
    }
  })

  it('shows the webhook receiver that the package test runs, line for line', () => {
    const receiver = readFileSync(new URL('../../examples/webhook-receiver/receiver.js', import.meta.url), 'utf8')
    expect(readme).toContain(`\`\`\`js\n${receiver}\`\`\`\n`)
  })

  it('lists every control operation', () => {
    for (const op of [...contracts.operations.values()].filter((op) => op.surface === 'control')) {
      expect(readme, op.id).toContain(`| \`${op.method} ${CONTROL_BASE}${op.path}\` |`)
    }
  })
})
