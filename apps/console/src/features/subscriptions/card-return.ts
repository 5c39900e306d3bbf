import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { AUTO_TOP_UP_MESSAGES, type AutoTopUp } from '@kumo/contract';
import { notifySuccess } from '../../components/notify';

/** The provider's setup page sends the browser back to the subscription with ?card=saved once the card is kept. */
export const CARD_RETURN_PARAM = 'card';
const CARD_SAVED = 'saved';

/** Whether the browser has just come back from the provider's setup page (the API then reads the card back). */
export function useCardReturn(): boolean {
  const [search] = useSearchParams();
  return search.get(CARD_RETURN_PARAM) === CARD_SAVED;
}

/**
 * On the way back from the provider: once the settings read with the card read back have arrived, says the card
 * was saved when the answer has one, then tidies the address.
 */
export function useCardSavedReturn(returning: boolean, readBack: { autoTopUp: AutoTopUp | undefined; settled: boolean }): void {
  const [, setSearch] = useSearchParams();
  // Once per return, even when the effect runs twice before the address is tidied.
  const told = useRef(false);
  const { autoTopUp, settled } = readBack;
  useEffect(() => {
    if (!returning || !settled || told.current) return;
    told.current = true;
    if (autoTopUp?.payment_method) notifySuccess(AUTO_TOP_UP_MESSAGES.cardSaved);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CARD_RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [returning, settled, autoTopUp, setSearch]);
}
