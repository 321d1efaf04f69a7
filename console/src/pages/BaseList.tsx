import { useCallback } from 'react';
import { FlowsDocument, GroupFlowsDocument, GroupPoliciesDocument, PoliciesDocument } from '@verdict/client';
import type { Api } from '../api';
import { Link, navigate, replaceQuery, useLocation } from '../router';
import { ownerLabel, useSession } from '../session';
import { useSearchParam } from '../searchTerm';
import { formatTime } from '../format';
import { PagesError, Pager, pagedTable, useAddressPages } from '../components/Pager';
import { SearchField } from '../components/SearchField';
import { GroupFilter } from '../components/GroupFilter';
import { useTitle } from '../title';

const PAGE_SIZE = 20;

/** What a list row shows of a policy or a flow. */
interface Summary {
  baseId: string;
  name: string;
  owner: { kind: string; id: string };
  latestVersion?: number | null;
  hasDraft: boolean;
  updatedAt: string;
}

interface Connection {
  edges: { node: Summary }[];
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

type Vars = { first: number; after: string | null; query: string | null };

interface Kind {
  /** The route and the plural, as headings and paths use it. */
  path: 'policies' | 'flows';
  title: string;
  one: string;
  list: (api: Api, vars: Vars) => Promise<Connection>;
  inGroup: (api: Api, vars: Vars & { id: string }) => Promise<Connection | null>;
}

const policies: Kind = {
  path: 'policies',
  title: 'Policies',
  one: 'policy',
  list: async (api, vars) => (await api.request(PoliciesDocument, vars)).policies,
  inGroup: async (api, vars) => (await api.request(GroupPoliciesDocument, vars)).group?.policies ?? null,
};

const flows: Kind = {
  path: 'flows',
  title: 'Flows',
  one: 'flow',
  list: async (api, vars) => (await api.request(FlowsDocument, vars)).flows,
  inGroup: async (api, vars) => (await api.request(GroupFlowsDocument, vars)).group?.flows ?? null,
};

export function PolicyList() {
  return <SummaryList kind={policies} />;
}

export function FlowList() {
  return <SummaryList kind={flows} />;
}

function SummaryList({ kind }: { kind: Kind }) {
  const session = useSession();
  const { api, can } = session;
  const { params } = useLocation();
  const search = useSearchParam();
  const groupId = params.get('group') ?? '';
  useTitle(kind.title);

  const load = useCallback(
    async (after: string | null): Promise<Connection> => {
      const vars = { first: PAGE_SIZE, after, query: search.term || null };
      if (!groupId) return kind.list(api, vars);
      // A group that is gone lists nothing.
      return (await kind.inGroup(api, { ...vars, id: groupId })) ?? { edges: [], pageInfo: { hasNextPage: false, endCursor: null } };
    },
    [api, kind, search.term, groupId],
  );
  const pages = useAddressPages(load);

  return (
    <div className="page">
      <div className="page-head">
        <h1>{kind.title}</h1>
        {can.edit && (
          <button type="button" className="btn btn-primary" onClick={() => navigate(`${kind.path}/new`)}>
            New {kind.one}
          </button>
        )}
      </div>
      <div className="filters" role="search">
        <SearchField search={search} id="list-search" />
        <div className="field">
          <label htmlFor="list-group">Group</label>
          <GroupFilter api={api} id="list-group" groupId={groupId} onPick={(group) => replaceQuery({ group, after: [] })} />
        </div>
      </div>
      <PagesError pages={pages} />
      <table {...pagedTable(pages)} aria-label={kind.title}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Status</th>
            <th scope="col">Owner</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {pages.items?.map((p) => (
            <tr key={p.baseId}>
              <td>
                <Link to={`${kind.path}/${p.baseId}`}>{p.name}</Link>
              </td>
              <td>
                <PolicyStatus latest={p.latestVersion ?? null} hasDraft={p.hasDraft} />
              </td>
              <td>{ownerLabel(session, p.owner)}</td>
              <td>{formatTime(p.updatedAt)}</td>
            </tr>
          ))}
          {pages.items?.length === 0 && (
            <tr>
              <td colSpan={4} className="muted empty">
                {search.term || groupId ? `No ${kind.one} matches.` : `No ${kind.title.toLowerCase()} yet.`}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <Pager pages={pages} />
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
