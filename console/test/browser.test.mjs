// The console in a real browser (Debian's chromium through playwright-core)
// against a real verdict serve. Screenshots of the main screens go to
// test-results/ (not committed). Waits are Playwright's locator assertions,
// never fixed sleeps.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { expect } from './expect.mjs';
import { startServer, rest } from './server.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const shots = join(import.meta.dirname, '..', 'test-results');
mkdirSync(shots, { recursive: true });

const ADMIN_KEY = 'console-test-key-0123456789abcdefghijklmnop';
// The five-rule policy the engine and the load test are measured with.
const bench = readFileSync(join(import.meta.dirname, '..', '..', 'engine', 'testdata', 'bench_cases.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l))
  .find((c) => c.name === 'five_rule_policy_refs_labels');

let server;
let browser;
let viewerKey;

before(async () => {
  server = await startServer(ADMIN_KEY);
  viewerKey = (await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'viewer', scope: 'view' })).secret;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

// A test that fails leaves its page open: its last state is kept as a screenshot.
let open = null;
afterEach(async (t) => {
  if (open && !open.isClosed()) {
    await open.screenshot({ path: join(shots, `failed-${t.name.replace(/\W+/g, '-').slice(0, 60)}.png`), fullPage: true });
    await open.context().close();
  }
  open = null;
});

/** A fresh page that fails the test on any request to another host. */
async function newPage() {
  // bypassCSP lets the test inject axe-core into pages whose policy allows no inline script.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, bypassCSP: true });
  const page = await context.newPage();
  open = page;
  const origin = new URL(server.url).origin;
  page.foreign = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) page.foreign.push(r.url());
  });
  return page;
}

async function signIn(page, key) {
  await page.goto(server.url + '/console/');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible();
}

/** axe-core on the current screen: no critical violations. */
async function noCriticalViolations(page, screen) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const critical = result.violations.filter((v) => v.impact === 'critical');
  assert.deepEqual(
    critical.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `critical accessibility violations on ${screen}`,
  );
}

/** axe-core on the open dialog: no serious violations, nor critical ones. */
async function noSeriousViolationsInDialog(page, screen) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run('dialog[open]', { resultTypes: ['violations'] }));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    [],
    `serious accessibility violations on ${screen}`,
  );
}

function editorContent(page, label) {
  return page.getByRole('textbox', { name: label });
}

async function replaceEditorText(page, label, text) {
  const box = editorContent(page, label);
  await box.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('the first screen loads at most 350 KB of compressed JavaScript, all from the server itself', async () => {
  const page = await newPage();
  const scripts = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.push(res);
  });
  await page.goto(server.url + '/', { waitUntil: 'networkidle' });
  assert.equal(new URL(page.url()).pathname, '/console/');
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  let bytes = 0;
  for (const res of scripts) {
    assert.equal(res.headers()['content-encoding'], 'gzip', res.url());
    bytes += Number(res.headers()['content-length']);
  }
  console.log(`first screen: ${scripts.length} script(s), ${(bytes / 1024).toFixed(1)} KB of gzip-compressed JavaScript`);
  assert.ok(bytes > 0 && bytes <= 350 * 1024, `first screen JavaScript is ${bytes} bytes compressed`);
  await page.screenshot({ path: join(shots, 'sign-in.png') });
  await noCriticalViolations(page, 'sign-in');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('the header holds every section and Sign out inside the window, on a laptop and on a phone', async () => {
  const tall = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Header check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    open = page;
    await signIn(page, ADMIN_KEY);
    const header = await page.locator('header.topbar').boundingBox();
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const controls = [
      ...(await nav.getByRole('link').all()),
      page.getByRole('link', { name: 'GraphQL playground' }),
      page.getByRole('button', { name: 'Sign out' }),
    ];
    assert.equal(controls.length, 8);
    for (const control of controls) {
      const name = await control.textContent();
      const box = await control.boundingBox();
      const where = `${name} at ${viewport.width}×${viewport.height}: ${JSON.stringify(box)} in header ${JSON.stringify(header)}`;
      assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height, `outside the window: ${where}`);
      assert.ok(box.y >= header.y && box.y + box.height <= header.y + header.height && box.x + box.width <= header.x + header.width, `outside the header: ${where}`);
    }
    assert.ok(header.y + header.height <= viewport.height / 3, `the header takes ${header.height} px of ${viewport.height}`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), viewport.width, 'the page is as wide as the window');
    await page.screenshot({ path: join(shots, `header-${viewport.width}.png`) });
    // Scrolled down a page, the header stays on a laptop; on a phone it leaves the screen to the page.
    await page.goto(`${server.url}/console/policies/${tall.baseId}`);
    await expect(page.getByRole('heading', { name: 'Header check' })).toBeVisible();
    await page.evaluate(() => window.scrollBy(0, 400));
    await expect({ toString: () => 'the scrolled page', count: async () => ((await page.evaluate(() => window.scrollY)) > 0 ? 1 : 0) }).toHaveCount(1);
    const scrolled = await page.locator('header.topbar').boundingBox();
    if (viewport.width > 720) assert.equal(scrolled.y, 0, `the header is at ${scrolled.y} on a laptop`);
    else assert.ok(scrolled.y + scrolled.height <= 0, `the header is at ${scrolled.y}, ${scrolled.height} px high, on a phone`);
    await context.close();
  }
});

/**
 * Opens the Publish dialog on the open draft, which saves it first, and
 * cancels it: the draft stays a draft, saved, with nothing left to save.
 */
async function cancelPublish(page) {
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: /^Publish “/ });
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
}

/**
 * Publishes the open draft through the dialog that first replays it on the
 * recorded decisions; returns the dialog's replay section as it was.
 */
async function publish(page, check = async () => {}) {
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: /^Publish “/ });
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await check(dialog);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog).toHaveCount(0);
}

test('on a phone, no screen is wider than the window: wide tables and tab rows scroll within themselves', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Phone-sized policy with a rather long name to fill a table cell',
    rule: 'A **Person** gets a phone discount if the __age__ of the **Person** is at least 18.',
    tests: [{ name: 'an adult with a long name for a test', data: { Person: { age: 30, name: 'x'.repeat(200) } }, expect: true }],
  });
  // A draft: the audit log's tests count the suite's publications.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  open = page;
  await signIn(page, ADMIN_KEY);
  const fits = async (screen) =>
    expect({
      toString: () => `the width of ${screen}`,
      count: async () => ((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390 ? 1 : 0),
    }).toHaveCount(1);
  await fits('the policy list');
  await page.goto(`${server.url}/console/policies/${draft.baseId}`);
  for (const tab of ['Rule and try it', 'Tests (1)', 'Schema', 'Versions (0)', 'Decisions']) {
    await page.getByRole('tab', { name: tab }).click();
    await fits(`the tab ${tab}`);
  }
  // The tables keep their roles, rows and all.
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  await expect(page.getByRole('table', { name: 'Tests' }).getByRole('row')).toHaveCount(2);
  // A flow's page, its graph and its side panel one under the other, and a node of a long name in the panel.
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Phone-sized flow',
    definition: {
      formatVersion: 1,
      start: 'start',
      nodes: [
        { id: 'start', type: 'start', policy: { baseId: draft.baseId }, onTrue: 'custom-1', onFalse: 'return-2' },
        { id: 'custom-1', type: 'custom', name: 'Manual review of the applicant by a person', outcome: 'manual review', next: 'return-2' },
        { id: 'return-2', type: 'return', returnValue: false },
      ],
    },
  });
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(page.getByTestId('flow-node-custom-1')).toBeVisible();
  const flowFits = async (screen) =>
    expect({
      toString: () => `the width of ${screen}`,
      count: async () => ((await page.evaluate(() => document.scrollingElement.scrollWidth <= window.innerWidth)) ? 1 : 0),
    }).toHaveCount(1);
  await flowFits('the flow page');
  await page.getByLabel('Node', { exact: true }).selectOption('custom-1');
  await expect(page.getByRole('heading', { name: 'Node custom-1' })).toBeVisible();
  await flowFits('the panel of a flow node');
  await page.screenshot({ path: join(shots, 'phone-flow.png'), fullPage: true });
  for (const path of ['flows', 'groups', 'audit', 'admin/members', 'admin/keys']) {
    await page.goto(`${server.url}/console/${path}`);
    await expect(page.locator('main h1')).toBeVisible();
    await fits(path);
  }
  await context.close();
});

test('a bad key is refused on the sign-in page, and the form works by keyboard', async () => {
  const page = await newPage();
  await page.goto(server.url + '/console/');
  await page.keyboard.type('not-a-key-at-all-0123456789');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveText(/not accepted: it is unknown, revoked or expired/);
  await page.context().close();
});

test('an author writes, checks, runs, tests, publishes, edits and compares a policy', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  const who = page.getByTestId('who');
  await expect(who).toContainText('Default');
  await expect(who).toContainText('admin@localhost');
  await expect(who).toContainText('Admin');
  await page.screenshot({ path: join(shots, 'policies-empty.png') });

  // Every control of the list is reachable from the keyboard, in reading order.
  const reached = [];
  for (let i = 0; i < 18; i++) {
    await page.keyboard.press('Tab');
    reached.push(await page.evaluate(() => {
      const el = document.activeElement;
      return el.labels?.[0]?.textContent || el.getAttribute('aria-label') || el.textContent.trim();
    }));
  }
  for (const name of ['Skip to content', 'Policies', 'Flows', 'Groups', 'Audit log', 'Members', 'Keys', 'GraphQL playground', 'Sign out', 'New policy', 'Search by name', 'Group']) {
    assert.ok(reached.includes(name), `Tab never reached ${name}: ${reached.join(' → ')}`);
  }

  await page.getByRole('button', { name: 'New policy' }).click();
  // Without a name nothing can be saved, and the page says why.
  await expect(page.getByRole('button', { name: 'Create draft' })).not.toBeEnabled();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-describedby', 'policy-name-needed');
  await expect(page.locator('#policy-name-needed')).toHaveText('A name is needed before the draft can be saved.');
  await page.getByLabel('Name').fill('Senior discount');
  await expect(page.getByText('A name is needed before the draft can be saved.')).toHaveCount(0);
  // A wrong operator phrase: highlighted tokens, and a diagnostic with its suggestion.
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater then 64.');
  await expect(page.locator('.cm-content .tok-selector').first()).toHaveText('**Person**');
  const squiggle = page.locator('.cm-lintRange-error').first();
  await expect(squiggle).toBeVisible();
  await squiggle.hover();
  const fix = page.getByRole('button', { name: /Replace with “is greater than”/ });
  await expect(fix).toBeVisible();
  await page.screenshot({ path: join(shots, 'editor-diagnostic.png') });
  await fix.click();
  await expect(editorContent(page, 'Rule text')).toHaveText(/is greater than 64\./);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);

  // Run with data: the failing condition's row.
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 40}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: false');
  const row = page.locator('.trace tr.row-fail').first();
  await expect(row).toContainText('Person.age');
  await expect(row.locator('td').nth(1)).toHaveText('40');
  await expect(row.locator('td').nth(2)).toHaveText('is greater than');
  await expect(row.locator('td').nth(3)).toHaveText('64');
  await expect(row).toContainText('fail');
  await expect(page.getByTestId('explanation')).not.toBeEmpty();

  // Invalid JSON is pointed at, not sent.
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 40,}}');
  await expect(page.getByText(/^Not valid JSON: .*line 1, column/)).toBeVisible();
  // The place is said once, whatever the browser's own words say of it.
  await replaceEditorText(page, 'Sample data (JSON)', '[]]');
  await expect(page.getByText(/^Not valid JSON: /)).toHaveText(/^Not valid JSON: [^()]*\(line 1, column 3\)$/);
  // A number too large for any rule is refused in words, not sent as null.
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 1e400}}');
  await expect(page.getByText('Not valid JSON: a number in it is larger than any a rule can compare (about 1.8e308)')).toBeVisible();
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 40}}');
  await expect(page.getByText(/^Not valid JSON/)).toHaveCount(0);

  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Senior discount' })).toBeVisible();
  await expect(page.locator('.badge-draft')).toBeVisible();

  // One click: the current sample becomes a stored test expecting the current result.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('button', { name: 'Add as test (expect false)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test “Sample 1” saved' })).toBeVisible();
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  await page.getByRole('button', { name: 'Run all tests' }).click();
  await expect(page.getByTestId('test-summary')).toHaveText('1 of 1 tests pass.');
  await page.screenshot({ path: join(shots, 'tests.png') });

  await publish(page, async (dialog) => {
    await expect(dialog.getByRole('status')).toContainText('No recorded decisions to compare');
    await noCriticalViolations(page, 'publish dialog');
  });
  await expect(page.locator('.badge-published').first()).toHaveText('Version 1');
  await noCriticalViolations(page, 'policy (version)');

  // Edit: a new draft from version 1; a rule that breaks the stored test is refused with the failing test shown.
  await page.getByRole('button', { name: 'New draft from version 1' }).click();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 30.');
  await publish(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Not published' })).toContainText('Sample 1');
  await expect(page.locator('#panel-tests tr.row-fail')).toContainText('Sample 1');
  await page.screenshot({ path: join(shots, 'publish-gate.png') });

  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 60.');
  await publish(page);
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');

  // Compare version 1 with version 2.
  await page.getByRole('link', { name: 'Compare with version 1' }).click();
  await expect(page.getByRole('heading', { name: 'Compare records' })).toBeVisible();
  const rule = page.getByRole('region', { name: 'Rule text' });
  await expect(rule.locator('tr.diff-changed td.left')).toContainText('is greater than 64.');
  await expect(rule.locator('tr.diff-changed td.right')).toContainText('is greater than 60.');
  await expect(page.getByRole('region', { name: 'Tests' })).toContainText('No difference');
  await page.screenshot({ path: join(shots, 'compare.png'), fullPage: true });
  await noCriticalViolations(page, 'compare');

  await page.getByRole('link', { name: 'Policies' }).first().click();
  await expect(page.getByRole('row', { name: /Senior discount/ })).toContainText('Version 2');
  await page.screenshot({ path: join(shots, 'policies.png') });
  await noCriticalViolations(page, 'policies');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('keystroke to diagnostic on the five-rule policy', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await replaceEditorText(page, 'Rule text', bench.rule);
  await expect(page.locator('.cm-content .tok-reference').first()).toBeVisible();
  await expect(page.locator('.cm-lintRange')).toHaveCount(0);
  const times = [];
  for (let i = 0; i < 15; i++) {
    // Delete the r of "greater": the next check reports an unknown operator.
    await page.evaluate(() => {
      // The caret after the first "greater" (the credit check's), set as a user would.
      const content = document.querySelector('.editor-rule .cm-content');
      content.focus();
      const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
      let node;
      while ((node = walker.nextNode()) && !node.data.includes('greater'));
      window.getSelection().collapse(node, node.data.indexOf('greater') + 'greater'.length);
      window.__diag = new Promise((ok) => {
        let t0 = 0;
        const root = document.querySelector('.editor-rule');
        const obs = new MutationObserver(() => {
          if (t0 && root.querySelector('.cm-lintRange-error')) {
            obs.disconnect();
            ok(performance.now() - t0);
          }
        });
        document.addEventListener('keydown', () => (t0 = performance.now()), { capture: true, once: true });
        obs.observe(root, { subtree: true, childList: true, attributes: true });
      });
    });
    await page.keyboard.press('Backspace');
    times.push(await page.evaluate(() => window.__diag));
    await page.keyboard.press('Control+z');
    await expect(page.locator('.editor-rule .cm-lintRange-error')).toHaveCount(0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `keystroke to diagnostic on the five-rule policy: median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms over ${times.length} keystrokes`,
  );

  // The trace of the same policy: labels with their results, and a reference leads to the rule it names.
  await replaceEditorText(page, 'Sample data (JSON)', JSON.stringify(bench.data));
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: true');
  await expect(page.getByLabel('Labels')).toContainText('§identity: true');
  await page.locator('.trace').getByRole('button', { name: 'passes the credit check' }).click();
  await expect(page.locator('.editor-rule .cm-activeLine')).toContainText('A **Applicant** passes the credit check if');
  await page.locator('.trace').getByRole('button', { name: 'identity', exact: true }).click();
  await expect(page.locator('.editor-rule .cm-activeLine')).toContainText('identity. A **Applicant** passes the identity check');
  await page.screenshot({ path: join(shots, 'trace.png'), fullPage: true });
  await page.context().close();
});

test('completion offers selectors and properties from the sample data, and operator phrases', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await replaceEditorText(page, 'Sample data (JSON)', '{"Customer": {"firstName": "Ada", "loyaltyYears": 4}}');
  await replaceEditorText(page, 'Rule text', 'A **');
  const options = page.locator('.cm-tooltip-autocomplete');
  await expect(options).toContainText('**Customer**');
  await options.getByText('**Customer**').click();
  await page.keyboard.insertText(' gets a gift if the __');
  await expect(options).toContainText('__loyalty years__');
  await options.getByText('__loyalty years__').click();
  await page.keyboard.insertText(' of the **Customer** is at l');
  await expect(options).toContainText('is at least');
  await options.getByText('is at least', { exact: true }).click();
  await expect(editorContent(page, 'Rule text')).toHaveText('A **Customer** gets a gift if the __loyalty years__ of the **Customer** is at least');
  // A list of samples offers the names of its objects, each name once.
  await replaceEditorText(page, 'Sample data (JSON)', '[{"Customer": {"loyaltyYears": 4}}, {"Customer": {"loyaltyYears": 1, "email": "b@x.test"}}]');
  await replaceEditorText(page, 'Rule text', 'A **Customer** gets a gift if the __');
  await expect(options).toContainText('__email__');
  await expect(options.getByText('__loyalty years__', { exact: true })).toHaveCount(1);
  await page.context().close();
});

test('a run becomes a test only with the sample and the rule it ran on', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Stale runs');
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 64.');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 70}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: true');
  await expect(page.getByRole('button', { name: 'Add as test (expect true)' })).toBeVisible();

  // The sample changes after the run: true is not what age 10 gives.
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 10}}');
  await expect(page.getByRole('button', { name: /^Add as test/ })).toHaveCount(0);
  await expect(page.getByTestId('run-stale')).toContainText('run again');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 70}}');
  await expect(page.getByRole('button', { name: 'Add as test (expect true)' })).toBeVisible();
  // So does the rule.
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 80.');
  await expect(page.getByRole('button', { name: /^Add as test/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: false');
  await expect(page.getByTestId('run-stale')).toHaveCount(0);
  await page.getByRole('button', { name: 'Add as test (expect false)' }).click();
  // A new policy stores nothing until its draft is created.
  await expect(page.getByRole('status').filter({ hasText: 'Test “Sample 1”' })).toHaveText('Test “Sample 1” added, expecting false: save the draft to keep it.');
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  const row = page.getByRole('table', { name: 'Tests' }).locator('tbody tr');
  await expect(row.locator('td').nth(1)).toHaveText('{"Person":{"age":70}}');
  await expect(row.locator('td').nth(2)).toHaveText('false');
  await page.context().close();
});

test('a run that cannot start takes the result of the run before off the page, and says why once', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 64.');
  const tryIt = page.getByRole('region', { name: 'Try it' });
  const result = tryIt.getByTestId('run-result');
  const runOk = async () => {
    await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 70}}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(tryIt.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: true');
    await expect(result.locator('.trace-card')).toHaveCount(1);
  };
  for (const [sample, message] of [
    ['[1, 2]', 'Sample 1 of the list is not a JSON object.'],
    ['"hello"', 'The sample data must be a JSON object, or a list of them.'],
  ]) {
    await runOk();
    await replaceEditorText(page, 'Sample data (JSON)', sample);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(tryIt.getByRole('alert')).toHaveText(message);
    await expect(result).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Add as test/ })).toHaveCount(0);
  }
  // Data that is no JSON at all is pointed out under its editor, once.
  await runOk();
  await replaceEditorText(page, 'Sample data (JSON)', '');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(result).toHaveCount(0);
  await expect(tryIt.getByText(/valid JSON/)).toHaveCount(1);
  await expect(tryIt.getByRole('alert')).toHaveCount(0);
  await page.context().close();
});

test('a trace’s property column wraps a path only after its dots and underscores, and not at all where there is room', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Wrapped paths',
    rule: 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than or equal to 65 and the __monthly_income__ of the **Person** is less than 2000.',
  });
  // The lines a path is drawn on, as their texts.
  const lines = (code) =>
    code.evaluate((el) => {
      const out = [];
      let top = null;
      for (const node of el.childNodes) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        for (let i = 0; i < node.length; i++) {
          const r = document.createRange();
          r.setStart(node, i);
          r.setEnd(node, i + 1);
          const at = Math.round(r.getBoundingClientRect().top);
          if (at !== top) out.push('');
          top = at;
          out[out.length - 1] += node.data[i];
        }
      }
      return out;
    });
  for (const width of [1440, 390]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    open = page;
    await signIn(page, ADMIN_KEY);
    await page.goto(`${server.url}/console/policies/${draft.baseId}`);
    await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 70, "monthly_income": 1500}}');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const paths = page.locator('.trace-card td:first-child code');
    await expect(paths).toHaveCount(2);
    const drawn = [await lines(paths.nth(0)), await lines(paths.nth(1))];
    if (width === 1440) {
      assert.deepEqual(drawn, [['Person.age'], ['Person.monthly_income']]);
    } else {
      for (const path of drawn) {
        assert.ok(path.length > 1, `a phone's column is narrower than ${path.join('')}`);
        assert.ok(path.slice(0, -1).every((line) => /[._]$/.test(line)), `wrapped inside a name: ${JSON.stringify(path)}`);
      }
    }
    await context.close();
  }
});

