// Retrying assertions on Playwright locators, in the manner of
// @playwright/test's expect (playwright-core comes without it): each polls
// until it holds or the time runs out, so no step depends on timing luck.
const TIMEOUT = Number(process.env.CONSOLE_TEST_TIMEOUT_MS ?? 20000);

const norm = (s) => (s ?? '').replace(/\s+/g, ' ').trim();
const matches = (text, want) => (want instanceof RegExp ? want.test(text) : text === norm(want));
const contains = (text, want) => (want instanceof RegExp ? want.test(text) : text.includes(norm(want)));

async function poll(check, describe) {
  const deadline = Date.now() + TIMEOUT;
  let last = '';
  for (;;) {
    try {
      const got = await check();
      if (got.ok) return;
      last = got.saw;
    } catch (err) {
      last = err.message.split('\n')[0];
    }
    if (Date.now() > deadline) throw new Error(`expected ${describe}; last saw: ${last}`);
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

function matchers(locator, negate) {
  const want = (ok) => (negate ? !ok : ok);
  const not = negate ? 'not ' : '';
  const text = async () => norm(await locator.textContent({ timeout: 1000 }));
  return {
    toBeVisible: () => poll(async () => ({ ok: want(await locator.isVisible()), saw: 'visibility' }), `${locator} ${not}to be visible`),
    toHaveText: (t) => poll(async () => { const s = await text(); return { ok: want(matches(s, t)), saw: s }; }, `${locator} ${not}to have text ${t}`),
    toContainText: (t) => poll(async () => { const s = await text(); return { ok: want(contains(s, t)), saw: s }; }, `${locator} ${not}to contain ${t}`),
    toBeEmpty: () => poll(async () => { const s = await text(); return { ok: want(s === ''), saw: s }; }, `${locator} ${not}to be empty`),
    toHaveCount: (n) => poll(async () => { const c = await locator.count(); return { ok: want(c === n), saw: String(c) }; }, `${locator} ${not}to count ${n}`),
    toHaveValue: (v) => poll(async () => { const s = await locator.inputValue({ timeout: 1000 }); return { ok: want(s === v), saw: s }; }, `${locator} ${not}to have value ${v}`),
    toHaveAttribute: (name, v) =>
      poll(async () => { const s = await locator.getAttribute(name, { timeout: 1000 }); return { ok: want(s === v), saw: String(s) }; }, `${locator} ${not}to have ${name}=${v}`),
    toBeEnabled: () => poll(async () => ({ ok: want(await locator.isEnabled({ timeout: 1000 })), saw: 'enabled state' }), `${locator} ${not}to be enabled`),
    toHaveClass: (re) =>
      poll(async () => { const s = (await locator.getAttribute('class', { timeout: 1000 })) ?? ''; return { ok: want(re.test(s)), saw: s }; }, `${locator} ${not}to have class ${re}`),
    toBeFocused: () =>
      poll(async () => ({ ok: want(await locator.evaluate((el) => el === document.activeElement, null, { timeout: 1000 })), saw: 'focus' }), `${locator} ${not}to be focused`),
  };
}

export function expect(locator) {
  return { ...matchers(locator, false), not: matchers(locator, true) };
}
