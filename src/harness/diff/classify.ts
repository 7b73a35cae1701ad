// What a difference means for a client built and tested against the mock. One rule underlies
// them all: in a request the other side must accept everything the mock accepts, and in a response
// it must answer only what the mock may answer. A difference that breaks that rule **breaks
// clients**; any other is **fidelity only** (the other side offers more, or the mock is stricter).
// The table in docs/keeping-the-mock-honest.md ("What a difference means") is this file in words.

export type Direction = 'request' | 'response'

/** What the other side allows at a place, compared with the mock: more, less, or neither (other values). */
export type Change = 'wider' | 'narrower' | 'incomparable'

export interface Verdict {
  breaks: boolean
  meaning: string
}

export const BREAKS = 'breaks clients'
export const FIDELITY = 'fidelity only'
export type Classification = typeof BREAKS | typeof FIDELITY

export const classificationOf = (verdict: { breaks: boolean }): Classification => (verdict.breaks ? BREAKS : FIDELITY)

/** A facet of a value (its types, enum, format, bounds): wider on the other side breaks a response, narrower breaks a request, other values break both. */
export function facet(direction: Direction, change: Change, detail: { wider?: string; narrower?: string } = {}): Verdict {
  const wider = detail.wider ?? 'values'
  const narrower = detail.narrower ?? 'values'
  if (direction === 'request') {
    if (change === 'wider') return { breaks: false, meaning: `the other side also accepts ${wider}, which the mock refuses (the mock is stricter)` }
    return { breaks: true, meaning: `the other side may refuse ${narrower}, which the mock accepts` }
  }
  if (change === 'narrower') return { breaks: false, meaning: `the mock may answer ${narrower}, which the other side never does` }
  return { breaks: true, meaning: `the other side may answer ${wider}, which the mock never does` }
}

export const operationOnlyInMock: Verdict = { breaks: true, meaning: 'the other side does not serve it: a request the mock answers fails there' }
export const operationOnlyInOther: Verdict = { breaks: false, meaning: 'the other side serves an operation the mock lacks' }

export const statusOnlyInMock: Verdict = { breaks: false, meaning: 'the mock may answer this status; the other side does not document it' }
export const statusOnlyInOther: Verdict = { breaks: true, meaning: 'the other side may answer this status; the mock never does' }

export const parameterOnlyInMock: Verdict = { breaks: true, meaning: 'the other side does not document it: a request that sends it may be refused, or the parameter ignored' }

export function parameterOnlyInOther(otherRequires: boolean): Verdict {
  return otherRequires
    ? { breaks: true, meaning: 'the other side requires it; the mock accepts requests without it' }
    : { breaks: false, meaning: 'the other side accepts it; the mock does not' }
}

/** A parameter, a property or a request body required on one side only. */
export function requiredDiffers(direction: Direction, otherRequires: boolean): Verdict {
  if (direction === 'request') {
    return otherRequires
      ? { breaks: true, meaning: 'the other side requires it; the mock accepts requests without it' }
      : { breaks: false, meaning: 'the mock requires it; the other side does not (the mock is stricter)' }
  }
  return otherRequires
    ? { breaks: false, meaning: 'the other side always answers it; the mock may leave it out' }
    : { breaks: true, meaning: 'the other side may answer without it; the mock always sends it' }
}

export const styleDiffers: Verdict = { breaks: true, meaning: 'the other side reads the parameter written another way: a request built for the mock is read differently there' }

export const bodyOnlyInMock: Verdict = { breaks: true, meaning: 'the other side takes no request body here' }

export function bodyOnlyInOther(otherRequires: boolean): Verdict {
  return otherRequires
    ? { breaks: true, meaning: 'the other side requires a request body; the mock takes none' }
    : { breaks: false, meaning: 'the other side accepts a request body; the mock takes none' }
}

export function mediaTypeOnlyInMock(direction: Direction, otherHasNone: boolean): Verdict {
  if (direction === 'request') return { breaks: true, meaning: 'the other side does not take a body of this media type' }
  return otherHasNone
    ? { breaks: true, meaning: 'the other side documents no body for this status; the mock always sends one' }
    : { breaks: false, meaning: 'the mock may answer this media type; the other side answers another' }
}

export function mediaTypeOnlyInOther(direction: Direction): Verdict {
  return direction === 'request'
    ? { breaks: false, meaning: 'the other side also takes a body of this media type' }
    : { breaks: true, meaning: 'the other side may answer this media type; the mock never does' }
}

/** A property the mock has and the other side does not list; `otherTakesOthers`: the other side allows properties it does not list. */
export function propertyOnlyInMock(direction: Direction, mockRequires: boolean, otherTakesOthers: boolean): Verdict {
  if (direction === 'request') {
    return otherTakesOthers
      ? { breaks: false, meaning: 'the other side does not list it, but takes properties it does not list' }
      : { breaks: true, meaning: 'the other side does not list it: a request that sends it may be refused, or the property ignored' }
  }
  return mockRequires
    ? { breaks: true, meaning: 'the other side never documents it; the mock always sends it' }
    : { breaks: false, meaning: 'the mock may send it; the other side does not document it' }
}

/** A property the other side lists and the mock does not; `mockTakesOthers`: the mock allows properties it does not list. */
export function propertyOnlyInOther(direction: Direction, otherRequires: boolean, mockTakesOthers: boolean): Verdict {
  if (direction === 'request') {
    return otherRequires
      ? { breaks: true, meaning: 'the other side requires it; the mock accepts requests without it' }
      : { breaks: false, meaning: 'the other side accepts it; the mock does not list it' }
  }
  return mockTakesOthers
    ? { breaks: false, meaning: 'the other side may answer it; the mock allows properties it does not list' }
    : { breaks: true, meaning: 'the other side may answer it; the mock never does' }
}

export function additionalDiffers(direction: Direction, otherAllows: boolean): Verdict {
  if (direction === 'request') {
    return otherAllows
      ? { breaks: false, meaning: 'the other side takes properties it does not list; the mock does not (the mock is stricter)' }
      : { breaks: true, meaning: 'the other side refuses properties it does not list; the mock takes them' }
  }
  return otherAllows
    ? { breaks: true, meaning: 'the other side may answer properties it does not list; the mock never does' }
    : { breaks: false, meaning: 'the mock may answer properties it does not list; the other side never does' }
}

export function nullableDiffers(direction: Direction, otherAllowsNull: boolean): Verdict {
  if (direction === 'request') {
    return otherAllowsNull
      ? { breaks: false, meaning: 'the other side also accepts null (the mock is stricter)' }
      : { breaks: true, meaning: 'the other side refuses null; the mock accepts it' }
  }
  return otherAllowsNull
    ? { breaks: true, meaning: 'the other side may answer null; the mock never does' }
    : { breaks: false, meaning: 'the mock may answer null; the other side never does' }
}
