import { describe, expect, it } from 'vitest';
import { isNearBottom } from './scroll';

describe('loading on scroll', () => {
  it('counts as the bottom within 1 px of it, and not before', () => {
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 600 })).toBe(true);
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 599 })).toBe(true);
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 598 })).toBe(false);
    // Fractional scroll positions on zoomed screens still reach the bottom.
    expect(isNearBottom({ scrollHeight: 1000, clientHeight: 400, scrollTop: 599.4 })).toBe(true);
  });
});
