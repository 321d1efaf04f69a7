import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ViewerDocument } from '@verdict/client';
import { Api, KEY_STORAGE, VerdictError, errorMessage, saysUnreachable } from './api';
import { useRetryWhileUnreachable } from './reconnect';
import { BASE, Link, lastPathReplaced, match, useLocation } from './router';
import type { Location } from './router';
import { SessionContext, capabilities, effectiveRole, viewerIdentity } from './session';
import type { Capabilities, Session, Viewer } from './session';
import { SignIn } from './pages/SignIn';
import { claimStored, forgetStored, keptForUser } from './sessionStore';
import { FlowList, PolicyList } from './pages/BaseList';
import { GroupList, GroupPage } from './pages/Groups';
import { AuditLog } from './pages/AuditLog';
import { Keys, Members } from './pages/Admin';
import { useTitle } from './title';

// The editors and the comparisons bring CodeMirror, the diff library, and
// xyflow with dagre: they load when first opened, so the first screen stays
// small.
const PolicyPage = lazy(() => import('./pages/PolicyPage'));
const ComparePage = lazy(() => import('./pages/ComparePage'));
const FlowPage = lazy(() => import('./pages/FlowPage'));
const FlowComparePage = lazy(() => import('./pages/FlowComparePage'));
const DecisionPage = lazy(() => import('./pages/DecisionPage'));

interface Route {
  pattern: string;
  render: (params: Record<string, string>, loc: Location) => ReactNode;
  /** Who may open the screen; everyone signed in when absent. */
  allowed?: (can: Capabilities) => boolean;
}

// Screens by path below /console/. Each section's routes start with its
// name, so sections (flows, groups, the audit log, administration) add
// their own entries here and in `sections`.
const routes: Route[] = [
  { pattern: '', render: () => <PolicyList /> },
  { pattern: 'policies', render: () => <PolicyList /> },
  { pattern: 'policies/new', render: () => <PolicyPage baseId="" />, allowed: (can) => can.edit },
  { pattern: 'policies/:baseId/compare', render: (p, loc) => <ComparePage baseId={p.baseId!} left={loc.params.get('left') ?? ''} right={loc.params.get('right') ?? ''} /> },
  { pattern: 'policies/:baseId', render: (p, loc) => <PolicyPage baseId={p.baseId!} recordId={loc.params.get('record') ?? ''} /> },
  { pattern: 'flows', render: () => <FlowList /> },
  { pattern: 'flows/new', render: () => <FlowPage baseId="" />, allowed: (can) => can.edit },
  { pattern: 'flows/:baseId/compare', render: (p, loc) => <FlowComparePage baseId={p.baseId!} left={loc.params.get('left') ?? ''} right={loc.params.get('right') ?? ''} /> },
  { pattern: 'flows/:baseId', render: (p, loc) => <FlowPage baseId={p.baseId!} recordId={loc.params.get('record') ?? ''} /> },
  { pattern: 'groups', render: () => <GroupList /> },
  { pattern: 'groups/new', render: () => <GroupList creating />, allowed: (can) => can.edit },
  { pattern: 'groups/:id', render: (p) => <GroupPage id={p.id!} /> },
  { pattern: 'audit', render: () => <AuditLog />, allowed: (can) => can.readAudit },
  { pattern: 'decisions/:id', render: (p) => <DecisionPage id={p.id!} />, allowed: (can) => can.readAudit },
  { pattern: 'admin/members', render: () => <Members />, allowed: (can) => can.admin },
  { pattern: 'admin/keys', render: () => <Keys />, allowed: (can) => can.admin },
];

interface Section {
  label: string;
  to: string;
  prefix: string;
  visible: (can: Capabilities) => boolean;
}

const sections: Section[] = [
  { label: 'Policies', to: 'policies', prefix: 'policies', visible: (can) => can.view },
  { label: 'Flows', to: 'flows', prefix: 'flows', visible: (can) => can.view },
  { label: 'Groups', to: 'groups', prefix: 'groups', visible: (can) => can.view },
  { label: 'Audit log', to: 'audit', prefix: 'audit', visible: (can) => can.readAudit },
  { label: 'Members', to: 'admin/members', prefix: 'admin/members', visible: (can) => can.admin },
  { label: 'Keys', to: 'admin/keys', prefix: 'admin/keys', visible: (can) => can.admin },
];