test('a list of samples runs each on the saved rule, in one batch, each with its trace on demand', async () => {
  const rule = 'A **Person** gets a pension if the __age__ of the **Person** is at least 67.';
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Pension batch', rule });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Pension batch' }).click();

  await replaceEditorText(page, 'Sample data (JSON)', '[{"Person": {"age": 70}}, {"Person": {"age": 30}}, {"Person": {}}]');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const batch = page.getByTestId('batch-result');
  await expect(batch.getByRole('status')).toHaveText('3 runs: 1 true, 1 false, 1 could not run');
  const rows = batch.getByRole('table', { name: 'Runs of the samples' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('true');
  await expect(rows.nth(0).locator('td').nth(2)).toHaveText('Person gets a pension: yes — the age of the Person is 70, which is at least 67.');
  await expect(rows.nth(1).locator('td').nth(1)).toHaveText('false');
  await expect(rows.nth(2).locator('td').nth(1)).toHaveText('error');
  await expect(rows.nth(2).locator('td').nth(2)).toHaveText(
    "Could not run. Person gets a pension: no — the age of the Person could not be read. The run stopped with an error: Missing property: property 'age' not found at $.Person.",
  );
  // One call ran them all: one `executed` event for the three, stored by
  // the audit writer soon after the answer.
  await expect({
    toString: () => 'the batch’s executed event',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/audit?action=executed&baseId=${draft.baseId}`)).items.length,
  }).toHaveCount(1);
  const [event] = (await rest(server.url, ADMIN_KEY, 'GET', `/audit?action=executed&baseId=${draft.baseId}`)).items;
  assert.equal(event.details.count, 3);
  // A run that could not run has no trace to show; the others show theirs.
  await expect(rows.nth(2).getByRole('button')).toHaveCount(0);
  await page.getByRole('button', { name: 'Trace of sample 2' }).click();
  const trace = batch.locator('#batch-run-1');
  await expect(trace.locator('.verdict')).toHaveText('Result: false');
  await expect(trace.locator('.trace-card')).toHaveCount(1);
  await page.screenshot({ path: join(shots, 'batch.png'), fullPage: true });
  await noCriticalViolations(page, 'a batch of samples');
  await page.getByRole('button', { name: 'Hide the trace of sample 2' }).click();
  await expect(trace).toHaveCount(0);

  // Edited text no batch can run: the runs shown are said to be stale, and
  // running again says why it cannot.
  await replaceEditorText(page, 'Rule text', rule.replace('67', '60'));
  await expect(page.getByTestId('batch-stale')).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('A list of samples runs the saved rule: save the draft first, or run one sample at a time.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(batch.getByRole('status')).toHaveText('3 runs: 1 true, 1 false, 1 could not run');
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('Person gets a pension: no — the age of the Person is 30, which is not at least 60.');
  await expect(page.getByTestId('batch-stale')).toHaveCount(0);

  for (const [samples, refusal] of [
    ['[{"Person": {"age": 70}}, 42]', 'Sample 2 of the list is not a JSON object.'],
    ['[]', 'The list of samples is empty: put a JSON object in it for each run.'],
    ['"Person"', 'The sample data must be a JSON object, or a list of them.'],
  ]) {
    await replaceEditorText(page, 'Sample data (JSON)', samples);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(refusal);
  }
  // One object runs alone again, as before; Ctrl+Enter in an editor runs
  // as Run does, adding no line to the text.
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 61}}');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-result').locator('.verdict')).toHaveText('Result: true');
  await expect(batch).toHaveCount(0);
  await expect(editorContent(page, 'Sample data (JSON)')).toHaveText('{"Person": {"age": 61}}');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 59}}');
  await editorContent(page, 'Rule text').click();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('run-result').locator('.verdict')).toHaveText('Result: false');
  await expect(page.locator('.editor-rule .cm-line')).toHaveCount(1);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('Ctrl+S saves the draft being edited, from the editor or anywhere on the page, and creates a new one', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Saved by key',
    rule: 'A **Person** gets a pension if the __age__ of the **Person** is at least 67.',
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Saved by key' }).click();
  const save = page.getByRole('button', { name: 'Save draft' });
  // What the server holds once the save the keys started is done.
  const stored = (what, holds) =>
    expect({
      toString: () => `the stored ${what}`,
      count: async () => (holds(await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)) ? 1 : 0),
    }).toHaveCount(1);
  await replaceEditorText(page, 'Rule text', 'A **Person** gets a pension if the __age__ of the **Person** is at least 66.');
  await expect(save).toBeEnabled();
  await page.keyboard.press('Control+s');
  await stored('rule', (p) => p.rule.endsWith('at least 66.'));
  await expect(save).not.toBeEnabled();
  await page.getByLabel('Name').fill('Saved by key, renamed');
  await page.getByRole('heading', { name: 'Try it' }).click();
  await page.keyboard.press('Control+s');
  await stored('name', (p) => p.name === 'Saved by key, renamed');
  await expect(save).not.toBeEnabled();
  // With nothing to save, the keys do nothing, and the revision stays.
  const revision = (await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)).revision;
  await page.keyboard.press('Control+s');
  await expect(save).not.toBeEnabled();
  assert.equal((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)).revision, revision);

  await page.getByRole('link', { name: 'Policies' }).first().click();
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Created by key');
  await replaceEditorText(page, 'Rule text', 'A **Person** gets a gift if the __age__ of the **Person** is at least 18.');
  await page.keyboard.press('Control+s');
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  const created = (await rest(server.url, ADMIN_KEY, 'GET', '/policies?q=Created%20by%20key')).items;
  assert.equal(created.length, 1);
  await page.context().close();
});

test('a test is renamed, given another expectation and other data in its row, and saved with the draft', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Renamed tests',
    rule: 'A **Person** gets a senior pass if the __age__ of the **Person** is at least 65.',
    tests: [
      { name: 'Sample 1', data: { Person: { age: 70 } }, expect: true },
      { name: 'Sample 2', data: { Person: { age: 30 } }, expect: false },
    ],
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Renamed tests' }).click();
  await page.getByRole('tab', { name: 'Tests (2)' }).click();
  const rows = page.getByRole('table', { name: 'Tests' }).locator('tbody tr');

  await page.getByRole('button', { name: 'Edit test Sample 1' }).click();
  const form = page.getByRole('form', { name: 'Edit test Sample 1' });
  await form.getByLabel('Name').fill('70 is senior');
  await form.getByRole('button', { name: 'Apply' }).click();
  await expect(rows.nth(0).locator('td').nth(0)).toHaveText('70 is senior');

  // What the server would refuse is refused in the row, which stays open.
  await page.getByRole('button', { name: 'Edit test Sample 2' }).click();
  const second = page.getByRole('form', { name: 'Edit test Sample 2' });
  for (const [name, data, problem] of [
    ['70 is senior', '{"Person": {"age": 30}}', 'Another test is named “70 is senior”: test names are unique.'],
    [' ', '{"Person": {"age": 30}}', 'A test needs a name.'],
    ['30 is senior', '{"Person": ', 'The data is not valid JSON: '],
    ['30 is senior', '{"Person": {"age": 1e400}}', 'The data is not valid JSON: a number in it is larger than any a rule can compare'],
    ['30 is senior', '[1]', 'The data must be a JSON object.'],
  ]) {
    await second.getByLabel('Name').fill(name);
    await second.getByLabel('Data (JSON)').fill(data);
    await second.getByRole('button', { name: 'Apply' }).click();
    await expect(second.getByRole('alert')).toContainText(problem);
  }
  // Cancel, or Escape, leaves the test as it was.
  await second.getByRole('button', { name: 'Cancel' }).click();
  await expect(rows.nth(1).locator('td').nth(0)).toHaveText('Sample 2');
  await page.getByRole('button', { name: 'Edit test Sample 2' }).click();
  await second.getByLabel('Name').fill('Renamed, then not');
  await page.keyboard.press('Escape');
  await expect(second).toHaveCount(0);
  await expect(rows.nth(1).locator('td').nth(0)).toHaveText('Sample 2');
  await page.getByRole('button', { name: 'Edit test Sample 2' }).click();
  await second.getByLabel('Name').fill('31 is senior');
  await second.getByLabel('Expects').selectOption('true');
  await second.getByLabel('Data (JSON)').fill('{"Person": {"age": 31}}');
  assert.equal(await second.getByLabel('Expects').locator('option').count(), 2, 'a policy test expects true or false only');
  await second.getByRole('button', { name: 'Apply' }).click();
  await expect(rows.nth(1).locator('td').nth(0)).toHaveText('31 is senior');
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('true');
  await noCriticalViolations(page, 'tests edited');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect({
    toString: () => 'the stored tests',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)).tests.filter((t) => t.name !== 'Sample 1').length,
  }).toHaveCount(2);
  const stored = (await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)).tests.map(({ name, data, expect }) => ({ name, data, expect }));
  assert.deepEqual(stored, [
    { name: '70 is senior', data: { Person: { age: 70 } }, expect: true },
    { name: '31 is senior', data: { Person: { age: 31 } }, expect: true },
  ]);
  await page.getByRole('button', { name: 'Run all tests' }).click();
  await expect(rows.nth(1)).toContainText('✗ fail');
  await expect(rows.nth(0)).toContainText('✓ pass');
  // A test's data goes to Try it, to run and look into.
  await page.getByRole('button', { name: 'Use data of 31 is senior' }).click();
  await expect(editorContent(page, 'Sample data (JSON)')).toContainText('"age": 31');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('explanation')).toHaveText('Person gets a senior pass: no — the age of the Person is 31, which is not at least 65.');
  await page.context().close();
});

test('a rule that does not parse runs to its error alone: no result, no trace, no test', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await replaceEditorText(page, 'Rule text', 'this is not a rule');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByTestId('run-result');
  // Why, in the words of the run's explanation: not the engine's error.
  await expect(result.getByRole('alert')).toHaveText(
    'Could not run. The rule text does not parse (line 1, column 1): Verdict expected a rule, such as `A **Person** gets a discount if ...` here, but found `this`.',
  );
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveCount(0);
  await expect(result.locator('.trace')).toHaveCount(0);
  await expect(result).not.toContainText('valid_syntax');
  await expect(page.getByRole('button', { name: /^Add as test/ })).toHaveCount(0);
  await page.context().close();
});

test('the Publish dialog lists the rule’s problems in the editor’s words, and offers Publish only for a rule that parses', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Unfinished rule');
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater then 64.');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Unfinished rule' })).toBeVisible();
  await page.locator('.cm-lintRange-error').first().hover();
  const said = await page.locator('.cm-tooltip-lint .cm-diagnosticText').first().textContent();
  assert.match(said, /\S/);

  // A rule with errors is not offered for publishing: no Publish, and no replay.
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish “Unfinished rule”?' });
  const problems = dialog.getByTestId('publish-problems');
  await expect(problems.locator('li.problem-error').first()).toContainText(`Error: ${said}`);
  await expect(problems.locator('li.problem-error').first()).toContainText('line 1, column');
  await expect(dialog.getByRole('alert')).toHaveText('The rule has errors: it can be published once the errors above are fixed.');
  await expect(dialog.getByRole('button', { name: 'Publish' })).not.toBeEnabled();
  await expect(dialog.getByTestId('replay')).toContainText('Not replayed');
  await page.screenshot({ path: join(shots, 'publish-problems.png') });
  await noCriticalViolations(page, 'publish dialog with problems');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // A warning is shown, and does not stop a publish.
  await replaceEditorText(
    page,
    'Rule text',
    'A **Person** is an adult if the __age__ of the **Person** is at least 18.\nA **Person** gets senior_discount if the __age__ of the **Person** is at least 65.',
  );
  await expect(page.locator('.cm-lintRange-warning').first()).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await expect(problems.locator('li')).toHaveCount(1);
  await expect(problems.locator('li.problem-warning')).toContainText('Warning: No rule refers to the rule that');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Publish' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await page.context().close();
});

test('invalid sample JSON is pointed at by line and column, whatever the fault, without repeating the text', async () => {
  const created = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'JSON places', rule: 'A **Person** is placed if the __age__ of the **Person** is at least 18.' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${created.baseId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'JSON places' })).toBeVisible();
  const problem = page.locator('.field-error').filter({ hasText: /^Not valid JSON: / });
  for (const [text, said] of [
    ['{"a": 1,\n"b": x}', 'expected a value, found “x” (line 2, column 6)'],
    ['nope', 'expected a value, found “nope” (line 1, column 1)'],
    ['{"Person": {"age": 40,}}', 'expected a property name in double quotes, found “}” (line 1, column 23)'],
    ['{"Person":\n  {"name": "Ann\n"}}', 'a line break inside a string: close the string first, or write it as an escape such as \\n (line 2, column 16)'],
    ['{"Person": {"age": 1e400}}', 'a number in it is larger than any a rule can compare (about 1.8e308) (line 1, column 20)'],
    ['[]]', 'unexpected “]” after the JSON value (line 1, column 3)'],
  ]) {
    await replaceEditorText(page, 'Sample data (JSON)', text);
    await expect(problem).toHaveText(`Not valid JSON: ${said}`);
  }
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 40}}');
  await expect(problem).toHaveCount(0);
  await page.context().close();
});

test('the editor checks the names a rule reads against the policy’s schema, which the Schema tab edits', async () => {
  const applicant = (income) => ({ type: 'object', properties: { [income]: { type: 'number' }, debtRatio: { type: 'number' } } });
  const schema = { type: 'object', properties: { Applicant: applicant('monthlyIncome') } };
  const created = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Checked against its schema',
    rule: 'A **Applicant** gets credit if the __montly income__ of the **Applicant** is at least 3000.',
    schema,
  });
  assert.deepEqual(
    created.validation.diagnostics.map((d) => [d.code, d.suggestions]),
    [['not-in-schema', ['monthlyIncome']]],
  );
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${created.baseId}`);
  await expect(page.getByLabel('Name')).toHaveValue('Checked against its schema');
  const warning = page.locator('.cm-lintRange-warning');
  await warning.first().hover();
  const tooltip = page.locator('.cm-tooltip-lint');
  await expect(tooltip).toContainText('The schema of the data lists no property "montly income" at $.Applicant');

  // A schema edited in its tab checks the unchanged rule again.
  const listing = (income) => JSON.stringify({ ...schema, properties: { Applicant: applicant(income) } });
  await page.getByRole('tab', { name: 'Schema' }).click();
  await expect(editorContent(page, 'Schema (JSON)')).toContainText('"monthlyIncome"');
  await replaceEditorText(page, 'Schema (JSON)', listing('montly income'));
  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  await expect(warning).toHaveCount(0);

  // What is not a schema is not saved.
  await page.getByRole('tab', { name: 'Schema' }).click();
  await replaceEditorText(page, 'Schema (JSON)', '[1, 2]');
  await expect(page.locator('#panel-schema .field-error')).toHaveText('A JSON Schema is an object, or true or false.');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert')).toContainText('The schema is not saved: A JSON Schema is an object, or true or false.');
  assert.deepEqual((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`)).schema, schema);

  // The schema back as it was: the suggested name fixes the rule, and both are saved.
  await replaceEditorText(page, 'Schema (JSON)', listing('monthlyIncome'));
  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  await warning.first().hover();
  await tooltip.getByRole('button', { name: /Replace with “monthlyIncome”/ }).click();
  await expect(editorContent(page, 'Rule text')).toContainText('the __monthlyIncome__ of the **Applicant**');
  await expect(warning).toHaveCount(0);
  await page.getByRole('button', { name: 'Save draft' }).click();
  // Save draft is disabled while the save runs too: the stored rule says when it is done.
  await expect({
    toString: () => 'the stored rule',
    count: async () => (/__monthlyIncome__/.test((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`)).rule) ? 1 : 0),
  }).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
  assert.deepEqual((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`)).schema, schema);

  // Completion offers the names the schema lists, though no sample data has them.
  await replaceEditorText(page, 'Rule text', 'A **');
  const options = page.locator('.cm-tooltip-autocomplete');
  await expect(options).toContainText('**Applicant**');
  await options.getByText('**Applicant**').click();
  await page.keyboard.insertText(' gets credit if the __');
  await expect(options).toContainText('__debt ratio__');
  await options.getByText('__debt ratio__').click();
  await expect(editorContent(page, 'Rule text')).toHaveText('A **Applicant** gets credit if the __debt ratio__');
  await page.context().close();
});

test('a rule too large to highlight still shows its problems, and the editor says once that highlighting is off', async () => {
  // Some 230 KB of rules, each reading a list of 900 numbers: a policy the
  // server holds, whose tokens are more than one request may answer.
  const list = Array.from({ length: 900 }, (_, i) => 10000 + i).join(', ');
  const rules = ['A **Person** gets senior_discount if the __age__ of the **Person** is greater then 64.'];
  while (rules.join('\n').length < 230_000) rules.push(`A **Person** gets code_${rules.length} if the __code__ of the **Person** is in [${list}].`);
  const created = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Too large to highlight', rule: rules.join('\n') });
  const page = await newPage();
  // The checks the editor asks for, in order: with tokens (CheckRule) or the diagnostics alone.
  const checks = [];
  page.on('request', (r) => {
    if (!r.url().endsWith('/graphql') || r.method() !== 'POST') return;
    const m = /\bquery (CheckRule\w*)\(/.exec(r.postDataJSON()?.query ?? '');
    if (m) checks.push(m[1]);
  });
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${created.baseId}`);
  await expect(page.getByLabel('Name')).toHaveValue('Too large to highlight');
  const note = page.locator('.editor-rule').getByRole('status');
  await expect(note).toHaveText('Highlighting is off: this text is too large to highlight. Its problems are still underlined and listed.');
  // Underlined and listed, though not highlighted.
  const squiggle = page.locator('.editor-rule .cm-lintRange-error');
  await expect(squiggle.first()).toBeVisible();
  await expect(page.locator('.editor-rule .tok')).toHaveCount(0);
  await editorContent(page, 'Rule text').focus();
  await page.keyboard.press('Control+Shift+M');
  await expect(page.locator('.editor-rule .cm-panel-lint')).toContainText('`is greater then` is not a comparison Verdict knows');
  await page.keyboard.press('Escape');
  await page.screenshot({ path: join(shots, 'editor-unhighlighted.png') });

  // An edit is checked for its diagnostics alone: the refused tokens are not asked for again.
  await squiggle.first().hover();
  await page.getByRole('button', { name: /Replace with “is greater than”/ }).click();
  await expect(squiggle).toHaveCount(0);
  await expect(note).toHaveCount(1);
  const refused = checks.indexOf('CheckRuleDiagnostics');
  assert.ok(refused > 0, `checks: ${checks.join(', ')}`);
  assert.deepEqual(checks.slice(refused), checks.slice(refused).map(() => 'CheckRuleDiagnostics'), `checks: ${checks.join(', ')}`);
  assert.ok(checks.length - refused >= 2, `checks: ${checks.join(', ')}`);

  // A text cut to less than half is highlighted again, and the line goes.
  await replaceEditorText(page, 'Rule text', rules[1]);
  await expect(page.locator('.editor-rule .tok-selector').first()).toHaveText('**Person**');
  await expect(note).toHaveCount(0);
  await page.context().close();
});

