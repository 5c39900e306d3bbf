// Loaded into the portal with `node --import` by bench/profile.mjs, never by the portal itself: SIGUSR2 starts the
// V8 sampling profiler in the portal's own thread, the next SIGUSR2 stops it and writes BENCH_CPU_PROFILE (.cpuprofile
// JSON, as Chrome DevTools reads it). So only the load is profiled, not the start-up or the seeding.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const target = process.env.BENCH_CPU_PROFILE;
const session = new Session();
session.connect();
const post = (method, params = {}) =>
  new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));

let profiling = false;
process.on('SIGUSR2', () => {
  void (async () => {
    if (!profiling) {
      profiling = true;
      await post('Profiler.enable');
      await post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_CPU_SAMPLING_US ?? 200) });
      await post('Profiler.start');
      return;
    }
    profiling = false;
    const { profile } = await post('Profiler.stop');
    writeFileSync(target, JSON.stringify(profile));
    process.stderr.write(`cpu profile written to ${target}\n`);
  })();
});
