import { useCallback, useEffect, useRef, useState } from 'react';
import { AddMemberDocument, ChangeMemberRoleDocument, CreateKeyDocument, KeysDocument, MembersDocument, RemoveMemberDocument, RevokeKeyDocument } from '@verdict/client';
import type { MemberFieldsFragment, Role, Scope } from '@verdict/client';
import { errorMessage } from '../api';
import { focusNextWhenGone, returnFocus } from '../focus';
import { enumWord, formatTime } from '../format';
import { useSession } from '../session';
import { useSearchParam } from '../searchTerm';
import { useLookups, useNameLookup } from '../lookups';
import type { Notice } from '../action';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { NoticeLine } from '../components/NoticeLine';
import { invalidField, refusedField } from '../components/FieldError';
import { PagesError, Pager, pagedTable, useAddressPages } from '../components/Pager';
import { SearchField } from '../components/SearchField';
import { SearchCombo } from '../components/SearchCombo';
import type { Choice, ComboWords } from '../components/SearchCombo';
import { useTitle } from '../title';

const roles: Role[] = ['VIEWER', 'EDITOR', 'PUBLISHER', 'ADMIN', 'AUDITOR'];
const scopes: Scope[] = ['VIEW', 'EDIT', 'PUBLISH', 'ADMIN'];

