// The group filter of the policy and flow lists: a box that finds groups by
// name on the server as you type, so that any group of an organization can
// be chosen however many it has.
import { useCallback, useState } from 'react';
import { GroupDocument, GroupsDocument } from '@verdict/client';
import type { Api } from '../api';
import { useLookups } from '../lookups';
import { SearchCombo } from './SearchCombo';
import type { Choice, ComboWords } from './SearchCombo';

const allGroups: Choice = { id: '', name: 'All groups' };

const words: ComboWords = {
  list: 'Groups',
  noMatch: 'No group matches.',
  moreMatch: 'More groups match: type more of the name.',
  more: 'More groups: type part of a name to find them.',
};

/** The group filter naming the chosen group (groupId, '' for none); picking one, or All groups, calls onPick. */
export function GroupFilter({ api, id, groupId, onPick }: { api: Api; id: string; groupId: string; onPick: (groupId: string) => void }) {
  // The names of the groups picked in this box, by id.
  const [picked, setPicked] = useState(() => new Map<string, string>());
  // A group the address chose, rather than this box, is named by asking the server;
  // the list's own load shows why a group could not be read.
  const nameOf = useCallback(async (id: string) => (await api.request(GroupDocument, { id })).group?.name ?? 'Group not found', [api]);
  const looked = useLookups(groupId && !picked.has(groupId) ? [groupId] : [], nameOf);

  const find = useCallback(
    async (query: string | null, first: number) => {
      const r = await api.request(GroupsDocument, { first, query });
      return { choices: r.groups.edges.map((e) => ({ id: e.node.id, name: e.node.name })), more: r.groups.pageInfo.hasNextPage };
    },
    [api],
  );

  return (
    <SearchCombo
      id={id}
      none={allGroups}
      chosen={groupId}
      shown={picked.get(groupId) ?? looked.get(groupId) ?? ''}
      find={find}
      words={words}
      onPick={(choice) => {
        if (choice.id) setPicked((n) => new Map(n).set(choice.id, choice.name));
        onPick(choice.id);
      }}
    />
  );
}
