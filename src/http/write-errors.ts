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

/** Seconds a client is asked to wait after a reset overtook its request: the reset is over by then. */
const REPLACED_RETRY_AFTER_SECONDS = 1;

/** 503 for a change that waited while the sandbox was reset: it read the data that is gone, so it did not run. */
export function replacedOf(): ApiError {
  return ApiError.of(
    'unavailable',
    'The sandbox was reset while this request was running; nothing of it was written. Send the request again: it then works on the data of the reset.',
    { headers: { 'retry-after': String(REPLACED_RETRY_AFTER_SECONDS) }, meta: { retry_after: REPLACED_RETRY_AFTER_SECONDS } },
  );
}

/**
 * 503 for a change asked for after the data was closed: the sandbox is stopping (a request still
 * running once the shutdown's wait for requests ran out). Nothing of it was written; it works once
 * the sandbox is started again. Seldom seen, as the connection is usually cut by then; answering
 * it keeps the shutdown from logging it as an unexpected error.
 */
export function stoppingOf(): ApiError {
  return ApiError.of('unavailable', 'The sandbox is stopping; nothing of this request was written. Send it again once the sandbox is back.', {
    headers: { 'retry-after': String(REPLACED_RETRY_AFTER_SECONDS) },
    meta: { retry_after: REPLACED_RETRY_AFTER_SECONDS },
  });
}
