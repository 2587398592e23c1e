/**
 * In-process bookkeeping of the delivery worker: a gate per endpoint (at most `capacity` attempts of it at once in
 * this process, its observed latency, where its next free slot is), and a micro-batcher that turns the statements of
 * concurrent attempts into one.
 */

/**
 * A full gate of an endpoint answering within FAST_LATENCY_MS lets a delivery wait in memory when its turn is within
 * MAX_LOCAL_WAIT_MS; otherwise the delivery is deferred, so that a slow receiver's backlog never holds a worker.
 */
export const FAST_LATENCY_MS = 1000;
export const MAX_LOCAL_WAIT_MS = 2000;

type Slot = { started: number };

export class EndpointGate {
  private readonly active = new Set<Slot>();
  private readonly waiting: Array<(slot: Slot) => void> = [];
  /** Exponentially weighted mean of the attempts' durations (ms); 0 until one has ended. */
  private latencyMs = 0;
  /** When the last delivery deferred from here is due: the next deferral goes one slot after it. */
  private lastDeferredAt = 0;

  constructor(readonly capacity: number) {}

  /** What an attempt is expected to take: the mean so far, or longer if the oldest attempt in flight already has. */
  latency(now = Date.now()): number {
    let oldest = 0;
    for (const slot of this.active) oldest = Math.max(oldest, now - slot.started);
    return Math.max(this.latencyMs, oldest);
  }

  /**
   * A slot at once, a slot after a short wait in memory, or null: the endpoint is slow or busy for longer than
   * MAX_LOCAL_WAIT_MS, and the caller defers the delivery (deferSeconds) instead of holding its worker.
   */
  async acquire(): Promise<Slot | null> {
    const now = Date.now();
    if (this.active.size < this.capacity) return this.take(now);
    // Before an attempt has ended, the age of the oldest one in flight is what is known of the receiver's latency.
    const latency = this.latency(now);
    const expectedWait = ((this.waiting.length + 1) / this.capacity) * latency;
    if (latency > FAST_LATENCY_MS || expectedWait > MAX_LOCAL_WAIT_MS) return null;
    return new Promise<Slot>((resolve) => this.waiting.push(resolve));
  }

  private take(now: number): Slot {
    const slot = { started: now };
    this.active.add(slot);
    return slot;
  }

  /** Frees the slot (the attempt's outcome is written), noting its duration; the next waiter gets it. */
  release(slot: Slot, durationMs: number | null) {
    if (!this.active.delete(slot)) return;
    if (durationMs !== null) this.latencyMs = this.latencyMs === 0 ? durationMs : 0.8 * this.latencyMs + 0.2 * durationMs;
    const next = this.waiting.shift();
    if (next) next(this.take(Date.now()));
  }

  /**
   * Seconds until a deferred delivery should come back: one slot (latency / capacity) after the last one deferred,
   * and not before the attempts in flight end. Deferred deliveries come back at the rate the endpoint answers instead
   * of all of them every second. At least `minSeconds`.
   */
  deferSeconds(minSeconds = 1, now = Date.now()): number {
    const latency = this.latency(now);
    this.lastDeferredAt = Math.max(this.lastDeferredAt, now + latency) + latency / this.capacity;
    return Math.max(minSeconds, Math.ceil((this.lastDeferredAt - now) / 100) / 10);
  }

  idle(now = Date.now()): boolean {
    return this.active.size === 0 && this.waiting.length === 0 && this.lastDeferredAt < now;
  }
}

/** The gates of this process's endpoints; idle ones are dropped once there are many. */
export class Gates {
  private readonly gates = new Map<string, EndpointGate>();

  constructor(private readonly capacity: number) {}

  get(endpointId: string): EndpointGate {
    let gate = this.gates.get(endpointId);
    if (!gate) {
      if (this.gates.size >= 1000) for (const [id, g] of this.gates) if (g.idle()) this.gates.delete(id);
      gate = new EndpointGate(this.capacity);
      this.gates.set(endpointId, gate);
    }
    return gate;
  }
}

/**
 * Collects the items added while a flush runs and writes them with the next flush, in one call: concurrent attempts
 * share a statement, and an item alone goes at once. `flush` resolves with each item's result, in order.
 */
export function batcher<T, R>(flush: (items: T[]) => Promise<R[]>): (item: T) => Promise<R> {
  let pending: Array<{ item: T; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];
  let running = false;
  const run = async () => {
    running = true;
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const results = await flush(batch.map((p) => p.item));
        for (const [i, p] of batch.entries()) p.resolve(results[i] as R);
      } catch (error) {
        for (const p of batch) p.reject(error);
      }
    }
    running = false;
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      pending.push({ item, resolve, reject });
      if (!running) void run();
    });
}
