/** Sends the browser to the payment provider's hosted checkout; it comes back to /subscriptions. */
export function leaveForCheckout(url: string): void {
  window.location.assign(url);
}
