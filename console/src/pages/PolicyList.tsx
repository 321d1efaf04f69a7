import { useEffect, useState } from 'react';
import { GroupsDocument, GroupPoliciesDocument, PoliciesDocument } from '@verdict/client';
import type { PolicySummaryFieldsFragment } from '@verdict/client';
import { errorMessage } from '../api';
import { Link, navigate } from '../router';
import { ownerLabel, useSession } from '../session';
import { formatTime } from '../format';

const PAGE_SIZE = 20;

interface Page {
  items: PolicySummaryFieldsFragment[];
  hasNext: boolean;
  endCursor: string | null;
}

export function PolicyList() {
  const session = useSession();
  const { api, can } = session;
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [groupId, setGroupId] = useState('');
  const [groups, setGroups] = useState<{ id: string; name: string }[]>([]);
  // cursors[i] is the cursor the i-th page starts after; the first has none.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState('');

  useEffect(() => {
    const t = window.setTimeout(() => setSearch(query.trim()), 250);
    return () => window.clearTimeout(t);
  }, [query]);

  useEffect(() => {
    setCursors([null]);
  }, [search, groupId]);

  useEffect(() => {
    api.request(GroupsDocument, { first: 100 }).then(
      (r) => setGroups(r.groups.edges.map((e) => ({ id: e.node.id, name: e.node.name }))),
      () => setGroups([]),
    );
  }, [api]);

  const after = cursors[cursors.length - 1] ?? null;
  useEffect(() => {
    let live = true;
    setError('');
    const vars = { first: PAGE_SIZE, after, query: search || null };
    const load = groupId
      ? api.request(GroupPoliciesDocument, { ...vars, id: groupId }).then((r) => r.group?.policies ?? null)
      : api.request(PoliciesDocument, vars).then((r) => r.policies);
    load.then(
      (conn) => {
        if (!live) return;
        setPage(
          conn
            ? { items: conn.edges.map((e) => e.node), hasNext: conn.pageInfo.hasNextPage, endCursor: conn.pageInfo.endCursor ?? null }
            : { items: [], hasNext: false, endCursor: null },
        );
      },
      (err) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, search, groupId, after]);

  return (
    <div className="page">
      <div className="page-head">
        <h1>Policies</h1>
        {can.edit && (
          <button type="button" className="btn btn-primary" onClick={() => navigate('policies/new')}>
            New policy
          </button>
        )}
      </div>
      <div className="filters" role="search">
        <div className="field">
          <label htmlFor="policy-search">Search by name</label>
          <input id="policy-search" type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name contains…" />
        </div>
        <div className="field">
          <label htmlFor="policy-group">Group</label>
          <select id="policy-group" value={groupId} onChange={(e) => setGroupId(e.target.value)}>
            <option value="">All groups</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      )}
      <table className="table" aria-label="Policies" aria-busy={page === null}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Owner</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {page?.items.map((p) => (
            <tr key={p.baseId}>
              <td>
                <Link to={`policies/${p.baseId}`}>{p.name}</Link>
              </td>
              <td>
                <PolicyStatus latest={p.latestVersion ?? null} hasDraft={p.hasDraft} />
              </td>
              <td>{ownerLabel(session, p.owner)}</td>
              <td>{formatTime(p.updatedAt)}</td>
            </tr>
          ))}
          {page && page.items.length === 0 && (
            <tr>
              <td colSpan={4} className="muted empty">
                {search || groupId ? 'No policy matches.' : 'No policies yet.'}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="pager">
        <button type="button" className="btn" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          Previous page
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button
          type="button"
          className="btn"
          disabled={!page?.hasNext}
          onClick={() => page?.endCursor && setCursors((c) => [...c, page.endCursor])}
        >
          Next page
        </button>
      </div>
    </div>
  );
}

export function PolicyStatus({ latest, hasDraft }: { latest: number | null; hasDraft: boolean }) {
  return (
    <span className="status">
      {latest !== null && <span className="badge badge-published">Version {latest}</span>}
      {hasDraft && <span className="badge badge-draft">Draft</span>}
    </span>
  );
}
