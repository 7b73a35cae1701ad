// expect(response).toMatchContract('clients.create'): the status is one the operation documents
// and the body matches that status's schema. Responses from ApiClient are already checked this
// way; the matcher is for responses obtained otherwise (real sockets, raw app.request()).
import { expect } from 'vitest'
import { describeErrors } from '../../src/contracts/load.ts'
import { contracts } from './contracts.ts'

interface ResponseLike {
  status: number
  body: unknown
}

expect.extend({
  toMatchContract(received: ResponseLike, operationId: string) {
    const op = contracts.operation(operationId)
    const documented = op.responses[String(received.status)]
    if (!documented) {
      return {
        pass: false,
        message: () => `${operationId} does not document status ${received.status} (documents ${Object.keys(op.responses).join(', ')})`,
      }
    }
    const validate = contracts.responseValidator(operationId, received.status)
    if (validate && !validate(received.body)) {
      const problems = describeErrors(validate.errors).map((e) => `${e.path || '(root)'}: ${e.message}`)
      return { pass: false, message: () => `body breaks ${operationId} ${received.status}:\n${problems.join('\n')}` }
    }
    if (!validate && !documented.binary && received.body !== undefined && received.body !== '') {
      return { pass: false, message: () => `${operationId} ${received.status} has no body, got ${JSON.stringify(received.body)}` }
    }
    return { pass: true, message: () => `expected the response not to match ${operationId} ${received.status}` }
  },
})

declare module 'vitest' {
  interface Matchers<T = any> {
    toMatchContract(operationId: string): T
  }
}
