/** The random steps of the money property test (metering.property.test.ts), and the sequences it always tries. */
import fc from 'fast-check';
import { METERING_DIMENSIONS, type MeteringDimension } from '@kumo/contract';

export type Step =
  | { op: 'advance'; seconds: number }
  | { op: 'start' | 'stop' | 'delete' | 'create'; cluster: number }
  | { op: 'meter' | 'replay' }
  | { op: 'rate'; dimension: MeteringDimension; rateE4: number; freeUnits: number }
  | { op: 'budget'; dollars: number; forecast: boolean; cap: boolean }
  | { op: 'topUp'; thresholdCents: number; topUpCents: number; capCents: number };

const clusterIndex = fc.integer({ min: 0, max: 2 });
export const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 400 }) }), weight: 6 },
  { arbitrary: fc.record({ op: fc.constantFrom('start' as const, 'stop' as const, 'create' as const), cluster: clusterIndex }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), cluster: clusterIndex }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constantFrom('meter' as const, 'replay' as const) }), weight: 3 },
  {
    arbitrary: fc.record({
      op: fc.constant('rate' as const),
      dimension: fc.constantFrom(...METERING_DIMENSIONS),
      rateE4: fc.integer({ min: 0, max: 99_999 }),
      freeUnits: fc.integer({ min: 0, max: 3 }),
    }),
    weight: 1,
  },
  {
    // Small budgets too, so that hard caps are reached and stop clusters within a sequence.
    arbitrary: fc.record({
      op: fc.constant('budget' as const),
      dollars: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 2_000 })),
      forecast: fc.boolean(),
      cap: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('topUp' as const),
      thresholdCents: fc.integer({ min: 0, max: 300_000 }),
      topUpCents: fc.integer({ min: 100, max: 5_000 }),
      capCents: fc.integer({ min: 100, max: 12_000 }),
    }),
    weight: 1,
  },
);

/**
 * Free units granted after a month's first hour, with that hour and the next charged in one run: the first hour
 * (no allowance yet) takes none, so the next one still gets its free unit.
 */
export const FREE_UNITS_GRANTED_IN_THE_RUN: [Step[], boolean] = [
  [
    { op: 'create', cluster: 0 },
    { op: 'advance', seconds: 1 },
    { op: 'rate', dimension: 'BI_SERVER', rateE4: 0, freeUnits: 1 },
    { op: 'advance', seconds: 60 },
    { op: 'delete', cluster: 0 },
  ],
  false,
];

/** A hard cap reached by the first run (about 6.5 USD an hour against 5 USD), a start refused, and a top-up charged. */
export const CAP_REACHED_AND_TOPPED_UP: [Step[], boolean] = [
  [
    { op: 'create', cluster: 0 },
    { op: 'topUp', thresholdCents: 300_000, topUpCents: 1_000, capCents: 5_000 },
    { op: 'budget', dollars: 5, forecast: false, cap: true },
    { op: 'advance', seconds: 200 },
    { op: 'meter' },
    { op: 'start', cluster: 0 },
    { op: 'create', cluster: 1 },
    { op: 'advance', seconds: 100 },
    { op: 'replay' },
  ],
  false,
];