test('a viewer sees no edit controls', async () => {
  const page = await newPage();
  await signIn(page, viewerKey);
  await expect(page.getByTestId('who')).toContainText('Viewer');
  await expect(page.getByRole('button', { name: 'New policy' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Senior discount' }).click();
  await expect(page.getByRole('heading', { name: 'Senior discount' })).toBeVisible();
  for (const name of ['Save draft', 'Publish', 'Delete', 'New draft from version 2', 'Create draft']) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(editorContent(page, 'Rule text')).toHaveAttribute('contenteditable', 'false');
  // The hints speak of what a viewer can do: run, not complete or edit.
  await expect(page.locator('p.hint').first()).toHaveText(/^Ctrl\+Shift\+M lists the problems; Ctrl\+Enter runs\./);
  // Viewers may still run.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-result')).toBeVisible();
  await page.screenshot({ path: join(shots, 'viewer.png') });
  // Nor is a new policy or flow offered by its address.
  for (const path of ['policies/new', 'flows/new']) {
    await page.goto(`${server.url}/console/${path}`);
    await expect(page.getByRole('heading', { name: 'Not for your role' })).toBeVisible();
  }
  await page.context().close();
});

test('unsaved text of a draft saved elsewhere since comes back after a reload, and its save is refused', async () => {
  const created = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Overtaken draft',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 18.',
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${created.baseId}`);
  await expect(page.getByLabel('Name')).toHaveValue('Overtaken draft');
  await page.getByLabel('Name').fill('Overtaken draft, mine');
  await expect({
    toString: () => 'the kept text',
    count: () => page.evaluate((id) => (sessionStorage.getItem(`verdict.draft.${id}`) ? 1 : 0), created.id),
  }).toHaveCount(1);
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${created.id}`, {
    status: 'draft',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 16.',
  });
  await page.reload();
  await expect(page.getByLabel('Name')).toHaveValue('Overtaken draft, mine');
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toContainText(
    'the draft was saved elsewhere since (revision 2; these began from revision 1): saving them will be refused',
  );
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert')).toContainText('the draft is at revision 2, not 1: it changed since you read it; load it again');
  const stored = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`);
  assert.equal(stored.name, 'Overtaken draft');
  assert.match(stored.rule, /at least 16\./);
  await page.context().close();
});

test('a reload while the server cannot be reached keeps the key, and Try again signs in once it answers', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.route('**/graphql', (route) => route.abort('connectionrefused'));
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('verdict.apiKey')), ADMIN_KEY);
  // Trying again while it still cannot be reached says so again, and keeps the key.
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
  assert.equal(await page.evaluate(() => sessionStorage.getItem('verdict.apiKey')), ADMIN_KEY);
  await page.unroute('**/graphql');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('verdict.apiKey')), ADMIN_KEY);
  await page.context().close();
});

test('a request that reaches no server says so in words, and the page keeps its text', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Written offline');
  await page.route('**/graphql', (route) => route.abort('connectionrefused'));
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server: the network or the server is down.');
  await expect(page.getByLabel('Name')).toHaveValue('Written offline');
  await page.context().close();
});

test('a proxy that cannot reach the server counts as the server down, and the page loads again by itself; the server’s own 503 is shown as it says', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  // A proxy in front of a server that restarts answers with a page of its own.
  await page.route('**/graphql', (route) =>
    route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' }),
  );
  await page.getByRole('link', { name: 'Flows', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
  await page.unroute('**/graphql');
  await expect(page.getByRole('table', { name: 'Flows' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Verdict's own refusal is its words, and nothing is asked again by itself.
  let asked = 0;
  await page.route('**/graphql', (route) => {
    asked++;
    return route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ errors: [{ message: 'the database cannot be reached', extensions: { code: 'unavailable' } }] }),
    });
  });
  await page.getByRole('link', { name: 'Policies', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('the database cannot be reached');
  await expect(page.getByRole('alert')).not.toContainText('Could not reach the Verdict server');
  const before = asked;
  await new Promise((done) => setTimeout(done, 2500));
  assert.equal(asked, before, 'requests made again after the server’s own answer');
  await page.unroute('**/graphql');
  await page.context().close();
});

test('a page that could not reach the server loads again by itself once it answers, keeping unsaved text, and still signs out a refused key', async () => {
  // A server of its own, stopped and started again on the same address and database.
  const own = await startServer(ADMIN_KEY);
  try {
    const key = await rest(own.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'through a restart', scope: 'admin' });
    // Drafts of the key's own, which it lists.
    const draft = await rest(own.url, key.secret, 'POST', '/policy', { name: 'Kept through a restart', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
    await rest(own.url, key.secret, 'POST', '/flow', {
      name: 'Listed after a restart',
      definition: { formatVersion: 1, nodes: [{ id: 'start', type: 'start', policy: { baseId: draft.baseId }, onTrue: 'yes' }, { id: 'yes', type: 'return', returnValue: true }] },
    });
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    open = page;
    let asked = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/graphql')) asked++;
    });
    await page.goto(own.url + '/console/');
    await page.getByLabel('API key').fill(key.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible();

    // A key that cannot be checked for want of a server is checked again by itself.
    await page.route('**/graphql', (route) => route.abort('connectionrefused'));
    await page.reload();
    await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
    await page.unroute('**/graphql');
    await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible();

    // Text written in the editor and not saved.
    await page.getByRole('link', { name: 'Kept through a restart' }).click();
    await replaceEditorText(page, 'Rule text', 'A **Person** is checked if the __age__ of the **Person** is at least 21.');
    await expect(page.locator('.cm-content .tok-selector').first()).toHaveText('**Person**');
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await expect(page.getByRole('table', { name: 'Flows' })).toContainText('Listed after a restart');

    // Back to the editor while the server is down: the page says so, then
    // shows the editor by itself once the server is back, the text as it was.
    await own.restart(async () => {
      await page.goBack();
      await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
    });
    await expect(editorContent(page, 'Rule text')).toHaveText(/is at least 21\./);
    await expect(page.locator('.cm-content .tok-selector').first()).toHaveText('**Person**');
    await expect(page.getByRole('alert')).toHaveCount(0);

    // A list read while the server is down comes back by itself, without a click.
    await own.restart(async () => {
      await page.getByRole('link', { name: 'Flows', exact: true }).click();
      await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
    });
    await expect(page.getByRole('table', { name: 'Flows' })).toContainText('Listed after a restart');
    await expect(page.getByRole('alert')).toHaveCount(0);

    // Nothing is asked again while the page is fine: a few retries' time
    // passes without a request.
    const before = asked;
    await new Promise((done) => setTimeout(done, 2500));
    assert.equal(asked, before, 'requests made while the page was fine');

    // A key refused by the server it comes back to signs out, as it does at any time.
    await rest(own.url, ADMIN_KEY, 'DELETE', `/admin/keys/${key.id}`);
    await own.restart(async () => {
      await page.getByRole('link', { name: 'Policies', exact: true }).click();
      await expect(page.getByRole('alert')).toContainText('Could not reach the Verdict server');
    });
    await expect(page.getByRole('alert')).toHaveText(/no longer accepted/);
    await expect(page.getByLabel('API key')).toBeVisible();
    await context.close();
  } finally {
    await own.stop();
  }
});

test('a key revoked mid-session returns to sign-in, and the unsaved text survives', async () => {
  // A second key of the admin's: the text comes back when the same user signs in again.
  const [admin] = (await rest(server.url, ADMIN_KEY, 'GET', '/admin/members?q=admin%40localhost')).items;
  const key = (await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'short-lived', scope: 'admin', userId: admin.user.id }));
  const page = await newPage();
  await signIn(page, key.secret);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Unsaved work');
  await replaceEditorText(page, 'Rule text', 'A **Loan** is approved if the __amount__ of the **Loan** is less than 1000.');
  // The editor's check of the text has answered (its tokens are shown), so
  // the first request the revoked key makes is Create draft's.
  await expect(page.locator('.cm-content .tok-selector').first()).toBeVisible();
  await rest(server.url, ADMIN_KEY, 'DELETE', `/admin/keys/${key.id}`);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('alert')).toHaveText(/no longer accepted.*another of your keys: unsaved text in the editor is kept/);
  await page.getByLabel('API key').fill(ADMIN_KEY);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Unsaved work');
  await expect(editorContent(page, 'Rule text')).toHaveText(/is less than 1000\./);
  await page.context().close();
});

test('unsaved text kept from a refused key comes back to the same user only, not to another organization’s key', async () => {
  const member = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: 'returning@example.test', role: 'editor' });
  const first = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'returning, first', scope: 'edit', userId: member.user.id });
  const second = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'returning, second', scope: 'edit', userId: member.user.id });
  server.admin('org', 'create', '--name', 'Next in the tab');
  const stranger = server.admin('key', 'create', '--org', 'Next in the tab', '--scope', 'edit', '--name', 'stranger');
  const page = await newPage();
  await signIn(page, first.secret);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Left unsaved');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Loan": {"amount": 4243}}');
  await replaceEditorText(page, 'Rule text', 'A **Loan** is approved if the __amount__ of the **Loan** is less than 31337.');
  // The editor's check of the text has answered, so the first request the
  // revoked key makes is Create draft's.
  await expect(page.locator('.cm-content .tok-selector').first()).toBeVisible();
  await rest(server.url, ADMIN_KEY, 'DELETE', `/admin/keys/${first.id}`);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('alert')).toHaveText(/no longer accepted/);

  // The same member, with another key: the text and the sample are back.
  await page.getByLabel('API key').fill(second.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Left unsaved');
  await expect(editorContent(page, 'Rule text')).toHaveText(/is less than 31337\./);
  await expect(editorContent(page, 'Sample data (JSON)')).toContainText('4243');

  // That key is refused too, by the check of it on a reload; a key of
  // another organization signs in next and finds nothing of the member's.
  await rest(server.url, ADMIN_KEY, 'DELETE', `/admin/keys/${second.id}`);
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText(/not accepted: it is unknown, revoked or expired/);
  await page.getByLabel('API key').fill(stranger.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('who')).toContainText('Next in the tab');
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(editorContent(page, 'Rule text')).not.toContainText('31337');
  await expect(editorContent(page, 'Sample data (JSON)')).not.toContainText('4243');
  assert.deepEqual(await page.evaluate(() => Object.values(sessionStorage).filter((v) => /31337|4243|Left unsaved/.test(v))), []);
  await page.context().close();
});

test('an organization key that may publish creates a policy and a flow of the organization, and may publish them', async () => {
  const key = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'org publisher', scope: 'publish' });
  const page = await newPage();
  await signIn(page, key.secret);
  await expect(page.getByTestId('who')).toContainText('Organization key “org publisher”');
  await expect(page.getByTestId('who')).toContainText('Publisher');
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Made with the organization key');
  await replaceEditorText(page, 'Rule text', 'A **Person** is a senior if the __age__ of the **Person** is at least 65.');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Made with the organization key' })).toBeVisible();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
  const [policy] = (await rest(server.url, ADMIN_KEY, 'GET', `/policies?q=${encodeURIComponent('Made with the organization key')}`)).items;
  assert.equal(policy.owner.kind, 'organization');
  // The key is the draft's author.
  await page.getByRole('tab', { name: /Versions/ }).click();
  await expect(page.getByRole('cell', { name: 'Organization key “org publisher”' })).toBeVisible();

  await page.goto(server.url + '/console/flows/new');
  await page.getByLabel('Name', { exact: true }).fill('Flow made with the organization key');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Flow made with the organization key' })).toBeVisible();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
  const [flow] = (await rest(server.url, ADMIN_KEY, 'GET', `/flows?q=${encodeURIComponent('Flow made with the organization key')}`)).items;
  assert.equal(flow.owner.kind, 'organization');
  await page.context().close();
});

test('a role lowered mid-session shows in the header once the server refuses an action to it', async () => {
  const member = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: 'demoted@example.test', role: 'editor' });
  const key = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'demoted', scope: 'edit', userId: member.user.id });
  const page = await newPage();
  await signIn(page, key.secret);
  await expect(page.getByTestId('who')).toContainText('Editor');
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Written by an editor');
  await rest(server.url, ADMIN_KEY, 'PUT', `/admin/members/${member.user.id}`, { role: 'viewer' });
  // The server obeys the change once its cache of the key expires: until
  // it refuses the key an edit, nothing is clicked. The probe has no name,
  // so an editor's is refused as invalid (400) and stores nothing; a
  // viewer's is refused before it is read (403).
  for (let tries = 0; ; tries++) {
    const status = (await fetch(`${server.url}/policy`, {
      method: 'POST',
      headers: { 'x-api-key': key.secret, 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', rule: 'x' }),
    })).status;
    assert.ok(status === 400 || status === 403, `the probe got ${status}`);
    if (status === 403) break;
    assert.ok(tries < 60, 'the server still lets the demoted key edit');
    await new Promise((done) => setTimeout(done, 250));
  }
  assert.equal((await page.getByTestId('who').textContent()).includes('Viewer'), false);
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByTestId('who')).toContainText('Viewer');
  await page.context().close();
});

test('a save of a draft someone else saved meanwhile is refused, and the text stays', async () => {
  const created = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Shared draft',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 18.',
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${created.baseId}`);
  await expect(page.getByLabel('Name')).toHaveValue('Shared draft');
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${created.id}`, {
    status: 'draft',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 16.',
  });
  await page.getByLabel('Name').fill('Shared draft, renamed');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('alert')).toContainText('the draft is at revision 2, not 1: it changed since you read it; load it again');
  await expect(page.getByLabel('Name')).toHaveValue('Shared draft, renamed');
  const stored = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`);
  assert.equal(stored.name, 'Shared draft');
  assert.match(stored.rule, /at least 16\./);
  // Loading it again shows the draft as saved, and the next save builds on it.
  await page.getByRole('alert').getByRole('button', { name: 'Load the saved draft' }).click();
  await expect(page.getByLabel('Name')).toHaveValue('Shared draft');
  await expect(editorContent(page, 'Rule text')).toContainText('is at least 16.');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByLabel('Name').fill('Shared draft, renamed');
  await page.getByRole('button', { name: 'Save draft' }).click();
  // Save draft is disabled while the save runs too: the stored name says when it is done.
  await expect({
    toString: () => 'the stored name',
    count: async () => ((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${created.id}`)).name === 'Shared draft, renamed' ? 1 : 0),
  }).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.context().close();
});

test('signing out forgets the unsaved work, so the next user in the tab does not see it', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  await page.getByLabel('Name').fill('Private work');
  await replaceEditorText(page, 'Rule text', 'A **Loan** is approved if the __amount__ of the **Loan** is less than 777.');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Loan": {"amount": 4242}}');
  await page.goto(server.url + '/console/flows/new');
  await page.getByLabel('Name', { exact: true }).fill('Private flow');
  // The key, the policy's draft and sample, and the flow's edits.
  await expect({
    toString: () => 'what the tab keeps',
    count: () => page.evaluate(() => Object.keys(sessionStorage).filter((k) => /^verdict\.(apiKey|draft\.new|sample\.new|flowEdits\.new)$/.test(k)).length),
  }).toHaveCount(4);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to the console' })).toBeVisible();
  assert.deepEqual(await page.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)]), []);

  // The next user signs in in the same tab: nothing of the last one's work.
  const next = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'next in the tab', scope: 'edit' });
  await page.getByLabel('API key').fill(next.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('who')).toContainText('Editor');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');
  await page.goto(server.url + '/console/policies/new');
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(editorContent(page, 'Rule text')).not.toContainText('777');
  await expect(editorContent(page, 'Sample data (JSON)')).not.toContainText('4242');
  await page.context().close();
});

test('an admin deletes a policy, after a confirmation naming it, and it leaves the list', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Senior discount' }).click();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the policy “Senior discount”?' });
  await expect(dialog).toBeVisible();
  await page.screenshot({ path: join(shots, 'delete.png') });
  await dialog.getByRole('button', { name: 'Delete “Senior discount”' }).click();
  await expect(page.getByRole('heading', { name: 'Policies' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Policies' })).not.toContainText('Senior discount');
  await expect(page.getByRole('link', { name: 'Senior discount' })).toHaveCount(0);
  await page.context().close();
});

test('on a phone, a confirmation naming a very long name stays in the window, Cancel and all', async () => {
  const name = 'Long-named policy ' + 'w'.repeat(182);
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name,
    rule: 'A **Person** gets a discount if the __age__ of the **Person** is at least 18.',
  });
  const context = await browser.newContext({ viewport: { width: 375, height: 700 } });
  const page = await context.newPage();
  open = page;
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${draft.baseId}`);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete the policy “${name}”?` });
  await expect(dialog).toBeVisible();
  const inside = async (box, what) => {
    assert.ok(box, what);
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= 375 && box.y + box.height <= 700, `${what} at ${JSON.stringify(box)}`);
  };
  await inside(await dialog.boundingBox(), 'the dialog');
  await inside(await dialog.getByRole('button', { name: 'Cancel' }).boundingBox(), 'Cancel');
  await inside(await dialog.getByRole('button', { name: `Delete “${name}”` }).boundingBox(), 'Delete');
  await page.screenshot({ path: join(shots, 'delete-long-name-phone.png') });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).not.toBeVisible();
  await rest(server.url, ADMIN_KEY, 'DELETE', `/policy/${draft.baseId}`);
  await context.close();
});

// The policy the flows below start with.
let adult;

/** A published policy, made through the REST API for a flow to use. */
async function publishedPolicy(name, rule) {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name, rule });
  return rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
}

async function selectNode(page, id) {
  await page.getByLabel('Node', { exact: true }).selectOption(id);
  await expect(page.getByRole('heading', { name: `Node ${id}` })).toBeVisible();
}

async function choosePolicy(page, name) {
  await page.getByRole('button', { name: /^(Choose a|Change) policy$/ }).click();
  await page.getByLabel('Find a policy by name').fill(name);
  await page.getByRole('list', { name: 'Policies found' }).getByRole('button', { name, exact: true }).click();
  await expect(page.getByLabel(`Which version of “${name}”`)).toBeEnabled();
  await page.getByRole('button', { name: 'Use this policy' }).click();
  await expect(page.getByTestId('node-policy')).toContainText(`${name} · latest version`);
}

function flowNode(page, id) {
  return page.getByTestId(`flow-node-${id}`);
}

test('an author draws a flow of two policies and a return node, tests it, publishes it and compares two versions', async () => {
  adult = await publishedPolicy('Adult', 'A **applicant** is an adult if the __age__ of the **applicant** is at least 18.');
  await publishedPolicy('Income', 'A **applicant** has enough income if the __income__ of the **applicant** is greater than 30000.');
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Flows', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Flows' })).toBeVisible();
  await page.getByRole('button', { name: 'New flow' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Loan');

  await selectNode(page, 'start');
  await choosePolicy(page, 'Adult');
  await page.getByRole('button', { name: 'Add policy node' }).click();
  await expect(page.getByRole('heading', { name: 'Node policy-1' })).toBeVisible();
  await choosePolicy(page, 'Income');
  await page.getByRole('button', { name: 'Add return node' }).click();
  await expect(page.getByRole('heading', { name: 'Node return-1' })).toBeVisible();
  await expect(page.getByLabel('Returns')).toHaveValue('true');
  await page.getByRole('button', { name: 'Add return node' }).click();
  await expect(page.getByRole('heading', { name: 'Node return-2' })).toBeVisible();
  await page.getByLabel('Returns').selectOption('false');

  await selectNode(page, 'start');
  await page.getByLabel('When true, go to').selectOption('policy-1');
  await page.getByLabel('When false, go to').selectOption('return-2');
  await selectNode(page, 'policy-1');
  await page.getByLabel('When true, go to').selectOption('return-1');
  await page.getByLabel('When false, go to').selectOption('return-2');
  await expect(page.locator('.react-flow__edge')).toHaveCount(4);
  await expect(page.locator('.react-flow__edge.fedge-true')).toHaveCount(2);

  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Loan' })).toBeVisible();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await expect(page.locator('.fnode-problems')).toHaveCount(0);

  // A run: the path it took is highlighted, and each node shows its result.
  await page.getByLabel('Input (JSON)').fill('{"applicant": {"age": 30, "income": 45000}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Flow result' })).toHaveText('Flow result: true');
  await expect(page.getByTestId('flow-path')).toHaveText('Path: start → policy-1 → return-1');
  for (const id of ['start', 'policy-1', 'return-1']) await expect(flowNode(page, id)).toHaveClass(/\bfnode-path\b/);
  await expect(flowNode(page, 'return-2')).not.toHaveClass(/\bfnode-path\b/);
  await expect(flowNode(page, 'policy-1').getByTestId('node-result')).toHaveText('true');
  await expect(flowNode(page, 'return-1').getByTestId('node-result')).toHaveText('returned true');
  await expect(page.locator('.react-flow__edge.fedge-path')).toHaveCount(2);
  // The node that ran last is selected: its trace and explanation.
  const nodeResult = page.getByRole('region', { name: 'Result of node policy-1' });
  await expect(nodeResult.getByTestId('explanation')).not.toBeEmpty();
  await expect(nodeResult.locator('.trace tr.row-pass')).toContainText('applicant.income');
  await page.screenshot({ path: join(shots, 'flow-run.png'), fullPage: true });
  await noCriticalViolations(page, 'flow');
  // In the narrower side panel of a 1280 px window no condition table is cut
  // off: each fits its card, or scrolls within it.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(nodeResult.locator('.trace table th').last()).toBeVisible();
  const clipped = await nodeResult.locator('.trace-card').evaluateAll((cards) =>
    cards
      .filter((card) => {
        const table = card.querySelector('table');
        if (!table || table.getBoundingClientRect().right <= card.getBoundingClientRect().right + 0.5) return false;
        for (let el = table.parentElement; el !== card; el = el.parentElement) {
          if (['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth) return false;
        }
        return true;
      })
      .map((card) => `${card.getAttribute('aria-label')}: a ${card.querySelector('table').offsetWidth} px table in a ${card.clientWidth} px card`),
  );
  assert.deepEqual(clipped, []);
  await page.screenshot({ path: join(shots, 'flow-run-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.getByRole('button', { name: 'Add as test (expect true)' }).click();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('tab', { name: 'Tests (1)' })).toBeVisible();
  await publish(page);
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await expect(page.getByRole('status').filter({ hasText: 'Published' })).toHaveText('Published as version 1.');

  // Version 2: a custom outcome on the false branch of the income check;
  // first with a change that breaks the stored test, which the gate refuses.
  await page.getByRole('button', { name: 'New draft from version 1' }).click();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await selectNode(page, 'return-1');
  await page.getByLabel('Returns').selectOption('false');
  await publish(page);
  await expect(page.getByRole('alert').filter({ hasText: 'Not published' })).toContainText('Sample 1');
  await expect(page.locator('#panel-tests tr.row-fail')).toContainText('Sample 1');
  await page.screenshot({ path: join(shots, 'flow-publish-gate.png'), fullPage: true });
  await page.getByRole('tab', { name: 'Graph and test' }).click();
  await selectNode(page, 'return-1');
  await page.getByLabel('Returns').selectOption('true');
  await page.getByRole('button', { name: 'Add custom node' }).click();
  await expect(page.getByRole('heading', { name: 'Node custom-1' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Outcome' }).fill('manual review');
  await selectNode(page, 'policy-1');
  await page.getByLabel('When false, go to').selectOption('custom-1');
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  await cancelPublish(page);
  await expect(flowNode(page, 'custom-1')).toBeVisible();
  await publish(page);
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');

  // The comparison is the server's flowDiff: nodes by id, branches as
  // (from, branch, to), each added or removed.
  const askedForDiff = page.waitForRequest((r) => r.url().endsWith('/graphql') && (r.postData() ?? '').includes('flowDiff('));
  await page.getByRole('link', { name: 'Compare with version 1' }).click();
  await askedForDiff;
  await expect(page.getByRole('heading', { name: 'Compare flow records' })).toBeVisible();
  const nodes = page.getByRole('table', { name: 'Node changes' });
  await expect(nodes.getByRole('row', { name: /custom-1/ })).toContainText('Added');
  await expect(nodes.locator('tbody tr')).toHaveCount(1);
  const branches = page.getByRole('table', { name: 'Branch changes' });
  await expect(branches.locator('tbody tr')).toHaveCount(2);
  // Counted in words of the right number.
  await expect(page.getByRole('region', { name: 'Nodes' }).locator('.panel-head .muted')).toHaveText('1 node differs');
  await expect(page.getByRole('region', { name: 'Branches' }).locator('.panel-head .muted')).toHaveText('2 branches differ');
  await expect(page.locator('.compare-meta .card').first()).toContainText('· 1 test');
  await expect(branches.getByRole('row', { name: /return-2/ })).toHaveText(/policy-1\s*false\s*Removed\s*return-2/);
  await expect(branches.getByRole('row', { name: /custom-1/ })).toHaveText(/policy-1\s*false\s*Added\s*custom-1/);
  await expect(page.locator('.fnode-added')).toHaveCount(1);
  await expect(page.locator('.react-flow__edge.fedge-removed')).toHaveCount(1);
  await expect(page.locator('.react-flow__edge.fedge-added')).toHaveCount(1);
  await page.screenshot({ path: join(shots, 'flow-compare.png'), fullPage: true });
  await noCriticalViolations(page, 'flow compare');

  // Rolling back to version 1 publishes its definition again as version 3.
  await page.getByRole('link', { name: 'Loan' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');
  await page.getByLabel('Record').selectOption({ label: 'Version 1' });
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await page.getByRole('button', { name: 'Roll back to this version' }).click();
  await page.getByRole('dialog', { name: 'Roll back to version 1?' }).getByRole('button', { name: 'Publish version 1 again' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 3');
  await expect(page.getByRole('status').filter({ hasText: 'published again' })).toHaveText('Version 1 published again as version 3.');
  await expect(page.getByRole('tab', { name: 'Versions (3)' })).toBeVisible();
  await expect(flowNode(page, 'policy-1')).toBeVisible();
  await expect(flowNode(page, 'custom-1')).toHaveCount(0);

  // Version 3 against version 2: the custom node is gone, drawn as
  // removed, and the false branch of policy-1 points back at return-2.
  await page.getByRole('link', { name: 'Compare with version 2' }).click();
  await expect(page.getByRole('heading', { name: 'Compare flow records' })).toBeVisible();
  await expect(nodes.locator('tbody tr')).toHaveCount(1);
  await expect(nodes.getByRole('row', { name: /custom-1/ })).toContainText('Removed');
  await expect(branches.getByRole('row', { name: /custom-1/ })).toHaveText(/policy-1\s*false\s*Removed\s*custom-1/);
  await expect(branches.getByRole('row', { name: /return-2/ })).toHaveText(/policy-1\s*false\s*Added\s*return-2/);
  await expect(page.locator('.fnode-removed')).toHaveCount(1);
  await expect(flowNode(page, 'custom-1')).toHaveClass(/\bfnode-removed\b/);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a flow graph’s nodes and edges show where the focus is, reached by Tab', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Focus check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const definition = {
    formatVersion: 1,
    start: 's',
    nodes: [
      { id: 's', type: 'start', name: 'Start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'no' },
      { id: 'yes', type: 'return', returnValue: true },
      { id: 'no', type: 'return', returnValue: false },
    ],
  };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Focus rings', definition });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(flowNode(page, 's')).toBeVisible();
  await page.locator('.flow-canvas').focus();
  const seen = { edge: null, node: null };
  for (let i = 0; i < 40 && !(seen.edge && seen.node); i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      if (el?.classList.contains('react-flow__node')) {
        const s = getComputedStyle(el);
        return { kind: 'node', outline: s.outlineStyle, width: s.outlineWidth, shadow: s.boxShadow };
      }
      if (el?.classList.contains('react-flow__edge')) {
        const s = getComputedStyle(el.querySelector('.react-flow__edge-path'));
        return { kind: 'edge', strokeWidth: s.strokeWidth, filter: s.filter };
      }
      return null;
    });
    if (focused && !seen[focused.kind]) seen[focused.kind] = focused;
  }
  assert.ok(seen.node, 'Tab reaches a node');
  assert.ok(seen.node.outline !== 'none' || seen.node.shadow !== 'none', `a focused node shows it: ${JSON.stringify(seen.node)}`);
  assert.ok(seen.edge, 'Tab reaches an edge');
  assert.ok(seen.edge.filter !== 'none' && parseFloat(seen.edge.strokeWidth) >= 4, `a focused edge shows it: ${JSON.stringify(seen.edge)}`);
  await page.locator('.flow-canvas').screenshot({ path: join(shots, 'flow-focus.png') });
  await rest(server.url, ADMIN_KEY, 'DELETE', `/flow/${flow.baseId}`);
  await rest(server.url, ADMIN_KEY, 'DELETE', `/policy/${policy.baseId}`);
  await page.context().close();
});

test('an invalid flow shows its problems on the nodes they concern', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(server.url + '/console/flows/new');
  await page.getByLabel('Name', { exact: true }).fill('Broken');
  await page.getByRole('button', { name: 'Add policy node' }).click();
  await expect(page.getByRole('heading', { name: 'Node policy-1' })).toBeVisible();
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Broken' })).toBeVisible();
  await expect(flowNode(page, 'start').locator('.fnode-problems')).toContainText('start node "start" must have a Policy ID');
  await expect(flowNode(page, 'policy-1').locator('.fnode-problems')).toContainText('policy node "policy-1" must have a Policy ID');
  await expect(flowNode(page, 'policy-1').locator('.fnode-problems')).toContainText('Node "policy-1" is not connected to the flow');
  await expect(flowNode(page, 'policy-1')).toHaveClass(/\bfnode-error\b/);
  await expect(page.locator('.react-flow__node[data-id="start"]')).toHaveAttribute('aria-label', 'Start node Start, 3 problems');
  await expect(page.locator('.react-flow__node[data-id="policy-1"]')).toHaveAttribute('aria-label', 'Policy node policy-1, 4 problems');
  await page.screenshot({ path: join(shots, 'flow-problems.png'), fullPage: true });
  // A tab that never saw the save asks the server for the draft's problems.
  const fresh = await newPage();
  await signIn(fresh, ADMIN_KEY);
  await fresh.goto(page.url());
  await expect(fresh.getByRole('heading', { name: 'Broken' })).toBeVisible();
  await expect(flowNode(fresh, 'start').locator('.fnode-problems')).toContainText('start node "start" must have a Policy ID');
  await expect(flowNode(fresh, 'policy-1').locator('.fnode-problems')).toContainText('Node "policy-1" is not connected to the flow');
  await fresh.context().close();
  open = page;
  // The same problems, opened from the node's panel.
  await selectNode(page, 'policy-1');
  await expect(page.getByRole('list', { name: 'Problems of this node' })).toContainText('is not connected to the flow');

  // The Publish dialog lists the same problems, and offers no Publish: the server would refuse them.
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish “Broken”?' });
  const problems = dialog.getByTestId('publish-problems');
  await expect(problems).toContainText('Error: start node "start" must have a Policy ID');
  await expect(problems).toContainText('Error: Node "policy-1" is not connected to the flow');
  await expect(dialog.getByRole('alert')).toContainText('The definition has errors');
  await expect(dialog.getByRole('button', { name: 'Publish' })).not.toBeEnabled();
  // The problems come first, and no replay is started for a definition the server would refuse.
  assert.ok(await problems.evaluate((p) => !!(p.compareDocumentPosition(p.parentElement.querySelector('[data-testid="replay"]')) & Node.DOCUMENT_POSITION_FOLLOWING)));
  await expect(dialog.getByTestId('replay')).toContainText('Not replayed: the draft cannot be published as it is.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  // Warnings alone are shown, and do not stop a publish. A node deleted
  // from the keyboard leaves the focus on the graph, not at the page's start.
  await selectNode(page, 'policy-1');
  await page.locator('.react-flow__node[data-id="policy-1"]').focus();
  await page.keyboard.press('Delete');
  await expect(page.locator('.react-flow__node[data-id="policy-1"]')).toHaveCount(0);
  assert.ok(
    await page.evaluate(() => !!document.activeElement?.closest('.flow-canvas')),
    `the focus went to ${await page.evaluate(() => document.activeElement?.tagName)} after the deletion`,
  );
  await selectNode(page, 'start');
  await choosePolicy(page, 'Adult');
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await expect(problems.locator('li')).toHaveCount(2);
  await expect(problems.locator('li.problem-warning').first()).toHaveText('Warning: start node "start" is missing a TRUE path');
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Publish' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(flowNode(page, 'start').locator('.fnode-problems')).toContainText('is missing a TRUE path');

  // Deleting takes the flow away.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('dialog', { name: 'Delete the flow “Broken”?' }).getByRole('button', { name: 'Delete “Broken”' }).click();
  await expect(page.getByRole('heading', { name: 'Flows' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Flows' })).not.toContainText('Broken');
  await page.context().close();
});

test('a flow whose policy is deleted shows so when it opens again in the same tab, and offers no Publish', async () => {
  const policy = await publishedPolicy('Short-lived', 'A **Person** is checked if the __age__ of the **Person** is at least 18.');
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Outlives its policy',
    definition: {
      formatVersion: 1,
      nodes: [
        { id: 'start', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'no' },
        { id: 'yes', type: 'return', returnValue: true },
        { id: 'no', type: 'return', returnValue: false },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(page.getByRole('heading', { name: 'Outlives its policy' })).toBeVisible();
  await expect(page.locator('.react-flow__node[data-id="start"]')).toBeVisible();
  await expect(flowNode(page, 'start').locator('.fnode-problems')).toHaveCount(0);
  // Deleting the policy leaves the flow's revision as it was.
  await rest(server.url, ADMIN_KEY, 'DELETE', `/policy/${policy.baseId}`);
  await page.reload();
  await expect(flowNode(page, 'start').locator('.fnode-problems')).toContainText('not found');
  await page.getByRole('button', { name: 'Publish' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish “Outlives its policy”?' });
  await expect(dialog.getByTestId('publish-problems')).toContainText('not found');
  await expect(dialog.getByRole('button', { name: 'Publish' })).not.toBeEnabled();
  await page.context().close();
});

test('a flow node names its true, false and next handles, true on the left and false on the right', async () => {
  // A draft: the audit log's test counts the publications before it.
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Handle check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const definition = {
    formatVersion: 1,
    start: 's',
    nodes: [
      // The false branch is listed first, and leads to the node listed first: neither moves the handles.
      { id: 's', type: 'start', name: 'Start', policy: { baseId: policy.baseId }, onFalse: 'review', onTrue: 'yes' },
      { id: 'review', type: 'custom', name: 'Review', outcome: 'manual review', next: 'yes' },
      { id: 'yes', type: 'return', returnValue: true },
    ],
  };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Handles', definition });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  const start = flowNode(page, 's');
  const onTrue = start.getByRole('img', { name: 'true branch of s' });
  const onFalse = start.getByRole('img', { name: 'false branch of s' });
  await expect(onTrue).toHaveText('true');
  await expect(onFalse).toHaveText('false');
  await expect(onTrue).toHaveClass(/\bhandle-true\b/);
  await expect(onFalse).toHaveClass(/\bhandle-false\b/);
  const [t, f, box] = await Promise.all([onTrue.boundingBox(), onFalse.boundingBox(), start.boundingBox()]);
  assert.ok(t.x + t.width / 2 < box.x + box.width / 2, `true is left of the middle: ${JSON.stringify([t, box])}`);
  assert.ok(f.x + f.width / 2 > box.x + box.width / 2, `false is right of the middle: ${JSON.stringify([f, box])}`);
  // Each name is shown above its handle, inside the node.
  const [tl, fl] = await Promise.all([onTrue.locator('.handle-label').boundingBox(), onFalse.locator('.handle-label').boundingBox()]);
  assert.ok(tl.y + tl.height <= t.y && tl.y >= box.y, `the true label is above its handle: ${JSON.stringify([tl, t])}`);
  assert.ok(fl.y + fl.height <= f.y && fl.y >= box.y, `the false label is above its handle: ${JSON.stringify([fl, f])}`);
  await expect(flowNode(page, 'review').getByRole('img', { name: 'next branch of review' })).toHaveText('next');
  await expect(flowNode(page, 'yes').getByRole('img')).toHaveCount(0);
  await page.locator('.flow-canvas').screenshot({ path: join(shots, 'flow-handles.png') });
  await noCriticalViolations(page, 'flow handles');

  // The targets follow the handles: true's to the left of false's, whatever their ids, so the branches do not cross.
  const sides = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Sides',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', name: 'Start', policy: { baseId: policy.baseId }, onTrue: 'z', onFalse: 'a' },
        { id: 'z', type: 'return', returnValue: true },
        { id: 'a', type: 'return', returnValue: false },
      ],
    },
  });
  await page.goto(`${server.url}/console/flows/${sides.baseId}`);
  await expect(flowNode(page, 'z')).toBeVisible();
  const [z, a] = await Promise.all([flowNode(page, 'z').boundingBox(), flowNode(page, 'a').boundingBox()]);
  assert.ok(z.x + z.width <= a.x, `the true target is left of the false one: ${JSON.stringify([z, a])}`);
  await page.context().close();
});

test('arrow keys through a flow node’s types keep its settings: a type changed there and back gives the node back as it was', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Type arrows', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const nodes = [
    { id: 's', type: 'start', name: 'Start', policy: { baseId: policy.baseId }, onTrue: 'check', onFalse: 'no' },
    { id: 'check', type: 'policy', name: 'Check', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'no' },
    { id: 'yes', type: 'return', returnValue: true },
    { id: 'no', type: 'return', returnValue: false },
  ];
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Type arrows', definition: { formatVersion: 1, start: 's', nodes } });
  const stored = async (id) => (await rest(server.url, ADMIN_KEY, 'GET', `/flow/${flow.id}`)).definition.nodes.find((n) => n.id === id);
  // The save is answered a moment after its button is pressed: the stored node is waited for.
  const storedAs = (id, want) =>
    expect({
      toString: () => `the stored node ${id} as ${JSON.stringify(want)}`,
      count: async () => {
        try {
          assert.deepEqual(await stored(id), want);
          return 1;
        } catch {
          return 0;
        }
      },
    }).toHaveCount(1);
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(flowNode(page, 'no')).toBeVisible();
  const type = page.getByLabel('Type', { exact: true });

  // A return false node: up to Policy and down again, then down to Custom and up again.
  await page.getByLabel('Node', { exact: true }).selectOption('no');
  await type.focus();
  await page.keyboard.press('ArrowUp');
  await expect(type).toHaveValue('policy');
  await page.keyboard.press('ArrowDown');
  await expect(type).toHaveValue('return');
  await expect(page.getByLabel('Returns')).toHaveValue('false');
  await page.keyboard.press('ArrowDown');
  await expect(type).toHaveValue('custom');
  await expect(page.locator('#node-outcome')).toHaveValue('');
  await page.keyboard.press('ArrowUp');
  await expect(type).toHaveValue('return');
  await expect(page.getByLabel('Returns')).toHaveValue('false');

  // A policy node keeps its policy and branches through Return and Custom and back.
  await page.getByLabel('Node', { exact: true }).selectOption('check');
  await type.focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(type).toHaveValue('custom');
  await expect(page.getByLabel('Then go to')).toHaveValue('');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowUp');
  await expect(type).toHaveValue('policy');
  await expect(page.getByLabel('When true, go to')).toHaveValue('yes');
  await expect(page.getByLabel('When false, go to')).toHaveValue('no');
  await expect(page.getByTestId('node-policy')).not.toContainText('No policy yet');

  // Saved as a custom node, the node holds nothing a custom node cannot;
  // changed back in the same session, it returns false again.
  await page.getByLabel('Node', { exact: true }).selectOption('no');
  await type.selectOption('custom');
  await page.locator('#node-outcome').fill('manual review');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await storedAs('no', { id: 'no', type: 'custom', outcome: 'manual review' });
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
  assert.deepEqual(await stored('check'), nodes[1]);
  await type.selectOption('return');
  await expect(page.getByLabel('Returns')).toHaveValue('false');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await storedAs('no', { id: 'no', type: 'return', returnValue: false });
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
  await page.context().close();
});

test('a branch dragged from a handle connects when dropped anywhere on another node, which is outlined meanwhile', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Drop check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Drops',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', name: 'Start', policy: { baseId: policy.baseId } },
        { id: 'p', type: 'policy', name: 'Again', policy: { baseId: policy.baseId } },
        { id: 'no', type: 'return', returnValue: false },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(flowNode(page, 'no')).toBeVisible();
  await expect(page.locator('.react-flow__edge')).toHaveCount(0);
  // Each node's name for assistive technologies counts its problems in words of the right number.
  await expect(page.locator('.react-flow__node[data-id="no"]')).toHaveAttribute('aria-label', 'Return node Return false, 1 problem');
  await expect(page.locator('.react-flow__node[data-id="p"]')).toHaveAttribute('aria-label', 'Policy node Again, 3 problems');
  const center = (box) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const outlined = page.locator('.fnode:has(> .react-flow__handle.valid)');
  const drag = async (from, handle, to) => {
    const a = center(await flowNode(page, from).getByRole('img', { name: `${handle} branch of ${from}` }).boundingBox());
    const b = center(await flowNode(page, to).boundingBox());
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 12 });
  };
  // Over the middle of a node, far from its target dot, the node is outlined, and the drop connects it.
  await drag('s', 'true', 'p');
  await expect(outlined).toHaveCount(1);
  assert.equal(await outlined.getAttribute('data-testid'), 'flow-node-p');
  assert.equal(await flowNode(page, 'p').evaluate((el) => getComputedStyle(el).boxShadow), 'rgb(36, 84, 214) 0px 0px 0px 3px');
  await page.locator('.flow-canvas').screenshot({ path: join(shots, 'flow-drop.png') });
  await page.mouse.up();
  await expect(page.locator('.react-flow__edge.fedge-true')).toHaveCount(1);
  await expect(outlined).toHaveCount(0);
  await drag('p', 'false', 'no');
  await page.mouse.up();
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await selectNode(page, 's');
  await expect(page.getByLabel('When true, go to')).toHaveValue('p');
  await selectNode(page, 'p');
  await expect(page.getByLabel('When false, go to')).toHaveValue('no');
  // Dropped on the node it leaves from, a branch connects nothing.
  await drag('p', 'true', 'p');
  await expect(outlined).toHaveCount(0);
  await page.mouse.up();
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);
  await expect(page.getByLabel('When true, go to')).toHaveValue('');
  await page.context().close();
});

test('a flow of as many nodes as a flow may hold opens, its checks all failing to one return node', async () => {
  // Laid out with every branch, this chain would take dagre minutes: each
  // branch to the shared return node crosses every layer below its check.
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Long chain check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const checks = 998;
  const nodes = Array.from({ length: checks }, (_, i) => ({
    id: `c${i}`,
    type: i === 0 ? 'start' : 'policy',
    policy: { baseId: policy.baseId },
    onTrue: i + 1 < checks ? `c${i + 1}` : 'yes',
    onFalse: 'no',
  }));
  nodes.push({ id: 'yes', type: 'return', returnValue: true }, { id: 'no', type: 'return', returnValue: false });
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Long chain', definition: { formatVersion: 1, nodes } });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await page.waitForFunction((n) => document.querySelectorAll('.react-flow__node').length === n, nodes.length, { timeout: 120000, polling: 250 });
  await expect(flowNode(page, 'c0')).toBeVisible();
  await page.context().close();
});

/** A node's box and the graph canvas's, on the screen. */
async function nodeAndCanvas(page, id) {
  return { node: await flowNode(page, id).boundingBox(), canvas: await page.locator('.flow-canvas').boundingBox() };
}

/** Waits until the node is wholly on the graph's canvas, at a size that reads (three quarters of its width or more). */
async function expectInView(page, id) {
  await expect({
    toString: () => `node ${id} on the canvas`,
    count: async () => {
      const { node, canvas } = await nodeAndCanvas(page, id);
      const inside = node && node.x >= canvas.x && node.y >= canvas.y && node.x + node.width <= canvas.x + canvas.width && node.y + node.height <= canvas.y + canvas.height;
      return inside && node.width >= 230 * 0.75 ? 1 : 0;
    },
  }).toHaveCount(1);
}

test('a large flow opens on its start, and a node chosen off the graph, named by a problem or added is brought into view', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Far check', rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  // 35 checks in a chain, each failing to a return node of its own: 71 nodes, 35 layers deep.
  const checks = 35;
  const nodes = [];
  for (let i = 0; i < checks; i++) {
    nodes.push({ id: `c${i}`, type: i === 0 ? 'start' : 'policy', policy: { baseId: policy.baseId }, onTrue: i + 1 < checks ? `c${i + 1}` : 'yes', onFalse: `f${i}` });
    // One node far down has no policy: a problem shown on it alone.
    nodes.push(i === 30 ? { id: 'f30', type: 'policy', onTrue: 'yes', onFalse: 'yes' } : { id: `f${i}`, type: 'return', returnValue: false });
  }
  nodes.push({ id: 'yes', type: 'return', returnValue: true });
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Seventy-one nodes', definition: { formatVersion: 1, nodes } });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(page.locator('.react-flow__node')).toHaveCount(71);
  // It opens on the start node and its next nodes, readable, rather than on all of it at the smallest zoom.
  await expectInView(page, 'c0');
  await expectInView(page, 'c1');
  const far = await nodeAndCanvas(page, 'c34');
  assert.ok(far.node.y > far.canvas.y + far.canvas.height, `c34 is at ${JSON.stringify(far.node)}, in a canvas at ${JSON.stringify(far.canvas)}`);
  await page.screenshot({ path: join(shots, 'flow-large.png') });

  // A node clicked on the graph is selected where it is: the view stays.
  const viewport = page.locator('.react-flow__viewport');
  const before = await viewport.getAttribute('style');
  await flowNode(page, 'c1').locator('.fnode-title').click();
  await expect(page.getByRole('heading', { name: 'Node c1' })).toBeVisible();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  assert.equal(await viewport.getAttribute('style'), before);

  // Chosen from the Node list, a far node is brought into view.
  await selectNode(page, 'f33');
  await expectInView(page, 'f33');
  assert.ok((await nodeAndCanvas(page, 'c0')).node.y < (await nodeAndCanvas(page, 'c0')).canvas.y, 'the start node is out of view');

  // A node with problems is named in a list above the graph, which brings it into view.
  await expect(page.getByTestId('problem-count')).toContainText('shown on the nodes they concern');
  const problemNodes = page.getByRole('list', { name: 'Nodes with problems' });
  await expect(problemNodes.getByRole('button')).toHaveCount(1);
  await page.getByLabel('Node', { exact: true }).selectOption('c0');
  await expectInView(page, 'c0');
  await problemNodes.getByRole('button', { name: /^f30: \d+ (errors?|warnings?)( and \d+ warnings?)?$/ }).click();
  await expect(page.getByRole('heading', { name: 'Node f30' })).toBeVisible();
  await expectInView(page, 'f30');

  // A node added is placed by the layout and brought into view, wherever that is.
  await page.getByLabel('Node', { exact: true }).selectOption('yes');
  await expectInView(page, 'yes');
  await page.getByRole('button', { name: 'Add return node' }).click();
  await expect(page.getByRole('heading', { name: 'Node return-1' })).toBeVisible();
  await expectInView(page, 'return-1');
  await page.screenshot({ path: join(shots, 'flow-large-added.png') });
  await page.context().close();
});

test('the nested YAML and the editor graph forms of a definition open in the same view', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(server.url + '/console/flows/new');
  await page.getByLabel('Name', { exact: true }).fill('Imported');
  const open = async (text) => {
    await page.getByRole('button', { name: 'Open a definition…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a definition' });
    await dialog.getByLabel('Definition (YAML or JSON)').fill(text);
    await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  };
  await open(
    JSON.stringify({
      nodes: [
        { id: 'start-1', type: 'start', label: 'Is an adult', policyId: adult.baseId },
        { id: 'yes', type: 'return', returnValue: true },
        { id: 'no', type: 'return', returnValue: false },
      ],
      edges: [
        { source: 'start-1', target: 'yes', sourceHandle: 'true' },
        { source: 'start-1', target: 'no', sourceHandle: 'false' },
      ],
    }),
  );
  await expect(page.getByRole('heading', { name: 'Imported' })).toBeVisible();
  await expect(flowNode(page, 'start-1')).toContainText('Is an adult');
  await expect(flowNode(page, 'start-1')).toContainText('Adult');
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  await expect(page.locator('.react-flow__edge')).toHaveCount(2);

  // Opening another definition into the draft keeps an unsaved rename.
  await page.getByLabel('Name', { exact: true }).fill('Imported and renamed');
  await page.getByLabel('Description').fill('Not saved yet');
  await open(
    [
      'flow:',
      '  start:',
      '    - id: begin',
      '      type: start',
      `      policyId: ${adult.id}`,
      '      onTrue:',
      '        - id: approve',
      '          type: return',
      '          returnValue: true',
      '      onFalse:',
      '        - id: decline',
      '          type: return',
      '          returnValue: false',
      '',
    ].join('\n'),
  );
  await expect(flowNode(page, 'begin')).toContainText('Adult');
  await expect(flowNode(page, 'approve')).toContainText('Return true');
  await expect(page.locator('.react-flow__node')).toHaveCount(3);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Imported and renamed');
  await expect(page.getByLabel('Description')).toHaveValue('Not saved yet');
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  await page.getByLabel('Input (JSON)').fill('{"applicant": {"age": 12}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Flow result' })).toHaveText('Flow result: false');
  await expect(flowNode(page, 'decline')).toHaveClass(/\bfnode-path\b/);

  // A changed input is not what ran: no test is made of it until it runs.
  await expect(page.getByRole('button', { name: 'Add as test (expect false)' })).toBeVisible();
  await page.getByLabel('Input (JSON)').fill('{"applicant": {"age": 30}}');
  await expect(page.getByRole('button', { name: /^Add as test/ })).toHaveCount(0);
  await expect(page.getByTestId('run-stale')).toContainText('run again');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Flow result' })).toHaveText('Flow result: true');
  await page.getByRole('button', { name: 'Add as test (expect true)' }).click();
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  await expect(page.getByRole('table', { name: 'Tests' }).locator('tbody tr td').nth(1)).toHaveText('{"applicant":{"age":30}}');
  await page.context().close();
});

test('a definition the server refuses keeps the dialog open, with the text and why, and nothing else changes', async () => {
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Refused import',
    definition: { formatVersion: 1, start: 's', nodes: [{ id: 's', type: 'start' }, { id: 'yes', type: 'return', returnValue: true }] },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  const count = page.getByTestId('problem-count');
  await expect(count).toHaveText('2 errors and 2 warnings, shown on the nodes they concern.');
  const openDefinition = page.getByRole('button', { name: 'Open a definition…' });
  await openDefinition.click();
  const dialog = page.getByRole('dialog', { name: 'Open a definition' });
  const text = dialog.getByLabel('Definition (YAML or JSON)');
  await text.fill('not: [valid');
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText("Not opened: not valid YAML: line 1: did not find expected ',' or ']'");
  await expect(text).toHaveValue('not: [valid');
  await expect(text).toBeFocused();
  // Said once, in the dialog: the page keeps its problems and its summary.
  await expect(page.getByRole('alert')).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Problems of the flow' })).toHaveCount(0);
  await expect(count).toHaveText('2 errors and 2 warnings, shown on the nodes they concern.');
  // Corrected, it opens, and the dialog closes. A problem that concerns no node is listed above the graph, and the summary says so.
  await text.fill(JSON.stringify({ formatVersion: 1, nodes: [{ id: 'yes', type: 'return', returnValue: true }] }));
  await dialog.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(openDefinition).toBeFocused();
  await expect(page.getByRole('list', { name: 'Problems of the flow' })).toHaveText('Error: No start node found in the flow');
  await expect(count).toHaveText('1 error and 0 warnings, listed above.');
  await page.context().close();
});

test('an editor manages a group: creates, renames and describes it, adds and removes a policy and a flow, deletes it', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Groups', exact: true }).click();
  await page.getByRole('button', { name: 'New group' }).click();
  // The new group's form has an address of its own, as a new policy's has.
  await expect(addressOf(page)).toHaveText('/console/groups/new');
  await page.reload();
  await expect(page.getByRole('form', { name: 'New group' })).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('Lending');
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Lending' })).toBeVisible();

  await page.getByLabel('Name', { exact: true }).fill('Retail lending');
  await page.getByLabel('Description').fill('Everything a loan decision needs');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: 'Retail lending' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Group saved.');

  await page.getByLabel('Add a policy by name').fill('Adu');
  await page.getByRole('button', { name: 'Add Adult' }).click();
  const policies = page.getByRole('table', { name: 'Policies in the group' });
  await expect(policies.getByRole('link', { name: 'Adult' })).toBeVisible();
  await page.getByLabel('Add a flow by name').fill('Loan');
  await page.getByRole('button', { name: 'Add Loan' }).click();
  const flows = page.getByRole('table', { name: 'Flows in the group' });
  await expect(flows.getByRole('link', { name: 'Loan' })).toBeVisible();
  await page.screenshot({ path: join(shots, 'group.png'), fullPage: true });
  await noCriticalViolations(page, 'group');

  // The policy list filters by the group.
  await page.getByRole('link', { name: 'Policies', exact: true }).click();
  await chooseGroup(page, 'Retail lending');
  await expect(page.getByRole('table', { name: 'Policies' }).locator('tbody tr')).toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Policies' })).toContainText('Adult');
  await page.goBack();

  await policies.getByRole('button', { name: 'Remove Adult from the group' }).click();
  await expect(policies).toContainText('No policies you may see are in this group.');
  await expect(flows.getByRole('link', { name: 'Loan' })).toBeVisible();

  const deletedGroup = page.url();
  await page.getByRole('button', { name: 'Delete group' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete “Retail lending”' }).click();
  await expect(page.getByRole('heading', { name: 'Groups' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Groups' })).not.toContainText('Retail lending');
  // An address whose id is no id, or is the deleted group's, names no group.
  for (const address of [`${server.url}/console/groups/lending`, deletedGroup]) {
    await page.goto(address);
    await expect(page.getByRole('alert')).toHaveText('There is no such group: it was deleted, or it belongs to another organization.');
  }
  await page.context().close();
});

test('a group of many policies still offers those not in it, and says when there are none', async () => {
  const group = await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: 'Crowded' });
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  // The oldest of ten stays out of the group: the newest eight, which a
  // first page of a search finds, are all in it.
  await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Crowd member 0', rule });
  for (let i = 1; i <= 9; i++) {
    const p = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: `Crowd member ${i}`, rule });
    await rest(server.url, ADMIN_KEY, 'POST', `/group/${group.id}/member`, { kind: 'policy', baseId: p.baseId });
  }
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/groups/${group.id}`);
  await expect(page.getByRole('heading', { name: 'Crowded' })).toBeVisible();
  await page.getByLabel('Add a policy by name').fill('Crowd member');
  const offered = page.getByRole('list', { name: 'Policies to add' });
  await expect(offered.getByRole('button', { name: 'Add Crowd member 0' })).toBeVisible();
  await expect(offered.getByRole('button')).toHaveCount(1);
  await offered.getByRole('button', { name: 'Add Crowd member 0' }).click();
  await expect(page.getByRole('table', { name: 'Policies in the group' }).getByRole('link', { name: 'Crowd member 0' })).toBeVisible();
  await expect(page.getByText('No other policies match.')).toBeVisible();
  await expect(offered.getByRole('button')).toHaveCount(0);
  await page.context().close();
});

test('an admin adds a member, changes the role, removes the member, and cannot take the last admin away', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Members', exact: true }).click();
  await page.getByLabel('Email', { exact: true }).fill('nina@example.test');
  await page.getByLabel('Role', { exact: true }).selectOption('EDITOR');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('status')).toHaveText('nina@example.test joined as editor.');
  await page.getByLabel('Role of nina@example.test', { exact: true }).selectOption('PUBLISHER');
  await page.getByRole('button', { name: 'Change role of nina@example.test' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make publisher' }).click();
  await expect(page.getByRole('status')).toHaveText('nina@example.test is now publisher.');
  await expect(page.getByLabel('Role of nina@example.test', { exact: true })).toHaveValue('PUBLISHER');

  await page.getByLabel('Role of admin@localhost', { exact: true }).selectOption('VIEWER');
  await page.getByRole('button', { name: 'Change role of admin@localhost' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make viewer' }).click();
  await expect(page.getByRole('alert')).toContainText("is the organization's last admin; make another member admin first");
  await expect(page.getByLabel('Role of admin@localhost', { exact: true })).toHaveValue('ADMIN');
  await page.getByRole('button', { name: 'Remove admin@localhost' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove admin@localhost' }).click();
  await expect(page.getByRole('alert')).toContainText("is the organization's last admin; make another member admin first");
  await page.screenshot({ path: join(shots, 'members.png'), fullPage: true });
  await noCriticalViolations(page, 'members');

  await page.getByRole('button', { name: 'Remove nina@example.test' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove nina@example.test' }).click();
  await expect(page.getByRole('status')).toContainText('nina@example.test left the organization');
  await expect(page.getByRole('table', { name: 'Members' })).not.toContainText('nina@example.test');
  await page.context().close();
});

test('arrow keys on a member’s role only stage it: the role changes once confirmed, Escape and Cancel keep it, and demoting yourself says so', async () => {
  const added = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: 'arrow@example.test', role: 'publisher' });
  const storedRole = async (email) =>
    (await rest(server.url, ADMIN_KEY, 'GET', `/admin/members?q=${encodeURIComponent(email)}`)).items.find((m) => m.user.email === email).role;
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/admin/members`);
  const select = page.getByLabel('Role of arrow@example.test', { exact: true });
  await expect(select).toHaveValue('PUBLISHER');

  // Three arrows down a closed select change nothing on the server.
  await select.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('AUDITOR');
  const change = page.getByRole('button', { name: 'Change role of arrow@example.test' });
  await expect(change).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  assert.equal(await storedRole('arrow@example.test'), 'publisher');
  // Escape on the select puts the current role back.
  await page.keyboard.press('Escape');
  await expect(select).toHaveValue('PUBLISHER');
  await expect(change).toHaveCount(0);
  await expect(select).toBeFocused();

  // One arrow down, then Change role, confirmed by keyboard.
  await page.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('ADMIN');
  await page.keyboard.press('Tab');
  await expect(change).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Make arrow@example.test admin?' });
  await expect(dialog).toContainText('arrow@example.test goes from publisher to admin.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Make admin' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('arrow@example.test is now admin.');
  await expect(select).toHaveValue('ADMIN');
  await expect(select).toBeFocused();
  assert.equal(await storedRole('arrow@example.test'), 'admin');

  // Cancel keeps the role, and focus goes back to the select.
  await select.selectOption('VIEWER');
  await change.click();
  await expect(page.getByRole('dialog', { name: 'Make arrow@example.test viewer?' })).toContainText('goes from admin to viewer.');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(select).toHaveValue('ADMIN');
  await expect(select).toBeFocused();

  // An admin arrowing through their own row is asked, and told it is their own role.
  const own = page.getByLabel('Role of admin@localhost', { exact: true });
  await own.focus();
  await page.keyboard.press('ArrowDown');
  await expect(own).toHaveValue('AUDITOR');
  assert.equal(await storedRole('admin@localhost'), 'admin');
  await page.getByRole('button', { name: 'Change role of admin@localhost' }).click();
  const self = page.getByRole('dialog', { name: 'Make admin@localhost auditor?' });
  await expect(self).toContainText('This is your own role: you demote yourself');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(own).toHaveValue('ADMIN');
  await expect(own).toBeFocused();
  assert.equal(await storedRole('admin@localhost'), 'admin');
  await rest(server.url, ADMIN_KEY, 'DELETE', `/admin/members/${added.user.id}`);
  await page.context().close();
});

test('an admin creates a key, copies it, signs in with it in a new page, and revokes it', async () => {
  const page = await newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  await page.getByLabel('Name', { exact: true }).fill('deploy');
  await page.getByLabel('Scope').selectOption('EDIT');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByTestId('new-secret');
  await expect(page.getByRole('region', { name: 'The key “deploy”' })).toContainText('this is the only time it is shown');
  await page.getByRole('button', { name: 'Copy key' }).click();
  await expect(page.getByRole('status')).toHaveText('Copied to the clipboard.');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await secret.textContent());
  assert.match(copied, /^\S{20,}$/);
  await expect(page.getByRole('table', { name: 'Keys' }).getByRole('row', { name: /deploy/ })).toContainText('Active');
  await page.screenshot({ path: join(shots, 'keys.png'), fullPage: true });
  await noCriticalViolations(page, 'keys');

  const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const second = await other.newPage();
  await second.goto(server.url + '/console/');
  await second.getByLabel('API key').fill(copied);
  await second.getByRole('button', { name: 'Sign in' }).click();
  await expect(second.getByTestId('who')).toContainText('Organization key “deploy”');
  await expect(second.getByTestId('who')).toContainText('Editor');

  await page.getByRole('button', { name: 'Revoke deploy' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke “deploy”' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'is revoked' })).toContainText('The key “deploy” is revoked');
  await expect(page.getByRole('table', { name: 'Keys' }).getByRole('row', { name: /deploy/ })).toContainText('Revoked');

  await second.getByRole('link', { name: 'Flows', exact: true }).click();
  // An organization key's unsaved text comes back to no other key.
  await expect(second.getByRole('alert')).toHaveText(/no longer accepted.*not kept for another/);
  await other.close();

  // The playground opens with the signed-in key in its headers.
  const link = page.getByRole('link', { name: 'GraphQL playground' });
  await expect(link).toHaveAttribute('href', `/playground?key=${ADMIN_KEY}`);
  const playground = await page.context().newPage();
  await playground.goto(server.url + (await link.getAttribute('href')));
  await expect(playground.locator('body')).toContainText(ADMIN_KEY);
  await page.context().close();
});

test('focus stays on the page through Create key, its Done, and Add member: on the new key’s Copy button, then Create key, then Add member', async () => {
  const page = await newPage();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/admin/keys`);
  await page.getByLabel('Name', { exact: true }).fill('focus kept');
  const create = page.getByRole('button', { name: 'Create key' });
  await create.focus();
  await page.keyboard.press('Enter');
  const region = page.getByRole('region', { name: 'The key “focus kept”' });
  await expect(region).toBeVisible();
  const copy = region.getByRole('button', { name: 'Copy key' });
  await expect(copy).toBeFocused();
  // The button names what it copies and says it is shown this once.
  const description = await copy.evaluate((el) =>
    el.getAttribute('aria-describedby').split(' ').map((id) => document.getElementById(id).textContent).join(' '),
  );
  assert.match(description, /^The key “focus kept” Copy the key now: this is the only time it is shown\./);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Copied to the clipboard.');
  await page.keyboard.press('Tab');
  await expect(region.getByRole('button', { name: 'Done' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(region).toHaveCount(0);
  await expect(create).toBeFocused();
  // Its name emptied, Create key is marked disabled and does nothing.
  await expect(create).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('region', { name: /^The key/ })).toHaveCount(0);

  await page.goto(`${server.url}/console/admin/members`);
  await page.getByLabel('Email', { exact: true }).fill('focus-kept@example.test');
  const add = page.getByRole('button', { name: 'Add member' });
  await add.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('focus-kept@example.test joined as viewer.');
  await expect(page.getByRole('table', { name: 'Members' })).toContainText('focus-kept@example.test');
  await expect(add).toBeFocused();
  await expect(add).toHaveAttribute('aria-disabled', 'true');
  await page.context().close();
});

test('a key revoked or a member removed leaves focus on the next row’s button, or on the page when none is left', async () => {
  for (const name of ['tidy-1', 'tidy-2', 'tidy-3']) await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name, scope: 'view' });
  for (const email of ['tidy-a@example.test', 'tidy-b@example.test']) await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email, role: 'viewer' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  // Confirmed by keyboard: Enter on the button, Tab from Cancel to the confirmation, Enter.
  const confirm = async (label) => {
    await page.getByRole('button', { name: label, exact: true }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(dialog).toHaveCount(0);
  };
  const labels = (buttons) => buttons.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));

  // A revoked key stays listed, without its Revoke button.
  await page.goto(`${server.url}/console/admin/keys?q=tidy-`);
  const revoke = page.getByRole('table', { name: 'Keys' }).getByRole('button', { name: /^Revoke tidy-/ });
  await expect(revoke).toHaveCount(3);
  const keys = await labels(revoke);
  await confirm(keys[1]);
  await expect(revoke).toHaveCount(2);
  await expect(page.getByRole('button', { name: keys[2], exact: true })).toBeFocused();
  await confirm(keys[2]);
  await expect(revoke).toHaveCount(1);
  await expect(page.getByRole('button', { name: keys[0], exact: true })).toBeFocused();
  await confirm(keys[0]);
  await expect(revoke).toHaveCount(0);
  await expect(page.locator('main')).toBeFocused();

  // A removed member leaves the list.
  await page.goto(`${server.url}/console/admin/members?q=tidy-`);
  const remove = page.getByRole('table', { name: 'Members' }).getByRole('button', { name: /^Remove tidy-/ });
  await expect(remove).toHaveCount(2);
  const members = await labels(remove);
  await confirm(members[0]);
  await expect(remove).toHaveCount(1);
  await expect(page.getByRole('button', { name: members[1], exact: true })).toBeFocused();
  await confirm(members[1]);
  await expect(remove).toHaveCount(0);
  await expect(page.locator('main')).toBeFocused();
  await page.context().close();
});

test('an auditor reads the audit log filtered by action and sees no edit controls anywhere', async () => {
  const auditor = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: 'audrey@example.test', role: 'auditor' });
  const key = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'audrey', scope: 'view', userId: auditor.user.id });
  const page = await newPage();
  await signIn(page, key.secret);
  await expect(page.getByTestId('who')).toContainText('Auditor');
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await expect(nav.getByRole('link', { name: 'Audit log' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Members' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Keys' })).toHaveCount(0);

  const editControls = /^(New policy|New flow|New group|Create draft|Save draft|Publish|Delete|Delete group|Run|Add policy node|Add return node|Add custom node|Open a definition…|Change policy|Choose a policy|Save changes|Remove.*|Add .*|New draft from .*)$/;
  const noEditControls = async (screen) => {
    const names = await page.getByRole('button').evaluateAll((els) => els.map((e) => (e.getAttribute('aria-label') || e.textContent).trim()));
    assert.deepEqual(names.filter((n) => editControls.test(n)), [], `edit controls on ${screen}`);
    const inputs = await page.locator('input:not([type=search]):not([type=checkbox]):not([readonly]):not(#list-group):not([id^=audit]), select:not([disabled]):not(#record-pick):not(#node-pick):not([id^=audit]):not([id^=pick])').count();
    assert.equal(inputs, 0, `editable fields on ${screen}`);
  };
  await noEditControls('policies');
  await page.getByRole('link', { name: 'Adult' }).click();
  await expect(page.getByRole('heading', { name: 'Adult' })).toBeVisible();
  await noEditControls('a policy');
  await nav.getByRole('link', { name: 'Flows' }).click();
  await noEditControls('flows');
  await page.getByRole('link', { name: 'Loan' }).click();
  await expect(page.getByRole('heading', { name: 'Loan' })).toBeVisible();
  await expect(flowNode(page, 'policy-1')).toBeVisible();
  await noEditControls('a flow');
  await page.getByRole('tab', { name: /Versions/ }).click();
  await noEditControls('a flow’s versions');

  // The flow's own history.
  const loan = new URL(page.url()).pathname.split('/')[3];
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expect(page.getByLabel('Policy or flow (base id)')).toHaveValue(loan);
  // Each event is about the flow, by the name its creation recorded.
  const rows = page.getByRole('table', { name: 'Audit events' }).locator('tbody tr');
  const about = rows.locator('td:nth-child(4) a');
  await expect(about.first()).toHaveText('Loan');
  await expect(about).toHaveCount(await rows.count());
  for (const link of await about.all()) {
    assert.equal(await link.textContent(), 'Loan');
    assert.equal(await link.getAttribute('href'), `/console/flows/${loan}`);
    assert.equal(await link.getAttribute('title'), `Flow ${loan}`);
  }

  await nav.getByRole('link', { name: 'Groups' }).click();
  await noEditControls('groups');

  await nav.getByRole('link', { name: 'Audit log' }).click();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByLabel('Action').selectOption('PUBLISHED');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  const table = page.getByRole('table', { name: 'Audit events' });
  // Versions 1 and 2 of Senior discount, Adult, Income, Short-lived, and
  // versions 1, 2 and 3 (the rollback to 1) of Loan.
  await expect(table.locator('tbody tr')).toHaveCount(8);
  for (const text of await table.locator('tbody tr td:nth-child(2)').allTextContents()) assert.equal(text, 'Published');
  await table.getByRole('button', { name: 'Details' }).first().click();
  await expect(table.locator('pre.json')).toBeVisible();
  await page.screenshot({ path: join(shots, 'audit.png'), fullPage: true });
  await noCriticalViolations(page, 'audit log');
  await noEditControls('the audit log');

  // A refused filter lists nothing, not the rows of the filter before it.
  await page.getByLabel('Policy or flow (base id)').fill('not an id');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(table.locator('tbody tr')).toHaveCount(0);
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('From').fill('2026-02-01T00:00');
  await page.getByLabel('Until').fill('2026-01-01T00:00');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(page.getByRole('alert')).toHaveText('Until must be later than From.');
  await expect(table.locator('tbody tr')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next page' })).not.toBeEnabled();
  // An address written by hand: an action in lower case is the one it names,
  // one the log does not have is refused in words, not GraphQL's.
  await page.goto(server.url + '/console/audit?action=published');
  await expect(page.getByLabel('Action')).toHaveValue('PUBLISHED');
  await expect(table.locator('tbody tr')).toHaveCount(8);
  await page.goto(server.url + '/console/audit?kind=nonsense');
  await expect(page.getByRole('alert')).toHaveText('The address asks for the kind “nonsense”, which the audit log does not have; choose one under Kind.');
  await expect(table.locator('tbody tr')).toHaveCount(0);
  // Administration is not offered, even by its address.
  await page.goto(server.url + '/console/admin/keys');
  await expect(page.getByRole('heading', { name: 'Not for your role' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('an address written by hand with a time that is not one, or a page its list did not give out, is refused in words', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  const events = page.getByRole('table', { name: 'Audit events' });
  // Refused before any request, as the server would, in the words of the form's fields.
  await page.goto(server.url + '/console/audit?since=garbage');
  await expect(page.getByRole('alert')).toHaveText(
    'The address’s From time “garbage” is not a time: an address writes one as 2027-01-31T09:30:00Z, in UTC, or with its offset from UTC as 2027-01-31T10:30:00+01:00; choose one under From.',
  );
  await expect(events.locator('tbody tr')).toHaveCount(0);
  // The browser would read 30 February as 2 March; the server takes no such day.
  await page.goto(server.url + '/console/audit?until=2027-02-30T00:00:00Z');
  await expect(page.getByRole('alert')).toHaveText(/^The address’s Until time “2027-02-30T00:00:00Z” is not a time: .*; choose one under Until\.$/);
  await expect(events.locator('tbody tr')).toHaveCount(0);
  // Nor an offset of 99 minutes or 25 hours.
  for (const offset of ['%2B01:99', '-25:00']) {
    await page.goto(`${server.url}/console/audit?since=2000-01-01T01:00:00${offset}`);
    await expect(page.getByRole('alert')).toHaveText(/^The address’s From time “2000-01-01T01:00:00[+-]\d\d:\d\d” is not a time: /);
    await expect(events.locator('tbody tr')).toHaveCount(0);
  }
  await page.goto(server.url + '/console/audit?since=2000-01-01T01:00:00%2B01:00');
  await expect(events.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // A page the list did not give out: the first page is offered, with the address's filters.
  for (const [address, table, kept] of [
    ['audit?kind=policy&after=garbage', 'Audit events', '?kind=policy'],
    ['policies?q=e&after=garbage', 'Policies', '?q=e'],
    ['flows?after=garbage', 'Flows', ''],
  ]) {
    await page.goto(`${server.url}/console/${address}`);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('The address asks for a page this list did not give out');
    await expect(page.getByRole('table', { name: table }).locator('tbody tr')).toHaveCount(0);
    await alert.getByRole('button', { name: 'Go to the first page' }).click();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('table', { name: table }).locator('tbody tr').first()).toBeVisible();
    assert.equal(new URL(page.url()).search, kept, address);
    await expect(page.locator('main')).toBeFocused();
  }
  await page.context().close();
});

test('the audit log names the actors and what the events are about, with their ids at hand', async () => {
  const mia = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: 'mia@example.test', role: 'editor' });
  const miaKey = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'mia', scope: 'edit', userId: mia.user.id });
  const robot = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'robot', scope: 'edit' });
  const policy = await rest(server.url, miaKey.secret, 'POST', '/policy', {
    name: 'Mia’s rule',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 18.',
  });
  const group = await rest(server.url, robot.secret, 'POST', '/group', { name: 'Robots' });

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit log' }).click();
  const events = page.getByRole('table', { name: 'Audit events' });
  const row = (about) => events.locator('tbody tr').filter({ has: page.locator('td:nth-child(4)', { hasText: new RegExp(`^${about}$`) }) }).first();

  // Named by looking the members and keys up, and by what the events recorded.
  const created = row('Mia’s rule');
  await expect(created.locator('td:nth-child(2)')).toHaveText('Created');
  await expect(created.getByRole('link', { name: 'Mia’s rule' })).toHaveAttribute('title', `Policy ${policy.baseId}`);
  await expect(created.locator('td:nth-child(5)')).toHaveText('mia@example.test');
  await expect(created.getByRole('link', { name: 'mia@example.test' })).toHaveAttribute('title', `User ${mia.user.id}: show only their events`);
  const grouped = row('Robots');
  await expect(grouped.getByRole('link', { name: 'Robots' })).toHaveAttribute('href', `/console/groups/${group.id}`);
  await expect(grouped.locator('td:nth-child(5)')).toHaveText('Key “robot”');
  await expect(grouped.getByRole('link', { name: 'Key “robot”' })).toHaveAttribute('title', `Key ${robot.id}: show only their events`);
  const added = row('mia@example.test');
  // A member's and a key's events say what changed, where their action, edited, would not.
  await expect(added.locator('td:nth-child(2)')).toHaveText('Added');
  await expect(row('robot').locator('td:nth-child(2)')).toHaveText('Created');
  await expect(added.locator('td:nth-child(3)')).toHaveText('Member');
  await expect(added.locator('td:nth-child(4) span')).toHaveAttribute('title', `User ${mia.user.id}`);
  await expect(added.locator('td:nth-child(5)')).toHaveText('you');
  await expect(row('robot').locator('td:nth-child(3)')).toHaveText('Key');
  await expect(row('robot').locator('td:nth-child(4) span')).toHaveAttribute('title', `Key ${robot.id}`);
  // The details show the actor's id.
  await grouped.getByRole('button', { name: 'Details' }).click();
  await expect(events.locator('dl.details')).toContainText(robot.id);
  await noCriticalViolations(page, 'audit log with names');

  // An actor's link lists their events alone.
  await created.getByRole('link', { name: 'mia@example.test' }).click();
  await expect(page.getByLabel('Actor (user or key id)')).toHaveValue(mia.user.id);
  await expect(events.locator('tbody tr')).toHaveCount(1);
  await expect(events.locator('tbody tr td:nth-child(4)')).toHaveText('Mia’s rule');
  await page.goBack();
  await expect(page.getByLabel('Actor (user or key id)')).toHaveValue('');

  // The first start's admin and key are the operator's, who is neither a
  // user nor a key: shown as such, with a link to the operator's events.
  const nobody = '00000000-0000-0000-0000-000000000000';
  await page.getByLabel('Actor (user or key id)').fill(nobody);
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(events.locator('tbody tr')).toHaveCount(2);
  assert.deepEqual(await events.locator('tbody tr td:nth-child(2)').allTextContents(), ['Created', 'Added']);
  assert.deepEqual(await events.locator('tbody tr td:nth-child(4)').allTextContents(), ['bootstrap', 'admin@localhost']);
  for (const actor of await events.locator('tbody tr td:nth-child(5) a').all()) {
    assert.equal(await actor.textContent(), 'Operator');
    assert.equal(await actor.getAttribute('href'), `/console/audit?actor=${nobody}`);
  }
  await noCriticalViolations(page, 'audit log of the operator');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('publishing shows the draft replayed on the recorded decisions, and a publisher rolls back to an earlier version', async () => {
  const rule = (age) => `A **Person** gets loyalty_bonus if the __age__ of the **Person** is at least ${age}.`;
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Loyalty bonus', rule: rule(65) });
  const v1 = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${v1.baseId}/decision-records`, { enabled: true });
  for (const age of [70, 67, 30]) {
    await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${v1.baseId}`, { data: { Person: { age } } });
  }
  // Records are stored after the answer; wait until all three are.
  await expect({
    toString: () => 'the recorded decisions',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.length,
  }).toHaveCount(3);
  const recorded = (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items;
  const flipped = recorded.find((d) => d.data.Person.age === 67);
  assert.ok(flipped, 'the 67-year-old\'s decision is recorded');

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Loyalty bonus' }).click();
  await page.getByRole('button', { name: 'New draft from version 1' }).click();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await replaceEditorText(page, 'Rule text', rule(68));
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 67}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('button', { name: 'Add as test (expect false)' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test “Sample 1” saved' })).toBeVisible();
  // The rule edited above is unsaved until the dialog opens; cancelling it
  // leaves the draft saved, with nothing more to save.
  await expect(page.getByRole('button', { name: 'Save draft' })).toBeEnabled();
  await cancelPublish(page);
  const draftId = new URL(page.url()).searchParams.get('record');
  assert.match((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draftId}`)).rule, /is at least 68\./);
  await publish(page, async (dialog) => {
    await expect(dialog.getByTestId('replay-compared')).toHaveText('3');
    await expect(dialog.getByTestId('replay-changed')).toHaveText('1');
    await expect(dialog.getByTestId('replay-unchanged')).toHaveText('2');
    await expect(dialog.getByTestId('replay-errors')).toHaveText('0');
    const changed = dialog.getByRole('table', { name: 'Decisions that change' }).locator('tbody tr');
    await expect(changed).toHaveCount(1);
    await expect(changed.locator('td').nth(0)).toContainText(flipped.id);
    await expect(changed.locator('td').nth(1)).toContainText('true:');
    await expect(changed.locator('td').nth(2)).toContainText('false:');
    // On a phone the columns stand one under another, each cell inside the dialog.
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await dialog.boundingBox();
    for (const cell of await changed.locator('td').all()) {
      const at = await cell.boundingBox();
      assert.ok(at.x >= box.x && at.x + at.width <= box.x + box.width, `a cell at ${JSON.stringify(at)} in a dialog at ${JSON.stringify(box)}`);
    }
    await page.screenshot({ path: join(shots, 'publish-replay-phone.png') });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: join(shots, 'publish-replay.png') });
    await noCriticalViolations(page, 'publish dialog with changes');
    await noSeriousViolationsInDialog(page, 'publish dialog with changes');
  });
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');
  await expect(page.getByRole('status').filter({ hasText: 'Published' })).toHaveText('Published as version 2.');
  // The latest version is nothing to roll back to.
  await expect(page.getByRole('button', { name: 'Roll back to this version' })).toHaveCount(0);

  // The server's comparison: version 2 added the test; the schema is compared too.
  await page.getByRole('link', { name: 'Compare with version 1' }).click();
  const testChanges = page.getByRole('table', { name: 'Test changes' }).locator('tbody tr');
  await expect(testChanges).toHaveCount(1);
  await expect(testChanges.locator('td').nth(0)).toHaveText('Sample 1');
  await expect(testChanges.locator('td').nth(1)).toHaveText('added');
  await expect(testChanges.locator('td').nth(3)).toHaveText('expect false: {"Person":{"age":67}}');
  await expect(page.getByRole('region', { name: 'Schema' })).toBeVisible();
  await noCriticalViolations(page, 'compare with server diff');
  await page.getByRole('link', { name: 'Loyalty bonus' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');

  // An editor may start a draft from version 1 but not roll back to it.
  const editorKey = (await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'loyalty editor', scope: 'edit' })).secret;
  const editor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const editorPage = await editor.newPage();
  await signIn(editorPage, editorKey);
  await editorPage.getByRole('link', { name: 'Loyalty bonus' }).click();
  await editorPage.getByLabel('Record').selectOption({ label: 'Version 1' });
  await expect(editorPage.getByRole('button', { name: 'New draft from version 1' })).toBeVisible();
  await expect(editorPage.getByRole('button', { name: 'Roll back to this version' })).toHaveCount(0);
  await editor.close();

  // The admin rolls back to version 1: version 3 holds its rule again.
  await page.getByLabel('Record').selectOption({ label: 'Version 1' });
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  // It asks first, saying what will happen; Cancel publishes nothing.
  await page.getByRole('button', { name: 'Roll back to this version' }).click();
  const confirm = page.getByRole('dialog', { name: 'Roll back to version 1?' });
  await expect(confirm).toContainText('published again, at once, as version 3, which is then what runs in place of version 2');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Versions (2)' })).toBeVisible();
  await page.getByRole('button', { name: 'Roll back to this version' }).click();
  await confirm.getByRole('button', { name: 'Publish version 1 again' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 3');
  await expect(page.getByRole('status').filter({ hasText: 'published again' })).toHaveText('Version 1 published again as version 3.');
  await expect(editorContent(page, 'Rule text')).toContainText('is at least 65.');
  await expect(page.getByRole('tab', { name: 'Versions (3)' })).toBeVisible();
  await noCriticalViolations(page, 'rolled back version');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a save of a draft published meanwhile says so in words, and loads the version it became', async () => {
  const first = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Published under me',
    rule: 'A **Person** is an adult if the __age__ of the **Person** is at least 18.',
  });
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${first.id}`, { status: 'published' });
  const draft = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${first.id}/draft`);
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${draft.baseId}`);
  await expect(page.getByLabel('Name')).toHaveValue('Published under me');
  await expect(page.getByRole('tab', { name: 'Versions (1)' })).toBeVisible();
  // Another tab publishes the draft this page edits.
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
  await page.getByLabel('Name').fill('Published under me, renamed');
  await page.keyboard.press('Control+s');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('This draft was published meanwhile, as version 2: your changes are not saved.');
  await expect(alert).not.toContainText(draft.id);
  await expect(page.getByLabel('Name')).toHaveValue('Published under me, renamed');
  assert.equal((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${draft.id}`)).name, 'Published under me');
  // Loading it shows the version as it is, with nothing left to save.
  await alert.getByRole('button', { name: 'Load the published version' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');
  await expect(page.getByLabel('Name')).toHaveValue('Published under me');
  await expect(page.getByRole('tab', { name: 'Versions (2)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  assert.equal(await page.evaluate((id) => sessionStorage.getItem(`verdict.draft.${id}`), draft.id), null);
  await page.context().close();
});

test('a flow draft published meanwhile, with a new draft since, is refused in words for a publish and a save', async () => {
  const policy = await publishedPolicy('Published flow check', 'A **Person** is an adult if the __age__ of the **Person** is at least 18.');
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Flow published under me',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'yes' },
        { id: 'yes', type: 'return', returnValue: true },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Flow published under me');
  // Another tab publishes the draft, then starts a new one from the version.
  await rest(server.url, ADMIN_KEY, 'PUT', `/flow/${flow.id}`, { status: 'published' });
  const next = await rest(server.url, ADMIN_KEY, 'GET', `/flow/${flow.id}/draft`);
  await publish(page);
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Not published: this draft was published meanwhile, as version 1.');
  await page.getByLabel('Name', { exact: true }).fill('Flow published under me, renamed');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(alert).toContainText('This draft was published meanwhile, as version 1: your changes are not saved.');
  await expect(alert).not.toContainText(next.id);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Flow published under me, renamed');
  // The version opens, not the draft made since.
  await alert.getByRole('button', { name: 'Load the published version' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Flow published under me');
  await expect(page.getByRole('button', { name: 'Save draft' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  assert.equal(new URL(page.url()).searchParams.get('record'), flow.id);
  for (const id of [flow.id, next.id]) assert.equal((await rest(server.url, ADMIN_KEY, 'GET', `/flow/${id}`)).name, 'Flow published under me');
  await page.context().close();
});

test('focus returns to the control that opened a dialog or an edit row, and to the page when that control is gone', async () => {
  const v1 = await publishedPolicy('Focus keeper', 'A **Person** is kept in focus if the __age__ of the **Person** is at least 18.');
  const draft = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/draft`);
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'draft', tests: [{ name: 'an adult', data: { Person: { age: 30 } }, expect: true }] });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${v1.baseId}?record=${draft.id}`);
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();

  // Publish, cancelled with the mouse, then opened and cancelled by keyboard.
  const publishButton = page.getByRole('button', { name: 'Publish', exact: true });
  const dialog = page.getByRole('dialog', { name: /^Publish “/ });
  await publishButton.click();
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(publishButton).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(publishButton).toBeFocused();

  // A test's edit row closed with Escape: focus is on its Edit button again.
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  const edit = page.getByRole('button', { name: 'Edit test an adult' });
  await edit.click();
  await expect(page.locator('#test-edit-name')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(edit).toBeFocused();

  // Published, the draft's Publish button is gone: focus is on the page's main region.
  await publishButton.click();
  await expect(dialog.getByTestId('replay')).toHaveAttribute('aria-busy', 'false');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');
  await expect(page.locator('main')).toBeFocused();

  // Roll back and Delete, cancelled with Escape.
  await page.getByLabel('Record').selectOption({ label: 'Version 1' });
  const rollBack = page.getByRole('button', { name: 'Roll back to this version' });
  await rollBack.click();
  await expect(page.getByRole('dialog', { name: 'Roll back to version 1?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(rollBack).toBeFocused();
  const remove = page.getByRole('button', { name: 'Delete', exact: true });
  await remove.click();
  await expect(page.getByRole('dialog', { name: 'Delete the policy “Focus keeper”?' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(remove).toBeFocused();

  // A flow's Open a definition…, cancelled with Escape.
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Focus flow',
    definition: { formatVersion: 1, start: 's', nodes: [{ id: 's', type: 'start', policy: { baseId: v1.baseId }, onTrue: 'yes', onFalse: 'yes' }, { id: 'yes', type: 'return', returnValue: true }] },
  });
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  const openDefinition = page.getByRole('button', { name: 'Open a definition…' });
  await openDefinition.click();
  await expect(page.getByRole('dialog', { name: 'Open a definition' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(openDefinition).toBeFocused();

  // A group's "+ policy" button leaves once the policy is added: focus goes back to the search, for the next.
  const group = await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: 'Focus group' });
  await page.goto(`${server.url}/console/groups/${group.id}`);
  const search = page.getByLabel('Add a policy by name');
  await search.fill('Focus keeper');
  await page.getByRole('list', { name: 'Policies to add' }).getByRole('button', { name: /^Add Focus keeper/ }).click();
  await expect(page.getByRole('table', { name: 'Policies in the group' }).getByRole('link', { name: 'Focus keeper' })).toBeVisible();
  await expect(search).toBeFocused();
  await page.context().close();
});

test('the Decisions tab turns recording on, masks a path, lists the recorded runs and opens one with its run done again', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Pension check',
    rule: 'A **Person** gets a pension if the __age__ of the **Person** is at least 67.',
  });
  const v1 = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
  const settings = () => rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/decision-records`);

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Pension check' }).click();
  await page.getByRole('tab', { name: 'Decisions' }).click();
  const enabled = page.getByLabel('Record the stored runs of this policy');
  const share = page.getByLabel('Share of runs recorded (%)');
  const mask = page.getByLabel('Masked paths, one a line');
  const save = page.getByRole('button', { name: 'Save recording' });
  await expect(share).toHaveValue('100');
  assert.equal(await enabled.isChecked(), false);
  await expect(save).not.toBeEnabled();
  const rows = page.getByRole('table', { name: 'Recorded decisions' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('No recorded decision.');

  // A share the server would refuse is refused here, and nothing is saved.
  await enabled.check();
  await share.fill('150');
  await save.click();
  await expect(page.getByRole('alert')).toHaveText('The share of runs recorded must be a number greater than 0 and at most 100.');
  assert.equal((await settings()).enabled, false);
  // A path the server refuses: its words, and nothing is saved either.
  await share.fill('100');
  await mask.fill('Person.ssn');
  await save.click();
  await expect(page.getByRole('alert')).toContainText('mask path "Person.ssn" must start with $. and name a member');
  assert.equal((await settings()).enabled, false);

  await mask.fill('$.Person.ssn\n');
  await save.click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved: stored runs are recorded.' })).toBeVisible();
  assert.deepEqual(await settings(), { baseId: v1.baseId, enabled: true, sampleRate: 1, mask: ['$.Person.ssn'] });
  await expect(save).not.toBeEnabled();

  for (const age of [70, 30]) {
    await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${v1.baseId}`, { data: { Person: { age, ssn: `ssn-${age}` } } });
  }
  // Records are stored after the answer; Refresh reads them once they are.
  await expect({
    toString: () => 'the recorded decisions',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.length,
  }).toHaveCount(2);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(rows).toHaveCount(2);
  // Newest first: the run of 30 leads.
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('false');
  await expect(rows.nth(0).locator('td').nth(2)).toHaveText('Version 1');
  await expect(rows.nth(0).locator('td').nth(3)).toHaveText('admin@localhost');
  await expect(rows.nth(1).locator('td').nth(1)).toHaveText('true');

  await page.getByLabel('Result').selectOption('true');
  await expect(rows).toHaveCount(1);
  await expect(rows.locator('td').nth(1)).toHaveText('true');
  await rows.getByRole('button', { name: 'Open' }).click();
  const details = page.getByRole('region', { name: /^Decision / });
  await expect(details.locator('pre.json')).toContainText('"ssn": "[masked]"');
  await expect(details.locator('pre.json')).toContainText('"age": 70');
  await expect(details).toContainText('Person gets a pension: yes');
  await expect(details.locator('.verdict')).toContainText('Result: true');
  await expect(details.locator('.trace-card')).toHaveCount(1);
  // The record that ran is named as the table names it, and links to it.
  await expect(details.getByRole('link', { name: 'Version 1', exact: true })).toHaveAttribute('href', `/console/policies/${v1.baseId}?record=${v1.id}`);
  await page.screenshot({ path: join(shots, 'decisions.png'), fullPage: true });
  await noCriticalViolations(page, 'decisions tab');
  await page.getByLabel('Result').selectOption('false');
  await expect(rows).toHaveCount(1);
  await expect(rows.locator('td').nth(1)).toHaveText('false');
  // A time range narrows them too; one the server refuses says why.
  await page.getByLabel('Result').selectOption('any');
  await expect(rows).toHaveCount(2);
  await page.getByLabel('From').fill('2099-01-01T00:00');
  await expect(rows).toHaveCount(1);
  await expect(rows).toHaveText('No recorded decision matches.');
  await page.getByLabel('Until').fill('2098-01-01T00:00');
  await expect(page.getByRole('alert')).toHaveText('Until must be later than From.');
  await page.getByLabel('From').fill('');
  await page.getByLabel('Until').fill('');
  await expect(rows).toHaveCount(2);

  // The audit log's `executed` event links to the decision it recorded,
  // which has an address of its own, linking back to the version that ran.
  const recorded = (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}&result=false`)).items[0];
  await page.getByRole('link', { name: 'Audit log' }).click();
  const executed = page.getByRole('table', { name: 'Audit events' }).locator('tbody tr').filter({ hasText: 'Executed' });
  await executed.first().getByRole('button', { name: 'Details' }).click();
  await page.getByRole('link', { name: 'Open the recorded decision' }).click();
  assert.equal(new URL(page.url()).pathname, `/console/decisions/${recorded.id}`);
  const alone = page.getByRole('region', { name: `Decision ${recorded.id}` });
  await expect(alone.locator('pre.json')).toContainText('"age": 30');
  await expect(alone.locator('.verdict')).toContainText('Result: false');
  await noCriticalViolations(page, 'decision page');
  await alone.getByRole('link', { name: 'the policy, version 1' }).click();
  await expect(page.getByRole('heading', { name: 'Pension check' })).toBeVisible();
  assert.equal(new URL(page.url()).searchParams.get('record'), v1.id);
  // An id no record has says so.
  await page.goto(`${server.url}/console/decisions/${draft.id}`);
  await expect(page.getByRole('alert')).toHaveText('There is no such decision record: it expired, or the id is wrong.');
  // A run of the draft names the draft, at the revision that ran.
  const next = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/draft`);
  await rest(server.url, ADMIN_KEY, 'POST', `/run/policy_version/${next.id}`, { data: { Person: { age: 80 } } });
  await expect({
    toString: () => 'the recorded run of the draft',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.filter((d) => d.recordId === next.id).length,
  }).toHaveCount(1);
  const ofDraft = (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.find((d) => d.recordId === next.id);
  await page.goto(`${server.url}/console/decisions/${ofDraft.id}`);
  await expect(page.getByRole('link', { name: 'the draft (revision 1)' })).toHaveAttribute('href', `/console/policies/${v1.baseId}?record=${next.id}`);
  assert.deepEqual(page.foreign, []);
  await page.context().close();

  // A viewer reads the setting, changes nothing, and reads no decision.
  const viewer = await newPage();
  await signIn(viewer, viewerKey);
  await viewer.getByRole('link', { name: 'Pension check' }).click();
  await viewer.getByRole('tab', { name: 'Decisions' }).click();
  await expect(viewer.getByLabel('Share of runs recorded (%)')).toHaveValue('100');
  assert.equal(await viewer.getByLabel('Record the stored runs of this policy').isChecked(), true);
  await expect(viewer.getByLabel('Record the stored runs of this policy')).not.toBeEnabled();
  await expect(viewer.getByRole('button', { name: 'Save recording' })).toHaveCount(0);
  await expect(viewer.getByText('Only admins and auditors read recorded decisions.')).toBeVisible();
  await expect(viewer.getByRole('table', { name: 'Recorded decisions' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: /^Replay/ })).toHaveCount(0);
  await viewer.goto(`${server.url}/console/decisions/${recorded.id}`);
  await expect(viewer.getByRole('heading', { name: 'Not for your role' })).toBeVisible();
  await viewer.context().close();
});

test('the Decisions tab replays the saved draft on the recorded decisions, without publishing it', async () => {
  const rule = (age) => `A **Person** gets a travel pass if the __age__ of the **Person** is at least ${age}.`;
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Travel pass', rule: rule(67) });
  const v1 = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${v1.baseId}/decision-records`, { enabled: true });
  for (const age of [70, 30]) {
    await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${v1.baseId}`, { data: { Person: { age } } });
  }
  await expect({
    toString: () => 'the recorded decisions',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.length,
  }).toHaveCount(2);
  const young = (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}&result=false`)).items[0];

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Travel pass' }).click();
  await page.getByRole('button', { name: 'New draft from version 1' }).click();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await replaceEditorText(page, 'Rule text', rule(25));
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('button', { name: 'Save draft' })).not.toBeEnabled();
  await page.getByRole('tab', { name: 'Decisions' }).click();
  await page.getByRole('button', { name: 'Replay the draft on the recorded decisions' }).click();
  const replay = page.getByRole('region', { name: 'Replay' });
  await expect(replay.getByTestId('replay-compared')).toHaveText('2');
  await expect(replay.getByTestId('replay-changed')).toHaveText('1');
  await expect(replay.getByTestId('replay-unchanged')).toHaveText('1');
  await expect(replay.getByTestId('replay-errors')).toHaveText('0');
  const changed = replay.getByRole('table', { name: 'Decisions that change' }).locator('tbody tr');
  await expect(changed).toHaveCount(1);
  await expect(changed.locator('td').nth(1)).toContainText('false:');
  await expect(changed.locator('td').nth(2)).toContainText('true:');
  await noCriticalViolations(page, 'replay in the decisions tab');
  // Nothing was published, and the decision that would flip opens.
  assert.equal((await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/versions`)).versions.length, 1);
  await changed.getByRole('link', { name: young.id }).click();
  await expect(page.getByRole('region', { name: `Decision ${young.id}` }).locator('pre.json')).toContainText('"age": 30');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a flow’s test may be edited to expect the outcome of a custom node', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Reviewed check',
    rule: 'A **Person** gets approved if the __age__ of the **Person** is at least 18.',
  });
  const definition = {
    formatVersion: 1,
    start: 's',
    nodes: [
      { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'review' },
      { id: 'yes', type: 'return', returnValue: true },
      { id: 'review', type: 'custom', outcome: 'manual review' },
    ],
  };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Reviewed flow',
    definition,
    tests: [{ name: 'minor', data: { Person: { age: 12 } }, expect: false }],
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Flows' }).click();
  await page.getByRole('link', { name: 'Reviewed flow' }).click();
  await page.getByRole('tab', { name: 'Tests (1)' }).click();
  await page.getByRole('button', { name: 'Edit test minor' }).click();
  const form = page.getByRole('form', { name: 'Edit test minor' });
  await form.getByLabel('Expects').selectOption('outcome');
  await form.getByLabel('Outcome').fill('manual review');
  await form.getByRole('button', { name: 'Apply' }).click();
  const row = page.getByRole('table', { name: 'Tests' }).locator('tbody tr').first();
  await expect(row.locator('td').nth(2)).toHaveText('“manual review”');
  await page.keyboard.press('Control+s');
  await expect({
    toString: () => 'the stored test',
    count: async () => ((await rest(server.url, ADMIN_KEY, 'GET', `/flow/${flow.id}`)).tests[0].expect === 'manual review' ? 1 : 0),
  }).toHaveCount(1);
  await page.getByRole('button', { name: 'Run all tests' }).click();
  await expect(row).toContainText('✓ pass');
  // Ctrl+Enter in the input runs the flow, as Run does.
  await page.getByRole('tab', { name: 'Graph and test' }).click();
  await page.getByLabel('Input (JSON)').fill('{"Person": {"age": 12}}');
  await page.keyboard.press('Control+Enter');
  await expect(page.getByTestId('flow-run').locator('.verdict').first()).toHaveText('Flow result: “manual review”');
  await page.context().close();
});

test('a flow’s Tests table shows an expected or actual outcome as text in quotes, as the flow result does, and a result as a word', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Held check',
    rule: 'A **Person** gets approved if the __age__ of the **Person** is at least 18.',
  });
  // Quotes of its own, which JSON would show escaped.
  const outcome = 'hold "for" review';
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Held flow',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'held' },
        { id: 'yes', type: 'return', returnValue: true },
        { id: 'held', type: 'custom', outcome },
      ],
    },
    tests: [
      { name: 'minor', data: { Person: { age: 12 } }, expect: outcome },
      { name: 'adult', data: { Person: { age: 30 } }, expect: true },
    ],
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}?tab=tests`);
  const rows = page.getByRole('table', { name: 'Tests' }).locator('tbody tr');
  await expect(rows.nth(0).locator('td').nth(2)).toHaveText(`“${outcome}”`);
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('true');
  await page.getByRole('button', { name: 'Run all tests' }).click();
  await expect(rows.nth(0).locator('td').nth(3)).toHaveText(`“${outcome}” ✓ pass`);
  await expect(rows.nth(1).locator('td').nth(3)).toHaveText('true ✓ pass');
  await page.context().close();
});

