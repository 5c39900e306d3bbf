// Money writes under contention: BURST card top-ups of one subscription, all paid at the sandbox, then all confirmed at
// once (GET /api/credit/payment-status, the browser's return), while the sandbox's own notifications confirm the same
// checkouts from the job workers. Every confirmation must answer 200, none may surface a database conflict, and
// the balance must grow by exactly the sum of the top-ups.
import { createSubscription, payAtSandbox, percentile, sleep } from './portal.mjs';

const BURST = Number(process.env.BENCH_MONEY_BURST ?? 200);
const AMOUNT_USD = 7;

/** Runs `work` over items, at most `width` at a time. */
async function inBatches(items, width, work) {
  const results = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

const balanceOf = async (api, subscriptionId) =>
  Number((await api.get(`/api/subscription/details?subscription_id=${subscriptionId}`)).total_amount);

/** Sends every checkout's confirmation at once; returns the latencies (sorted), the failures and the wall time. */
async function confirmAll({ base, api, subscriptionId, checkouts }) {
  const started = performance.now();
  const outcomes = await Promise.all(
    checkouts.map(async ({ sessionId }) => {
      const start = performance.now();
      try {
        const response = await fetch(`${base}/api/credit/payment-status/${subscriptionId}?session_id=${encodeURIComponent(sessionId)}`, {
          headers: api.readHeaders,
        });
        const body = await response.text();
        const ok = response.status === 200 && JSON.parse(body).transaction_status === 'SUCCESSFUL';
        return { ms: performance.now() - start, error: ok ? undefined : `${response.status} ${body.slice(0, 200)}` };
      } catch (error) {
        return { ms: performance.now() - start, error: String(error) };
      }
    }),
  );
  return {
    latencies: outcomes.map(({ ms }) => ms).sort((a, b) => a - b),
    errors: outcomes.flatMap(({ error }) => (error ? [error] : [])),
    wallMs: performance.now() - started,
  };
}

const ms = (value) => `${value.toFixed(0)} ms`;
const summary = ({ latencies, errors, wallMs }) =>
  `p50 ${ms(percentile(latencies, 0.5))}, p99 ${ms(percentile(latencies, 0.99))}, max ${ms(latencies.at(-1))}, ` +
  `all ${latencies.length} in ${ms(wallMs)}; errors ${errors.length}`;

/** Returns the number of failed confirmations, counting a wrong final balance as a failure of all of them. */
export async function topUpBurst({ base, api }) {
  const subscriptionId = await createSubscription(api, 'Bench top-ups');
  const before = await balanceOf(api, subscriptionId);
  const checkouts = await inBatches(Array.from({ length: BURST }), 20, async () => {
    const { redirect_url } = await api.post('/api/credit/purchase', { amount: AMOUNT_USD, subscription_id: subscriptionId });
    return { redirectUrl: redirect_url, sessionId: new URL(redirect_url).pathname.split('/').at(-1) };
  });
  await inBatches(checkouts, 20, ({ redirectUrl }) => payAtSandbox(redirectUrl));

  const burst = await confirmAll({ base, api, subscriptionId, checkouts });
  // The job workers may still be finishing their copies of the same confirmations: they must credit nothing twice.
  await sleep(3000);
  const credited = (await balanceOf(api, subscriptionId)) - before;
  const expected = BURST * AMOUNT_USD;

  // The baseline of the same run: the same requests at once again, now that every top-up is paid (reads only).
  const reads = await confirmAll({ base, api, subscriptionId, checkouts });
  console.log(
    `\nmoney writes: ${BURST} card top-ups of one subscription confirmed at once (and by the sandbox's notifications)\n` +
      `  ${summary(burst)}; credited $${credited} of $${expected}\n` +
      `  baseline, the same ${BURST} confirmations again (already paid, reads only): ${summary(reads)}`,
  );
  const errors = [...burst.errors, ...reads.errors];
  for (const error of [...new Set(errors)].slice(0, 5)) console.log(`  error: ${error}`);
  return errors.length + (credited === expected ? 0 : BURST);
}