export function Members() {
  const { api, viewer } = useSession();
  const [version, setVersion] = useState(0);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const [notice, setNotice] = useState<Notice | null>(null);
  // The member asked about, and the Remove button that asked.
  const [removing, setRemoving] = useState<{ member: MemberFieldsFragment; button: HTMLElement } | null>(null);
  // A role chosen in a row's select is only staged, by user id: arrow keys
  // on a closed select change it at each press. Change role asks, and only
  // then is the role changed.
  const [staged, setStaged] = useState<Record<string, Role>>({});
  // The change asked about, and the row's select, where focus goes after.
  const [changing, setChanging] = useState<{ member: MemberFieldsFragment; role: Role; select: HTMLSelectElement } | null>(null);
  // The member whose change was confirmed, until the list shows it.
  const [applying, setApplying] = useState<string | null>(null);
  const search = useSearchParam();
  useTitle('Members');

  const load = useCallback(
    async (after: string | null) => (await api.request(MembersDocument, { first: 50, after, query: search.term || null })).members,
    [api, search.term],
  );
  const pages = useAddressPages(load, version);

  // A list read again drops the staged roles it now shows.
  useEffect(() => {
    setApplying(null);
    setStaged((s) => {
      const left = { ...s };
      for (const m of pages.items ?? []) if (left[m.user.id] === m.role) delete left[m.user.id];
      return Object.keys(left).length === Object.keys(s).length ? s : left;
    });
  }, [pages.items]);

  const unstage = (userId: string) =>
    setStaged((s) => {
      const left = { ...s };
      delete left[userId];
      return left;
    });

  const act = async (what: () => Promise<string>) => {
    setNotice(null);
    try {
      const text = await what();
      setNotice({ kind: 'ok', text });
      setVersion((v) => v + 1);
    } catch (err) {
      setNotice({ kind: 'error', text: errorMessage(err) });
    }
  };

  // The field of the form a refused addition is about, which names the refusal.
  const refused = refusedField(notice, {
    'member-email': /^email\b|is not an email address|is a member of that organization already/,
    'member-name': /^name\b/,
  });
  const invalid = (field: string) => invalidField(refused === field && 'member-notice');

  return (
    <div className="page">
      <div className="page-head">
        <h1>Members</h1>
      </div>
      <form
        className="panel form-row"
        aria-label="Add a member"
        onSubmit={(e) => {
          e.preventDefault();
          if (!email.trim()) return;
          void act(async () => {
            const m = (await api.request(AddMemberDocument, { input: { email: email.trim(), name: name.trim() || null, role } })).addMember!;
            setEmail('');
            setName('');
            return `${m.user.email} joined as ${m.role.toLowerCase()}.`;
          });
        }}
      >
        <div className="field grow">
          <label htmlFor="member-email">Email</label>
          <input id="member-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" {...invalid('member-email')} />
        </div>
        <div className="field">
          <label htmlFor="member-name">Name (optional)</label>
          <input id="member-name" value={name} onChange={(e) => setName(e.target.value)} {...invalid('member-name')} />
        </div>
        <div className="field">
          <label htmlFor="member-role">Role</label>
          <select id="member-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {roles.map((r) => (
              <option key={r} value={r}>
                {enumWord(r)}
              </option>
            ))}
          </select>
        </div>
        {/* Marked disabled, not disabled: the email is emptied once the member is added, and focus stays on the button. */}
        <button type="submit" className="btn btn-primary" aria-disabled={!email.trim()}>
          Add member
        </button>
      </form>
      <NoticeLine notice={notice} id="member-notice" />
      <PagesError pages={pages} />
      <div className="filters" role="search">
        <SearchField search={search} id="member-search" label="Search by email or name" placeholder="Email or name contains…" />
      </div>
      <table {...pagedTable(pages)} aria-label="Members">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Joined</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((m) => (
            <tr key={m.id}>
              <td>
                {m.user.email}
                {m.user.id === viewer.user?.id && <span className="muted"> (you)</span>}
              </td>
              <td>{m.user.name}</td>
              <td>
                <div className="role-cell">
                  <select
                    aria-label={`Role of ${m.user.email}`}
                    value={staged[m.user.id] ?? m.role}
                    onChange={(e) => {
                      const next = e.target.value as Role;
                      setStaged((s) => ({ ...s, [m.user.id]: next }));
                    }}
                    onKeyDown={(e) => {
                      if (e.key === 'Escape' && staged[m.user.id] !== undefined && applying !== m.user.id) unstage(m.user.id);
                    }}
                  >
                    {roles.map((r) => (
                      <option key={r} value={r}>
                        {enumWord(r)}
                      </option>
                    ))}
                  </select>
                  {staged[m.user.id] !== undefined && staged[m.user.id] !== m.role && applying !== m.user.id && (
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Change role of ${m.user.email}`}
                      onClick={(e) => {
                        const select = e.currentTarget.parentElement!.querySelector('select')!;
                        setChanging({ member: m, role: staged[m.user.id]!, select });
                      }}
                    >
                      Change role
                    </button>
                  )}
                </div>
              </td>
              <td>{formatTime(m.createdAt)}</td>
              <td>
                <button type="button" className="btn btn-ghost btn-small" onClick={(e) => setRemoving({ member: m, button: e.currentTarget })} aria-label={`Remove ${m.user.email}`}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {/* An organization keeps an admin, so only a search lists no member. */}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={5} className="muted empty">
                No member matches.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
      {changing && (
        <ConfirmDialog
          title={`Make ${changing.member.user.email} ${enumWord(changing.role).toLowerCase()}?`}
          confirmLabel={`Make ${enumWord(changing.role).toLowerCase()}`}
          onCancel={() => {
            unstage(changing.member.user.id);
            returnFocus(changing.select);
            setChanging(null);
          }}
          onConfirm={() => {
            const { member: m, role: next, select } = changing;
            setApplying(m.user.id);
            returnFocus(select);
            setChanging(null);
            void act(async () => {
              try {
                await api.request(ChangeMemberRoleDocument, { input: { userId: m.user.id, role: next } });
              } catch (err) {
                setApplying(null);
                unstage(m.user.id);
                throw err;
              }
              return `${m.user.email} is now ${next.toLowerCase()}.`;
            });
          }}
        >
          {changing.member.user.email} goes from {enumWord(changing.member.role).toLowerCase()} to {enumWord(changing.role).toLowerCase()}.
          {changing.member.user.id === viewer.user?.id && changing.member.role === 'ADMIN' && (
            <strong>
              {' '}
              This is your own role: you demote yourself, and can no longer manage members and keys, nor make yourself admin again.
            </strong>
          )}
        </ConfirmDialog>
      )}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.member.user.email}?`}
          confirmLabel={`Remove ${removing.member.user.email}`}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const m = removing.member;
            focusNextWhenGone(removing.button);
            setRemoving(null);
            void act(async () => {
              await api.request(RemoveMemberDocument, { input: { userId: m.user.id } });
              return `${m.user.email} left the organization; their keys here are revoked.`;
            });
          }}
        >
          They leave the organization, and every key of theirs here stops working.
        </ConfirmDialog>
      )}
    </div>
  );
}

