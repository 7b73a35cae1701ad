// The client's perform page: where a record's perform_url leads (outside /api/v2). The link's
// secret (the record's perform token) opens it, and so does an SDK token from POST /sdk_token
// (/perform?sdk_token=<token>, valid for its 60 minutes on the mock's clock). The client sees
// their steps, completes them one at a time, and gets the finish page; a record that is archived
// or expired says so. Each submission goes through the lifecycle engine's completeStep, so
// statuses, events, webhooks, forms, files and magic outcomes are those of the control API's complete.
import { Hono, type Context } from 'hono'
import { teamContext, type Services, type TeamContext } from '../context.ts'
import { HttpError } from '../kernel/errors.ts'
import { discardFiles, receiveMultipart } from '../kernel/multipart.ts'
import { closedReason, completeStep } from '../lifecycle/engine.ts'
import { MAX_ATTACHMENT_BYTES, releaseAttachments, SAMPLES } from '../resources/attachments/index.ts'
import { presentName } from '../resources/clients/index.ts'
import { performedRecord, type RecordRow, type StepRow } from '../resources/records/index.ts'
import { SDK_TOKEN_ALG, SDK_TOKEN_AUDIENCE, SDK_TOKEN_ISSUER, sdkTokenKey, type SdkTokenClaims } from '../resources/sdk-token/index.ts'
import { PERFORM_BASE } from './bases.ts'
import { h, pageResponse, scriptResponse, seeOther, when, type Html } from './page.ts'
import { EMPTY_STATE, fileFields, inputId, PERFORM_SAMPLES, readSubmission, stepFields, stepTitle, type StepState } from './perform-steps.ts'
import { SHOW_IF_SCRIPT } from './scripts.ts'

const SHOW_IF_PATH = `${PERFORM_BASE}/assets/show-if.js`
const SAMPLES_PATH = `${PERFORM_BASE}/samples`

/** The record a perform link opens, with its team and the link's own path (every page of it lives below). */
interface Access {
  ctx: TeamContext
  record: RecordRow
  base: string
}

type PerformContext = Context

function messagePage(c: PerformContext, title: string, message: Html, status: number): Response {
  return pageResponse(c, { title, narrow: true, main: h`<h1>${title}</h1><div class="panel">${message}</div>` }, status)
}

const notValid = (c: PerformContext) =>
  messagePage(c, 'This link is not valid', h`<p>Check that you copied the whole link from your email, or ask the team who sent it for a new one.</p>`, 404)

/** The record of a perform link's secret, or of an SDK token (signed by the mock, unexpired on its clock). */
async function accessOf(c: PerformContext, services: Services): Promise<Access | Response> {
  const token = c.req.param('token')
  if (token !== undefined) {
    const found = performedRecord(services.store, token)
    return found ? { ctx: teamContext(services, found.team), record: found.record, base: `${PERFORM_BASE}/${token}` } : notValid(c)
  }
  const jwt = c.req.param('jwt') ?? ''
  // jose loads with the first token signed or checked, not at start-up.
  const { jwtVerify } = await import('jose')
  const key = sdkTokenKey(services.store)
  let claims: SdkTokenClaims
  try {
    const verified = await jwtVerify<SdkTokenClaims>(jwt, key.secret, {
      algorithms: [SDK_TOKEN_ALG],
      issuer: SDK_TOKEN_ISSUER,
      audience: SDK_TOKEN_AUDIENCE,
      currentDate: services.clock.now(),
    })
    claims = verified.payload
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ERR_JWT_EXPIRED') {
      return messagePage(c, 'This link has expired', h`<p>Links opened with an SDK token last 60 minutes. Ask for a new one.</p>`, 401)
    }
    return notValid(c)
  }
  const team = services.store.team(claims.team_id)
  const record = team?.records.get(claims.record_id)
  return team && record ? { ctx: teamContext(services, team), record, base: `${PERFORM_BASE}/sdk/${jwt}` } : notValid(c)
}

const isDone = (step: StepRow) => step.completed_at !== null

function stepPath(access: Access, step: StepRow): string {
  return `${access.base}/steps/${step.id}`
}

function header(access: Access): Html {
  return h`<span class="brand">${access.ctx.team.row.name}</span><span class="who">Secure request, powered by the IVS mock</span>`
}

function stepList(access: Access): Html {
  const { record } = access
  return h`<ol class="steps" aria-label="Your steps">${record.steps.map(
    (step, index) => h`<li><span><span class="muted">${index + 1}.</span> ${stepTitle(access.ctx, step)}</span>
${isDone(step) ? h`<span class="badge ok">Done</span>` : h`<a href="${stepPath(access, step)}" aria-label="Start step ${index + 1}: ${stepTitle(access.ctx, step)}">Start</a>`}</li>`,
  )}</ol>`
}

