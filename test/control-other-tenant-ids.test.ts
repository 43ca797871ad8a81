// A tenant's token names another tenant's organization or client on a control: the answer is the
// 404 an id that names nothing gets, word for word, so it does not tell which ids exist.
import { describe, expect, it } from 'vitest';
import { firstError, tenantWithToken, testSandbox } from './support/app.js';

describe("another tenant's ids on the controls, with a tenant's token", () => {
  it('are refused in the same words as ids that name nothing', async () => {
    const sandbox = await testSandbox();
    const { token } = await tenantWithToken(sandbox, { name: 'asking' });
    const { made: other } = await tenantWithToken(sandbox, { name: 'other' });
    const unknown = { organization_id: 'no-such-organization', client_id: 'no-such-client' };
    const theirs = { organization_id: other.body.organization_id as string, client_id: other.body.client_id as string };
    const queries = [
      ['/_sandbox/report', 'organization_id'],
      ['/_sandbox/report', 'client_id'],
      ['/_sandbox/quotas', 'organization_id'],
      ['/_sandbox/quotas', 'client_id'],
      ['/_sandbox/requests', 'client_id'],
      ['/_sandbox/fixtures', 'client_id'],
    ] as const;
    for (const [path, parameter] of queries) {
      const refusal = async (id: string) => {
        const answer = await sandbox.get(`${path}?${parameter}=${id}`, token);
        expect(answer.status, `${path} ${parameter}: ${answer.text}`).toBe(404);
        expect(firstError(answer).source).toEqual({ parameter });
        return (firstError(answer).detail as string).replace(id, '<id>');
      };
      expect(await refusal(theirs[parameter]), `${path} ${parameter}`).toBe(await refusal(unknown[parameter]));
    }
  });
});
