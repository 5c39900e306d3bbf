// `npm run soak`: the fault test at length. Part 1 kills the embedded default with SIGKILL many times under
// money traffic; part 2 runs two portals on an external PostgreSQL (a throwaway server this process starts)
// and kills PostgreSQL repeatedly, and a portal now and then. Only 127.0.0.1 traffic; bounded in kills,
// requests and time; prints what happened and exits 1 when anything went wrong.
import { runEmbeddedKills } from '../support/fault/embedded-kills.js';
import { runExternalKills } from '../support/fault/external-kills.js';
import { timings } from '../support/fault/fault-kit.js';
import type { TrafficOptions } from '../support/fault/money-traffic.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number`);
  return value;
};
const config = {
  embeddedKills: setting('SOAK_EMBEDDED_KILLS', 24),
  databaseKills: setting('SOAK_DATABASE_KILLS', 10),
  portalKills: setting('SOAK_PORTAL_KILLS', 2),
  maxRequests: setting('SOAK_MAX_REQUESTS', 25_000),
  minutesPerPart: setting('SOAK_MINUTES_PER_PART', 8),
};
const traffic: TrafficOptions = { clients: 6, customers: 6, signUpEvery: 40, maxRequests: config.maxRequests };
const started = Date.now();
const log = (line: string) => console.log(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`);
const failures: string[] = [];

console.log(`soak: ${JSON.stringify(config)}`);
if (config.embeddedKills > 0) {
  log('part 1: the embedded default, the portal killed with SIGKILL');
  const embedded = await runEmbeddedKills({
    kills: config.embeddedKills,
    traffic,
    trafficBetweenKills: [1_000, 6_000],
    until: Date.now() + config.minutesPerPart * 60_000,
    log,
  });
  const byMoment = (moment: string) => embedded.kills.filter((kill) => kill.moment === moment).length;
  console.log(`
embedded default
  kills (SIGKILL):          ${embedded.kills.length} (traffic ${byMoment('traffic')}, metering run ${byMoment('metering')}, start-up ${byMoment('start-up')})
  restarts, time to ready:  ${timings(embedded.kills.map((kill) => kill.restartMs))}
  orphaned PostgreSQL shut down by the next start: ${embedded.kills.filter((kill) => kill.leftoverStopped).length} of ${embedded.kills.length}
  second portal on the DATA_DIR: ${embedded.secondPortalRefused ? 'refused' : 'NOT refused'} (${embedded.secondPortalMessage})
  traffic:                  ${embedded.traffic.summary()}
  invariant checks:         ${embedded.kills.length + 1}, broken: ${embedded.kills.reduce((sum, kill) => sum + kill.invariants.broken.length, 0) + embedded.final.broken.length}
  clean SIGTERM at the end: ${embedded.cleanShutdown}`);
  failures.push(...embedded.failures.map((line) => `embedded: ${line}`));
}

if (config.databaseKills > 0) {
  log('part 2: two portals on an external PostgreSQL, PostgreSQL killed with SIGKILL');
  const external = await runExternalKills({
    databaseKills: config.databaseKills,
    portalKills: config.portalKills,
    traffic,
    trafficBetweenKills: [2_000, 8_000],
    downtime: [200, 3_000],
    until: Date.now() + config.minutesPerPart * 60_000,
    log,
  });
  console.log(`
external PostgreSQL, two portals
  PostgreSQL kills:         ${external.databaseKills}, back (kill to accepting): ${timings(external.databaseRecoveryMs)}
  surviving portals ready after PostgreSQL was back: ${timings(external.portalBackMs)}
  portal kills (SIGKILL):   ${external.portalKills}
  portal restarts to ready: ${timings(external.portalRestartMs)}
  portal process deaths:    ${external.portalDeaths.length}${external.portalDeaths.map((death) => `\n    ${death}`).join('')}
  traffic:                  ${external.traffic.summary()}
  invariant checks:         ${external.invariantChecks.length + 1}, broken: ${external.invariantChecks.reduce((sum, check) => sum + check.broken.length, 0) + external.final.broken.length}`);
  failures.push(...external.failures.map((line) => `external: ${line}`));
}

console.log(`\nsoak finished in ${Math.round((Date.now() - started) / 1000)} s`);
if (failures.length > 0) {
  console.log(`FAILED: ${failures.length} problem(s)\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('PASSED: no acknowledged write lost, every balance equal to its ledger, no hour charged twice');