test('Add as test names the outcome it expects as the flow result does, as text, and a result as true or false', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Outcome words check',
    rule: 'A **Person** gets approved if the __age__ of the **Person** is at least 18.',
  });
  const outcome = '<script>alert("o")</script>';
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Outcome words flow',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'odd' },
        { id: 'yes', type: 'return', returnValue: true },
        { id: 'odd', type: 'custom', outcome },
      ],
    },
  });
  const page = await newPage();
  const dialogs = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  const run = page.getByTestId('flow-run');
  await page.getByLabel('Input (JSON)').fill('{"Person": {"age": 12}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(run.locator('.verdict').first()).toHaveText(`Flow result: “${outcome}”`);
  // The button says the outcome as the result line does: in curly quotes, its own quotes unescaped.
  const add = page.getByRole('button', { name: /^Add as test/ });
  await expect(add).toHaveText(`Add as test (expect “${outcome}”)`);
  await add.click();
  await expect(page.getByRole('status').filter({ hasText: 'Test “Sample 1”' })).toHaveText(
    `Test “Sample 1” added, expecting “${outcome}”: save the draft to keep it.`,
  );
  // A run that ends on a return node expects its result, a word.
  await page.getByLabel('Input (JSON)').fill('{"Person": {"age": 30}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(run.locator('.verdict').first()).toHaveText('Flow result: true');
  await expect(add).toHaveText('Add as test (expect true)');
  await add.click();
  await expect(page.getByRole('status').filter({ hasText: 'Test “Sample 2”' })).toHaveText('Test “Sample 2” added, expecting true: save the draft to keep it.');
  await page.keyboard.press('Control+s');
  await expect({
    toString: () => 'the stored tests',
    count: async () => {
      const stored = (await rest(server.url, ADMIN_KEY, 'GET', `/flow/${flow.id}`)).tests;
      return stored.length === 2 && stored[0].expect === outcome && stored[1].expect === true ? 1 : 0;
    },
  }).toHaveCount(1);
  assert.deepEqual(dialogs, []);
  await page.context().close();
});