/** Why the client can do nothing more here: every step done (the finish page), archived or expired. */
function closedPage(c: PerformContext, access: Access): Response {
  const { ctx, record } = access
  const team = ctx.team.row.name
  if (record.steps.every(isDone)) {
    return pageResponse(c, {
      title: 'Thank you',
      narrow: true,
      header: header(access),
      main: h`<h1 id="finished">Thank you, ${record.name.first_name}</h1>
<div class="panel"><p>You have completed every step. ${team} has what it needs and will be in touch if anything else is needed.</p>${stepList(access)}</div>
<p class="muted">You can close this page.</p>`,
    })
  }
  if (record.archived_at !== null) {
    return pageResponse(c, {
      title: 'This request has been withdrawn',
      narrow: true,
      header: header(access),
      main: h`<h1 id="archived">This request has been withdrawn</h1>
<div class="panel"><p>${team} closed this request on ${when(record.archived_at)}, so there is nothing more to do here. If you think this is a mistake, contact ${team}.</p></div>`,
    })
  }
  return pageResponse(c, {
    title: 'This request has expired',
    narrow: true,
    header: header(access),
    main: h`<h1 id="expired">This request has expired</h1>
<div class="panel"><p>It expired on ${when(record.expired_at)} before every step was done. Ask ${team} to send you a new request.</p></div>`,
  })
}

const isClosed = (access: Access) => closedReason(access.record, access.ctx.clock.timestamp()) !== undefined

function overview(c: PerformContext, access: Access): Response {
  if (isClosed(access)) return closedPage(c, access)
  const { ctx, record } = access
  const next = record.steps.find((step) => !isDone(step))
  const left = record.steps.filter((step) => !isDone(step)).length
  return pageResponse(c, {
    title: `Your request from ${ctx.team.row.name}`,
    narrow: true,
    header: header(access),
    main: h`<h1>Hello ${record.name.first_name}</h1>
<p>${ctx.team.row.name} asks you to complete ${record.steps.length === 1 ? 'one step' : `${record.steps.length} steps`}; ${left === record.steps.length ? 'none is done yet' : `${left} left`}. Please finish by ${when(record.expired_at)}.</p>
${record.message === null ? '' : h`<div class="panel"><h2>Message from ${ctx.team.row.name}</h2><p>${record.message}</p></div>`}
<div class="panel">${stepList(access)}</div>
${next ? h`<p><a class="button" id="start" href="${stepPath(access, next)}">${left === record.steps.length ? 'Start' : 'Continue'}</a></p>` : ''}
<p class="muted">Completing this as ${presentName(record.name).full_name} (${record.email}).</p>`,
  })
}

function stepPage(c: PerformContext, access: Access, step: StepRow, state: StepState, status = 200): Response {
  const { ctx, record } = access
  const index = record.steps.indexOf(step)
  const title = stepTitle(ctx, step)
  const problems = [...state.problems]
  const summary =
    problems.length === 0
      ? ''
      : h`<div class="error-summary" role="alert" aria-labelledby="problem-title" tabindex="-1" id="problems">
<h2 id="problem-title">There is a problem</h2>
<ul>${problems.map(([name, message]) => h`<li><a href="#${inputId(name)}">${message}</a></li>`)}</ul>
${[...fileFields(ctx, step)].length > 0 ? h`<p class="muted">Files you chose are not kept when the page comes back: choose them again.</p>` : ''}
</div>`
  return pageResponse(
    c,
    {
      title: `${problems.length > 0 ? 'Error: ' : ''}${title}`,
      narrow: true,
      header: header(access),
      scripts: step.type === 'form' ? [SHOW_IF_PATH] : [],
      main: h`<p class="muted">Step ${index + 1} of ${record.steps.length}</p>
<h1>${title}</h1>
${summary}
<form method="post" action="${stepPath(access, step)}" enctype="multipart/form-data" novalidate data-perform class="panel">
${stepFields(ctx, step, state, { samples: SAMPLES_PATH, file: (attachment) => `${access.base}/files/${attachment}` })}
<div class="actions"><button type="submit" id="submit">Submit and continue</button> <a href="${access.base}">Back to your steps</a></div>
</form>`,
    },
    status,
  )
}

/** The step a path names, when it is one of the record's. */
function stepOf(access: Access, id: string | undefined): StepRow | undefined {
  return access.record.steps.find((step) => String(step.id) === id)
}

