// A small client for Verdict's GraphQL API. The typed documents in ./gql are
// generated from operations/*.graphql against the server's schema; this
// file only sends them.
import type { TypedDocumentString } from './gql/graphql.js';

export * from './gql/graphql.js';

export interface ClientOptions {
  /** Where the server listens, such as http://localhost:8080. */
  url: string;
  /** The API key, sent as x-api-key. */
  apiKey: string;
  /**
   * The organization the key belongs to, sent as x-org-id. Never needed:
   * a key acts only in its own organization, and naming another is refused.
   */
  orgId?: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
}

/** One entry of a GraphQL response's errors. */
export interface GraphQLErrorEntry {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string; details?: string[]; [key: string]: unknown };
}

/**
 * A request Verdict refused: code is the API's error code
 * (permission_denied, not_found, conflict, ...), from the GraphQL error's
 * extensions or from the REST error shape the server answers with before
 * GraphQL runs (unauthenticated, rate_limited, ...). details lists every
 * problem of an error that has several, such as an invalid flow
 * definition; it is empty otherwise.
 */
export class VerdictError extends Error {
  readonly code: string | undefined;
  readonly details: string[];
  readonly status: number;
  readonly errors: GraphQLErrorEntry[];

  constructor(
    message: string,
    code: string | undefined,
    status: number,
    errors: GraphQLErrorEntry[] = [],
    details: string[] = [],
  ) {
    super(message);
    this.name = 'VerdictError';
    this.code = code;
    this.details = details;
    this.status = status;
    this.errors = errors;
  }
}

// Operations whose variables are all optional (or that have none) may leave
// them out; the others require theirs.
type VariablesArg<V> = {} extends V ? [variables?: V] : [variables: V];

export class VerdictClient {
  readonly #endpoint: string;
  readonly #headers: Record<string, string>;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.#endpoint = new URL('/graphql', options.url).toString();
    this.#headers = { 'content-type': 'application/json', 'x-api-key': options.apiKey };
    if (options.orgId !== undefined) {
      this.#headers['x-org-id'] = options.orgId;
    }
    this.#fetch = options.fetch ?? fetch;
  }

  /**
   * Runs a generated document and returns its data. A response with errors
   * is thrown as a VerdictError: every operation here has one root field, so
   * partial data is never useful. Every mutation field (createPolicy,
   * runPolicy and the others) is nullable in the schema, so that one that
   * fails does not hide what the others of a document wrote; through this
   * method such a field is null only with an error, which is thrown, so a
   * result holds it (`result.createPolicy!`).
   */
  async request<R, V>(document: TypedDocumentString<R, V>, ...[variables]: VariablesArg<V>): Promise<R> {
    const res = await this.#fetch(this.#endpoint, {
      method: 'POST',
      headers: this.#headers,
      body: JSON.stringify({ query: document.toString(), variables: variables ?? {} }),
    });
    const text = await res.text();
    let body: {
      data?: R | null;
      errors?: GraphQLErrorEntry[];
      error?: { code: string; message: string; details?: string[] };
    };
    try {
      body = JSON.parse(text);
    } catch {
      throw new VerdictError(`HTTP ${res.status}: ${text.slice(0, 200)}`, undefined, res.status);
    }
    if (body.error) {
      throw new VerdictError(body.error.message, body.error.code, res.status, [], body.error.details);
    }
    if (body.errors && body.errors.length > 0) {
      const first = body.errors[0]!;
      throw new VerdictError(first.message, first.extensions?.code, res.status, body.errors, first.extensions?.details);
    }
    if (!res.ok || body.data == null) {
      throw new VerdictError(`HTTP ${res.status} without data`, undefined, res.status);
    }
    return body.data;
  }
}
