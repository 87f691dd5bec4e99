/**
 * A fixed-window counter per key (a client address): enough to stop one address minting demo
 * identities in bulk, with no store to run. Shared by every service of one process.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { startedMs: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** 0 when this attempt is allowed (and counted), otherwise the seconds until the key may try again. */
  take(key: string): number {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now - window.startedMs >= this.windowMs) {
      if (this.windows.size >= 10_000) this.forgetEnded(now);
      window = { startedMs: now, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit) return Math.max(1, Math.ceil((window.startedMs + this.windowMs - now) / 1000));
    window.count += 1;
    return 0;
  }

  private forgetEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.startedMs >= this.windowMs) this.windows.delete(key);
    }
  }
}
