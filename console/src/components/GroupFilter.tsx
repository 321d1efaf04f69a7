// The group filter of the policy and flow lists: a box that finds groups by
// name on the server as you type, so that any group of an organization can
// be chosen however many it has.
import { useCallback, useEffect, useState } from 'react';
import { GroupDocument, GroupsDocument } from '@verdict/client';
import type { Api } from '../api';
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
  // The names of the groups picked or looked up, by id.
  const [names, setNames] = useState(() => new Map<string, string>());

  const remember = (group: Choice) => setNames((n) => new Map(n).set(group.id, group.name));

  // A group the address chose, rather than this box, is named by asking the server.
  useEffect(() => {
    if (!groupId || names.has(groupId)) return;
    let live = true;
    api.request(GroupDocument, { id: groupId }).then(
      (r) => live && remember({ id: groupId, name: r.group?.name ?? 'Group not found' }),
      // The list's own load shows why the group could not be read.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, groupId, names]);

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
      shown={names.get(groupId) ?? ''}
      find={find}
      words={words}
      onPick={(choice) => {
        if (choice.id) remember(choice);
        onPick(choice.id);
      }}
    />
  );
}
