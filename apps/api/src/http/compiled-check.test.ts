import * as contract from '@kumo/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { $ZodType, safeParse } from 'zod/v4/core';
import { compileCheck } from './compiled-check.js';
import { hasNothingToEncode } from './response-serializer.js';
import { ANSWER_SUBSCRIPTION_ID, clusterViewAnswer, listedClusterAnswer } from '../../test/support/cluster-answers.js';

/** What zod's parse answers, as text: the JSON sent, or a refusal. */
const zodAnswer = (schema: z.ZodType, value: unknown) => {
  const result = safeParse(schema, value);
  return result.error ? 'refused' : JSON.stringify(result.data);
};
const compiledAnswer = (schema: z.ZodType, value: unknown) => {
  const result = compileCheck(schema)!(value);
  return result.ok ? JSON.stringify(result.value) : 'refused';
};

const cluster = listedClusterAnswer();
const view = (...clusters: unknown[]) => clusterViewAnswer(clusters);

describe('the compiled answer check', () => {
  it('covers the cluster list and answers it as zod does', () => {
    const schema = contract.clusterViewResponseSchema;
    expect(compileCheck(schema)).toBeDefined();
    const samples: unknown[] = [
      view(cluster, { ...cluster, resizing_to: { size: 'M', query_engines: 3, note: 'dropped' } }),
      view({ ...cluster, sealed_password: 'secret', lease_holder: 'x' }),
      [],
      view(),
      view({ ...cluster, status: 'SLEEPING' }),
      view({ ...cluster, cluster_capacity: -1 }),
      view({ ...cluster, cluster_capacity: 1.5 }),
      view({ ...cluster, cluster_capacity: Number.NaN }),
      view({ ...cluster, created_at: 'yesterday' }),
      view({ ...cluster, deployment_id: 'not-a-uuid' }),
      view({ ...cluster, cluster_name: undefined }),
      view({ ...cluster, backup_region: 7 }),
      view({ ...cluster, subscription_balance: '100.25' }),
      [{ subscription_id: ANSWER_SUBSCRIPTION_ID, subscription_name: 'Bench' }],
      [null],
      { 0: cluster },
      'text',
    ];
    for (const sample of samples) expect([sample, compiledAnswer(schema, sample)]).toEqual([sample, zodAnswer(schema, sample)]);
    expect(compiledAnswer(schema, samples[0])).not.toBe('refused');
    expect(compiledAnswer(schema, samples[1])).not.toContain('sealed_password');
  });

  it('answers optional, nullable, literal and union parts as zod does', () => {
    const schema = z.object({
      note: z.string().max(3).optional(),
      maybe: z.number().int().nullable(),
      kind: z.literal(['a', 'b']),
      either: z.union([z.object({ n: z.number() }), z.object({ s: z.email() })]),
      any: z.unknown(),
      flags: z.array(z.boolean()),
    });
    const base = { maybe: null, kind: 'a', either: { n: 1 }, any: { x: [1] }, flags: [true] };
    const samples = [
      base,
      { ...base, note: 'abc' },
      { ...base, note: 'abcd' },
      { ...base, note: undefined },
      { ...base, maybe: undefined },
      { ...base, maybe: 2.5 },
      { ...base, kind: 'c' },
      { ...base, either: { s: 'a@b.example', n: 'x' } },
      { ...base, either: { s: 'nope' } },
      { ...base, any: undefined },
      { ...base, flags: [1] },
      { ...base, flags: 'yes' },
    ];
    for (const sample of samples) expect([sample, compiledAnswer(schema, sample)]).toEqual([sample, zodAnswer(schema, sample)]);
  });

  it("gives back an answer already in the schema's shape as it is, and copies any other as zod does", () => {
    const schema = contract.clusterViewResponseSchema;
    const exact = view(cluster, { ...cluster, resizing_to: { size: 'M', query_engines: 3 } });
    const result = compileCheck(schema)!(exact);
    expect(result).toEqual({ ok: true, value: exact });
    expect(result.ok && result.value).toBe(exact);
    const { cluster_name, ...rest } = cluster;
    const withToJson = { ...cluster, toJSON: () => ({ leaked: true }) };
    Object.defineProperty(withToJson, 'toJSON', { enumerable: false });
    const samples: unknown[] = [
      view({ ...rest, cluster_name }),
      view({ ...cluster, extra: 1 }),
      view(withToJson),
      view(Object.assign(Object.create({ toJSON: () => 'proto' }) as object, cluster)),
      view({ ...cluster, resizing_to: { query_engines: 3, size: 'M' } }),
      Object.assign([...view(cluster)], { toJSON: () => [] }),
    ];
    for (const sample of samples) {
      expect([sample, compiledAnswer(schema, sample)]).toEqual([sample, zodAnswer(schema, sample)]);
      expect(compiledAnswer(schema, sample)).not.toBe('refused');
    }
  });

  it('leaves to zod the schemas with parts it does not cover', () => {
    for (const schema of [
      z.object({ n: z.number() }).refine((o) => o.n > 0),
      z.array(z.string()).min(1),
      z.object({ at: z.date() }),
      z.record(z.string(), z.number()),
      z.tuple([z.number()]),
      z.object({ a: z.string() }).passthrough(),
      z.object({ a: z.string() }).strict(),
      z.object({ n: z.coerce.number() }),
    ]) {
      expect(compileCheck(schema)).toBeUndefined();
    }
  });

  it('answers every answer schema of the contract it covers as zod does, for a value of another shape', () => {
    const schemas = (Object.values(contract) as unknown[]).filter(
      (value): value is z.ZodType => value instanceof $ZodType && hasNothingToEncode(value) && compileCheck(value) !== undefined,
    );
    expect(schemas.length).toBeGreaterThan(50);
    for (const schema of schemas) {
      for (const sample of [null, {}, [], 'x', 1, [{}], { content: [] }])
        expect(compiledAnswer(schema, sample)).toBe(zodAnswer(schema, sample));
    }
  });
});
