// Reads a .cpuprofile (V8's sampling profile) and prints where the time went: the functions with the most self time,
// the same grouped by where their code lives (a package under node_modules, node's internals, the portal's own files),
// and the portal's own functions by total time (themselves and what they call).
// `node bench/cpu-profile-summary.mjs file.cpuprofile [top]` prints it for a saved profile.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where a function's code lives: `pkg:fastify`, `node:internal`, `app:modules/clusters`, or a V8 pseudo-frame. */
function placeOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node:internal';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return `pkg:${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  const dist = /\/apps\/api\/dist[^/]*\/(.*)\/[^/]+$/.exec(url);
  return dist ? `app:${dist[1]}` : url.replace(/^file:\/\//, '');
}

const shortUrl = (url) => url.replace(/^file:\/\/.*?\/(node_modules|apps\/api\/dist[^/]*)\//, '').replace(/^file:\/\//, '');

/** Self and total milliseconds per function and per place, from the samples between startTime and endTime. */
export function summariseProfile(profile, { top = 25 } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const totalSamples = profile.samples.length;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / Math.max(totalSamples, 1);

  const self = new Map();
  const places = new Map();
  const total = new Map();
  const keyOf = (frame) => `${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
  for (const [id, count] of hits) {
    const { callFrame } = byId.get(id);
    self.set(keyOf(callFrame), (self.get(keyOf(callFrame)) ?? 0) + count);
    const place = placeOf(callFrame.url, callFrame.functionName);
    places.set(place, (places.get(place) ?? 0) + count);
    // Total time: each function on the sample's stack once, however often it recurs.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at).callFrame;
      if (!/\/apps\/api\/dist[^/]*\//.test(frame.url)) continue;
      const key = keyOf(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + count);
    }
  }
  const idle = (hits.get(profile.nodes.find((node) => node.callFrame.functionName === '(idle)')?.id) ?? 0) * msPerSample;
  const busySamples = totalSamples - idle / msPerSample;
  const lines = [];
  const table = (title, map, limit) => {
    lines.push(`\n${title}`);
    const rows = [...map].filter(([key]) => key !== '(idle)' && !key.startsWith('(idle)')).sort((a, b) => b[1] - a[1]);
    for (const [key, count] of rows.slice(0, limit)) {
      const ms = (count * msPerSample).toFixed(0).padStart(7);
      const share = ((count / busySamples) * 100).toFixed(1).padStart(5);
      lines.push(`${ms} ms ${share}%  ${key}`);
    }
  };
  const seconds = (profile.endTime - profile.startTime) / 1e6;
  lines.push(
    `profile: ${seconds.toFixed(1)} s, ${totalSamples} samples; busy ${((busySamples * msPerSample) / 1000).toFixed(1)} s, idle ${(idle / 1000).toFixed(1)} s (shares below are of busy time)`,
  );
  table('self time by place', places, 20);
  table(`self time, top ${top} functions`, self, top);
  table(`total time of the portal's own functions, top ${top}`, total, top);
  return { text: lines.join('\n'), busyMs: busySamples * msPerSample };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, top] = process.argv.slice(2);
  console.log(summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { top: Number(top ?? 25) }).text);
}
