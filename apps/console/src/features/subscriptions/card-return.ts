import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { AUTO_TOP_UP_MESSAGES } from '@kumo/contract';
import { notifySuccess } from '../../components/notify';

/** The provider's setup page sends the browser back to the subscription with ?card=saved once the card is kept. */
export const CARD_RETURN_PARAM = 'card';
const CARD_SAVED = 'saved';

/** Says the card was saved when the browser comes back from the provider, then tidies the address. */
export function useCardSavedReturn(): void {
  const [search, setSearch] = useSearchParams();
  const saved = search.get(CARD_RETURN_PARAM) === CARD_SAVED;
  // Once per return, even when the effect runs twice before the address is tidied.
  const told = useRef(false);
  useEffect(() => {
    if (!saved || told.current) return;
    told.current = true;
    notifySuccess(AUTO_TOP_UP_MESSAGES.cardSaved);
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(CARD_RETURN_PARAM);
        return next;
      },
      { replace: true },
    );
  }, [saved, setSearch]);
}
