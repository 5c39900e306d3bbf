import { formatUsdCents } from '@kumo/contract';
import { SANDBOX_CARDS, type CardForm } from './sandbox-cards.js';
import type { SandboxSessionRow } from './sandbox.repository.js';
import { escapeHtml } from '../../../lib/html.js';

const groupCardNumber = (digits: string) => digits.replace(/(\d{4})(?=\d)/g, '$1 ');

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/sandbox/checkout.css">
</head>
<body>
<div class="ribbon" role="note">Sandbox checkout · test mode · no card is charged</div>
${body}
</body>
</html>`;
}

export interface CheckoutPageState {
  values?: CardForm;
  errors?: Partial<Record<keyof CardForm, string>>;
  /** A declined payment's reason, shown above the form. */
  declined?: string;
}

function field(name: keyof CardForm, label: string, attributes: string, state: CheckoutPageState): string {
  const error = state.errors?.[name];
  const value = state.values?.[name] ?? '';
  const id = `field-${name}`;
  return `<div class="field${error ? ' has-error' : ''}">
  <label for="${id}">${label}</label>
  <input id="${id}" name="${name}" value="${escapeHtml(value)}" ${attributes}${error ? ` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
  ${error ? `<p class="field-error" id="${id}-error">${escapeHtml(error)}</p>` : ''}
</div>`;
}

/** What the left side and the button say: a payment, or saving a card for automatic top-up (setup mode). */
function purposeOf(session: SandboxSessionRow) {
  if (session.mode === 'setup') {
    return {
      title: 'Save a card for Kumo Cloud',
      heading: 'Save a card',
      summary: `<p class="muted">Automatic top-up</p>
  <p class="amount">Save a card</p>
  <p class="description">${escapeHtml(session.description)}</p>
  <p class="description">Nothing is charged now. The card is charged only when automatic top-up adds funds.</p>`,
      submit: 'Save card',
      refused: 'Card declined.',
      nothingTaken: 'Nothing was saved; try another card or cancel.',
    };
  }
  const amount = formatUsdCents(session.amountCents);
  return {
    title: `Pay ${amount} to Kumo Cloud`,
    heading: 'Pay with card',
    summary: `<p class="muted">Add funds</p>
  <p class="amount">${amount}</p>
  <p class="description">${escapeHtml(session.description)}</p>
  <dl class="lines">
    <div><dt>Funds</dt><dd>${amount}</dd></div>
    <div class="total"><dt>Total due</dt><dd>${amount}</dd></div>
  </dl>`,
    submit: `Pay ${amount}`,
    refused: 'Payment declined.',
    nothingTaken: 'No money was taken; try another card or cancel.',
  };
}

/** The hosted page of an open session: summary on the left, the card form on the right. */
export function checkoutPage(session: SandboxSessionRow, state: CheckoutPageState = {}): string {
  const purpose = purposeOf(session);
  const action = `/sandbox/checkout/${encodeURIComponent(session.id)}`;
  const cards = Object.entries(SANDBOX_CARDS)
    .map(([number, card]) => `<tr><td><code>${groupCardNumber(number)}</code></td><td>${escapeHtml(card.label)}</td></tr>`)
    .join('');
  const declined = state.declined ?? session.lastError;
  return layout(
    purpose.title,
    `<main class="checkout">
<section class="summary" aria-label="Order summary">
  <p class="merchant"><span class="logo" aria-hidden="true">K</span> Kumo Cloud</p>
  ${purpose.summary}
</section>
<section class="payment">
  <h1>${purpose.heading}</h1>
  ${declined ? `<div class="alert" role="alert"><strong>${purpose.refused}</strong> ${escapeHtml(declined)} ${purpose.nothingTaken}</div>` : ''}
  <form method="post" action="${action}" novalidate>
    <div class="field">
      <label for="field-email">Email</label>
      <input id="field-email" value="${escapeHtml(session.customerEmail ?? '')}" readonly>
    </div>
    ${field('cardNumber', 'Card number', 'inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" maxlength="23" autofocus', state)}
    <div class="row">
      ${field('expiry', 'Expiry (MM / YY)', 'inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY" maxlength="7"', state)}
      ${field('cvc', 'CVC', 'inputmode="numeric" autocomplete="cc-csc" placeholder="123" maxlength="4"', state)}
    </div>
    ${field('name', 'Name on card', 'autocomplete="cc-name" maxlength="100"', state)}
    <button class="pay" type="submit" name="action" value="pay">${purpose.submit}</button>
    <button class="cancel" type="submit" name="action" value="cancel">Cancel</button>
  </form>
  <section class="test-cards" aria-label="Test cards">
    <h2>Test cards</h2>
    <table><tbody>${cards}</tbody></table>
    <p class="muted">Any future expiry date and any 3-digit CVC.</p>
  </section>
</section>
</main>`,
  );
}

