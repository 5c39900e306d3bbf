import { clusterViewResponseSchema, type ClusterViewResponse } from '@kumo/contract';
import { ResponseSerializationError, serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hasNothingToEncode, responseSerializerCompiler } from './response-serializer.js';
import { clusterViewAnswer, listedClusterAnswer } from '../../test/support/cluster-answers.js';

const route = (schema: z.ZodType) => ({ schema, method: 'GET', url: '/api/x', httpStatus: '200' });
/** What the type provider's own serializer answers: the text, or the error's name. */
const before = (schema: z.ZodType, data: unknown) => outcome(() => serializerCompiler(route(schema))(data));
const now = (schema: z.ZodType, data: unknown) => outcome(() => responseSerializerCompiler(route(schema))(data));
function outcome(serialize: () => string): string {
  try {
    return serialize();
  } catch (error) {
    return `refused: ${error instanceof ResponseSerializationError ? 'ResponseSerializationError' : String(error)}`;
  }
}

const cluster = (i: number) => listedClusterAnswer(`Bench_${i}`);
const view = clusterViewAnswer;

describe('response serializer', () => {
  it('answers a list of clusters as the type provider did: the same text, without fields the contract lacks', () => {
    expect(hasNothingToEncode(clusterViewResponseSchema)).toBe(true);
    const data: ClusterViewResponse = view([cluster(1), cluster(2)]) as ClusterViewResponse;
    const extra = view([{ ...cluster(1), sealed_password: 'secret' }]);
    for (const sample of [data, extra, []]) expect(now(clusterViewResponseSchema, sample)).toBe(before(clusterViewResponseSchema, sample));
    expect(now(clusterViewResponseSchema, extra)).not.toContain('sealed_password');
  });

  it.each([
    ['a status the contract does not know', { status: 'SLEEPING' }],
    ['a capacity below zero', { cluster_capacity: -1 }],
    ['a date that is not ISO', { created_at: 'yesterday' }],
    ['a missing field', { cluster_name: undefined }],
  ])('refuses to send %s, as the type provider did', (_name, change) => {
    const sample = view([{ ...cluster(1), ...change }]);
    expect(now(clusterViewResponseSchema, sample)).toBe('refused: ResponseSerializationError');
    expect(now(clusterViewResponseSchema, sample)).toBe(before(clusterViewResponseSchema, sample));
  });

  it.each([
    ['a trimmed string', z.object({ name: z.string().trim() }), { name: '  padded  ' }],
    ['a transform', z.object({ n: z.number().transform((n) => n * 2) }), { n: 2 }],
    ['a default', z.object({ n: z.number().default(7) }), {}],
    [
      'a codec',
      z.object({ at: z.codec(z.iso.datetime(), z.date(), { decode: (s) => new Date(s), encode: (d) => d.toISOString() }) }),
      { at: new Date(0) },
    ],
    ['a lazy schema holding a transform', z.object({ x: z.lazy(() => z.string().transform((s) => s.length)) }), { x: 'abc' }],
  ])('leaves a schema with %s to the type provider', (_name, schema, sample) => {
    expect(hasNothingToEncode(schema)).toBe(false);
    expect(now(schema, sample)).toBe(before(schema, sample));
  });

  it('parses schemas whose parts change nothing, recursive ones included', () => {
    type Tree = { name: string; children: Tree[] };
    const tree: z.ZodType<Tree> = z.object({ name: z.string().min(1), children: z.array(z.lazy(() => tree)) });
    const schema = z.object({
      tree,
      tags: z.record(z.string(), z.enum(['a', 'b'])).optional(),
      pair: z.tuple([z.number().int(), z.literal('x').nullable()]),
      either: z.union([z.object({ kind: z.literal('n'), n: z.number() }), z.object({ kind: z.literal('s'), s: z.string() })]),
    });
    expect(hasNothingToEncode(schema)).toBe(true);
    const sample = {
      tree: { name: 'root', children: [{ name: 'leaf', children: [] }] },
      pair: [1, null],
      either: { kind: 's', s: 'x', extra: 1 },
    };
    expect(now(schema, sample)).toBe(before(schema, sample));
    expect(now(schema, { ...sample, pair: [1.5, null] })).toBe('refused: ResponseSerializationError');
  });
});
