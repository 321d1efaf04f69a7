import { useCallback, useEffect, useRef, useState } from 'react';
import {
  AddGroupMemberDocument,
  CreateGroupDocument,
  DeleteGroupDocument,
  FlowsDocument,
  GroupDocument,
  GroupFlowsDocument,
  GroupMembershipDocument,
  GroupPoliciesDocument,
  GroupsDocument,
  PoliciesDocument,
  RemoveGroupMemberDocument,
  UpdateGroupDocument,
} from '@verdict/client';
import type { GroupFieldsFragment, GroupMemberKind } from '@verdict/client';
import { errorMessage, namesNothing, saysUnreachable } from '../api';
import { useTries } from '../reconnect';
import type { Api } from '../api';
import { formatTime } from '../format';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { useSearchParam, useServerSearch } from '../searchTerm';
import type { Notice } from '../action';
import { returnFocus } from '../focus';
import { DeleteDialog } from '../components/DeleteDialog';
import { NoticeLine } from '../components/NoticeLine';
import { invalidField, refusedField } from '../components/FieldError';
import { LoadFailure } from '../components/LoadFailure';
import { PagesError, Pager, pagedTable, useAddressPages, usePages } from '../components/Pager';
import { SearchField } from '../components/SearchField';
import { useTitle } from '../title';

/** The fields of a group's form, by the words a refusal about each begins with. */
const groupFields = { 'group-name': /^name\b/, 'group-description': /^description\b/ };