test('a run through a custom node that goes on shows what it did and where the run ended', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Review age check',
    rule: 'A **Person** gets approved if the __age__ of the **Person** is at least 18.',
  });
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Review then decline',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'custom-1', onFalse: 'return-2' },
        { id: 'custom-1', type: 'custom', outcome: 'manual review', next: 'return-2' },
        { id: 'return-2', type: 'return', returnValue: false },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await page.getByLabel('Input (JSON)').fill('{"Person": {"age": 30}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const run = page.getByTestId('flow-run');
  await expect(run.locator('.verdict').first()).toHaveText('Flow result: false');
  await expect(page.getByTestId('flow-path')).toHaveText('Path: s → custom-1 → return-2');
  await expect(flowNode(page, 'return-2').getByTestId('node-result')).toHaveText('returned false');
  // The custom node, selected as the last that ran, says what it did: no rule ran there.
  const custom = page.getByRole('region', { name: 'Result of node custom-1' });
  await expect(custom.getByTestId('node-step')).toHaveText('This custom node gave the outcome “manual review”, and the run went on to return-2.');
  await expect(custom.locator('.trace-card')).toHaveCount(0);
  await expect(run).not.toContainText('ended on a custom node');
  await page.getByLabel('Node', { exact: true }).selectOption('return-2');
  await expect(page.getByRole('region', { name: 'Result of node return-2' }).getByTestId('node-step')).toHaveText('The run ended here, returning false.');
  // A batch lists the same path.
  await page.getByLabel('Input (JSON)').fill('[{"Person": {"age": 30}}, {"Person": {"age": 12}}]');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const rows = page.getByRole('table', { name: 'Runs of the inputs' }).locator('tbody tr');
  await expect(rows.nth(0).locator('td').nth(2)).toHaveText('s → custom-1 → return-2');
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('s → return-2');
  await page.context().close();
});

