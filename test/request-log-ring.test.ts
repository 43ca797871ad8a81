import { describe, expect, it } from 'vitest';
import { RequestLog, type RawEntry } from '../src/requestlog/log.js';

/** A minimal logged request with `id`, of client `client`, to `path`. */
function entry(id: number, client = 'a', path = `/shipments/${id}`): RawEntry {
  const message = { headers: { 'content-type': 'application/json' }, type: 'application/json', text: `{"n":${id}}` };
  return {
    id,
    time: 1_700_000_000 + id,
    method: 'GET',
    url: `http://sandbox.test${path}`,
    path,
    status: 200,
    duration_ms: 1,
    client_id: client,
    request: message,
    response: message,
  };
}

describe('the request log ring', () => {
  it('keeps the newest entries up to its capacity, newest first, with their headers as name and value pairs', () => {
    const log = new RequestLog(5);
    for (let id = 1; id <= 12; id++) log.add(entry(id));
    expect(log.size).toBe(5);
    const listed = log.list({ limit: 50 });
    expect(listed.map((e) => e.id)).toEqual([12, 11, 10, 9, 8]);
    expect(listed[0]!.request.headers).toEqual({ 'content-type': 'application/json' });
    expect(listed[0]!.response.body).toEqual({ n: 12 });
  });

  it('filters by client, client set and path prefix, and honours the limit', () => {
    const log = new RequestLog(10);
    for (let id = 1; id <= 6; id++) log.add(entry(id, id % 2 ? 'odd' : 'even', id > 3 ? `/shops/${id}` : `/shipments/${id}`));
    expect(log.list({ limit: 50, clientId: 'odd' }).map((e) => e.id)).toEqual([5, 3, 1]);
    expect(log.list({ limit: 50, clientIds: new Set(['even']) }).map((e) => e.id)).toEqual([6, 4, 2]);
    expect(log.list({ limit: 50, path: '/shops' }).map((e) => e.id)).toEqual([6, 5, 4]);
    expect(log.list({ limit: 2 }).map((e) => e.id)).toEqual([6, 5]);
  });

  it('orders by arrival when responses finish out of order, and empties when cleared', () => {
    const log = new RequestLog(4);
    log.add(entry(2));
    log.add(entry(1));
    log.add(entry(3));
    expect(log.list({ limit: 50 }).map((e) => e.id)).toEqual([3, 2, 1]);
    log.clear();
    expect(log.size).toBe(0);
    expect(log.list({ limit: 50 })).toEqual([]);
    log.add(entry(7));
    expect(log.list({ limit: 50 }).map((e) => e.id)).toEqual([7]);
  });
});
