// POST /attachments (a multipart upload, streamed to disk by the gate), DELETE /attachments/{id}
// and PUT /attachments/{id}/redact.
import type { AppRoutes } from '../../context.ts'
import type { ReceivedFile } from '../../kernel/multipart.ts'
import { presentAttachment } from './present.ts'
import { deleteAttachment, findAttachment, MAX_ATTACHMENT_BYTES, mayDeleteAttachment, redactAttachment, uploadAttachment } from './service.ts'

const someAttachment = { find: findAttachment }

export function attachmentsRoutes(routes: AppRoutes): void {
  routes.handle(
    'attachments.create',
    { upload: (ctx) => ({ dir: ctx.blobs.uploadsDir(), maxBytes: MAX_ATTACHMENT_BYTES }) },
    // The gate has checked that the required attachment field is there.
    ({ ctx, upload }) => presentAttachment(uploadAttachment(ctx, upload?.files.get('attachment') as ReceivedFile, ctx.user.id)),
  )

  routes.handle('attachments.delete', { ...someAttachment, authorize: mayDeleteAttachment }, ({ ctx, found }) => deleteAttachment(ctx, found))

  routes.handle('attachments.redact', someAttachment, ({ ctx, found }) => presentAttachment(redactAttachment(ctx, found)))
}