test('a list of inputs runs the saved flow in one batch, each run shown on the graph on demand and added as a test', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Batch age check',
    rule: 'A **Person** gets approved if the __age__ of the **Person** is at least 18.',
  });
  const definition = {
    formatVersion: 1,
    start: 's',
    nodes: [
      { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'review' },
      { id: 'yes', type: 'return', returnValue: true },
      { id: 'review', type: 'custom', outcome: 'manual review' },
    ],
  };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Batch flow', definition });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Flows' }).click();
  await page.getByRole('link', { name: 'Batch flow' }).click();
  const input = page.getByLabel('Input (JSON)');
  await expect(input).toHaveAttribute('aria-describedby', 'flow-data-hint');
  await expect(page.locator('#flow-data-hint')).toHaveText('Ctrl+Enter runs. A list of inputs runs each of them on the saved flow.');
  await input.fill('[{"Person": {"age": 30}}, {"Person": {"age": 12}}, {"Person": {}}]');
  await page.keyboard.press('Control+Enter');
  const batch = page.getByTestId('flow-batch');
  await expect(batch.getByRole('status')).toHaveText('3 runs: 2 true, 0 false, 1 stopped on an error');
  const rows = batch.getByRole('table', { name: 'Runs of the inputs' }).locator('tbody tr');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).locator('td').nth(1)).toHaveText('true');
  await expect(rows.nth(1).locator('td').nth(1)).toHaveText('“manual review”');
  await expect(rows.nth(1).locator('td').nth(2)).toHaveText('s → review');
  await expect(rows.nth(2).locator('td').nth(1)).toHaveText('error');
  await expect(rows.nth(2).locator('td').nth(2)).toContainText('Missing property');
  // One call ran them all: one `executed` event for the three.
  await expect({
    toString: () => 'the batch’s executed event',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/audit?action=executed&baseId=${flow.baseId}`)).items.length,
  }).toHaveCount(1);
  const [event] = (await rest(server.url, ADMIN_KEY, 'GET', `/audit?action=executed&baseId=${flow.baseId}`)).items;
  assert.equal(event.details.count, 3);

  // The first run shows on the graph; Show puts another there.
  const run = page.getByTestId('flow-run');
  await expect(run.getByRole('heading', { name: 'Input 1 of the list' })).toBeVisible();
  await expect(run.locator('.verdict').first()).toHaveText('Flow result: true');
  await rows.nth(1).getByRole('button', { name: 'Show input 2 on the graph' }).click();
  await expect(rows.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(run.locator('.verdict').first()).toHaveText('Flow result: “manual review”');
  await expect(page.getByTestId('flow-path')).toHaveText('Path: s → review');
  await expect(flowNode(page, 'review')).toHaveClass(/\bfnode-path\b/);
  await page.screenshot({ path: join(shots, 'flow-batch.png'), fullPage: true });
  await noCriticalViolations(page, 'flow batch');
  // Added as a test, the shown run keeps its own input, not the list.
  await page.getByRole('button', { name: 'Add as test (expect “manual review”)' }).click();
  await page.keyboard.press('Control+s');
  await expect({
    toString: () => 'the stored test',
    count: async () => {
      const stored = (await rest(server.url, ADMIN_KEY, 'GET', `/flow/${flow.id}`)).tests;
      return stored.length === 1 && JSON.stringify(stored[0].data) === '{"Person":{"age":12}}' && stored[0].expect === 'manual review' ? 1 : 0;
    },
  }).toHaveCount(1);

  // Lists the page refuses before anything is sent, and one it sends only saved.
  for (const [text, message] of [
    ['[]', 'The list of inputs is empty: put a JSON object in it for each run.'],
    ['[{"Person": {"age": 30}}, 5]', 'Input 2 of the list is not a JSON object.'],
    ['"text"', 'The test data must be a JSON object, or a list of them.'],
  ]) {
    await input.fill(text);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(message);
    // The runs before are not this one's: they leave the page.
    await expect(run).toHaveCount(0);
    await expect(batch).toHaveCount(0);
  }
  await selectNode(page, 'yes');
  await page.getByLabel('Returns').selectOption('false');
  await input.fill('[{"Person": {"age": 30}}]');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('A list of inputs runs the saved flow: save the draft first, or run one input at a time.');
  // The batch ran the saved definition: it no longer shows for the edited one.
  await expect(batch).toHaveCount(0);
  await expect({
    toString: () => 'executed events after the refusals',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/audit?action=executed&baseId=${flow.baseId}`)).items.length,
  }).toHaveCount(1);
  // A single object still runs alone, on the edited definition.
  await input.fill('{"Person": {"age": 30}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(run.locator('.verdict').first()).toHaveText('Flow result: false');
  await expect(run.getByRole('heading', { name: /of the list/ })).toHaveCount(0);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a flow’s Decisions tab opens a recorded run with the path it took and its last node’s trace', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Grown-up check',
    rule: 'A **Person** gets adult if the __age__ of the **Person** is at least 18.',
  });
  const definition = {
    formatVersion: 1,
    start: 's',
    nodes: [
      { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'p', onFalse: 'no' },
      { id: 'p', type: 'policy', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'no' },
      { id: 'yes', type: 'return', returnValue: true },
      { id: 'no', type: 'return', returnValue: false },
    ],
  };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Grown-up flow', definition });
  await rest(server.url, ADMIN_KEY, 'PUT', `/flow/${flow.baseId}/decision-records`, { enabled: true });
  await rest(server.url, ADMIN_KEY, 'POST', `/run/flow/${flow.baseId}`, { Person: { age: 30 } });
  // Records are stored after the answer; wait until it is.
  await expect({
    toString: () => 'the recorded flow decision',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${flow.baseId}`)).items.length,
  }).toHaveCount(1);
  // From now on half the runs would be recorded: the tab shows the share in percent.
  await rest(server.url, ADMIN_KEY, 'PUT', `/flow/${flow.baseId}/decision-records`, { enabled: true, sampleRate: 0.5 });

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('link', { name: 'Flows' }).click();
  await page.getByRole('link', { name: 'Grown-up flow' }).click();
  await page.getByRole('tab', { name: 'Decisions' }).click();
  await expect(page.getByLabel('Share of runs recorded (%)')).toHaveValue('50');
  assert.equal(await page.getByLabel('Record the stored runs of this flow').isChecked(), true);
  const rows = page.getByRole('table', { name: 'Recorded decisions' }).locator('tbody tr');
  await rows.first().getByRole('button', { name: 'Open' }).click();
  const details = page.getByRole('region', { name: /^Decision / });
  await expect(details.getByTestId('decision-path')).toHaveText('Path: s → p');
  await expect(details.locator('.verdict')).toContainText('Result: true');
  await expect(details.locator('.trace-card')).toHaveCount(1);
  await expect(details.locator('.trace-card')).toContainText('adult');
  await noCriticalViolations(page, 'flow decisions tab');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('a comparison link naming another policy’s or flow’s record says so, and compares nothing in its place', async () => {
  const rule = (age) => `A **Person** is listed if the __age__ of the **Person** is at least ${age}.`;
  const v1 = await publishedPolicy('Compared here', rule(1));
  const here = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.id}/draft`);
  const elsewhere = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Compared elsewhere', rule: rule(2) });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);

  await page.goto(`${server.url}/console/policies/${v1.baseId}/compare?left=${elsewhere.id}&right=${here.id}`);
  await expect(page.getByRole('alert')).toHaveText(
    `Nothing is compared: the link names record ${elsewhere.id}, which is not a record of this policy. It belongs to another policy, or is no longer visible to you.`,
  );
  await expect(page.getByRole('heading', { name: 'Compare records' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Rule text' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Compare this policy’s latest records' }).click();
  await expect(page.getByRole('heading', { name: 'Compare records' })).toBeVisible();
  await expect(page.getByLabel('Left')).toHaveValue(v1.id);
  await expect(page.getByLabel('Right')).toHaveValue(here.id);

  const definition = { formatVersion: 1, start: 'yes', nodes: [{ id: 'yes', type: 'return', returnValue: true }] };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Compared flow', definition });
  const other = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Other flow', definition });
  await page.goto(`${server.url}/console/flows/${flow.baseId}/compare?left=${other.id}&right=${elsewhere.id}`);
  await expect(page.getByRole('alert')).toHaveText(
    `Nothing is compared: the link names records ${other.id} and ${elsewhere.id}, which are not records of this flow. They belong to another flow, or are no longer visible to you.`,
  );
  await expect(page.getByRole('group', { name: /graph/i })).toHaveCount(0);
  await page.context().close();
});

