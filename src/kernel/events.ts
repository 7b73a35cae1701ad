// The event bus: resources publish facts ("client.created"), subscribers (webhook delivery,
// tests, the dashboard) react. Publishing never fails the request that caused it.
export interface DomainEvent {
  /** Event name as docs/specification-notes.md "Events" lists them, e.g. client.created. */
  type: string
  teamId: number
  /** Wire timestamp of when it happened (the mock's clock). */
  occurredAt: string
  /** Ids of what the event is about, e.g. { client: 12 } or { client: 12, record: 40 }. */
  subjects: Record<string, number | string | null>
}

export type EventListener = (event: DomainEvent) => void

export interface EventBus {
  publish(event: DomainEvent): void
  /** Returns the function that unsubscribes. */
  subscribe(listener: EventListener): () => void
}

export function createEventBus(onListenerError: (error: unknown) => void = (error) => console.error(error)): EventBus {
  const listeners = new Set<EventListener>()
  return {
    publish(event) {
      for (const listener of listeners) {
        try {
          listener(event)
        } catch (error) {
          onListenerError(error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
