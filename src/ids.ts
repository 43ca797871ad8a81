import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, createHmac, hkdfSync, randomUUID } from 'node:crypto';

/** 32 hex digits as a lower-case version 4 style UUID. */
function uuidOf(hex: string): string {
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Turns a namespace and a counter into a stable, lower-case version 4 style UUID, so the same seed
 * and the same sequence of requests always produce the same ids.
 */
export function deterministicUuid(namespace: string, counter: number): string {
  return uuidOf(createHash('sha256').update(`${namespace}:${counter}`).digest('hex'));
}

/** The example row being made in the current async context, and how many ids it drew (see `withExampleIds`). */
const exampleRows = new AsyncLocalStorage<{ organizationId: string; name: string; draws: number; publicDraws: number; closed: boolean }>();

/** The id of the `draw`-th row made for the example step `name` of an organization's API reference examples. */
export function exampleRowId(organizationId: string, name: string, draw = 0): string {
  return deterministicUuid(`parcel-sandbox:docs-example:${organizationId}:${name}`, draw);
}

/**
 * Runs `work` so that every id handed out within it (through every await) follows from the
 * organization, the step's name and the count of ids drawn before: `exampleRowId`. The API
 * reference's example rows (docs/examples) are made this way, each by an ordinary request, yet
 * with ids the document can name before they exist. Ids that open a public page are keyed with
 * the data file's secret instead (`IdSource.examplePublicId`), so only this sandbox knows them.
 * Once `work` settles, the context draws as usual again: a timer it armed (the scheduler's) may
 * run much later in it, for anyone's rows.
 */
export async function withExampleIds<T>(organizationId: string, name: string, work: () => Promise<T>): Promise<T> {
  const step = { organizationId, name, draws: 0, publicDraws: 0, closed: false };
  return exampleRows.run(step, async () => {
    try {
      return await work();
    } finally {
      step.closed = true;
    }
  });
}

/** The example step drawing ids in the current async context, while it runs. */
function exampleStep() {
  const step = exampleRows.getStore();
  return step && !step.closed ? step : undefined;
}

/**
 * How the sandbox makes ids. By default from the seed and a counter (same seed, same requests,
 * same ids), so tests can rely on them. Ids that open a page anyone may open without a token
 * (logos, payments) are drawn from the CSPRNG whatever the seed says, and tracking codes are
 * derived with a secret of the data file. With `random`, every id is random.
 */
export class IdSource {
  /**
   * @param key the data file's secret for digests such as tracking codes (derived from its key
   *   file), or `undefined` when there is none (a store used without the app): digests are then random.
   */
  constructor(
    private readonly seed: number,
    private readonly key: Buffer | undefined,
    readonly random: boolean,
  ) {}

  /** The id of the `counter`-th row made. */
  id(counter: number): string {
    const example = exampleStep();
    if (example) return exampleRowId(example.organizationId, example.name, example.draws++);
    return this.random ? randomUUID() : deterministicUuid(`parcel-sandbox:${this.seed}`, counter);
  }

  /** An id that opens a public page by itself: random (CSPRNG), so neither the seed nor the data file's secret gives it. */
  publicId(): string {
    const example = exampleStep();
    if (example) return this.examplePublicId(example.organizationId, example.name, example.publicDraws++);
    return randomUUID();
  }

  /** The `draw`-th public id of an example step (see `withExampleIds`): keyed with the data file's secret. */
  examplePublicId(organizationId: string, name: string, draw: number): string {
    return uuidOf(this.digest(`docs-example:${organizationId}:${name}:${draw}`));
  }

  /** A hex digest of `text` keyed with the data file's secret: stable for it, unguessable without it. */
  digest(text: string): string {
    if (!this.key) return createHash('sha256').update(`${randomUUID()}:${text}`).digest('hex');
    return createHmac('sha256', this.key).update(text).digest('hex');
  }
}

/** The secret for digests (tracking codes), derived from the key that seals credentials (one per data file). */
export function publicIdKey(credentialsKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', credentialsKey, 'parcel-sandbox', 'public ids', 32));
}