/** The groups; `creating` (the address groups/new) opens the form of a new group above them. */
export function GroupList({ creating = false }: { creating?: boolean }) {
  const { api, can } = useSession();
  useTitle('Groups');
  const search = useSearchParam();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(
    async (after: string | null) => (await api.request(GroupsDocument, { first: 20, after, query: search.term || null })).groups,
    [api, search.term],
  );
  const pages = useAddressPages(load);
  const invalid = (field: string) => invalidField(refusedField(error, groupFields) === field && 'group-refusal');

  const onCreate = async () => {
    setError('');
    try {
      const g = (await api.request(CreateGroupDocument, { input: { name: name.trim(), description } })).createGroup!;
      navigate(`groups/${g.id}`, { replace: true });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="page">
      <div className="page-head">
        <h1>Groups</h1>
        {can.edit && !creating && (
          <button type="button" className="btn btn-primary" onClick={() => navigate('groups/new')}>
            New group
          </button>
        )}
      </div>
      {creating && (
        <form
          className="panel form-row"
          aria-label="New group"
          onSubmit={(e) => {
            e.preventDefault();
            void onCreate();
          }}
        >
          <div className="field">
            <label htmlFor="group-name">Name</label>
            <input id="group-name" value={name} onChange={(e) => setName(e.target.value)} autoFocus {...invalid('group-name')} />
          </div>
          <div className="field grow">
            <label htmlFor="group-description">Description</label>
            <input id="group-description" value={description} onChange={(e) => setDescription(e.target.value)} {...invalid('group-description')} />
          </div>
          <div className="actions">
            <button type="button" className="btn" onClick={() => navigate('groups')}>
              Cancel
            </button>
            <button type="submit" className="btn btn-primary" disabled={!name.trim()}>
              Create group
            </button>
          </div>
        </form>
      )}
      {error && (
        <p className="alert alert-error" id="group-refusal" role="alert">
          {error}
        </p>
      )}
      <PagesError pages={pages} />
      <div className="filters" role="search">
        <SearchField search={search} id="group-search" />
      </div>
      <table {...pagedTable(pages)} aria-label="Groups">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Description</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((g) => (
            <tr key={g.id}>
              <td>
                <Link to={`groups/${g.id}`}>{g.name}</Link>
              </td>
              <td>{g.description}</td>
              <td>{formatTime(g.updatedAt)}</td>
            </tr>
          ))}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={3} className="muted empty">
                {search.term ? 'No group matches.' : 'No groups yet.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
    </div>
  );
}

const missingGroup = 'There is no such group: it was deleted, or it belongs to another organization.';

export function GroupPage({ id }: { id: string }) {
  const { api, can } = useSession();
  const [group, setGroup] = useState<GroupFieldsFragment | null>(null);
  const [loadError, setLoadError] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [notice, setNotice] = useState<Notice | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { attempt, trying } = useTries(saysUnreachable(loadError));
  useTitle(group?.name);

  useEffect(() => {
    let live = true;
    if (!trying()) setLoadError('');
    api.request(GroupDocument, { id }).then(
      (r) => {
        if (!live) return;
        if (!r.group) {
          setLoadError(missingGroup);
          return;
        }
        setLoadError('');
        setGroup(r.group);
        setName(r.group.name);
        setDescription(r.group.description);
      },
      (err) => live && setLoadError(namesNothing(err) ? missingGroup : errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, id, attempt]);

  if (loadError) return <LoadFailure error={loadError} back={{ to: 'groups', text: 'Back to the groups' }} />;
  if (!group) return <p className="muted pad">Loading…</p>;

  const changed = name !== group.name || description !== group.description;
  const invalid = (field: string) => invalidField(refusedField(notice, groupFields) === field && 'group-notice');
  const onSave = async () => {
    setNotice(null);
    try {
      const g = (await api.request(UpdateGroupDocument, { input: { id, name: name.trim(), description } })).updateGroup!;
      setGroup(g);
      setName(g.name);
      setDescription(g.description);
      setNotice({ kind: 'ok', text: 'Group saved.' });
    } catch (err) {
      setNotice({ kind: 'error', text: errorMessage(err) });
    }
  };
  const onDelete = async () => {
    try {
      await api.request(DeleteGroupDocument, { input: { id } });
      navigate('groups');
    } catch (err) {
      setNotice({ kind: 'error', text: errorMessage(err) });
    }
  };

  return (
    <div className="page">
      <div className="page-head">
        <div className="title-block">
          <Link to="groups" className="crumb">
            Groups
          </Link>
          <h1>{group.name}</h1>
          {group.description && <span className="muted">{group.description}</span>}
        </div>
        {can.edit && (
          <div className="actions">
            <button type="button" className="btn btn-danger" onClick={() => setConfirmDelete(true)}>
              Delete group
            </button>
          </div>
        )}
      </div>
      <NoticeLine notice={notice} id="group-notice" />
      {can.edit && (
        <form
          className="panel form-row"
          aria-label="Group details"
          onSubmit={(e) => {
            e.preventDefault();
            void onSave();
          }}
        >
          <div className="field">
            <label htmlFor="group-name">Name</label>
            <input id="group-name" value={name} onChange={(e) => setName(e.target.value)} {...invalid('group-name')} />
          </div>
          <div className="field grow">
            <label htmlFor="group-description">Description</label>
            <input id="group-description" value={description} onChange={(e) => setDescription(e.target.value)} {...invalid('group-description')} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={!changed || !name.trim()}>
            Save changes
          </button>
        </form>
      )}
      <GroupMembers groupId={id} kind="POLICY" />
      <GroupMembers groupId={id} kind="FLOW" />
      {confirmDelete && (
        <DeleteDialog noun="group" name={group.name} onClose={() => setConfirmDelete(false)} onDelete={() => void onDelete()}>
          The group and its memberships go; its policies and flows stay as they are.
        </DeleteDialog>
      )}
    </div>
  );
}

const words = {
  POLICY: { title: 'Policies', one: 'policy', path: 'policies' },
  FLOW: { title: 'Flows', one: 'flow', path: 'flows' },
} as const;

/** How many bases "Add a … by name" offers. */
const OFFERED = 8;

/** Up to OFFERED bases whose name matches query and that are not in the group, as the server finds them. */
async function candidates(api: Api, kind: GroupMemberKind, groupId: string, query: string) {
  const vars = { first: OFFERED, query: query || null, notInGroupId: groupId };
  const conn =
    kind === 'POLICY' ? (await api.request(PoliciesDocument, vars)).policies : (await api.request(FlowsDocument, vars)).flows;
  return conn.edges.map(({ node }) => ({ baseId: node.baseId, name: node.name, latestVersion: node.latestVersion ?? null }));
}

/**
 * What tells an offered policy or flow from another of the same name: its
 * latest version, or that it is a draft only, and, when the name is not
 * enough, the end of its id.
 */
function offeredDetail(b: { baseId: string; name: string; latestVersion: number | null }, offered: { name: string }[]): string {
  const status = b.latestVersion === null ? 'draft only' : `version ${b.latestVersion}`;
  return offered.filter((o) => o.name === b.name).length > 1 ? `${status}, id …${b.baseId.slice(-6)}` : status;
}

function GroupMembers({ groupId, kind }: { groupId: string; kind: GroupMemberKind }) {
  const { api, can } = useSession();
  const w = words[kind];
  const [version, setVersion] = useState(0);
  const [query, setQuery] = useState('');
  const [error, setError] = useState('');

  const load = useCallback(
    async (after: string | null) => {
      const vars = { id: groupId, first: 20, after };
      const conn =
        kind === 'POLICY'
          ? (await api.request(GroupPoliciesDocument, vars)).group?.policies
          : (await api.request(GroupFlowsDocument, vars)).group?.flows;
      return conn ?? { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    },
    [api, groupId, kind],
  );
  // A new version reads the page again after a change.
  const pages = usePages(load, version);

  // A new version searches again: what was added is no longer a candidate.
  const find = useCallback((q: string) => candidates(api, kind, groupId, q), [api, kind, groupId, version]);
  const { found, error: searchError } = useServerSearch(find, query, can.edit);

  const act = async (what: () => Promise<void>) => {
    setError('');
    try {
      await what();
      setVersion((v) => v + 1);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  // The button of one added leaves with it: focus goes back to the search, for the next.
  const search = useRef<HTMLInputElement>(null);
  const add = (baseId: string) =>
    act(async () => {
      await api.request(AddGroupMemberDocument, { input: { groupId, kind, baseId } });
      returnFocus(search.current);
    });
  // The Remove button of one removed leaves with its row: focus goes to
  // the one that takes its place, or the one before, or the search.
  const table = useRef<HTMLTableElement>(null);
  const remove = (baseId: string, row: number) =>
    act(async () => {
      const m = (await api.request(GroupMembershipDocument, { id: groupId, kind, baseId })).group?.membership;
      if (!m) throw new Error(`This ${w.one} is no longer in the group.`);
      await api.request(RemoveGroupMemberDocument, { input: { groupId, memberId: m.id } });
      returnFocus(() => {
        const buttons = table.current?.querySelectorAll<HTMLButtonElement>('tbody button');
        return buttons?.[row] ?? buttons?.[row - 1] ?? search.current;
      });
    });

  const headingId = `members-${kind.toLowerCase()}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <div className="panel-head">
        <h2 id={headingId}>{w.title} in this group</h2>
      </div>
      {(error || searchError || pages.error) && (
        <p className="alert alert-error" role="alert">
          {error || searchError || pages.error}
        </p>
      )}
      <table {...pagedTable(pages)} ref={table} aria-label={`${w.title} in the group`}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Latest version</th>
            <th scope="col">Updated</th>
            {can.edit && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((p, i) => (
            <tr key={p.baseId}>
              <td>
                <Link to={`${w.path}/${p.baseId}`}>{p.name}</Link>
              </td>
              <td>{p.latestVersion ?? 'Draft only'}</td>
              <td>{formatTime(p.updatedAt)}</td>
              {can.edit && (
                <td>
                  <button type="button" className="btn btn-ghost btn-small" onClick={() => void remove(p.baseId, i)} aria-label={`Remove ${p.name} from the group`}>
                    Remove
                  </button>
                </td>
              )}
            </tr>
          ))}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={can.edit ? 4 : 3} className="muted empty">
                No {w.title.toLowerCase()} you may see are in this group.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
      {can.edit && (
        <div className="add-members">
          <div className="field">
            <label htmlFor={`${headingId}-search`}>Add a {w.one} by name</label>
            <input id={`${headingId}-search`} ref={search} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name contains…" />
          </div>
          <ul className="picker-results" aria-label={`${w.title} to add`}>
            {found?.map((b) => {
              const detail = offeredDetail(b, found);
              return (
                <li key={b.baseId}>
                  <button type="button" className="btn btn-small" onClick={() => void add(b.baseId)} aria-label={`Add ${b.name} (${detail})`}>
                    + {b.name} <span className="muted">({detail})</span>
                  </button>
                </li>
              );
            })}
          </ul>
          {found?.length === 0 && (
            <p className="muted small">
              No other {w.title.toLowerCase()} match.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