test('a policy’s or flow’s link naming a record it does not have says so, and which record is shown instead', async () => {
  const rule = (age) => `A **Person** is linked if the __age__ of the **Person** is at least ${age}.`;
  const v1 = await publishedPolicy('Linked here', rule(1));
  const elsewhere = await publishedPolicy('Linked elsewhere', rule(2));
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  const notice = page.getByRole('alert').filter({ hasText: 'The address names record' });

  // No draft: the latest version is shown in its place.
  await page.goto(`${server.url}/console/policies/${v1.baseId}?record=garbage`);
  await expect(notice).toHaveText(
    'The address names record garbage, which is not a record of this policy: it belongs to another policy, or is no longer visible to you. Shown instead is version 1, the policy’s latest.',
  );
  await expect(page.getByRole('heading', { name: 'Linked here' })).toBeVisible();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');

  // With a draft, the draft; once a record of its own is chosen, the notice leaves.
  await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.id}/draft`);
  await page.goto(`${server.url}/console/policies/${v1.baseId}?record=${elsewhere.id}`);
  await expect(notice).toHaveText(
    `The address names record ${elsewhere.id}, which is not a record of this policy: it belongs to another policy, or is no longer visible to you. Shown instead is the policy’s draft.`,
  );
  await expect(page.getByRole('heading', { name: 'Linked here' })).toBeVisible();
  await expect(page.locator('.title-block .badge-draft')).toBeVisible();
  await page.getByLabel('Record').selectOption({ label: 'Version 1' });
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await expect(notice).toHaveCount(0);

  const definition = { formatVersion: 1, start: 'yes', nodes: [{ id: 'yes', type: 'return', returnValue: true }] };
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Linked flow', definition });
  await page.goto(`${server.url}/console/flows/${flow.baseId}?record=${v1.id}`);
  await expect(notice).toHaveText(
    `The address names record ${v1.id}, which is not a record of this flow: it belongs to another flow, or is no longer visible to you. Shown instead is the flow’s draft.`,
  );
  await expect(page.getByRole('heading', { name: 'Linked flow' })).toBeVisible();
  await noCriticalViolations(page, 'a flow link naming another record');
  await page.context().close();
});

test('a comparison shows the whole rule text, its changed lines facing each other and the rest alike on both sides', async () => {
  // Twenty lines with changes at the 3rd and the 15th: the server's two
  // hunks hold three lines of context each, and the lines between and
  // after them are the same on both sides.
  const conditions = (changed) =>
    Array.from({ length: 19 }, (_, i) => `  ${i === 0 ? 'if' : 'and'} the __age__ of the **Person** is at least ${changed.includes(i + 2) ? 100 + i : i}`);
  const rule = (changed) => ['A **Person** gets a long check', ...conditions(changed)].join('\n') + '.';
  const v1 = await publishedPolicy('Long rule', rule([]));
  const draft = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/draft`);
  const v2 = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { rule: rule([3, 15]), status: 'published' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${v1.baseId}/compare?left=${v1.id}&right=${v2.id}`);
  const rows = page.getByRole('region', { name: 'Rule text' }).locator('tbody tr');
  await expect(rows).toHaveCount(20);
  const kinds = await rows.evaluateAll((trs) => trs.map((tr) => tr.className));
  assert.deepEqual(kinds, Array.from({ length: 20 }, (_, i) => (i === 2 || i === 14 ? 'diff-changed' : 'diff-same')));
  const cells = await rows.evaluateAll((trs) => trs.map((tr) => [tr.querySelector('td.left code').textContent, tr.querySelector('td.right code').textContent]));
  const before = rule([]).replace(/\.$/, '').split('\n');
  const after = rule([3, 15]).replace(/\.$/, '').split('\n');
  before[19] += '.';
  after[19] += '.';
  assert.deepEqual(cells, before.map((l, i) => [l, after[i]]));
  await page.context().close();
});

test('a policy of more versions than a page of its history lists the newest and opens at any', async () => {
  // 201 versions: the server answers a history 200 versions at most a page.
  const first = await publishedPolicy('Long history', 'A **Person** is old if the __age__ of the **Person** is at least 90.');
  let previous, latest;
  for (let i = 0; i < 200; i++) {
    const draft = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${first.baseId}/draft`);
    previous = latest;
    latest = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${draft.id}`, { status: 'published' });
  }
  const page = await newPage();
  await signIn(page, ADMIN_KEY);

  // Opened at its latest version, it lists the newest 200 and loads the
  // one before them when asked.
  await page.goto(`${server.url}/console/policies/${first.baseId}`);
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 201');
  await page.getByRole('tab', { name: 'Versions (201)' }).click();
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.locator('tbody tr')).toHaveCount(200);
  await expect(versions.getByRole('link', { name: 'Version 1', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show older versions' }).click();
  await expect(versions.locator('tbody tr')).toHaveCount(201);
  await expect(versions.getByRole('link', { name: 'Version 1', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show older versions' })).toHaveCount(0);

  // A link to its first version loads the history back to it.
  await page.goto(`${server.url}/console/policies/${first.baseId}?record=${first.id}`);
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await expect(page.getByRole('tab', { name: 'Versions (201)' })).toBeVisible();

  // So does a comparison of its first version with its latest.
  await page.goto(`${server.url}/console/policies/${first.baseId}/compare?left=${first.id}&right=${latest.id}`);
  await expect(page.getByRole('heading', { name: 'Compare records' })).toBeVisible();
  await expect(page.getByLabel('Left')).toHaveValue(first.id);
  await expect(page.getByLabel('Right')).toHaveValue(latest.id);

  // A comparison of its last two versions offers the newest 200 on each
  // side, and older ones when asked.
  await page.goto(`${server.url}/console/policies/${first.baseId}/compare?left=${previous.id}&right=${latest.id}`);
  await expect(page.getByLabel('Left')).toHaveValue(previous.id);
  await expect(page.getByLabel('Left').locator('option')).toHaveCount(200);
  await expect(page.getByLabel('Left').getByRole('option', { name: 'Version 1', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Show older versions' }).click();
  await expect(page.getByLabel('Right').locator('option')).toHaveCount(201);
  await expect(page.getByRole('button', { name: 'Show older versions' })).toHaveCount(0);
  await page.getByLabel('Left').selectOption({ label: 'Version 1' });
  await expect(page.getByLabel('Left')).toHaveValue(first.id);
  await expect(page.getByLabel('Right')).toHaveValue(latest.id);
  await expect(page.locator('.compare-meta .card').first()).toContainText('Version 1');

  // A flow node offers the newest 200 versions to pin, and older ones when asked.
  await page.goto(`${server.url}/console/flows/new`);
  await selectNode(page, 'start');
  await page.getByRole('button', { name: 'Choose a policy' }).click();
  await page.getByLabel('Find a policy by name').fill('Long history');
  await page.getByRole('list', { name: 'Policies found' }).getByRole('button', { name: 'Long history', exact: true }).click();
  const pin = page.getByLabel('Which version of “Long history”');
  await expect(pin.locator('option')).toHaveCount(201); // the latest, then versions 201 to 2
  await page.getByRole('button', { name: 'Show older versions' }).click();
  await expect(pin.locator('option')).toHaveCount(202);
  await pin.selectOption({ label: 'Version 1 (pinned)' });
  await page.getByRole('button', { name: 'Use this policy' }).click();
  await expect(page.getByTestId('node-policy')).toContainText('Long history · version 1');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

/** Picks a group in a list's group filter by typing its name, or All groups by emptying the box. */
async function chooseGroup(page, name) {
  const text = name === 'All groups' ? '' : name;
  const filter = page.getByRole('combobox', { name: 'Group', exact: true });
  await filter.fill(text);
  await page.getByRole('listbox', { name: 'Groups' }).getByRole('option', { name, exact: true }).click();
  await expect(filter).toHaveValue(text);
}

/** The page's address below the server, for expect: its path and query. */
function addressOf(page) {
  return {
    toString: () => 'the address',
    textContent: async () => {
      const url = new URL(page.url());
      return url.pathname + url.search;
    },
  };
}

test('the lists keep their search, filters and page in the address, through Back and a reload', async () => {
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  const group = await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: 'Paging' });
  for (let i = 1; i <= 25; i++) {
    const p = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: `Paged policy ${String(i).padStart(2, '0')}`, rule });
    await rest(server.url, ADMIN_KEY, 'POST', `/group/${group.id}/member`, { kind: 'policy', baseId: p.baseId });
  }
  for (let i = 1; i <= 50; i++) {
    await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: `paged-${i}@example.test`, role: 'viewer' });
    await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: `paged key ${i}`, scope: 'view' });
  }
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const pageNumber = (n) => page.locator('.pager').getByText(`Page ${n}`, { exact: true });

  // Policies: the search, the group and the page.
  const policies = page.getByRole('table', { name: 'Policies' });
  await expect(addressOf(page)).toHaveText('/console/');
  await page.getByLabel('Search by name').fill('Paged policy');
  await expect(addressOf(page)).toHaveText('/console/?q=Paged+policy');
  await chooseGroup(page, 'Paging');
  await expect(addressOf(page)).toHaveText(`/console/?q=Paged+policy&group=${group.id}`);
  await expect(policies.locator('tbody tr')).toHaveCount(20);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageNumber(2)).toBeVisible();
  await expect(policies.locator('tbody tr')).toHaveCount(5);
  await expect(addressOf(page)).toHaveText(new RegExp(`^/console/\\?q=Paged\\+policy&group=${group.id}&after=[\\w-]+$`));
  await policies.getByRole('link', { name: 'Paged policy 03' }).click();
  await expect(page.getByRole('heading', { name: 'Paged policy 03' })).toBeVisible();
  for (const back of [() => page.goBack(), () => page.reload()]) {
    await back();
    await expect(pageNumber(2)).toBeVisible();
    await expect(page.getByLabel('Search by name')).toHaveValue('Paged policy');
    await expect(page.getByLabel('Group')).toHaveValue('Paging');
    await expect(policies.locator('tbody tr')).toHaveCount(5);
    await expect(policies.getByRole('link', { name: 'Paged policy 03' })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(pageNumber(1)).toBeVisible();
  await expect(policies.locator('tbody tr')).toHaveCount(20);
  await expect(addressOf(page)).toHaveText(`/console/?q=Paged+policy&group=${group.id}`);
  // At their defaults the filters leave the address clean.
  await page.getByLabel('Search by name').fill('');
  await chooseGroup(page, 'All groups');
  await expect(addressOf(page)).toHaveText('/console/');

  // Flows: the search.
  await nav.getByRole('link', { name: 'Flows' }).click();
  const flows = page.getByRole('table', { name: 'Flows' });
  await page.getByLabel('Search by name').fill('Loan');
  await expect(addressOf(page)).toHaveText('/console/flows?q=Loan');
  await expect(flows.locator('tbody tr')).toHaveCount(1);
  await flows.getByRole('link', { name: 'Loan' }).click();
  await expect(page.getByRole('heading', { name: 'Loan' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Search by name')).toHaveValue('Loan');
  await expect(flows.locator('tbody tr')).toHaveCount(1);
  // The section's link opens the list unfiltered.
  await nav.getByRole('link', { name: 'Flows' }).click();
  await expect(addressOf(page)).toHaveText('/console/flows');
  await expect(page.getByLabel('Search by name')).toHaveValue('');

  // Groups: the search.
  await nav.getByRole('link', { name: 'Groups' }).click();
  const groups = page.getByRole('table', { name: 'Groups' });
  await page.getByLabel('Search by name').fill('Pagi');
  await expect(addressOf(page)).toHaveText('/console/groups?q=Pagi');
  await expect(groups.locator('tbody tr')).toHaveCount(1);
  await groups.getByRole('link', { name: 'Paging' }).click();
  await expect(page.getByRole('heading', { name: 'Paging' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Search by name')).toHaveValue('Pagi');
  await expect(groups.locator('tbody tr')).toHaveCount(1);

  // Members and keys: the page, and the search, which starts again at the
  // first page. Of the fifty, the fourth and the forties match.
  for (const [section, one, search, term, query] of [
    ['Members', 'member', 'Search by email or name', 'paged-4', 'paged-4'],
    ['Keys', 'key', 'Search by name', 'paged key 4', 'paged+key+4'],
  ]) {
    const path = `/console/admin/${section.toLowerCase()}`;
    await nav.getByRole('link', { name: section }).click();
    const rows = page.getByRole('table', { name: section }).locator('tbody tr');
    await expect(rows).toHaveCount(50);
    const first = await rows.first().textContent();
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pageNumber(2)).toBeVisible();
    await expect(rows.first()).not.toHaveText(first);
    const second = await rows.first().textContent();
    await page.reload();
    await expect(pageNumber(2)).toBeVisible();
    await expect(rows.first()).toHaveText(second);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(rows.first()).toHaveText(first);
    await expect(addressOf(page)).toHaveText(path);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(pageNumber(2)).toBeVisible();
    await page.getByLabel(search).fill(term);
    await expect(addressOf(page)).toHaveText(`${path}?q=${query}`);
    await expect(pageNumber(1)).toBeVisible();
    await expect(rows).toHaveCount(11);
    for (const name of await rows.locator('td:first-child').allTextContents()) assert.ok(name.startsWith(term), name);
    await page.reload();
    await expect(page.getByLabel(search)).toHaveValue(term);
    await expect(rows).toHaveCount(11);
    await page.getByLabel(search).fill(`${term} and more`);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveText(`No ${one} matches.`);
    await page.getByLabel(search).fill('');
    await expect(addressOf(page)).toHaveText(path);
    await expect(rows).toHaveCount(50);
  }

  // The audit log: the filters and the page.
  await nav.getByRole('link', { name: 'Audit log' }).click();
  const events = page.getByRole('table', { name: 'Audit events' });
  await page.getByLabel('Action').selectOption('CREATED');
  await page.getByLabel('Kind').selectOption('POLICY');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(addressOf(page)).toHaveText('/console/audit?action=CREATED&kind=POLICY');
  await expect(events.locator('tbody tr')).toHaveCount(25);
  // A list keeps the rows it shows until the next load's arrive: the
  // filtered first page starts with the newest policy, and the second page
  // with another.
  const about = events.locator('tbody tr td:nth-child(4) a').first();
  await expect(about).toHaveText('Paged policy 25');
  const onFirstPage = await about.getAttribute('href');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(pageNumber(2)).toBeVisible();
  await expect(about).not.toHaveAttribute('href', onFirstPage);
  const opened = await about.getAttribute('href');
  await about.click();
  await expect(addressOf(page)).toHaveText(opened);
  for (const back of [() => page.goBack(), () => page.reload()]) {
    await back();
    await expect(pageNumber(2)).toBeVisible();
    await expect(page.getByLabel('Action')).toHaveValue('CREATED');
    await expect(page.getByLabel('Kind')).toHaveValue('POLICY');
    await expect(about).toHaveAttribute('href', opened);
    for (const text of await events.locator('tbody tr td:nth-child(2)').allTextContents()) assert.equal(text, 'Created');
  }
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(addressOf(page)).toHaveText('/console/audit');
  await expect(page.getByLabel('Action')).toHaveValue('');
  await expect(pageNumber(1)).toBeVisible();
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('each page names itself in the window title, and a navigation moves focus to the page’s content', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Titled policy', rule: 'A **Person** is titled if the __age__ of the **Person** is at least 18.' });
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Titled flow',
    definition: { formatVersion: 1, start: 's', nodes: [{ id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes' }, { id: 'yes', type: 'return', returnValue: true }] },
  });
  const page = await newPage();
  await page.goto(server.url + '/console/');
  await expect({ toString: () => 'the sign-in title', count: async () => ((await page.title()) === 'Sign in — Verdict console' ? 1 : 0) }).toHaveCount(1);
  await signIn(page, ADMIN_KEY);
  const title = (want) => expect({ toString: () => `the title ${want}`, count: async () => ((await page.title()) === want ? 1 : 0) }).toHaveCount(1);
  const main = page.locator('main');
  await title('Policies — Verdict console');

  // A section's link, by keyboard: the title follows and focus goes to the page's content.
  const nav = page.getByRole('navigation', { name: 'Sections' });
  for (const [link, heading] of [['Members', 'Members'], ['Keys', 'API keys'], ['Audit log', 'Audit log'], ['Groups', 'Groups'], ['Flows', 'Flows']]) {
    await nav.getByRole('link', { name: link, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await title(`${heading} — Verdict console`);
    await expect(main).toBeFocused();
  }

  // A link in the page that leaves with it: focus goes to the new page's content, not the body.
  await page.getByLabel('Search by name').fill('Titled flow');
  await page.getByRole('table', { name: 'Flows' }).getByRole('link', { name: 'Titled flow' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Titled flow' })).toBeVisible();
  await title('Titled flow — Verdict console');
  await expect(main).toBeFocused();

  await page.goto(`${server.url}/console/policies/${policy.baseId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Titled policy' })).toBeVisible();
  await title('Titled policy — Verdict console');
  // Back, after a navigation within the console.
  await nav.getByRole('link', { name: 'Groups', exact: true }).click();
  await title('Groups — Verdict console');
  await page.goBack();
  await title('Titled policy — Verdict console');
  await expect(main).toBeFocused();
  await page.goto(`${server.url}/console/nowhere`);
  await title('Not found — Verdict console');
  await page.context().close();
});

test('the tab a policy or a flow shows is kept in the address, through a reload, Back and Forward', async () => {
  const v1 = await publishedPolicy('Tabbed', 'A **Person** is tabbed if the __age__ of the **Person** is at least 18.');
  const next = await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/draft`);
  const v2 = await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${next.id}`, { status: 'published' });
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${v1.baseId}/decision-records`, { enabled: true });
  await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${v1.baseId}`, { data: { Person: { age: 40 } } });
  await expect({
    toString: () => 'the recorded decision',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${v1.baseId}`)).items.length,
  }).toHaveCount(1);
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${v1.baseId}`);
  const selected = page.getByRole('tab', { selected: true });
  await expect(selected).toHaveText('Rule and try it');
  await expect(addressOf(page)).toHaveText(`/console/policies/${v1.baseId}`);

  await page.getByRole('tab', { name: 'Versions (2)' }).click();
  await expect(addressOf(page)).toHaveText(`/console/policies/${v1.baseId}?tab=versions`);
  await page.reload();
  await expect(selected).toHaveText('Versions (2)');
  await expect(page.getByRole('table', { name: 'Versions' })).toBeVisible();
  // Back from a comparison, and from the history, lands on the Versions tab.
  await page.getByRole('link', { name: 'Compare with version 1' }).click();
  await expect(page.getByRole('heading', { name: 'Compare records' })).toBeVisible();
  await page.goBack();
  await expect(selected).toHaveText('Versions (2)');
  await page.getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await page.goBack();
  await expect(selected).toHaveText('Versions (2)');
  // Another record of the policy opens at its rule.
  await page.getByRole('table', { name: 'Versions' }).getByRole('link', { name: 'Version 1', exact: true }).click();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 1');
  await expect(selected).toHaveText('Rule and try it');
  await page.goBack();
  await expect(page.locator('.title-block .badge-published')).toHaveText('Version 2');
  await expect(selected).toHaveText('Versions (2)');

  // Back from a decision's page lands on the Decisions tab, and Forward returns to the decision.
  await page.getByRole('tab', { name: 'Decisions' }).click();
  await expect(addressOf(page)).toHaveText(`/console/policies/${v1.baseId}?tab=decisions`);
  await page.getByRole('table', { name: 'Recorded decisions' }).getByRole('button', { name: 'Open' }).click();
  await page.getByRole('region', { name: /^Decision / }).getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { name: 'Decision', exact: true })).toBeVisible();
  await page.goBack();
  await expect(selected).toHaveText('Decisions');
  await expect(page.getByRole('table', { name: 'Recorded decisions' })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole('heading', { name: 'Decision', exact: true })).toBeVisible();
  await page.goBack();
  // The first tab leaves the address clean; a name that is no tab shows the first.
  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  await expect(addressOf(page)).toHaveText(`/console/policies/${v1.baseId}`);
  await page.goto(`${server.url}/console/policies/${v1.baseId}?record=${v2.id}&tab=nonsense`);
  await expect(selected).toHaveText('Rule and try it');

  // A flow's tabs likewise.
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Tabbed flow',
    definition: { formatVersion: 1, start: 's', nodes: [{ id: 's', type: 'start', policy: { baseId: v1.baseId }, onTrue: 'yes', onFalse: 'yes' }, { id: 'yes', type: 'return', returnValue: true }] },
  });
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(selected).toHaveText('Graph and test');
  await page.getByRole('tab', { name: 'Tests (0)' }).click();
  await expect(addressOf(page)).toHaveText(`/console/flows/${flow.baseId}?tab=tests`);
  await page.reload();
  await expect(selected).toHaveText('Tests (0)');
  await page.context().close();
});

test('while a list loads another page its table is busy and dimmed and its paging waits, until the page arrives or fails', async () => {
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  for (let i = 1; i <= 21; i++) await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: `Slow page ${String(i).padStart(2, '0')}`, rule });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  // The answer to a request for the policy list's second page is held
  // until the test lets it go, on to the server or failed.
  let gate = null;
  const hold = (fail) => {
    let open;
    gate = { opened: new Promise((ok) => (open = ok)), fail };
    return () => open();
  };
  await page.route('**/graphql', async (route) => {
    const body = route.request().postDataJSON();
    const held = gate;
    if (!held || !body?.variables?.after || !/\bpolicies\(/.test(body.query)) return route.continue();
    gate = null;
    await held.opened;
    return held.fail ? route.abort('failed') : route.continue();
  });
  await page.goto(server.url + '/console/?q=Slow+page');
  const table = page.getByRole('table', { name: 'Policies' });
  const rows = table.locator('tbody tr');
  const next = page.getByRole('button', { name: 'Next page' });
  const previous = page.getByRole('button', { name: 'Previous page' });
  await expect(rows).toHaveCount(20);
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table).not.toHaveClass(/\btable-loading\b/);

  // The first page's rows stay while the second loads, dimmed, and neither
  // button can act on them.
  let release = hold(false);
  await next.click();
  await expect(page.locator('.pager').getByText('Page 2', { exact: true })).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(table).toHaveClass(/\btable-loading\b/);
  await expect(rows).toHaveCount(20);
  await expect(next).not.toBeEnabled();
  await expect(previous).not.toBeEnabled();
  release();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('link')).toHaveText('Slow page 01');
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table).not.toHaveClass(/\btable-loading\b/);
  await expect(previous).toBeEnabled();
  await expect(next).not.toBeEnabled();

  // A page that fails to load is not busy any more either: it says why, and Previous works.
  await previous.click();
  await expect(rows).toHaveCount(20);
  await expect(next).toBeEnabled();
  release = hold(true);
  await next.click();
  await expect(table).toHaveAttribute('aria-busy', 'true');
  release();
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(table).not.toHaveClass(/\btable-loading\b/);
  await expect(rows).toHaveCount(0);
  await expect(previous).toBeEnabled();
  await previous.click();
  await expect(rows).toHaveCount(20);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.context().close();
});

test('Next page and Previous page keep keyboard focus while the page loads, and the page reached is announced', async () => {
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  for (let i = 1; i <= 21; i++) await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: `Focus page ${String(i).padStart(2, '0')}`, rule });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  // The second page's answer is held until the test lets it go.
  let release = null;
  await page.route('**/graphql', async (route) => {
    const body = route.request().postDataJSON();
    if (!body?.variables?.after || !/\bpolicies\(/.test(body.query)) return route.continue();
    await new Promise((ok) => (release = ok));
    return route.continue();
  });
  await page.goto(server.url + '/console/?q=Focus+page');
  const table = page.getByRole('table', { name: 'Policies' });
  const rows = table.locator('tbody tr');
  const next = page.getByRole('button', { name: 'Next page' });
  const previous = page.getByRole('button', { name: 'Previous page' });
  const announced = page.locator('.pager [aria-live="polite"]');
  await expect(rows).toHaveCount(20);
  await expect(announced).toHaveText('Page 1');

  await next.focus();
  await page.keyboard.press('Enter');
  await expect(table).toHaveAttribute('aria-busy', 'true');
  await expect(announced).toHaveText('Page 2');
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await expect(next).toBeFocused();
  // Enter again while the page loads does nothing.
  await page.keyboard.press('Enter');
  await expect({ toString: () => 'the held request', count: async () => (release ? 1 : 0) }).toHaveCount(1);
  release();
  await expect(rows).toHaveCount(1);
  await expect(table).toHaveAttribute('aria-busy', 'false');
  await expect(announced).toHaveText('Page 2');
  assert.equal(new URL(page.url()).searchParams.getAll('after').length, 1);
  // The last page's Next cannot act, and keeps focus all the same.
  await expect(next).toHaveAttribute('aria-disabled', 'true');
  await expect(next).toBeFocused();

  await page.keyboard.press('Shift+Tab');
  await expect(previous).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rows).toHaveCount(20);
  await expect(announced).toHaveText('Page 1');
  await expect(previous).toHaveAttribute('aria-disabled', 'true');
  await expect(previous).toBeFocused();
  await page.context().close();
});

test('the group filter finds any of many groups, and names the group an address chooses', async () => {
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  // The oldest of more than a hundred groups: a first page of them leaves it out.
  const archive = await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: 'Archive' });
  const archived = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Archived policy', rule });
  await rest(server.url, ADMIN_KEY, 'POST', `/group/${archive.id}/member`, { kind: 'policy', baseId: archived.baseId });
  for (let i = 1; i <= 120; i++) await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: `Team ${String(i).padStart(3, '0')}` });

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  const filter = page.getByRole('combobox', { name: 'Group', exact: true });
  const offered = page.getByRole('listbox', { name: 'Groups' }).getByRole('option');
  const policies = page.getByRole('table', { name: 'Policies' });

  // The server finds the matches; a bounded number of them is offered.
  await filter.fill('Team');
  await expect(offered).toHaveCount(8);
  await expect(page.getByText('More groups match: type more of the name.')).toBeVisible();
  await page.screenshot({ path: join(shots, 'group-filter.png') });
  await noCriticalViolations(page, 'group filter');
  await filter.fill('Archi');
  await expect(offered).toHaveCount(1);
  await expect(offered.first()).toHaveText('Archive');
  await filter.press('Enter');
  await expect(addressOf(page)).toHaveText(`/console/?group=${archive.id}`);
  await expect(filter).toHaveValue('Archive');
  await expect(policies.locator('tbody tr')).toHaveCount(1);
  await expect(policies).toContainText('Archived policy');

  // Escape leaves the filter as it was.
  await filter.fill('Team 01');
  await expect(offered).toHaveCount(8);
  await filter.press('Escape');
  await expect(page.getByRole('listbox', { name: 'Groups' })).toHaveCount(0);
  await expect(filter).toHaveValue('Archive');
  await expect(addressOf(page)).toHaveText(`/console/?group=${archive.id}`);

  // The arrow keys move through the matches.
  await filter.fill('Team 11');
  await expect(offered).toHaveCount(8);
  const second = await offered.nth(1).textContent();
  await filter.press('ArrowDown');
  await expect(offered.nth(1)).toHaveAttribute('aria-selected', 'true');
  await filter.press('Enter');
  await expect(filter).toHaveValue(second);
  await expect(policies).toContainText('No policy matches.');

  // A list opened at an address that chooses a group names it.
  await page.goto(`${server.url}/console/flows?group=${archive.id}`);
  await expect(filter).toHaveValue('Archive');
  await expect(page.getByRole('table', { name: 'Flows' })).toContainText('No flow matches.');
  await page.goto(`${server.url}/console/?group=${archive.id}`);
  await expect(filter).toHaveValue('Archive');
  await expect(policies).toContainText('Archived policy');
  await chooseGroup(page, 'All groups');
  await expect(addressOf(page)).toHaveText('/console/');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('the policy picker of a flow node says when more policies match than it lists', async () => {
  const rule = 'A **Person** is counted if the __age__ of the **Person** is at least 1.';
  for (let i = 1; i <= 12; i++) await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: `Quokka screen ${String(i).padStart(2, '0')}`, rule });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(server.url + '/console/flows/new');
  await selectNode(page, 'start');
  await page.getByRole('button', { name: 'Choose a policy' }).click();
  const found = page.getByRole('list', { name: 'Policies found' }).getByRole('button');
  const more = page.getByText('More policies match: type more of the name to narrow the list.');

  // Twelve match; the picker lists ten and says there are more.
  await page.getByLabel('Find a policy by name').fill('Quokka');
  await expect(more).toBeVisible();
  await expect(found).toHaveCount(10);
  for (const name of await found.allTextContents()) assert.match(name, /^Quokka screen \d\d$/);
  await page.screenshot({ path: join(shots, 'flow-policy-picker.png'), fullPage: true });

  // One matches: no note.
  await page.getByLabel('Find a policy by name').fill('Quokka screen 07');
  await expect(found).toHaveCount(1);
  await expect(found.first()).toHaveText('Quokka screen 07');
  await expect(more).toHaveCount(0);
  await expect(page.getByText(/More policies/)).toHaveCount(0);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

/**
 * Adds a member, then 204 more (crowd-001@example.test and on, with the
 * prefix given): members are listed newest first, so a first page of two
 * hundred leaves the member out.
 */
async function memberBeyondFirst200(member, crowd) {
  const started = Date.now();
  const added = await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', member);
  for (let i = 1; i <= 204; i++) {
    await rest(server.url, ADMIN_KEY, 'POST', '/admin/members', { email: `${crowd}-${String(i).padStart(3, '0')}@example.test`, role: 'viewer' });
  }
  console.log(`205 members added in ${Date.now() - started} ms`);
  const listed = await rest(server.url, ADMIN_KEY, 'GET', '/admin/members?limit=200');
  assert.equal(listed.items.length, 200);
  assert.ok(!listed.items.some((m) => m.user.id === added.user.id), 'the first 200 members leave the member out');
  return added;
}

