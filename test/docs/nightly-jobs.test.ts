// The nightly jobs of docs/keeping-the-mock-honest.md cannot run here (they need GitHub, GitLab and a
// sandbox), so they are held to what can be checked: each is YAML its CI reads, runs on a schedule,
// runs verify with options verify has (--read-only, the kept report as --baseline when there is one)
// and diff with a JSON report, and keeps tonight's verify report where tomorrow's run looks for it.
import { parse as parseYaml } from 'yaml'
import { describe, expect, it } from 'vitest'
import { verifyOptions } from '../../src/config.ts'
import { projectRoot } from '../../src/paths.ts'
import { readSnippets } from '../support/snippets.ts'

const jobs = new Map(readSnippets(projectRoot, 'docs/keeping-the-mock-honest.md').flatMap((snippet) => (snippet.file && /\.ya?ml$/.test(snippet.file) ? [[snippet.file, parseYaml(snippet.code)]] : [])))
const verifyFlags = new Set(verifyOptions().map((option) => option.long))

/** The `ivs-mock <command>` lines of a script, each as its words. */
const commands = (script: string, command: string) =>
  script
    .split('\n')
    .filter((line) => line.includes(`npx ivs-mock ${command} `))
    .map((line) => line.slice(line.indexOf(`npx ivs-mock ${command} `)).split(/ (?:&&|\|\|) /)[0]?.split(/\s+/) ?? [])

function checkScript(script: string, baselineFile: string): void {
  const [verify] = commands(script, 'verify')
  expect(verify, script).toBeDefined()
  for (const word of verify?.filter((item) => item.startsWith('--')) ?? []) expect(verifyFlags, word).toContain(word)
  expect(verify).toEqual(expect.arrayContaining(['--read-only', '--json', 'verify.json']))
  // The kept report is the baseline when there is one.
  expect(script).toContain(`if [ -f ${baselineFile} ]`)
  expect(script).toMatch(new RegExp(`--baseline ${baselineFile.replace(/[/.]/g, '\\$&')}`))
  expect(script).toMatch(new RegExp(`cp verify\\.json ${baselineFile.replace(/[/.]/g, '\\$&')}`))
  const [diff] = commands(script, 'diff')
  expect(diff?.slice(0, 4)).toEqual(['npx', 'ivs-mock', 'diff', '"$VENDOR_OPENAPI_URL"'])
  expect(diff).toEqual(expect.arrayContaining(['--json', 'diff.json']))
}

describe('the nightly jobs of Keeping the mock honest', () => {
  it('GitHub Actions: a scheduled workflow that keeps the report in the cache it restores', () => {
    const workflow = jobs.get('.github/workflows/drift.yml')
    expect(workflow.on.schedule[0].cron).toMatch(/^(\S+ ){4}\S+$/)
    const steps = workflow.jobs.drift.steps as { uses?: string; run?: string; with?: Record<string, string> }[]
    checkScript(steps.map((step) => step.run ?? '').join('\n'), 'baseline/verify.json')
    const restore = steps.find((step) => step.uses?.startsWith('actions/cache/restore'))
    const save = steps.find((step) => step.uses?.startsWith('actions/cache/save'))
    expect([restore?.with?.path, save?.with?.path]).toEqual(['baseline/', 'baseline/'])
    expect(save?.with?.key?.startsWith(restore?.with?.['restore-keys'] ?? '?')).toBe(true)
    expect(steps.findIndex((step) => step === restore)).toBeLessThan(steps.findIndex((step) => step.run?.includes('ivs-mock verify')))
  })

  it('GitLab: a job of pipeline schedules whose cache, kept when it fails, holds the baseline', () => {
    const job = jobs.get('.gitlab-ci.yml')['drift-watch']
    expect(job.rules).toEqual([{ if: '$CI_PIPELINE_SOURCE == "schedule"' }])
    expect(job.cache).toMatchObject({ paths: ['baseline/'], when: 'always' })
    checkScript((job.script as string[]).join('\n'), 'baseline/verify.json')
    expect(job.artifacts.reports.junit).toEqual(['verify.xml', 'diff.xml'])
  })
})
