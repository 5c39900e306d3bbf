// The first screen the build draws into a customer page's HTML (scripts/first-screens.mjs): the shell and the page's
// header, painted before any script has run. public/first-paint.js shows it only to a signed-in customer. React
// takes #root over on its first commit; until the page's own first screen is ready, the root's loading fallback
// shows this same markup (RootLayout), so nothing flashes between the two.

let markup: string | null = null;

/** Keeps the drawn first screen of `container`, when first-paint.js has shown it. */
export function keepFirstScreen(container: HTMLElement): void {
  const shown = document.documentElement.hasAttribute('data-first-screen') && container.firstElementChild?.id === 'first-screen';
  markup = shown ? container.innerHTML : null;
}

/** The kept first screen, until the first page has been shown. */
export function firstScreenMarkup(): string | null {
  return markup;
}

/** Called once a page is on screen: a later loading fallback is the usual loader, never this page's frame. */
export function discardFirstScreen(): void {
  markup = null;
}
