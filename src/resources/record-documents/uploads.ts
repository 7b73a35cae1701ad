// What the simulated client uploads when they complete a document step (the control API's
// complete, the seed): sample files of fixtures/samples, chosen by what the document is called,
// so a record's documents and the client's files hold something realistic to download.
import type { TeamContext } from '../../context.ts'
import { BlobStore } from '../../store/blobs.ts'
import { sampleAttachment, SAMPLES, type AttachmentRow, type SampleName } from '../attachments/index.ts'
import type { RecordDocumentRow } from './rows.ts'

/** A file name from a document's name: "Proof of address" -> proof-of-address. */
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'document'

/** Which sample a client's upload for a document of this name is, by what the name suggests. */
const SAMPLES_BY_NAME: Array<[RegExp, SampleName]> = [
  [/bank|statement|payslip|p60|salary|income|pension/i, 'bankStatement'],
  [/passport/i, 'passport'],
  [/driving|licen[cs]e/i, 'drivingLicence'],
  [/selfie|photo of you/i, 'selfie'],
  [/handbook/i, 'employeeHandbook'],
  [/privacy/i, 'privacyNotice'],
  [/contract|agreement|terms|offer/i, 'contractOfEmployment'],
  [/address|utility|council tax|bill/i, 'proofOfAddress'],
]

function sampleNamed(name: string, otherwise: SampleName): SampleName {
  return SAMPLES_BY_NAME.find(([pattern]) => pattern.test(name))?.[1] ?? otherwise
}

const extensionOf = (sample: SampleName) => SAMPLES[sample].file.slice(SAMPLES[sample].file.lastIndexOf('.'))

/**
 * What the (simulated) client uploads for a document: for a request, a sample file suiting its
 * name (proof of address unless the name says otherwise); for a return, their signed copy of the
 * sent file (the same sample when the team sent one, else a sample suiting the name).
 */
export function clientUpload(ctx: TeamContext, document: RecordDocumentRow): AttachmentRow {
  if (document.type === 'requested') {
    const sample = sampleNamed(document.name, 'proofOfAddress')
    return sampleAttachment(ctx, sample, `${slug(document.name)}${extensionOf(sample)}`)
  }
  const sent = document.attachments.map((id) => ctx.team.attachments.get(id)).find((row) => row !== undefined)
  const sentSample = (Object.keys(SAMPLES) as SampleName[]).find((sample) => sent?.blob === BlobStore.sample(SAMPLES[sample].file))
  const sample = sentSample ?? sampleNamed(document.name, 'contractOfEmployment')
  return sampleAttachment(ctx, sample, `${slug(document.name)}-signed${extensionOf(sample)}`)
}