/** A new key's owner when no member is chosen. */
const organization: Choice = { id: '', name: 'The organization' };

const memberWords: ComboWords = {
  list: 'Members',
  noMatch: 'No member matches.',
  moreMatch: 'More members match: type more of the email or name.',
  more: 'More members: type part of an email or name to find them.',
};

function keyStatus(k: { revokedAt?: string | null; expiresAt?: string | null }): string {
  if (k.revokedAt) return `Revoked ${formatTime(k.revokedAt)}`;
  if (k.expiresAt && new Date(k.expiresAt).getTime() <= Date.now()) return 'Expired';
  return 'Active';
}

export function Keys() {
  const { api } = useSession();
  const [version, setVersion] = useState(0);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<Scope>('VIEW');
  const [owner, setOwner] = useState<Choice>(organization);
  const [expires, setExpires] = useState('');
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [copied, setCopied] = useState('');
  // The new key's Copy button takes focus as the key is shown; Done gives it back to Create key.
  const createButton = useRef<HTMLButtonElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (created) copyButton.current?.focus();
  }, [created]);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The key asked about, and the Revoke button that asked.
  const [revoking, setRevoking] = useState<{ id: string; name: string; button: HTMLElement } | null>(null);
  const search = useSearchParam();
  useTitle('API keys');

  const load = useCallback(
    async (after: string | null) => (await api.request(KeysDocument, { first: 50, after, query: search.term || null })).keys,
    [api, search.term],
  );
  const pages = useAddressPages(load, version);

  // The owner of a new key is found among the members on the server, however many there are.
  const findMembers = useCallback(
    async (query: string | null, first: number) => {
      const r = await api.request(MembersDocument, { first, query });
      return {
        choices: r.members.edges.map((e) => ({ id: e.node.user.id, name: e.node.user.email, detail: e.node.user.name || undefined })),
        more: r.members.pageInfo.hasNextPage,
      };
    },
    [api],
  );

  // The users owning the keys listed are named by asking the server for each of them, once.
  const lookUpName = useNameLookup();
  const users = useLookups((pages.items ?? []).filter((k) => k.owner.kind === 'USER').map((k) => k.owner.id), lookUpName);
  const ownerName = (o: { kind: string; id: string }) => {
    if (o.kind === 'ORGANIZATION') return 'Organization';
    const email = users.get(o.id);
    // A former member is no longer found: the key is named by the end of the user's id.
    return email === undefined ? '…' : email ?? `User ${o.id.slice(-6)}`;
  };

  const onCreate = async () => {
    setNotice(null);
    setCopied('');
    try {
      const expiresAt = expires ? new Date(expires).toISOString() : null;
      const res = (await api.request(CreateKeyDocument, { input: { name: name.trim(), scope, userId: owner.id || null, expiresAt } })).createKey!;
      setCreated({ name: res.key.name, secret: res.secret });
      setName('');
      setExpires('');
      setVersion((v) => v + 1);
    } catch (err) {
      setNotice({ kind: 'error', text: errorMessage(err) });
    }
  };

  const onCopy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('The browser did not allow copying: select the key and copy it yourself.');
    }
  };

  // The field of the form a refused key is about, which names the refusal.
  const refused = refusedField(notice, { 'key-name': /^name\b/, 'key-expires': /^the expiry\b/ });
  const invalid = (field: string) => invalidField(refused === field && 'key-notice');

  return (
    <div className="page">
      <div className="page-head">
        <h1>API keys</h1>
      </div>
      <form
        className="panel form-row"
        aria-label="Create a key"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) void onCreate();
        }}
      >
        <div className="field grow">
          <label htmlFor="key-name">Name</label>
          <input id="key-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" {...invalid('key-name')} />
        </div>
        <div className="field">
          <label htmlFor="key-scope">Scope</label>
          <select id="key-scope" value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
            {scopes.map((s) => (
              <option key={s} value={s}>
                {enumWord(s)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-owner">Owner</label>
          <SearchCombo id="key-owner" none={organization} chosen={owner.id} shown={owner.name} find={findMembers} words={memberWords} onPick={setOwner} />
        </div>
        <div className="field">
          <label htmlFor="key-expires">Expires (optional)</label>
          <input id="key-expires" type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} {...invalid('key-expires')} />
        </div>
        {/* Marked disabled, not disabled: the name is emptied once the key is made, and Done brings focus back here. */}
        <button ref={createButton} type="submit" className="btn btn-primary" aria-disabled={!name.trim()}>
          Create key
        </button>
      </form>
      {created && (
        <section className="panel secret" aria-labelledby="secret-heading" role="region">
          <h2 id="secret-heading">The key “{created.name}”</h2>
          <p className="alert alert-info" id="secret-warning">
            Copy the key now: this is the only time it is shown. Only its hash is stored, and nobody can show it again. Keep it like a password.
          </p>
          <div className="secret-row">
            <code data-testid="new-secret" className="secret-value">
              {created.secret}
            </code>
            <button ref={copyButton} type="button" className="btn btn-primary" aria-describedby="secret-heading secret-warning" onClick={() => void onCopy()}>
              Copy key
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => {
                createButton.current?.focus();
                setCreated(null);
                setCopied('');
              }}
            >
              Done
            </button>
          </div>
          {copied && (
            <p className="muted small" role="status">
              {copied}
            </p>
          )}
        </section>
      )}
      <NoticeLine notice={notice} id="key-notice" />
      <PagesError pages={pages} />
      <div className="filters" role="search">
        <SearchField search={search} id="key-search" />
      </div>
      <table {...pagedTable(pages)} aria-label="Keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Scope</th>
            <th scope="col">Owner</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((k) => (
            <tr key={k.id}>
              <td>{k.name}</td>
              <td>
                <code>{k.prefix}</code>
              </td>
              <td>{enumWord(k.scope)}</td>
              <td>{ownerName(k.owner)}</td>
              <td>{formatTime(k.createdAt)}</td>
              <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'Never'}</td>
              <td>{k.expiresAt ? formatTime(k.expiresAt) : 'Never'}</td>
              <td>{keyStatus(k)}</td>
              <td>
                {!k.revokedAt && (
                  <button type="button" className="btn btn-ghost btn-small" onClick={(e) => setRevoking({ id: k.id, name: k.name, button: e.currentTarget })} aria-label={`Revoke ${k.name}`}>
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
          {/* The key signed in with is listed, so only a search lists none. */}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={9} className="muted empty">
                No key matches.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
      {revoking && (
        <ConfirmDialog
          title={`Revoke the key “${revoking.name}”?`}
          confirmLabel={`Revoke “${revoking.name}”`}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const k = revoking;
            focusNextWhenGone(k.button);
            setRevoking(null);
            setNotice(null);
            api.request(RevokeKeyDocument, { input: { id: k.id } }).then(
              () => {
                setNotice({ kind: 'ok', text: `The key “${k.name}” is revoked: it is refused from now on.` });
                setVersion((v) => v + 1);
              },
              (err) => setNotice({ kind: 'error', text: errorMessage(err) }),
            );
          }}
        >
          Every request with this key is refused from now on. It stays in the list, for the audit trail. This cannot be undone.
        </ConfirmDialog>
      )}
    </div>
  );
}
