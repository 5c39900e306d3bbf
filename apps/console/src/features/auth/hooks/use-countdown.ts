import { useCallback, useEffect, useState } from 'react';

/** Counts whole seconds down to zero; restart() starts again from the beginning. */
export function useCountdown(startSeconds: number) {
  const [remaining, setRemaining] = useState(startSeconds);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setTimeout(() => setRemaining((seconds) => seconds - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);

  const restart = useCallback(() => setRemaining(startSeconds), [startSeconds]);
  return { remaining, restart };
}

/** mm:ss, e.g. 00:59. */
export function formatCountdown(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
