import { describe, expect, it } from 'vitest';
import { MAX_CANONICAL_DEPTH, canonicalHash, canonicalJson } from './canonical-json';

// Dangerous direction: two different values with one canonical form (a swap that keeps its
// approval). Two spellings of one value with different forms only cost an extra prompt.
describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: 2 }, '{"a":2,"b":1}'],
    [{ a: [3, 1, { z: null, y: 'é' }] }, '{"a":[3,1,{"y":"é","z":null}]}'],
    [{ a: undefined, b: 1 }, '{"b":1}'],
    [[undefined], '[null]'],
    ['line\nbreak "quoted"', '"line\\nbreak \\"quoted\\""'],
    [{ 'b=c': 'd', b: 'c=d' }, '{"b":"c=d","b=c":"d"}'],
    [{ __proto__: 1 }, '{}'],
  ])('%j -> %s', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it.each([
    [{ a: [1, 'two', { b: false, c: [] }], d: { e: {} }, f: -0.5e-7 }],
    [[[], {}, [null], 'é\u2028\ud800']],
    [{ '': 1, ' ': 2, A: 3, a: 4, é: 5 }],
  ])('writes what JSON.stringify writes for key-sorted %j', (value) => {
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it('keeps a "__proto__" key that JSON.parse created', () => {
    expect(canonicalJson(JSON.parse('{"__proto__": 1}'))).toBe('{"__proto__":1}');
  });

  it.each([[() => 1], [Symbol('x')], [10n], [Number.NaN], [Infinity]])('refuses %s', (value) => {
    expect(() => canonicalJson({ value })).toThrow(TypeError);
  });

  it('refuses cycles but allows shared references', () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => canonicalJson(cyclic)).toThrow(/cycle/);
  });

  it('refuses nesting past its backstop with a TypeError, never a stack overflow', () => {
    const nest = (levels: number): unknown => {
      let value: unknown = [];
      for (let i = 1; i < levels; i += 1) value = [value];
      return value;
    };
    expect(canonicalJson(nest(MAX_CANONICAL_DEPTH))).toHaveLength(2 * MAX_CANONICAL_DEPTH);
    expect(() => canonicalJson(nest(MAX_CANONICAL_DEPTH + 1))).toThrow(TypeError);
    expect(() => canonicalJson(nest(50_000))).toThrow(/nested deeper than 1000 levels/);
  });

  it('hashes with SHA-256 over the canonical form', () => {
    expect(canonicalHash({ b: 1, a: 2 })).toBe(canonicalHash({ a: 2, b: 1 }));
    expect(canonicalHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalHash(['a', 'b'])).not.toBe(canonicalHash(['b', 'a']));
  });
});
