/**
 * A resize of a running simulated cluster's query engines, as a pure function of time: engines are added or removed
 * one at a time, and a change of instance type replaces each engine by a new one that is online before the old one
 * leaves (make before break), so the engines online never drop below the smaller of the old and new counts.
 */

export interface EngineShape {
  instanceType: string;
  count: number;
}

/** One engine as the resize has it at a moment: `online` false while a new one boots. */
export interface SimEngine {
  /** 1-based number, kept by an engine for its life (host kumo-qe-<n>). */
  number: number;
  instanceType: string;
  online: boolean;
}

/** Simulated minutes each step takes: a new engine boots and joins, or an old one drains and leaves. */
export const RESIZE_STEP_MINUTES = 2;

type Step = { add: string } | { remove: number };

/** The steps from one shape to another, in order. */
export function resizeSteps(from: EngineShape, to: EngineShape): Step[] {
  const steps: Step[] = [];
  if (from.instanceType === to.instanceType) {
    for (let n = from.count + 1; n <= to.count; n += 1) steps.push({ add: to.instanceType });
    for (let n = from.count; n > to.count; n -= 1) steps.push({ remove: n });
    return steps;
  }
  // Shrinking leaves the extra engines first; then each kept engine is replaced; growing adds the rest last.
  for (let n = from.count; n > to.count; n -= 1) steps.push({ remove: n });
  for (let n = 1; n <= Math.min(from.count, to.count); n += 1) steps.push({ add: to.instanceType }, { remove: n });
  for (let n = from.count + 1; n <= to.count; n += 1) steps.push({ add: to.instanceType });
  return steps;
}

/** How long the whole resize takes, in simulated minutes. */
export const resizeMinutes = (from: EngineShape, to: EngineShape) => resizeSteps(from, to).length * RESIZE_STEP_MINUTES;

/**
 * The engines `minutes` after the resize began: each step's engine appears (booting) as its step begins and is online
 * when it ends; a leaving engine stays online until its step ends. Once done, the new engines are numbered from 1.
 */
export function enginesDuringResize(from: EngineShape, to: EngineShape, minutes: number): SimEngine[] {
  const steps = resizeSteps(from, to);
  if (minutes >= steps.length * RESIZE_STEP_MINUTES) {
    return Array.from({ length: to.count }, (_, i) => ({ number: i + 1, instanceType: to.instanceType, online: true }));
  }
  const engines: SimEngine[] = Array.from({ length: from.count }, (_, i) => ({
    number: i + 1,
    instanceType: from.instanceType,
    online: true,
  }));
  let next = from.count + 1;
  steps.forEach((step, k) => {
    const begins = k * RESIZE_STEP_MINUTES;
    if (minutes < begins) return;
    const done = minutes >= begins + RESIZE_STEP_MINUTES;
    if ('add' in step) engines.push({ number: next++, instanceType: step.add, online: done });
    else if (done)
      engines.splice(
        engines.findIndex((engine) => engine.number === step.remove),
        1,
      );
  });
  return engines;
}
