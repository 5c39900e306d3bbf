import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render';
import { WideTextTooltip } from './wide-text-tooltip';

const EMAIL = 'a.very.long.mailbox.name@an-equally-long-company-domain.example.com';

/** `width` is the text's own width; `room` is how much of it its container shows (all of it unless given). */
function renderWithWidth(width: number, room = width) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(width);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(room);
  renderRoutes([{ path: '/', element: <WideTextTooltip text={EMAIL} /> }], '/');
  fireEvent.mouseEnter(screen.getByText(EMAIL));
}

describe('WideTextTooltip', () => {
  it('shows the full text in a tooltip when the text is 350 px or wider', async () => {
    renderWithWidth(350);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(EMAIL);
  });

  it('shows the full text when a narrower container cuts it', async () => {
    renderWithWidth(300, 200);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(EMAIL);
  });

  it('shows no tooltip for narrower text', async () => {
    renderWithWidth(349);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });

  it('hides the tooltip when the pointer leaves', async () => {
    renderWithWidth(400);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(EMAIL);
    fireEvent.mouseLeave(screen.getByText(EMAIL, { selector: 'p' }));
    await waitFor(() => expect(screen.queryByRole('tooltip')).not.toBeInTheDocument());
  });
});
