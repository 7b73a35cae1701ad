// Which subscriptions an event reaches: `*` every event, `<category>.*` every event of the category
// (events added to it later included: docs/specification-notes.md "Webhooks"), otherwise the exact name. A ping is sent by the
// engine itself, never matched.
export function subscribes(subscriptions: readonly string[], event: string): boolean {
  const category = event.slice(0, event.indexOf('.') + 1)
  return subscriptions.some((name) => name === '*' || name === event || (category !== '' && name === `${category}*`))
}
