import { describe, expect, it } from 'vitest';
import { RESIZE_STEP_MINUTES, enginesDuringResize, resizeMinutes, type EngineShape } from './sim-resize.js';

const online = (engines: ReturnType<typeof enginesDuringResize>) => engines.filter((engine) => engine.online).length;

/** Every step's start and middle and end, and a little after the last. */
function instants(from: EngineShape, to: EngineShape): number[] {
  const total = resizeMinutes(from, to);
  const points: number[] = [];
  for (let t = 0; t <= total + RESIZE_STEP_MINUTES; t += RESIZE_STEP_MINUTES / 2) points.push(t);
  return points;
}

describe('a simulated resize of the query engines', () => {
  const M5 = { instanceType: 'r6i.4xlarge', count: 5 };
  const L3 = { instanceType: 'r6i.8xlarge', count: 3 };
  const S2 = { instanceType: 'r6i.2xlarge', count: 2 };
  const L4 = { instanceType: 'r6i.8xlarge', count: 4 };

  it('never has fewer engines online than the smaller of the old and new counts, whatever the shapes', () => {
    const shapes: EngineShape[] = [];
    for (const instanceType of ['r6i.xlarge', 'r6i.4xlarge', 'r6i.16xlarge'])
      for (let count = 1; count <= 5; count += 1) shapes.push({ instanceType, count });
    for (const from of shapes)
      for (const to of shapes)
        for (const t of instants(from, to)) {
          expect(online(enginesDuringResize(from, to, t))).toBeGreaterThanOrEqual(Math.min(from.count, to.count));
        }
  });

  it('replaces each engine by a new one before the old one leaves (make before break)', () => {
    // S × 2 → L × 4: L engine 3 boots beside S 1 and 2, is online, then S 1 leaves.
    expect(enginesDuringResize(S2, L4, 1)).toEqual([
      { number: 1, instanceType: 'r6i.2xlarge', online: true },
      { number: 2, instanceType: 'r6i.2xlarge', online: true },
      { number: 3, instanceType: 'r6i.8xlarge', online: false },
    ]);
    expect(online(enginesDuringResize(S2, L4, RESIZE_STEP_MINUTES))).toBe(3);
    // S 1 has left as the next replacement begins to boot.
    expect(enginesDuringResize(S2, L4, 2 * RESIZE_STEP_MINUTES).map((engine) => [engine.number, engine.online])).toEqual([
      [2, true],
      [3, true],
      [4, false],
    ]);
    // Two replacements (four steps), then two engines added one at a time.
    expect(resizeMinutes(S2, L4)).toBe(6 * RESIZE_STEP_MINUTES);
  });

  it('ends with exactly the new shape, numbered from 1', () => {
    expect(enginesDuringResize(M5, L3, resizeMinutes(M5, L3))).toEqual([
      { number: 1, instanceType: 'r6i.8xlarge', online: true },
      { number: 2, instanceType: 'r6i.8xlarge', online: true },
      { number: 3, instanceType: 'r6i.8xlarge', online: true },
    ]);
  });

  it('adds or removes engines one at a time when only the count changes', () => {
    const from = { instanceType: 'r6i.4xlarge', count: 2 };
    const to = { instanceType: 'r6i.4xlarge', count: 5 };
    expect([0, 1, 2, 3, 4, 5, 6].map((step) => online(enginesDuringResize(from, to, step * RESIZE_STEP_MINUTES)))).toEqual([
      2, 3, 4, 5, 5, 5, 5,
    ]);
    expect([0, 1, 2, 3].map((step) => online(enginesDuringResize(to, from, step * RESIZE_STEP_MINUTES)))).toEqual([5, 4, 3, 2]);
  });
});
