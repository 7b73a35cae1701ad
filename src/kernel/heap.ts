// A binary min-heap: adding and taking the least cost log n, where keeping an array sorted moves
// its tail on every insert. The seed's record histories (seed/records.ts), the records waiting to
// expire in the status index and the places a walk of the clock's queue in order has still to
// visit (scheduler.ts, whose queue is a heap of its own: its jobs can be taken out from anywhere)
// wait in one.

export class MinHeap<T> {
  private readonly items: T[] = []

  /** `before(a, b)`: a comes out before b. Items that tie come out in no set order. */
  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length
  }

  /** The least item, or undefined. */
  peek(): T | undefined {
    return this.items[0]
  }

  /** Takes the least item, or undefined. */
  pop(): T | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length > 0) this.sink(last as T)
    return top
  }

  push(item: T): void {
    const items = this.items
    let at = items.length
    items.push(item)
    while (at > 0) {
      const parent = (at - 1) >>> 1
      if (!this.before(item, items[parent] as T)) break
      items[at] = items[parent] as T
      at = parent
    }
    items[at] = item
  }

  /** Empties the heap, answering what it held (in no order). */
  drain(): T[] {
    return this.items.splice(0, this.items.length)
  }

  /** Puts `item` at the root and moves it down to its place. */
  private sink(item: T): void {
    const items = this.items
    const size = items.length
    let at = 0
    for (;;) {
      let child = 2 * at + 1
      if (child >= size) break
      const right = child + 1
      if (right < size && this.before(items[right] as T, items[child] as T)) child = right
      if (!this.before(items[child] as T, item)) break
      items[at] = items[child] as T
      at = child
    }
    items[at] = item
  }
}
