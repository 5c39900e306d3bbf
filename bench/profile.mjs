// CPU profile of the portal under a closed-loop load of one read (by default the 50-cluster view): the portal runs
// with bench/cpu-profile-hook.mjs, which profiles only while the load runs; the summary (bench/cpu-profile-summary.mjs)
// is printed and the .cpuprofile kept for Chrome DevTools.
//   npm run bench:profile                                  GET /api/cluster/view for an account with 50 clusters
//   BENCH_PROFILE_PATH=/api/user/detail npm run bench:profile
//   BENCH_EXTRA_SUBSCRIPTIONS (4): subscriptions without clusters the account has beside the 50 clusters' one
//   BENCH_ENCODING=br        sends Accept-Encoding as a browser would (answers above 1 KiB then come compressed)
//   BENCH_SECONDS (10), BENCH_CONNECTIONS (20), BENCH_CPU_PROFILE (where the profile goes)
// Before profiling, BENCH_ROUNDS (3) unprofiled runs measure the portal's CPU per request (all its threads, from
// /proc): that figure is the one to compare, since other load on the machine hardly moves it; the profile's
// milliseconds are wall time of the sampled thread and grow with it.
import { readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { summariseProfile } from './cpu-profile-summary.mjs';
import { apiCaller, cpuSeconds, fiftyClusters, moreSubscriptions, signIn, sleep, startPortal, waitReady } from './portal.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATH = process.env.BENCH_PROFILE_PATH ?? '/api/cluster/view';
const ENCODING = process.env.BENCH_ENCODING ? { 'accept-encoding': process.env.BENCH_ENCODING } : {};
const PROFILE = resolve(process.env.BENCH_CPU_PROFILE ?? join(tmpdir(), `kumo-portal-${Date.now()}.cpuprofile`));

const hook = new URL('./cpu-profile-hook.mjs', import.meta.url).href;
const portal = startPortal(PORT, { nodeArgs: ['--import', hook], env: { BENCH_CPU_PROFILE: PROFILE } });
try {
  await waitReady(`${portal.base}/readyz`);
  const api = apiCaller(portal.base, await signIn(portal.base));
  await fiftyClusters(api);
  await moreSubscriptions(api);
  const url = `${portal.base}${PATH}`;
  const headers = { ...api.readHeaders, ...ENCODING };
  const load = () => autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  await autocannon({ url, connections: CONNECTIONS, duration: 3, headers }); // warm-up (JIT)
  const rounds = [];
  for (let round = 0; round < ROUNDS; round++) {
    const before = cpuSeconds(portal.pid);
    const result = await load();
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
    const micros = ((cpuSeconds(portal.pid) - before) / result.requests.total) * 1e6;
    rounds.push({ micros, rate: result.requests.average, p99: result.latency.p99 });
  }
  const median = [...rounds].sort((a, b) => a.micros - b.micros)[Math.floor(rounds.length / 2)];
  console.log(
    `GET ${PATH}${ENCODING['accept-encoding'] ? ` (Accept-Encoding: ${ENCODING['accept-encoding']})` : ''}, unprofiled, ` +
      `${CONNECTIONS} connections, ${DURATION} s x ${ROUNDS}: portal CPU ${median.micros.toFixed(0)} µs per request (median; rounds ` +
      `${rounds.map((r) => r.micros.toFixed(0)).join(', ')}), ${median.rate.toFixed(0)} req/s, p99 ${median.p99} ms`,
  );
  rmSync(PROFILE, { force: true });
  process.kill(portal.pid, 'SIGUSR2');
  await sleep(200);
  const result = await load();
  process.kill(portal.pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(PROFILE); i++) await sleep(100);
  await sleep(300);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const { text, busyMs } = summariseProfile(JSON.parse(readFileSync(PROFILE, 'utf8')));
  console.log(
    `profiled run: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${result.requests.total} requests; ` +
      `sampled thread busy ${((busyMs / result.requests.total) * 1000).toFixed(0)} µs (wall) per request`,
  );
  console.log(text);
  console.log(`\nprofile kept at ${PROFILE} (open it in Chrome DevTools' Performance panel)`);
} finally {
  await portal.stop();
}
