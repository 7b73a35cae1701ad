// The load on one core and the servers on another, as issue 19 first measured them: unpinned, the
// kernel moves autocannon and the server between the two cores, and rounds of one target varied
// by up to 40 %. Pinning needs Linux's taskset and two CPUs; without them the bench runs unpinned.
import { execFileSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

export interface Cores {
  /** The bench's own process: autocannon runs in it. */
  load: number
  /** Every server it starts for load (a start-up measured is never pinned). */
  server: number
}

/** The cores to pin to, or undefined when taskset cannot pin here. */
export function pinnableCores(): Cores | undefined {
  if (process.platform !== 'linux' || availableParallelism() < 2) return undefined
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return { load: 0, server: 1 }
  } catch {
    return undefined
  }
}

/** Pins every thread of this process to the load's core. */
export function pinLoad(cores: Cores): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(cores.load), String(process.pid)], { stdio: 'ignore' })
}

/**
 * What to spawn to run Node with `args`, on the server's core when pinning (taskset execs Node in
 * its own process, so the child's pid is Node's), or on any core.
 */
export function nodeCommand(args: string[], cores: Cores | undefined): [string, string[]] {
  return cores ? ['taskset', ['-c', String(cores.server), process.execPath, ...args]] : [process.execPath, args]
}
