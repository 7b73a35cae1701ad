// The README and the guides in docs/ are part of the product: their token table, options table and
// coverage count must say what the code does, their examples must be the ones the tests run, and
// they stand alone: a reader of the npm package, a clone or the image has no file outside the
// repository, and every link lands on a file and a heading that exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CONTROL_BASE } from '../../src/app.ts'
import { serveOptions } from '../../src/config.ts'
import { seedWorld } from '../../src/seed/index.ts'
import { contracts, fixture } from '../support/contracts.ts'
import { anchorsOf } from '../support/markdown.ts'
import { servedOperations } from '../support/served.ts'
import { prebuiltWorldPath, projectRoot } from '../../src/paths.ts'

/** The project's own notes that are not in the repository (spelled in pieces, so this file names none of them). */
const OUTSIDE_NOTES = ['../' + 'shared', 'FACTS' + '.md', 'DESIGN' + '.md']
const DOCS = ['README.md', ...readdirSync(join(projectRoot, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)]
const read = (doc: string) => readFileSync(join(projectRoot, doc), 'utf8')
const readme = read('README.md')

function tableRow(text: string, firstCell: string): string | undefined {
  return text.split('\n').find((line) => line.startsWith(`| ${firstCell} |`))
}

describe('README', () => {
  it('lists every fixture token with its user, team and role', () => {
    for (const token of fixture.tokens) {
      const row = tableRow(readme, `\`${token.token}\``)
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

  it('states how many contract operations are served, as does the behaviour notes', () => {
    const api = [...contracts.operations.values()].filter((op) => op.surface === 'api')
    const count = servedOperations().filter((op) => op.surface === 'api').length
    expect(readme).toContain(`**${count} of ${api.length} contract operations are served**`)
    expect(read('docs/behaviour-notes.md')).toContain(`${count} of the ${api.length} operations in \`contracts/operations/\` are served`)
  })

  it('links to every guide in docs/', () => {
    for (const doc of DOCS.filter((name) => name.startsWith('docs/'))) expect(readme, doc).toContain(`](${doc})`)
  })

  it('is short enough to read in ten minutes', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(400)
  })
})

describe('docs/seeded-world.md', () => {
  it('describes each seeded team as the seed builds it: clients, organisations, credit history', () => {
    const text = read('docs/seeded-world.md')
    const world = seedWorld(fixture)
    for (const state of world.teams) {
      const row = tableRow(text, `${state.team.name} (id ${state.team.id})`)
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
})

describe('docs/options.md', () => {
  it('documents every serve option with its environment variable and default', () => {
    const text = read('docs/options.md')
    for (const option of serveOptions()) {
      const row = text.split('\n').find((line) => line.startsWith('| `') && (line.split('|')[1] ?? '').includes(`${option.long as string} `))
      expect(row, option.flags).toBeDefined()
      expect(row).toContain(`\`${option.envVar as string}\``)
      if (option.defaultValue !== undefined) expect(row).toContain(`\`${String(option.defaultValue)}\``)
    }
  })
})

describe('docs/control-api.md', () => {
  it('lists every control operation', () => {
    const text = read('docs/control-api.md')
    for (const op of [...contracts.operations.values()].filter((op) => op.surface === 'control')) {
      expect(text, op.id).toContain(`| \`${op.method} ${CONTROL_BASE}${op.path}\` |`)
    }
  })
})

describe('docs/architecture.md', () => {
  it('quotes the size of the prebuilt world as the build writes it, within 5 %', () => {
    const quoted = Number(/`dist\/world\.json`, about (\d+) KB/.exec(read('docs/architecture.md'))?.[1])
    const built = statSync(prebuiltWorldPath).size / 1024
    expect(Math.abs(quoted - built) / built).toBeLessThan(0.05)
  })
})

describe('docs/webhooks.md', () => {
  it('shows the webhook receiver that the package test runs, line for line', () => {
    const receiver = readFileSync(join(projectRoot, 'examples', 'webhook-receiver', 'receiver.mjs'), 'utf8')
    expect(read('docs/webhooks.md')).toContain(`\`\`\`js\n${receiver}\`\`\`\n`)
  })
})

describe.each(DOCS)('%s', (doc) => {
  const text = read(doc)

  it('names no file outside the repository: the project notes it was written from are not shipped', () => {
    for (const outside of OUTSIDE_NOTES) expect(text.split(outside).length - 1, outside).toBe(0)
  })

  it('links only to files and headings that exist in the repository', () => {
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] as string).filter((target) => !/^https?:/.test(target))
    for (const target of targets) {
      const [file = '', anchor] = target.split('#')
      const path = file === '' ? join(projectRoot, doc) : resolve(projectRoot, dirname(doc), file)
      expect(relative(projectRoot, path).startsWith('..'), target).toBe(false)
      expect(existsSync(path), target).toBe(true)
      if (anchor !== undefined) expect(anchorsOf(readFileSync(path, 'utf8')), `${doc}: ${target}`).toContain(anchor)
    }
  })

  it('speaks of what exists in the present tense', () => {
    // Phrases run across line breaks in the Markdown: read as one line.
    const flowing = text.replace(/\s+/g, ' ')
    for (const phrase of ['a later issue', 'Next:', 'will come', 'is planned', 'cannot be created yet']) expect(flowing, phrase).not.toContain(phrase)
  })

  it('names no project history: a guide says what is, its commits say how it came to be', () => {
    const flowing = text.replace(/\s+/g, ' ')
    for (const phrase of ['Before, ', 'before pairs went', 'two turns ago']) expect(flowing, phrase).not.toContain(phrase)
  })

  it('names no rule of a specification by its number: the specification is not in the repository', () => {
    expect(text).not.toMatch(/\b(spec|specification)('s)? rules? \d/i)
  })
})