/** After a step: the next open one after it, else the first open one, else the overview (the finish page). */
function nextPath(access: Access, done: StepRow): string {
  const { steps } = access.record
  const after = steps.slice(steps.indexOf(done) + 1).find((step) => !isDone(step)) ?? steps.find((step) => !isDone(step))
  return after ? stepPath(access, after) : access.base
}

async function submit(c: PerformContext, access: Access, step: StepRow): Promise<Response> {
  const { ctx, record } = access
  const body = await receiveMultipart(c.req.raw, fileFields(ctx, step), { dir: ctx.blobs.uploadsDir(), maxBytes: MAX_ATTACHMENT_BYTES })
  try {
    if (isClosed(access) || isDone(step)) return seeOther(access.base)
    const reading = readSubmission(ctx, step, body)
    if (!reading.ok) return stepPage(c, access, step, reading.state, 422)
    const { submission, uploads } = reading
    try {
      completeStep(ctx, record, step, submission)
    } catch (error) {
      releaseAttachments(ctx, uploads)
      if (!(error instanceof HttpError) || error.status !== 422) throw error
      const messages = Object.values(error.body).flatMap((value) => (Array.isArray(value) ? value.map(String) : []))
      return stepPage(c, access, step, { entered: new Map(body.fields), problems: new Map([['submit', messages.join(' ') || 'The step could not be completed.']]) }, 422)
    }
    // Uploads the step did not keep (a form field its show_if hid) go; a photo ID's images wait for the check's result.
    const captured = new Set([submission.capture?.document, submission.capture?.face])
    releaseAttachments(
      ctx,
      uploads.filter((id) => !captured.has(id)),
    )
    return seeOther(nextPath(access, step))
  } finally {
    discardFiles(body)
  }
}

/** A file the team sent with one of the record's documents. */
function sentFile(c: PerformContext, access: Access, id: string | undefined): Response {
  const { ctx, record } = access
  const attachment = ctx.team.attachments.get(Number(id))
  const sent = record.steps.some((step) => step.document !== null && ctx.team.recordDocuments.get(step.document)?.attachments.includes(Number(id)))
  if (!attachment || !sent) return messagePage(c, 'File not found', h`<p>This file is not part of your request.</p>`, 404)
  if (attachment.av_status !== 'clean') return messagePage(c, 'File not ready', h`<p>The file is still being checked. Try again in a moment.</p>`, 423)
  return new Response(ctx.blobs.stream(attachment.blob), {
    headers: {
      'content-type': attachment.type,
      'content-length': String(attachment.size),
      'content-disposition': `attachment; filename="${attachment.original.replace(/["\\\r\n]/g, '_')}"`,
      'cache-control': 'no-store',
    },
  })
}

/** Serves the perform pages on `app`: /perform/<token>/..., /perform/sdk/<sdk token>/... and /perform?sdk_token=. */
export function performRoutes(app: Hono, services: Services): void {
  app.get(SHOW_IF_PATH, (c) => scriptResponse(c, SHOW_IF_SCRIPT))
  app.get(`${SAMPLES_PATH}/:file`, (c) => {
    const sample = PERFORM_SAMPLES.get(c.req.param('file'))
    if (sample === undefined) return c.notFound()
    const { file, type } = SAMPLES[sample]
    return new Response(services.blobs.stream(`sample:${file}`), { headers: { 'content-type': type, 'cache-control': 'max-age=3600' } })
  })
  app.get(PERFORM_BASE, (c) => {
    const token = c.req.query('sdk_token')
    return token ? seeOther(`${PERFORM_BASE}/sdk/${encodeURIComponent(token)}`) : notValid(c)
  })

  const pages = new Hono()
  const withAccess =
    (handle: (c: PerformContext, access: Access) => Response | Promise<Response>) =>
    async (c: PerformContext): Promise<Response> => {
      const access = await accessOf(c, services)
      return access instanceof Response ? access : handle(c, access)
    }
  pages.get('/', withAccess(overview))
  pages.get(
    '/steps/:step',
    withAccess((c, access) => {
      const step = stepOf(access, c.req.param('step'))
      if (!step) return notValid(c)
      return isClosed(access) || isDone(step) ? seeOther(access.base) : stepPage(c, access, step, EMPTY_STATE)
    }),
  )
  pages.post(
    '/steps/:step',
    withAccess((c, access) => {
      const step = stepOf(access, c.req.param('step'))
      return step ? submit(c, access, step) : notValid(c)
    }),
  )
  pages.get(
    '/files/:attachment',
    withAccess((c, access) => sentFile(c, access, c.req.param('attachment'))),
  )
  app.route(`${PERFORM_BASE}/sdk/:jwt`, pages)
  app.route(`${PERFORM_BASE}/:token{[0-9a-f]{40}}`, pages)
}
