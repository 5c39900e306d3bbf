/**
 * The development identity provider's own screens: plain server-rendered HTML with inline styles and
 * no script, so they work under the portal's Content-Security-Policy (script-src 'self',
 * style-src 'self' 'unsafe-inline', form-action 'self').
 */
import { escapeHtml } from '../../lib/html.js';

// The page follows the system's scheme. Every text reaches WCAG AA's 4.5:1. Light: the badge's orange #b93d08 on
// #fff4e6 5.2:1, the gray #646c74 on white 5.3:1, the error red #c92a2a 5.5:1, white on the indigo #4263eb button
// 5.0:1 (5.7:1 hovered, on #3b5bdb). Dark, on the #1a1b1e card: text #e9ecef 14.5:1, the gray #a6adb5 7.6:1, the error
// #ff8787 7.4:1, the code #91a7ff 7.5:1, the badge's #ffa94d on #3b2a12 7.2:1; the buttons as in light.
const STYLE = `
  :root{color-scheme:light dark}
  *{box-sizing:border-box}
  body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;
    font-family:Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
    color:#212529;background:#f1f3f5}
  main{width:100%;max-width:420px;background:#fff;border:1px solid #dee2e6;border-radius:16px;
    box-shadow:0 1px 3px rgba(0,0,0,.05),0 12px 24px -12px rgba(0,0,0,.12);padding:36px}
  .badge{display:inline-block;margin:0 0 20px;padding:3px 10px;border-radius:999px;background:#fff4e6;color:#b93d08;
    font-size:12px;font-weight:600;letter-spacing:.02em;text-transform:uppercase}
  h1{margin:0 0 6px;font-size:24px;font-weight:650}
  p{margin:0 0 16px;line-height:1.5}
  .lead{color:#646c74;font-size:14px;margin-bottom:24px}
  label{display:block;margin-bottom:6px;font-size:14px;font-weight:600}
  input{width:100%;height:42px;padding:0 12px;border:1px solid #ced4da;border-radius:8px;font:inherit;font-size:16px}
  input:focus{outline:2px solid #4c6ef5;outline-offset:-1px;border-color:#4c6ef5}
  input[aria-invalid=true]{border-color:#fa5252}
  .error{margin:6px 0 0;color:#c92a2a;font-size:13px}
  .actions{display:flex;flex-direction:column;gap:10px;margin-top:24px}
  button,.button{display:block;width:100%;height:42px;border-radius:8px;font:inherit;font-size:15px;font-weight:600;
    cursor:pointer;text-align:center;text-decoration:none;line-height:42px}
  .primary{border:0;background:#4263eb;color:#fff}
  .primary:hover{background:#3b5bdb}
  .secondary{border:1px solid #ced4da;background:#fff;color:#495057}
  .secondary:hover{background:#f8f9fa}
  .detail{margin-top:-8px;color:#646c74;font-size:12px;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
  .hint{margin:24px 0 0;padding-top:16px;border-top:1px solid #e9ecef;color:#646c74;font-size:13px}
  code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;color:#364fc7}
  @media (prefers-color-scheme:dark){
    body{color:#e9ecef;background:#101113}
    main{background:#1a1b1e;border-color:#373a40;box-shadow:none}
    .badge{background:#3b2a12;color:#ffa94d}
    .lead,.detail,.hint{color:#a6adb5}
    .hint{border-top-color:#373a40}
    input{background:#25262b;border-color:#5c5f66;color:#e9ecef}
    input[aria-invalid=true]{border-color:#ff8787}
    .error{color:#ff8787}
    .secondary{background:#25262b;border-color:#5c5f66;color:#dee2e6}
    .secondary:hover{background:#2c2e33}
    code{color:#91a7ff}
  }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | Development identity provider</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="badge">Development identity provider</p>
${body}
</main>
</body>
</html>`;
}

export interface SignInPageOptions {
  /** Where the form posts the e-mail. */
  action: string;
  /** Where the Cancel button posts. */
  cancelAction: string;
  clientName: string;
  email?: string;
  error?: string;
  /** An identity worth suggesting, e.g. the demo staff member. */
  hint?: string;
}

export function signInPage(options: SignInPageOptions): string {
  const { action, cancelAction, clientName, email = '', error, hint } = options;
  const invalid = error ? ' aria-invalid="true" aria-describedby="email-error"' : '';
  return layout(
    'Sign in',
    `<h1>Sign in</h1>
<p class="lead">${escapeHtml(clientName)} wants to know who you are. This provider vouches for any e-mail address;
${escapeHtml(clientName)} then decides what that identity may do.</p>
<form method="post" action="${escapeHtml(action)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" autocomplete="email" placeholder="you@company.com" autofocus required maxlength="254" value="${escapeHtml(email)}"${invalid}>
${error ? `<p class="error" id="email-error" role="alert">${escapeHtml(error)}</p>` : ''}
<div class="actions">
<button class="primary" type="submit">Sign in</button>
<button class="secondary" type="submit" formaction="${escapeHtml(cancelAction)}" formnovalidate>Cancel</button>
</div>
</form>
${hint ? `<p class="hint">Demo staff identity: <code>${escapeHtml(hint)}</code></p>` : ''}`,
  );
}

export interface MessagePageOptions {
  title: string;
  message: string;
  /** A technical detail for whoever set the sign-in up, e.g. the protocol error. */
  detail?: string;
  /** Where to go next, e.g. back to the portal's admin login. */
  link?: { href: string; label: string };
}

export function messagePage({ title, message, detail, link }: MessagePageOptions): string {
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p class="lead">${escapeHtml(message)}</p>
${detail ? `<p class="detail">${escapeHtml(detail)}</p>` : ''}
${link ? `<div class="actions"><a class="button primary" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></div>` : ''}`,
  );
}
