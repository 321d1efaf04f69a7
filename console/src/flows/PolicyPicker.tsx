// Picks the policy a flow node runs: found by name, then pinned to one of
// its records or following its latest version (the base id).
import { useCallback, useState } from 'react';
import { PoliciesDocument, PolicyDocument } from '@verdict/client';
import type { PolicyFieldsFragment } from '@verdict/client';
import type { Api } from '../api';
import { useLookups } from '../lookups';
import { usePolicyRecords } from '../records';
import { useServerSearch } from '../searchTerm';
import { OlderVersions } from '../components/OlderVersions';
import type { PolicyRef } from './definition';

/** How a resolved policy reference reads on a node. */
export function policyLabel(kind: 'pinned' | 'latest' | 'either', p: PolicyFieldsFragment | null): string {
  if (!p) return 'Policy not found';
  if (kind === 'latest') return `${p.name} · latest version`;
  if (kind === 'pinned') return `${p.name} · ${p.status === 'DRAFT' ? 'draft' : `version ${p.version}`}`;
  return p.name;
}

/** Resolves policy references to their records, once per id, for the node labels. */
export function usePolicies(api: Api, ids: string[]): Map<string, PolicyFieldsFragment | null> {
  const lookup = useCallback(async (id: string) => (await api.request(PolicyDocument, { id })).policy ?? null, [api]);
  return useLookups(ids, lookup);
}

/** The policies found for a text, and whether the server has more matches than those. */
interface Found {
  policies: { baseId: string; name: string }[];
  more: boolean;
  query: string;
}

export function PolicyPicker({ api, nodeId, onPick }: { api: Api; nodeId: string; onPick: (ref: PolicyRef) => void }) {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<{ baseId: string; name: string } | null>(null);
  const [pin, setPin] = useState('latest');
  const { records, loadError, older } = usePolicyRecords(api, chosen?.baseId ?? '');
  const find = useCallback(
    async (q: string): Promise<Found> => {
      const r = await api.request(PoliciesDocument, { first: 10, query: q || null });
      return { policies: r.policies.edges.map((e) => ({ baseId: e.node.baseId, name: e.node.name })), more: r.policies.pageInfo.hasNextPage, query: q };
    },
    [api],
  );
  const { found, error } = useServerSearch(find, query);

  const id = `pick-${nodeId}`;
  return (
    <div className="picker">
      <div className="field">
        <label htmlFor={`${id}-search`}>Find a policy by name</label>
        <input id={`${id}-search`} type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Name contains…" />
      </div>
      {(error || loadError) && <p className="field-error">{error || loadError}</p>}
      <ul className="picker-results" aria-label="Policies found">
        {found?.policies.map((p) => (
          <li key={p.baseId}>
            <button
              type="button"
              className={`btn btn-small ${chosen?.baseId === p.baseId ? 'btn-primary' : ''}`}
              onClick={() => {
                setChosen(p);
                setPin('latest');
              }}
              aria-pressed={chosen?.baseId === p.baseId}
            >
              {p.name}
            </button>
          </li>
        ))}
        {found === null && !error && <li className="muted small">Searching…</li>}
        {found?.policies.length === 0 && <li className="muted small">No policy matches.</li>}
      </ul>
      {found?.more && (
        <p className="muted small">{found.query ? 'More policies match: type more of the name to narrow the list.' : 'More policies: type part of a name to find them.'}</p>
      )}
      {chosen && (
        <div className="field">
          <label htmlFor={`${id}-version`}>Which version of “{chosen.name}”</label>
          <select id={`${id}-version`} value={pin} onChange={(e) => setPin(e.target.value)} disabled={!records}>
            <option value="latest">The latest version, whatever it is when the flow runs</option>
            {records?.map((r) => (
              <option key={r.id} value={r.id}>
                {r.status === 'DRAFT' ? 'The draft (pinned)' : `Version ${r.version} (pinned)`}
              </option>
            ))}
          </select>
          <OlderVersions older={older} small />
          <button
            type="button"
            className="btn btn-primary btn-small picker-use"
            onClick={() => onPick(pin === 'latest' ? { baseId: chosen.baseId } : { id: pin })}
          >
            Use this policy
          </button>
        </div>
      )}
    </div>
  );
}
