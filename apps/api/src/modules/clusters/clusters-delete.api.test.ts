import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterDeletionStartedMessage, deletionOtpResentMessage, deletionOtpSentMessage } from '@kumo/contract';
import { MINUTE } from '../../clock.js';
import { databaseKinds } from '../../../test/support/databases.js';
import { errorCode, get, latestOtp, logIn, post, send, startTestApp, type TestContext } from '../../../test/support/harness.js';
import { CLUSTER_TEST_APP, clusterSteps, simMinutes } from '../../../test/support/clusters.js';

const kinds = await databaseKinds();

describe.each(kinds)('deleting clusters on %s', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp(kind, CLUSTER_TEST_APP);
  });
  afterAll(() => ctx.close());
  const { customer, createCluster, status, elapse, deployOnline } = clusterSteps(() => ctx);

  it('deletes only with the approver OTP: wrong, resent, reused, expired and another account', async () => {
    const owner = await customer('Deletions');
    const id = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Short_Lived' });
    const ask = (jwt: string, deploymentId = id) =>
      post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: deploymentId } }, jwt);

    // A subscription with a live cluster cannot be deleted.
    const subscriptionDelete = await send(ctx, 'DELETE', `/api/subscription/delete/${owner.subscriptionId}`, undefined, owner.jwt);
    expect(subscriptionDelete.statusCode).toBe(422);
    const listed = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, owner.jwt)).json();
    expect(listed.active_cluster_count).toBe(1);
    expect(listed.clusters).toEqual([{ deployment_id: id, cluster_name: 'Short_Lived', status: 'ONLINE' }]);

    const asked = await ask(owner.jwt);
    expect(asked.statusCode).toBe(200);
    // The owner asked: the OTP went to her, and the answer says so rather than naming an approver.
    expect(asked.json()).toMatchObject({
      message: deletionOtpSentMessage(owner.email, true),
      approver_email: owner.email,
      sent_to_you: true,
    });
    const operationId = String(asked.json().operation_id);
    const firstOtp = await latestOtp(ctx, owner.email);
    const mails = await ctx.services.mail.listRecent(5);
    expect(mails[0]!.subject).toBe('Approve the deletion of cluster Short_Lived');
    expect(mails[0]!.subject).not.toContain(firstOtp);

    const statusOf = async () => (await get(ctx, `/api/cluster/operation/status/${operationId}`, owner.jwt)).json();
    expect(await statusOf()).toMatchObject({
      status: 'PENDING_APPROVAL',
      deployment_id: id,
      cluster_status: 'ONLINE',
      action_name: 'customer_delete_cluster',
    });

    // Another account cannot see, resend or approve it.
    const stranger = await customer();
    expect((await get(ctx, `/api/cluster/operation/status/${operationId}`, stranger.jwt)).statusCode).toBe(404);
    expect((await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, stranger.jwt)).statusCode).toBe(404);
    expect(
      (await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: firstOtp }, stranger.jwt)).statusCode,
    ).toBe(404);

    const wrongOtp = firstOtp === '000000' ? '111111' : '000000';
    const wrong = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: wrongOtp }, owner.jwt);
    expect(wrong.statusCode).toBe(422);
    expect(errorCode(wrong)).toBe('OTP_INVALID');

    const resent = await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, owner.jwt);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().message).toBe(deletionOtpResentMessage(owner.email, true));
    const secondOtp = await latestOtp(ctx, owner.email);
    if (secondOtp !== firstOtp) {
      const stale = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: firstOtp }, owner.jwt);
      expect(errorCode(stale)).toBe('OTP_INVALID');
    }

    const approved = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: secondOtp }, owner.jwt);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toEqual({
      operation_id: operationId,
      status: 'APPROVED',
      message: clusterDeletionStartedMessage('Short_Lived', 'Deletions'),
    });
    const reused = await post(ctx, '/api/user/operation/authenticate', { operation_id: operationId, otp: secondOtp }, owner.jwt);
    expect(reused.statusCode).toBe(409);
    expect(errorCode(reused)).toBe('OPERATION_ALREADY_USED');
    expect((await post(ctx, '/api/user/operation/resend-otp', { operation_id: operationId }, owner.jwt)).statusCode).toBe(409);

    expect((await status(owner.jwt, id)).status).toBe('DELETING');
    for (const action of ['start', 'stop']) expect((await get(ctx, `/api/cluster/${action}/${id}`, owner.jwt)).statusCode).toBe(409);
    await elapse(simMinutes(4), id);
    expect((await status(owner.jwt, id)).status).toBe('DELETING');
    await elapse(simMinutes(4), id); // done within 5-10 minutes
    expect((await status(owner.jwt, id)).status).toBe('DELETED');
    expect(await statusOf()).toMatchObject({ status: 'APPROVED', cluster_status: 'DELETED' });
    expect((await get(ctx, '/api/cluster/view', owner.jwt)).json()[0].clusters).toEqual([]);
    expect((await get(ctx, `/api/cluster/details/${id}`, owner.jwt)).statusCode).toBe(404);
    const after = (await get(ctx, `/api/subscription/details?subscription_id=${owner.subscriptionId}`, owner.jwt)).json();
    expect(after.active_cluster_count).toBe(0);
    expect(after.clusters).toEqual([]);
    const events = (await get(ctx, `/api/cluster/get-audit-logs/${id}`, owner.jwt))
      .json()
      .page_content.content.map((entry: { event: string }) => entry.event);
    expect(events.slice(0, 3)).toEqual(['CLUSTER_DELETED', 'CLUSTER_DELETE_APPROVED', 'CLUSTER_DELETE_REQUESTED']);
    // The name is free again once the cluster is gone.
    await createCluster(owner.jwt, owner.subscriptionId, { cluster_name: 'Short_Lived', cidr: '10.9.0.0/16' });

    // An operation expires with its OTP.
    const second = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Expiring', cidr: '10.8.0.0/16' });
    const late = String((await ask(owner.jwt, second)).json().operation_id);
    const lateOtp = await latestOtp(ctx, owner.email);
    ctx.clock.advance(11 * MINUTE);
    const expired = await post(ctx, '/api/user/operation/authenticate', { operation_id: late, otp: lateOtp }, owner.jwt);
    expect(expired.statusCode).toBe(422);
    expect(errorCode(expired)).toBe('OPERATION_EXPIRED');
    expect((await get(ctx, `/api/cluster/operation/status/${late}`, owner.jwt)).json().status).toBe('EXPIRED');
    expect((await status(owner.jwt, second)).status).toBe('ONLINE');

    // Three wrong OTPs lock approvals for the day, as at sign-in (an hour on, the earlier wrong ones no longer count).
    ctx.clock.advance(61 * MINUTE);
    owner.jwt = (await logIn(ctx, owner.email)).jwt; // access tokens live 15 minutes
    const locked = String((await ask(owner.jwt, second)).json().operation_id);
    const goodOtp = await latestOtp(ctx, owner.email);
    const bad = goodOtp === '000000' ? '111111' : '000000';
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_INVALID',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_INVALID',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: bad }, owner.jwt))).toBe(
      'OTP_LOCKED',
    );
    expect(errorCode(await post(ctx, '/api/user/operation/authenticate', { operation_id: locked, otp: goodOtp }, owner.jwt))).toBe(
      'OTP_LOCKED',
    );
    // …without locking the owner's sign-in.
    expect((await post(ctx, '/api/user/login', { email_id: owner.email, auth_provider: 'EMAIL_OTP_AUTH' })).statusCode).toBe(200);
    ctx.clock.advance(24 * 60 * MINUTE);
  });

  it("treats another account's cluster as unknown on every call", async () => {
    const owner = await customer();
    const id = await deployOnline(owner.jwt, owner.subscriptionId, { cluster_name: 'Private' });
    const intruder = await customer();
    const calls = [
      get(ctx, `/api/cluster/deployment-details/status/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/details/${id}?detail=CURRENT`, intruder.jwt),
      get(ctx, `/api/cluster/details/${id}?detail=DEPLOYMENT`, intruder.jwt),
      get(ctx, `/api/cluster/start/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/stop/${id}`, intruder.jwt),
      send(ctx, 'POST', `/api/cluster/stop/${id}`, undefined, intruder.jwt),
      get(ctx, `/api/cluster/get-audit-logs/${id}`, intruder.jwt),
      get(ctx, `/api/cluster/schedule/${id}`, intruder.jwt),
      send(
        ctx,
        'PUT',
        `/api/cluster/schedule/${id}`,
        { enabled: true, rules: [{ day: 'MON', action: 'STOP', time: '18:00' }] },
        intruder.jwt,
      ),
      post(ctx, '/api/user/operation', { action_name: 'customer_delete_cluster', action_payload: { deployment_id: id } }, intruder.jwt),
      get(ctx, `/api/cluster/view?subscriptionId=${owner.subscriptionId}`, intruder.jwt),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode, response.body).toBe(404);
    }
    const theirs = (await get(ctx, '/api/cluster/view', intruder.jwt)).json();
    expect(theirs.flatMap((group: { clusters: unknown[] }) => group.clusters)).toEqual([]);
    expect((await status(owner.jwt, id)).status).toBe('ONLINE');
  });
});
