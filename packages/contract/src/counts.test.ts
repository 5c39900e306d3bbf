import { describe, expect, it } from 'vitest';
import { costPreviewText, fasterCloudText, runwayText } from './counts.js';
import { countOf } from './counts.js';

describe('counts in words', () => {
  it('says one in the singular and every other count in the plural', () => {
    expect(countOf(1, 'hour')).toBe('1 hour');
    expect(countOf(2, 'hour')).toBe('2 hours');
    expect(countOf(0, 'day')).toBe('0 days');
  });

  it('writes the runway, the cost preview and the demo note with the right number', () => {
    expect(runwayText(1.5)).toBe('about 1 hour');
    expect(runwayText(47.9)).toBe('about 47 hours');
    expect(runwayText(48)).toBe('about 2 days');
    expect(costPreviewText('$6.55', 1)).toBe('$6.55 per hour at your rates; your balance covers about 1 hour');
    expect(fasterCloudText(60)).toBe('The demo cloud runs 60 times faster than real time: a billable hour passes in 1 minute.');
    expect(fasterCloudText(3600)).toBe('The demo cloud runs 3600 times faster than real time: a billable hour passes in 1 second.');
    expect(fasterCloudText(120)).toBe('The demo cloud runs 120 times faster than real time: a billable hour passes in 30 seconds.');
  });
});
