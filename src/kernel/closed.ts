// What a mock answers once its close() was called (startMock(), src/index.ts): nothing. A request
// a fault's delay or --latency held when it closed, and every later call, reject with this error.

export class MockClosedError extends Error {
  /** `what`: the call refused ("GET /api/v2/me", "clock.now()"). */
  constructor(what: string) {
    super(`ivs-mock: ${what}: the mock is closed (close() was called)`)
    this.name = 'MockClosedError'
  }
}
