// Two builds of the portal side by side under the same load: each on the embedded default with an account of 50
// clusters, one read (BENCH_PROFILE_PATH, the 50-cluster view by default) in closed-loop rounds that alternate between
// them, so both see the same machine. Prints each round's CPU per request of either portal.
//   BENCH_MAIN_B=/path/to/other/apps/api/dist/main.js node bench/compare.mjs      (A: BENCH_MAIN or this tree's build)
//   BENCH_SECONDS (8), BENCH_CONNECTIONS (20), BENCH_ROUNDS (4), BENCH_ENCODING (none; e.g. br)
import autocannon from 'autocannon';
import { apiCaller, cpuSeconds, fiftyClusters, signIn, startPortal, waitReady } from './portal.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 8199);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const PATH = process.env.BENCH_PROFILE_PATH ?? '/api/cluster/view';
const ENCODING = process.env.BENCH_ENCODING ? { 'accept-encoding': process.env.BENCH_ENCODING } : {};
if (!process.env.BENCH_MAIN_B) throw new Error('BENCH_MAIN_B names the other build (its apps/api/dist/main.js)');

const builds = [
  { name: 'A', main: process.env.BENCH_MAIN ?? 'apps/api/dist/main.js', port: PORT },
  { name: 'B', main: process.env.BENCH_MAIN_B, port: PORT + 2 },
];
for (const build of builds) build.portal = startPortal(build.port, { main: build.main });
try {
  for (const build of builds) {
    await waitReady(`${build.portal.base}/readyz`);
    const api = apiCaller(build.portal.base, await signIn(build.portal.base));
    await fiftyClusters(api);
    build.headers = { ...api.readHeaders, ...ENCODING };
    build.rounds = [];
    await autocannon({ url: `${build.portal.base}${PATH}`, connections: CONNECTIONS, duration: 3, headers: build.headers });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 ? [...builds].reverse() : builds) {
      const before = cpuSeconds(build.portal.pid);
      const result = await autocannon({
        url: `${build.portal.base}${PATH}`,
        connections: CONNECTIONS,
        duration: DURATION,
        headers: build.headers,
      });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${build.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      build.rounds.push({
        micros: ((cpuSeconds(build.portal.pid) - before) / result.requests.total) * 1e6,
        rate: result.requests.average,
        p99: result.latency.p99,
      });
    }
  }
  console.log(`GET ${PATH}, ${CONNECTIONS} connections, ${DURATION} s rounds, alternating`);
  for (const build of builds) {
    const sorted = [...build.rounds].sort((a, b) => a.micros - b.micros);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `${build.name} ${build.main}: CPU ${median.micros.toFixed(0)} µs/request median (rounds ${build.rounds.map((r) => r.micros.toFixed(0)).join(', ')}); ` +
        `req/s ${build.rounds.map((r) => r.rate.toFixed(0)).join(', ')}; p99 ms ${build.rounds.map((r) => r.p99).join(', ')}`,
    );
  }
} finally {
  await Promise.all(builds.map((build) => build.portal.stop()));
}
