import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@kumo/contract';
import { ApiError } from '../lib/api-error';
import { ErrorAlert } from './error-alert';

describe('ErrorAlert', () => {
  it("says a failed request's message as an alert", () => {
    render(<ErrorAlert error={new ApiError(MESSAGES.internal, { status: 500 })} />, { wrapper: MantineProvider });
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.internal);
  });

  it('says something went wrong for a thrown value without a message, and shows a text of its own as given', () => {
    render(<ErrorAlert error={null} />, { wrapper: MantineProvider });
    expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.somethingWentWrong);
    render(<ErrorAlert>{MESSAGES.popupBlocked}</ErrorAlert>, { wrapper: MantineProvider });
    expect(screen.getAllByRole('alert')[1]).toHaveTextContent(MESSAGES.popupBlocked);
  });
});