type State =
  | { kind: 'signed-out'; message: string }
  // `unchecked`, while a try of a key that could not be checked runs: what
  // the page said then stays up meanwhile.
  | { kind: 'checking'; key: string; unchecked?: string }
  // The key could not be checked (no answer, or not a usable one): it is
  // kept, and the check is tried again on request.
  | { kind: 'unchecked'; key: string; message: string }
  | { kind: 'signed-in'; key: string; viewer: Viewer };

const KEY_REFUSED = 'Your API key is no longer accepted (it was revoked or has expired).';
// Unsaved text comes back to the same user with another key; an
// organization key's comes back to no other key.
const KEY_REFUSED_USER = `${KEY_REFUSED} Sign in with another of your keys: unsaved text in the editor is kept.`;
const KEY_REFUSED_ORGANIZATION_KEY = `${KEY_REFUSED} Sign in with another key; text not saved with this one is not kept for another.`;

export function App() {
  const [state, setState] = useState<State>(() => {
    const key = sessionStorage.getItem(KEY_STORAGE);
    return key ? { kind: 'checking', key } : { kind: 'signed-out', message: '' };
  });

  const signOut = useCallback((message = '') => {
    sessionStorage.removeItem(KEY_STORAGE);
    setState({ kind: 'signed-out', message });
  }, []);

  const key = state.kind === 'signed-out' ? '' : state.key;
  // An action refused to the role reads the viewer again, once at a time:
  // a role lowered since sign-in shows in the header and in what the pages
  // offer.
  const api = useMemo(() => {
    if (!key) return null;
    let reading = false;
    const made: Api = new Api(
      key,
      () => signOut(keptForUser() ? KEY_REFUSED_USER : KEY_REFUSED_ORGANIZATION_KEY),
      () => {
        if (reading) return;
        reading = true;
        made.request(ViewerDocument).then(
          ({ viewer }) => setState((s) => (s.kind === 'signed-in' && s.key === key ? { ...s, viewer } : s)),
          () => {},
        ).finally(() => {
          reading = false;
        });
      },
    );
    return made;
  }, [key, signOut]);

  useEffect(() => {
    if (state.kind !== 'checking' || !api) return;
    let live = true;
    api.request(ViewerDocument).then(
      ({ viewer }) => {
        if (!live) return;
        // Unsaved work kept from a key that stopped working is only for the
        // same viewer; anyone else signing in starts from nothing of theirs.
        claimStored(viewerIdentity(viewer));
        sessionStorage.setItem(KEY_STORAGE, state.key);
        setState({ kind: 'signed-in', key: state.key, viewer });
      },
      (err) => {
        if (!live) return;
        // Only the server's refusal of the key forgets it: a server that
        // cannot be reached, or answers with an error of its own, says
        // nothing of the key, which is kept for trying again.
        if (err instanceof VerdictError && err.code === 'unauthenticated') {
          sessionStorage.removeItem(KEY_STORAGE);
          setState({ kind: 'signed-out', message: 'This API key was not accepted: it is unknown, revoked or expired.' });
          return;
        }
        setState({ kind: 'unchecked', key: state.key, message: `Could not sign in: ${errorMessage(err)}` });
      },
    );
    return () => {
      live = false;
    };
  }, [state, api]);

  // A key that could not be checked for want of a server is checked again
  // by itself once the server may answer, as Try again does.
  useRetryWhileUnreachable(state.kind === 'unchecked' && saysUnreachable(state.message), () =>
    setState((s) => (s.kind === 'unchecked' ? { kind: 'checking', key: s.key, unchecked: s.message } : s)),
  );

  const session = useMemo<Session | null>(() => {
    if (state.kind !== 'signed-in' || !api) return null;
    const role = effectiveRole(state.viewer);
    // Signing out forgets the user's unsaved work too; a key the server
    // stops accepting keeps it, for the same user to sign in again.
    const signOutUser = () => {
      forgetStored();
      signOut();
    };
    return { api, apiKey: state.key, viewer: state.viewer, role, can: capabilities(role), signOut: signOutUser };
  }, [state, api, signOut]);

  if (!session) {
    return (
      <SignIn
        busy={state.kind === 'checking'}
        message={state.kind === 'signed-out' || state.kind === 'unchecked' ? state.message : state.kind === 'checking' ? (state.unchecked ?? '') : ''}
        onRetry={state.kind === 'unchecked' || (state.kind === 'checking' && state.unchecked) ? () => setState({ kind: 'checking', key: state.key }) : undefined}
        onSubmit={(k) => setState({ kind: 'checking', key: k })}
      />
    );
  }
  return (
    <SessionContext.Provider value={session}>
      <Shell session={session} />
    </SessionContext.Provider>
  );
}

