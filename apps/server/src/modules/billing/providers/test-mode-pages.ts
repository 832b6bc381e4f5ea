import { formatDollars } from '@moments/domain';

/*
 * Server-rendered pages of the built-in TEST MODE provider: checkout, invoice and portal. Plain
 * HTML forms (no script), so they work in any browser and cannot be mistaken for a real payment
 * page: every page carries a TEST MODE banner.
 */

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );

function page(title: string, body: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · TEST MODE · Moments</title>
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f6f6fb;color:#1b1b2f}
.banner{background:#f59f00;color:#1b1b2f;text-align:center;font-weight:700;padding:8px;letter-spacing:.05em}
main{max-width:440px;margin:32px auto;padding:24px;background:#fff;border-radius:12px;box-shadow:0 2px 12px #0001}
h1{font-size:20px;margin:0 0 4px} .amount{font-size:28px;font-weight:700;margin:12px 0}
label{display:block;font-size:14px;margin:12px 0 4px} input{width:100%;box-sizing:border-box;padding:10px;font-size:16px;border:1px solid #ccd;border-radius:8px}
.row{display:flex;gap:12px}.row>div{flex:1} button{margin-top:20px;width:100%;padding:12px;font-size:16px;border:0;border-radius:8px;background:#7048e8;color:#fff;cursor:pointer}
.error{background:#fff0f0;color:#c92a2a;border:1px solid #ffc9c9;padding:10px;border-radius:8px;margin-top:12px}
.hint{font-size:13px;color:#666;margin-top:16px} a{color:#7048e8} table{width:100%;border-collapse:collapse} td{padding:6px 0;border-bottom:1px solid #eee}
</style></head>
<body><div class="banner" role="note">TEST MODE · no real payment is taken</div><main>${body}</main></body></html>`;
}

export function checkoutPage(input: {
  sessionId: string;
  description: string;
  amount: number;
  email: string;
  cancelUrl: string;
  error?: string;
  values?: { number?: string; expiry?: string; cvc?: string; name?: string };
}) {
  const value = (key: 'number' | 'expiry' | 'cvc' | 'name') =>
    escapeHtml(input.values?.[key] ?? '');
  return page(
    'Checkout',
    `<h1>${escapeHtml(input.description)}</h1>
<div class="amount" data-testid="checkout-amount">$${formatDollars(input.amount)}</div>
<div>Paying as ${escapeHtml(input.email)}</div>
<form method="post" action="/billing/test-checkout/${escapeHtml(input.sessionId)}">
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="4242 4242 4242 4242" value="${value('number')}" required>
<div class="row"><div><label for="expiry">Expiry (MM / YY)</label><input id="expiry" name="expiry" placeholder="12 / 34" autocomplete="cc-exp" value="${value('expiry')}" required></div>
<div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" placeholder="123" autocomplete="cc-csc" value="${value('cvc')}" required></div></div>
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" value="${value('name')}">
${input.error ? `<div class="error" role="alert">${escapeHtml(input.error)} Nothing was charged.</div>` : ''}
<button type="submit">Pay $${formatDollars(input.amount)}</button>
</form>
<p class="hint">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds; 4000 0000 0000 0341 pays now but later charges fail. Any future expiry and any CVC.</p>
<p><a href="${escapeHtml(input.cancelUrl)}">Cancel and go back</a></p>`,
  );
}

export function closedCheckoutPage(returnUrl: string) {
  return page(
    'Checkout',
    `<h1>This checkout is already paid</h1><p><a href="${escapeHtml(returnUrl)}">Back to Moments</a></p>`,
  );
}

export function invoicePage(input: {
  id: string;
  date: Date;
  email: string;
  description: string;
  amount: number;
  paymentMethod: string;
}) {
  return page(
    'Invoice',
    `<h1>Invoice</h1><table>
<tr><td>Invoice</td><td>${escapeHtml(input.id)}</td></tr>
<tr><td>Date</td><td>${input.date.toISOString().slice(0, 10)}</td></tr>
<tr><td>Billed to</td><td>${escapeHtml(input.email)}</td></tr>
<tr><td>Item</td><td>${escapeHtml(input.description)}</td></tr>
<tr><td>Payment method</td><td>${escapeHtml(input.paymentMethod)}</td></tr>
<tr><td><strong>Total</strong></td><td><strong>$${formatDollars(input.amount)}</strong></td></tr>
</table><p class="hint">Issued by the built-in test-mode provider: no money was taken.</p>`,
  );
}

export function portalPage(input: {
  email: string;
  plan: string;
  card: string | null;
  renews: Date | null;
  cancelAtPeriodEnd: boolean;
}) {
  return page(
    'Billing portal',
    `<h1>Billing portal</h1><table>
<tr><td>Account</td><td>${escapeHtml(input.email)}</td></tr>
<tr><td>Plan</td><td>${escapeHtml(input.plan)}</td></tr>
<tr><td>Payment method</td><td>${escapeHtml(input.card ?? 'none on file')}</td></tr>
<tr><td>${input.cancelAtPeriodEnd ? 'Ends' : 'Renews'}</td><td>${input.renews ? input.renews.toISOString().slice(0, 10) : '-'}</td></tr>
</table><p><a href="/settings/plan">Back to your plan</a></p>`,
  );
}
