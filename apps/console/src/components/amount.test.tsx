import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { Amount, NEGATIVE_AMOUNT_COLOR } from './amount';

describe('Amount', () => {
  it('shows a negative amount in the negative red, a positive one and -$0.00 in the text colour', () => {
    render(
      <>
        <Amount value="-12.5" data-testid="negative" />
        <Amount value={12.5} data-testid="positive" />
        <Amount value="-0.001" data-testid="rounds-to-zero" />
      </>,
      { wrapper: MantineProvider },
    );
    expect(screen.getByTestId('negative')).toHaveTextContent('-$12.50');
    expect(screen.getByTestId('negative').getAttribute('style')).toContain(NEGATIVE_AMOUNT_COLOR);
    expect(screen.getByTestId('positive')).toHaveTextContent('$12.50');
    expect(screen.getByTestId('positive').getAttribute('style') ?? '').not.toContain(NEGATIVE_AMOUNT_COLOR);
    expect(screen.getByTestId('rounds-to-zero')).toHaveTextContent('$0.00');
    expect(screen.getByTestId('rounds-to-zero').getAttribute('style') ?? '').not.toContain(NEGATIVE_AMOUNT_COLOR);
  });
});