/** What a closed or unknown session shows instead of the form. */
export function closedPage(title: string, message: string, link?: { href: string; label: string }): string {
  return layout(
    `${title} | Sandbox checkout`,
    `<main class="closed">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${link ? `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}
</main>`,
  );
}

// Text on the indigo buttons: white on #4263eb is 5.0:1 (on #4c6ef5 only 4.3:1), 5.7:1 on the hovered #3b5bdb. The page
// follows the system's scheme; dark, on the #161b22 card: text #e3e8ee 14.0:1, labels #aeb7c4 8.5:1, muted #8b96a5
// 5.8:1, errors #ff7b93 7.0:1, the ribbon's #ffd43b on #3d2e00 9.3:1, the alert's #ffb3c1 on #3b0d18 9.9:1.
export const CHECKOUT_CSS = `*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1f36;background:#f6f8fb}
.ribbon{background:#fff4d6;color:#7a4b00;text-align:center;font-size:.8125rem;font-weight:600;padding:.5rem;letter-spacing:.01em}
.checkout{display:grid;grid-template-columns:1fr 1fr;max-width:980px;margin:3rem auto;background:#fff;border-radius:16px;box-shadow:0 10px 40px rgba(26,31,54,.08);overflow:hidden}
.summary{background:#0b1f3a;color:#fff;padding:2.5rem}
.merchant{display:flex;align-items:center;gap:.6rem;font-weight:600;margin:0 0 2.5rem}
.logo{display:inline-grid;place-items:center;width:28px;height:28px;border-radius:8px;background:#4263eb;font-weight:800}
.summary .muted{color:#a9b6cc}
.amount{font-size:2.5rem;font-weight:700;margin:.25rem 0 .5rem;letter-spacing:-.02em}
.description{color:#d3dbe8;margin:0 0 2rem}
.lines{margin:0;border-top:1px solid rgba(255,255,255,.15)}
.lines div{display:flex;justify-content:space-between;padding:.75rem 0;border-bottom:1px solid rgba(255,255,255,.15)}
.lines dt,.lines dd{margin:0}
.lines .total{font-weight:700}
.payment{padding:2.5rem}
h1{font-size:1.25rem;margin:0 0 1.25rem}
h2{font-size:.875rem;margin:0 0 .5rem;color:#4f566b}
.field{display:flex;flex-direction:column;gap:.35rem;margin-bottom:1rem;flex:1}
label{font-size:.8125rem;font-weight:600;color:#4f566b}
input{font:inherit;padding:.65rem .75rem;border:1px solid #d5dbe5;border-radius:8px;background:#fff;color:inherit}
input:focus{outline:2px solid #4c6ef5;outline-offset:0;border-color:#4c6ef5}
input[readonly]{background:#f6f8fb;color:#4f566b}
.has-error input{border-color:#df1b41}
.field-error{color:#df1b41;font-size:.8125rem;margin:0}
.row{display:flex;gap:1rem}
button{font:inherit;cursor:pointer;border-radius:8px;padding:.8rem 1rem;width:100%;font-weight:600}
.pay{background:#4263eb;color:#fff;border:0;margin-top:.5rem}
.pay:hover{background:#3b5bdb}
.cancel{background:none;border:1px solid #d5dbe5;color:#4f566b;margin-top:.75rem}
.cancel:hover{background:#f6f8fb}
.alert{background:#fde8ec;color:#8a0f2a;border:1px solid #f7b9c6;border-radius:8px;padding:.75rem 1rem;margin-bottom:1.25rem;font-size:.9rem}
.test-cards{margin-top:2rem;padding-top:1.25rem;border-top:1px solid #e3e8ee;font-size:.8125rem}
.test-cards table{border-collapse:collapse;width:100%}
.test-cards td{padding:.3rem 0;color:#4f566b}
.test-cards code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;color:#1a1f36}
.muted{color:#697386}
.closed{max-width:520px;margin:4rem auto;background:#fff;border-radius:16px;padding:2.5rem;box-shadow:0 10px 40px rgba(26,31,54,.08);text-align:center}
.button{display:inline-block;background:#4263eb;color:#fff;text-decoration:none;padding:.7rem 1.2rem;border-radius:8px;font-weight:600}
:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){
body{color:#e3e8ee;background:#0d1117}
.ribbon{background:#3d2e00;color:#ffd43b}
.checkout,.closed{background:#161b22;box-shadow:0 0 0 1px #2d333b}
h2,label,.test-cards td{color:#aeb7c4}
input{background:#0d1117;border-color:#4a5462}
input[readonly]{background:#1c222b;color:#aeb7c4}
.has-error input{border-color:#ff7b93}
.field-error{color:#ff7b93}
.cancel{border-color:#4a5462;color:#aeb7c4}
.cancel:hover{background:#1c222b}
.alert{background:#3b0d18;color:#ffb3c1;border-color:#7a2236}
.test-cards{border-top-color:#2d333b}
.test-cards code{color:#e3e8ee}
.muted{color:#8b96a5}
}
@media (max-width:760px){.checkout{grid-template-columns:1fr;margin:0;border-radius:0}.summary,.payment{padding:1.5rem}}
`;
