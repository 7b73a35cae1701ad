// How the snippet test reads the documents (test/support/snippets.ts): the blocks and their
// directives, the chains they run in, and how a documented answer is matched with a printed one.
import { describe, expect, it } from 'vitest'
import { chainsOf, departure, jsonValues, outputsOf, snippetsOf } from '../support/snippets.ts'

const DOC = `# A guide

\`\`\`sh
echo one
\`\`\`

<!-- snippet: continues -->
\`\`\`sh
echo two
\`\`\`
<!-- snippet: output -->
\`\`\`json
{"a": 1}
\`\`\`

<!-- snippet: skip: needs Docker; really -->
\`\`\`sh
docker run
\`\`\`

- a step:

  <!-- snippet: file: x.mjs -->
  \`\`\`js
  console.log(1)
  \`\`\`

\`\`\`text
output
\`\`\`

<!-- snippet: after-stop; prints: done -->
\`\`\`sh
echo done
\`\`\`
`

describe('snippetsOf', () => {
  const snippets = snippetsOf('guide.md', DOC)

  it('finds every fenced block with its language, line and directive, in lists too', () => {
    expect(snippets.map((snippet) => [snippet.line, snippet.lang, snippet.kind])).toEqual([
      [3, 'sh', 'shell'],
      [8, 'sh', 'shell'],
      [12, 'json', 'data'],
      [17, 'sh', 'shell'],
      [24, 'js', 'javascript'],
      [28, 'text', 'data'],
      [33, 'sh', 'shell'],
    ])
    expect(snippets[1]?.continues).toBe(true)
    expect(snippets[2]?.output).toBe(true)
    expect(snippets[3]?.skip).toBe('needs Docker; really')
    expect(snippets[4]?.file).toBe('x.mjs')
    expect([snippets[0]?.afterStop, snippets[6]?.afterStop, snippets[6]?.prints]).toEqual([false, true, 'done'])
  })

  it('chains a block with those that continue it, leaving out data, skipped and file blocks', () => {
    expect(chainsOf(snippets).map((chain) => chain.map((snippet) => snippet.line))).toEqual([[3, 8], [33]])
    expect(outputsOf(snippets).get(snippets[1] as never)?.line).toBe(12)
  })

  it('refuses a directive it does not know, so a typo cannot skip a block', () => {
    expect(() => snippetsOf('typo.md', '<!-- snippet: skp: x -->\n```sh\nls\n```\n')).toThrow('typo.md:1: unknown snippet directive "skp: x"')
  })
})

describe('jsonValues', () => {
  it('reads the values curl prints one after another, braces in strings included', () => {
    expect(jsonValues('{"a":"}{"}[1,2]204\n{"b":{"c":null}} text {not json}')).toEqual([{ a: '}{' }, [1, 2], { b: { c: null } }])
  })
})

describe('departure', () => {
  it('matches the documented keys, "…" in text for any text, a "…" key for any other keys', () => {
    expect(departure({ id: 4, token: 'ivs_t4_…', '…': '…' }, { id: 4, token: 'ivs_t4_owner_x', extra: true })).toBeUndefined()
    expect(departure({ at: '…Z' }, { at: '2026-06-01T09:00:00Z' })).toBeUndefined()
    expect(departure({ list: [] }, { list: [] })).toBeUndefined()
  })

  it('takes "…" alone for any value: an id the mock hands out depends on what it made before', () => {
    expect(departure({ id: '…', team: { id: '…' } }, { id: 6, team: { id: 'x' } })).toBeUndefined()
    expect(departure({ id: '…' }, {})).toBe('$.id: documented, not printed')
  })

  it('says where a printed value departs', () => {
    expect(departure({ id: 4 }, { id: 5 })).toBe('$.id: documented 4, printed 5')
    expect(departure({ id: 4 }, { id: 4, extra: 1 })).toBe('$: printed keys the documentation leaves out: extra (add "…": "…" if that is meant)')
    expect(departure({ user: { id: 41 } }, { user: {} })).toBe('$.user.id: documented, not printed')
    expect(departure({ token: 'ivs_t4_…' }, { token: 'ivs_t5_owner' })).toBe('$.token: documented "ivs_t4_…", printed "ivs_t5_owner"')
    expect(departure([1], [1, 2])).toBe('$: documented 1 items, printed [1,2]')
  })
})
