import { ApiError } from '../jsonapi/errors.js';
import type { DataWriteError } from '../store/persistence-api.js';

/**
 * Seconds a client is asked to wait after a change the data file refused. A full disk does not
 * empty itself within a second, and a client retrying at once would only meet it again.
 */
const WRITE_RETRY_AFTER_SECONDS = 10;

/** 503 for a change that could not be written: the store took it back, so the same request may simply be sent again. */
export function unavailableOf(error: DataWriteError): ApiError {
  return ApiError.of(
    'unavailable',
    `The sandbox could not write this change to its data file (${error.reason}); nothing was changed. Reads still work; send the request again later.`,
    { headers: { 'retry-after': String(WRITE_RETRY_AFTER_SECONDS) }, meta: { retry_after: WRITE_RETRY_AFTER_SECONDS } },
  );
}