const roleNames: Record<string, string> = {
  VIEWER: 'Viewer',
  EDITOR: 'Editor',
  PUBLISHER: 'Publisher',
  ADMIN: 'Admin',
  AUDITOR: 'Auditor',
};

/**
 * After a navigation within the console (not the first load), focus goes to
 * the top of the new page's content, the main region, as a page loaded
 * anew would start there: a section's link keeps it in the header, and a
 * link that leaves with its page drops it to the body. Focus the new page
 * placed in its content itself (a field that focuses itself) stays there,
 * and a page given another address in place (a new record once saved, by
 * a replace) keeps its focus.
 */
function useFocusOnNavigation(path: string): void {
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    // The same page given another address (a new record saved) keeps its focus.
    if (lastPathReplaced()) return;
    const main = document.getElementById('main');
    const from = document.activeElement;
    if (!main) return;
    if (!from || from === document.body || !main.contains(from)) {
      main.focus({ preventScroll: true });
      return;
    }
    // A control of the page before (the link followed) may stay focused
    // while the next page loads, hidden, until it goes with its page.
    const start = performance.now();
    const step = () => {
      const el = document.activeElement;
      const lost = !el || el === document.body || (el === from && !(from as HTMLElement).checkVisibility?.());
      if (lost) main.focus({ preventScroll: true });
      else if (el === from && performance.now() - start < 10_000) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }, [path]);
}

function Shell({ session }: { session: Session }) {
  const loc = useLocation();
  useFocusOnNavigation(loc.path);
  const { viewer } = session;
  let page: ReactNode = <NotFound />;
  for (const r of routes) {
    const params = match(r.pattern, loc.path);
    if (params) {
      page = !r.allowed || r.allowed(session.can) ? r.render(params, loc) : <NotAllowed />;
      break;
    }
  }
  const who = viewer.user ? (
    <span title={viewer.user.email}>
      {viewer.user.name ? `${viewer.user.name} (${viewer.user.email})` : viewer.user.email}
    </span>
  ) : (
    <span>Organization key “{viewer.key.name}”</span>
  );
  const capped = session.role !== viewer.role;
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href={BASE}>
          <span className="brand-mark" aria-hidden="true">
            V
          </span>
          Verdict
        </a>
        <nav aria-label="Sections">
          {sections
            .filter((s) => s.visible(session.can))
            .map((s) => (
              <Link key={s.to} to={s.to} className="nav-link" aria-current={(loc.path === '' && s.prefix === 'policies') || loc.path.startsWith(s.prefix) ? 'page' : undefined}>
                {s.label}
              </Link>
            ))}
        </nav>
        <div className="who" data-testid="who">
          <span className="org" title="Organization">
            {viewer.organization.name}
          </span>
          <span className="sep" aria-hidden="true">
            ·
          </span>
          {who}
          <span className={`role role-${session.role.toLowerCase()}`} title={capped ? `Role ${roleNames[viewer.role]}, limited by the key's ${viewer.key.scope.toLowerCase()} scope` : 'Role'}>
            {roleNames[session.role]}
          </span>
          <a
            className="btn btn-ghost"
            href={`/playground?key=${encodeURIComponent(session.apiKey)}`}
            target="_blank"
            rel="noopener noreferrer"
            title="Opens in a new tab, signed in with this key"
          >
            GraphQL playground
          </a>
          <button type="button" className="btn btn-ghost" onClick={session.signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="muted pad">Loading…</p>}>{page}</Suspense>
      </main>
    </div>
  );
}

function NotAllowed() {
  useTitle('Not for your role');
  return (
    <div className="pad">
      <h1>Not for your role</h1>
      <p>
        Your role does not let you open this page. <Link to="policies">Go to the policies.</Link>
      </p>
    </div>
  );
}

function NotFound() {
  useTitle('Not found');
  return (
    <div className="pad">
      <h1>Not found</h1>
      <p>
        There is no such page. <Link to="policies">Go to the policies.</Link>
      </p>
    </div>
  );
}
