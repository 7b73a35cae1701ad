// Seeded client files: about a quarter of the generated clients have a document the team uploaded
// for them (a passport scan, a driving licence, a proof of address, a bank statement), as an
// internal file whose bytes are one of the sample files (fixtures/samples, shared, never copied),
// scanned clean, added by an owner or member some time after the client was created; some expire.
import type { Faker } from '@faker-js/faker'
import { createClock, toTimestamp } from '../kernel/clock.ts'
import { createEventBus } from '../kernel/events.ts'
import { createRandom } from '../kernel/random.ts'
import { sampleAttachment, type SampleName } from '../resources/attachments/index.ts'
import { addFile } from '../resources/files/index.ts'
import { createServices } from '../services.ts'
import { teamContext } from '../context.ts'
import type { Store, Team } from '../store/world.ts'

const DAY = 86_400_000

const DOCUMENTS: ReadonlyArray<{ sample: SampleName; name: string; file: string }> = [
  { sample: 'passport', name: 'Passport', file: 'passport.jpg' },
  { sample: 'drivingLicence', name: 'Driving licence', file: 'driving-licence.jpg' },
  { sample: 'proofOfAddress', name: 'Proof of address', file: 'proof-of-address.pdf' },
  { sample: 'bankStatement', name: 'Bank statement', file: 'bank-statement.pdf' },
]

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

export function generateFiles(faker: Faker, store: Store, team: Team, epoch: Date): void {
  const writers = team.members.filter((member) => member.role === 'owner' || member.role === 'member')
  if (writers.length === 0) return
  const clock = createClock({ start: epoch, frozen: true })
  // Seeded history is not news: nothing is delivered for it.
  const services = createServices({ store, clock, random: createRandom(faker.number.int({ min: 0, max: 2 ** 31 })), events: createEventBus(), behaviour: { recordExpiryDays: 30, checkDelaySeconds: 60 } })
  const ctx = teamContext(services, team)
  const planned = team.clients
    .filter(() => faker.datatype.boolean(0.25))
    .map((client) => ({ client, at: faker.date.between({ from: new Date(client.created_at), to: new Date(client.archived_at ?? epoch) }) }))
    .sort((a, b) => a.at.getTime() - b.at.getTime())
  for (const { client, at } of planned) {
    clock.set(at)
    const document = faker.helpers.arrayElement(DOCUMENTS)
    const attachment = sampleAttachment(ctx, document.sample, `${slug(client.name.last_name)}-${document.file}`)
    addFile(ctx, {
      client: client.id,
      type: 'internal',
      source: { type: 'client', id: client.id },
      source_subtype: null,
      name: `${document.name} - ${client.name.first_name} ${client.name.last_name}`,
      attachment: attachment.id,
      created_by: { type: 'team_member', id: faker.helpers.arrayElement(writers).user },
      expires_at: faker.datatype.boolean(0.2) ? toTimestamp(new Date(epoch.getTime() + faker.number.int({ min: 90, max: 720 }) * DAY)) : null,
    })
  }
}
