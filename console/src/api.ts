// The console speaks only GraphQL, through the generated client's typed
// documents. This module holds the signed-in key and turns a key the server
// stops accepting into a return to the sign-in page.
import { VerdictClient, VerdictError } from '@verdict/client';
import type { TypedDocumentString } from '@verdict/client';
import { serverAnswered } from './reconnect';

export { VerdictError };

/** Where the API key lives for the tab's lifetime. */
export const KEY_STORAGE = 'verdict.apiKey';

/** The message of a request that reached no server. */
export const UNREACHABLE =
  'Could not reach the Verdict server: the network or the server is down. Nothing on this page is lost; try again once the server answers.';

/**
 * Whether a message a page shows (an error's, as errorMessage gives it, or
 * a sentence that ends with one) says the server could not be reached:
 * such a page tries again by itself (see reconnect.ts).
 */
export function saysUnreachable(message: string): boolean {
  return message.endsWith(UNREACHABLE);
}

/**
 * Whether an answer is a proxy's in front of a server it could not reach
 * (one that restarts, say): a gateway status with a page of the proxy's own,
 * where Verdict answers every error, 503 included, in JSON.
 */
function fromGateway(res: Response): boolean {
  if (res.status !== 502 && res.status !== 503 && res.status !== 504) return false;
  const type = res.headers.get('Content-Type') ?? '';
  return !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type);
}

type VariablesArg<V> = {} extends V ? [variables?: V] : [variables: V];

export class Api {
  readonly #client: VerdictClient;
  readonly #onKeyRefused: () => void;
  readonly #onActionRefused: () => void;

  /**
   * onKeyRefused is called when the server stops accepting the key,
   * onActionRefused when it refuses an action to the key's role: the role
   * may have been lowered since the page learnt it.
   */
  constructor(apiKey: string, onKeyRefused: () => void, onActionRefused: () => void = () => {}) {
    // The client calls its fetch as a method of its own; the browser's fetch
    // must be called on window. A request that reaches no server says so,
    // where the browser's words ("Failed to fetch") would not.
    this.#client = new VerdictClient({
      url: window.location.origin,
      apiKey,
      fetch: async (input, init) => {
        let res: Response;
        try {
          res = await window.fetch(input, init);
        } catch (err) {
          if (err instanceof DOMException && err.name === 'AbortError') throw err;
          throw new Error(UNREACHABLE, { cause: err });
        }
        if (fromGateway(res)) throw new Error(UNREACHABLE);
        return res;
      },
    });
    this.#onKeyRefused = onKeyRefused;
    this.#onActionRefused = onActionRefused;
  }

  async request<R, V>(document: TypedDocumentString<R, V>, ...variables: VariablesArg<V>): Promise<R> {
    try {
      const answer = await this.#client.request(document, ...variables);
      serverAnswered();
      return answer;
    } catch (err) {
      if (err instanceof VerdictError) serverAnswered();
      if (err instanceof VerdictError && err.code === 'unauthenticated') {
        this.#onKeyRefused();
      }
      if (err instanceof VerdictError && err.code === 'permission_denied') {
        this.#onActionRefused();
      }
      throw err;
    }
  }
}

/** A message to show for a failed request. */
export function errorMessage(err: unknown): string {
  if (err instanceof VerdictError) {
    if (err.details.length === 0) return err.message;
    // A message that lists its problems names them too ("tests failed: a, b"):
    // its head leads the details, which say more of each.
    return `${err.message.split(': ')[0]}: ${err.details.join('; ')}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * Whether the server refused a request for its id argument: an address
 * whose id is no id at all (`groups/new`) names nothing there is. Told by
 * its message: the error is on the path of the field, not of its argument.
 */
export function refusedId(err: unknown): boolean {
  return err instanceof VerdictError && err.code === 'invalid_argument' && err.errors.some((e) => e.message.endsWith(' is not a valid id'));
}

/**
 * Whether a list refused the cursor of the page asked for (`after of
 * auditEvents is not a cursor this list gave out`): one an address
 * carried, cut short or changed by hand, or copied from another list.
 */
export function refusedCursor(err: unknown): boolean {
  return err instanceof VerdictError && err.errors.some((e) => e.message.endsWith(' is not a cursor this list gave out'));
}

/**
 * Whether the server found nothing by an id it was given, or the id was no
 * id at all: the page says there is no such one, in its own words.
 */
export function namesNothing(err: unknown): boolean {
  return refusedId(err) || (err instanceof VerdictError && err.code === 'not_found');
}

/**
 * Whether a request was refused because its answer would be larger than
 * the server answers in one request (`this request would answer more than
 * 64.0 MiB; ask for fewer runs, checks or records in one request`): asking
 * for less of it may be answered.
 */
export function answerTooLarge(err: unknown): boolean {
  return err instanceof VerdictError && err.code === 'invalid_argument' && err.message.startsWith('this request would answer more than ');
}

/**
 * Whether a change was refused because the record changed since the page
 * read it (another tab saved or published the draft): loading it again
 * is the way on.
 */
export function staleRecord(err: unknown): boolean {
  return err instanceof VerdictError && err.code === 'conflict' && /load it again$/.test(err.message);
}

/**
 * Whether a change to the draft `id` was refused because that draft was
 * published meanwhile (another tab or someone else published it): the
 * record is a version now, and a version does not change. The server says
 * so in its message alone, a conflict that names the record as published
 * (`record <id> is published and cannot change; create a draft from it`;
 * for a publish, `is published already`; `the base has a draft already`
 * when one was made since), so the whole message is matched, for that
 * record only.
 */
export function publishedRecord(err: unknown, id: string | undefined): boolean {
  if (!id || !(err instanceof VerdictError) || err.code !== 'conflict') return false;
  const head = `record ${id} is published`;
  return err.message.startsWith(head) && publishedTail.test(err.message.slice(head.length));
}

const publishedTail =
  /^(?: and cannot change; create a draft from it| already; there is no draft to publish|; the base has a draft already: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}; (?:change|publish) that one)$/;