test('a key is given to any of more than 200 members, found by search, and the key list names its owner', async () => {
  const owner = await memberBeyondFirst200({ email: 'kestrel@example.test', name: 'Kestrel', role: 'editor' }, 'crowd');

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  const ownerBox = page.getByRole('combobox', { name: 'Owner' });
  const offered = page.getByRole('listbox', { name: 'Members' }).getByRole('option');
  const keys = page.getByRole('table', { name: 'Keys' });
  // The organization owns a new key unless a member is chosen.
  await expect(ownerBox).toHaveValue('');
  await expect(ownerBox).toHaveAttribute('placeholder', 'The organization');

  // The server finds the members; a bounded number of them is offered.
  await ownerBox.fill('crowd');
  await expect(offered).toHaveCount(8);
  await expect(page.getByText('More members match: type more of the email or name.')).toBeVisible();
  await page.screenshot({ path: join(shots, 'key-owner.png') });
  await noCriticalViolations(page, 'key owner');
  await ownerBox.fill('kestrel');
  await expect(offered).toHaveCount(1);
  await expect(offered.first()).toHaveText('kestrel@example.test · Kestrel');
  await ownerBox.press('Enter');
  await expect(page.getByRole('listbox', { name: 'Members' })).toHaveCount(0);
  await expect(ownerBox).toHaveValue('kestrel@example.test');

  await page.getByLabel('Name', { exact: true }).fill('kestrel key');
  await page.getByLabel('Scope').selectOption('EDIT');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('region', { name: 'The key “kestrel key”' })).toBeVisible();
  await expect(keys.getByRole('row', { name: /kestrel key/ })).toContainText('kestrel@example.test');
  await page.screenshot({ path: join(shots, 'keys-owner.png'), fullPage: true });

  // The organization can be chosen again, offered first while nothing is typed.
  await ownerBox.fill('');
  await expect(offered.first()).toHaveText('The organization');
  await offered.first().click();
  await expect(ownerBox).toHaveValue('');
  await page.getByLabel('Name', { exact: true }).fill('kestrel robot');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('region', { name: 'The key “kestrel robot”' })).toBeVisible();
  await expect(keys.getByRole('row', { name: /kestrel robot/ }).locator('td').nth(3)).toHaveText('Organization');

  // A reload names the owner afresh, from the server.
  await page.reload();
  await expect(keys.getByRole('row', { name: /kestrel key/ }).locator('td').nth(3)).toHaveText('kestrel@example.test');
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

test('the audit log names an actor who is not among the first 200 members', async () => {
  const heron = await memberBeyondFirst200({ email: 'heron@example.test', role: 'editor' }, 'flock');
  const heronKey = await rest(server.url, ADMIN_KEY, 'POST', '/admin/keys', { name: 'heron', scope: 'edit', userId: heron.user.id });
  const policy = await rest(server.url, heronKey.secret, 'POST', '/policy', {
    name: 'Heron’s rule',
    rule: 'A **Person** is a wader if the __age__ of the **Person** is at least 3.',
  });

  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Audit log' }).click();
  const events = page.getByRole('table', { name: 'Audit events' });
  // The newest event: no event loaded records the member's email, so the server is asked for it.
  const created = events.locator('tbody tr').first();
  await expect(created.getByRole('link', { name: 'Heron’s rule' })).toHaveAttribute('title', `Policy ${policy.baseId}`);
  await expect(created.locator('td:nth-child(5)')).toHaveText('heron@example.test');
  await expect(created.getByRole('link', { name: 'heron@example.test' })).toHaveAttribute('title', `User ${heron.user.id}: show only their events`);
  assert.deepEqual(page.foreign, []);
  await page.context().close();
});

// The tests below publish: the audit log's tests above count the suite's publications before them.

test('a long name without spaces breaks within the window, in the list and on its page, on a laptop and on a phone', async () => {
  const name = 'Very_long_policy_name_without_any_spaces_' + 'x'.repeat(150);
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name, rule: 'A **Person** is checked if the __age__ of the **Person** is at least 18.' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  for (const viewport of [{ width: 1400, height: 900 }, { width: 390, height: 844 }]) {
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/console/policies`);
    await expect(page.getByRole('link', { name })).toBeVisible();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `the list is wider than ${viewport.width} px`);
    await page.goto(`${server.url}/console/policies/${draft.baseId}`);
    await expect(page.getByRole('heading', { name })).toBeVisible();
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `the policy page is wider than ${viewport.width} px`);
  }
  await rest(server.url, ADMIN_KEY, 'DELETE', `/policy/${draft.baseId}`);
  await page.context().close();
});

test('a status badge and a flow node’s heading each stay on one line, on a laptop and on a phone', async () => {
  const name = `Badges ${'with a name that goes on and on '.repeat(5)}`.trim();
  const v1 = await publishedPolicy(name, 'A **Person** is badged if the __age__ of the **Person** is at least 18.');
  await rest(server.url, ADMIN_KEY, 'GET', `/policy/${v1.baseId}/draft`);
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Headings',
    definition: {
      formatVersion: 1,
      start: 'start',
      nodes: [
        { id: 'start', type: 'start', name: 'Check the applicant against the lending rules of the bank', policy: { baseId: v1.baseId }, onTrue: 'custom-1', onFalse: 'custom-1' },
        { id: 'custom-1', type: 'custom', name: 'Send the application to a person for a manual review', outcome: 'manual review' },
      ],
    },
  });
  // Drawn on one line: no taller than one line of its text.
  const oneLine = async (locator, what) => {
    await expect(locator).toBeVisible();
    const [height, line] = await locator.evaluate((el) => [el.getBoundingClientRect().height, parseFloat(getComputedStyle(el).lineHeight)]);
    assert.ok(height < line * 1.5 + 6, `${what} takes ${height} px for lines of ${line} px`);
  };
  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    open = page;
    await signIn(page, ADMIN_KEY);
    await page.goto(`${server.url}/console/?q=${encodeURIComponent('Badges with a name')}`);
    const row = page.getByRole('table', { name: 'Policies' }).locator('tbody tr');
    await expect(row).toHaveCount(1);
    await oneLine(row.locator('.badge-published'), `the list's Version 1 at ${viewport.width} px`);
    await oneLine(row.locator('.badge-draft'), `the list's Draft at ${viewport.width} px`);
    await page.goto(`${server.url}/console/policies/${v1.baseId}?record=${v1.id}`);
    await oneLine(page.locator('.title-block .badge-published'), `the heading's Version 1 at ${viewport.width} px`);
    await page.goto(`${server.url}/console/flows/${flow.baseId}`);
    await page.getByLabel('Node', { exact: true }).selectOption('custom-1');
    await oneLine(page.getByRole('heading', { name: 'Node custom-1' }), `the node's heading at ${viewport.width} px`);
    await context.close();
  }
});

test('a group offers two flows of one name each with what tells them apart, to read and to hear', async () => {
  const policy = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Twin check', rule: 'A **Person** is a twin if the __age__ of the **Person** is at least 1.' });
  const definition = { formatVersion: 1, start: 's', nodes: [{ id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'yes' }, { id: 'yes', type: 'return', returnValue: true }] };
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Twin', definition });
  const other = await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Twin', definition });
  await rest(server.url, ADMIN_KEY, 'PUT', `/flow/${other.id}`, { status: 'published' });
  await rest(server.url, ADMIN_KEY, 'POST', '/flow', { name: 'Twin alone', definition });
  const group = await rest(server.url, ADMIN_KEY, 'POST', '/group', { name: 'Twins' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/groups/${group.id}`);
  await page.getByLabel('Add a flow by name').fill('Twin');
  const offered = page.getByRole('list', { name: 'Flows to add' }).getByRole('button');
  await expect(offered).toHaveCount(3);
  const names = await offered.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')).sort());
  assert.deepEqual(names, [
    `Add Twin (draft only, id …${draft.baseId.slice(-6)})`,
    'Add Twin alone (draft only)',
    `Add Twin (version 1, id …${other.baseId.slice(-6)})`,
  ].sort());
  await expect(page.getByRole('button', { name: `Add Twin (version 1, id …${other.baseId.slice(-6)})` })).toHaveText(`+ Twin (version 1, id …${other.baseId.slice(-6)})`);
  await page.getByRole('button', { name: `Add Twin (version 1, id …${other.baseId.slice(-6)})` }).click();
  const flows = page.getByRole('table', { name: 'Flows in the group' });
  await expect(flows.locator('tbody tr')).toHaveCount(1);
  await expect(flows.locator('tbody tr td').nth(1)).toHaveText('1');
  await page.context().close();
});

/** A field with an error: marked invalid, and described first by the element holding the error's text. */
async function expectFieldError(page, field, text) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const [id] = (await field.getAttribute('aria-describedby')).split(' ');
  await expect(page.locator(`[id="${id}"]`)).toContainText(text);
}

/** A field without an error: neither invalid nor described by one, only by what always describes it. */
async function expectNoFieldError(field, described = null) {
  await expect(field).toHaveAttribute('aria-invalid', null);
  await expect(field).toHaveAttribute('aria-describedby', described);
}

test('a policy’s name, sample data, schema and test fields with an error are marked invalid and described by it, until it is gone', async () => {
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.getByRole('button', { name: 'New policy' }).click();
  const name = page.getByLabel('Name', { exact: true });
  await expectFieldError(page, name, 'A name is needed before the draft can be saved.');
  await name.fill('x'.repeat(201));
  await expectNoFieldError(name);
  await replaceEditorText(page, 'Rule text', 'A **Person** gets senior_discount if the __age__ of the **Person** is greater than 64.');
  // The server's refusal is about the name: the name is described by it.
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expectFieldError(page, name, 'name is 201 characters long; the limit is 200');
  await name.fill('Field errors');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Field errors' })).toBeVisible();
  await expectNoFieldError(name);

  const sample = editorContent(page, 'Sample data (JSON)');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": ');
  await expectFieldError(page, sample, 'Not valid JSON');
  await replaceEditorText(page, 'Sample data (JSON)', '"hello"');
  await expectNoFieldError(sample);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expectFieldError(page, sample, 'The sample data must be a JSON object, or a list of them.');
  await replaceEditorText(page, 'Sample data (JSON)', '{"Person": {"age": 70}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Result:' })).toHaveText('Result: true');
  await expectNoFieldError(sample);

  // A test's row marks the field its problem is about, and that one alone.
  await page.getByRole('button', { name: 'Add as test (expect true)' }).click();
  await page.getByRole('tab', { name: /^Tests/ }).click();
  await page.getByRole('button', { name: 'Edit test Sample 1' }).click();
  const row = page.getByRole('form', { name: 'Edit test Sample 1' });
  const testName = row.getByLabel('Name');
  const data = row.getByLabel('Data (JSON)');
  await testName.fill('');
  await row.getByRole('button', { name: 'Apply' }).click();
  await expectFieldError(page, testName, 'A test needs a name.');
  await expectNoFieldError(data);
  await testName.fill('senior');
  await data.fill('[1]');
  await row.getByRole('button', { name: 'Apply' }).click();
  await expectFieldError(page, data, 'The data must be a JSON object.');
  await expectNoFieldError(testName);
  await data.fill('{"Person": {"age": 70}}');
  await row.getByRole('button', { name: 'Apply' }).click();
  await expect(row).toHaveCount(0);

  await page.getByRole('tab', { name: 'Schema' }).click();
  const schema = editorContent(page, 'Schema (JSON)');
  await replaceEditorText(page, 'Schema (JSON)', '[1]');
  await expectFieldError(page, schema, 'A JSON Schema is an object, or true or false.');
  await replaceEditorText(page, 'Schema (JSON)', '');
  await expectNoFieldError(schema);
  await page.context().close();
});

test('a flow’s input, name and description with an error are marked invalid and described by it, until it is gone', async () => {
  const policy = await publishedPolicy('Field errors of a flow', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Flow of field errors',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'no' },
        { id: 'yes', type: 'return', returnValue: true },
        { id: 'no', type: 'return', returnValue: false },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(page.getByRole('heading', { name: 'Flow of field errors' })).toBeVisible();

  const name = page.getByLabel('Name', { exact: true });
  const description = page.getByLabel('Description');
  await description.fill('d'.repeat(10_001));
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expectFieldError(page, description, 'description is 10001 characters long');
  await expectNoFieldError(name);
  await description.fill('Says yes');
  await name.fill('');
  await expectFieldError(page, name, 'A name is needed before the draft can be saved.');
  await name.fill('Flow of field errors');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Draft saved.' })).toBeVisible();
  await expectNoFieldError(description);
  await expectNoFieldError(name);

  const input = page.getByLabel('Input (JSON)');
  for (const [text, error] of [
    ['{"Person": ', 'The test data is not valid JSON'],
    ['"text"', 'The test data must be a JSON object, or a list of them.'],
    ['[]', 'The list of inputs is empty'],
  ]) {
    await input.fill(text);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expectFieldError(page, input, error);
    // The hint still describes it, after the error.
    await expect(input).toHaveAttribute('aria-describedby', 'flow-data-error flow-data-hint');
  }
  await input.fill('{"Person": {"age": 30}}');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('flow-run').locator('.verdict').first()).toHaveText('Flow result: true');
  await expectNoFieldError(input, 'flow-data-hint');
  await page.context().close();
});

test('the forms of sign-in, members, keys, groups, recording and the audit log mark the field a refusal is about, described by the refusal', async () => {
  const page = await newPage();
  await page.goto(server.url + '/console/');
  const key = page.getByLabel('API key');
  await key.fill('not-a-key-of-this-server-at-all-0123456789');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectFieldError(page, key, 'This API key was not accepted');
  await signIn(page, ADMIN_KEY);

  await page.getByRole('link', { name: 'Members', exact: true }).click();
  const email = page.getByLabel('Email', { exact: true });
  const memberName = page.getByLabel('Name (optional)');
  await email.fill('long-name@example.test');
  await memberName.fill('n'.repeat(201));
  await page.getByRole('button', { name: 'Add member' }).click();
  await expectFieldError(page, memberName, 'name is 201 characters long');
  await expectNoFieldError(email);
  await memberName.fill('Long Name');
  await page.getByRole('button', { name: 'Add member' }).click();
  await expect(page.getByRole('status')).toHaveText('long-name@example.test joined as viewer.');
  await expectNoFieldError(memberName);

  await page.getByRole('link', { name: 'Keys', exact: true }).click();
  const keyName = page.getByLabel('Name', { exact: true });
  const expires = page.getByLabel('Expires (optional)');
  await keyName.fill('expired');
  await expires.fill('2001-01-01T00:00');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expectFieldError(page, expires, 'is not in the future');
  await expectNoFieldError(keyName);
  await keyName.fill('k'.repeat(201));
  await expires.fill('');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expectFieldError(page, keyName, 'name is 201 characters long');
  await expectNoFieldError(expires);
  await keyName.fill('field errors');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('region', { name: 'The key “field errors”' })).toBeVisible();
  await expectNoFieldError(keyName);

  await page.goto(server.url + '/console/groups/new');
  const groupName = page.getByLabel('Name', { exact: true });
  await groupName.fill('g'.repeat(201));
  await page.getByRole('button', { name: 'Create group' }).click();
  await expectFieldError(page, groupName, 'name is 201 characters long');
  await groupName.fill('Field errors');
  await page.getByRole('button', { name: 'Create group' }).click();
  await expect(page.getByRole('heading', { name: 'Field errors' })).toBeVisible();
  const groupDescription = page.getByLabel('Description');
  await groupDescription.fill('d'.repeat(10_001));
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expectFieldError(page, groupDescription, 'description is 10001 characters long');
  await expectNoFieldError(groupName);
  await groupDescription.fill('Forms');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('status')).toHaveText('Group saved.');
  await expectNoFieldError(groupDescription);

  const policy = await publishedPolicy('Recording field errors', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  await page.goto(`${server.url}/console/policies/${policy.baseId}?tab=decisions`);
  const share = page.getByLabel('Share of runs recorded (%)');
  const mask = page.getByLabel('Masked paths, one a line');
  await share.fill('0');
  await page.getByRole('button', { name: 'Save recording' }).click();
  await expectFieldError(page, share, 'The share of runs recorded must be a number greater than 0 and at most 100.');
  await expectNoFieldError(mask);
  await share.fill('50');
  await mask.fill('Person.ssn');
  await page.getByRole('button', { name: 'Save recording' }).click();
  await expectFieldError(page, mask, 'must start with $. and name a member');
  await expectNoFieldError(share);
  await mask.fill('$.Person.ssn');
  await page.getByRole('button', { name: 'Save recording' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved:' })).toBeVisible();
  await expectNoFieldError(mask);
  const until = page.getByLabel('Until');
  await page.getByLabel('From').fill('2099-01-01T00:00');
  await until.fill('2098-01-01T00:00');
  await expectFieldError(page, until, 'Until must be later than From.');
  await until.fill('');
  await expectNoFieldError(until);

  await page.getByRole('link', { name: 'Audit log' }).click();
  const auditUntil = page.getByLabel('Until');
  await page.getByLabel('From').fill('2099-01-01T00:00');
  await auditUntil.fill('2098-01-01T00:00');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await expectFieldError(page, auditUntil, 'Until must be later than From.');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expectNoFieldError(auditUntil);
  await page.context().close();
});

test('Save draft and Create draft say in a status that they did it, for a policy and a flow, by the button and by Ctrl+S', async () => {
  const draft = await rest(server.url, ADMIN_KEY, 'POST', '/policy', { name: 'Saved aloud', rule: 'A **Person** is adult if the __age__ of the **Person** is at least 18.' });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${draft.baseId}`);
  const saved = page.getByRole('status').filter({ hasText: 'Draft saved.' });
  await page.getByLabel('Name', { exact: true }).fill('Saved aloud again');
  await expect(saved).toHaveCount(0);
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(saved).toHaveText('Draft saved.');
  await page.getByLabel('Name', { exact: true }).fill('Saved aloud once more');
  // The next save takes the last one's word away first, then says its own.
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('heading', { name: 'Saved aloud once more' })).toBeVisible();
  await expect(saved).toHaveText('Draft saved.');

  await page.goto(`${server.url}/console/flows/new`);
  await page.getByLabel('Name', { exact: true }).fill('Created aloud');
  await page.getByRole('button', { name: 'Create draft' }).click();
  await expect(page.getByRole('heading', { name: 'Created aloud' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Draft created.' })).toHaveText('Draft created.');
  await page.getByLabel('Description').fill('Said aloud');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(saved).toHaveText('Draft saved.');
  await page.context().close();
});

/** axe-core's check that each control's accessible name holds its visible label (WCAG 2.5.3). */
async function labelsInNames(page, screen) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { runOnly: { type: 'rule', values: ['label-content-name-mismatch'] } }));
  assert.deepEqual(
    result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))),
    [],
    `controls whose name does not hold their visible label on ${screen}`,
  );
}

/** The accessible names of the buttons a locator finds: their text, for those without an aria-label. */
async function buttonNames(buttons) {
  return buttons.evaluateAll((all) => all.map((b) => (b.getAttribute('aria-label') ?? b.textContent).replace(/\s+/g, ' ').trim()));
}

test('the Open and Details buttons of a list each name what they open after their visible label, and Use data holds its label', async () => {
  const policy = await publishedPolicy('Named buttons', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${policy.baseId}/decision-records`, { enabled: true });
  for (const age of [30, 12]) await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${policy.baseId}`, { data: { Person: { age } } });
  await expect({
    toString: () => 'the recorded decisions',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${policy.baseId}`)).items.length,
  }).toHaveCount(2);
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/policies/${policy.baseId}?tab=decisions`);
  const opens = page.getByRole('table', { name: 'Recorded decisions' }).getByRole('button');
  await expect(opens).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Open', exact: true })).toHaveCount(0);
  const names = await buttonNames(opens);
  assert.equal(new Set(names).size, 2, `the buttons are named ${names.join(' | ')}`);
  for (const n of names) assert.match(n, /^Open the decision of .+, (true|false)$/);
  await opens.first().click();
  await expect(opens.first()).toHaveText(/^Close the decision of /);
  await labelsInNames(page, 'the Decisions tab');

  await page.getByRole('link', { name: 'Audit log' }).click();
  const details = page.getByRole('table', { name: 'Audit events' }).getByRole('button');
  await expect(details.first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Details', exact: true })).toHaveCount(0);
  const events = await buttonNames(details);
  for (const n of events) assert.match(n, /^Details of \S/);
  await page.goto(`${server.url}/console/audit?base=${policy.baseId}`);
  await expect(details.first()).toHaveText(/Named buttons/);
  const own = await buttonNames(details);
  for (const done of ['created', 'published', 'executed']) {
    assert.ok(own.some((n) => n.startsWith(`Details of ${done} policy Named buttons, `)), `the buttons are named ${own.join(' | ')}`);
  }
  await labelsInNames(page, 'the audit log');

  // A test's Use data holds what it shows.
  const withTest = await rest(server.url, ADMIN_KEY, 'POST', '/policy', {
    name: 'Use data names',
    rule: 'A **Person** is adult if the __age__ of the **Person** is at least 18.',
    tests: [{ name: 'an adult', data: { Person: { age: 30 } }, expect: true }],
  });
  await page.goto(`${server.url}/console/policies/${withTest.baseId}?tab=tests`);
  await expect(page.getByRole('button', { name: 'Use data of an adult' })).toBeVisible();
  await labelsInNames(page, 'a policy’s tests');
  await page.context().close();
});

/** The levels of the headings the page shows, in order. */
function headingLevels(page) {
  return page.locator('main').evaluate((main) =>
    [...main.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => h.checkVisibility()).map((h) => Number(h.tagName[1])),
  );
}

/** Headings that start at h1 and go down one level at a time, never skipping one. */
function assertNoSkippedLevel(levels, screen) {
  assert.ok(
    levels[0] === 1 && levels.every((l, i) => i === 0 || l <= levels[i - 1] + 1),
    `the headings of ${screen} go ${levels.map((l) => `h${l}`).join(' → ')}`,
  );
}

test('the page of a decision, and the Decisions tab that opens one, go from h1 down one heading level at a time', async () => {
  const policy = await publishedPolicy('Heading levels', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  await rest(server.url, ADMIN_KEY, 'PUT', `/policy/${policy.baseId}/decision-records`, { enabled: true });
  await rest(server.url, ADMIN_KEY, 'POST', `/run/policy/${policy.baseId}`, { data: { Person: { age: 30 } } });
  await expect({
    toString: () => 'the recorded decision',
    count: async () => (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${policy.baseId}`)).items.length,
  }).toHaveCount(1);
  const [decision] = (await rest(server.url, ADMIN_KEY, 'GET', `/decisions?baseId=${policy.baseId}`)).items;
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/decisions/${decision.id}`);
  const region = page.getByRole('region', { name: `Decision ${decision.id}` });
  await expect(region.locator('.verdict')).toContainText('Result: true');
  await expect(page.getByRole('heading', { level: 2, name: 'Run again on the stored input' })).toBeVisible();
  assertNoSkippedLevel(await headingLevels(page), 'the decision page');

  await page.goto(`${server.url}/console/policies/${policy.baseId}?tab=decisions`);
  await page.getByRole('table', { name: 'Recorded decisions' }).getByRole('button', { name: /^Open/ }).click();
  await expect(page.getByRole('region', { name: `Decision ${decision.id}` }).locator('.verdict')).toContainText('Result: true');
  assertNoSkippedLevel(await headingLevels(page), 'the Decisions tab');
  await page.getByRole('tab', { name: 'Rule and try it' }).click();
  assertNoSkippedLevel(await headingLevels(page), 'the policy’s editor');
  await page.context().close();
});

test('a branch that leads back to the start node is drawn, with its error', async () => {
  const policy = await publishedPolicy('Back to start', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Back to the start',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'p', onFalse: 'no' },
        { id: 'p', type: 'policy', policy: { baseId: policy.baseId }, onTrue: 's', onFalse: 'no' },
        { id: 'no', type: 'return', returnValue: false },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  const branch = page.locator('.react-flow__edge.fedge-problem');
  await expect(branch).toHaveCount(1);
  await expect(branch).toHaveAttribute('aria-label', 'true branch from p to s. Error: Node "s" cannot be a branch target');
  await expect(page.locator('.react-flow__edge')).toHaveCount(4);
  await page.context().close();
});

test('a flow graph says in words which of its problems are errors and which warnings, on the nodes and the branches that have them', async () => {
  const policy = await publishedPolicy('Graph words', 'A **Person** is adult if the __age__ of the **Person** is at least 18.');
  const flow = await rest(server.url, ADMIN_KEY, 'POST', '/flow', {
    name: 'Problems in words',
    definition: {
      formatVersion: 1,
      start: 's',
      nodes: [
        { id: 's', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'p' },
        { id: 'p', type: 'policy', policy: { baseId: policy.baseId }, onTrue: 's2', onFalse: 'yes' },
        // A second start node, which no branch may lead to: the branch to it has the error.
        { id: 's2', type: 'start', policy: { baseId: policy.baseId }, onTrue: 'yes', onFalse: 'yes' },
        { id: 'yes', type: 'return', returnValue: true },
      ],
    },
  });
  const page = await newPage();
  await signIn(page, ADMIN_KEY);
  await page.goto(`${server.url}/console/flows/${flow.baseId}`);
  await expect(flowNode(page, 's').locator('li.problem-warning').first()).toHaveText(/^Warning: start node "s" is missing a FALSE path/);
  await expect(flowNode(page, 's2').locator('li.problem-error').first()).toHaveText(/^Error: /);
  const branch = page.locator('.react-flow__edge.fedge-problem');
  await expect(branch).toHaveCount(1);
  await expect(branch).toContainText('true · Error: Node "s2" cannot be a branch target');
  await expect(branch).toHaveAttribute('aria-label', 'true branch from p to s2. Error: Node "s2" cannot be a branch target');
  const listed = page.getByRole('list', { name: 'Nodes with problems' });
  await expect(listed.getByRole('button', { name: /^s: / })).toHaveText(/^s: (\d+ errors? and )?1 warning$/);
  await expect(listed.getByRole('button', { name: /^s2: / })).toHaveText(/^s2: \d+ errors?$/);
  await page.screenshot({ path: join(shots, 'flow-problem-words.png'), fullPage: true });
  await page.context().close();
});
