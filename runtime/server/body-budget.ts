/**
 * @module
 * One budget for the request body bytes the whole server holds at once, so that memory stays
 * bounded under many slow clients: each limit of a route (1 MiB for the Issues API, 4 MiB for
 * Connect) bounds one request, and this bounds their sum. A request declaring its length reserves
 * it on arrival; a chunked one counts what it has sent, as it sends it. A request that would take
 * the budget past its size is refused at once, before a byte of its body is read (503 in
 * `http-server.ts`). What a request holds is given back when its response closes.
 */
import { IncomingMessage } from 'node:http';

/** What one request holds of the budget. */
interface Hold {
  /** Bytes counted against the budget: the declared length, or more once more arrived. */
  counted: number;
  /** Body bytes received so far. */
  received: number;
}

const HOLD = Symbol('bodyBudgetHold');

/** A request whose body bytes can be counted as they arrive. */
interface Counted {
  [HOLD]?: { readonly budget: BodyBudget; readonly hold: Hold };
}

/**
 * The budget.
 *
 * @example
 * ```ts
 * const budget = new BodyBudget(64 * 1024 * 1024);
 * if (!budget.admit(req, 1_000_000)) return refuse(res, 503);
 * res.once('close', () => budget.release(req));
 * ```
 */
export class BodyBudget {
  private held = 0;

  constructor(
    /** The most body bytes held at once. */
    readonly size: number,
  ) {}

  /** Body bytes held now, by every request not yet answered. */
  inFlight(): number {
    return this.held;
  }

  /**
   * Reserves `declared` bytes (0 for a chunked body, which counts as it arrives) for `req`;
   * false, reserving nothing, when that would pass the budget. A request asking for no more than
   * the whole budget is refused only while others hold it, so one large body is never refused on
   * an idle server.
   */
  admit(req: IncomingMessage, declared: number): boolean {
    if (this.held > 0 && this.held + declared > this.size) return false;
    if (this.held >= this.size) return false;
    const hold: Hold = { counted: declared, received: 0 };
    this.held += declared;
    (req as Counted)[HOLD] = { budget: this, hold };
    return true;
  }

  /** Gives back what `req` holds; later body bytes no longer count. Safe to call twice. */
  release(req: IncomingMessage): void {
    const entry = (req as Counted)[HOLD];
    if (entry === undefined || entry.budget !== this) return;
    (req as Counted)[HOLD] = undefined;
    this.held -= entry.hold.counted;
  }

  /** @internal Counts body bytes as Node's parser delivers them (see {@link BudgetedRequest}). */
  static received(req: IncomingMessage, bytes: number): void {
    const entry = (req as Counted)[HOLD];
    if (entry === undefined) return;
    const hold = entry.hold;
    hold.received += bytes;
    // Past what was reserved (a chunked body, or a client sending more than it declared), what
    // arrives counts too.
    if (hold.received > hold.counted) {
      entry.budget.held += hold.received - hold.counted;
      hold.counted = hold.received;
    }
  }
}

/**
 * The server's `IncomingMessage`: Node's parser pushes each chunk of the body into it, counted
 * against the request's hold before it is buffered.
 */
export class BudgetedRequest extends IncomingMessage {
  override push(chunk: unknown, encoding?: BufferEncoding): boolean {
    if (chunk !== null && chunk !== undefined) BodyBudget.received(this, (chunk as { length: number }).length);
    return super.push(chunk, encoding);
  }
}
