/** The shapes of request log entries and the limits of what the log keeps. */
/** What the log keeps of a request or response body (after redaction). */
export interface CapturedMessage {
  headers: Record<string, string>;
  /** The body: parsed JSON (or a form, as an object), redacted; text only for responses that are not JSON. */
  body?: unknown;
  /** The body was larger than the log keeps: `body` shows it cut down by its structure (a non-JSON response: its first part). */
  truncated?: true;
  /** The size of a body larger than the log keeps, in bytes. */
  size?: number;
  /** Why the body is not shown, or shown cut down, with its type and size. */
  note?: string;
}

/** A deprecated thing a request used: production's deprecation id, where the request used it (`operation`, a parameter, a header or a pointer), what to use instead. */
export interface DeprecationNote {
  id: string;
  where: string;
  instead: string;
}

/** One captured request and its response. Secrets, credentials and tokens are redacted. */
export interface RequestLogEntry {
  /** Sequence number in this sandbox process; higher is newer. */
  id: number;
  /** Sandbox clock (Unix seconds) when the request arrived: the clock of its tenant, or the global clock. */
  time: number;
  method: string;
  /** Path with query string. */
  path: string;
  status: number;
  duration_ms: number;
  /** The authenticated client, when the request carried a valid token (or got one). */
  client_id?: string;
  /** What the request used that production deprecates, and what to use instead (the answer carried `Deprecation`). */
  deprecated?: DeprecationNote[];
  request: CapturedMessage;
  response: CapturedMessage;
}

/** A body as kept while serving: its text (cut at the limit) or a note; parsed only when read. */
export interface RawMessage {
  /** The headers as they came: a Headers object, a plain object, or Node's flat raw list (name, value, ...). */
  headers: Headers | Record<string, string> | string[];
  /** Bare media type of the body ('' when none was given). */
  type: string;
  text?: string;
  /** `text` is the first part of a longer text (responses that are not JSON). */
  truncated?: true;
  /** `text` is the JSON of the body cut down by its structure (`shortened`); the body had `size` bytes. */
  summary?: true;
  size?: number;
  /** Secret values found anywhere in a body not kept whole (cut down, or too large and unparseable), to scrub them wherever else they show up. */
  secrets?: string[];
  note?: string;
}

/**
 * A message as the log keeps it: its headers as they came when that is a flat list (Node's raw
 * request headers) or a plain object (the sandbox's own responses), so keeping one costs no copy;
 * only a Headers object is turned into a list.
 */
export type KeptMessage = RawMessage & { headers: string[] | Record<string, string> };

/** An entry as the log keeps it (`RequestLog.add`), before parsing and redaction. */
export type KeptEntry = Omit<RawEntry, 'request' | 'response'> & { request: KeptMessage; response: KeptMessage };

/** A request as kept while serving, before parsing and redaction. */
export interface RawEntry {
  id: number;
  time: number;
  method: string;
  /** The full request URL. */
  url: string;
  /** Path with query, for the path filter. */
  path: string;
  status: number;
  duration_ms: number;
  client_id?: string;
  deprecated?: DeprecationNote[];
  request: RawMessage;
  response: RawMessage;
}

export interface RequestLogQuery {
  clientId?: string;
  /** Only requests of these clients (a tenant reading its own requests). */
  clientIds?: ReadonlySet<string>;
  /** Prefix of the path (with query). */
  path?: string;
  limit: number;
}

export const REQUEST_LOG_CAPACITY = 500;
export const REQUEST_LOG_DEFAULT_LIMIT = 50;
/** Request bodies are kept up to this many bytes; larger ones are kept cut down by their structure. */
export const REQUEST_LOG_BODY_LIMIT = 16 * 1024;
/**
 * Response bodies are kept up to this many characters. Less than requests: the client already has
 * the whole response, and a log full of list pages then holds ~2 MiB instead of ~8.
 */
export const REQUEST_LOG_RESPONSE_LIMIT = 4 * 1024;
